//! The contract between the pirates engine and the SDK, and the example
//! bots' strength, played natively through the engine (no sandbox).

mod common;

use common::{play_native, play_native_with, player, strong_wins, Player};
use ludus_example_bots::pirates::{Random, Sample, Strategy};
use ludus_sdk::pirates::Observation;
use serde_json::{json, Value};

#[test]
fn the_strategy_beats_three_samples_in_most_matches() {
    for difficulty in ["easy", "normal", "hard"] {
        let config = json!({"difficulty": difficulty});
        let (won, played) = strong_wins::<Strategy, Sample>("pirates", &config, 0..8);
        eprintln!("{difficulty}: the strategy won {won} of {played} matches against three samples");
        assert!(
            won * 10 >= played * 8,
            "{difficulty}: won only {won} of {played}"
        );
    }
}

/// Every observation of a few matches parses into the SDK type and writes
/// back to the very same JSON: no field missing, renamed or extra.
#[test]
fn sdk_types_read_every_pirates_observation_exactly() {
    let bots = || -> Vec<Player> {
        vec![
            player::<Strategy>(),
            player::<Sample>(),
            player::<Strategy>(),
            player::<Sample>(),
        ]
    };
    for seed in 0..3 {
        let mut seen = 0;
        play_native_with(
            "pirates",
            &json!({"max_turns": 1200}),
            seed,
            bots(),
            |seat, text| {
                let typed: Observation = serde_json::from_str(text)
                    .unwrap_or_else(|e| panic!("seat {seat}: {e}\n{text}"));
                let engine: Value = serde_json::from_str(text).unwrap();
                assert_eq!(serde_json::to_value(&typed).unwrap(), engine);
                assert_eq!(usize::from(typed.your_id), seat + 1);
                assert_eq!(typed.to_move, typed.your_id, "asked only on its move");
                assert!(!typed.legal_actions.is_empty());
                seen += 1;
            },
            |_| false,
        );
        assert!(seen > 100, "{seen}");
    }
}

#[test]
fn every_example_bot_plays_whole_matches_without_a_refused_answer() {
    for seed in 0..4 {
        let bots: Vec<Player> = vec![
            player::<Random>(),
            player::<Sample>(),
            player::<Strategy>(),
            player::<Random>(),
        ];
        let o = play_native("pirates", &json!({"max_turns": 2000}), seed, bots);
        assert_eq!(o.placements.len(), 4);
    }
}

#[test]
fn pirates_matches_replay_exactly() {
    let run = || {
        let bots = vec![
            player::<Sample>(),
            player::<Strategy>(),
            player::<Sample>(),
            player::<Strategy>(),
        ];
        let o = play_native("pirates", &Value::Null, 3, bots);
        (o.placements, o.scores, o.reason)
    };
    assert_eq!(run(), run());
}
