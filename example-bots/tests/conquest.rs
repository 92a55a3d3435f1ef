//! The contract between the conquest engine and the SDK, and the example
//! bots' strength, played natively through the engine (no sandbox).

mod common;

use common::{play_native, player, sdk_reads_exactly, Player};
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

/// One strategy against three samples, the strategy's seat going round the
/// table. Returns (outright wins, matches).
fn strategy_wins(seeds: std::ops::Range<u64>) -> (usize, usize) {
    let mut won = 0;
    let mut played = 0;
    for seed in seeds {
        let seat = (seed % 4) as usize;
        let bots: Vec<Player> = (0..4)
            .map(|s| {
                if s == seat {
                    player::<Strategy>()
                } else {
                    player::<Sample>()
                }
            })
            .collect();
        let o = play_native("conquest", &Value::Null, seed, bots);
        played += 1;
        let firsts = o.placements.iter().filter(|&&p| p == 1).count();
        if o.placements[seat] == 1 && firsts == 1 {
            won += 1;
        } else {
            eprintln!("seed {seed}, seat {seat}: {} {:?}", o.reason, o.scores);
        }
    }
    (won, played)
}

#[test]
fn the_strategy_beats_three_samples_in_most_matches() {
    let (won, played) = strategy_wins(0..24);
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
