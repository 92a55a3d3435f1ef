//! Conquest's answers: the rule book's action strings and the JSON form,
//! `legal_actions` tested both ways on thousands of random turns, and
//! hostile answers.

mod conquest_common;

use conquest_common::*;
use ludus_engine::new_game;
use serde_json::Value;

#[test]
fn random_legal_actions_are_never_refused() {
    for seed in 0..6 {
        let mut g = new_game("conquest", &Value::Null, seed, 4).unwrap();
        random_play(g.as_mut(), seed, 300);
        let o = g.outcome();
        eprintln!(
            "seed {seed}: turn {} {:?}",
            g.turn(),
            o.map(|o| (o.reason, o.scores))
        );
    }
}
