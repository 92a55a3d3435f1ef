//! Engine-only Kore speed: steps per second replaying a recorded 399-step
//! answer stream (a mining-and-expanding policy on every seat), with and
//! without writing every seat's observation.
//!
//! `cargo bench -p ludus-engine --bench kore`
//!
//! With `KORE_STREAM_OUT=FILE` it also writes the 2-player stream as JSON
//! lines (one array of answers per step) for `fidelity/replay_upstream.py`,
//! which times kaggle-environments' `env.step` on the very same answers.
//!
//! With `LUDUS_BENCH_ONCE=2` (or 4; any other value for both) it replays
//! the 2-player (4-player) stream once without and once with observations
//! and exits, for an instruction count that the noise of a shared machine
//! does not blur:
//!
//! ```text
//! LUDUS_BENCH_ONCE=2 valgrind --tool=callgrind --collect-atstart=no \
//!     --toggle-collect='kore::steps_only' target/release/deps/kore-<hash>
//! ```
//!
//! (and `--toggle-collect='kore::steps_with_observations'`); the difference
//! of the two counts is what writing every seat's observation costs.

mod common;

use criterion::{criterion_group, Criterion, Throughput};
use ludus_engine::{new_game, Game};
use serde_json::{json, Value};

/// Spawn when affordable; send 21+ ships round a box that brings them home;
/// convert with 60+ ships.
fn policy(observation: &str, step: u64) -> String {
    let v: Value = serde_json::from_str(observation).unwrap();
    let obs = &v["observation"];
    let me = &obs["players"][obs["player"].as_u64().unwrap() as usize];
    let mut kore = me[0].as_f64().unwrap();
    let mut orders = serde_json::Map::new();
    for (i, (uid, sy)) in me[1].as_object().unwrap().iter().enumerate() {
        let ships = sy[1].as_i64().unwrap();
        let turns = sy[2].as_i64().unwrap();
        let cap = [2, 7, 17, 34, 60, 97, 147, 212, 294]
            .iter()
            .filter(|&&t| turns >= t)
            .count() as i64
            + 1;
        let dirs = ["N", "E", "S", "W"];
        let d = (step as usize + i) % 4;
        let order = if ships >= 60 && matches!(step % 7, 0) {
            format!("LAUNCH_{ships}_{}3{}3C", dirs[d], dirs[(d + 1) % 4])
        } else if ships >= 21 {
            let (a, b, c, e) = (
                dirs[d],
                dirs[(d + 1) % 4],
                dirs[(d + 2) % 4],
                dirs[(d + 3) % 4],
            );
            format!(
                "LAUNCH_21_{a}{}{b}{}{c}{}{e}",
                2 + step % 4,
                1 + step % 3,
                2 + step % 4
            )
        } else if kore >= 10.0 * cap as f64 {
            kore -= 10.0 * cap as f64;
            format!("SPAWN_{cap}")
        } else {
            continue;
        };
        orders.insert(uid.clone(), Value::String(order));
    }
    Value::Object(orders).to_string()
}

fn record(players: usize, seed: u64) -> Vec<Vec<String>> {
    let mut game = new_game("kore", &Value::Null, seed, players).unwrap();
    let mut obs = String::new();
    let mut stream = Vec::new();
    while game.outcome().is_none() {
        let answers: Vec<String> = (0..players)
            .map(|s| {
                game.observation(s, &mut obs);
                policy(&obs, u64::from(game.turn()))
            })
            .collect();
        let refs: Vec<Option<&str>> = answers.iter().map(|a| Some(a.as_str())).collect();
        game.step(&refs);
        stream.push(answers);
    }
    stream
}

fn replay(players: usize, seed: u64, stream: &[Vec<String>], observe: bool) -> Box<dyn Game> {
    if observe {
        steps_with_observations(players, seed, stream)
    } else {
        steps_only(players, seed, stream)
    }
}

#[inline(never)]
fn steps_only(players: usize, seed: u64, stream: &[Vec<String>]) -> Box<dyn Game> {
    play(players, seed, stream, false)
}

#[inline(never)]
fn steps_with_observations(players: usize, seed: u64, stream: &[Vec<String>]) -> Box<dyn Game> {
    play(players, seed, stream, true)
}

fn play(players: usize, seed: u64, stream: &[Vec<String>], observe: bool) -> Box<dyn Game> {
    let mut game = new_game("kore", &Value::Null, seed, players).unwrap();
    let mut obs = String::with_capacity(16 << 10);
    let mut refs: Vec<Option<&str>> = Vec::with_capacity(players);
    for answers in stream {
        if observe {
            for s in 0..players {
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

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("kore engine");
    for players in [2, 4] {
        let stream = record(players, 7);
        eprintln!("{players} players: {} steps recorded", stream.len());
        if players == 2 {
            if let Some(path) = std::env::var_os("KORE_STREAM_OUT") {
                let lines: Vec<String> = stream.iter().map(|a| json!(a).to_string()).collect();
                std::fs::write(path, lines.join("\n") + "\n").unwrap();
            }
        }
        group.throughput(Throughput::Elements(stream.len() as u64));
        group.bench_function(format!("{players} players, steps only"), |b| {
            b.iter(|| replay(players, 7, &stream, false))
        });
        group.bench_function(format!("{players} players, steps with observations"), |b| {
            b.iter(|| replay(players, 7, &stream, true))
        });
    }
    group.finish();
}

/// Each stream (of `players` seats, or both) replayed once without and
/// once with observations.
fn once(players: Option<usize>) {
    for players in [2, 4]
        .into_iter()
        .filter(|p| players.is_none_or(|n| n == *p))
    {
        let stream = record(players, 7);
        let end = steps_only(players, 7, &stream);
        steps_with_observations(players, 7, &stream);
        eprintln!(
            "{players} players: {} steps, rewards {:?}",
            stream.len(),
            end.rewards()
        );
    }
}

criterion_group!(benches, bench);

fn main() {
    common::once_or_criterion(once, benches);
}
