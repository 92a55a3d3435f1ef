//! `ludus serve` measured from outside, as issue 17 asks:
//!
//! 1. the example bots' continuous ladder, played by the server's own
//!    workers (2 threads): matches per second with no request, then with
//!    `wrk` loading the leaderboard page, then its JSON API; then, with no
//!    worker, the requests per second of the page and the API alone;
//! 2. a store of 100 bots and 100 000 finished matches, made through the
//!    library (not played), served with no worker: the peak memory of the
//!    server (VmHWM) and the time of the bot, match and leaderboard pages;
//! 3. the leaderboard API under `wrk` at that size with one connection to
//!    the store and with the pool, on SQLite and on PostgreSQL, then two
//!    servers on one PostgreSQL database; and the time the scheduler takes
//!    to move to the surviving server after a `kill -9` of the one that
//!    holds it.
//!
//! `cargo bench -p ludus-cli --bench serve` (needs `wrk` on the PATH).
//! LUDUS_BENCH_SECONDS sets each load window (default 20),
//! LUDUS_BENCH_BOTS and LUDUS_BENCH_MATCHES the size of part 2.
//! LUDUS_BENCH_PARTS (default `1,2,3`) chooses the parts (3 needs 2).
//! LUDUS_BENCH_BASELINE=PATH also times part 2's pages with the `ludus`
//! at PATH, a build of schema 4 (before the pages' indexes), on a copy of
//! the same store taken back to schema 4.

#[path = "../../server/tests/support/synthetic.rs"]
mod synthetic;

#[path = "../tests/common/mod.rs"]
mod common;

use common::{env_or, scheduler_pid, Serving};
use ludus_leaderboard::store::{Location, Store};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// `ludus serve` of the binary `ludus` on `db`, on a loopback port.
fn start(ludus: &Path, db: &Path, args: &[&str]) -> Serving {
    let mut serve = Command::new(ludus);
    serve
        .args(["serve", "--listen", "127.0.0.1:0", "--db"])
        .arg(db)
        .args(args)
        .env("RUST_LOG", "warn");
    Serving::start(serve)
}

/// Peak and current resident memory, in MiB (VmHWM, VmRSS).
fn memory(serving: &Serving) -> (f64, f64) {
    let status = std::fs::read_to_string(format!("/proc/{}/status", serving.child.id())).unwrap();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
            .unwrap_or(f64::NAN)
            / 1024.0
    };
    (field("VmHWM:"), field("VmRSS:"))
}

fn get(url: &str) -> String {
    ureq::get(url)
        .call()
        .unwrap_or_else(|e| panic!("GET {url}: {e}"))
        .into_body()
        .read_to_string()
        .unwrap()
}

/// `wrk` on `url` for `seconds`: requests per second, mean latency, and
/// the answers that were not 2xx (none is expected).
fn wrk(url: &str, seconds: u64) -> String {
    let out = Command::new("wrk")
        .args(["-t2", "-c16", &format!("-d{seconds}s"), "--latency", url])
        .output()
        .expect("wrk runs (apt-get install wrk)");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let find = |prefix: &str| {
        text.lines()
            .find_map(|l| l.trim().strip_prefix(prefix).map(str::trim))
            .unwrap_or("-")
            .to_string()
    };
    let latency = find("Latency");
    let mean = latency.split_whitespace().next().unwrap_or("-");
    let p99 = find("99%");
    format!(
        "{} req/s, mean {mean}, p99 {p99}, non-2xx {}",
        find("Requests/sec:"),
        match find("Non-2xx or 3xx responses:").as_str() {
            "-" => "0".to_string(),
            n => n.to_string(),
        }
    )
}

