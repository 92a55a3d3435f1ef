//! Whole four-seat matches of the grid games' example bots in the sandbox:
//! each game's strategy bot against three copies of its sample bot, from
//! the first turn to the outcome (instantiation, every `act`, the engine,
//! the replay).
//!
//! `cargo bench -p ludus-host --bench grid_matches`

use criterion::{criterion_group, criterion_main, Criterion};
use ludus_host::{Limits, MatchSpec, Sandbox};

fn bench(c: &mut Criterion) {
    let sandbox = Sandbox::new().expect("sandbox");
    let load = |name: &str| {
        sandbox
            .load_file_named(name, &ludus_testkit::bot(name))
            .unwrap()
    };
    let mut group = c.benchmark_group("grid match");
    group.sample_size(10);
    for game in ["claim", "loops", "shields"] {
        let strategy = load(&format!("{game}_strategy"));
        let sample = load(&format!("{game}_sample"));
        let spec = MatchSpec {
            game: game.into(),
            config: serde_json::Value::Null,
            seed: 1,
            limits: Limits::default(),
            bots: vec![strategy, sample.clone(), sample.clone(), sample],
        };
        let replay = ludus_host::play(&spec).unwrap();
        let outcome = replay.outcome.as_ref().expect("played to the end");
        let seats = || replay.turns.iter().flat_map(|t| &t.seats);
        let faults = seats().filter(|s| s.fault.is_some()).count();
        let refused: usize = seats().map(|s| s.refused.len()).sum();
        eprintln!(
            "{game}: {} turns, {faults} faults, {refused} refusals, placements {:?} ({})",
            replay.turns.len(),
            outcome.placements,
            outcome.reason
        );
        group.bench_function(format!("{game}: strategy vs 3 samples, to the end"), |b| {
            b.iter(|| ludus_host::play(&spec).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
