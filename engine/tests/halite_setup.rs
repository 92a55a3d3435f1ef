//! Setting up a game: the board generator against the reference, the
//! config, what a seat sees, setup and state hashes.

mod halite_common;

use halite_common::*;
use ludus_engine::halite::{Config, Halite, Num};
use ludus_engine::{new_game, EngineError, Game};
use serde_json::{json, Value};

/// The halite of seed 42, row by row, as kaggle-environments 1.33.2 makes it
/// (`make("halite", configuration={"randomSeed": 42}).reset(4)`).
const SEED_42_ROWS: [&str; 21] = [
    "54,7,0,0,0,128,203,0,6,0,0,0,6,0,203,128,0,0,0,7,54",
    "0,0,103,0,115,73,0,41,76,4,1,4,76,41,0,73,115,0,103,0,0",
    "0,0,0,0,108,0,0,220,0,0,0,0,0,220,0,0,108,0,0,0,0",
    "0,0,0,73,0,48,0,147,27,242,17,242,27,147,0,48,0,73,0,0,0",
    "117,0,0,0,16,114,0,0,0,0,0,0,0,0,0,114,16,0,0,0,117",
    "0,0,110,0,0,48,83,0,0,92,17,92,0,0,83,48,0,0,110,0,0",
    "136,0,0,23,0,148,383,0,0,0,30,0,0,0,383,148,0,23,0,0,136",
    "185,58,151,0,0,65,235,0,0,0,0,0,0,0,235,65,0,0,151,58,185",
    "0,32,149,0,0,18,0,0,21,65,264,65,21,0,0,18,0,0,149,32,0",
    "157,249,0,0,0,0,90,0,0,97,275,97,0,0,90,0,0,0,0,249,157",
    "77,125,0,0,0,0,0,114,0,537,0,537,0,114,0,0,0,0,0,125,77",
    "157,249,0,0,0,0,90,0,0,97,275,97,0,0,90,0,0,0,0,249,157",
    "0,32,149,0,0,18,0,0,21,65,264,65,21,0,0,18,0,0,149,32,0",
    "185,58,151,0,0,65,235,0,0,0,0,0,0,0,235,65,0,0,151,58,185",
    "136,0,0,23,0,148,383,0,0,0,30,0,0,0,383,148,0,23,0,0,136",
    "0,0,110,0,0,48,83,0,0,92,17,92,0,0,83,48,0,0,110,0,0",
    "117,0,0,0,16,114,0,0,0,0,0,0,0,0,0,114,16,0,0,0,117",
    "0,0,0,73,0,48,0,147,27,242,17,242,27,147,0,48,0,73,0,0,0",
    "0,0,0,0,108,0,0,220,0,0,0,0,0,220,0,0,108,0,0,0,0",
    "0,0,103,0,115,73,0,41,76,4,1,4,76,41,0,73,115,0,103,0,0",
    "54,7,0,0,0,128,203,0,6,0,0,0,6,0,203,128,0,0,0,7,54",
];

/// The reference's configuration of seed 42, as `env.configuration` prints it.
const SEED_42_CONFIG: &str = r#"{"randomSeed":42,"episodeSteps":400,"actTimeout":3,"runTimeout":9600,"startingHalite":24000,"size":21,"spawnCost":500,"convertCost":500,"moveCost":0,"collectRate":0.25,"regenRate":0.02,"maxCellHalite":500,"agentTimeout":60}"#;

const START_PLAYERS: &str = r#"[[5000,{},{"0-1":[110,0]}],[5000,{},{"0-2":[120,0]}],[5000,{},{"0-3":[320,0]}],[5000,{},{"0-4":[330,0]}]]"#;

fn halite_game(config: &Value, seed: u64, players: usize) -> Box<dyn Game> {
    new_game("halite", config, seed, players).expect("a valid game")
}

fn text(g: &dyn Game, seat: usize, reference: bool) -> String {
    let mut s = String::new();
    if reference {
        g.reference_observation(seat, &mut s);
    } else {
        g.observation(seat, &mut s);
    }
    s
}

#[test]
fn the_board_of_seed_42_is_the_references_with_its_key_order() {
    let g = halite_game(&Value::Null, 42, 4);
    let halite = SEED_42_ROWS.join(",");
    assert_eq!(
        text(g.as_ref(), 0, true),
        format!(
            r#"{{"remainingOverageTime":60,"step":0,"player":0,"halite":[{halite}],"players":{START_PLAYERS}}}"#
        )
    );
    // Other seats: their default state first, the shared fields after.
    assert_eq!(
        text(g.as_ref(), 2, true),
        format!(
            r#"{{"remainingOverageTime":60,"player":2,"step":0,"halite":[{halite}],"players":{START_PLAYERS}}}"#
        )
    );
    assert_eq!(g.rewards(), vec![json!(5000); 4]);
    assert_eq!(g.statuses(), vec!["ACTIVE"; 4]);
}