/// Matches of the ladder with a result.
fn played(db: &Path) -> u32 {
    let store = Store::connect_existing(&Location::File(db.to_path_buf())).unwrap();
    match store.ladders().continuous("planet-wars").unwrap() {
        Some(id) => {
            store.ladders().schedule_len(id).unwrap() - store.queue().remaining(id).unwrap()
        }
        None => 0,
    }
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

fn ludus(args: &[&str], db: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(args)
        .arg("--db")
        .arg(db)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "ludus {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// Part 1; returns a replay of a played match, for part 2.
fn serving_the_example_ladder(dir: &Path, seconds: u64) -> Vec<u8> {
    let me = PathBuf::from(env!("CARGO_BIN_EXE_ludus"));
    let db = dir.join("example.db");
    let token = ludus(&["user", "add", "bench"], &db);
    let no_limit = ["--rate-limit", "1000000000"];
    let serving = start(&me, &db, &[&["--workers", "2"][..], &no_limit].concat());
    for name in ludus_testkit::example_bots("planet-wars") {
        let path = ludus_testkit::bot(&name);
        let out = Command::new(&me)
            .args(["submit"])
            .arg(&path)
            .args(["--name", &name, "--game", "planet-wars", "--server"])
            .args([&serving.url, "--token", &token])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // Placement series first: the ladder's steady state is after them.
    let warm = Instant::now();
    while played(&db) < 30 {
        assert!(warm.elapsed() < Duration::from_secs(120), "no match played");
        std::thread::sleep(Duration::from_millis(500));
    }
    let page = format!("{}/games/planet-wars", serving.url);
    let api = format!("{}/api/games/planet-wars/leaderboard", serving.url);
    let window = |what: &str, load: Option<&str>| {
        let (n0, t0) = (played(&db), Instant::now());
        let rps = match load {
            Some(url) => wrk(url, seconds),
            None => {
                std::thread::sleep(Duration::from_secs(seconds));
                "-".to_string()
            }
        };
        let rate = f64::from(played(&db) - n0) / t0.elapsed().as_secs_f64();
        println!(
            "workers 2, {what:<22} {rate:6.1} matches/s; requests: {rps}; load {}",
            load_average()
        );
    };
    window("no request", None);
    window("leaderboard page load", Some(&page));
    window("leaderboard API load", Some(&api));
    let (hwm, rss) = memory(&serving);
    println!("workers 2: peak RSS {hwm:.0} MiB, RSS {rss:.0} MiB");
    drop(serving);

    let serving = start(&me, &db, &[&["--workers", "0"][..], &no_limit].concat());
    let page = format!("{}/games/planet-wars", serving.url);
    let api = format!("{}/api/games/planet-wars/leaderboard", serving.url);
    let scheduled =
        serde_json::from_str::<serde_json::Value>(&get(&api)).unwrap()["scheduled"].clone();
    println!("workers 0, {scheduled} scheduled matches:");
    println!(
        "  leaderboard page: {}; load {}",
        wrk(&page, seconds),
        load_average()
    );
    println!(
        "  leaderboard API:  {}; load {}",
        wrk(&api, seconds),
        load_average()
    );
    drop(serving);

    let store = Store::connect_existing(&Location::File(db)).unwrap();
    let id = store.ladders().continuous("planet-wars").unwrap().unwrap();
    let first = &store.results().all(id).unwrap()[0];
    store.results().replay(&first.match_id).unwrap().unwrap()
}

/// Sequential GETs of `url`: median and slowest, in ms.
fn timed(url: &str, n: usize) -> String {
    let mut ms: Vec<f64> = (0..n)
        .map(|_| {
            let t = Instant::now();
            get(url);
            t.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    ms.sort_by(f64::total_cmp);
    format!("median {:8.2} ms, max {:8.2} ms", ms[n / 2], ms[n - 1])
}

/// Part 2 against the server `ludus` on `db`.
fn pages_at_size(ludus: &Path, db: &Path, args: &[&str], match_id: &str, seconds: u64) {
    let serving = start(ludus, db, args);
    let (hwm, _) = memory(&serving);
    println!("  started: peak RSS {hwm:.0} MiB");
    let base = &serving.url;
    for (what, path) in [
        ("bot page", "/bots/bot-042".to_string()),
        ("bot API", "/api/bots/bot-042".to_string()),
        ("match page", format!("/matches/{match_id}")),
        ("match API", format!("/api/matches/{}", &match_id[..16])),
        ("leaderboard page", "/games/planet-wars".to_string()),
        (
            "leaderboard API",
            "/api/games/planet-wars/leaderboard".to_string(),
        ),
    ] {
        println!("  {what:<17} {}", timed(&format!("{base}{path}"), 10));
    }
    if args.contains(&"--rate-limit") {
        for path in ["/games/planet-wars", "/api/games/planet-wars/leaderboard"] {
            println!(
                "  wrk {path}: {}; load {}",
                wrk(&format!("{base}{path}"), seconds),
                load_average()
            );
        }
    }
    let (hwm, rss) = memory(&serving);
    println!("  after the pages: peak RSS {hwm:.0} MiB, RSS {rss:.0} MiB");
}

/// Takes a copy of the store back to schema 4: the tables, index and
/// column of schema 5 dropped, nothing else changed.
fn schema_4_copy(db: &Path, to: &Path) {
    std::fs::copy(db, to).unwrap();
    rusqlite::Connection::open(to)
        .unwrap()
        .execute_batch(
            "DROP TABLE match_seats; DROP INDEX results_by_match;
             ALTER TABLE ladder_bots DROP COLUMN rated_matches;
             ALTER TABLE ladder_bots DROP COLUMN scheduled_matches;
             DELETE FROM ludus_schema_history WHERE version = 5;
             PRAGMA user_version = 4;",
        )
        .unwrap();
}

const LEADERBOARD_API: &str = "/api/games/planet-wars/leaderboard";

/// `wrk` on the leaderboard API of several servers at once, one `wrk` each
/// (one thread, 16 connections): their answers, one line each.
fn wrk_all(servers: &[&Serving], seconds: u64) -> Vec<String> {
    let runs: Vec<_> = servers
        .iter()
        .map(|s| {
            let url = format!("{}{LEADERBOARD_API}", s.url);
            std::thread::spawn(move || wrk(&url, seconds))
        })
        .collect();
    runs.into_iter().map(|r| r.join().unwrap()).collect()
}

/// Part 3: the pool against one connection, two servers on one database,
/// and the scheduler's move after a `kill -9`.
fn scale_out(
    me: &Path,
    sqlite: &Path,
    wasm: &[u8],
    bots: usize,
    matches: u32,
    replay: &[u8],
    seconds: u64,
) {
    let no_limit = ["--workers", "0", "--rate-limit", "1000000000"];
    let with = |connections: &'static str| {
        let mut a = no_limit.to_vec();
        a.extend(["--db-connections", connections]);
        a
    };
    for connections in ["1", "8"] {
        let s = start(me, sqlite, &with(connections));
        println!(
            "SQLite, one server, {connections} connections: {}; load {}",
            wrk_all(&[&s], seconds)[0],
            load_average()
        );
    }
    let cluster =
        ludus_testkit::postgres::Cluster::start(ludus_testkit::postgres::Durability::Scratch)
            .expect("a PostgreSQL cluster starts");
    let url = cluster.create_database();
    let t = Instant::now();
    let mut store = Store::connect(&Location::Postgres(url.clone())).unwrap();
    synthetic::populate(&mut store, wasm, bots, matches, replay);
    drop(store);
    println!(
        "PostgreSQL: {bots} bots, {matches} matches stored in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    let pg = Path::new(&url);
    for connections in ["1", "8"] {
        let s = start(me, pg, &with(connections));
        println!(
            "PostgreSQL, one server, {connections} connections: {}; load {}",
            wrk_all(&[&s], seconds)[0],
            load_average()
        );
    }
    let mut servers: Vec<Serving> = (0..2).map(|_| start(me, pg, &with("8"))).collect();
    for (i, line) in wrk_all(&[&servers[0], &servers[1]], seconds)
        .iter()
        .enumerate()
    {
        println!("PostgreSQL, two servers, 8 connections each: server {i}: {line}");
    }
    println!("  load {}", load_average());
    // The scheduler's move: kill -9 of its holder, five times, a new server
    // started in its place each time.
    let mut moves = Vec::new();
    for _ in 0..5 {
        let holder = loop {
            if let Some(pid) = scheduler_pid(&cluster, &url) {
                break pid;
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let k = servers
            .iter()
            .position(|s| s.child.id() == holder)
            .expect("one of the two servers schedules");
        let mut killed = servers.remove(k);
        let survivor = servers[0].child.id();
        killed.child.kill().unwrap();
        killed.child.wait().unwrap();
        let t = Instant::now();
        while scheduler_pid(&cluster, &url) != Some(survivor) {
            assert!(t.elapsed() < Duration::from_secs(60), "no server took over");
            std::thread::sleep(Duration::from_millis(10));
        }
        moves.push(t.elapsed().as_secs_f64() * 1000.0);
        servers.push(start(me, pg, &with("8")));
    }
    moves.sort_by(f64::total_cmp);
    println!(
        "the scheduler moved to the surviving server after kill -9 in {:.0} ms (median of 5; all: {:?})",
        moves[2],
        moves.iter().map(|m| m.round()).collect::<Vec<_>>()
    );
}

fn main() {
    // `cargo bench` passes `--bench`; this harness has no options of its own.
    let seconds: u64 = env_or("LUDUS_BENCH_SECONDS", 20);
    let bots: usize = env_or("LUDUS_BENCH_BOTS", 100);
    let matches: u32 = env_or("LUDUS_BENCH_MATCHES", 100_000);
    let parts: String = env_or("LUDUS_BENCH_PARTS", "1,2,3".to_string());
    let part = |n: &str| parts.split(',').any(|p| p.trim() == n);
    let dir = tempfile::tempdir().unwrap();
    println!("# ludus serve, load {}", load_average());
    let replay = if part("1") {
        serving_the_example_ladder(dir.path(), seconds)
    } else {
        ludus_host::gzip(b"{}")
    };

    let db = dir.path().join("large.db");
    let t = Instant::now();
    let wasm = std::fs::read(ludus_testkit::bot(
        &ludus_testkit::example_bots("planet-wars")[0],
    ))
    .unwrap();
    let mut store = Store::connect(&Location::File(db.clone())).unwrap();
    let (ladder, _) = synthetic::populate(&mut store, &wasm, bots, matches, &replay);
    drop(store);
    let size = std::fs::metadata(&db).unwrap().len() as f64 / (1 << 20) as f64;
    println!(
        "{bots} bots, {matches} matches stored in {:.1} s ({size:.0} MiB); load {}",
        t.elapsed().as_secs_f64(),
        load_average()
    );
    // A match in the middle of the schedule.
    let match_id = ludus_host::sha256_hex(format!("synthetic/{ladder}/{}", matches / 2).as_bytes());
    let me = PathBuf::from(env!("CARGO_BIN_EXE_ludus"));
    if part("2") {
        println!("this build, workers 0:");
        pages_at_size(
            &me,
            &db,
            &["--workers", "0", "--rate-limit", "1000000000"],
            &match_id,
            seconds,
        );
    }
    if part("3") {
        scale_out(&me, &db, &wasm, bots, matches, &replay, seconds);
    }
    if let Ok(baseline) = std::env::var("LUDUS_BENCH_BASELINE") {
        let old = dir.path().join("schema4.db");
        schema_4_copy(&db, &old);
        println!("baseline {baseline} (schema 4), workers 0:");
        pages_at_size(
            Path::new(&baseline),
            &old,
            &["--workers", "0"],
            &match_id,
            seconds,
        );
    }
    println!("# done, load {}", load_average());
}
