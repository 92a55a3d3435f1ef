//! The rule book's sample fences bot, ported.

use ludus_sdk::fences::{Action, Observation};
use ludus_sdk::Bot;

/// Closes a region when a move can, otherwise plays the first legal move.
#[derive(Debug, Default)]
pub struct Sample;

impl Bot for Sample {
    type Observation = Observation;
    type Action = Action;

    fn act(&mut self, obs: &Observation) -> Action {
        if !obs.your_turn {
            return Action::Wait;
        }
        if let Some(m) = obs.legal_moves.iter().find(|m| m.closes) {
            return m.action(); // comes back to your own lines
        }
        obs.legal_actions.first().copied().unwrap_or_default()
    }
}
