//! The shared queue: what coordination costs a match (a claim and a commit
//! with its replay), how that grows with the ladder's size, the database's
//! size per match, and the matches per second of one ladder played by 1, 2
//! and 4 workers on PostgreSQL against one process on SQLite.
//!
//! `cargo bench -p ludus-leaderboard --bench queue [-- coordination|throughput]`
//!
//! PostgreSQL is a throw-away cluster with the server's default durability
//! (an fsync per commit; the queue's own transactions waive it, see
//! `store::queue`), started by the benchmark. Each worker here is a
//! thread with its own connection and its own sandbox, running the same
//! loop as `ludus worker`.

use ludus_host::{Limits, Sandbox};
use ludus_leaderboard::ladder::{self, LadderSpec, RunOptions};
use ludus_leaderboard::retention::KeepReplays;
use ludus_leaderboard::schedule::{Kind, ScheduledMatch};
use ludus_leaderboard::store::{ClaimNext, Location, MatchResult, Needs, NewLadder, Store};
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
/// Matches timed per repetition of a coordination measurement.
const TIMED: u32 = 320;
/// Repetitions of each coordination measurement.
const REPEATS: u32 = 3;

fn main() {
    // Arguments name the parts to run (cargo passes its own `--bench`).
    let parts: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let wants = |part: &str| parts.is_empty() || parts.iter().any(|p| p == part);
    let cluster = Cluster::start(Durability::Durable).expect("a PostgreSQL cluster");
    let dir = tempfile::tempdir().unwrap();
    let sqlite = |tag: &str| Location::File(dir.path().join(format!("{tag}.db")));

    // A match's CPU time, to set coordination against: the example bots'
    // ladder in one thread (its own coordination, on SQLite, included).
    // The least of three runs, as other work on the machine only adds.
    let sandbox = Sandbox::new().unwrap();
    one_process(&sqlite("warm-up"), &sandbox, 1);
    let match_cpu = (0..3)
        .map(|run| one_process(&sqlite(&format!("cpu{run}")), &sandbox, 1).1)
        .min()
        .expect("three runs")
        / 48;
    println!(
        "a Planet Wars match of the example bots: {:.1} ms of CPU",
        match_cpu.as_secs_f64() * 1e3
    );
    if wants("coordination") {
        coordination_table(&cluster, &sqlite, match_cpu);
    }
    if wants("throughput") {
        throughput(&cluster, &sqlite, &sandbox);
    }
    if wants("storage") {
        storage(&cluster, &sqlite);
    }
    if wants("replayless") {
        replayless(&cluster, match_cpu);
    }
}

/// Coordination per match on PostgreSQL with a replay sent and stored, and
/// with none (a ladder that keeps no replay), batches of 16.
fn replayless(cluster: &Cluster, match_cpu: Duration) {
    println!("coordination per match on PostgreSQL, 100 000 scheduled, batches of 16, the least of {REPEATS} runs of {TIMED} matches:");
    for (label, bytes) in [("a 14 000-byte replay", REPLAY_BYTES), ("no replay", 0)] {
        let location = Location::Postgres(cluster.create_database());
        let c = coordination_with(&location, 100_000, Step::Batched(16), cluster, bytes);
        let all = c.cpu + c.server.unwrap_or(c.backend);
        println!(
            "  {label:<22}: {:>5.0} µs from call to answer; CPU {:.0} µs (worker thread and backend), {:.0} µs with every server process ({:.2}% of a match's); database grows {:.2} KiB per match",
            c.wall.as_secs_f64() * 1e6,
            (c.cpu + c.backend).as_secs_f64() * 1e6,
            all.as_secs_f64() * 1e6,
            100.0 * all.as_secs_f64() / match_cpu.as_secs_f64(),
            c.bytes / 1024.0
        );
    }
}

/// Matches of the storage measurement.
const STORED_MATCHES: u32 = 100_000;

