//! Loops bots.
//!
//! * [`Sample`]: the rule book's sample bot: go east while it can.
//! * [`Strategy`]: searches short closed walks off its land for the most new
//!   cells per turn, keeping its trail out of reach of rival bots.

mod sample;
mod strategy;

pub use sample::Sample;
pub use strategy::Strategy;
