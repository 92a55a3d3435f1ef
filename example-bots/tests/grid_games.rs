//! The contract between the grid game engines (`claim`, `loops`, `shields`)
//! and the SDK, and the example bots' strength, played natively through the
//! engines (no sandbox).

mod common;

use common::{play_native, player, sdk_reads_exactly, strong_wins};
use ludus_example_bots::{claim, loops, shields};
use ludus_sdk::Bot;
use serde_json::Value;

fn assert_strategy_wins_most<Strong: Bot, Weak: Bot>(game: &str) {
    let (won, played) = strong_wins::<Strong, Weak>(game, &Value::Null, 0..12);
    eprintln!("{game}: the strategy won {won} of {played} matches against three samples");
    assert!(
        won * 10 >= played * 8,
        "{game}: the strategy won only {won} of {played}"
    );
}

#[test]
fn claim_strategy_beats_three_samples_in_most_matches() {
    assert_strategy_wins_most::<claim::Strategy, claim::Sample>("claim");
}

#[test]
fn loops_strategy_beats_three_samples_in_most_matches() {
    assert_strategy_wins_most::<loops::Strategy, loops::Sample>("loops");
}

#[test]
fn shields_strategy_beats_three_samples_in_most_matches() {
    assert_strategy_wins_most::<shields::Strategy, shields::Sample>("shields");
}

#[test]
fn sdk_types_read_every_claim_observation_exactly() {
    sdk_reads_exactly::<ludus_sdk::claim::Observation, claim::Strategy, claim::Sample>(
        "claim",
        &Value::Null,
    );
}

#[test]
fn sdk_types_read_every_loops_observation_exactly() {
    sdk_reads_exactly::<ludus_sdk::loops::Observation, loops::Strategy, loops::Sample>(
        "loops",
        &Value::Null,
    );
}

#[test]
fn sdk_types_read_every_shields_observation_exactly() {
    sdk_reads_exactly::<ludus_sdk::shields::Observation, shields::Strategy, shields::Sample>(
        "shields",
        &Value::Null,
    );
}

#[test]
fn grid_matches_replay_exactly() {
    let run = || {
        let bots = vec![
            player::<loops::Strategy>(),
            player::<loops::Sample>(),
            player::<loops::Strategy>(),
            player::<loops::Sample>(),
        ];
        let o = play_native("loops", &Value::Null, 3, bots);
        (o.placements, o.scores)
    };
    assert_eq!(run(), run());
}
