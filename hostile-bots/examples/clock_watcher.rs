//! Thinks "until 50 ms have passed" by the clock, sleeps a millisecond, and
//! answers with what it saw of the clocks and the random stream. A
//! well-behaved bot that tells whether time and randomness are deterministic.
use std::time::{Duration, Instant, SystemTime};

ludus_hostile_bots::hostile_bot!({
    let start = Instant::now();
    let mut spins = 0u64;
    while start.elapsed() < Duration::from_millis(50) {
        spins = std::hint::black_box(spins + 1);
    }
    std::thread::sleep(Duration::from_millis(1));
    let wall = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    // RandomState draws its keys from random_get.
    let random =
        std::hash::BuildHasher::hash_one(&std::collections::hash_map::RandomState::new(), 1u8);
    let text = format!(
        "{{\"moves\":[],\"spins\":{spins},\"elapsed_ns\":{},\"wall_ns\":{wall},\"random\":{random}}}",
        start.elapsed().as_nanos()
    );
    let text: &'static str = Box::leak(text.into_boxed_str());
    ludus_hostile_bots::answer(text.as_bytes())
});
