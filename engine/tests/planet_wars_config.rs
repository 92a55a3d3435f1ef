//! Config, setup and determinism.

mod planet_wars_common;

use ludus_engine::planet_wars::{generate_map, Map, Planet, PlanetWars, DEFAULT_MAX_TURNS};
use ludus_engine::{new_game, EngineError, Game};
use planet_wars_common::*;
use serde_json::{json, Value};

fn config_error(config: Value, players: usize) -> String {
    match PlanetWars::from_config(&config, 1, players) {
        Err(EngineError::Config { game, reason }) => {
            assert_eq!(game, "planet-wars");
            reason
        }
        Err(other) => panic!("expected a config error, got {other}"),
        Ok(_) => panic!("expected a config error for {config}"),
    }
}

fn two_planets() -> Vec<Value> {
    vec![
        planet("a", 0.0, 0.0, 5, Some(1)),
        planet("b", 5.5, 0.0, 5, Some(2)),
    ]
}

#[test]
fn a_null_config_plays_the_generated_map_of_the_seed_for_500_turns() {
    for players in 2..=4 {
        let g = PlanetWars::from_config(&Value::Null, 42, players).unwrap();
        assert_eq!(g.map(), &generate_map(42, players));
        assert_eq!(g.max_turns(), DEFAULT_MAX_TURNS);
        let g = PlanetWars::from_config(&json!({}), 42, players).unwrap();
        assert_eq!(g.map(), &generate_map(42, players));
    }
}

#[test]
fn setup_fed_back_as_config_rebuilds_the_identical_game() {
    for players in 2..=4 {
        let mut original = PlanetWars::from_config(&json!({"max_turns": 77}), 9, players).unwrap();
        let setup = original.setup();
        assert_eq!(setup["max_turns"], 77);
        assert_eq!(
            serde_json::from_value::<Map>(setup["map"].clone()).unwrap(),
            *original.map()
        );
        // A different seed: the setup alone determines the game.
        let mut rebuilt = PlanetWars::from_config(&setup, 12345, players).unwrap();
        assert_eq!(rebuilt.setup(), setup);
        assert_eq!(rebuilt.state_hash(), original.state_hash());
        let (mut a, mut b) = (String::new(), String::new());
        original.observation(0, &mut a);
        rebuilt.observation(0, &mut b);
        assert_eq!(a, b);
        assert_eq!(
            play_greedy(&mut original, 40),
            play_greedy(&mut rebuilt, 40)
        );
        // Also through its text form, as a replay stores it.
        let text = serde_json::to_string(&setup).unwrap();
        let reparsed: Value = serde_json::from_str(&text).unwrap();
        let again = PlanetWars::from_config(&reparsed, 0, players).unwrap();
        assert_eq!(again.setup(), setup);
    }
}

#[test]
fn the_registry_builds_planet_wars() {
    let g = new_game("planet-wars", &Value::Null, 3, 2).unwrap();
    assert_eq!(g.id(), "planet-wars");
    assert_eq!(g.rules_version(), 2);
    assert_eq!(g.players(), 2);
    assert_eq!(g.turn(), 0);
    assert!(g.outcome().is_none());
    assert!(matches!(
        new_game("planet-wars", &Value::Null, 3, 5),
        Err(EngineError::PlayerCount { .. })
    ));
    assert!(matches!(
        PlanetWars::from_config(&Value::Null, 3, 1),
        Err(EngineError::PlayerCount { .. })
    ));
}

#[test]
fn config_rejects_unknown_fields_and_bad_turn_limits() {
    let r = config_error(json!({"maxturns": 10}), 2);
    assert!(r.contains("unknown field \"maxturns\""), "{r}");
    let r = config_error(json!([1]), 2);
    assert!(r.contains("must be null or an object"), "{r}");
    for bad in [
        json!(0),
        json!(-1),
        json!(1.5),
        json!("10"),
        json!(null),
        json!(2_000_000),
    ] {
        let r = config_error(json!({"max_turns": bad}), 2);
        assert!(r.contains("`max_turns`"), "{r}");
    }
    assert_eq!(
        PlanetWars::from_config(&json!({"max_turns": 1}), 0, 2)
            .unwrap()
            .max_turns(),
        1
    );
}

