//! A whole conquest match in the sandbox: four copies of the strategy bot,
//! from instantiation to the outcome (every `act` in wasm, the engine with
//! its fog of war, the replay).
//!
//! `cargo bench -p ludus-host --bench conquest_match`

use criterion::{criterion_group, criterion_main, Criterion};
use ludus_host::{Limits, MatchSpec, Sandbox};

fn bench(c: &mut Criterion) {
    let sandbox = Sandbox::new().expect("sandbox");
    let wasm = std::fs::read(ludus_testkit::bots_dir().join("conquest_strategy.wasm")).unwrap();
    let strategy = sandbox.load("conquest_strategy", &wasm).unwrap();
    let spec = MatchSpec {
        game: "conquest".into(),
        config: serde_json::Value::Null,
        seed: 1,
        limits: Limits::default(),
        bots: vec![
            strategy.clone(),
            strategy.clone(),
            strategy.clone(),
            strategy,
        ],
    };
    let replay = ludus_host::play(&spec).unwrap();
    let outcome = replay.outcome.as_ref().expect("played to the end");
    let seats = || replay.turns.iter().flat_map(|t| &t.seats);
    let faults = seats().filter(|s| s.fault.is_some()).count();
    let refused: usize = seats().map(|s| s.refused.len()).sum();
    let fuel: u64 = seats().map(|s| s.fuel).sum();
    eprintln!(
        "conquest: {} turns, {faults} faults, {refused} refusals, {fuel} fuel, placements {:?} ({})",
        replay.turns.len(),
        outcome.placements,
        outcome.reason
    );
    let mut group = c.benchmark_group("conquest match");
    group.sample_size(10);
    group.bench_function("four strategies, to the end", |b| {
        b.iter(|| ludus_host::play(&spec).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
