//! The contract between the Kore engine and the SDK, and the example bots'
//! strength, played natively through the engine (no sandbox).

mod common;

use common::{player, Player};
use ludus_engine::Outcome;
use ludus_example_bots::kore::{Idle, Miner, Random};
use ludus_sdk::kore::Observation;
use serde_json::Value;

/// A full game of Kore (400 steps) on the board of `seed`. Every
/// observation must read into the SDK's types, and no answer may put a
/// seat out.
fn play_native(seed: u64, bots: Vec<Player>) -> Outcome {
    common::play_native_with(
        "kore",
        &Value::Null,
        seed,
        bots,
        |seat, obs| {
            let typed: Observation = serde_json::from_str(obs)
                .unwrap_or_else(|e| panic!("seed {seed}: the SDK cannot read {obs}: {e}"));
            assert_eq!(typed.observation.player, seat);
        },
        |r| r.kind != "agent_error" && r.kind != "not_json",
    )
}

fn wins(seeds: std::ops::Range<u64>, opponent: fn() -> Player) -> usize {
    seeds
        .map(|seed| {
            // Alternate seats so that neither side keeps the same start.
            let miner_seat = (seed % 2) as usize;
            let bots = if miner_seat == 0 {
                vec![player::<Miner>(), opponent()]
            } else {
                vec![opponent(), player::<Miner>()]
            };
            let o = play_native(seed, bots);
            usize::from(o.placements[miner_seat] == 1 && o.placements[1 - miner_seat] == 2)
        })
        .sum()
}

#[test]
fn miner_beats_idle_in_most_of_ten_games() {
    let won = wins(0..10, player::<Idle>);
    assert!(won >= 8, "miner won {won} of 10 against idle");
}

#[test]
fn miner_beats_random_in_most_of_ten_games() {
    let won = wins(10..20, player::<Random>);
    assert!(won >= 8, "miner won {won} of 10 against random");
}

#[test]
fn four_seat_games_run_to_the_end() {
    let o = play_native(
        3,
        vec![
            player::<Miner>(),
            player::<Random>(),
            player::<Idle>(),
            player::<Miner>(),
        ],
    );
    assert_eq!(o.placements.len(), 4);
    assert!(
        o.placements[2] >= 3,
        "idle should not place in the top two: {o:?}"
    );
}
