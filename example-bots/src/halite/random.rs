//! A bot that gives random legal orders.

use ludus_sdk::halite::{Actions, ShipAction, Turn};
use ludus_sdk::{random, Bot};

/// Every ship stays (1 in 5), moves in a random direction, or, 1 in 20 and
/// only when it can pay, converts; every shipyard spawns 1 in 4 when the bank
/// can pay. Each order is legal on its own; nothing avoids collisions.
///
/// Every choice draws from [`ludus_sdk::random`], the stream the host seeds
/// per match and seat, so a match replays exactly.
#[derive(Debug, Default)]
pub struct Random;

impl Bot for Random {
    type Observation = Turn;
    type Action = Actions;

    fn act(&mut self, turn: &Turn) -> Actions {
        let me = turn.me();
        let cost = turn.configuration.convert_cost;
        let mut bank = me.halite;
        let mut actions = Actions::default();
        let yard_cells: Vec<usize> = me.shipyards.iter().map(|y| y.pos).collect();
        for ship in &me.ships {
            let roll = random::below(20);
            if roll == 0 && !yard_cells.contains(&ship.pos) && ship.halite + bank >= cost {
                bank += (ship.halite - cost).min(0.0);
                actions.ship(&ship.id, ShipAction::Convert);
            } else if roll >= 4 {
                let m = ShipAction::MOVES[random::below(4) as usize];
                actions.ship(&ship.id, m);
            }
        }
        for yard in &me.shipyards {
            if random::chance(1, 4) && bank >= turn.configuration.spawn_cost {
                bank -= turn.configuration.spawn_cost;
                actions.spawn(&yard.id);
            }
        }
        actions
    }
}
