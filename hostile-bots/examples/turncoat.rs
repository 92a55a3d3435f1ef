//! Plays like a well-behaved bot (no moves) through the 30 turns of its
//! validation match, so a server admits it, then attacks on every turn, each
//! attack of the corpus in turn: an endless loop, a memory bomb, a panic,
//! deep recursion, a bad answer pointer, a huge answer length, invalid
//! UTF-8, an hour's sleep, `proc_exit`, and the loop again: ten faults in a
//! row, after which it is out of the match.
//!
//! A fault discards its instance, and its memory with it, so it reads the
//! turn from the virtual clock, which carries on across instances: each
//! turn starts where the previous turn's budget ended (the default budgets:
//! 2 s for the first turn, 200 ms after).
use ludus_hostile_bots::{answer, attack, NO_MOVES};
use std::time::{SystemTime, UNIX_EPOCH};

/// The virtual wall clock's reading when a match starts: 2020-01-01.
const MATCH_START_NS: u128 = 1_577_836_800 * 1_000_000_000;
const FIRST_TURN_NS: u128 = 2_000_000_000;
const TURN_NS: u128 = 200_000_000;
/// Turns of the validation match every upload plays.
const VALIDATION_TURNS: u128 = 30;

/// This turn (1-based), from the clock at the start of the call.
fn turn() -> u128 {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    match now.saturating_sub(MATCH_START_NS) {
        t if t < FIRST_TURN_NS => 1,
        t => 2 + (t - FIRST_TURN_NS) / TURN_NS,
    }
}

ludus_hostile_bots::hostile_bot!({
    let attacks = [
        attack::endless_loop,
        attack::memory_bomb,
        attack::panic,
        attack::deep_recursion,
        attack::bad_answer_pointer,
        attack::huge_answer_length,
        attack::invalid_utf8,
        attack::sleep_forever,
        attack::exit,
    ];
    match turn().checked_sub(VALIDATION_TURNS + 1) {
        None => answer(NO_MOVES),
        Some(n) => attacks[(n % attacks.len() as u128) as usize](),
    }
});
