//! Pirates bots.
//!
//! * [`Random`]: a random legal action every move.
//! * [`Sample`]: the sample bot in the style of the rule books: fires at
//!   the first ship in range, drinks below half health, otherwise sails the
//!   step that brings it nearest the flag.
//! * [`Strategy`]: races for the flag along shortest ways round islands and
//!   vortices, spends its gold on cannons and hull, fires where a duel is
//!   won, flees where it is lost, and hunts weaker ships once strong.

mod random;
mod sample;
mod strategy;

pub use random::Random;
pub use sample::Sample;
pub use strategy::Strategy;
