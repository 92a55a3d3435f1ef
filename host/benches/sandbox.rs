//! Sandbox costs: one warm `act` round trip with a real ~10 KB observation,
//! per-match instantiation, fuel per second of Rust bot code, and a whole
//! 500-turn match of two example bots; the same for the Python and C
//! Planet Wars bots, and the compile and cache-hit times of a Python
//! component.
//!
//! `cargo bench -p ludus-host --bench sandbox`

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use ludus_host::BotIo;
use ludus_host::SeatRunner;
use ludus_host::{Limits, MatchSpec, Sandbox, SandboxOptions};
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn sandbox() -> Sandbox {
    Sandbox::new().expect("sandbox")
}

/// A 4-player generated map, 200 turns in: a real observation of about 10 KB.
fn real_observation() -> String {
    let mut game = ludus_engine::new_game("planet-wars", &serde_json::Value::Null, 3, 4).unwrap();
    let mut obs = String::new();
    // Fill the sky with expeditions: every seat sends from every planet it owns.
    for _ in 0..40 {
        let answers: Vec<String> = (0..4)
            .map(|seat| {
                game.observation(seat, &mut obs);
                let v: serde_json::Value = serde_json::from_str(&obs).unwrap();
                let planets = v["planets"].as_array().unwrap();
                let mut moves = Vec::new();
                for (i, p) in planets.iter().enumerate() {
                    if p["owner"] == 1 && p["ship_count"].as_u64().unwrap() > 2 {
                        let to = &planets[(i + 7) % planets.len()]["name"];
                        moves.push(serde_json::json!({"origin": p["name"], "destination": to, "ship_count": 1}));
                    }
                }
                serde_json::json!({ "moves": moves }).to_string()
            })
            .collect();
        let refs: Vec<Option<&str>> = answers.iter().map(|a| Some(a.as_str())).collect();
        game.step(&refs);
    }
    game.observation(0, &mut obs);
    obs
}

fn idle_wat() -> Vec<u8> {
    wat::parse_file(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/hostile/idle.wat"
    ))
    .unwrap()
}

fn runner(sandbox: &Sandbox, name: &str, wasm: &[u8], limits: &Limits) -> SeatRunner {
    let bot = sandbox.load(name, wasm).unwrap();
    let io = BotIo::new(
        ludus_engine::rng::stream(0, "bench"),
        limits.random_bytes_per_call,
        limits.log_bytes,
    );
    SeatRunner::new(bot, limits, io)
}

fn bench(c: &mut Criterion) {
    let sandbox = sandbox();
    let limits = Limits::default();
    let obs = real_observation();
    eprintln!("observation: {} bytes", obs.len());

    // Host overhead of one call: a bot that does no work (the WAT idle bot).
    let mut idle = runner(&sandbox, "idle", &idle_wat(), &limits);
    idle.act(&obs, 1).unwrap();
    c.bench_function(
        "act round trip, 10 KB observation, no-op bot (host overhead)",
        |b| b.iter(|| idle.act(&obs, 1).unwrap()),
    );

    // Per-match instantiation with the pooling allocator.
    let idle_bot = sandbox.load("idle", &idle_wat()).unwrap();
    c.bench_function("instantiate a bot for a match (no-op bot)", |b| {
        b.iter(|| {
            let io = BotIo::new(ludus_engine::rng::stream(0, "bench"), 16, 16);
            let mut r = SeatRunner::new(idle_bot.clone(), &limits, io);
            r.instantiate().unwrap();
            r
        })
    });

    let dir = ludus_testkit::bots_dir();
    let expander_wasm = std::fs::read(dir.join("planet_wars_expander.wasm")).unwrap();
    let expander = sandbox
        .load("planet_wars_expander", &expander_wasm)
        .unwrap();
    c.bench_function("instantiate a bot for a match (Rust example bot)", |b| {
        b.iter(|| {
            let io = BotIo::new(ludus_engine::rng::stream(0, "bench"), 16, 16);
            let mut r = SeatRunner::new(expander.clone(), &limits, io);
            r.instantiate().unwrap();
            r
        })
    });

    // A real bot's turn, and the fuel it burns per second of real time.
    let mut exp = runner(&sandbox, "planet_wars_expander", &expander_wasm, &limits);
    exp.act(&obs, 1).unwrap();
    let fuel = exp.act(&obs, 2).unwrap().fuel;
    c.bench_function("act round trip, 10 KB observation, expander bot", |b| {
        b.iter(|| exp.act(&obs, 2).unwrap())
    });
    let start = Instant::now();
    let mut burnt = 0u64;
    let mut calls = 0;
    while start.elapsed() < Duration::from_secs(3) {
        burnt += exp.act(&obs, 2).unwrap().fuel;
        calls += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "fuel: expander burns {fuel} fuel per turn; {:.3e} fuel per second over {calls} calls",
        burnt as f64 / secs
    );
    let mut looper = runner(
        &sandbox,
        "loop_in_act",
        &std::fs::read(dir.join("loop_in_act.wasm")).unwrap(),
        &Limits {
            turn_fuel: 2_000_000_000,
            first_turn_fuel: 2_000_000_000,
            ..limits.clone()
        },
    );
    let start = Instant::now();
    let r = looper.act("{}", 1).unwrap();
    eprintln!(
        "fuel: a tight loop burns {:.3e} fuel per second",
        r.fuel as f64 / start.elapsed().as_secs_f64()
    );

    polyglot(c, &sandbox, &obs);

    // Whole matches.
    let random = sandbox
        .load(
            "planet_wars_random",
            &std::fs::read(dir.join("planet_wars_random.wasm")).unwrap(),
        )
        .unwrap();
    let mut group = c.benchmark_group("match");
    group.sample_size(10);
    for (label, bots) in [
        (
            "500 turns, expander vs expander",
            vec![expander.clone(), expander.clone()],
        ),
        (
            "expander vs random, to the end",
            vec![expander.clone(), random.clone()],
        ),
    ] {
        let spec = MatchSpec {
            game: "planet-wars".into(),
            config: serde_json::Value::Null,
            seed: 1,
            limits: limits.clone(),
            bots,
        };
        let turns = ludus_host::play(&spec).unwrap().turns.len();
        eprintln!("{label}: {turns} turns");
        group.bench_function(label, |b| b.iter(|| ludus_host::play(&spec).unwrap()));
    }
    group.finish();
}

