//! A bot that plays a random legal action.

use ludus_sdk::pirates::{Action, Observation};
use ludus_sdk::{random, Bot};

/// Picks one of its `legalActions` at random, from the stream the host
/// seeds per match and seat, so a match replays exactly.
#[derive(Debug, Default)]
pub struct Random;

impl Bot for Random {
    type Observation = Observation;
    type Action = Action;

    fn act(&mut self, obs: &Observation) -> Action {
        let legal = &obs.legal_actions;
        if legal.is_empty() {
            return Action::default();
        }
        legal[random::below(legal.len() as u64) as usize]
    }
}
