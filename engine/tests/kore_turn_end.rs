//! The end of a Kore turn: new uids, errors, elimination, rewards, the step
//! limit; and how answers are read.

mod kore_common;

use kore_common::*;
use ludus_engine::kore::{rejection_kind, Dir, Num, Status};
use ludus_engine::Game;
use serde_json::{json, Value};

#[test]
fn new_uids_count_up_within_a_step_in_processing_order() {
    // Seat 0 launches and converts, then seat 1 launches: 1-1, 1-2, 1-3.
    let fleets = vec![fleet(0, 7, at(1, 1), Num::Int(0), 60, Dir::North, "C")];
    let mut g = game(
        vec![
            shipyard(0, 1, at(3, 3), 5, 0),
            shipyard(1, 2, at(4, 5), 5, 0),
        ],
        fleets,
    );
    g.step(&[
        Some(r#"{"0-1": "LAUNCH_1_N"}"#),
        Some(r#"{"0-2": "LAUNCH_1_S"}"#),
    ]);
    assert_eq!(fleet_by(&g, "1-1").owner, 0);
    assert_eq!(shipyard_by(&g, "1-2").owner, 0);
    assert_eq!(fleet_by(&g, "1-3").owner, 1);
}

#[test]
fn an_answer_upstream_raises_on_puts_the_seat_out_with_everything_it_had() {
    // Seat 0's fleet still fights this step (upstream plays the step, then
    // clears the seat): it destroys seat 1's smaller fleet.
    let fleets = vec![
        fleet(0, 1, at(3, 2), Num::Int(0), 10, Dir::East, ""),
        fleet(1, 2, at(3, 4), Num::Float(2.0), 4, Dir::West, ""),
    ];
    let mut g = game(vec![shipyard(0, 1, at(5, 5), 3, 0)], fleets);
    let r = play(&mut g, r#"{"0-1": "SPAWN_abc"}"#);
    assert!(r
        .iter()
        .any(|r| r.kind == rejection_kind::AGENT_ERROR && r.seat == 0));
    assert_eq!(g.status(), &[Status::Error, Status::Done]);
    assert!(g.fleets().is_empty());
    assert!(g.shipyards().iter().all(|s| s.owner == 1));
    assert_int(g.player_kore()[0], 0);
    assert_eq!(g.rewards(), vec![Value::Null, json!(500)]);
    assert_eq!(g.statuses(), vec!["ERROR", "DONE"]);
    let o = g.outcome().expect("over");
    assert_eq!(o.placements, vec![2, 1]);
}

#[test]
fn values_upstream_raises_on() {
    for bad in [
        r#""SPAWN_-1""#,
        r#""SPAWN_""#,
        r#""SPAWN_1_2""#,
        r#""LAUNCH_0_N""#,
        r#""LAUNCH_2_X""#,
        r#""LAUNCH_2_CN""#,
        r#""LAUNCH_2""#,
        "5",
        "true",
        r#"["SPAWN_1"]"#,
    ] {
        let mut g = game(vec![shipyard(0, 1, at(3, 3), 3, 0)], vec![]);
        play(&mut g, &format!("{{\"0-1\": {bad}}}"));
        assert_eq!(g.status()[0], Status::Error, "{bad}");
    }
    // SPAWN_<a number too large for a float> times the float spawn cost.
    let mut g = game(vec![shipyard(0, 1, at(3, 3), 3, 0)], vec![]);
    play(
        &mut g,
        &format!("{{\"0-1\": \"SPAWN_{}\"}}", "9".repeat(400)),
    );
    assert_eq!(g.status()[0], Status::Error);
}

#[test]
fn values_upstream_reads_as_no_order_or_ignores() {
    for fine in [
        "null",
        "0",
        "\"\"",
        "[]",
        "{}",
        "\"HELLO\"",
        "\"spawn_1\"",
        "\"SPAWN_0\"",
        "\"SPAWN_99\"",
        "\"LAUNCH_9_N\"",
    ] {
        let mut g = game(vec![shipyard(0, 1, at(3, 3), 3, 0)], vec![]);
        play(
            &mut g,
            &format!("{{\"0-1\": {fine}, \"0-99\": 5, \"zz\": true}}"),
        );
        assert_eq!(g.status()[0], Status::Active, "{fine}");
        assert_eq!(shipyard_by(&g, "0-1").ships, 3, "{fine}");
        assert!(g.fleets().is_empty(), "{fine}");
    }
    // Python's int(): spaces, signs, dots and other scripts' digits.
    for spawn in [
        "SPAWN_ 1",
        "SPAWN_+1",
        "SPAWN_1.9",
        "SPAWNX_1",
        "SPAWN_\u{661}",
    ] {
        let mut g = game(vec![shipyard(0, 1, at(3, 3), 3, 0)], vec![]);
        play(&mut g, &json!({ "0-1": spawn }).to_string());
        assert_eq!(shipyard_by(&g, "0-1").ships, 4, "{spawn}");
    }
}

#[test]
fn text_that_is_not_a_json_object_is_no_action() {
    for (answer, kind) in [
        ("SPAWN_1", rejection_kind::NOT_JSON),
        ("{\"0-1\": \"SPAWN_1\"", rejection_kind::NOT_JSON),
        ("[\"SPAWN_1\"]", rejection_kind::NOT_AN_OBJECT),
    ] {
        let mut g = game(vec![shipyard(0, 1, at(3, 3), 3, 0)], vec![]);
        let r = play(&mut g, answer);
        assert_eq!(g.status()[0], Status::Active);
        assert_eq!(shipyard_by(&g, "0-1").ships, 3);
        assert!(r.iter().any(|r| r.kind == kind), "{answer}");
    }
}

#[test]
fn a_player_without_shipyards_or_fleets_is_out_and_the_survivor_is_done() {
    // Seat 1's only asset is a fleet that loses a collision, at step 9 -> 10.
    let fleets = vec![
        fleet(0, 1, at(3, 2), Num::Int(0), 10, Dir::East, ""),
        fleet(1, 2, at(3, 4), Num::Int(0), 4, Dir::West, ""),
    ];
    let mut g = position(
        config(),
        9,
        &[Num::Int(500), Num::Int(500)],
        vec![shipyard(0, 1, at(5, 5), 0, 0)],
        fleets,
    );
    play(&mut g, r#"{"0-1": "SPAWN_1"}"#);
    assert_eq!(g.status(), &[Status::Done, Status::Done]);
    // Eliminated at step 10: 10 - 400 - 1. The survivor's reward is left as
    // it was before this step, though it has just spent 10 kore.
    assert_eq!(g.rewards(), vec![json!(500), json!(-391)]);
    assert_float(g.player_kore()[0], 490.0);
    assert_eq!(g.outcome().unwrap().placements, vec![1, 2]);
}

#[test]
fn the_game_ends_at_the_last_step_with_rewards_as_the_kore_held() {
    let mut c = config();
    c.episode_steps = 3;
    let mut g = position(
        c,
        0,
        &[Num::Int(500), Num::Int(500)],
        vec![
            shipyard(0, 1, at(1, 1), 0, 0),
            shipyard(1, 2, at(5, 5), 0, 0),
        ],
        vec![],
    );
    play(&mut g, r#"{"0-1": "SPAWN_1"}"#);
    assert_eq!(g.statuses(), vec!["ACTIVE", "ACTIVE"]);
    assert!(g.outcome().is_none());
    play(&mut g, "{}");
    assert_eq!(g.statuses(), vec!["DONE", "DONE"]);
    // Ints stay ints, floats floats, as upstream reports them.
    assert_eq!(g.rewards(), vec![json!(490.0), json!(500)]);
    assert!(g.rewards()[0].is_f64() && g.rewards()[1].is_i64());
    assert_eq!(g.outcome().unwrap().placements, vec![2, 1]);
    // A finished game does not move.
    let hash = g.state_hash();
    play(&mut g, r#"{"0-1": "SPAWN_1"}"#);
    assert_eq!(g.state_hash(), hash);
}
