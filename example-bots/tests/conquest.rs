//! The contract between the conquest engine and the SDK, and the example
//! bots' strength, played natively through the engine (no sandbox).

mod common;

use common::{play_native, player, sdk_reads_exactly, strong_wins, Player};
use ludus_example_bots::conquest::{Sample, Strategy};
use serde_json::{json, Value};

#[test]
fn sdk_types_read_every_conquest_observation_exactly() {
    sdk_reads_exactly::<ludus_sdk::conquest::Observation, Strategy, Sample>(
        "conquest",
        &Value::Null,
    );
    sdk_reads_exactly::<ludus_sdk::conquest::Observation, Strategy, Sample>(
        "conquest",
        &json!({"capitals": "choose"}),
    );
}

#[test]
fn the_strategy_beats_three_samples_in_most_matches() {
    let (won, played) = strong_wins::<Strategy, Sample>("conquest", &Value::Null, 0..24);
    eprintln!("the strategy won {won} of {played} matches against three samples");
    assert!(
        won * 10 >= played * 8,
        "the strategy won only {won} of {played}"
    );
}

#[test]
fn four_strategies_play_a_whole_match_without_a_refusal() {
    for config in [
        Value::Null,
        json!({"capitals": "choose"}),
        json!({"capitals": "corners"}),
    ] {
        let bots: Vec<Player> = (0..4).map(|_| player::<Strategy>()).collect();
        let o = play_native("conquest", &config, 5, bots);
        eprintln!("{config}: {} {:?}", o.reason, o.scores);
    }
}
