//! The rule book's sample shields bot, ported.

use ludus_sdk::shields::{Action, Observation};
use ludus_sdk::Bot;

/// Finishes taking or upgrading its cell, otherwise goes east while it can.
#[derive(Debug, Default)]
pub struct Sample;

impl Bot for Sample {
    type Observation = Observation;
    type Action = Action;

    fn act(&mut self, obs: &Observation) -> Action {
        if obs.me.need > 0 {
            return Action::Stay; // finish taking or upgrading this cell
        }
        if obs.is_legal(Action::East) {
            Action::East
        } else {
            Action::Stay
        }
    }
}
