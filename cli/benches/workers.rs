//! Matches per second of one ladder played by real `ludus` processes: one
//! `ladder run` on SQLite, and 1, 2 and 4 `ludus worker` processes on
//! PostgreSQL, on the machine this runs on.
//!
//! `cargo bench -p ludus-cli --bench workers`
//!
//! The ladder is a round robin of the three Planet Wars example bots over
//! full-length games; PostgreSQL is a throw-away cluster with the server's
//! default durability, started by the benchmark. Each figure is the time
//! from the workers' start to the last result, process start-up included
//! (the bots' compiled modules are cached by a warm-up run first).

use ludus_leaderboard::store::{Location, Store};
use ludus_testkit::postgres::{Cluster, Durability};
use std::path::Path;
use std::process::{Command, Stdio};
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
    let cache = tempfile::tempdir().unwrap();
    let sqlite = |tag: &str| d.join(format!("{tag}.db")).display().to_string();

    // Warm the module cache: every process after this one loads the bots
    // compiled.
    ladder_run(d, cache.path(), &sqlite("warm-up"), 2);

    println!("one ladder, {MATCHES} full-length Planet Wars matches of the three example bots:");
    for threads in [1, 2] {
        let secs = ladder_run(d, cache.path(), &sqlite(&format!("run{threads}")), threads);
        report(&format!("SQLite, `ladder run --threads {threads}`"), secs);
    }
    for (workers, threads) in [(1, 1), (2, 1), (4, 1), (1, 2)] {
        let db = cluster.create_database();
        let secs = workers_on(d, cache.path(), &db, workers, threads);
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

fn ludus(args: &[&str], dir: &Path, cache: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ludus"));
    c.args(args)
        .current_dir(dir)
        .env("LUDUS_CACHE_DIR", cache)
        .env_remove("LUDUS_DB")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    c
}

fn run(args: &[&str], dir: &Path, cache: &Path) {
    let o = ludus(args, dir, cache).output().unwrap();
    assert!(
        o.status.success(),
        "ludus {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&o.stderr)
    );
}

fn submit_bots(dir: &Path, cache: &Path, db: &str) {
    for (file, name) in BOTS {
        let wasm = ludus_testkit::bot(file).display().to_string();
        run(
            &[
                "submit",
                &wasm,
                "--name",
                name,
                "--game",
                "planet-wars",
                "--db",
                db,
            ],
            dir,
            cache,
        );
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
fn ladder_run(dir: &Path, cache: &Path, db: &str, threads: usize) -> f64 {
    submit_bots(dir, cache, db);
    let threads = threads.to_string();
    let mut args = vec!["ladder", "run", "--threads", &threads];
    let rest = ladder_args(db);
    args.extend(rest.iter().map(String::as_str));
    let start = Instant::now();
    run(&args, dir, cache);
    let secs = start.elapsed().as_secs_f64();
    assert_eq!(results(db), MATCHES as usize);
    secs
}

/// Seconds for `workers` `ludus worker` processes to play the ladder once
/// its schedule is stored.
fn workers_on(dir: &Path, cache: &Path, db: &str, workers: usize, threads: usize) -> f64 {
    submit_bots(dir, cache, db);
    let mut args = vec!["ladder", "create"];
    let rest = ladder_args(db);
    args.extend(rest.iter().map(String::as_str));
    run(&args, dir, cache);
    let threads = threads.to_string();
    let worker = ["worker", "--ladder", "1", "--threads", &threads, "--db", db];
    let start = Instant::now();
    let children: Vec<_> = (0..workers)
        .map(|_| ludus(&worker, dir, cache).spawn().unwrap())
        .collect();
    for c in children {
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let secs = start.elapsed().as_secs_f64();
    assert_eq!(results(db), MATCHES as usize);
    secs
}

fn results(db: &str) -> usize {
    let store = Store::connect_existing(&Location::parse(db)).unwrap();
    let id = store.latest_ladder(None).unwrap().expect("a ladder");
    store.results(id).unwrap().len()
}
