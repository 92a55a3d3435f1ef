//! Bots in other languages: Python (a component built with componentize-py)
//! and C (a core module built with clang and wasi-libc) play under the same
//! guarantees as Rust bots.

mod common;

use common::*;
use ludus_host::check::Problem;
use ludus_host::{BotKind, BotModule, FaultKind, Limits, LoadError, Replay};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Builds run one at a time: a Python build takes seconds and compiling its
/// component as much again; two threads doing the same work would only wait
/// for each other.
static BUILD: Mutex<()> = Mutex::new(());

/// Builds (or finds in the build cache) the Python bot `dir/name.py`.
fn python_wasm(dir: &str, name: &str) -> PathBuf {
    ludus_testkit::ensure_python().unwrap_or_else(|e| panic!("{e}"));
    let src = ludus_testkit::workspace_root()
        .join(dir)
        .join(format!("{name}.py"));
    ludus_host::build::build_python(&src, &ludus_testkit::tools_dir())
        .unwrap_or_else(|e| panic!("building {}: {e}", src.display()))
}

fn python_bot(dir: &str, name: &str) -> Arc<BotModule> {
    let _guard = BUILD.lock().unwrap_or_else(|e| e.into_inner());
    load(name, &python_wasm(dir, name))
}

fn c_wasm(name: &str) -> PathBuf {
    ludus_testkit::ensure_c_toolchain().unwrap_or_else(|e| panic!("{e}"));
    let src = ludus_testkit::workspace_root()
        .join("example-bots/c")
        .join(format!("{name}.c"));
    let out_dir = ludus_testkit::tools_dir().join("c-bots");
    std::fs::create_dir_all(&out_dir).unwrap();
    let out = out_dir.join(format!("{name}.wasm"));
    ludus_host::build::build_c(&src, &out).unwrap_or_else(|e| panic!("{e}"));
    out
}

fn c_bot(name: &str) -> Arc<BotModule> {
    let _guard = BUILD.lock().unwrap_or_else(|e| e.into_inner());
    load(name, &c_wasm(name))
}

