//! Never answers: spins forever inside `act`.
ludus_hostile_bots::hostile_bot!(ludus_hostile_bots::attack::endless_loop());
