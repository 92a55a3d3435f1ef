//! Whole four-seat Halite matches of the example bots in the sandbox, from
//! the first turn to the outcome (instantiation, every `act`, the engine,
//! the replay): the Ludus side of "whole matches against upstream" in
//! `docs/benchmarks.md`, whose upstream side is
//! `fidelity/bench_halite_match.py`.
//!
//! `cargo bench -p ludus-host --bench halite_match`

use criterion::{criterion_group, criterion_main, Criterion};
use ludus_host::{Limits, MatchSpec, Sandbox};

fn bench(c: &mut Criterion) {
    let sandbox = Sandbox::new().expect("sandbox");
    let dir = ludus_testkit::bots_dir();
    let mut group = c.benchmark_group("halite match");
    group.sample_size(10);
    // Seeds where the match runs all 399 steps.
    for (bot, seed) in [("random", 2), ("random", 3), ("idle", 7), ("collector", 7)] {
        let name = format!("halite_{bot}");
        let wasm = std::fs::read(dir.join(format!("{name}.wasm"))).unwrap();
        let loaded = sandbox.load(&name, &wasm).unwrap();
        let spec = MatchSpec {
            game: "halite".into(),
            config: serde_json::Value::Null,
            seed,
            limits: Limits::default(),
            bots: vec![loaded; 4],
        };
        let replay = ludus_host::play(&spec).unwrap();
        let outcome = replay.outcome.as_ref().expect("played to the end");
        let fuel: u64 = replay
            .turns
            .iter()
            .flat_map(|t| &t.seats)
            .map(|s| s.fuel)
            .sum();
        eprintln!(
            "4 x {name}, seed {seed}: {} turns, {:.0}k fuel a seat a turn ({})",
            replay.turns.len(),
            fuel as f64 / replay.turns.len() as f64 / 4e3,
            outcome.reason
        );
        group.bench_function(format!("4 x {name}, seed {seed}, to the end"), |b| {
            b.iter(|| ludus_host::play(&spec).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
