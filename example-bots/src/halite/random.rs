//! The reference's built-in random agent, ported.

use ludus_sdk::halite::{Actions, ShipAction, Turn};
use ludus_sdk::{random, Bot};

/// kaggle-environments' Halite `random` agent, rule for rule, so a match of
/// four of these is the counterpart of upstream's `env.run(["random"] * 4)`:
///
/// * Ships, in a random order: on a cell with more halite than its cargo, a
///   ship stays to mine half the time. Otherwise, off a shipyard and when the
///   bank holds more than the convert cost, it converts 1 in 20, or half the
///   time while the player has no shipyard. Otherwise it moves in one of the
///   four directions at random.
/// * Shipyards, in a random order: with no ships left after this turn's
///   conversions, every shipyard spawns while the bank can pay; else each
///   spawns 1 in 5 when the bank holds more than the spawn cost.
///
/// Upstream counts the ships left by simulating the whole next step; this
/// port counts the ships that do not convert, which differs only when this
/// turn's own collisions would wipe out the fleet.
///
/// Every choice draws from [`ludus_sdk::random`], the stream the host seeds
/// per match and seat, so a match replays exactly.
#[derive(Debug, Default)]
pub struct Random;

/// `random.sample(items, len(items))`: the items in a random order.
fn shuffled<T>(mut items: Vec<T>) -> Vec<T> {
    for i in (1..items.len()).rev() {
        items.swap(i, random::below(i as u64 + 1) as usize);
    }
    items
}

impl Bot for Random {
    type Observation = Turn;
    type Action = Actions;

    fn act(&mut self, turn: &Turn) -> Actions {
        let me = turn.me();
        let config = &turn.configuration;
        let halite = &turn.observation.halite;
        let mut bank = me.halite;
        let mut actions = Actions::default();
        let on_yard = |pos: usize| me.shipyards.iter().any(|y| y.pos == pos);
        let mut ships_left = me.ships.len();
        for ship in shuffled(me.ships.iter().collect()) {
            if halite[ship.pos] > ship.halite && random::chance(1, 2) {
                continue;
            }
            if !on_yard(ship.pos) && bank > config.convert_cost {
                let convert =
                    random::chance(1, 20) || (random::chance(1, 2) && me.shipyards.is_empty());
                if convert {
                    bank -= config.convert_cost;
                    ships_left -= 1;
                    actions.ship(&ship.id, ShipAction::Convert);
                    continue;
                }
            }
            let m = ShipAction::MOVES[random::below(4) as usize];
            actions.ship(&ship.id, m);
        }
        for yard in shuffled(me.shipyards.iter().collect()) {
            let spawn = if ships_left == 0 {
                bank > config.spawn_cost
            } else {
                random::chance(1, 5) && bank > config.spawn_cost
            };
            if spawn {
                bank -= config.spawn_cost;
                actions.spawn(&yard.id);
            }
        }
        actions
    }
}
