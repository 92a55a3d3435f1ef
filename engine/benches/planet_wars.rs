//! Engine-only Planet Wars speed: turns per second with no bots, replaying a
//! recorded answer stream (observations for every seat included, as when
//! hosting bots).
//!
//! `cargo bench -p ludus-engine --bench planet_wars`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ludus_engine::{new_game, Game};
use serde_json::{json, Value};

/// A simple aggressive policy, to record a stream of real answers: every
/// planet with more than 10 ships sends half to the nearest planet it does not own.
fn policy(observation: &str) -> String {
    let v: Value = serde_json::from_str(observation).unwrap();
    let planets = v["planets"].as_array().unwrap();
    let mut moves = Vec::new();
    for p in planets.iter().filter(|p| p["owner"] == 1) {
        let ships = p["ship_count"].as_u64().unwrap();
        if ships <= 10 {
            continue;
        }
        let (x, y) = (p["x"].as_f64().unwrap(), p["y"].as_f64().unwrap());
        let target = planets.iter().filter(|q| q["owner"] != 1).min_by(|a, b| {
            let d = |q: &Value| {
                (q["x"].as_f64().unwrap() - x).powi(2) + (q["y"].as_f64().unwrap() - y).powi(2)
            };
            d(a).total_cmp(&d(b))
        });
        if let Some(t) = target {
            moves.push(
                json!({"origin": p["name"], "destination": t["name"], "ship_count": ships / 2}),
            );
        }
    }
    json!({ "moves": moves }).to_string()
}

fn record(players: usize, seed: u64, turns: u32) -> Vec<Vec<String>> {
    let config = json!({ "max_turns": turns });
    let mut game = new_game("planet-wars", &config, seed, players).unwrap();
    let mut obs = String::new();
    let mut stream = Vec::new();
    while game.outcome().is_none() {
        let answers: Vec<String> = (0..players)
            .map(|s| {
                game.observation(s, &mut obs);
                policy(&obs)
            })
            .collect();
        let refs: Vec<Option<&str>> = answers.iter().map(|a| Some(a.as_str())).collect();
        game.step(&refs);
        stream.push(answers);
    }
    stream
}

fn replay(players: usize, seed: u64, turns: u32, stream: &[Vec<String>]) -> Box<dyn Game> {
    let config = json!({ "max_turns": turns });
    let mut game = new_game("planet-wars", &config, seed, players).unwrap();
    let mut obs = String::with_capacity(16 << 10);
    let mut refs: Vec<Option<&str>> = Vec::with_capacity(players);
    for answers in stream {
        for s in 0..players {
            game.observation(s, &mut obs);
            std::hint::black_box(&obs);
        }
        refs.clear();
        refs.extend(answers.iter().map(|a| Some(a.as_str())));
        game.step(&refs);
    }
    game
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("planet-wars engine");
    for players in [2, 4] {
        let stream = record(players, 7, 500);
        eprintln!("{players} players: {} turns recorded", stream.len());
        group.throughput(Throughput::Elements(stream.len() as u64));
        group.bench_function(format!("{players} players, turns with observations"), |b| {
            b.iter(|| replay(players, 7, 500, &stream))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