#[test]
fn config_rejects_bad_maps_saying_what_to_fix() {
    let map = |planets: Vec<Value>| json!({"map": {"planets": planets}});
    let cases: Vec<(Value, usize, &str)> = vec![
        (
            map(vec![
                planet("a", 0.0, 0.0, 5, Some(1)),
                planet("a", 5.5, 0.0, 5, Some(2)),
            ]),
            2,
            "two planets are named \"a\"",
        ),
        (
            map(vec![
                planet("a", 0.0, 0.0, 5, Some(1)),
                planet("b", 5.5, 0.0, 5, Some(3)),
            ]),
            2,
            "`owner` is 3; it must be a player number from 1 to 2",
        ),
        (
            map(vec![
                planet("a", 0.0, 0.0, 5, Some(0)),
                planet("b", 5.5, 0.0, 5, Some(2)),
            ]),
            2,
            "`owner` is 0",
        ),
        (map(two_planets()), 3, "player 3 (seat 2) has no planet"),
        (
            map(vec![planet("a", 0.0, 0.0, 5, Some(1))]),
            2,
            "it needs at least 2",
        ),
        (
            map(vec![
                planet("a", 0.0, 0.0, 0, Some(1)),
                planet("b", 5.5, 0.0, 5, Some(2)),
            ]),
            2,
            "needs at least 1 ship",
        ),
        (
            map(vec![
                planet("", 0.0, 0.0, 5, Some(1)),
                planet("b", 5.5, 0.0, 5, Some(2)),
            ]),
            2,
            "empty name",
        ),
        (
            json!({"map": {"planets": [
                {"name": "a", "x": 0.0, "y": 0.0, "ship_count": -4, "owner": 1},
                {"name": "b", "x": 5.5, "y": 0.0, "ship_count": 5, "owner": 2}]}}),
            2,
            "invalid value: integer `-4`",
        ),
        (
            json!({"map": {"planets": [
                {"name": "a", "x": 0.0, "y": 0.0, "ship_count": 5, "owner": 1, "size": 3},
                {"name": "b", "x": 5.5, "y": 0.0, "ship_count": 5, "owner": 2}]}}),
            2,
            "unknown field `size`",
        ),
        (
            json!({"map": {"planets": [
                {"name": "a", "y": 0.0, "ship_count": 5, "owner": 1},
                {"name": "b", "x": 5.5, "y": 0.0, "ship_count": 5, "owner": 2}]}}),
            2,
            "missing field `x`",
        ),
        (json!({"map": [1, 2]}), 2, "bad map"),
    ];
    for (config, players, want) in cases {
        let r = config_error(config.clone(), players);
        assert!(r.contains(want), "{config}: {r}");
    }
}

#[test]
fn a_map_planet_without_an_owner_is_neutral() {
    let config = json!({"map": {"planets": [
        {"name": "a", "x": 0.0, "y": 0.0, "ship_count": 5, "owner": 1},
        {"name": "b", "x": 5.5, "y": 0.0, "ship_count": 5, "owner": 2},
        {"name": "n", "x": 0, "y": 3, "ship_count": 2}]}});
    let g = PlanetWars::from_config(&config, 0, 2).unwrap();
    assert_eq!(at(&g, "n"), held(None, 2));
    // Whole-number coordinates are read as numbers and shown as floats.
    assert_eq!(observe(&g, 0)["planets"][2]["y"], json!(3.0));
    assert!(g.setup().to_string().contains("\"y\":3.0"));
}

#[test]
fn typed_maps_with_non_finite_coordinates_are_rejected() {
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e9] {
        let map = Map {
            planets: vec![
                Planet {
                    name: "a".into(),
                    x: bad,
                    y: 0.0,
                    ship_count: 5,
                    owner: Some(1),
                },
                Planet {
                    name: "b".into(),
                    x: 5.5,
                    y: 0.0,
                    ship_count: 5,
                    owner: Some(2),
                },
            ],
        };
        let r = PlanetWars::from_map(map, 2, 500);
        assert!(matches!(r, Err(EngineError::Config { .. })), "{bad}");
    }
}

#[test]
fn the_same_seed_and_answers_give_the_same_state_hash_every_turn() {
    for players in 2..=4 {
        for seed in [1, 2] {
            let mut a = PlanetWars::from_seed(seed, players).unwrap();
            let mut b = PlanetWars::from_seed(seed, players).unwrap();
            let ha = play_greedy(&mut a, 120);
            let hb = play_greedy(&mut b, 120);
            assert_eq!(ha, hb);
            // Every turn changes the state (the turn counter at least).
            let mut sorted = ha.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), ha.len());
        }
    }
}

#[test]
fn different_seeds_give_different_maps_and_state_hashes() {
    for players in 2..=4 {
        let a = PlanetWars::from_seed(1, players).unwrap();
        let b = PlanetWars::from_seed(2, players).unwrap();
        assert_ne!(a.map(), b.map());
        assert_ne!(a.state_hash(), b.state_hash());
    }
}

#[test]
fn the_state_hash_covers_ships_owners_and_fleets() {
    let mut a = game(2, two_planets());
    let mut b = game(2, two_planets());
    assert_eq!(a.state_hash(), b.state_hash());
    step_one(&mut a, 0, &moves(&[("a", "b", 1)]));
    step_one(&mut b, 0, &moves(&[("a", "b", 2)]));
    assert_ne!(a.state_hash(), b.state_hash());
    let c = game_with_limit(2, two_planets(), 10);
    assert_ne!(c.state_hash(), game(2, two_planets()).state_hash());
}

#[test]
fn greedy_games_on_generated_maps_run_to_an_outcome() {
    for players in 2..=4 {
        let mut g = PlanetWars::from_config(&json!({"max_turns": 200}), 4, players).unwrap();
        play_greedy(&mut g, 500);
        let o = g.outcome().expect("over by the turn limit at the latest");
        assert_eq!(o.placements.len(), players);
        assert_eq!(o.scores.len(), players);
        assert!(o.placements.contains(&1));
        // Higher score, better (lower) placement.
        for i in 0..players {
            for j in 0..players {
                if o.placements[i] < o.placements[j] {
                    assert!(o.scores[i] > o.scores[j], "{o:?}");
                }
            }
        }
    }
}
