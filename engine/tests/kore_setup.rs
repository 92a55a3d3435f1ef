//! Setting up Kore: seeds, configs, the generated board, the observation's shape.

use ludus_engine::kore::Kore;
use ludus_engine::{new_game, EngineError};
use serde_json::{json, Value};

#[test]
fn match_seeds_from_2_to_the_32_reduce_to_upstreams_range() {
    let top = new_game("kore", &Value::Null, u64::from(u32::MAX), 2).unwrap();
    let wrapped = new_game("kore", &Value::Null, (1 << 32) + 5, 2).unwrap();
    let five = new_game("kore", &Value::Null, 5, 2).unwrap();
    assert_eq!(wrapped.state_hash(), five.state_hash());
    assert_ne!(top.state_hash(), five.state_hash());
    // Kore itself still takes only upstream's seeds.
    let e = Kore::from_config(&Value::Null, 1 << 32, 2).expect_err("refused");
    assert!(matches!(e, EngineError::Config { .. }), "{e}");
}

#[test]
fn kore_is_for_two_or_four_players() {
    for players in [1, 3, 5] {
        assert!(
            new_game("kore", &Value::Null, 1, players).is_err(),
            "{players}"
        );
    }
}

#[test]
fn config_overrides_upstream_fields_and_refuses_the_rest() {
    let g = Kore::from_config(&json!({"episodeSteps": 50, "spawnCost": 10}), 1, 2).unwrap();
    assert_eq!(g.config().episode_steps, 50);
    assert!(g.config().spawn_cost.is_int(), "an int stays an int");
    for bad in [
        json!({"randomSeed": 3}),
        json!({"size": 2}),
        json!({"episodeSteps": 1.5}),
        json!({"convertCost": -1}),
        json!({"colour": "red"}),
        json!([1]),
    ] {
        assert!(Kore::from_config(&bad, 1, 2).is_err(), "{bad}");
    }
}

#[test]
fn the_generated_board_is_upstreams() {
    // kaggle-environments 1.33.2: make("kore_fleets", {"randomSeed": 7}).reset(2)
    let g = new_game("kore", &Value::Null, 7, 2).unwrap();
    let mut obs = String::new();
    g.reference_observation(0, &mut obs);
    let v: Value = serde_json::from_str(&obs).unwrap();
    let kore: Vec<i64> = v["kore"].as_array().unwrap()[..12]
        .iter()
        .map(|k| k.as_i64().unwrap())
        .collect();
    assert_eq!(kore, [38, 0, 0, 0, 7, 0, 6, 13, 0, 4, 0, 4]);
    assert_eq!(
        v["players"],
        json!([[500, {"0-1": [110, 0, 0]}, {}], [500, {"0-2": [330, 0, 0]}, {}]])
    );
}

#[test]
fn the_setup_rebuilds_the_same_game() {
    let g = new_game("kore", &json!({"regenRate": 0.03}), 99, 4).unwrap();
    let again = new_game("kore", &g.setup(), 12345, 4).unwrap();
    let (mut a, mut b) = (String::new(), String::new());
    g.reference_observation(0, &mut a);
    again.reference_observation(0, &mut b);
    assert_eq!(a, b);
}

#[test]
fn observation_keys_come_in_upstreams_order() {
    let mut g = new_game("kore", &Value::Null, 7, 2).unwrap();
    let mut obs = String::new();
    g.reference_observation(0, &mut obs);
    assert!(obs.starts_with(r#"{"remainingOverageTime":60,"step":0,"player":0,"kore":[38,"#));
    g.reference_observation(1, &mut obs);
    assert!(obs.starts_with(r#"{"remainingOverageTime":60,"player":1,"step":0,"kore":"#));
    g.step(&[Some(r#"{"0-1": "SPAWN_1"}"#), None]);
    g.reference_observation(0, &mut obs);
    assert!(obs.starts_with(r#"{"kore":[38.76,0.0,"#), "{}", &obs[..40]);
    assert!(obs.ends_with(
        r#""players":[[490.0,{"0-1":[110,1,1]},{}],[500,{"0-2":[330,0,1]},{}]],"player":0,"step":1,"remainingOverageTime":60}"#
    ));
    g.observation(1, &mut obs);
    assert!(obs.starts_with(r#"{"observation":{"remainingOverageTime":60,"player":1,"step":1,"#));
    assert!(obs.ends_with(
        r#""configuration":{"randomSeed":7,"episodeSteps":400,"actTimeout":3,"runTimeout":9600,"startingKore":2750,"size":21,"spawnCost":10.0,"convertCost":50,"regenRate":0.02,"maxRegenCellKore":500,"agentTimeout":60}}"#
    ));
}
