//! Kore against kaggle-environments 1.33.2 `kore_fleets`: the same boards for
//! 200 seeds, and whole 400-step episodes over the same action streams
//! (random legal orders, malformed and crashing answers, upstream's own
//! agents), compared at every step to the bit.

use std::sync::Mutex;
use std::thread;

use ludus_fidelity::{
    compare_episodes, first_difference, ludus_episode, state_line, upstream_boards,
    upstream_episode, Json,
};
use serde_json::Value;

/// (seed, agents): 13 two-player and 7 four-player tables, every agent kind.
const EPISODES: &[(u64, &[&str])] = &[
    (1, &["random", "random"]),
    (2, &["builtin:balanced", "builtin:miner"]),
    (3, &["crasher", "malformed"]),
    (4, &["builtin:attacker", "random"]),
    (5, &["malformed", "builtin:balanced"]),
    (6, &["builtin:random", "builtin:do_nothing"]),
    (
        7,
        &["random", "builtin:miner", "malformed", "builtin:attacker"],
    ),
    (
        8,
        &[
            "builtin:balanced",
            "builtin:balanced",
            "builtin:miner",
            "builtin:random",
        ],
    ),
    (9, &["crasher", "random", "random", "builtin:balanced"]),
    (10, &["builtin:miner", "builtin:attacker"]),
    (11, &["random", "crasher"]),
    (12, &["malformed", "malformed", "random", "random"]),
    (13, &["builtin:balanced", "random"]),
    (
        14,
        &[
            "builtin:attacker",
            "builtin:attacker",
            "builtin:balanced",
            "builtin:miner",
        ],
    ),
    (15, &["builtin:do_nothing", "malformed"]),
    (17, &["builtin:miner", "builtin:miner"]),
    (18, &["malformed", "builtin:attacker"]),
    (1_000_003, &["random", "builtin:balanced"]),
    (
        4_294_967_295,
        &["builtin:miner", "random", "malformed", "builtin:balanced"],
    ),
    (
        77,
        &["builtin:random", "malformed", "builtin:miner", "crasher"],
    ),
];

/// Runs `jobs` on two threads; returns every failure.
fn run_parallel<T: Sync>(jobs: &[T], run: impl Fn(&T) -> anyhow::Result<()> + Sync) -> Vec<String> {
    let next = Mutex::new(0usize);
    let failures = Mutex::new(Vec::new());
    thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = {
                    let mut n = next.lock().unwrap();
                    *n += 1;
                    *n - 1
                };
                let Some(job) = jobs.get(i) else { break };
                if let Err(e) = run(job) {
                    failures.lock().unwrap().push(format!("{e:#}"));
                }
            });
        }
    });
    failures.into_inner().unwrap()
}

/// Plays one episode upstream, replays its answers in Ludus, compares every
/// step; returns (steps, seats that ended in ERROR).
fn episode(seed: u64, agents: &[&str]) -> anyhow::Result<(usize, usize)> {
    let upstream = upstream_episode("kore_fleets", seed, agents, None)?;
    let answers: Vec<Vec<Option<String>>> =
        upstream.iter().skip(1).map(|l| l.answers.clone()).collect();
    let ludus = ludus_episode("kore", &Value::Null, seed, agents.len(), &answers)?;
    compare_episodes(
        &format!("kore seed {seed} agents {}", agents.join(",")),
        &upstream,
        &ludus,
    )?;
    let errored = match upstream.last().and_then(|l| l.state.get("statuses")) {
        Some(Json::Array(s)) => s
            .iter()
            .filter(|s| **s == Json::Str("ERROR".into()))
            .count(),
        _ => 0,
    };
    Ok((upstream.len() - 1, errored))
}

#[test]
fn full_episodes_match_upstream_step_by_step() {
    let totals = Mutex::new((0usize, 0usize));
    let failures = run_parallel(EPISODES, |(seed, agents)| {
        let (steps, errored) = episode(*seed, agents)?;
        let mut t = totals.lock().unwrap();
        t.0 += steps;
        t.1 += errored;
        Ok(())
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let (steps, errored) = totals.into_inner().unwrap();
    // Episodes run until upstream is done: all 399 steps, or fewer when the
    // tables end early (a seat out, fewer than two left).
    eprintln!("{steps} steps compared, {errored} seats errored");
    assert!(steps >= 4000, "only {steps} steps compared");
    assert!(errored >= 1, "no seat went through upstream's ERROR path");
}

fn boards_match(players: usize, seeds: std::ops::Range<u64>) -> anyhow::Result<()> {
    for (seed, upstream) in upstream_boards("kore_fleets", players, seeds)? {
        let game = ludus_engine::new_game("kore", &serde_json::Value::Null, seed, players)?;
        let line = state_line(game.as_ref())?;
        let ludus = line.get("observation").cloned().unwrap_or(Json::Null);
        if let Some(d) = first_difference(&upstream, &ludus) {
            anyhow::bail!("{players} players, seed {seed}: {d}");
        }
    }
    Ok(())
}

#[test]
fn boards_match_upstream_for_200_seeds() {
    let jobs: &[(usize, std::ops::Range<u64>)] =
        &[(2, 0..70), (2, 4_294_967_200..4_294_967_230), (4, 70..170)];
    let failures = run_parallel(jobs, |(players, seeds)| {
        boards_match(*players, seeds.clone())
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
