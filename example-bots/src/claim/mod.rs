//! Claim bots.
//!
//! * [`Sample`]: the rule book's sample bot: finish a capture, else go east.
//! * [`Strategy`]: grows a compact territory from home, cuts rivals' thin
//!   chains (which puts a cut-off rival out), and takes empty enemy homes.

mod sample;
mod strategy;

pub use sample::Sample;
pub use strategy::Strategy;
