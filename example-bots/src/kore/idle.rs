//! A bot that never orders anything.

use ludus_sdk::kore::{Actions, Observation};
use ludus_sdk::Bot;

/// Answers no orders, every turn.
#[derive(Debug, Default)]
pub struct Idle;

impl Bot for Idle {
    type Observation = Observation;
    type Action = Actions;

    fn act(&mut self, _obs: &Observation) -> Actions {
        Actions::default()
    }
}