/// What a rated match costs the database when its ladder keeps no replay:
/// 100 bots, 100 000 matches scheduled (pairs drawn from a seeded
/// stream), each result committed through the queue with no replay, the
/// ratings applied (every seat's Elo, place and faults). Tables and indexes
/// grown from the database with the bots and no ladder.
fn storage(cluster: &Cluster, sqlite: &dyn Fn(&str) -> Location) {
    println!("bytes per rated match at {STORED_MATCHES} matches, no replay stored (tables and indexes; the bots excluded):");
    for (name, location) in [
        ("SQLite", sqlite("storage")),
        ("PostgreSQL", Location::Postgres(cluster.create_database())),
    ] {
        let store = Store::connect(&location).unwrap();
        let mut bots = Vec::new();
        for i in 0..100u32 {
            let mut wasm = b"\0asm\x01\0\0\0".to_vec();
            // A custom section makes each bot's bytes its own.
            wasm.extend([0, 5, 1, b'x']);
            wasm.extend(i.to_le_bytes()[..3].iter());
            let sha = ludus_host::sha256_hex(&wasm);
            bots.push(
                store
                    .bots()
                    .submit(&format!("bot-{i:03}"), "planet-wars", &wasm, &sha, NOW)
                    .unwrap()
                    .bot,
            );
        }
        let before = database_bytes(&location, cluster);
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let schedule: Vec<ScheduledMatch> = (0..STORED_MATCHES)
            .map(|i| {
                let a = (next() % 100) as usize;
                let b = (a + 1 + (next() % 99) as usize) % 100;
                ScheduledMatch {
                    index: i,
                    group: i,
                    seed: next() >> 1,
                    seats: vec![a, b],
                }
            })
            .collect();
        let rules = ludus_engine::registry::info("planet-wars")
            .unwrap()
            .rules_version;
        let id = store
            .ladders()
            .ensure(&NewLadder {
                key: "storage",
                game: "planet-wars",
                kind: "round-robin",
                players: 2,
                rounds: 1,
                seed: 0,
                config: &serde_json::Value::Null,
                limits: &serde_json::to_value(Limits::default()).unwrap(),
                needs: &Needs::of_this_build(rules),
                keep_replays: KeepReplays::NONE,
                bots: &bots,
                schedule: &schedule,
            })
            .unwrap();
        let lease = Duration::from_secs(600);
        let worker = store.queue().register_worker(2, Some(id), lease).unwrap();
        let t = Instant::now();
        let mut held = store.queue().claim(worker, id, 16, lease).unwrap();
        while !held.is_empty() {
            let results: Vec<MatchResult> = held
                .iter()
                .map(|c| {
                    let placements = match c.index % 10 {
                        9 => vec![1, 1],
                        k if k % 2 == 0 => vec![1, 2],
                        _ => vec![2, 1],
                    };
                    MatchResult {
                        index: c.index,
                        match_id: ludus_host::sha256_hex(format!("match {}", c.index).as_bytes()),
                        scores: placements
                            .iter()
                            .map(|&p| if p == 1 { 1.0 } else { 0.0 })
                            .collect(),
                        placements,
                        faults: vec![0, 0],
                        turns: 187,
                        reason: "player 1 (seat 0) is the last with ships".into(),
                        aborted: None,
                        replay_sha256: ludus_host::sha256_hex(
                            format!("replay {}", c.index).as_bytes(),
                        ),
                        refused: vec![0, 0],
                    }
                })
                .collect();
            let commits: Vec<(&MatchResult, &[u8])> =
                results.iter().map(|r| (r, &[][..])).collect();
            let next = ClaimNext {
                ladder: id,
                n: 16,
                lease,
            };
            held = store
                .queue()
                .commit_many_and_claim(worker, id, &commits, &next)
                .unwrap()
                .1;
        }
        store.queue().stop_worker(worker).unwrap();
        ludus_leaderboard::ratings::apply(&store, id).unwrap();
        let stored: i64 = store.results().all(id).unwrap().len() as i64;
        assert_eq!(stored, STORED_MATCHES as i64);
        drop(store);
        let took = t.elapsed();
        let grown = database_bytes(&location, cluster).saturating_sub(before);
        // What the rows take once the space of their earlier versions is
        // reclaimed (PostgreSQL keeps an updated row's old version until a
        // vacuum; autovacuum makes that space reusable as the ladder goes on).
        match &location {
            Location::File(path) => rusqlite::Connection::open(path)
                .unwrap()
                .execute_batch("VACUUM")
                .unwrap(),
            Location::Postgres(url) => {
                cluster.psql(url, "VACUUM FULL");
            }
        }
        let live = database_bytes(&location, cluster).saturating_sub(before);
        let per = |b: u64| b as f64 / STORED_MATCHES as f64;
        println!(
            "  {name:<10} {:.0} bytes per match as written ({:.1} MiB), {:.0} once vacuumed; committed and rated in {:.0} s",
            per(grown),
            grown as f64 / (1 << 20) as f64,
            per(live),
            took.as_secs_f64()
        );
    }
}

