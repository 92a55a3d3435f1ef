//! Sleeps for an hour on every turn; the host must not block on it.
ludus_hostile_bots::hostile_bot!({
    std::thread::sleep(std::time::Duration::from_secs(3600));
    ludus_hostile_bots::answer(ludus_hostile_bots::NO_MOVES)
});