fn load(name: &str, path: &Path) -> Arc<BotModule> {
    sandbox()
        .load(name, &std::fs::read(path).unwrap())
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Test budgets for Python: an interpreter needs more fuel than the tiny
/// Rust budgets of `Limits::for_tests`, still small enough for hostile bots
/// to fail fast.
fn python_limits() -> Limits {
    Limits {
        first_turn_fuel: 400_000_000,
        turn_fuel: 200_000_000,
        memory_bytes: 64 << 20,
        ..Limits::for_tests()
    }
}

/// The hostile Python bot (`hostile-bots/python/hostile.py`).
fn hostile() -> Arc<BotModule> {
    python_bot("hostile-bots/python", "hostile")
}

/// A match on a two-planet map whose planet names pick the hostile bot's
/// behaviour in each seat.
fn on_map(bots: Vec<Arc<BotModule>>, names: [&str; 2], turns: u32, limits: Limits) -> Replay {
    ludus_host::play(&ludus_host::MatchSpec {
        game: "planet-wars".into(),
        config: on_map_config(names, turns),
        seed: 1,
        limits,
        bots,
    })
    .expect("the match is played")
}

fn on_map_config(names: [&str; 2], turns: u32) -> serde_json::Value {
    let planet = |name: &str, x: f64, owner: u32| serde_json::json!({"name": name, "x": x, "y": 0.0, "ship_count": 5, "owner": owner});
    serde_json::json!({
        "max_turns": turns,
        "map": {"planets": [planet(names[0], -5.0, 1), planet(names[1], 5.0, 2)]},
    })
}

fn answers(r: &Replay, seat: usize) -> Vec<Option<&str>> {
    r.turns
        .iter()
        .map(|t| t.seats[seat].answer.as_deref())
        .collect()
}

#[test]
fn python_and_c_bots_play_planet_wars_against_a_rust_bot_deterministically() {
    let python = python_bot("example-bots/python", "planet_wars");
    let c = c_bot("planet_wars");
    let rust = bot("planet_wars_expander");
    assert_eq!(python.kind(), BotKind::Component);
    assert_eq!(c.kind(), BotKind::Core);
    let limits = Limits::default();
    let play = |first: &Arc<BotModule>| {
        let a = planet_wars(vec![first.clone(), rust.clone()], 7, 60, limits.clone());
        let b = planet_wars(vec![first.clone(), rust.clone()], 7, 60, limits.clone());
        assert_eq!(
            a.to_bytes(false),
            b.to_bytes(false),
            "{}: the same match twice gives the same replay bytes",
            first.name
        );
        a
    };
    let py = play(&python);
    let cc = play(&c);
    for r in [&py, &cc] {
        assert!(r.outcome.is_some() && r.aborted.is_none());
        for t in &r.turns {
            let s = &t.seats[0];
            assert!(s.fault.is_none(), "turn {}: {:?}", t.turn, s.fault);
            assert!(s.refused.is_empty(), "turn {}: {:?}", t.turn, s.refused);
        }
        assert!(
            answers(r, 0)
                .iter()
                .any(|a| a.is_some_and(|a| a.contains("origin"))),
            "the bot sent ships at least once"
        );
    }
    // The two bots implement the same strategy: the same answers, logs and
    // game, turn for turn, whatever the language.
    assert_eq!(py.turns.len(), cc.turns.len());
    for (p, c) in py.turns.iter().zip(&cc.turns) {
        assert_eq!(p.seats[0].answer, c.seats[0].answer, "turn {}", p.turn);
        assert_eq!(p.seats[0].log, c.seats[0].log, "turn {}", p.turn);
        assert_eq!(p.state_hash, c.state_hash, "turn {}", p.turn);
    }
    // Fuel is counted for the Python bot like for any other.
    assert!(py.turns.iter().all(|t| t.seats[0].fuel > 0));
}

/// The grid games' sample bots, as the rule book gives them in Python, play
/// their games exactly as the Rust ports of the same samples do.
#[test]
fn the_rule_books_python_sample_bots_play_every_grid_game() {
    for game in ["claim", "loops", "shields", "conquest"] {
        let python = python_bot("example-bots/python", game);
        assert_eq!(python.kind(), BotKind::Component);
        let rust = bot(&format!("{game}_sample"));
        let play = |seat0: &Arc<BotModule>| {
            ludus_host::play(&ludus_host::MatchSpec {
                game: game.into(),
                config: serde_json::Value::Null,
                seed: 3,
                limits: Limits::default(),
                bots: vec![seat0.clone(), rust.clone(), rust.clone(), rust.clone()],
            })
            .expect("the match is played")
        };
        let py = play(&python);
        let rs = play(&rust);
        assert!(py.outcome.is_some() && py.aborted.is_none(), "{game}");
        assert_eq!(py.turns.len(), rs.turns.len(), "{game}");
        for (p, r) in py.turns.iter().zip(&rs.turns) {
            let s = &p.seats[0];
            assert!(s.fault.is_none(), "{game} turn {}: {:?}", p.turn, s.fault);
            assert!(
                s.refused.is_empty(),
                "{game} turn {}: {:?}",
                p.turn,
                s.refused
            );
            // A Python string goes out as it is (`EAST`), serde's as JSON
            // (`"EAST"`); the game reads both alike.
            let bare = |a: &Option<String>| a.as_deref().map(|a| a.trim_matches('"').to_string());
            assert_eq!(
                bare(&s.answer),
                bare(&r.seats[0].answer),
                "{game} turn {}",
                p.turn
            );
            assert_eq!(p.state_hash, r.state_hash, "{game} turn {}", p.turn);
        }
        assert!(
            answers(&py, 0).contains(&Some("EAST")),
            "{game}: the sample walked east at least once"
        );
        assert_eq!(py.outcome, rs.outcome, "{game}");
    }
}

/// The pirates sample, as written in Python, plays move for move as its
/// Rust port does; and only the ship to move is called.
#[test]
fn the_python_pirates_sample_plays_like_its_rust_port_and_only_on_its_moves() {
    let python = python_bot("example-bots/python", "pirates");
    let rust = bot("pirates_sample");
    let strategy = bot("pirates_strategy");
    let play = |seat0: &Arc<BotModule>| {
        ludus_host::play(&ludus_host::MatchSpec {
            game: "pirates".into(),
            config: serde_json::json!({"max_turns": 400}),
            seed: 3,
            limits: Limits::default(),
            bots: vec![
                seat0.clone(),
                strategy.clone(),
                rust.clone(),
                strategy.clone(),
            ],
        })
        .expect("the match is played")
    };
    let py = play(&python);
    let rs = play(&rust);
    assert!(py.outcome.is_some() && py.aborted.is_none());
    assert_eq!(py.turns.len(), rs.turns.len());
    let mut called = 0;
    for (p, r) in py.turns.iter().zip(&rs.turns) {
        let to_move = (p.turn as usize - 1) % 4;
        for (seat, s) in p.seats.iter().enumerate() {
            if seat != to_move {
                assert!(
                    s.waiting && s.fuel == 0 && s.answer.is_none(),
                    "turn {}",
                    p.turn
                );
            }
        }
        let s = &p.seats[to_move];
        called += usize::from(!s.waiting);
        assert!(s.fault.is_none(), "turn {}: {:?}", p.turn, s.fault);
        assert!(s.refused.is_empty(), "turn {}: {:?}", p.turn, s.refused);
        let bare = |a: &Option<String>| a.as_deref().map(|a| a.trim_matches('"').to_string());
        assert_eq!(
            bare(&p.seats[0].answer),
            bare(&r.seats[0].answer),
            "turn {}",
            p.turn
        );
        assert_eq!(p.state_hash, r.state_hash, "turn {}", p.turn);
    }
    assert!(called > 0);
    assert_eq!(py.outcome, rs.outcome);
}

/// The fences sample bot, as the rule book gives it in Python, plays its
/// game move for move as its Rust port does.
#[test]
fn the_rule_books_python_sample_bot_plays_fences() {
    let python = python_bot("example-bots/python", "fences");
    let rust = bot("fences_sample");
    let play = |seat0: &Arc<BotModule>| {
        ludus_host::play(&ludus_host::MatchSpec {
            game: "fences".into(),
            config: serde_json::json!({"max_turns": 40}),
            seed: 3,
            limits: Limits::default(),
            bots: vec![seat0.clone(), rust.clone()],
        })
        .expect("the match is played")
    };
    let py = play(&python);
    let rs = play(&rust);
    assert!(py.outcome.is_some() && py.aborted.is_none());
    assert_eq!(py.turns.len(), rs.turns.len());
    let bare = |a: &Option<String>| a.as_deref().map(|a| a.trim_matches('"').to_string());
    for (p, r) in py.turns.iter().zip(&rs.turns) {
        let s = &p.seats[0];
        assert!(s.fault.is_none(), "turn {}: {:?}", p.turn, s.fault);
        assert!(s.refused.is_empty(), "turn {}: {:?}", p.turn, s.refused);
        assert_eq!(bare(&s.answer), bare(&r.seats[0].answer), "turn {}", p.turn);
        assert_eq!(p.state_hash, r.state_hash, "turn {}", p.turn);
    }
    assert!(answers(&py, 0)
        .iter()
        .any(|a| a.is_some_and(|a| a.starts_with("MOVE"))));
    assert_eq!(py.outcome, rs.outcome);
}

/// The validation match of `ludus check`: the Python and C Planet Wars bots
/// pass it, each as its kind; the Python bot plays no other game, since its
/// own code raises on any other game's state (the traceback is in its log).
#[test]
fn python_and_c_bots_pass_their_validation_match_and_python_plays_no_other_game() {
    let limits = Limits::default();
    let python = python_bot("example-bots/python", "planet_wars");
    let report = ludus_host::check::check(&python, None, &limits, |_| {}).unwrap();
    assert_eq!(report.kind, BotKind::Component);
    assert_eq!(report.plays(), ["planet-wars"], "{report:#?}");
    for v in report.games.iter().filter(|v| v.game != "planet-wars") {
        let f = &v.failed().unwrap().failures[0];
        assert!(
            matches!(&f.problem, Problem::Fault(fault) if fault.kind == FaultKind::Trap),
            "{}: {:?}",
            v.game,
            f.problem
        );
        assert!(
            f.log.contains("KeyError: 'planets'"),
            "{}: {}",
            v.game,
            f.log
        );
    }
    let c = c_bot("planet_wars");
    let report = ludus_host::check::check(&c, Some("planet-wars"), &limits, |_| {}).unwrap();
    assert_eq!(report.kind, BotKind::Core);
    assert!(report.games[0].passed(), "{report:#?}");
}

#[test]
fn a_compiled_component_is_cached_on_disk_by_sha256() {
    let python = python_bot("example-bots/python", "planet_wars");
    let cache = ludus_testkit::workspace_root().join("target/module-cache");
    let cached = std::fs::read_dir(&cache)
        .unwrap()
        .filter_map(Result::ok)
        .any(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with(&python.sha256) && name.ends_with(".cwasm")
        });
    assert!(
        cached,
        "no cache file for {} in {}",
        python.sha256,
        cache.display()
    );
}

