//! Whole pirates matches in the sandbox, from instantiation to the outcome
//! (every `act` in wasm, the engine, the replay): four strategy bots, the
//! longest match Ludus plays (5000 moves unless three ships sink), and the
//! strategy against three samples. Only the ship to move is asked, so a
//! move is one `act` call.
//!
//! `cargo bench -p ludus-host --bench pirates_match`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ludus_host::{Limits, MatchSpec, Sandbox};

fn bench(c: &mut Criterion) {
    let sandbox = Sandbox::new().expect("sandbox");
    let load = |name: &str| {
        sandbox
            .load_file_named(name, &ludus_testkit::bot(name))
            .unwrap()
    };
    let strategy = load("pirates_strategy");
    let sample = load("pirates_sample");
    let mut group = c.benchmark_group("pirates match");
    group.sample_size(10);
    for (name, bots) in [
        (
            "4 strategies",
            vec![
                strategy.clone(),
                strategy.clone(),
                strategy.clone(),
                strategy.clone(),
            ],
        ),
        (
            "strategy vs 3 samples",
            vec![
                strategy.clone(),
                sample.clone(),
                sample.clone(),
                sample.clone(),
            ],
        ),
    ] {
        let spec = MatchSpec {
            game: "pirates".into(),
            config: serde_json::Value::Null,
            seed: 1,
            limits: Limits::default(),
            bots,
        };
        let replay = ludus_host::play(&spec).unwrap();
        let outcome = replay.outcome.as_ref().expect("played to the end");
        let seats = || replay.turns.iter().flat_map(|t| &t.seats);
        let calls = seats().filter(|s| !s.waiting && !s.out).count();
        let fuel: u64 = seats().map(|s| s.fuel).sum();
        let faults = seats().filter(|s| s.fault.is_some()).count();
        let refused: usize = seats().map(|s| s.refused.len()).sum();
        eprintln!(
            "{name}: {} moves, {calls} act calls ({} fuel a call on average), {faults} faults, \
             {refused} refusals, placements {:?} ({})",
            replay.turns.len(),
            fuel / calls.max(1) as u64,
            outcome.placements,
            outcome.reason
        );
        group.throughput(Throughput::Elements(replay.turns.len() as u64));
        group.bench_function(format!("{name}, seed 1, to the end"), |b| {
            b.iter(|| ludus_host::play(&spec).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
