//! Kore bots, from trivial to a real strategy.
//!
//! * [`Idle`]: never orders anything; the baseline every bot should beat.
//! * [`Random`]: random spawns and launches on random flight plans, drawing
//!   from the match's seeded randomness.
//! * [`Miner`]: spawns while it is cheap to, sends fleets round the richest
//!   loops that bring them home, and builds new shipyards near rich ground.

mod idle;
mod miner;
mod random;

pub use idle::Idle;
pub use miner::Miner;
pub use random::Random;
