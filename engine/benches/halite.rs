//! Engine-only Halite speed: steps per second replaying a recorded answer
//! stream, with and without writing every seat's observation.
//!
//! `cargo bench -p ludus-engine --bench halite`
//!
//! The stream is also written to `target/halite-bench-stream.jsonl` (one
//! line per step: every seat's answer), so that
//! `fidelity/bench_halite.py` can time kaggle-environments' `env.step` on
//! exactly the same actions.
//!
//! With `LUDUS_BENCH_ONCE=1` it replays the stream once without and once
//! with observations and exits, for instruction counts:
//! `valgrind --tool=callgrind --collect-atstart=no
//! --toggle-collect='halite::steps_only'` (or
//! `'halite::steps_with_observations'`) `target/release/deps/halite-<hash>`.

mod common;

use std::fmt::Write as _;

use criterion::{criterion_group, Criterion, Throughput};
use ludus_engine::halite::{Halite, Num};
use ludus_engine::Game;
use serde_json::Value;

const SEED: u64 = 7;
const PLAYERS: usize = 4;

/// A busy policy to record real answers: the first ship converts, shipyards
/// spawn while the bank holds 1000 and the seat has fewer than 12 ships,
/// ships stay on cells richer than 100 and otherwise move at random.
fn policy(g: &Halite, seat: usize, rng: &mut u64) -> String {
    let mut next = || {
        *rng = rng
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (*rng >> 33) as usize
    };
    let mut out = String::from("{");
    let mut first = true;
    let mut add = |uid: String, action: &str, out: &mut String| {
        if !first {
            out.push(',');
        }
        first = false;
        let _ = write!(out, "\"{uid}\":\"{action}\"");
    };
    let yards = g.shipyards().iter().filter(|y| y.owner == seat).count();
    let ships: Vec<_> = g.ships().iter().filter(|s| s.owner == seat).collect();
    for (i, s) in ships.iter().enumerate() {
        if yards == 0 && i == 0 {
            add(s.uid.to_string(), "CONVERT", &mut out);
        } else if g.halite()[s.pos] <= Num::Int(100) {
            let m = ["NORTH", "EAST", "SOUTH", "WEST"][next() % 4];
            add(s.uid.to_string(), m, &mut out);
        }
    }
    for y in g.shipyards().iter().filter(|y| y.owner == seat) {
        if g.banks()[seat] >= Num::Int(1000) && ships.len() < 12 && next() % 2 == 0 {
            add(y.uid.to_string(), "SPAWN", &mut out);
        }
    }
    out.push('}');
    out
}

fn record() -> Vec<Vec<String>> {
    let mut game = Halite::from_config(&Value::Null, SEED, PLAYERS).unwrap();
    let mut rng = 42u64;
    let mut stream = Vec::new();
    while game.outcome().is_none() {
        let answers: Vec<String> = (0..PLAYERS).map(|s| policy(&game, s, &mut rng)).collect();
        let refs: Vec<Option<&str>> = answers.iter().map(|a| Some(a.as_str())).collect();
        game.step(&refs);
        stream.push(answers);
    }
    stream
}

fn replay(stream: &[Vec<String>], observations: bool) -> Halite {
    if observations {
        steps_with_observations(stream)
    } else {
        steps_only(stream)
    }
}

#[inline(never)]
fn steps_only(stream: &[Vec<String>]) -> Halite {
    play(stream, false)
}

#[inline(never)]
fn steps_with_observations(stream: &[Vec<String>]) -> Halite {
    play(stream, true)
}

fn play(stream: &[Vec<String>], observations: bool) -> Halite {
    let mut game = Halite::from_config(&Value::Null, SEED, PLAYERS).unwrap();
    let mut obs = String::with_capacity(16 << 10);
    let mut refs: Vec<Option<&str>> = Vec::with_capacity(PLAYERS);
    for answers in stream {
        if observations {
            for s in 0..PLAYERS {
                game.observation(s, &mut obs);
                std::hint::black_box(&obs);
            }
        }
        refs.clear();
        refs.extend(answers.iter().map(|a| Some(a.as_str())));
        game.step(&refs);
    }
    game
}

/// The stream replayed once without and once with observations.
fn once(_players: Option<usize>) {
    let stream = record();
    let end = steps_only(&stream);
    steps_with_observations(&stream);
    eprintln!(
        "halite: {} steps, rewards {:?}",
        stream.len(),
        end.rewards()
    );
}

fn bench(c: &mut Criterion) {
    let stream = record();
    let end = replay(&stream, false);
    eprintln!(
        "halite: {} steps recorded, final rewards {:?}, {} ships",
        stream.len(),
        end.rewards(),
        end.ships().len()
    );
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../target/halite-bench-stream.jsonl");
    let lines: Vec<String> = stream
        .iter()
        .map(|answers| format!("[{}]", answers.join(",")))
        .collect();
    let _ = std::fs::write(&path, lines.join("\n") + "\n");

    let mut group = c.benchmark_group("halite engine");
    group.throughput(Throughput::Elements(stream.len() as u64));
    group.bench_function("4 players, steps only", |b| {
        b.iter(|| replay(&stream, false))
    });
    group.bench_function("4 players, steps with every seat's observation", |b| {
        b.iter(|| replay(&stream, true))
    });
    group.finish();
}

criterion_group!(benches, bench);

fn main() {
    common::once_or_criterion(once, benches);
}