fn coordination_table(cluster: &Cluster, sqlite: &dyn Fn(&str) -> Location, match_cpu: Duration) {
    println!("coordination per match (a worker of 2 threads in its steady state: each result, with a {REPLAY_BYTES}-byte replay, committed and the next match claimed), the least of {REPEATS} runs of {TIMED} matches:");
    for scheduled in [1_000u32, 100_000] {
        for step in [
            Step::Fused,
            Step::Batched(4),
            Step::Batched(16),
            Step::Separate,
        ] {
            for (name, location) in [
                ("SQLite", sqlite(&format!("q{scheduled}{}", step.label()))),
                ("PostgreSQL", Location::Postgres(cluster.create_database())),
            ] {
                let c = coordination(&location, scheduled, step, cluster);
                let share = |d: Duration| 100.0 * d.as_secs_f64() / match_cpu.as_secs_f64();
                let server = c.server.map_or(String::new(), |s| {
                    format!(
                        "; with the whole database server's: {:.0} µs ({:.2}%)",
                        (c.cpu + s).as_secs_f64() * 1e6,
                        share(c.cpu + s)
                    )
                });
                println!(
                    "  {name:<10} {scheduled:>7} scheduled, {:<12}: {:>5.0} µs per match from call to answer; {:>4.0} µs of CPU ({:.2}% of a match's; the worker's thread {:.0} µs){server}; database grows {:.1} KiB per match",
                    step.label(),
                    c.wall.as_secs_f64() * 1e6,
                    (c.cpu + c.backend).as_secs_f64() * 1e6,
                    share(c.cpu + c.backend),
                    c.cpu.as_secs_f64() * 1e6,
                    c.bytes / 1024.0
                );
            }
        }
    }
}

fn throughput(cluster: &Cluster, sqlite: &dyn Fn(&str) -> Location, sandbox: &Sandbox) {
    println!("one ladder: round robin of the 3 example bots, 8 rounds (48 matches):");
    for threads in [1, 2] {
        let location = sqlite(&format!("single{threads}"));
        let (secs, _) = one_process(&location, sandbox, threads);
        println!(
            "  SQLite, one process, {threads} thread(s): {secs:.2} s, {:.1} matches/s",
            48.0 / secs
        );
    }
    for workers in [1, 2, 4] {
        let location = Location::Postgres(cluster.create_database());
        let (secs, batch) = workers_on(&location, workers);
        println!(
            "  PostgreSQL, {workers} worker(s) of 1 thread: {secs:.2} s, {:.1} matches/s, {batch:.1} results a commit",
            48.0 / secs
        );
    }
}

/// A store with the three example bots.
fn store_with_examples(location: &Location) -> Store {
    let store = Store::connect(location).unwrap();
    for file in EXAMPLES {
        let wasm = std::fs::read(ludus_testkit::bot(file)).unwrap();
        let sha = ludus_host::sha256_hex(&wasm);
        store
            .bots()
            .submit(file, "planet-wars", &wasm, &sha, NOW)
            .unwrap();
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
        bots: store.bots().latest("planet-wars").unwrap(),
    }
}

/// Seconds to play the ladder in one process of `threads` threads, and
/// the CPU time it took.
fn one_process(location: &Location, sandbox: &Sandbox, threads: usize) -> (f64, Duration) {
    let store = store_with_examples(location);
    let spec = spec(&store);
    let cpu = process_cpu();
    let start = Instant::now();
    ladder::run(&store, sandbox, &spec, &RunOptions::new(threads), |_| {}).unwrap();
    (start.elapsed().as_secs_f64(), process_cpu() - cpu)
}