/// Loading a bot file whose compiled form is cached trusts the sha256
/// recorded for that very version of the file, and reads and hashes any
/// other version afresh.
#[test]
fn an_unchanged_bot_file_is_not_hashed_again() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let fresh = || {
        ludus_host::Sandbox::with_options(ludus_host::SandboxOptions {
            cache_dir: Some(cache.clone()),
            ..ludus_host::SandboxOptions::default()
        })
        .unwrap()
    };
    let file = dir.path().join("bot.wasm");
    let idle = wat_bytes("idle");
    std::fs::write(&file, &idle).unwrap();
    let other = fresh().load("other", &wat_bytes("random_flood")).unwrap();
    // A file is trusted by its times only once they are safely past.
    std::thread::sleep(Duration::from_millis(2100));
    let first = fresh().load_file(&file).unwrap();
    assert_eq!(first.sha256, ludus_host::sha256_hex(&idle));

    // Point the one recorded entry at the other compiled bot: a load that
    // still read and hashed the file would not be fooled.
    let entries: Vec<_> = std::fs::read_dir(cache.join("files"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(entries.len(), 1, "{entries:?}");
    let text = std::fs::read_to_string(&entries[0]).unwrap();
    assert!(text.trim_end().ends_with(&first.sha256), "{text}");
    std::fs::write(&entries[0], text.replace(&first.sha256, &other.sha256)).unwrap();
    assert_eq!(fresh().load_file(&file).unwrap().sha256, other.sha256);

    // Another version of the file (here with a custom section added) is
    // read and hashed.
    let mut changed = idle.clone();
    changed.extend_from_slice(&[0, 2, 1, b'x']);
    std::fs::write(&file, &changed).unwrap();
    let again = fresh().load_file(&file).unwrap();
    assert_eq!(again.sha256, ludus_host::sha256_hex(&changed));
    assert_ne!(again.sha256, first.sha256);
    std::fs::write(&file, &idle).unwrap();
    assert_eq!(fresh().load_file(&file).unwrap().sha256, first.sha256);
}

/// `load_compiled` takes a caller's sha256 only in the form the cache names
/// files by, so no other text can lead it to a file elsewhere.
#[test]
fn load_compiled_takes_only_a_sha256() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let sandbox = ludus_host::Sandbox::with_options(ludus_host::SandboxOptions {
        cache_dir: Some(cache.clone()),
        ..ludus_host::SandboxOptions::default()
    })
    .unwrap();
    let idle = sandbox.load("idle", &wat_bytes("idle")).unwrap();
    let cached = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .find(|n| n.starts_with(&idle.sha256))
        .unwrap();
    let key_suffix = &cached[idle.sha256.len()..];
    // Copies of the compiled bot under names that are not a sha256: one
    // outside the cache, one with the digits in capitals.
    let upper = idle.sha256.to_uppercase();
    for name in [
        dir.path().join(format!("outside{key_suffix}")),
        cache.join(format!("{upper}{key_suffix}")),
    ] {
        std::fs::copy(cache.join(&cached), name).unwrap();
    }
    let fresh = ludus_host::Sandbox::with_options(ludus_host::SandboxOptions {
        cache_dir: Some(cache.clone()),
        ..ludus_host::SandboxOptions::default()
    })
    .unwrap();
    for bad in ["../outside", upper.as_str()] {
        assert!(fresh.load_compiled("bad", bad).unwrap().is_none(), "{bad}");
    }
    let good = fresh.load_compiled("idle", &idle.sha256).unwrap().unwrap();
    assert_eq!(good.sha256, idle.sha256);
}

