//! Helpers shared by the Planet Wars tests.
#![allow(dead_code)]

use ludus_engine::planet_wars::{PlanetState, PlanetWars};
use ludus_engine::{Game, Rejection, Seat};
use serde_json::{json, Value};

/// A planet in the rule book's map shape (owner k is seat k-1).
pub fn planet(name: &str, x: f64, y: f64, ship_count: u64, owner: Option<u32>) -> Value {
    json!({"name": name, "x": x, "y": y, "ship_count": ship_count, "owner": owner})
}

/// A game on a hand-made map.
pub fn game(players: usize, planets: Vec<Value>) -> PlanetWars {
    PlanetWars::from_config(&json!({"map": {"planets": planets}}), 0, players)
        .expect("a valid test map")
}

/// A game on a hand-made map with a turn limit.
pub fn game_with_limit(players: usize, planets: Vec<Value>, max_turns: u32) -> PlanetWars {
    PlanetWars::from_config(
        &json!({"map": {"planets": planets}, "max_turns": max_turns}),
        0,
        players,
    )
    .expect("a valid test map")
}

/// An answer with the given moves.
pub fn moves(list: &[(&str, &str, u64)]) -> String {
    let moves: Vec<Value> = list
        .iter()
        .map(|(o, d, n)| json!({"origin": o, "destination": d, "ship_count": n}))
        .collect();
    json!({ "moves": moves }).to_string()
}

/// Steps with seat `seat` answering `answer` and every other seat silent.
pub fn step_one(g: &mut PlanetWars, seat: Seat, answer: &str) -> Vec<Rejection> {
    let mut answers: Vec<Option<&str>> = vec![None; g.players()];
    answers[seat] = Some(answer);
    g.step(&answers)
}

/// Steps with no answers at all.
pub fn idle(g: &mut PlanetWars, turns: u32) {
    for _ in 0..turns {
        let answers: Vec<Option<&str>> = vec![None; g.players()];
        g.step(&answers);
    }
}

pub fn at(g: &PlanetWars, name: &str) -> PlanetState {
    g.planet(name).expect("a planet of the test map")
}

pub fn held(owner: Option<Seat>, ship_count: u64) -> PlanetState {
    PlanetState { owner, ship_count }
}

pub fn observe(g: &PlanetWars, seat: Seat) -> Value {
    let mut out = String::new();
    g.observation(seat, &mut out);
    serde_json::from_str(&out).expect("observations are JSON")
}

/// A simple bot on the observation: every planet with more than 10 ships
/// sends half of them to the nearest planet that is not its own.
pub fn greedy(observation: &str) -> String {
    let v: Value = serde_json::from_str(observation).unwrap();
    let planets = v["planets"].as_array().unwrap();
    let mut out = Vec::new();
    for p in planets.iter().filter(|p| p["owner"] == 1) {
        let ships = p["ship_count"].as_u64().unwrap();
        if ships <= 10 {
            continue;
        }
        let (x, y) = (p["x"].as_f64().unwrap(), p["y"].as_f64().unwrap());
        let target = planets.iter().filter(|q| q["owner"] != 1).min_by(|a, b| {
            let da =
                (a["x"].as_f64().unwrap() - x).powi(2) + (a["y"].as_f64().unwrap() - y).powi(2);
            let db =
                (b["x"].as_f64().unwrap() - x).powi(2) + (b["y"].as_f64().unwrap() - y).powi(2);
            da.total_cmp(&db)
        });
        if let Some(t) = target {
            out.push(
                json!({"origin": p["name"], "destination": t["name"], "ship_count": ships / 2}),
            );
        }
    }
    json!({ "moves": out }).to_string()
}

/// Plays `g` with the greedy bot on every seat until it ends or `turns`
/// turns have passed; returns the state hash after every turn.
pub fn play_greedy(g: &mut PlanetWars, turns: u32) -> Vec<[u8; 32]> {
    let mut hashes = vec![g.state_hash()];
    let mut obs = String::new();
    for _ in 0..turns {
        if g.outcome().is_some() {
            break;
        }
        let answers: Vec<String> = (0..g.players())
            .map(|s| {
                g.observation(s, &mut obs);
                greedy(&obs)
            })
            .collect();
        let refs: Vec<Option<&str>> = answers.iter().map(|a| Some(a.as_str())).collect();
        let rejections = g.step(&refs);
        assert!(rejections.is_empty(), "{rejections:?}");
        hashes.push(g.state_hash());
    }
    hashes
}
