//! A Planet Wars bot written with the SDK that panics on every turn, as a
//! bot with a bug would: the SDK's panic hook tells the host the message and
//! the place, which the fault then says, and the usual panic message is in
//! the log.
use ludus_sdk::planet_wars::{Moves, Observation};

#[derive(Default)]
pub struct Brittle;

impl ludus_sdk::Bot for Brittle {
    type Observation = Observation;
    type Action = Moves;

    fn act(&mut self, obs: &Observation) -> Moves {
        let planets = std::hint::black_box(obs.planets.len());
        panic!("no target among {planets} planets");
    }
}

ludus_sdk::export_bot!(Brittle);