#[test]
fn after_the_first_step_seat_zero_sees_the_interpreters_key_order() {
    let mut g = halite_game(&Value::Null, 42, 4);
    g.step(&[None, None, None, None]);
    let seat0 = text(g.as_ref(), 0, true);
    assert!(seat0.starts_with(r#"{"halite":["#), "{seat0:.40}");
    assert!(seat0.ends_with(r#","player":0,"step":1,"remainingOverageTime":60}"#));
    let seat3 = text(g.as_ref(), 3, true);
    assert!(seat3.starts_with(r#"{"remainingOverageTime":60,"player":3,"step":1,"halite":["#));
}

#[test]
fn the_bot_observation_is_the_reference_observation_with_the_configuration() {
    let g = halite_game(&Value::Null, 42, 4);
    for seat in 0..4 {
        assert_eq!(
            text(g.as_ref(), seat, false),
            format!(
                r#"{{"observation":{},"configuration":{SEED_42_CONFIG}}}"#,
                text(g.as_ref(), seat, true)
            )
        );
    }
}

#[test]
fn two_players_start_on_the_middle_row() {
    // Reference, seed 4294967295 (the largest), 2 agents: total halite 22221,
    // ships on cells 215 and 225.
    let g = Halite::from_config(&Value::Null, 4_294_967_295, 2).unwrap();
    let total: i64 = g
        .halite()
        .iter()
        .map(|h| match h {
            Num::Int(i) => *i,
            Num::Float(_) => panic!("the starting board is all ints"),
        })
        .sum();
    assert_eq!(total, 22221);
    let cells: Vec<usize> = g.ships().iter().map(|s| s.pos).collect();
    assert_eq!(cells, vec![215, 225]);
    assert_eq!(ship_uids(&g), vec!["0-1", "0-2"]);
}

#[test]
fn boards_are_mirrored_four_ways() {
    for seed in [0u64, 1, 7, 1234, 99_999] {
        for size in [21usize, 10, 7] {
            let g = Halite::from_config(&json!({ "size": size }), seed, 4).unwrap();
            let h = g.halite();
            for r in 0..size {
                for c in 0..size {
                    let v = h[r * size + c];
                    assert_eq!(v, h[r * size + (size - 1 - c)], "seed {seed} size {size}");
                    assert_eq!(v, h[(size - 1 - r) * size + c], "seed {seed} size {size}");
                }
            }
        }
    }
}

#[test]
fn the_seed_must_fit_32_bits() {
    match Halite::from_config(&Value::Null, 1 << 32, 4) {
        Err(EngineError::Config { reason, .. }) => {
            assert!(reason.contains("4294967295"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    assert!(Halite::from_config(&Value::Null, (1 << 32) - 1, 4).is_ok());
}

#[test]
fn a_random_seed_in_the_config_overrides_the_match_seed() {
    let a = Halite::from_config(&json!({"randomSeed": 42}), 7, 4).unwrap();
    let b = Halite::from_config(&Value::Null, 42, 4).unwrap();
    assert_eq!(a.state_hash(), b.state_hash());
    // Even a match seed the generator could not take.
    assert!(Halite::from_config(&json!({"randomSeed": 42}), u64::MAX, 4).is_ok());
}

#[test]
fn config_fields_override_the_references_defaults() {
    let g = Halite::from_config(
        &json!({"size": 11, "episodeSteps": 50, "spawnCost": 250, "regenRate": 0.5, "moveCost": 0.0}),
        3,
        2,
    )
    .unwrap();
    assert_eq!(g.halite().len(), 121);
    let c = g.config();
    assert_eq!((c.size, c.episode_steps, c.spawn_cost), (11, 50, 250));
    assert_eq!(c.regen_rate, Num::Float(0.5));
    // A float given stays a float: the reference then computes cargo as floats.
    assert!(!c.move_cost.is_int());
    let setup = g.setup();
    assert_eq!(setup["moveCost"], json!(0.0));
    assert_eq!(setup["randomSeed"], json!(3));
}

#[test]
fn a_float_move_cost_turns_moving_cargo_into_floats_as_upstream() {
    let mut c = config(5);
    c.move_cost = Num::Float(0.0);
    let mut g = board_with(
        c,
        10,
        &[],
        vec![ship("3-1", 0, 12, 40), ship("3-2", 1, 0, 0)],
        vec![],
        &[0, 0],
    );
    step(&mut g, &[r#"{"3-1": "EAST"}"#, ""]);
    assert_eq!(num_text(find_ship(&g, "3-1").unwrap().halite), "40.0");
}

#[test]
fn config_refuses_unknown_fields_wrong_types_and_out_of_range_values() {
    for (config, says) in [
        (json!({"sizes": 21}), "unknown field"),
        (json!({"size": 1}), "size"),
        (json!({"size": 21.0}), "size"),
        (json!({"size": "21"}), "size"),
        (json!({"spawnCost": 500.0}), "spawnCost"),
        (json!({"spawnCost": -1}), "spawnCost"),
        (json!({"episodeSteps": 0}), "episodeSteps"),
        (json!({"moveCost": 1.5}), "moveCost"),
        (json!({"collectRate": -0.25}), "collectRate"),
        (json!({"randomSeed": -1}), "random seed"),
        (json!({"randomSeed": 4294967296u64}), "random seed"),
        (json!({"randomSeed": 1.5}), "random seed"),
        (json!([1, 2]), "null or an object"),
    ] {
        match Halite::from_config(&config, 0, 4) {
            Err(EngineError::Config { reason, .. }) => {
                assert!(reason.contains(says), "{config}: {reason}")
            }
            other => panic!("{config}: {other:?}"),
        }
    }
}

#[test]
fn two_or_four_players_only() {
    match new_game("halite", &Value::Null, 0, 3) {
        Err(e @ EngineError::PlayerCount { .. }) => {
            assert_eq!(e.to_string(), "halite is played by 2 or 4 players, not 3")
        }
        other => panic!("{:?}", other.map(|g| g.players())),
    }
    assert!(matches!(
        new_game("halite", &Value::Null, 0, 5),
        Err(EngineError::PlayerCount { .. })
    ));
    assert!(new_game("halite", &Value::Null, 0, 2).is_ok());
}

#[test]
fn setup_fed_back_as_config_rebuilds_the_same_game() {
    let g = halite_game(&json!({"episodeSteps": 30, "collectRate": 0.5}), 77, 4);
    let again = halite_game(&g.setup(), 12345, 4);
    assert_eq!(g.state_hash(), again.state_hash());
    assert_eq!(text(g.as_ref(), 1, false), text(again.as_ref(), 1, false));
    let mut c = Config::with_seed(77);
    c.episode_steps = 30;
    c.collect_rate = Num::Float(0.5);
    let mut s = String::new();
    c.write_json(&mut s);
    assert_eq!(serde_json::from_str::<Value>(&s).unwrap(), g.setup());
}

#[test]
fn the_same_seed_and_answers_give_the_same_state_hashes_and_seeds_differ() {
    let answers = [
        r#"{"0-1": "NORTH"}"#,
        r#"{"0-2": "CONVERT"}"#,
        "[]",
        r#"{"0-4": "WEST"}"#,
    ];
    let run = |seed: u64| {
        let mut g = halite_game(&Value::Null, seed, 4);
        let mut hashes = Vec::new();
        for _ in 0..5 {
            let a: Vec<Option<&str>> = answers.iter().map(|a| Some(*a)).collect();
            g.step(&a);
            hashes.push(g.state_hash());
        }
        hashes
    };
    assert_eq!(run(5), run(5));
    assert_ne!(run(5)[0], run(6)[0]);
}

#[test]
fn the_state_hash_tells_int_from_float() {
    let a = board(
        &[(3, Num::Int(7))],
        vec![ship("3-1", 0, 0, 0)],
        vec![],
        &[0, 0],
    );
    let b = board(
        &[(3, Num::Float(7.0))],
        vec![ship("3-1", 0, 0, 0)],
        vec![],
        &[0, 0],
    );
    assert_ne!(a.state_hash(), b.state_hash());
    assert_eq!(cell_text(&a, 3), "7");
    assert_eq!(cell_text(&b, 3), "7.0");
}

#[test]
fn hostile_answers_never_panic() {
    let mut g = halite_game(&Value::Null, 9, 4);
    let long = format!(
        "{{{}}}",
        (0..5000)
            .map(|i| format!("\"k{i}\":\"NORTH\""))
            .collect::<Vec<_>>()
            .join(",")
    );
    let deep = "[".repeat(100_000);
    let answers = [
        long.as_str(),
        deep.as_str(),
        "\u{0}\u{ffff}",
        r#"{"0-4": "\ud800"}"#,
    ];
    let r = g.step(&answers.map(Some));
    assert!(r.iter().any(|r| r.kind == "more_refusals"));
    // Text that is not JSON binds nothing; a lone surrogate is no action name.
    assert_eq!(g.statuses(), vec!["ACTIVE", "ACTIVE", "ACTIVE", "INVALID"]);
    assert_eq!(r.iter().filter(|r| r.kind == "unparseable").count(), 2);
    let r = g.step(&[Some(r#"{"0-1": 1}"#), Some(r#"{"0-2": []}"#), None, None]);
    assert_eq!(r.len(), 2);
    // Three seats are out; the last one is done and wins.
    assert_eq!(g.statuses(), vec!["INVALID", "INVALID", "DONE", "INVALID"]);
    assert_eq!(
        g.rewards(),
        vec![Value::Null, Value::Null, json!(5000), Value::Null]
    );
    // The invalid seats are equal on every key of the ladder: they share 2nd.
    assert_eq!(g.outcome().unwrap().placements, vec![2, 2, 1, 2]);
}
