//! Halite against kaggle-environments 1.33.2, step by step: the same seeds
//! and action streams through upstream's `halite` environment and the Ludus
//! engine, the full state compared at every step (the halite list element by
//! element as exact f64 bits with the int/float kind, every player's bank,
//! shipyards and ships in uid order, the step, rewards and statuses).
//!
//! The agents are in `fidelity/agents_halite.py`: `random` (random legal
//! actions with converts and spawns, and actions the engine ignores),
//! `miner` (mines, returns, builds: long games with big banks), `malformed`
//! (values the schema turns into `{}` and values it rejects) and upstream's
//! own `builtin:random`. 20 full 400-step episodes (12 with 4 players, 8
//! with 2) and the boards of 200 seeds.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use ludus_engine::new_game;
use ludus_fidelity::{
    compare_episodes, first_difference, ludus_episode, upstream_boards, upstream_episode, Json,
    StepLine,
};

/// Runs `jobs` on up to two threads (the reference is single-threaded
/// Python, one process per job), returning the results in job order.
fn parallel<T: Sync, R: Send>(jobs: Vec<T>, run: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 2);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..jobs.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(job) = jobs.get(i) else { break };
                let r = run(job);
                results.lock().unwrap()[i] = Some(r);
            });
        }
    });
    results
        .into_inner()
        .unwrap()
        .into_iter()
        .map(|r| r.expect("every job ran"))
        .collect()
}

/// What one upstream episode exercised, to check the suite covers the rules.
#[derive(Default, Debug)]
struct Coverage {
    steps: usize,
    full_length: bool,
    float_cells: bool,
    int_cap_cells: bool,
    shipyards: bool,
    eliminated: bool,
    invalid: bool,
}

fn coverage(lines: &[StepLine]) -> Coverage {
    let mut c = Coverage {
        steps: lines.len() - 1,
        full_length: lines.len() == 400,
        ..Coverage::default()
    };
    for line in lines {
        let obs = line.state.get("observation").expect("an observation");
        if let Some(Json::Array(cells)) = obs.get("halite") {
            c.float_cells |= cells.iter().any(|h| matches!(h, Json::Float(_)));
            c.int_cap_cells |= cells.contains(&Json::Int(500));
        }
        if let Some(Json::Array(players)) = obs.get("players") {
            c.shipyards |= players
                .iter()
                .any(|p| matches!(p, Json::Array(a) if matches!(&a[1], Json::Object(m) if !m.is_empty())));
        }
        if let Some(Json::Array(rewards)) = line.state.get("rewards") {
            c.eliminated |= rewards.iter().any(|r| matches!(r, Json::Int(i) if *i < 0));
        }
        if let Some(Json::Array(statuses)) = line.state.get("statuses") {
            c.invalid |= statuses.iter().any(|s| *s == Json::Str("INVALID".into()));
        }
    }
    c
}

/// The episodes: 4 and 2 players, every agent in several seats. Each of
/// these runs its full 400 steps (the agents are deterministic per seed and
/// seat), so the whole of every rule is compared over whole games.
fn episodes() -> Vec<(u64, Vec<&'static str>)> {
    const A: [&str; 4] = ["miner", "random", "builtin:random", "random"];
    const B: [&str; 4] = ["random", "builtin:random", "malformed", "miner"];
    const C: [&str; 4] = ["builtin:random", "miner", "random", "malformed"];
    const RANDOM_MINER: [&str; 2] = ["random", "miner"];
    const BUILTIN_MINER: [&str; 2] = ["builtin:random", "miner"];
    const RANDOM_RANDOM: [&str; 2] = ["random", "random"];
    const BUILTIN_RANDOM: [&str; 2] = ["builtin:random", "random"];
    const MINER_BUILTIN: [&str; 2] = ["miner", "builtin:random"];
    let four: &[(u64, [&str; 4])] = &[
        (1, B),
        (2, C),
        (3, A),
        (5, C),
        (9, A),
        (11, C),
        (12, A),
        (13, B),
        (24, A),
        (25, B),
        (28, B),
        (29, C),
    ];
    let two: &[(u64, [&str; 2])] = &[
        (14, BUILTIN_MINER),
        (15, RANDOM_MINER),
        (18, RANDOM_RANDOM),
        (19, BUILTIN_MINER),
        (20, RANDOM_MINER),
        (21, BUILTIN_RANDOM),
        (22, MINER_BUILTIN),
        (23, RANDOM_RANDOM),
    ];
    four.iter()
        .map(|(s, a)| (*s, a.to_vec()))
        .chain(two.iter().map(|(s, a)| (*s, a.to_vec())))
        .collect()
}

