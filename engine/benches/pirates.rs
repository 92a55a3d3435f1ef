//! Engine-only speed of pirates: moves per second with no bots, replaying a
//! recorded game of random legal actions, the ship to move's observation
//! written each move (only that seat is asked, as when hosting bots), and
//! the moves alone.
//!
//! `cargo bench -p ludus-engine --bench pirates`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ludus_engine::pirates::Pirates;
use ludus_engine::Game;
use rand_core::RngCore;
use serde_json::{json, Value};

fn game(seed: u64) -> Pirates {
    Pirates::from_config(&json!({"difficulty": "normal"}), seed, 4).unwrap()
}

/// Plays `seed` with the ship to move picking a random action from its
/// `legalActions`, and returns each move's answer (`None`: not asked).
fn record(seed: u64) -> Vec<Option<String>> {
    let mut g = game(seed);
    let mut rng = ludus_engine::rng::stream(seed, "bench/random-legal");
    let mut obs = String::new();
    let mut stream = Vec::new();
    while g.outcome().is_none() {
        let seat = g.to_move();
        let answer = g.asks(seat).then(|| {
            g.observation(seat, &mut obs);
            let v: Value = serde_json::from_str(&obs).unwrap();
            let legal = v["legalActions"].as_array().unwrap();
            legal[rng.next_u32() as usize % legal.len()]
                .as_str()
                .unwrap()
                .to_string()
        });
        let mut answers: [Option<&str>; 4] = [None; 4];
        answers[seat] = answer.as_deref();
        assert!(g.step(&answers).is_empty());
        stream.push(answer);
    }
    stream
}

fn replay(seed: u64, stream: &[Option<String>], observe: bool) -> Pirates {
    let mut g = game(seed);
    let mut obs = String::with_capacity(4 << 10);
    for answer in stream {
        let seat = g.to_move();
        if observe && g.asks(seat) {
            g.observation(seat, &mut obs);
            std::hint::black_box(&obs);
        }
        let mut answers: [Option<&str>; 4] = [None; 4];
        answers[seat] = answer.as_deref();
        g.step(&answers);
    }
    g
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("pirates engine");
    // The NPCs sink random ships early in most games; seed 9 lasts 4385
    // moves.
    let seed = 9;
    let stream = record(seed);
    let end = replay(seed, &stream, false);
    eprintln!(
        "pirates seed {seed}: {} moves recorded, {:?}",
        stream.len(),
        end.outcome().map(|o| o.reason)
    );
    group.throughput(Throughput::Elements(stream.len() as u64));
    group.bench_function("random legal actions, the mover's observation", |b| {
        b.iter(|| replay(seed, &stream, true))
    });
    group.bench_function("random legal actions, moves only", |b| {
        b.iter(|| replay(seed, &stream, false))
    });
    group.throughput(Throughput::Elements(1));
    group.bench_function("a new game (the map generated)", |b| {
        b.iter(|| game(std::hint::black_box(seed)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
