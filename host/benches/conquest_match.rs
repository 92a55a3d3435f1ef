//! A whole conquest match in the sandbox: four copies of the strategy bot,
//! from instantiation to the outcome (every `act` in wasm, the engine with
//! its fog of war, the replay).
//!
//! `cargo bench -p ludus-host --bench conquest_match`

use criterion::{criterion_group, criterion_main, Criterion};
use ludus_host::{Limits, MatchSpec, Sandbox};

fn bench(c: &mut Criterion) {
    let sandbox = Sandbox::new().expect("sandbox");
    let strategy = sandbox
        .load_file_named(
            "conquest_strategy",
            &ludus_testkit::bot("conquest_strategy"),
        )
        .unwrap();
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
    assert!(replay.outcome.is_some(), "played to the end");
    let fuel: u64 = replay
        .turns
        .iter()
        .flat_map(|t| &t.seats)
        .map(|s| s.fuel)
        .sum();
    let summary = replay.summary();
    eprintln!(
        "conquest: {} turns, {fuel} fuel in all, {}",
        replay.turns.len(),
        summary.result
    );
    for seat in &summary.seats {
        eprintln!(
            "  seat {}: place {:?}, {:?} {}, {} refused, faults {}",
            seat.seat,
            seat.place,
            seat.score,
            summary.score_unit,
            seat.refused,
            seat.faults_text()
        );
    }
    let mut group = c.benchmark_group("conquest match");
    group.sample_size(10);
    group.bench_function("four strategies, to the end", |b| {
        b.iter(|| ludus_host::play(&spec).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
