//! The hostile-bot corpus: every attack ends as a recorded fault, the match
//! is finished, and the host's time and memory stay bounded.

mod common;

use common::*;
use ludus_host::{FaultKind, Limits, LoadError, Replay};
use std::time::{Duration, Instant};

/// Generous bound against a hang; the limits are fuel, not time.
const HANG_GUARD: Duration = Duration::from_secs(60);

/// Plays `hostile` (seat 0) against an idle bot for 12 turns and checks what
/// every hostile bot must give: a finished match, the expected fault on turn
/// 1, the seat out after `max_consecutive_faults`, fuel bounded.
fn faults_as(hostile: &str, kind: FaultKind) -> Replay {
    let limits = Limits::for_tests();
    let bot = if hostile.ends_with(".wat") {
        wat_bot(hostile.trim_end_matches(".wat"))
    } else {
        bot(hostile)
    };
    let start = Instant::now();
    let replay = planet_wars(vec![bot, wat_bot("idle")], 1, 12, limits.clone());
    assert!(
        start.elapsed() < HANG_GUARD,
        "{hostile} held the host for {:?}",
        start.elapsed()
    );
    assert!(replay.outcome.is_some(), "the match finished");
    assert!(replay.aborted.is_none());
    let first = &replay.turns[0].seats[0];
    let fault = first
        .fault
        .as_ref()
        .unwrap_or_else(|| panic!("{hostile}: no fault on turn 1"));
    assert_eq!(fault.kind, kind, "{hostile}: {fault}");
    assert!(first.answer.is_none());
    // Out of the match after max_consecutive_faults faults in a row.
    let n = limits.max_consecutive_faults as usize;
    for t in &replay.turns[..n] {
        assert!(t.seats[0].fault.is_some() && !t.seats[0].out);
    }
    for t in &replay.turns[n..] {
        assert!(t.seats[0].out && t.seats[0].fault.is_none() && t.seats[0].fuel == 0);
    }
    // Bounded: no turn burns more than its budget, instantiation included.
    for (i, t) in replay.turns.iter().enumerate() {
        let budget = limits.turn_budget(i as u32);
        assert!(
            t.seats[0].fuel <= budget,
            "turn {} burnt {}",
            t.turn,
            t.seats[0].fuel
        );
    }
    // The opponent was never disturbed.
    assert!(replay.turns.iter().all(|t| t.seats[1].fault.is_none()));
    replay
}

#[test]
fn endless_loop_in_act_runs_out_of_fuel_and_the_seat_is_out_after_repeated_faults() {
    let r = faults_as("loop_in_act", FaultKind::OutOfFuel);
    let limits = Limits::for_tests();
    assert!(r.turns[0].seats[0].fuel >= limits.first_turn_fuel);
}

#[test]
fn endless_loop_in_start_function_is_metered_by_fuel() {
    let r = faults_as("loop_in_start.wat", FaultKind::OutOfFuel);
    let msg = &r.turns[0].seats[0].fault.as_ref().unwrap().message;
    assert!(msg.contains("starting the instance"), "{msg}");
}

#[test]
fn endless_loop_in_initialize_is_metered_by_fuel() {
    faults_as("loop_in_initialize.wat", FaultKind::OutOfFuel);
}

#[test]
fn memory_bomb_hits_the_memory_cap_and_host_memory_stays_bounded() {
    let before = rss_kib();
    faults_as("memory_bomb", FaultKind::MemoryCap);
    if let (Some(a), Some(b)) = (before, rss_kib()) {
        assert!(
            b.saturating_sub(a) < 256 * 1024,
            "host RSS grew from {a} KiB to {b} KiB"
        );
    }
}

#[test]
fn initial_memory_over_the_match_cap_is_a_memory_cap_fault() {
    faults_as("initial_memory_over_match_cap.wat", FaultKind::MemoryCap);
}

