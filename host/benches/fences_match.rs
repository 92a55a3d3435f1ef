//! Whole fences matches in the sandbox: two copies of the strategy bot, and
//! the strategy against the sample, from instantiation to the outcome (every
//! `act` in wasm for both seats at every move, the engine with its legal-move
//! lists, the replay).
//!
//! `cargo bench -p ludus-host --bench fences_match`

use criterion::{criterion_group, criterion_main, Criterion};
use ludus_host::{Limits, MatchSpec, Sandbox};

fn bench(c: &mut Criterion) {
    let sandbox = Sandbox::new().expect("sandbox");
    let load = |name: &str| {
        sandbox
            .load_file_named(name, &ludus_testkit::bot(name))
            .unwrap()
    };
    let strategy = load("fences_strategy");
    let sample = load("fences_sample");
    let mut group = c.benchmark_group("fences match");
    group.sample_size(10);
    for (name, bots) in [
        (
            "strategy vs strategy",
            vec![strategy.clone(), strategy.clone()],
        ),
        ("strategy vs sample", vec![strategy.clone(), sample.clone()]),
    ] {
        let spec = MatchSpec {
            game: "fences".into(),
            config: serde_json::Value::Null,
            seed: 1,
            limits: Limits::default(),
            bots,
        };
        let replay = ludus_host::play(&spec).unwrap();
        let outcome = replay.outcome.as_ref().expect("played to the end");
        let seats = || replay.turns.iter().flat_map(|t| &t.seats);
        let faults = seats().filter(|s| s.fault.is_some()).count();
        let refused: usize = seats().map(|s| s.refused.len()).sum();
        let fuel: u64 = seats().map(|s| s.fuel).sum();
        eprintln!(
            "fences {name}: {} moves, {faults} faults, {refused} refusals, {fuel} fuel in all, \
             scores {:?}, placements {:?} ({})",
            replay.turns.len(),
            outcome.scores,
            outcome.placements,
            outcome.reason
        );
        group.bench_function(format!("{name}, 120 moves"), |b| {
            b.iter(|| ludus_host::play(&spec).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
