//! Engine-only speed of the four-bot grid games and conquest: turns per
//! second with no bots, replaying a recorded stream of random legal answers
//! (every seat's observation written each turn, as when hosting bots).
//!
//! `cargo bench -p ludus-engine --bench grid_games`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ludus_engine::{new_game, Game};
use rand_core::RngCore;
use serde_json::Value;

/// Plays `game` on `seed` with every seat picking a random action from its
/// `legal_actions`, and returns the answers turn by turn.
fn record(game: &str, seed: u64) -> Vec<[String; 4]> {
    let mut g = new_game(game, &Value::Null, seed, 4).unwrap();
    let mut rng = ludus_engine::rng::stream(seed, "bench/random-legal");
    let mut obs = String::new();
    let mut stream = Vec::new();
    while g.outcome().is_none() {
        let answers: [String; 4] = std::array::from_fn(|seat| {
            g.observation(seat, &mut obs);
            let v: Value = serde_json::from_str(&obs).unwrap();
            let legal = v["legal_actions"].as_array().unwrap();
            if legal.is_empty() {
                "STAY".to_string()
            } else {
                let k = rng.next_u32() as usize % legal.len();
                legal[k].as_str().unwrap().to_string()
            }
        });
        let refs: Vec<Option<&str>> = answers.iter().map(|a| Some(a.as_str())).collect();
        g.step(&refs);
        stream.push(answers);
    }
    stream
}

fn replay(game: &str, seed: u64, stream: &[[String; 4]]) -> Box<dyn Game> {
    let mut g = new_game(game, &Value::Null, seed, 4).unwrap();
    let mut obs = String::with_capacity(8 << 10);
    for answers in stream {
        for seat in 0..4 {
            g.observation(seat, &mut obs);
            std::hint::black_box(&obs);
        }
        let refs: [Option<&str>; 4] = std::array::from_fn(|s| Some(answers[s].as_str()));
        g.step(&refs);
    }
    g
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("grid engines");
    // claim seed 2: a 15×15 board; loops seed 1: 12×8 with walls.
    for (game, seed) in [("claim", 2), ("loops", 1), ("shields", 7), ("conquest", 1)] {
        let stream = record(game, seed);
        let setup = new_game(game, &Value::Null, seed, 4).unwrap().setup();
        eprintln!("{game}: {} turns recorded, setup {setup}", stream.len());
        group.throughput(Throughput::Elements(stream.len() as u64));
        group.bench_function(
            format!("{game}, random legal moves, with observations"),
            |b| b.iter(|| replay(game, seed, &stream)),
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
