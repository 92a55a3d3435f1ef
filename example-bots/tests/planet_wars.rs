//! The contract between the Planet Wars engine and the SDK, and the example
//! bots' strength, played natively through the engine (no sandbox).

mod common;

use common::{player, Player};
use ludus_engine::{new_game, Outcome};
use ludus_example_bots::planet_wars::{Expander, Idle, Random};
use ludus_sdk::planet_wars::{Moves, Observation};
use ludus_sdk::Bot;
use serde_json::{json, Value};

/// Turn cap for the matches here (the rule book's limit).
const MAX_TURNS: u32 = 500;

/// A seat's bot on typed values, for checking the types themselves.
type TypedPlayer = Box<dyn FnMut(&Observation) -> Moves>;

fn typed<B: Bot<Observation = Observation, Action = Moves>>() -> TypedPlayer {
    let mut bot = B::default();
    Box::new(move |obs| bot.act(obs))
}

/// One match of Planet Wars on the generated map of `seed`.
fn play_native(seed: u64, bots: Vec<Player>) -> Outcome {
    common::play_native(
        "planet-wars",
        &json!({ "max_turns": MAX_TURNS }),
        seed,
        bots,
    )
}

#[test]
fn sdk_types_read_every_observation_exactly() {
    for players in 2..=4 {
        for seed in 0..4u64 {
            let mut game = new_game("planet-wars", &Value::Null, seed, players).unwrap();
            let mut bots: Vec<TypedPlayer> = (0..players)
                .map(|seat| {
                    if seat % 2 == 0 {
                        typed::<Expander>()
                    } else {
                        typed::<Random>()
                    }
                })
                .collect();
            let mut text = String::new();
            for turn in 0..60 {
                if game.outcome().is_some() {
                    break;
                }
                let mut answers = Vec::new();
                for (seat, bot) in bots.iter_mut().enumerate() {
                    game.observation(seat, &mut text);
                    let obs: Observation = serde_json::from_str(&text)
                        .unwrap_or_else(|e| panic!("seat {seat} turn {turn}: {e}\n{text}"));
                    // Same document both ways: no field missing, renamed or extra.
                    let engine: Value = serde_json::from_str(&text).unwrap();
                    assert_eq!(serde_json::to_value(&obs).unwrap(), engine);
                    if turn == 0 {
                        // Every seat sees itself as player 1 on exactly one home.
                        assert_eq!(obs.my_planets().count(), 1, "seat {seat}: {text}");
                        assert_eq!(obs.enemy_planets().count(), players - 1);
                        let mut others: Vec<u32> =
                            obs.enemy_planets().filter_map(|p| p.owner).collect();
                        others.sort_unstable();
                        assert_eq!(others, (2..=players as u32).collect::<Vec<_>>());
                    }
                    answers.push(serde_json::to_string(&bot(&obs)).unwrap());
                }
                let answers: Vec<Option<&str>> = answers.iter().map(|a| Some(a.as_str())).collect();
                let rejections = game.step(&answers);
                assert!(rejections.is_empty(), "{rejections:?}");
            }
        }
    }
}

#[test]
fn engine_accepts_sdk_moves_up_to_the_observed_ship_count() {
    let mut game = new_game("planet-wars", &Value::Null, 11, 2).unwrap();
    let mut text = String::new();
    game.observation(0, &mut text);
    let obs: Observation = serde_json::from_str(&text).unwrap();
    let home = obs.my_planets().next().unwrap().clone();
    let target = obs.neutral_planets().next().unwrap().clone();
    let enemy_home = obs.enemy_planets().next().unwrap().clone();

    // Every ship seen, split over two moves: allowed (one is built first).
    let mut moves = Moves::default();
    moves
        .send(&home.name, &target.name, home.ship_count - 1)
        .send(&home.name, &enemy_home.name, 1);
    let answer = serde_json::to_string(&moves).unwrap();
    let rejections = game.step(&[Some(&answer), None]);
    assert!(rejections.is_empty(), "{rejections:?}");
    game.observation(0, &mut text);
    let after: Observation = serde_json::from_str(&text).unwrap();
    assert_eq!(after.planet(&home.name).unwrap().ship_count, 1);
    let mut flying: Vec<_> = after
        .my_expeditions()
        .map(|e| (e.destination.clone(), e.ship_count, e.turns_remaining))
        .collect();
    flying.sort();
    let mut expected = vec![
        (
            target.name.clone(),
            home.ship_count - 1,
            home.turns_to(&target) - 1,
        ),
        (enemy_home.name.clone(), 1, home.turns_to(&enemy_home) - 1),
    ];
    expected.retain(|e| e.2 > 0);
    expected.sort();
    assert_eq!(flying, expected);

    // The other seat sees those fleets as player 2's.
    game.observation(1, &mut text);
    let theirs: Observation = serde_json::from_str(&text).unwrap();
    assert!(theirs.expeditions.iter().all(|e| e.owner == 2));

    // More than seen: refused, and the SDK's do-nothing answer is accepted.
    game.observation(0, &mut text);
    let obs: Observation = serde_json::from_str(&text).unwrap();
    let home_now = obs.planet(&home.name).unwrap();
    let mut too_many = Moves::default();
    too_many.send(&home.name, &target.name, home_now.ship_count + 1);
    let too_many = serde_json::to_string(&too_many).unwrap();
    let nothing = serde_json::to_string(&Moves::default()).unwrap();
    let rejections = game.step(&[Some(&too_many), Some(&nothing)]);
    assert_eq!(rejections.len(), 1, "{rejections:?}");
    assert_eq!(rejections[0].seat, 0);
}

/// Plays Expander against `opponent` on every seed, in both seat orders; returns (wins, games played).
fn wins_against(opponent: fn() -> Player, seeds: std::ops::Range<u64>) -> (usize, usize) {
    let mut wins = 0;
    let mut played = 0;
    let mut lost = Vec::new();
    for seed in seeds {
        for expander_seat in 0..2 {
            let bots = if expander_seat == 0 {
                vec![player::<Expander>(), opponent()]
            } else {
                vec![opponent(), player::<Expander>()]
            };
            let outcome = play_native(seed, bots);
            played += 1;
            if outcome.placements[expander_seat] == 1 && outcome.placements[1 - expander_seat] == 2
            {
                wins += 1;
            } else {
                lost.push((seed, expander_seat, outcome.reason));
            }
        }
    }
    if !lost.is_empty() {
        eprintln!("not won (seed, seat, reason): {lost:?}");
    }
    (wins, played)
}

fn assert_wins_90_percent(name: &str, opponent: fn() -> Player) {
    let (wins, played) = wins_against(opponent, 0..20);
    eprintln!("expander beat {name} in {wins} of {played} matches");
    assert!(
        wins * 10 >= played * 9,
        "expander beat {name} in only {wins} of {played} matches"
    );
}

#[test]
fn expander_beats_idle() {
    assert_wins_90_percent("idle", player::<Idle>);
}

#[test]
fn expander_beats_random() {
    assert_wins_90_percent("random", player::<Random>);
}

#[test]
fn matches_replay_exactly() {
    let run = || {
        let outcome = play_native(5, vec![player::<Expander>(), player::<Random>()]);
        (outcome.placements, outcome.reason)
    };
    assert_eq!(run(), run());
}
