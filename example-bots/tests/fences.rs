//! The contract between the fences engine and the SDK, and the example
//! bots' strength, played natively through the engine (no sandbox).

mod common;

use common::{play_native, play_native_with, player, Player};
use ludus_engine::{new_game, Outcome};
use ludus_example_bots::fences::{Sample, Strategy};
use serde_json::{json, Value};

fn match_of(strategy_seat: usize, config: &Value, seed: u64) -> Outcome {
    let bots: Vec<Player> = if strategy_seat == 0 {
        vec![player::<Strategy>(), player::<Sample>()]
    } else {
        vec![player::<Sample>(), player::<Strategy>()]
    };
    play_native("fences", config, seed, bots)
}

#[test]
fn the_strategy_beats_the_sample_from_either_seat_on_both_boards() {
    let mut won = 0;
    let mut lost = Vec::new();
    let boards = [Value::Null, json!({"width": 19, "height": 13})];
    let mut played = 0;
    for seed in 0..6u64 {
        for (b, config) in boards.iter().enumerate() {
            let seat = (seed % 2) as usize;
            let o = match_of(seat, config, seed);
            played += 1;
            if o.placements[seat] == 1 && o.placements[1 - seat] == 2 {
                won += 1;
            } else {
                lost.push((seed, b, seat, o.reason.clone()));
            }
            eprintln!(
                "seed {seed} board {b} strategy seat {seat}: {:?} {}",
                o.scores, o.reason
            );
        }
    }
    assert!(
        lost.is_empty(),
        "the strategy won {won} of {played}; not won: {lost:?}"
    );
}

#[test]
fn the_sample_plays_without_a_refused_answer() {
    let o = play_native(
        "fences",
        &Value::Null,
        1,
        vec![player::<Sample>(), player::<Sample>()],
    );
    assert_eq!(o.placements.len(), 2);
}

/// Every observation of a few matches parses into the SDK type and writes
/// back to the very same JSON: no field missing, renamed or extra.
#[test]
fn sdk_types_read_every_fences_observation_exactly() {
    let mut seen_regions = false;
    let mut seen_breaks = false;
    for (seed, seat) in [(0u64, 0usize), (1, 1)] {
        play_native_with(
            "fences",
            &json!({"max_turns": 60}),
            seed,
            if seat == 0 {
                vec![player::<Strategy>(), player::<Sample>()]
            } else {
                vec![player::<Sample>(), player::<Strategy>()]
            },
            |s, text| {
                let typed: ludus_sdk::fences::Observation =
                    serde_json::from_str(text).unwrap_or_else(|e| panic!("seat {s}: {e}\n{text}"));
                let engine: Value = serde_json::from_str(text).unwrap();
                assert_eq!(serde_json::to_value(&typed).unwrap(), engine);
                seen_regions |= !typed.regions.is_empty();
                seen_breaks |= typed.legal_moves.iter().any(|m| m.breaks.is_some());
            },
            |_| false,
        );
    }
    assert!(
        seen_regions && seen_breaks,
        "regions {seen_regions}, breaks {seen_breaks}"
    );
    let g = new_game("fences", &Value::Null, 0, 2).unwrap();
    assert_eq!(g.players(), 2);
}
