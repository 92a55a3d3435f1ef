//! A bot that sends random fleets.

use ludus_sdk::planet_wars::{Moves, Observation};
use ludus_sdk::{random, Bot};

/// Each turn, with probability [`Random::CHANCE`], sends a random number of
/// ships (1 to all it may send) from a random planet of its own to a random
/// other planet.
///
/// Every choice draws from [`ludus_sdk::random`], the stream the host seeds
/// per match and seat, so a match replays exactly.
#[derive(Debug, Default)]
pub struct Random;

impl Random {
    /// Chance of moving in a turn, as (numerator, denominator).
    pub const CHANCE: (u64, u64) = (1, 3);
}

impl Bot for Random {
    type Observation = Observation;
    type Action = Moves;

    fn act(&mut self, obs: &Observation) -> Moves {
        let mut moves = Moves::default();
        if !random::chance(Self::CHANCE.0, Self::CHANCE.1) {
            return moves;
        }
        let mine: Vec<_> = obs.my_planets().filter(|p| p.ship_count > 0).collect();
        if mine.is_empty() || obs.planets.len() < 2 {
            return moves;
        }
        let origin = mine[random::below(mine.len() as u64) as usize];
        let others: Vec<_> = obs
            .planets
            .iter()
            .filter(|p| p.name != origin.name)
            .collect();
        let destination = others[random::below(others.len() as u64) as usize];
        let ships = 1 + random::below(origin.ship_count);
        moves.send(&origin.name, &destination.name, ships);
        moves
    }
}
