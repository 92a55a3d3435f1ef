//! Panics on every turn.
ludus_hostile_bots::hostile_bot!({
    if std::hint::black_box(true) {
        panic!("this bot always panics");
    }
    ludus_hostile_bots::answer(ludus_hostile_bots::NO_MOVES)
});
