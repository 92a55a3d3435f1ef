//! Helpers shared by the grid games' tests.
#![allow(dead_code)]

use ludus_engine::{Game, Rejection};
use rand_core::RngCore;
use serde_json::Value;

/// Steps with one answer per seat (`""` for no answer at all).
pub fn step(g: &mut dyn Game, answers: [&str; 4]) -> Vec<Rejection> {
    let a: Vec<Option<&str>> = answers
        .iter()
        .map(|s| if s.is_empty() { None } else { Some(*s) })
        .collect();
    g.step(&a)
}

/// Steps `turns` times with every seat answering STAY.
pub fn stay(g: &mut dyn Game, turns: u32) {
    for _ in 0..turns {
        let r = step(g, ["STAY"; 4]);
        assert!(r.is_empty(), "{r:?}");
    }
}

/// What `seat` sees, parsed.
pub fn observe(g: &dyn Game, seat: usize) -> Value {
    let mut s = String::new();
    g.observation(seat, &mut s);
    serde_json::from_str(&s).unwrap_or_else(|e| panic!("{e}: {s}"))
}

/// The keys of a JSON object, sorted.
pub fn keys(v: &Value) -> Vec<String> {
    let mut k: Vec<String> = v.as_object().expect("an object").keys().cloned().collect();
    k.sort();
    k
}

/// Sorted key list from literals.
pub fn sorted(list: &[&str]) -> Vec<String> {
    let mut k: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    k.sort();
    k
}

/// `legal_actions` of an observation.
pub fn legal(obs: &Value) -> Vec<String> {
    obs["legal_actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect()
}

/// Plays to the end (or `max_turns`) with every seat picking a random action
/// from its `legal_actions` (seeded), asserting no answer is refused.
/// Returns the state hash after every turn.
pub fn random_play(g: &mut dyn Game, seed: u64, max_turns: u32) -> Vec<[u8; 32]> {
    let mut rng = ludus_engine::rng::stream(seed, "test/random-play");
    let mut hashes = vec![g.state_hash()];
    let mut text = String::new();
    while g.outcome().is_none() && g.turn() < max_turns {
        let mut answers = Vec::new();
        for seat in 0..4 {
            g.observation(seat, &mut text);
            let obs: Value = serde_json::from_str(&text).unwrap();
            let legal = legal(&obs);
            answers.push(if legal.is_empty() {
                "STAY".to_string()
            } else {
                legal[rng.next_u32() as usize % legal.len()].clone()
            });
        }
        let refs: Vec<Option<&str>> = answers.iter().map(|a| Some(a.as_str())).collect();
        let r = g.step(&refs);
        assert!(r.is_empty(), "turn {}: {r:?}", g.turn());
        hashes.push(g.state_hash());
    }
    hashes
}

/// Answers that are not actions at all, from a hostile bot.
pub const GARBAGE: [&str; 8] = [
    "",
    "eastwards",
    "{\"moves\":[]}",
    "\"EAST",
    "EAST EAST",
    "\u{0}\u{fffd}\u{7f}",
    "[\"EAST\"]",
    "null",
];
