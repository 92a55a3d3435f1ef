//! The contract between the grid game engines (`claim`, `loops`, `shields`)
//! and the SDK, and the example bots' strength, played natively through the
//! engines (no sandbox).

mod common;

use common::{play_native, player, strong_wins, Player};
use ludus_engine::new_game;
use ludus_example_bots::{claim, loops, shields};
use ludus_sdk::Bot;
use serde::de::DeserializeOwned;
use serde::Serialize;
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

/// Every observation of a few matches parses into the SDK type and writes
/// back to the very same JSON: no field missing, renamed or extra.
fn sdk_reads_exactly<Obs, Strong, Weak>(game: &str)
where
    Obs: DeserializeOwned + Serialize,
    Strong: Bot<Observation = Obs>,
    Weak: Bot<Observation = Obs>,
{
    for seed in 0..3u64 {
        let mut g = new_game(game, &Value::Null, seed, 4).unwrap();
        let mut bots: Vec<Player> = vec![
            player::<Strong>(),
            player::<Weak>(),
            player::<Strong>(),
            player::<Weak>(),
        ];
        let mut text = String::new();
        while g.outcome().is_none() && g.turn() < 60 {
            let mut answers = Vec::new();
            for (seat, bot) in bots.iter_mut().enumerate() {
                g.observation(seat, &mut text);
                let typed: Obs = serde_json::from_str(&text)
                    .unwrap_or_else(|e| panic!("{game} seat {seat}: {e}\n{text}"));
                let engine: Value = serde_json::from_str(&text).unwrap();
                assert_eq!(serde_json::to_value(&typed).unwrap(), engine, "{game}");
                answers.push(bot(&text));
            }
            let refs: Vec<Option<&str>> = answers.iter().map(|a| Some(a.as_str())).collect();
            assert!(g.step(&refs).is_empty());
        }
    }
}

#[test]
fn sdk_types_read_every_claim_observation_exactly() {
    sdk_reads_exactly::<ludus_sdk::claim::Observation, claim::Strategy, claim::Sample>("claim");
}

#[test]
fn sdk_types_read_every_loops_observation_exactly() {
    sdk_reads_exactly::<ludus_sdk::loops::Observation, loops::Strategy, loops::Sample>("loops");
}

#[test]
fn sdk_types_read_every_shields_observation_exactly() {
    sdk_reads_exactly::<ludus_sdk::shields::Observation, shields::Strategy, shields::Sample>(
        "shields",
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