#[test]
fn initial_memory_over_the_sandbox_cap_is_refused_when_loaded() {
    let err = sandbox()
        .load("huge", &wat_bytes("huge_initial_memory"))
        .unwrap_err();
    assert!(
        matches!(
            err,
            LoadError::MemoryTooLarge {
                initial_mib: 2048,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn deep_recursion_overflows_the_wasm_stack() {
    faults_as("deep_recursion", FaultKind::StackOverflow);
}

#[test]
fn panic_is_a_trap_and_its_message_is_in_the_log() {
    let r = faults_as("panic_in_act", FaultKind::Trap);
    assert!(
        r.turns[0].seats[0].log.contains("this bot always panics"),
        "{:?}",
        r.turns[0].seats[0].log
    );
}

/// A bot written with the SDK explains its panic: the fault says the
/// panic's message and place, as Rust words a panic; the log keeps the usual
/// panic message and nothing of the note.
#[test]
fn an_sdk_bots_panic_is_a_trap_that_says_its_message_and_place() {
    let r = faults_as("panic_in_sdk_bot", FaultKind::Trap);
    let first = &r.turns[0].seats[0];
    let fault = first.fault.as_ref().unwrap();
    assert!(
        fault
            .message
            .starts_with("panicked at hostile-bots/examples/panic_in_sdk_bot.rs:"),
        "{fault}"
    );
    // The test map has 23 planets.
    let said = "no target among 23 planets";
    assert!(fault.message.ends_with(&format!(": {said}")), "{fault}");
    assert!(!fault.message.contains("unreachable"), "{fault}");
    assert!(first.log.contains(said), "{}", first.log);
    assert!(!first.log.contains("ludus-fault"), "{}", first.log);
    // A bot that has no hook to explain itself keeps the sandbox's words.
    let plain = faults_as("panic_in_act", FaultKind::Trap);
    let fault = plain.turns[0].seats[0].fault.as_ref().unwrap();
    assert!(fault.message.contains("unreachable"), "{fault}");
}

#[test]
fn answer_pointer_outside_memory_is_a_fault() {
    faults_as("bad_answer_pointer", FaultKind::BadAnswerPointer);
}

#[test]
fn huge_answer_length_is_a_fault() {
    faults_as("huge_answer_length", FaultKind::AnswerTooLarge);
}

#[test]
fn an_answer_longer_than_the_games_cap_is_a_fault_and_not_kept() {
    // Under the host's megabyte, over Planet Wars' own cap: padding, not moves.
    let replay = faults_as("padded_answer.wat", FaultKind::AnswerTooLarge);
    let cap = ludus_engine::registry::info("planet-wars")
        .unwrap()
        .answer_bytes;
    assert!(cap < Limits::for_tests().answer_bytes);
    let fault = replay.turns[0].seats[0].fault.as_ref().unwrap();
    assert!(fault.message.contains(&cap.to_string()), "{fault}");
    // What a replay keeps of the match stays small.
    assert!(replay.to_bytes(false).len() < 64 << 10);
}

#[test]
fn invalid_utf8_answer_is_a_fault() {
    faults_as("invalid_utf8", FaultKind::BadUtf8);
}

#[test]
fn alloc_pointer_outside_memory_is_a_fault() {
    faults_as("bad_alloc_pointer.wat", FaultKind::BadAllocPointer);
}

#[test]
fn proc_exit_is_a_fault() {
    faults_as("proc_exit.wat", FaultKind::Exit);
}

#[test]
fn sleeping_never_blocks_the_host_and_is_paid_in_fuel() {
    faults_as("sleep_forever", FaultKind::OutOfFuel);
}

#[test]
fn random_get_flood_is_paid_in_fuel() {
    faults_as("random_flood.wat", FaultKind::OutOfFuel);
}

#[test]
fn stdout_flood_is_capped_and_counted_and_the_bot_still_answers() {
    let limits = Limits::for_tests();
    let r = planet_wars(
        vec![bot("stdout_flood"), wat_bot("idle")],
        1,
        5,
        limits.clone(),
    );
    let seat = |t: usize| &r.turns[t].seats[0];
    assert!(r
        .turns
        .iter()
        .all(|t| t.seats[0].fault.is_none() && t.seats[0].answer.is_some()));
    let kept: usize = r.turns.iter().map(|t| t.seats[0].log.len()).sum();
    assert_eq!(
        kept as u64, limits.log_bytes,
        "the log keeps exactly the cap"
    );
    let dropped: u64 = r.turns.iter().map(|t| t.seats[0].log_dropped).sum();
    // Each turn writes 1 MiB to stdout plus a line to stderr.
    assert_eq!(
        kept as u64 + dropped,
        5 * ((1 << 20) + "and some stderr\n".len() as u64)
    );
    assert!(seat(4).log.is_empty() && seat(4).log_dropped > 0);
}

#[test]
fn clocks_are_virtual_and_randomness_is_seeded_per_match_and_seat() {
    let limits = Limits::default();
    let play = |seed| {
        planet_wars(
            vec![bot("clock_watcher"), bot("clock_watcher")],
            seed,
            3,
            limits.clone(),
        )
    };
    let a = play(5);
    let b = play(5);
    assert_eq!(
        a.to_bytes(false),
        b.to_bytes(false),
        "same seed, same bytes"
    );
    let answer = |r: &Replay, t: usize, s: usize| -> serde_json::Value {
        serde_json::from_str(r.turns[t].seats[s].answer.as_ref().unwrap()).unwrap()
    };
    let first = answer(&a, 0, 0);
    assert!(
        first["elapsed_ns"].as_u64().unwrap() >= 50_000_000,
        "{first}"
    );
    assert!(first["spins"].as_u64().unwrap() > 0);
    // The wall clock starts at the virtual epoch (2020-01-01), not at today.
    let wall = first["wall_ns"].as_u64().unwrap();
    assert!(
        (ludus_host::VIRTUAL_EPOCH_NS..ludus_host::VIRTUAL_EPOCH_NS + 3_600_000_000_000)
            .contains(&wall)
    );
    // The clock moves forward from turn to turn.
    assert!(answer(&a, 1, 0)["wall_ns"].as_u64().unwrap() > wall);
    // Seats draw different streams; another seed gives other numbers.
    assert_ne!(first["random"], answer(&a, 0, 1)["random"]);
    assert_ne!(first["random"], answer(&play(6), 0, 0)["random"]);
}

#[test]
fn forbidden_import_is_refused_naming_the_import() {
    let err = sandbox()
        .load("forbidden", &wat_bytes("forbidden_import"))
        .unwrap_err();
    assert!(matches!(err, LoadError::ForbiddenImport { .. }), "{err}");
    assert!(err.to_string().contains("env::launch_missiles"), "{err}");
}

#[test]
fn unknown_wasi_function_is_refused_naming_it() {
    let err = sandbox()
        .load("mars", &wat_bytes("unknown_wasi_import"))
        .unwrap_err();
    assert!(matches!(err, LoadError::UnknownWasiImport { .. }), "{err}");
    assert!(err.to_string().contains("open_socket_to_mars"), "{err}");
}

#[test]
fn missing_export_is_refused_naming_it() {
    let err = sandbox()
        .load("noact", &wat_bytes("missing_act"))
        .unwrap_err();
    assert!(
        matches!(err, LoadError::MissingExport { name: "act", .. }),
        "{err}"
    );
}

#[test]
fn export_of_the_wrong_type_is_refused() {
    let err = sandbox()
        .load("wrongact", &wat_bytes("wrong_act_type"))
        .unwrap_err();
    assert!(
        matches!(err, LoadError::WrongExport { name: "act", .. }),
        "{err}"
    );
}

#[test]
fn bytes_that_are_not_wasm_are_refused_saying_what_they_start_with() {
    let err = sandbox()
        .load("garbage", b"#!/bin/sh\nrm -rf /\n")
        .unwrap_err();
    assert!(matches!(err, LoadError::NotWasm { .. }), "{err}");
    assert!(err.to_string().contains("the text `#!/b`"), "{err}");
    let err = sandbox()
        .load("binary", &[0xff, 0xd8, 0xff, 0xe0, 1])
        .unwrap_err();
    assert!(err.to_string().contains("the bytes ffd8ffe0"), "{err}");
    let err = sandbox().load("nothing", b"").unwrap_err();
    assert!(matches!(err, LoadError::Empty { .. }), "{err}");
    // The header, then garbage: the validator's message, on one line.
    let err = sandbox()
        .load("broken", b"\0asm\x01\0\0\0\xff\xff\xff")
        .unwrap_err();
    assert!(matches!(err, LoadError::Compile { .. }), "{err}");
    assert!(!err.to_string().contains('\n'), "{err}");
}
