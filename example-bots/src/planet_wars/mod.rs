//! Planet Wars bots, from trivial to a real strategy.
//!
//! * [`Idle`]: never moves; the baseline every bot should beat.
//! * [`Random`]: now and then sends a random fleet somewhere, drawing from the
//!   match's seeded randomness.
//! * [`Expander`]: plans with a forecast of every planet, keeps what it holds,
//!   grabs cheap planets near home, then takes the enemy's weakest planets.

mod expander;
mod idle;
mod random;

pub use expander::Expander;
pub use idle::Idle;
pub use random::Random;