/// Plays the hostile Python bot in `mode` (seat 0) against an idle bot for 8
/// turns: the expected fault on turn 1, the seat out after
/// `max_consecutive_faults`, fuel bounded, the host never held long.
fn python_faults_as(mode: &str, kind: FaultKind) -> Replay {
    let limits = python_limits();
    let bots = vec![hostile(), wat_bot("idle")];
    let start = Instant::now();
    let replay = on_map(bots, [mode, "idle"], 8, limits.clone());
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "{mode} held the host for {:?}",
        start.elapsed()
    );
    assert!(replay.outcome.is_some() && replay.aborted.is_none());
    let first = &replay.turns[0].seats[0];
    let fault = first
        .fault
        .as_ref()
        .unwrap_or_else(|| panic!("{mode}: no fault on turn 1"));
    assert_eq!(fault.kind, kind, "{mode}: {fault}");
    let n = limits.max_consecutive_faults as usize;
    for t in &replay.turns[..n] {
        assert!(t.seats[0].fault.is_some() && !t.seats[0].out);
    }
    for t in &replay.turns[n..] {
        assert!(t.seats[0].out && t.seats[0].fuel == 0);
    }
    for (i, t) in replay.turns.iter().enumerate() {
        assert!(t.seats[0].fuel <= limits.turn_budget(i as u32));
    }
    assert!(replay.turns.iter().all(|t| t.seats[1].fault.is_none()));
    replay
}

