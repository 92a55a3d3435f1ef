//! Sleeps for an hour on every turn; the host must not block on it.
ludus_hostile_bots::hostile_bot!(ludus_hostile_bots::attack::sleep_forever());
