//! The contract between the Halite engine and the SDK, and the example bots'
//! strength, played natively through the engine (no sandbox).

mod common;

use common::{player, Player};
use ludus_engine::halite::Halite;
use ludus_engine::{Game, Outcome};
use ludus_example_bots::halite::{Collector, Idle, Random};
use ludus_sdk::halite::Turn;
use ludus_sdk::FromJson;
use serde_json::Value;

fn play_native(seed: u64, bots: Vec<Player>) -> Outcome {
    common::play_native("halite", &Value::Null, seed, bots)
}

#[test]
fn sdk_types_read_every_observation_as_the_engine_holds_it() {
    for players in [2, 4] {
        let mut game = Halite::from_config(&Value::Null, 3, players).unwrap();
        let mut bots: Vec<Player> = (0..players)
            .map(|seat| {
                if seat % 2 == 0 {
                    player::<Collector>()
                } else {
                    player::<Random>()
                }
            })
            .collect();
        let mut text = String::new();
        let mut long_numbers = false;
        while game.outcome().is_none() {
            let mut answers = Vec::new();
            for (seat, bot) in bots.iter_mut().enumerate() {
                game.observation(seat, &mut text);
                let turn: Turn = serde_json::from_str(&text).unwrap();
                // The SDK's one-pass reader (what bots use) gives serde's
                // value to the bit: Debug prints the shortest exact f64.
                let fast = Turn::from_json(text.as_bytes()).unwrap();
                assert_eq!(
                    format!("{fast:?}"),
                    format!("{turn:?}"),
                    "turn {}",
                    game.turn()
                );
                long_numbers |= has_a_number_of_16_digits_or_more(&text);
                assert_eq!(turn.observation.player, seat);
                assert_eq!(turn.observation.step, game.turn());
                assert_eq!(turn.configuration.size, 21);
                assert_eq!(turn.observation.halite.len(), 441);
                for (cell, h) in game.halite().iter().enumerate() {
                    assert_eq!(turn.observation.halite[cell], h.to_f64());
                }
                for (p, sdk) in turn.observation.players.iter().enumerate() {
                    assert_eq!(sdk.halite, game.banks()[p].to_f64());
                    let ships: Vec<(String, usize, f64)> = game
                        .ships()
                        .iter()
                        .filter(|s| s.owner == p)
                        .map(|s| (s.uid.to_string(), s.pos, s.halite.to_f64()))
                        .collect();
                    let seen: Vec<(String, usize, f64)> = sdk
                        .ships
                        .iter()
                        .map(|s| (s.id.clone(), s.pos, s.halite))
                        .collect();
                    assert_eq!(seen, ships);
                    let yards: Vec<(String, usize)> = game
                        .shipyards()
                        .iter()
                        .filter(|y| y.owner == p)
                        .map(|y| (y.uid.to_string(), y.pos))
                        .collect();
                    let seen: Vec<(String, usize)> = sdk
                        .shipyards
                        .iter()
                        .map(|y| (y.id.clone(), y.pos))
                        .collect();
                    assert_eq!(seen, yards);
                }
                answers.push(bot(&text));
            }
            let answers: Vec<Option<&str>> = answers.iter().map(|a| Some(a.as_str())).collect();
            let rejections = game.step(&answers);
            assert!(rejections.is_empty(), "{rejections:?}");
        }
        // Cargo and banks are float sums, written with up to 17 digits: the
        // reader's slower exact path was taken too.
        assert!(long_numbers, "{players} players: no long float was seen");
    }
}

fn has_a_number_of_16_digits_or_more(text: &str) -> bool {
    text.split(|c: char| !c.is_ascii_digit() && c != '.')
        .any(|n| n.chars().filter(char::is_ascii_digit).count() >= 16)
}

#[test]
fn collector_beats_idle_and_random_in_most_four_seat_matches() {
    let mut wins = 0;
    let mut lost = Vec::new();
    let seeds = 0..10u64;
    for seed in seeds.clone() {
        // The collector takes every seat in turn.
        let seat = seed as usize % 4;
        let mut bots: Vec<Player> = vec![player::<Idle>(), player::<Random>(), player::<Random>()];
        bots.rotate_left(seed as usize % 3);
        bots.insert(seat, player::<Collector>());
        let outcome = play_native(seed, bots);
        eprintln!(
            "seed {seed}: collector in seat {seat}, scores {:?}",
            outcome.scores
        );
        let sole_first = outcome.placements[seat] == 1
            && outcome.placements.iter().filter(|p| **p == 1).count() == 1;
        if sole_first {
            wins += 1;
        } else {
            lost.push((seed, outcome.scores, outcome.reason));
        }
    }
    eprintln!(
        "collector won {wins} of {}; not won: {lost:?}",
        seeds.count()
    );
    assert!(wins >= 8, "collector won only {wins} of 10: {lost:?}");
}

#[test]
fn collector_banks_more_than_it_started_with_against_itself() {
    let outcome = play_native(
        21,
        vec![
            player::<Collector>(),
            player::<Collector>(),
            player::<Collector>(),
            player::<Collector>(),
        ],
    );
    assert!(
        outcome.scores.iter().all(|s| *s > 5000.0),
        "{:?}",
        outcome.scores
    );
}

#[test]
fn matches_replay_exactly() {
    let run = || {
        play_native(
            5,
            vec![
                player::<Collector>(),
                player::<Random>(),
                player::<Idle>(),
                player::<Random>(),
            ],
        )
    };
    assert_eq!(run(), run());
}