#[test]
fn python_endless_loop_runs_out_of_fuel_and_the_seat_is_out() {
    let r = python_faults_as("loop", FaultKind::OutOfFuel);
    assert_eq!(r.turns[0].seats[0].fuel, python_limits().first_turn_fuel);
}

#[test]
fn python_sleep_never_blocks_the_host_and_is_paid_in_fuel() {
    // A day's sleep is paid in fuel at once: the budget runs out, and the
    // match goes on without waiting (python_faults_as bounds its time).
    python_faults_as("sleep", FaultKind::OutOfFuel);
}

#[test]
fn python_stdout_flood_is_capped_and_counted_and_the_bot_still_answers() {
    let limits = Limits {
        turn_fuel: 800_000_000,
        ..python_limits()
    };
    let r = on_map(
        vec![hostile(), wat_bot("idle")],
        ["flood", "idle"],
        3,
        limits.clone(),
    );
    for t in &r.turns {
        let s = &t.seats[0];
        assert!(s.fault.is_none() && s.answer.is_some(), "{:?}", s.fault);
    }
    let kept: usize = r.turns.iter().map(|t| t.seats[0].log.len()).sum();
    assert_eq!(
        kept as u64, limits.log_bytes,
        "the log keeps exactly the cap"
    );
    let dropped: u64 = r.turns.iter().map(|t| t.seats[0].log_dropped).sum();
    assert_eq!(
        kept as u64 + dropped,
        3 * (1024 * 1024 + "and some stderr\n".len() as u64)
    );
}

