//! The shared queue: what coordination costs a match (a claim and a commit
//! with its replay), how that grows with the ladder's size, the database's
//! size per match, and the matches per second of one ladder played by 1, 2
//! and 4 workers on PostgreSQL against one process on SQLite.
//!
//! `cargo bench -p ludus-leaderboard --bench queue`
//!
//! PostgreSQL is a throw-away cluster with the server's default durability
//! (an fsync per commit; the queue's own transactions waive it, see
//! `store::queue`), started by the benchmark. Each worker here is a
//! thread with its own connection and its own sandbox, running the same
//! loop as `ludus worker`.

use ludus_host::{Limits, Sandbox};
use ludus_leaderboard::ladder::{self, LadderSpec};
use ludus_leaderboard::schedule::{Kind, ScheduledMatch};
use ludus_leaderboard::store::{Location, MatchResult, Needs, NewLadder, Store};
use ludus_leaderboard::worker::{self, WorkerOptions};
use ludus_testkit::postgres::{Cluster, Durability};
use std::time::{Duration, Instant};

const NOW: &str = "2026-01-01T00:00:00Z";
const EXAMPLES: [&str; 3] = [
    "planet_wars_expander",
    "planet_wars_random",
    "planet_wars_idle",
];
/// A replay as large as an average Planet Wars match's gzip (about 14 KB),
/// and as incompressible.
const REPLAY_BYTES: usize = 14_000;
/// Matches timed per coordination measurement.
const TIMED: u32 = 400;

fn main() {
    let cluster = Cluster::start(Durability::Durable).expect("a PostgreSQL cluster");
    let dir = tempfile::tempdir().unwrap();
    let sqlite = |tag: &str| Location::File(dir.path().join(format!("{tag}.db")));

    println!("coordination per match (a worker of 2 threads in its steady state: each result, with a {REPLAY_BYTES}-byte replay, committed and the next match claimed), {TIMED} matches timed:");
    for scheduled in [1_000u32, 100_000] {
        for step in [Step::Fused, Step::Separate] {
            for (name, location) in [
                ("SQLite", sqlite(&format!("q{scheduled}{step:?}"))),
                ("PostgreSQL", Location::Postgres(cluster.create_database())),
            ] {
                let (per_match, bytes_per_match) =
                    coordination(&location, scheduled, step, &cluster);
                println!(
                    "  {name:<10} {scheduled:>7} scheduled, {step:<8?}: {:>7.0} µs per match; database grows {:.1} KiB per match",
                    per_match.as_secs_f64() * 1e6,
                    bytes_per_match / 1024.0
                );
            }
        }
    }

    println!("one ladder: round robin of the 3 example bots, 8 rounds (48 matches):");
    let sandbox = Sandbox::new().unwrap();
    for threads in [1, 2] {
        let location = sqlite(&format!("single{threads}"));
        let secs = one_process(&location, &sandbox, threads);
        println!(
            "  SQLite, one process, {threads} thread(s): {secs:.2} s, {:.1} matches/s",
            48.0 / secs
        );
    }
    for workers in [1, 2, 4] {
        let location = Location::Postgres(cluster.create_database());
        let secs = workers_on(&location, workers);
        println!(
            "  PostgreSQL, {workers} worker(s) of 1 thread: {secs:.2} s, {:.1} matches/s",
            48.0 / secs
        );
    }
}

/// A store with the three example bots.
fn store_with_examples(location: &Location) -> Store {
    let mut store = Store::connect(location).unwrap();
    for file in EXAMPLES {
        let wasm = std::fs::read(ludus_testkit::bot(file)).unwrap();
        let sha = ludus_host::sha256_hex(&wasm);
        store.submit(file, "planet-wars", &wasm, &sha, NOW).unwrap();
    }
    store
}

fn spec(store: &Store) -> LadderSpec {
    LadderSpec {
        game: "planet-wars".into(),
        kind: Kind::RoundRobin,
        players: 2,
        rounds: 8,
        seed: 1,
        config: serde_json::Value::Null,
        limits: Limits::default(),
        bots: store.latest_bots("planet-wars").unwrap(),
    }
}

/// Seconds to play the ladder in one process of `threads` threads.
fn one_process(location: &Location, sandbox: &Sandbox, threads: usize) -> f64 {
    let mut store = store_with_examples(location);
    let spec = spec(&store);
    let start = Instant::now();
    ladder::run(&mut store, sandbox, &spec, threads, |_| {}).unwrap();
    start.elapsed().as_secs_f64()
}