/// Seconds for `workers` workers, each its own connection, to play the
/// ladder once its schedule is stored: until its last result is in (a
/// worker left without a match to claim looks again only every two
/// seconds, the poll of the default lease, before it stops).
fn workers_on(location: &Location, workers: usize) -> (f64, f64) {
    let store = store_with_examples(location);
    let spec = spec(&store);
    let id = ladder::create(&store, &spec).unwrap();
    let start = Instant::now();
    let mut secs = 0.0;
    let commits = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        s.spawn(|| {
            let watcher = Store::connect(location).unwrap();
            while watcher.queue().remaining(id).unwrap() > 0 {
                std::thread::sleep(Duration::from_millis(5));
            }
            secs = start.elapsed().as_secs_f64();
        });
        for _ in 0..workers {
            s.spawn(|| {
                let store = Store::connect(location).unwrap();
                let sandbox = Sandbox::new().unwrap();
                let options = WorkerOptions {
                    ladder: Some(id),
                    ..WorkerOptions::new(1)
                };
                let summary = worker::work(&store, &sandbox, &options, |_| {}).unwrap();
                commits.fetch_add(summary.commits, std::sync::atomic::Ordering::Relaxed);
            });
        }
    });
    assert_eq!(store.results().all(id).unwrap().len(), 48);
    (secs, 48.0 / commits.into_inner().max(1) as f64)
}

/// How a worker's result goes in and its next match comes out.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// `Queue::commit_and_claim`: one statement on PostgreSQL.
    Fused,
    /// `Queue::commit_many_and_claim` of this many results (and a claim of
    /// as many matches): a worker whose results come close together.
    Batched(usize),
    /// `Queue::commit`, then `Queue::claim`.
    Separate,
}

impl Step {
    fn label(self) -> String {
        match self {
            Step::Fused => "one result".into(),
            Step::Batched(n) => format!("{n} results"),
            Step::Separate => "two steps".into(),
        }
    }
}

/// Time per match of claiming and committing, on a ladder of `scheduled`
/// matches, and the database's growth per committed match.
fn coordination(
    location: &Location,
    scheduled: u32,
    step: Step,
    cluster: &Cluster,
) -> Coordination {
    coordination_with(location, scheduled, step, cluster, REPLAY_BYTES)
}

