//! Matches per second of one ladder played by real `ludus` processes: one
//! `ladder run` on SQLite, and 1, 2 and 4 `ludus worker` processes on
//! PostgreSQL, on the machine this runs on.
//!
//! `cargo bench -p ludus-cli --bench workers`
//!
//! The ladder is a round robin of the three Planet Wars example bots over
//! full-length games; PostgreSQL is a throw-away cluster with the server's
//! default durability, started by the benchmark. Each figure is the time
//! from the processes' start to the last result, start-up included (the
//! bots' compiled modules are cached by a warm-up run first).
//!
//! `cargo bench -p ludus-cli --bench workers -- reclaim` measures instead
//! how long a worker killed with SIGKILL holds the leaderboard up: two
//! `ludus worker`s play a long ladder on PostgreSQL, one is killed, and the
//! figure is the time from the kill until the ladder's rated prefix covers
//! the matches the killed worker held. Its worker is either of this host
//! (the live one finds its process gone) or recorded as of another host
//! (its lease has to end), with the default lease and with `--lease 60s`,
//! the default before heartbeats came every second.

#[path = "../tests/common/mod.rs"]
mod common;

use common::{ludus, ludus_cmd, submit_to, text};
use ludus_leaderboard::store::{Location, Store};
use ludus_testkit::postgres::{Cluster, Durability};
use std::path::Path;
use std::process::Stdio;
use std::time::Instant;

const ROUNDS: u32 = 12;
/// Three bots, both seatings of each pair: 6 matches a round.
const MATCHES: u32 = ROUNDS * 6;
const BOTS: [(&str, &str); 3] = [
    ("planet_wars_expander", "expander"),
    ("planet_wars_random", "random"),
    ("planet_wars_idle", "idle"),
];

fn main() {
    let cluster = Cluster::start(Durability::Durable).expect("a PostgreSQL cluster");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    if std::env::args().any(|a| a == "reclaim") {
        return reclaim(&cluster, d);
    }
    let sqlite = |tag: &str| d.join(format!("{tag}.db")).display().to_string();

    // Warm the module cache: every process after this one loads the bots
    // compiled.
    ladder_run(d, &sqlite("warm-up"), 2);

    println!("one ladder, {MATCHES} full-length Planet Wars matches of the three example bots:");
    for threads in [1, 2] {
        let secs = ladder_run(d, &sqlite(&format!("run{threads}")), threads);
        report(&format!("SQLite, `ladder run --threads {threads}`"), secs);
    }
    for (workers, threads) in [(1, 1), (2, 1), (4, 1), (1, 2)] {
        let db = cluster.create_database();
        let secs = workers_on(d, &db, workers, threads);
        report(
            &format!("PostgreSQL, {workers} `ludus worker --threads {threads}`"),
            secs,
        );
    }
}

fn report(what: &str, secs: f64) {
    println!(
        "  {what:<45} {secs:>6.2} s  {:>5.1} matches/s",
        MATCHES as f64 / secs
    );
}

fn run(args: &[&str], dir: &Path) {
    let o = ludus(args, dir);
    assert!(o.status.success(), "ludus {}: {}", args.join(" "), text(&o));
}

fn submit_bots(dir: &Path, db: &str) {
    for (file, name) in BOTS {
        submit_to(dir, db, file, name);
    }
}

fn ladder_args(db: &str) -> Vec<String> {
    ["--game", "planet-wars", "--rounds", &ROUNDS.to_string()]
        .into_iter()
        .map(String::from)
        .chain(["--seed", "1", "--db", db].map(String::from))
        .collect()
}

/// Seconds for one `ladder run` of `threads` threads to play the ladder.
fn ladder_run(dir: &Path, db: &str, threads: usize) -> f64 {
    submit_bots(dir, db);
    let threads = threads.to_string();
    let mut args = vec!["ladder", "run", "--threads", &threads];
    let rest = ladder_args(db);
    args.extend(rest.iter().map(String::as_str));
    let start = Instant::now();
    run(&args, dir);
    let secs = start.elapsed().as_secs_f64();
    assert_eq!(results(db), MATCHES as usize);
    secs
}

