//! Shields bots.
//!
//! * [`Sample`]: the rule book's sample bot: finish taking or upgrading,
//!   else go east.
//! * [`Strategy`]: goes for the cell worth the most points per turn spent
//!   (taking, upgrading, raiding), and shields when a rival sits on its land.

mod sample;
mod strategy;

pub use sample::Sample;
pub use strategy::Strategy;
