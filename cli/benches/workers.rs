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
    // looks again only every two seconds (the default lease's poll).
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
