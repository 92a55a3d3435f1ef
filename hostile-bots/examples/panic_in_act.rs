//! Panics on every turn.
ludus_hostile_bots::hostile_bot!(ludus_hostile_bots::attack::panic());
