//! The rule book's sample claim bot, ported.

use ludus_sdk::claim::{Action, Observation};
use ludus_sdk::Bot;

/// Finishes a capture, otherwise goes east while it can.
#[derive(Debug, Default)]
pub struct Sample;

impl Bot for Sample {
    type Observation = Observation;
    type Action = Action;

    fn act(&mut self, obs: &Observation) -> Action {
        if obs.me.capture_target.is_some() {
            return Action::Stay; // finish the capture
        }
        if obs.is_legal(Action::East) {
            Action::East
        } else {
            Action::Stay
        }
    }
}
