//! Allocates until the memory cap stops it (then Rust aborts on the failed allocation).
ludus_hostile_bots::hostile_bot!({
    let mut hoard: Vec<Vec<u8>> = Vec::new();
    loop {
        hoard.push(vec![1u8; 1 << 20]);
        std::hint::black_box(&hoard);
    }
});
