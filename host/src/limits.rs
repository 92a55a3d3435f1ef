//! Resource limits for one bot in one match. Compute is metered by fuel (one
//! unit per executed wasm instruction, roughly), never by wall time, so every
//! limit is deterministic and a replay re-runs the same way on any machine.

use serde::{Deserialize, Serialize};

/// Fuel that Rust bot code burns per second of real time on a typical machine:
/// the example `expander` bot measured 4.4e9 fuel/s (a tight loop 8.0e9) with
/// `cargo bench -p ludus-host --bench sandbox` (see `docs/benchmarks.md`),
/// rounded down. Used to translate the rule books' time limits into fuel, and
/// to run the bots' virtual clocks.
pub const FUEL_PER_SECOND: u64 = 4_000_000_000;

/// Limits for each seat of a match. Stored in every replay.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// Fuel for the first turn (the rule books' "2 s for the first turn"),
    /// instantiation (the start function and `_initialize`) included.
    pub first_turn_fuel: u64,
    /// Fuel for every later turn ("200 ms after"), re-instantiation after a
    /// fault included.
    pub turn_fuel: u64,
    /// Linear memory cap in bytes.
    pub memory_bytes: u64,
    /// Cap on table elements.
    pub table_elements: u64,
    /// Wasm stack in bytes.
    pub wasm_stack_bytes: u64,
    /// Largest answer accepted, in bytes.
    pub answer_bytes: u64,
    /// Bytes of stdout/stderr kept per seat per match; the rest is dropped and counted.
    pub log_bytes: u64,
    /// Largest single `random_get` request, in bytes.
    pub random_bytes_per_call: u64,
    /// A seat that faults on this many turns in a row is out of the match.
    pub max_consecutive_faults: u32,
    /// Wall-clock backstop per call into a bot, in milliseconds. Only a host
    /// bug (fuel not being charged) can trip it; a match stopped by it is
    /// aborted and never scored. Not part of the match's identity.
    pub backstop_ms: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            first_turn_fuel: 2 * FUEL_PER_SECOND,
            turn_fuel: FUEL_PER_SECOND / 5,
            memory_bytes: 64 << 20,
            table_elements: 100_000,
            wasm_stack_bytes: 512 << 10,
            answer_bytes: 1 << 20,
            log_bytes: 64 << 10,
            random_bytes_per_call: 64 << 10,
            max_consecutive_faults: 10,
            backstop_ms: 60_000,
        }
    }
}

impl Limits {
    /// Small budgets for tests: hostile bots fail fast.
    pub fn for_tests() -> Self {
        Limits {
            first_turn_fuel: 50_000_000,
            turn_fuel: 20_000_000,
            memory_bytes: 16 << 20,
            log_bytes: 8 << 10,
            max_consecutive_faults: 3,
            ..Limits::default()
        }
    }

    /// Fuel for the call on turn `turn` (0-based) of a seat's instance.
    pub fn turn_budget(&self, turn: u32) -> u64 {
        if turn == 0 {
            self.first_turn_fuel
        } else {
            self.turn_fuel
        }
    }
}
