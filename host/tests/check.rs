//! The validation match of `ludus check` and `ludus submit`: a bot plays the
//! game it is entered for, against copies of itself at every seat count, or
//! it is refused with the turn, the reason and its own log.

mod common;

use common::*;
use ludus_host::check::{self, CheckReport, Problem, Validation, VALIDATION_TURNS};
use ludus_host::{BotModule, FaultKind, Limits, LoadError};
use std::sync::Arc;

fn check_every_game(bot: &Arc<BotModule>, limits: &Limits) -> CheckReport {
    check::check(bot, None, limits, |_| {}).expect("the validation is played")
}

fn check_game(bot: &Arc<BotModule>, game: &str, limits: &Limits) -> Validation {
    let mut report = check::check(bot, Some(game), limits, |_| {}).expect("validated");
    report.games.remove(0)
}

#[test]
fn every_example_bot_plays_its_own_game_and_no_other() {
    let mut bots = Vec::new();
    for game in ludus_engine::games() {
        let names = ludus_testkit::example_bots(game.id);
        assert!(!names.is_empty(), "{} has no example bots", game.id);
        bots.extend(names.into_iter().map(|name| (game.id, name)));
    }
    for (game, name) in &bots {
        let report = check_every_game(&bot(name), &Limits::default());
        assert_eq!(report.plays(), [*game], "{name}: {report:#?}");
        let own = report.game(game).unwrap();
        let info = ludus_engine::registry::info(game).unwrap();
        assert_eq!(
            own.matches.iter().map(|m| m.seats).collect::<Vec<_>>(),
            info.seats,
            "{name}: one match per seat count"
        );
        assert!(own.matches.iter().all(|m| m.turns == VALIDATION_TURNS));
        for other in report.games.iter().filter(|v| v.game != *game) {
            // The SDK answers nothing to an observation it cannot read.
            let failed = other.failed().unwrap();
            let f = &failed.failures[0];
            assert_eq!(f.turn, 1, "{name} in {}", other.game);
            assert!(
                matches!(f.problem, Problem::Unreadable(_)),
                "{name} in {}: {:?}",
                other.game,
                f.problem
            );
            assert!(
                f.log.contains("could not read this turn's observation"),
                "{name} in {}: the bot's own log of the turn: {:?}",
                other.game,
                f.log
            );
            assert_eq!(
                other.matches.len(),
                1,
                "{name} in {}: no more seat counts after a failure",
                other.game
            );
        }
    }
}

/// The hostile corpus, each with the fault it must fail on.
const FAULTS: [(&str, FaultKind); 13] = [
    ("bad_answer_pointer", FaultKind::BadAnswerPointer),
    ("deep_recursion", FaultKind::StackOverflow),
    ("huge_answer_length", FaultKind::AnswerTooLarge),
    ("invalid_utf8", FaultKind::BadUtf8),
    ("loop_in_act", FaultKind::OutOfFuel),
    ("memory_bomb", FaultKind::MemoryCap),
    ("panic_in_act", FaultKind::Trap),
    ("sleep_forever", FaultKind::OutOfFuel),
    ("bad_alloc_pointer.wat", FaultKind::BadAllocPointer),
    ("loop_in_initialize.wat", FaultKind::OutOfFuel),
    ("loop_in_start.wat", FaultKind::OutOfFuel),
    ("proc_exit.wat", FaultKind::Exit),
    ("random_flood.wat", FaultKind::OutOfFuel),
];

fn hostile(name: &str) -> Arc<BotModule> {
    match name.strip_suffix(".wat") {
        Some(wat) => wat_bot(wat),
        None => bot(name),
    }
}

#[test]
fn every_hostile_bot_fails_on_its_first_turn_with_its_own_fault() {
    // Small budgets, so that the endless loops end quickly.
    let limits = Limits::for_tests();
    for (name, kind) in FAULTS {
        let v = check_game(&hostile(name), "planet-wars", &limits);
        let m = v
            .failed()
            .unwrap_or_else(|| panic!("{name} passed: {v:#?}"));
        assert_eq!(m.seats, 2, "{name}");
        let f = &m.failures[0];
        assert_eq!((f.turn, f.seat), (1, 0), "{name}");
        match &f.problem {
            Problem::Fault(fault) => assert_eq!(fault.kind, kind, "{name}: {fault}"),
            other => panic!("{name}: {other:?}"),
        }
        assert_eq!(
            m.failures.len(),
            1,
            "{name}: the match stops at the first fault, before seat 1 is asked"
        );
        assert!(!f.problem.what_to_do("planet-wars", 1, &limits).is_empty());
    }
    let memory_over_cap = check_game(
        &wat_bot("initial_memory_over_match_cap"),
        "planet-wars",
        &limits,
    );
    let f = &memory_over_cap.failed().unwrap().failures[0];
    assert!(
        matches!(&f.problem, Problem::Fault(fault) if fault.kind == FaultKind::MemoryCap),
        "{f:?}"
    );
}