#[test]
fn python_clocks_are_virtual_and_randomness_is_seeded_per_match_and_seat() {
    let watcher = hostile();
    let limits = Limits::default();
    let play = |seed| {
        ludus_host::play(&ludus_host::MatchSpec {
            game: "planet-wars".into(),
            config: on_map_config(["clock-a", "clock-b"], 2),
            seed,
            limits: limits.clone(),
            bots: vec![watcher.clone(), watcher.clone()],
        })
        .unwrap()
    };
    let a = play(5);
    assert_eq!(
        a.to_bytes(false),
        play(5).to_bytes(false),
        "same seed, same bytes"
    );
    let answer = |r: &Replay, t: usize, s: usize| -> serde_json::Value {
        let a = r.turns[t].seats[s].answer.as_deref();
        serde_json::from_str(a.unwrap_or_else(|| panic!("{:?}", r.turns[t].seats[s].fault)))
            .unwrap()
    };
    let first = answer(&a, 0, 0);
    // A 50 ms sleep takes 50 ms of virtual time, paid in fuel, at once.
    let slept = first["slept_ns"].as_u64().unwrap();
    assert!((50_000_000..51_000_000).contains(&slept), "{first}");
    assert!(first["spins"].as_u64().unwrap() > 0);
    let wall = first["wall_ns"].as_u64().unwrap();
    assert!(
        (ludus_host::VIRTUAL_EPOCH_NS..ludus_host::VIRTUAL_EPOCH_NS + 3_600_000_000_000)
            .contains(&wall)
    );
    assert!(answer(&a, 1, 0)["wall_ns"].as_u64().unwrap() > wall);
    // Seats draw different streams, another seed other numbers; `random`
    // is reseeded from the stream too.
    for key in ["urandom", "random"] {
        assert_ne!(first[key], answer(&a, 0, 1)[key], "{key}");
        assert_ne!(first[key], answer(&play(6), 0, 0)[key], "{key}");
    }
}

#[test]
fn python_exception_is_a_trap_with_its_traceback_and_the_next_turn_starts_afresh() {
    let r = on_map(
        vec![hostile(), wat_bot("idle")],
        ["raise", "idle"],
        4,
        python_limits(),
    );
    let seat = |t: usize| &r.turns[t].seats[0];
    assert!(seat(0).fault.is_none());
    let fault = seat(1).fault.as_ref().expect("the second call raises");
    assert_eq!(fault.kind, FaultKind::Trap, "{fault}");
    // Said as Python says it, then where in the author's file: never as a
    // wasm trap or a Rust panic.
    let line = hostile_line("raise RuntimeError");
    assert_eq!(
        fault.message,
        format!(
            "RuntimeError: this bot raises on its second call (hostile.py line {line}, in act)"
        )
    );
    // The traceback is in the log once, from the author's first frame, with
    // the author's file name and line; nothing of the wrappers.
    let log = &seat(1).log;
    assert_eq!(
        log.matches("Traceback (most recent call last):").count(),
        1,
        "{log}"
    );
    assert!(
        log.starts_with("call 2\nTraceback (most recent call last):\n  File \"hostile.py\""),
        "{log}"
    );
    assert!(
        log.contains(&format!("File \"hostile.py\", line {line}, in act\n")),
        "{log}"
    );
    assert!(
        log.contains("raise RuntimeError(\"this bot raises on its second call\")"),
        "the traceback shows the author's line: {log}"
    );
    assert!(
        log.ends_with("RuntimeError: this bot raises on its second call\n"),
        "{log}"
    );
    for hidden in [
        "ludus_user_bot",
        "ludus_turn",
        "ludus_bot_main",
        "/0/",
        "panicked",
        "ludus-fault",
    ] {
        assert!(!log.contains(hidden), "{hidden}: {log}");
    }
    // A component that trapped cannot be entered again: the next turn runs a
    // fresh instance, and the bot's globals start over.
    let calls = |t: usize| -> u64 {
        let v: serde_json::Value = serde_json::from_str(seat(t).answer.as_ref().unwrap()).unwrap();
        v["calls"].as_u64().unwrap()
    };
    assert_eq!(calls(0), 1);
    assert_eq!(calls(2), 1);
    assert!(
        seat(3).fault.is_some(),
        "the fresh instance's second call raises too"
    );
}

