//! Halite IV bots: [`Idle`] (does nothing), [`Random`] (random legal
//! orders) and [`Collector`] (a real strategy).

mod collector;
mod idle;
mod random;

pub use collector::Collector;
pub use idle::Idle;
pub use random::Random;