#[test]
fn a_failure_comes_with_the_bots_own_log_of_that_turn() {
    let v = check_game(&bot("panic_in_act"), "kore", &Limits::for_tests());
    let f = &v.failed().unwrap().failures[0];
    assert!(f.log.contains("this bot always panics"), "{:?}", f.log);
    assert!(f.answer.is_none());
    assert!(v
        .why_failed()
        .unwrap()
        .starts_with("2 seats, turn 1, seat 0: trap"));
}

#[test]
fn modules_that_break_the_abi_are_refused_before_any_match() {
    for (name, refused) in [
        ("forbidden_import", "ForbiddenImport"),
        ("unknown_wasi_import", "UnknownWasiImport"),
        ("missing_act", "MissingExport"),
        ("wrong_act_type", "WrongExport"),
        ("huge_initial_memory", "MemoryTooLarge"),
    ] {
        let err = sandbox().load(name, &wat_bytes(name)).unwrap_err();
        assert!(format!("{err:?}").starts_with(refused), "{name}: {err:?}");
        assert!(matches!(
            err,
            LoadError::ForbiddenImport { .. }
                | LoadError::UnknownWasiImport { .. }
                | LoadError::MissingExport { .. }
                | LoadError::WrongExport { .. }
                | LoadError::MemoryTooLarge { .. }
        ));
    }
}

#[test]
fn well_behaved_members_of_the_hostile_corpus_pass() {
    for (name, bot) in [
        ("stdout_flood", bot("stdout_flood")),
        ("idle", wat_bot("idle")),
    ] {
        let v = check_game(&bot, "planet-wars", &Limits::default());
        assert!(v.passed(), "{name}: {v:#?}");
        assert_eq!(v.warnings(), 0, "{name}");
    }
}

#[test]
fn readable_answers_with_illegal_moves_pass_with_warnings() {
    let illegal = wat_bot("illegal_moves");
    let v = check_game(&illegal, "planet-wars", &Limits::default());
    assert!(v.passed(), "{v:#?}");
    // Every seat's move refused on every turn, at 2, 3 and 4 seats.
    assert_eq!(v.warnings(), (2 + 3 + 4) * VALIDATION_TURNS as usize);
    let w = &v.matches[0].warnings[0];
    assert_eq!((w.kind.as_str(), w.turn, w.seat), ("unknown_planet", 1, 0));
    // Kore, too, reads that answer (and ignores its unknown key): a bot that
    // plays two games must be told which one with --game.
    let report = check_every_game(&illegal, &Limits::default());
    assert_eq!(report.plays(), ["planet-wars", "kore"]);
}

#[test]
fn the_same_bot_gets_the_same_report_every_time() {
    let expander = bot("planet_wars_expander");
    let a = format!("{:?}", check_every_game(&expander, &Limits::default()));
    let b = format!("{:?}", check_every_game(&expander, &Limits::default()));
    assert_eq!(a, b);
}

/// Where to look in a validation: the turn and seat of its failure, else of
/// its first refused move, with a replay that holds that turn whole, even
/// when a fault stopped the match before the turn was resolved.
#[test]
fn a_validation_points_at_its_first_failure_or_refusal_with_a_replay_of_that_turn() {
    let limits = Limits::for_tests();
    let panics = bot("panic_in_act");
    let v = check_game(&panics, "planet-wars", &limits);
    let f = v.first_finding().expect("it failed");
    assert_eq!(
        (f.game, f.turn, f.seat, f.check.seats),
        ("planet-wars", 1, 0, 2)
    );
    assert!(
        f.check.replay.turns.is_empty(),
        "the fault stopped the match before turn 1 was resolved"
    );
    let replay = f.replay(&panics, &limits).unwrap();
    assert_eq!(replay.turns.len(), 1);
    assert_eq!(replay.seats.len(), 2);
    for seat in &replay.turns[0].seats {
        let fault = seat.fault.as_ref().expect("every copy panics");
        assert_eq!(fault.kind, FaultKind::Trap);
        assert!(seat.log.contains("this bot always panics"), "{}", seat.log);
    }
    assert_eq!(replay.match_id, f.check.replay.match_id, "the same match");

    let illegal = wat_bot("illegal_moves");
    let v = check_game(&illegal, "planet-wars", &limits);
    let f = v.first_finding().expect("moves were refused");
    assert_eq!((f.turn, f.seat, f.check.seats), (1, 0, 2));
    let replay = f.replay(&illegal, &limits).unwrap();
    assert_eq!(replay, f.check.replay, "the match as played has the turn");
    assert_eq!(replay.turns[0].seats[0].refused[0].kind, "unknown_planet");

    let clean = wat_bot("idle");
    assert!(check_game(&clean, "planet-wars", &limits)
        .first_finding()
        .is_none());
}
