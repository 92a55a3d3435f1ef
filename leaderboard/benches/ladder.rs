//! Ladder throughput: matches per second of a round robin of the example
//! bots on 1 and 2 threads, the storage cost per match, and how a ladder's
//! time grows with the number of bots.
//!
//! `cargo bench -p ludus-leaderboard --bench ladder`

use criterion::{criterion_group, criterion_main, Criterion};
use ludus_host::{Limits, Sandbox};
use ludus_leaderboard::ladder::{self, LadderSpec, RunOptions};
use ludus_leaderboard::schedule::Kind;
use ludus_leaderboard::store::Store;
use std::time::Instant;

const EXAMPLES: [&str; 3] = [
    "planet_wars_expander",
    "planet_wars_random",
    "planet_wars_idle",
];

/// A fresh database with `n` bots: the examples, repeated under other names.
fn store(dir: &std::path::Path, n: usize, tag: &str) -> Store {
    let path = dir.join(format!("{tag}.db"));
    let _ = std::fs::remove_file(&path);
    let store = Store::open(&path).unwrap();
    for i in 0..n {
        let file = EXAMPLES[i % EXAMPLES.len()];
        let wasm = std::fs::read(ludus_testkit::bot(file)).unwrap();
        let sha = ludus_host::sha256_hex(&wasm);
        store
            .bots()
            .submit(
                &format!("{file}-{i}"),
                "planet-wars",
                &wasm,
                &sha,
                "2026-01-01T00:00:00Z",
            )
            .unwrap();
    }
    store
}

fn spec(store: &Store, rounds: u32) -> LadderSpec {
    LadderSpec {
        game: "planet-wars".into(),
        kind: Kind::RoundRobin,
        players: 2,
        rounds,
        seed: 1,
        config: serde_json::Value::Null,
        limits: Limits::default(),
        bots: store.bots().latest("planet-wars").unwrap(),
    }
}

fn bench(c: &mut Criterion) {
    let sandbox = Sandbox::new().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut group = c.benchmark_group("ladder");
    group.sample_size(10);
    for threads in [1, 2] {
        group.bench_function(
            format!("round robin of 3 example bots, 8 rounds (48 matches), {threads} thread(s)"),
            |b| {
                b.iter(|| {
                    let s = store(dir.path(), 3, &format!("t{threads}"));
                    let spec = spec(&s, 8);
                    ladder::run(&s, &sandbox, &spec, &RunOptions::new(threads), |_| {})
                        .unwrap()
                        .ladder
                })
            },
        );
    }
    group.finish();

    // Storage per match, and growth with the number of bots (2 threads, 1 round).
    for n in [3, 6, 12] {
        let s = store(dir.path(), n, &format!("n{n}"));
        let spec = spec(&s, 1);
        let start = Instant::now();
        let id = ladder::run(&s, &sandbox, &spec, &RunOptions::new(2), |_| {})
            .unwrap()
            .ladder;
        let secs = start.elapsed().as_secs_f64();
        let matches = s.results().all(id).unwrap().len();
        let path = dir.path().join(format!("n{n}.db"));
        drop(s);
        let bytes = std::fs::metadata(&path).unwrap().len()
            + std::fs::metadata(path.with_extension("db-wal")).map_or(0, |m| m.len());
        eprintln!(
            "{n:>3} bots: {matches:>4} matches in {secs:.2} s ({:.1} matches/s); database {:.1} KiB, {:.1} KiB per match (bots' wasm included)",
            matches as f64 / secs,
            bytes as f64 / 1024.0,
            bytes as f64 / 1024.0 / matches as f64
        );
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