/// Seconds for `workers` workers, each its own connection, to play the
/// ladder once its schedule is stored.
fn workers_on(location: &Location, workers: usize) -> f64 {
    let mut store = store_with_examples(location);
    let spec = spec(&store);
    let id = ladder::create(&mut store, &spec).unwrap();
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                let mut store = Store::connect(location).unwrap();
                let sandbox = Sandbox::new().unwrap();
                let options = WorkerOptions {
                    ladder: Some(id),
                    ..WorkerOptions::new(1)
                };
                worker::work(&mut store, &sandbox, &options, |_| {}).unwrap();
            });
        }
    });
    let secs = start.elapsed().as_secs_f64();
    assert_eq!(store.results(id).unwrap().len(), 48);
    secs
}

/// How a worker's result goes in and its next match comes out.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// `Store::commit_and_claim`: one statement on PostgreSQL.
    Fused,
    /// `Store::commit`, then `Store::claim`.
    Separate,
}

/// Time per match of claiming and committing, on a ladder of `scheduled`
/// matches, and the database's growth per committed match.
fn coordination(
    location: &Location,
    scheduled: u32,
    step: Step,
    cluster: &Cluster,
) -> (Duration, f64) {
    let mut store = Store::connect(location).unwrap();
    let mut bots = Vec::new();
    for (name, wasm) in [
        ("a", &b"\0asm\x01\0\0\0"[..]),
        ("b", &b"\0asm\x01\0\0\0\0"[..]),
    ] {
        let sha = ludus_host::sha256_hex(wasm);
        bots.push(
            store
                .submit(name, "planet-wars", wasm, &sha, NOW)
                .unwrap()
                .bot,
        );
    }
    let schedule: Vec<ScheduledMatch> = (0..scheduled)
        .map(|i| ScheduledMatch {
            index: i,
            group: i / 2,
            seed: i as u64 / 2,
            seats: if i % 2 == 0 { vec![0, 1] } else { vec![1, 0] },
        })
        .collect();
    let rules = ludus_engine::registry::info("planet-wars")
        .unwrap()
        .rules_version;
    let id = store
        .ensure_ladder(&NewLadder {
            key: "bench",
            game: "planet-wars",
            kind: "round-robin",
            players: 2,
            rounds: 1,
            seed: 0,
            config: &serde_json::Value::Null,
            limits: &serde_json::to_value(Limits::default()).unwrap(),
            needs: &Needs::of_this_build(rules),
            bots: &bots,
            schedule: &schedule,
        })
        .unwrap();
    let lease = Duration::from_secs(60);
    let worker = store.register_worker(2, Some(id), lease).unwrap();
    // Incompressible bytes, different per match, as gzip output is.
    let replay = |i: u32| -> Vec<u8> {
        let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ i as u64;
        (0..REPLAY_BYTES)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect()
    };
    let size_before = database_bytes(location, cluster);
    // A worker of two threads in its steady state: it holds two matches;
    // when one is played, its result goes in and the next match comes out.
    let mut held: std::collections::VecDeque<_> = store.claim(worker, id, 2, lease).unwrap().into();
    let mut spent = Duration::ZERO;
    for done in 0..TIMED {
        let c = held
            .pop_front()
            .expect("a ladder longer than the timed matches");
        let gz = replay(done);
        let result = MatchResult {
            index: c.index,
            match_id: format!("{id}-{:08}", c.index),
            placements: vec![1, 2],
            scores: vec![57.0, 0.0],
            faults: vec![0, 0],
            turns: 207,
            reason: "elimination".into(),
            aborted: None,
            replay_sha256: ludus_host::sha256_hex(&gz),
        };
        let start = Instant::now();
        let next = match step {
            Step::Fused => {
                store
                    .commit_and_claim(worker, id, &result, &gz, id, 1, lease)
                    .unwrap()
                    .1
            }
            Step::Separate => {
                store.commit(worker, id, &result, &gz).unwrap();
                store.claim(worker, id, 1, lease).unwrap()
            }
        };
        spent += start.elapsed();
        held.extend(next);
    }
    drop(store);
    let grown = database_bytes(location, cluster).saturating_sub(size_before);
    (spent / TIMED, grown as f64 / TIMED as f64)
}

/// The database's size on disk (SQLite: after a checkpoint of its WAL).
fn database_bytes(location: &Location, cluster: &Cluster) -> u64 {
    match location {
        Location::File(path) => {
            if let Ok(c) = rusqlite::Connection::open(path) {
                let _ = c.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)");
            }
            std::fs::metadata(path).map_or(0, |m| m.len())
        }
        Location::Postgres(url) => {
            cluster.psql(url, "CHECKPOINT");
            cluster
                .psql(url, "SELECT pg_database_size(current_database())")
                .parse()
                .unwrap()
        }
    }
}
