//! The rule book's sample loops bot, ported.

use ludus_sdk::loops::{Action, Observation};
use ludus_sdk::Bot;

/// Goes east while it can; stays while the server drives it home.
#[derive(Debug, Default)]
pub struct Sample;

impl Bot for Sample {
    type Observation = Observation;
    type Action = Action;

    fn act(&mut self, obs: &Observation) -> Action {
        if obs.me.returning {
            return Action::Stay; // cut: the server drives you home
        }
        if obs.is_legal(Action::East) {
            Action::East
        } else {
            Action::Stay
        }
    }
}