/// The built Python Planet Wars bot: its file, and its bytes.
fn python_planet_wars() -> (PathBuf, Vec<u8>) {
    ludus_testkit::ensure_python().unwrap();
    let src = ludus_testkit::workspace_root().join("example-bots/python/planet_wars.py");
    let wasm = ludus_host::build::build_python(&src, &ludus_testkit::tools_dir()).unwrap();
    let bytes = std::fs::read(&wasm).unwrap();
    (wasm, bytes)
}

fn c_planet_wars() -> Vec<u8> {
    ludus_testkit::ensure_c_toolchain().unwrap();
    let root = ludus_testkit::workspace_root();
    let out: PathBuf = ludus_testkit::tools_dir().join("c-bots");
    std::fs::create_dir_all(&out).unwrap();
    let out = out.join("planet_wars.wasm");
    ludus_host::build::build_c(&root.join("example-bots/c/planet_wars.c"), &out).unwrap();
    std::fs::read(out).unwrap()
}

/// Python and C bots next to the Rust one: compile, cache hit, instantiate, a turn.
fn polyglot(c: &mut Criterion, sandbox: &Sandbox, obs: &str) {
    let limits = Limits::default();
    let (python_file, python) = python_planet_wars();
    eprintln!("python component: {} bytes", python.len());

    // Compile without a cache, then through a cold and a warm disk cache,
    // each in a fresh sandbox so nothing is kept in memory.
    let cache = tempfile::tempdir().unwrap();
    let fresh = |cache_dir: Option<PathBuf>| {
        Sandbox::with_options(SandboxOptions {
            cache_dir,
            ..SandboxOptions::default()
        })
        .unwrap()
    };
    let time_load = |s: &Sandbox| {
        let start = Instant::now();
        s.load("planet_wars_py", &python).unwrap();
        start.elapsed()
    };
    eprintln!("python component: compile {:?}", time_load(&fresh(None)));
    eprintln!(
        "python component: compile and write the cache {:?}",
        time_load(&fresh(Some(cache.path().to_path_buf())))
    );
    for _ in 0..3 {
        eprintln!(
            "python component: cache hit from bytes (sha256 taken) {:?}",
            time_load(&fresh(Some(cache.path().to_path_buf())))
        );
    }
    // From its file, as `ludus play` and `ludus check` load it: once the
    // file's sha256 is recorded (by this first load), an unchanged file is
    // not read again.
    fresh(Some(cache.path().to_path_buf()))
        .load_file(&python_file)
        .unwrap();
    for _ in 0..3 {
        let s = fresh(Some(cache.path().to_path_buf()));
        let start = Instant::now();
        s.load_file(&python_file).unwrap();
        eprintln!(
            "python component: cache hit from its file {:?}",
            start.elapsed()
        );
    }

    let py = sandbox.load("planet_wars_py", &python).unwrap();
    let instantiate = || {
        let io = BotIo::new(ludus_engine::rng::stream(0, "bench"), 16, 16);
        let mut r = SeatRunner::new(py.clone(), &limits, io);
        r.instantiate().unwrap();
        r
    };
    c.bench_function("instantiate a bot for a match (Python component)", |b| {
        b.iter(instantiate)
    });
    // The same, with the instance's teardown (returning its memory to the
    // pool) left out of the timing: what a match waits for before turn 1.
    c.bench_function(
        "instantiate a bot for a match, teardown apart (Python component)",
        // One instance per batch: a batch's instances stay alive until it
        // ends, and a Python component takes several of the pool's slots.
        |b| b.iter_batched(|| (), |()| instantiate(), BatchSize::PerIteration),
    );

    let c_wasm = c_planet_wars();
    eprintln!("c module: {} bytes", c_wasm.len());
    for (label, name, wasm) in [
        ("Python", "planet_wars_py", &python),
        ("C", "planet_wars_c", &c_wasm),
    ] {
        let mut r = runner(sandbox, name, wasm, &limits);
        let first = r.act(obs, 1).unwrap();
        assert!(first.answer.is_ok(), "{:?}", first.answer);
        let fuel = r.act(obs, 2).unwrap().fuel;
        c.bench_function(
            &format!("act round trip, 10 KB observation, {label} planet_wars bot"),
            |b| b.iter(|| r.act(obs, 2).unwrap()),
        );
        let start = Instant::now();
        let (mut burnt, mut calls) = (0u64, 0);
        while start.elapsed() < Duration::from_secs(3) {
            burnt += r.act(obs, 2).unwrap().fuel;
            calls += 1;
        }
        eprintln!(
            "fuel: {label} planet_wars burns {fuel} fuel per turn (first turn {}); {:.3e} fuel per second over {calls} calls",
            first.fuel,
            burnt as f64 / start.elapsed().as_secs_f64()
        );
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