/// [`coordination`] with replays of `replay_bytes` (0: none sent, as a
/// ladder that stores no replay commits its results).
fn coordination_with(
    location: &Location,
    scheduled: u32,
    step: Step,
    cluster: &Cluster,
    replay_bytes: usize,
) -> Coordination {
    let store = Store::connect(location).unwrap();
    let mut bots = Vec::new();
    for (name, wasm) in [
        ("a", &b"\0asm\x01\0\0\0"[..]),
        ("b", &b"\0asm\x01\0\0\0\0"[..]),
    ] {
        let sha = ludus_host::sha256_hex(wasm);
        bots.push(
            store
                .bots()
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
        .ladders()
        .ensure(&NewLadder {
            key: "bench",
            game: "planet-wars",
            kind: "round-robin",
            players: 2,
            rounds: 1,
            seed: 0,
            config: &serde_json::Value::Null,
            limits: &serde_json::to_value(Limits::default()).unwrap(),
            needs: &Needs::of_this_build(rules),
            keep_replays: KeepReplays::ALL,
            bots: &bots,
            schedule: &schedule,
        })
        .unwrap();
    let lease = Duration::from_secs(60);
    let worker = store.queue().register_worker(2, Some(id), lease).unwrap();
    // As a worker's connection: each statement planned once.
    store.plan_statements_once(true).unwrap();
    // Incompressible bytes, different per match, as gzip output is.
    let replay = |i: u32| -> Vec<u8> {
        let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ i as u64;
        (0..replay_bytes)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect()
    };
    let replays: Vec<Vec<u8>> = (0..REPEATS * TIMED).map(replay).collect();
    // The CPU the coordination takes: this thread's, and on PostgreSQL the
    // server process that serves this connection.
    let backend = match location {
        Location::File(_) => None,
        Location::Postgres(url) => Some(
            cluster
                .psql(
                    url,
                    "SELECT pid FROM pg_stat_activity WHERE datname = current_database()
                     AND backend_type = 'client backend' AND pid <> pg_backend_pid()",
                )
                .trim()
                .parse::<u32>()
                .expect("the store's one connection"),
        ),
    };
    let thread_cpu = || cpu_ns("/proc/thread-self/schedstat");
    let backend_cpu = || backend.map_or(0, |pid| cpu_ns(&format!("/proc/{pid}/schedstat")));
    let postgres = matches!(location, Location::Postgres(_));
    let server_cpu = || postgres.then(|| cluster.cpu_time().as_nanos() as u64);
    let size_before = database_bytes(location, cluster);
    // A worker in its steady state: when a result is played (or four, for
    // a batch), it goes in and the next match comes out.
    let batch = match step {
        Step::Batched(n) => n,
        Step::Fused | Step::Separate => 1,
    };
    let mut held: std::collections::VecDeque<_> = store
        .queue()
        .claim(worker, id, batch + 1, lease)
        .unwrap()
        .into();
    // Repeated on the same ladder; the repetition with the least CPU is
    // kept, as other work on the machine only ever adds to a repetition's.
    let mut best: Option<Coordination> = None;
    for rep in 0..REPEATS {
        let mut spent = Duration::ZERO;
        let (thread_before, backend_before, server_before) =
            (thread_cpu(), backend_cpu(), server_cpu());
        for first in (rep * TIMED..(rep + 1) * TIMED).step_by(batch) {
            let played: Vec<(MatchResult, &Vec<u8>)> = (first..first + batch as u32)
                .map(|done| {
                    let c = held
                        .pop_front()
                        .expect("a ladder longer than the timed matches");
                    let gz = &replays[done as usize];
                    let result = MatchResult {
                        index: c.index,
                        match_id: format!("{id}-{:08}", c.index),
                        placements: vec![1, 2],
                        scores: vec![57.0, 0.0],
                        faults: vec![0, 0],
                        turns: 207,
                        reason: "elimination".into(),
                        aborted: None,
                        replay_sha256: ludus_host::sha256_hex(format!("{id}-{done}").as_bytes()),
                        refused: vec![0, 0],
                    };
                    (result, gz)
                })
                .collect();
            let claim = ClaimNext {
                ladder: id,
                n: batch,
                lease,
            };
            let start = Instant::now();
            let next = match step {
                Step::Fused => {
                    let (result, gz) = &played[0];
                    store
                        .queue()
                        .commit_and_claim(worker, id, result, gz, &claim)
                        .unwrap()
                        .1
                }
                Step::Batched(_) => {
                    let results: Vec<(&MatchResult, &[u8])> =
                        played.iter().map(|(r, gz)| (r, gz.as_slice())).collect();
                    store
                        .queue()
                        .commit_many_and_claim(worker, id, &results, &claim)
                        .unwrap()
                        .1
                }
                Step::Separate => {
                    let (result, gz) = &played[0];
                    store.queue().commit(worker, id, result, gz).unwrap();
                    store.queue().claim(worker, id, 1, lease).unwrap()
                }
            };
            spent += start.elapsed();
            held.extend(next);
        }
        let per_match = |ns: u64| Duration::from_nanos(ns / TIMED as u64);
        let this = Coordination {
            wall: spent / TIMED,
            cpu: per_match(thread_cpu() - thread_before),
            backend: per_match(backend_cpu() - backend_before),
            server: server_cpu()
                .zip(server_before)
                .map(|(after, before)| per_match(after.saturating_sub(before))),
            bytes: 0.0,
        };
        if best
            .as_ref()
            .is_none_or(|b| this.cpu + this.backend < b.cpu + b.backend)
        {
            best = Some(this);
        }
    }
    drop(store);
    let grown = database_bytes(location, cluster).saturating_sub(size_before);
    Coordination {
        bytes: grown as f64 / (REPEATS * TIMED) as f64,
        ..best.expect("at least one repetition")
    }
}

/// What coordination costs a match.
struct Coordination {
    /// From the call to its answer.
    wall: Duration,
    /// CPU time of the worker's thread.
    cpu: Duration,
    /// CPU time of the database server's process for the worker's
    /// connection (none on SQLite).
    backend: Duration,
    /// CPU time of every process of the database server: the backend, its
    /// WAL writer, checkpointer, background writer and autovacuum (none on
    /// SQLite).
    server: Option<Duration>,
    /// Database growth.
    bytes: f64,
}

/// A thread's or a process's CPU time so far, in ns, from its `schedstat`.
fn cpu_ns(path: &str) -> u64 {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("{path} gives the CPU time"))
}

/// This process's CPU time so far (every thread's, ended ones included).
fn process_cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    // The fields after the command's parenthesised name; utime and stime
    // are the 14th and 15th, in ticks of 1/100 s.
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let f: Vec<u64> = rest
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0))
        .collect();
    Duration::from_millis((f[11] + f[12]) * 10)
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
