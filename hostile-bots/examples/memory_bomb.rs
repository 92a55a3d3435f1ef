//! Allocates until the memory cap stops it (then Rust aborts on the failed allocation).
ludus_hostile_bots::hostile_bot!(ludus_hostile_bots::attack::memory_bomb());
