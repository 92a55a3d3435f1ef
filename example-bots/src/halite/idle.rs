//! A bot that never gives an order.

use ludus_sdk::halite::{Actions, Turn};
use ludus_sdk::Bot;

/// Answers `{}` every turn: its first ship stays where it starts and mines,
/// and its 5000 halite stay in the bank.
#[derive(Debug, Default)]
pub struct Idle;

impl Bot for Idle {
    type Observation = Turn;
    type Action = Actions;

    fn act(&mut self, _turn: &Turn) -> Actions {
        Actions::default()
    }
}
