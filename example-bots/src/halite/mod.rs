//! Halite IV bots: [`Idle`] (does nothing), [`Random`] (the reference's
//! built-in random agent, ported) and [`Collector`] (a real strategy).

mod collector;
mod idle;
mod random;

pub use collector::Collector;
pub use idle::Idle;
pub use random::Random;
