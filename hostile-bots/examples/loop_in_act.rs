//! Never answers: spins forever inside `act`.
ludus_hostile_bots::hostile_bot!({
    let mut n = 0u64;
    loop {
        n = std::hint::black_box(n.wrapping_add(1));
    }
});