/// Seconds for `workers` `ludus worker` processes to play the ladder once
/// its schedule is stored.
fn workers_on(dir: &Path, db: &str, workers: usize, threads: usize) -> f64 {
    submit_bots(dir, db);
    let mut args = vec!["ladder", "create"];
    let rest = ladder_args(db);
    args.extend(rest.iter().map(String::as_str));
    run(&args, dir);
    let threads = threads.to_string();
    let worker = ["worker", "--ladder", "1", "--threads", &threads, "--db", db];
    let start = Instant::now();
    let children: Vec<_> = (0..workers)
        .map(|_| {
            ludus_cmd(&worker, dir)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    // Until the last result is in: a worker left without a match to claim
    // looks again only every 250 ms (its poll), and would stop late.
    let watcher = Store::connect_existing(&Location::parse(db)).unwrap();
    let id = watcher.ladders().latest(None).unwrap().expect("a ladder");
    while watcher.queue().remaining(id).unwrap() > 0 {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let secs = start.elapsed().as_secs_f64();
    for c in children {
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    assert_eq!(results(db), MATCHES as usize);
    secs
}

fn results(db: &str) -> usize {
    let store = Store::connect_existing(&Location::parse(db)).unwrap();
    let id = store.ladders().latest(None).unwrap().expect("a ladder");
    store.results().all(id).unwrap().len()
}

/// Where the killed worker is recorded as running.
#[derive(Clone, Copy)]
enum Host {
    This,
    Another,
}

/// The time from SIGKILL to a worker of a long ladder until the rated
/// prefix covers the matches it held, for each host and lease, over a few
/// kills each (the kill falls anywhere between two heartbeats).
fn reclaim(cluster: &Cluster, dir: &Path) {
    // Warm the module cache.
    ladder_run(dir, &dir.join("warm-up.db").display().to_string(), 2);
    println!("SIGKILL to one of two `ludus worker --threads 1` on PostgreSQL, until the rated prefix passes its matches:");
    for (host, lease, kills) in [
        (Host::This, None, 5),
        (Host::Another, None, 5),
        (Host::Another, Some("60s"), 1),
    ] {
        let secs: Vec<f64> = (0..kills)
            .map(|_| killed_worker_holds_up(cluster, dir, host, lease))
            .collect();
        let (min, max) = secs
            .iter()
            .fold((f64::MAX, 0f64), |(lo, hi), &s| (lo.min(s), hi.max(s)));
        let mean = secs.iter().sum::<f64>() / secs.len() as f64;
        println!(
            "  {:<40} lease {:<8} {kills} kills: mean {mean:.2} s, min {min:.2} s, max {max:.2} s",
            match host {
                Host::This => "killed worker on this host",
                Host::Another => "killed worker on another host",
            },
            lease.unwrap_or("default"),
        );
    }
}

/// One kill: seconds from SIGKILL until the rated prefix passes the
/// matches the killed worker held.
fn killed_worker_holds_up(cluster: &Cluster, dir: &Path, host: Host, lease: Option<&str>) -> f64 {
    let db = cluster.create_database();
    submit_bots(dir, &db);
    // 1800 matches: the live worker is still busy with the others when the
    // killed one's come back (on one host, an idle worker would find them at
    // once, as it looks for dead siblings when it finds nothing to claim).
    let mut args = vec![
        "ladder",
        "create",
        "--game",
        "planet-wars",
        "--rounds",
        "300",
    ];
    args.extend(["--seed", "1", "--db", &db]);
    run(&args, dir);
    let mut worker = vec!["worker", "--ladder", "1", "--threads", "1", "--db", &db];
    if let Some(lease) = lease {
        worker.extend(["--lease", lease]);
    }
    let spawn = || {
        ludus_cmd(&worker, dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    let (mut live, mut victim) = (spawn(), spawn());
    let watcher = Store::connect_existing(&Location::parse(&db)).unwrap();
    let id = watcher.ladders().latest(None).unwrap().expect("a ladder");
    let victim_id = loop {
        let found = cluster.psql(
            &db,
            &format!(
                "SELECT w.id FROM workers w WHERE w.pid = {} AND w.played >= 20
                   AND EXISTS (SELECT 1 FROM matches m WHERE m.lease_owner = w.id AND m.done = 0)",
                victim.id()
            ),
        );
        if !found.is_empty() {
            break found;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    if let Host::Another = host {
        cluster.psql(
            &db,
            &format!("UPDATE workers SET host = 'another-host' WHERE id = {victim_id}"),
        );
    }
    victim.kill().unwrap();
    let killed = Instant::now();
    victim.wait().unwrap();
    let held: u32 = cluster
        .psql(
            &db,
            &format!("SELECT max(idx) FROM matches WHERE lease_owner = {victim_id} AND done = 0"),
        )
        .parse()
        .expect("the killed worker held a match");
    while watcher.ladders().get(id).unwrap().rated_through <= held {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let secs = killed.elapsed().as_secs_f64();
    let _ = live.kill();
    let _ = live.wait();
    secs
}
