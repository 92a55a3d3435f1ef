//! A bot that never moves.

use ludus_sdk::planet_wars::{Moves, Observation};
use ludus_sdk::Bot;

/// Never sends a ship: its home planet just keeps building.
#[derive(Debug, Default)]
pub struct Idle;

impl Bot for Idle {
    type Observation = Observation;
    type Action = Moves;

    fn act(&mut self, _obs: &Observation) -> Moves {
        Moves::default()
    }
}