/// The line of `hostile-bots/python/hostile.py` that holds `text`.
fn hostile_line(text: &str) -> usize {
    let path = ludus_testkit::workspace_root().join("hostile-bots/python/hostile.py");
    let source = std::fs::read_to_string(&path).unwrap();
    1 + source
        .lines()
        .position(|l| l.contains(text))
        .unwrap_or_else(|| panic!("{} has no `{text}`", path.display()))
}

/// A component in text form: `act` lifted from a core module that answers
/// `{"moves":[]}`, plus `extra` (imports).
fn wat_component(extra: &str, act_type: &str) -> Vec<u8> {
    wat::parse_str(format!(
        r#"(component
          {extra}
          (core module $m
            (memory (export "memory") 1)
            (data (i32.const 0) "\10\00\00\00\0c\00\00\00")
            (data (i32.const 16) "{{\"moves\":[]}}")
            (func (export "realloc") (param i32 i32 i32 i32) (result i32) (i32.const 1024))
            (func (export "act") (param i32 i32) (result i32) (i32.const 0)))
          (core instance $i (instantiate $m))
          (func (export "act") {act_type}
            (canon lift (core func $i "act") (memory (core memory $i "memory")) (realloc (core func $i "realloc")))))"#
    ))
    .unwrap_or_else(|e| panic!("{e}"))
}

const ACT: &str = r#"(param "state" string) (result string)"#;

#[test]
fn a_minimal_component_plays() {
    let bot = sandbox().load("tiny", &wat_component("", ACT)).unwrap();
    assert_eq!(bot.kind(), BotKind::Component);
    let r = planet_wars(vec![bot, wat_bot("idle")], 1, 3, Limits::for_tests());
    for t in &r.turns {
        assert_eq!(t.seats[0].answer.as_deref(), Some(r#"{"moves":[]}"#));
    }
}

#[test]
fn component_importing_anything_but_wasi_is_refused_naming_it() {
    let bytes = wat_component(
        r#"(import "evil:missiles/launch" (instance (export "launch" (func))))"#,
        ACT,
    );
    let err = sandbox().load("evil", &bytes).unwrap_err();
    assert!(matches!(err, LoadError::ComponentImport { .. }), "{err}");
    assert!(err.to_string().contains("evil:missiles/launch"), "{err}");
}

#[test]
fn component_importing_a_wasi_interface_ludus_lacks_is_refused() {
    let bytes = wat_component(
        r#"(import "wasi:http/outgoing-handler@0.2.0" (instance (export "handle" (func))))"#,
        ACT,
    );
    let err = sandbox().load("http", &bytes).unwrap_err();
    assert!(matches!(err, LoadError::ComponentImport { .. }), "{err}");
    assert!(err.to_string().contains("wasi:http"), "{err}");
}

#[test]
fn component_act_of_the_wrong_type_is_refused() {
    let bytes = wat_component("", r#"(param "state" string) (result u32)"#);
    let err = sandbox().load("wrong", &bytes).unwrap_err();
    assert!(
        matches!(err, LoadError::WrongExport { name: "act", .. }),
        "{err}"
    );
}
