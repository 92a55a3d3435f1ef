//! Fences bots.
//!
//! * [`Sample`]: the rule book's sample bot: close a region when a move
//!   can, else the first legal move.
//! * [`Strategy`]: builds triangles on its own edges away from the
//!   opponent, two moves a turn, breaks the opponent's enclosing edges when
//!   it can reach them, and keeps its new work where it is hard to reach.

mod sample;
mod strategy;

pub use sample::Sample;
pub use strategy::Strategy;
