//! Recurses without end until the wasm stack runs out.
#[allow(unconditional_recursion)]
fn dive(n: u64) -> u64 {
    let pad = std::hint::black_box([n; 16]);
    dive(pad[3] + 1) + pad[7]
}

ludus_hostile_bots::hostile_bot!({
    std::hint::black_box(dive(0));
    ludus_hostile_bots::answer(ludus_hostile_bots::NO_MOVES)
});
