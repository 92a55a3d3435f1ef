//! Engine-only speed of fences: moves per second with no bots, replaying a
//! recorded game of random legal moves, with both seats' observations
//! written every move (the mover's carries the legal-move list, which is
//! the expensive part), and the legal-move list alone at several sizes of
//! the drawing.
//!
//! `cargo bench -p ludus-engine --bench fences`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use ludus_engine::fences::Fences;
use ludus_engine::{new_game, Game};
use rand_core::RngCore;
use serde_json::Value;

/// Plays a game on `seed` where the mover picks a random legal move
/// (preferring, half the time, one that closes or breaks), and returns the
/// answers move by move, and the positions before every move.
fn record(seed: u64) -> (Vec<[String; 2]>, Vec<Fences>) {
    let mut g = Fences::new(17, 11, 120);
    let mut rng = ludus_engine::rng::stream(seed, "bench/fences-random-legal");
    let mut stream = Vec::new();
    let mut positions = Vec::new();
    while g.outcome().is_none() {
        positions.push(g.clone());
        let seat = g.to_move();
        let legal = g.legal_moves(seat);
        let keen: Vec<_> = legal
            .iter()
            .filter(|m| m.closes || m.breaks.is_some())
            .collect();
        let m = if !keen.is_empty() && rng.next_u32().is_multiple_of(2) {
            *keen[rng.next_u32() as usize % keen.len()]
        } else {
            legal[rng.next_u32() as usize % legal.len()]
        };
        let (a, b) = (m.seg.a, m.seg.b);
        let mut answers = [String::from("WAIT"), String::from("WAIT")];
        answers[seat] = format!("MOVE {} {} {} {}", a.x, a.y, b.x, b.y);
        let refs = [Some(answers[0].as_str()), Some(answers[1].as_str())];
        assert!(g.step(&refs).is_empty());
        stream.push(answers);
    }
    (stream, positions)
}

fn replay(stream: &[[String; 2]]) -> Box<dyn Game> {
    let mut g = new_game("fences", &Value::Null, 0, 2).unwrap();
    let mut obs = String::with_capacity(64 << 10);
    for answers in stream {
        for seat in 0..2 {
            g.observation(seat, &mut obs);
            std::hint::black_box(&obs);
        }
        g.step(&[Some(answers[0].as_str()), Some(answers[1].as_str())]);
    }
    g
}

fn steps_only(stream: &[[String; 2]]) -> Box<dyn Game> {
    let mut g = new_game("fences", &Value::Null, 0, 2).unwrap();
    for answers in stream {
        g.step(&[Some(answers[0].as_str()), Some(answers[1].as_str())]);
    }
    g
}

fn bench(c: &mut Criterion) {
    let (stream, positions) = record(7);
    let last = positions.last().unwrap();
    eprintln!(
        "fences: {} moves recorded, {} edges at the end, scores {:?}",
        stream.len(),
        last.edges().len(),
        new_game("fences", &Value::Null, 0, 2)
            .map(|_| replay(&stream).scores())
            .unwrap()
    );
    let mut group = c.benchmark_group("fences engine");
    group.throughput(Throughput::Elements(stream.len() as u64));
    group.bench_function("random legal moves, with both observations", |b| {
        b.iter(|| replay(&stream))
    });
    group.bench_function("random legal moves, steps only", |b| {
        b.iter(|| steps_only(&stream))
    });
    group.finish();

    // The legal-move list as the drawing grows.
    let mut group = c.benchmark_group("fences legal moves");
    for k in [0, 30, 60, 90, positions.len() - 1] {
        let g = &positions[k];
        let seat = g.to_move();
        let n = g.legal_moves(seat).len();
        let id = format!(
            "move {k}: {} edges ({} the mover's), {} nodes, {n} legal",
            g.edges().len(),
            g.edges_of(seat).count(),
            g.nodes(seat).len()
        );
        group.bench_with_input(BenchmarkId::from_parameter(id), g, |b, g| {
            b.iter(|| g.legal_moves(seat))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