#[test]
fn halite_episodes_match_upstream_at_every_step() {
    let results = parallel(episodes(), |(seed, agents)| {
        let what = format!("halite seed {seed} agents {}", agents.join(","));
        let upstream = upstream_episode("halite", *seed, agents, None)
            .map_err(|e| format!("{what}: upstream failed: {e:#}"))?;
        let answers: Vec<Vec<Option<String>>> =
            upstream.iter().skip(1).map(|l| l.answers.clone()).collect();
        let ludus = ludus_episode(
            "halite",
            &serde_json::Value::Null,
            *seed,
            agents.len(),
            &answers,
        )
        .map_err(|e| format!("{what}: {e:#}"))?;
        compare_episodes(&what, &upstream, &ludus).map_err(|e| format!("{e:#}"))?;
        Ok::<Coverage, String>(coverage(&upstream))
    });
    let failures: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    assert!(
        failures.is_empty(),
        "{}",
        failures
            .iter()
            .map(|f| f.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );

    let covered: Vec<Coverage> = results.into_iter().map(Result::unwrap).collect();
    let full = covered.iter().filter(|c| c.full_length).count();
    let steps: usize = covered.iter().map(|c| c.steps).sum();
    assert!(
        full >= 20,
        "only {full} episodes ran all 400 steps: {covered:?}"
    );
    assert!(
        covered.iter().all(|c| c.float_cells && c.shipyards),
        "{covered:?}"
    );
    assert!(
        covered.iter().any(|c| c.int_cap_cells),
        "no cell capped at the int 500"
    );
    assert!(covered.iter().any(|c| c.eliminated), "no elimination");
    assert!(covered.iter().any(|c| c.invalid), "no invalid seat");
    eprintln!(
        "{} episodes, {steps} steps compared, {full} of full length",
        covered.len()
    );
}

#[test]
fn halite_boards_match_upstream_for_200_seeds() {
    let ranges: Vec<(usize, std::ops::Range<u64>)> = vec![
        (4, 0..100),
        (4, 100..180),
        (2, 180..200),
        // The largest seeds the reference's generators take.
        (4, (1 << 32) - 3..1 << 32),
    ];
    let results = parallel(ranges, |(players, seeds)| {
        let boards = upstream_boards("halite", *players, seeds.clone())
            .map_err(|e| format!("upstream boards {seeds:?}: {e:#}"))?;
        if boards.len() != seeds.clone().count() {
            return Err(format!(
                "upstream gave {} boards for {seeds:?}",
                boards.len()
            ));
        }
        for (seed, upstream) in boards {
            let game = new_game("halite", &serde_json::Value::Null, seed, *players)
                .map_err(|e| format!("seed {seed}: {e}"))?;
            let mut text = String::new();
            game.reference_observation(0, &mut text);
            let ludus = Json::parse(&text).map_err(|e| format!("seed {seed}: {e}"))?;
            if let Some(d) = first_difference(&upstream, &ludus) {
                return Err(format!("{players} players, seed {seed}: {d}"));
            }
        }
        Ok(())
    });
    let failures: Vec<String> = results.into_iter().filter_map(Result::err).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
