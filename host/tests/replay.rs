//! Reproduction: the same match twice gives the same bytes, on any number of
//! threads; `verify` re-runs a replay and names the first turn that differs.

mod common;

use common::*;
use ludus_host::{Limits, Replay};

fn expander_vs_random(seed: u64) -> Replay {
    planet_wars(
        vec![bot("planet_wars_expander"), bot("planet_wars_random")],
        seed,
        120,
        Limits::default(),
    )
}

#[test]
fn the_same_seed_twice_gives_byte_identical_replays() {
    let a = expander_vs_random(11).to_bytes(false);
    let b = expander_vs_random(11).to_bytes(false);
    assert_eq!(a, b);
    assert_eq!(
        expander_vs_random(11).to_bytes(true),
        expander_vs_random(11).to_bytes(true)
    );
}

#[test]
fn different_seeds_give_different_matches() {
    let a = expander_vs_random(1);
    let b = expander_vs_random(2);
    assert_ne!(a.setup, b.setup, "different maps");
    assert_ne!(a.match_id, b.match_id);
    assert_ne!(a.initial_state_hash, b.initial_state_hash);
}

#[test]
fn one_thread_and_many_threads_give_the_same_bytes() {
    let seeds = [3u64, 4, 5, 6];
    let sequential: Vec<Vec<u8>> = seeds
        .iter()
        .map(|&s| expander_vs_random(s).to_bytes(false))
        .collect();
    let parallel: Vec<Vec<u8>> = std::thread::scope(|scope| {
        let handles: Vec<_> = seeds
            .iter()
            .map(|&s| scope.spawn(move || expander_vs_random(s).to_bytes(false)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(sequential, parallel);
}

/// A short pirates match of the example bots: a game played in turn order.
fn pirates(seed: u64) -> Replay {
    ludus_host::play(&ludus_host::MatchSpec {
        game: "pirates".into(),
        config: serde_json::json!({"max_turns": 300}),
        seed,
        limits: Limits::default(),
        bots: vec![
            bot("pirates_strategy"),
            bot("pirates_sample"),
            bot("pirates_random"),
            bot("pirates_sample"),
        ],
    })
    .expect("the match is played")
}

#[test]
fn a_game_in_turn_order_calls_only_the_seat_to_move_the_same_way_on_any_thread() {
    let r = pirates(5);
    assert!(r.outcome.is_some());
    for t in &r.turns {
        let to_move = (t.turn as usize - 1) % 4;
        for (seat, s) in t.seats.iter().enumerate() {
            if seat == to_move && !s.waiting {
                assert!(s.answer.is_some() && s.fuel > 0, "turn {}", t.turn);
            } else {
                assert!(
                    s.waiting && s.fuel == 0 && s.answer.is_none(),
                    "turn {}",
                    t.turn
                );
            }
        }
    }
    let bytes = r.to_bytes(false);
    let threads: Vec<Vec<u8>> = std::thread::scope(|scope| {
        let h: Vec<_> = (0..2)
            .map(|_| scope.spawn(|| pirates(5).to_bytes(false)))
            .collect();
        h.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(threads.iter().all(|b| *b == bytes));
    let bots = [
        "pirates_strategy",
        "pirates_sample",
        "pirates_random",
        "pirates_sample",
    ]
    .map(bot)
    .to_vec();
    assert_eq!(ludus_host::verify(&r, bots).unwrap(), None);
}

#[test]
fn a_replay_records_what_determines_the_match() {
    let r = expander_vs_random(9);
    assert_eq!(r.format, "ludus-replay");
    assert_eq!(r.wasmtime_version, ludus_host::WASMTIME_VERSION);
    assert_eq!(r.game, "planet-wars");
    assert_eq!(r.seed, 9);
    assert_eq!(r.limits, Limits::default());
    assert!(r.setup["map"]["planets"]
        .as_array()
        .is_some_and(|p| p.len() >= 15));
    assert_eq!(r.seats[0].name, "planet_wars_expander");
    assert_eq!(r.seats[0].sha256, bot("planet_wars_expander").sha256);
    assert_eq!(r.match_id, r.compute_match_id());
    assert!(r
        .turns
        .iter()
        .all(|t| t.state_hash.len() == 64 && t.seats.len() == 2));
    assert!(r.turns.iter().any(|t| t.seats[0]
        .answer
        .as_deref()
        .is_some_and(|a| a.contains("origin"))));
    assert!(r.turns.iter().all(|t| t.seats.iter().all(|s| s.fuel > 0)));
}

#[test]
fn a_replay_round_trips_through_files_plain_and_gzip() {
    let r = expander_vs_random(12);
    let dir = tempfile::tempdir().unwrap();
    for name in ["m.json", "m.json.gz"] {
        let path = dir.path().join(name);
        r.save(&path).unwrap();
        assert_eq!(Replay::load(&path).unwrap(), r);
    }
    let err = Replay::from_bytes(b"{\"format\":\"something-else\"}").unwrap_err();
    assert!(err.to_string().contains("not a Ludus replay"), "{err}");
}

#[test]
fn verify_accepts_an_untouched_replay() {
    let r = expander_vs_random(13);
    let bots = vec![bot("planet_wars_expander"), bot("planet_wars_random")];
    assert_eq!(ludus_host::verify(&r, bots).unwrap(), None);
}

#[test]
fn verify_names_the_turn_of_a_hand_edited_answer() {
    let mut r = expander_vs_random(14);
    let turn = 20;
    let answer = r.turns[turn].seats[1].answer.clone().unwrap();
    r.turns[turn].seats[1].answer = Some(format!("{answer} "));
    let bots = vec![bot("planet_wars_expander"), bot("planet_wars_random")];
    let d = ludus_host::verify(&r, bots)
        .unwrap()
        .expect("the edit is found");
    assert_eq!(d.turn, Some(r.turns[turn].turn), "{d}");
    assert!(d.what.contains("seat 1"), "{d}");
}

#[test]
fn verify_names_the_turn_of_a_hand_edited_state_hash() {
    let mut r = expander_vs_random(15);
    r.turns[30].state_hash = "0".repeat(64);
    let bots = vec![bot("planet_wars_expander"), bot("planet_wars_random")];
    let d = ludus_host::verify(&r, bots)
        .unwrap()
        .expect("the edit is found");
    assert_eq!(d.turn, Some(31), "{d}");
    assert!(d.what.contains("state hash"), "{d}");
}

#[test]
fn verify_with_a_different_bot_names_the_first_turn_that_differs() {
    let r = expander_vs_random(16);
    let bots = vec![bot("planet_wars_expander"), bot("planet_wars_idle")];
    let d = ludus_host::verify(&r, bots)
        .unwrap()
        .expect("a different bot differs");
    // Another bot burns other fuel from its very first turn.
    assert_eq!(d.turn, Some(1), "{d}");
    assert!(d.what.contains("seat 1 (`planet_wars_random`) fuel"), "{d}");
    assert!(d.what.contains("seat 1 was `planet_wars_random`"), "{d}");
}

#[test]
fn verify_catches_an_edited_seed() {
    let mut r = expander_vs_random(17);
    r.seed = 18;
    let bots = vec![bot("planet_wars_expander"), bot("planet_wars_random")];
    let d = ludus_host::verify(&r, bots)
        .unwrap()
        .expect("the edit is found");
    assert!(d.what.contains("match id"), "{d}");
}

/// A replay from elsewhere may hold anything: ids of any length, lists of
/// any size, a file cut short. Reading it is an error that says what is
/// wrong, or a replay whose summary and comparison work; never a panic.
#[test]
fn a_foreign_replay_is_read_or_refused_with_a_reason_never_a_panic() {
    let good = expander_vs_random(5);
    let json: serde_json::Value = serde_json::from_slice(&good.to_bytes(false)).unwrap();
    let parse = |v: &serde_json::Value| Replay::from_bytes(v.to_string().as_bytes());

    // Short, odd ids: quoted as they are.
    let mut odd = json.clone();
    odd["match_id"] = "é1".into();
    odd["seats"][0]["sha256"] = "ab".into();
    odd["turns"][0]["state_hash"] = "".into();
    let replay = parse(&odd).unwrap();
    assert_eq!(replay.short_id(), "é1");
    assert_eq!(ludus_host::short_id("0123456789abcdef"), "0123456789ab");
    let summary = replay.summary();
    assert_eq!(summary.score_unit, "share");
    assert_eq!(summary.progress_unit, Some("ships"));
    assert_eq!(summary.seats.len(), 2);
    let d = good.first_difference(&replay).expect("they differ");
    assert!(d.to_string().contains("`planet_wars_expander` (ab)"), "{d}");

    // A turn with a seat missing, an outcome with too few places.
    let mut uneven = json.clone();
    uneven["turns"][3]["seats"].as_array_mut().unwrap().pop();
    let err = parse(&uneven).expect_err("refused").to_string();
    assert!(err.contains("turn 4 has 1 seats"), "{err}");
    let mut short_outcome = json.clone();
    short_outcome["outcome"]["placements"] = serde_json::json!([1]);
    let err = parse(&short_outcome).expect_err("refused").to_string();
    assert!(err.contains("outcome has 2 scores and 1 places"), "{err}");
    let mut no_seats = json.clone();
    no_seats["seats"] = serde_json::json!([]);
    assert!(parse(&no_seats).is_err());

    // A missing field is named.
    let mut missing = json.clone();
    missing.as_object_mut().unwrap().remove("seed");
    let err = parse(&missing).expect_err("refused").to_string();
    assert!(err.contains("missing field `seed`"), "{err}");

    // Cut short, plain or gzip.
    for gzip in [false, true] {
        let bytes = good.to_bytes(gzip);
        let err = Replay::from_bytes(&bytes[..bytes.len() / 2])
            .expect_err("refused")
            .to_string();
        assert!(err.contains("truncated"), "gzip {gzip}: {err}");
    }
    assert!(Replay::from_bytes(b"")
        .expect_err("refused")
        .to_string()
        .contains("empty"));
}

/// A replay of another rules version is refused before any bot runs, with
/// the version that recorded it.
#[test]
fn verify_refuses_a_replay_of_another_rules_version_naming_both() {
    let mut replay = expander_vs_random(6);
    replay.rules_version = 7;
    let err = ludus_host::verify(
        &replay,
        vec![bot("planet_wars_expander"), bot("planet_wars_random")],
    )
    .expect_err("refused")
    .to_string();
    assert!(
        err.contains("planet-wars rules v7; this Ludus plays v2"),
        "{err}"
    );
}

/// Planet Wars' score is the share of the opponents a seat outlasted, not
/// ships: the summary heads it `share`, and shows the final ships apart,
/// headed `ships`, from the last turn's running scores. A game whose
/// running score is its score has no second column.
#[test]
fn the_summary_heads_planet_wars_share_as_share_and_shows_the_final_ships_apart() {
    let replay = expander_vs_random(7);
    let summary = replay.summary();
    assert_eq!(summary.score_unit, "share");
    assert_eq!(summary.progress_unit, Some("ships"));
    let outcome = replay.outcome.as_ref().expect("the match ends");
    let ships = &replay.turns.last().expect("turns were played").scores;
    for (s, seat) in summary.seats.iter().enumerate() {
        assert_eq!(seat.score, Some(outcome.scores[s]), "seat {s}");
        assert!((0.0..=1.0).contains(&outcome.scores[s]), "a share");
        assert_eq!(seat.progress, Some(ships[s]), "seat {s}");
    }
    assert!(
        ships.iter().any(|&n| n > 1.0),
        "the ships are a count, not a share: {ships:?}"
    );

    // Unfinished: no share yet, the ships so far.
    let mut unfinished = replay.clone();
    unfinished.outcome = None;
    let summary = unfinished.summary();
    for (s, seat) in summary.seats.iter().enumerate() {
        assert_eq!(seat.score, None, "seat {s}");
        assert_eq!(seat.progress, Some(ships[s]), "seat {s}");
    }

    let gold = pirates(3).summary();
    assert_eq!((gold.score_unit, gold.progress_unit), ("gold", None));
    assert!(gold.seats.iter().all(|s| s.progress.is_none()));
}

/// The summary says where to look: each seat's refusals by kind with the
/// first one's reason, the turns with faults and with refusals, and the
/// earliest fault or refusal of the match (a fault first on a tie).
#[test]
fn the_summary_names_refusals_with_their_reason_and_the_first_thing_to_look_at() {
    use ludus_host::replay::Refusal;
    use ludus_host::{Fault, FaultKind, Finding};
    let mut replay = expander_vs_random(5);
    assert_eq!(replay.summary().first_finding(), None, "a clean match");
    let refuse = |kind: &str, reason: &str| Refusal {
        kind: kind.into(),
        reason: reason.into(),
    };
    for t in [3, 4, 5, 9] {
        replay.turns[t - 1].seats[1].refused = vec![refuse("unknown_planet", "no planet `x`")];
    }
    replay.turns[8].seats[1]
        .refused
        .push(refuse("not_enough_ships", "5 ships, 3 on the planet"));
    for t in [6, 7] {
        replay.turns[t - 1].seats[0].fault =
            Some(Fault::new(FaultKind::Trap, "panicked at a.rs:1:1: x"));
    }
    let summary = replay.summary();
    let random = &summary.seats[1];
    assert_eq!(random.refused, 5);
    assert_eq!(
        random.refusals,
        [
            ("unknown_planet".to_string(), 4),
            ("not_enough_ships".to_string(), 1)
        ]
    );
    assert_eq!(
        random.refusals_text(),
        "4× unknown_planet, 1× not_enough_ships"
    );
    assert_eq!(
        random.first_refusal,
        Some((3, refuse("unknown_planet", "no planet `x`")))
    );
    assert_eq!(random.refusal_turns, [3, 4, 5, 9]);
    assert_eq!(replay.refusal_counts(), [0, 5]);
    assert_eq!(ludus_host::turn_ranges(&random.refusal_turns), "3–5, 9");
    assert_eq!(summary.seats[0].fault_turns, [6, 7]);
    assert_eq!(
        summary.first_finding(),
        Some(Finding {
            turn: 3,
            seat: 1,
            fault: false
        })
    );
    // A fault on the same turn as the first refusal comes first.
    replay.turns[2].seats[0].fault = Some(Fault::new(FaultKind::OutOfFuel, "out of fuel"));
    assert_eq!(
        replay.summary().first_finding(),
        Some(Finding {
            turn: 3,
            seat: 0,
            fault: true
        })
    );
}
