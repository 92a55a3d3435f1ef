//! What the validation match of `ludus check` and `ludus submit` costs: for
//! each game, its example strategy bot's validation (every seat count, 30
//! turns); a whole `check` without `--game` (every game tried); the same for
//! the Python Planet Wars bot. And what the validation leaves for the ladder
//! that follows: the compiled module, found in the disk cache by a new
//! sandbox, against compiling it again.
//!
//! `cargo bench -p ludus-host --bench check`

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use ludus_host::check;
use ludus_host::{BotModule, Limits, Sandbox, SandboxOptions};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

const STRATEGIES: [(&str, &str); 9] = [
    ("planet-wars", "planet_wars_expander"),
    ("kore", "kore_miner"),
    ("halite", "halite_collector"),
    ("claim", "claim_strategy"),
    ("loops", "loops_strategy"),
    ("shields", "shields_strategy"),
    ("conquest", "conquest_strategy"),
    ("pirates", "pirates_strategy"),
    ("fences", "fences_strategy"),
];

fn sandbox_caching_in(dir: Option<&Path>) -> Sandbox {
    Sandbox::with_options(SandboxOptions {
        cache_dir: dir.map(Path::to_path_buf),
        ..SandboxOptions::default()
    })
    .unwrap()
}

fn python_planet_wars() -> Vec<u8> {
    ludus_testkit::ensure_python().unwrap();
    let src = ludus_testkit::workspace_root().join("example-bots/python/planet_wars.py");
    std::fs::read(ludus_host::build::build_python(&src, &ludus_testkit::tools_dir()).unwrap())
        .unwrap()
}

/// One validation, timed on its own and summarised on stderr.
fn report(label: &str, bot: &Arc<BotModule>, game: Option<&str>) {
    let start = Instant::now();
    let report = check::check(bot, game, &Limits::default(), |_| {}).unwrap();
    eprintln!("{label}: plays {:?}, {:?}", report.plays(), start.elapsed());
}

fn bench(c: &mut Criterion) {
    let cache = tempfile::tempdir().unwrap();
    let sandbox = sandbox_caching_in(Some(cache.path()));
    let limits = Limits::default();

    let mut group = c.benchmark_group("validation");
    group.sample_size(10);
    for (game, name) in STRATEGIES {
        let bot = sandbox.load_file(&ludus_testkit::bot(name)).unwrap();
        let info = ludus_engine::registry::info(game).unwrap();
        report(&format!("{name} for {game}"), &bot, Some(game));
        group.bench_function(format!("{name} for {game}"), |b| {
            b.iter(|| check::validate(&bot, info, &limits).unwrap())
        });
    }
    let expander = sandbox
        .load_file(&ludus_testkit::bot("planet_wars_expander"))
        .unwrap();
    report("planet_wars_expander, every game", &expander, None);
    group.bench_function("planet_wars_expander, every game", |b| {
        b.iter(|| check::check(&expander, None, &limits, |_| {}).unwrap())
    });

    let python = python_planet_wars();
    let start = Instant::now();
    let py = sandbox.load("planet_wars_py", &python).unwrap();
    eprintln!(
        "python planet_wars: compile, nothing cached: {:?}",
        start.elapsed()
    );
    let pw = ludus_engine::registry::info("planet-wars").unwrap();
    report(
        "python planet_wars for planet-wars",
        &py,
        Some("planet-wars"),
    );
    group.bench_function("python planet_wars for planet-wars", |b| {
        b.iter(|| check::validate(&py, pw, &limits).unwrap())
    });
    report("python planet_wars, every game", &py, None);
    group.bench_function("python planet_wars, every game", |b| {
        b.iter(|| check::check(&py, None, &limits, |_| {}).unwrap())
    });
    group.finish();

    // The ladder after a submission: a new process (here a new sandbox)
    // finds the module the validation compiled in the disk cache, by the
    // sha256 the store keeps. Against compiling it again (the Python bot's
    // compile time is the one printed above: criterion would take minutes).
    let mut group = c.benchmark_group("ladder load after submit");
    group.sample_size(10);
    let expander_wasm = std::fs::read(ludus_testkit::bot("planet_wars_expander")).unwrap();
    group.bench_function("planet_wars_expander: compiled again", |b| {
        b.iter_batched(
            || sandbox_caching_in(None),
            |s| {
                let bot = s.load("expander", &expander_wasm).unwrap();
                (s, bot)
            },
            BatchSize::PerIteration,
        )
    });
    for (label, bytes) in [
        ("planet_wars_expander", &expander_wasm),
        ("python planet_wars", &python),
    ] {
        let sha256 = ludus_host::sandbox::sha256_hex(bytes);
        group.bench_function(format!("{label}: found compiled"), |b| {
            b.iter_batched(
                || sandbox_caching_in(Some(cache.path())),
                |s| {
                    let bot = s.load_compiled(label, &sha256).unwrap();
                    assert!(bot.is_some(), "cached by the validation");
                    (s, bot)
                },
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
