//! The rule book's sample conquest bot, ported.

use ludus_sdk::conquest::{Action, BuildingKind, Observation};
use ludus_sdk::Bot;

/// Waits while busy, otherwise goes east, else south, else builds a mine.
#[derive(Debug, Default)]
pub struct Sample;

impl Bot for Sample {
    type Observation = Observation;
    type Action = Action;

    fn act(&mut self, obs: &Observation) -> Action {
        if obs.me.busy {
            return Action::Wait; // claiming, fighting or building
        }
        for a in [
            Action::East,
            Action::South,
            Action::Build(BuildingKind::Mine),
        ] {
            if obs.is_legal(&a) {
                return a;
            }
        }
        Action::Wait
    }
}
