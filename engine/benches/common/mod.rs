//! What the engine benchmarks share: a mode that replays each recorded
//! stream once and exits, for instruction counts under callgrind (which
//! counts the same twice, where this shared machine's timings drift).

use criterion::Criterion;

/// With `LUDUS_BENCH_ONCE` set, `once(players)` (the value as a seat count,
/// `None` for all); otherwise the Criterion benchmarks `benches`.
pub fn once_or_criterion(once: impl FnOnce(Option<usize>), benches: impl FnOnce()) {
    match std::env::var("LUDUS_BENCH_ONCE") {
        Ok(players) => once(players.parse().ok()),
        Err(_) => {
            benches();
            Criterion::default().configure_from_args().final_summary();
        }
    }
}
