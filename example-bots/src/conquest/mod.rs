//! Conquest bots.
//!
//! * [`Sample`]: the rule book's sample bot: east, south, or build a mine.
//! * [`Strategy`]: builds barracks and mines, grows compact land, and goes
//!   for the nearest enemy capital with an army large enough to take it.

mod sample;
mod strategy;

pub use sample::Sample;
pub use strategy::Strategy;
