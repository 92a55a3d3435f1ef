//! Ladders played by several processes: real `ludus` processes on a SQLite
//! file and on a throw-away PostgreSQL cluster started by this test process.
//! However the work is spread (one process, several, one of them killed),
//! the results and the leaderboard are the same.

mod common;

use common::*;
use ludus_leaderboard::store::{Location, MatchResult, Store};
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// Short Planet Wars matches: the rules are the same, the games shorter.
const CONFIG: &str = r#"{"max_turns": 80}"#;
const ROUNDS: &str = "4";
/// Three bots, a round robin of game pairs: 6 matches a round.
const TOTAL: usize = 4 * 6;

fn ladder_options(db: &str) -> Vec<&str> {
    vec![
        "--game",
        "planet-wars",
        "--rounds",
        ROUNDS,
        "--seed",
        "11",
        "--config",
        CONFIG,
        "--db",
        db,
    ]
}

fn submit_three(dir: &Path, db: &str) {
    for (file, name) in [
        ("planet_wars_expander", "expander"),
        ("planet_wars_random", "random"),
        ("planet_wars_idle", "idle"),
    ] {
        submit_to(dir, db, file, name);
    }
}

/// The three bots submitted to `db`, and the ladder played there by one
/// `ladder run` of two threads.
fn one_process(dir: &Path, db: &str) {
    submit_three(dir, db);
    let mut run = vec!["ladder", "run", "--threads", "2"];
    run.extend(ladder_options(db));
    let o = ludus(&run, dir);
    assert!(o.status.success(), "{}", text(&o));
}

/// What must be the same however the ladder was played: its result rows
/// and its leaderboard as JSON.
fn outcome(dir: &Path, db: &str) -> (Vec<MatchResult>, String) {
    let store = Store::connect_existing(&Location::parse(db)).unwrap();
    let id = store.ladders().latest(None).unwrap().expect("a ladder");
    let results = store.results().all(id).unwrap();
    let o = ludus(&["leaderboard", "--format", "json", "--db", db], dir);
    assert!(o.status.success(), "{}", text(&o));
    (results, String::from_utf8(o.stdout).unwrap())
}

fn results_in(db: &str) -> usize {
    let store = Store::connect_existing(&Location::parse(db)).unwrap();
    match store.ladders().latest(None).unwrap() {
        Some(id) => store.results().all(id).unwrap().len(),
        None => 0,
    }
}

fn spawn(args: &[&str], dir: &Path) -> Child {
    ludus_cmd(args, dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn finish(child: Child) -> String {
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    text(&o)
}

/// One process on SQLite, one process on PostgreSQL, and three `ludus
/// worker` processes on PostgreSQL (storing no replay) with one killed
/// with SIGKILL mid-way give identical result rows and leaderboards.
#[test]
fn one_ladder_gives_the_same_results_on_sqlite_postgres_and_three_workers_one_killed() {
    let cluster = ludus_testkit::postgres::shared();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();

    let sqlite = d.join("ludus.db").display().to_string();
    one_process(d, &sqlite);
    let on_sqlite = outcome(d, &sqlite);
    assert_eq!(on_sqlite.0.len(), TOTAL);

    let one = cluster.create_database();
    one_process(d, &one);
    assert_eq!(outcome(d, &one), on_sqlite, "one process on PostgreSQL");

    // The workers store no replay: they send each result with its
    // replay's sha256 alone, and the results are the same.
    let three = cluster.create_database();
    submit_three(d, &three);
    let mut create = vec!["ladder", "create", "--keep-replays", "none"];
    create.extend(ladder_options(&three));
    let o = ludus(&create, d);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains(&format!("{TOTAL} matches")),
        "{}",
        text(&o)
    );
    let worker = [
        "worker",
        "--ladder",
        "1",
        "--threads",
        "1",
        "--lease",
        "2s",
        "--db",
        &three,
    ];
    let mut workers: Vec<Child> = (0..3).map(|_| spawn(&worker, d)).collect();
    let start = Instant::now();
    while results_in(&three) < 4 {
        assert!(start.elapsed() < Duration::from_secs(120), "no progress");
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut killed = workers.remove(1);
    killed.kill().unwrap(); // SIGKILL, mid-match
    killed.wait().unwrap();
    for w in workers {
        let t = finish(w);
        assert!(t.contains("stops: it played"), "{t}");
    }
    assert_eq!(
        outcome(d, &three),
        on_sqlite,
        "three workers, one killed, on PostgreSQL"
    );
    let played = cluster.psql(&three, "SELECT sum(played) FROM workers");
    assert_eq!(played, TOTAL.to_string(), "every match committed once");
    assert_eq!(cluster.psql(&three, "SELECT count(*) FROM replays"), "0");
    // Any of them is played again on request, and checked.
    let id = ludus_host::short_id(&on_sqlite.0[TOTAL - 1].match_id).to_string();
    let o = ludus(&["replay", "verify", &id, "--db", &three], d);
    assert!(
        o.status.success() && text(&o).contains("re-ran identically"),
        "{}",
        text(&o)
    );
}

/// Two `ladder run`s of one ladder on one SQLite file share the work: both
/// play, and no match is played twice.
#[test]
fn two_ladder_runs_on_one_sqlite_file_share_the_work_without_a_duplicate() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("ludus.db").display().to_string();
    submit_three(d, &db);
    let mut run = vec!["ladder", "run", "--threads", "1"];
    run.extend(ladder_options(&db));
    let first = spawn(&run, d);
    let second = spawn(&run, d);
    let (a, b) = (finish(first), finish(second));
    for t in [&a, &b] {
        assert!(t.contains("expander"), "each prints the leaderboard: {t}");
    }
    let c = rusqlite::Connection::open(&db).unwrap();
    let played: Vec<i64> = c
        .prepare("SELECT played FROM workers ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(played.len(), 2, "two workers");
    assert!(played.iter().all(|&n| n > 0), "both played: {played:?}");
    assert_eq!(played.iter().sum::<i64>(), TOTAL as i64, "none twice");
    let rows: i64 = c
        .query_row("SELECT count(*) FROM results", [], |r| r.get(0))
        .unwrap();
    assert_eq!(rows, TOTAL as i64);
}

/// `ladder status` reads a ladder's progress and its workers from the database.
#[test]
fn ladder_status_shows_done_matches_and_the_workers() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("ludus.db").display().to_string();
    one_process(d, &db);
    let o = ludus(&["ladder", "status", "--db", &db], d);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    for needle in [
        format!("{TOTAL} matches"),
        format!("matches   {TOTAL} done (0 void), 0 leased, 0 pending"),
        "finished".into(),
        format!("ratings   cover matches 0 to {}", TOTAL - 1),
        "workers   0 live, 1 in all".into(),
        "stopped".into(),
    ] {
        assert!(t.contains(&needle), "`{needle}` is not in:\n{t}");
    }
}

/// `ladder run` and `worker` draw a progress bar when their output is a
/// terminal, and write plain log lines when it is not.
#[test]
fn progress_is_a_bar_on_a_terminal_and_log_lines_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let bar = |out: &str, what: &str| {
        assert!(
            out.contains(&format!("/{TOTAL} matches")) && out.contains('\u{1b}'),
            "{what} on a terminal draws a bar: {out:?}"
        );
        assert!(
            !out.contains("matches done"),
            "{what} on a terminal writes no log lines: {out:?}"
        );
    };

    let tty = d.join("tty.db").display().to_string();
    submit_three(d, &tty);
    let mut run = vec!["ladder", "run", "--threads", "2"];
    run.extend(ladder_options(&tty));
    bar(&on_terminal(&run, d), "ladder run");

    let worker_tty = d.join("worker.db").display().to_string();
    submit_three(d, &worker_tty);
    let mut create = vec!["ladder", "create"];
    create.extend(ladder_options(&worker_tty));
    let o = ludus(&create, d);
    assert!(o.status.success(), "{}", text(&o));
    let worker = ["worker", "--ladder", "1", "--db", &worker_tty];
    bar(&on_terminal(&worker, d), "worker");

    let piped = d.join("piped.db").display().to_string();
    submit_three(d, &piped);
    let mut run = vec!["ladder", "run", "--threads", "2"];
    run.extend(ladder_options(&piped));
    let o = ludus(&run, d);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains(&format!("ladder 1: {TOTAL}/{TOTAL} matches done")),
        "a pipe gets log lines: {err}"
    );
    assert!(!err.contains('\u{1b}'), "and no escape codes: {err:?}");
}

/// A bot that answers at once through its validation (30 turns), then
/// spends about 240 million fuel, under a third of its budget, on every
/// turn: a slow bot's match lasts seconds, long enough to be caught in play.
const SLOW_AFTER_VALIDATION: &str = r#"(module
  (memory (export "memory") 1)
  (global $calls (mut i32) (i32.const 0))
  (data (i32.const 16) "{\"moves\":[]}")
  (func (export "ludus_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "act") (param i32 i32) (result i64)
    (local $i i32)
    (global.set $calls (i32.add (global.get $calls) (i32.const 1)))
    (if (i32.gt_u (global.get $calls) (i32.const 30))
      (then
        (local.set $i (i32.const 40000000))
        (loop $spin
          (local.set $i (i32.sub (local.get $i) (i32.const 1)))
          (br_if $spin (local.get $i)))))
    (i64.or (i64.shl (i64.const 16) (i64.const 32)) (i64.const 12))))"#;

/// Submits [`SLOW_AFTER_VALIDATION`] as `slow` to the Planet Wars bots of
/// `db`.
fn submit_slow(dir: &Path, db: &str) {
    let slow = dir.join("slow.wasm");
    std::fs::write(&slow, wat::parse_str(SLOW_AFTER_VALIDATION).unwrap()).unwrap();
    let o = ludus(
        &[
            "submit",
            slow.to_str().unwrap(),
            "--name",
            "slow",
            "--game",
            "planet-wars",
            "--db",
            db,
        ],
        dir,
    );
    assert!(o.status.success(), "{}", text(&o));
}

/// SIGTERM to a `ludus worker` in the middle of a slow bot's match: it
/// stops between two answers, commits nothing of that match and gives it
/// back to the queue without spending an attempt; the results it had
/// finished stay. A second worker then plays the match from its start, and
/// the ladder ends with the results of a run nobody stopped.
#[test]
fn a_worker_stopped_by_sigterm_releases_the_match_in_play_and_keeps_finished_results() {
    stopped_by_sigterm(Stopped::Worker);
}

/// The same for `ludus ladder run`: it says where the ladder stands and how
/// to resume, exits with an error (the ladder is not done), and the same
/// command run again finishes it as if nobody had stopped it.
#[test]
fn a_ladder_run_stopped_by_sigterm_releases_the_match_in_play_and_resumes() {
    stopped_by_sigterm(Stopped::LadderRun);
}

/// The options of the slow bot's ladder: two matches of 80 turns.
fn slow_ladder(db: &str) -> [&str; 10] {
    [
        "--game",
        "planet-wars",
        "--rounds",
        "1",
        "--seed",
        "5",
        "--config",
        r#"{"max_turns": 80}"#,
        "--db",
        db,
    ]
}

/// Which command SIGTERM stops.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stopped {
    Worker,
    LadderRun,
}

fn stopped_by_sigterm(which: Stopped) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let ladder = |db: &str, command: &[&str]| {
        submit_slow(d, db);
        submit_to(d, db, "planet_wars_idle", "idle");
        let mut args = command.to_vec();
        args.extend(slow_ladder(db));
        let o = ludus(&args, d);
        assert!(o.status.success(), "{}", text(&o));
    };
    let uninterrupted = d.join("uninterrupted.db").display().to_string();
    ladder(&uninterrupted, &["ladder", "run", "--threads", "1"]);
    let reference = outcome(d, &uninterrupted);
    assert_eq!(reference.0.len(), 2, "{:?}", reference.0);

    let db = d.join("ludus.db").display().to_string();
    ladder(&db, &["ladder", "create"]);
    let worker = ["worker", "--ladder", "1", "--threads", "1", "--db", &db];
    let mut run = vec!["ladder", "run", "--threads", "1"];
    run.extend(slow_ladder(&db));
    let command: &[&str] = match which {
        Stopped::Worker => &worker,
        Stopped::LadderRun => &run,
    };
    let mut first = spawn(command, d);
    let start = Instant::now();
    while results_in(&db) < 1 {
        assert!(start.elapsed() < Duration::from_secs(60), "no progress");
        std::thread::sleep(Duration::from_millis(20));
    }
    let sql = rusqlite::Connection::open(&db).unwrap();
    let in_play = |sql: &rusqlite::Connection| -> Vec<(i64, i64, bool)> {
        sql.prepare("SELECT idx, attempts, lease_owner IS NOT NULL FROM matches WHERE done = 0")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    // The second match has started (once claimed, so one attempt) and is
    // seconds from its end.
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(in_play(&sql), [(1, 1, true)]);
    let stopping = Instant::now();
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &first.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = loop {
        if let Some(status) = first.try_wait().unwrap() {
            break status;
        }
        assert!(
            stopping.elapsed() < Duration::from_secs(10),
            "the worker did not stop"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let stopped_in = stopping.elapsed();
    let t = text(&first.wait_with_output().unwrap());
    assert!(
        t.contains("stopping: the matches in play go back to the queue"),
        "{t}"
    );
    match which {
        Stopped::Worker => {
            assert!(status.success(), "{t}");
            assert!(t.contains("stops: it played 1 match"), "{t}");
        }
        Stopped::LadderRun => {
            assert_eq!(status.code(), Some(1), "{t}");
            assert!(
                t.contains("stopped before the ladder's end: 1 of 2 matches played")
                    && t.contains("run the same command again to resume"),
                "{t}"
            );
        }
    }
    eprintln!("stopped {stopped_in:?} after SIGTERM");
    // Not finished, not leased, its attempt given back; the finished one
    // kept as the uninterrupted run has it.
    assert_eq!(in_play(&sql), [(1, 0, false)]);
    let kept = outcome(d, &db).0;
    assert_eq!(kept[..], reference.0[..1]);

    let t = finish(spawn(command, d));
    match which {
        Stopped::Worker => assert!(t.contains("stops: it played 1 match"), "{t}"),
        Stopped::LadderRun => assert!(t.contains("resuming: 1 of 2 matches already played"), "{t}"),
    }
    assert_eq!(
        outcome(d, &db),
        reference,
        "the interrupted match, played again, is the one nobody stopped"
    );
}

/// The state `ludus ladder status` shows for worker `id` (the last column
/// of its line in the workers' table).
fn worker_state(dir: &Path, db: &str, id: &str) -> String {
    let o = ludus(&["ladder", "status", "--db", db], dir);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    let line = t
        .lines()
        .find(|l| l.split_whitespace().next() == Some(id))
        .unwrap_or_else(|| panic!("no line of worker {id} in:\n{t}"));
    // After the columns worker, host, pid, threads, played, "1m 2s ago".
    let (_, state) = line.split_once(" ago ").expect("a last-seen column");
    state.trim().to_string()
}

/// Three `ludus worker`s of one host on PostgreSQL, with the default lease
/// (5 s, a heartbeat a second). One is killed with SIGKILL, one frozen
/// (SIGSTOP: its process stays, its heartbeats stop), one plays on and is
/// never idle. Without any new worker starting, the live one finds the
/// killed one's process gone at one of its heartbeats and releases its
/// matches within seconds; `ladder status` shows the killed one gone (not
/// stopped) and the frozen one gone from its missed heartbeats, long
/// before its lease would have ended under the old one-minute default.
#[test]
fn a_live_worker_releases_a_killed_siblings_matches_within_seconds_and_status_shows_both_gone() {
    let cluster = ludus_testkit::postgres::shared();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = cluster.create_database();
    submit_slow(d, &db);
    submit_to(d, &db, "planet_wars_idle", "idle");
    // Sixteen matches of ten slow turns each (about half a second): each
    // worker holds two, so ten wait and the live worker finds one to claim
    // each time for seconds after the kill: it is not an idle worker
    // looking for work (which looks for dead siblings too).
    let o = ludus(
        &[
            "ladder",
            "create",
            "--game",
            "planet-wars",
            "--rounds",
            "8",
            "--seed",
            "5",
            "--config",
            r#"{"max_turns": 40}"#,
            "--db",
            &db,
        ],
        d,
    );
    assert!(o.status.success(), "{}", text(&o));
    let worker = ["worker", "--ladder", "1", "--threads", "1", "--db", &db];
    let (mut killed, live, mut frozen) = (spawn(&worker, d), spawn(&worker, d), spawn(&worker, d));
    let id_of = |child: &Child| {
        cluster.psql(
            &db,
            &format!("SELECT id FROM workers WHERE pid = {}", child.id()),
        )
    };
    let leases_of = |id: &str| -> usize {
        cluster
            .psql(
                &db,
                &format!("SELECT count(*) FROM matches WHERE lease_owner = {id} AND done = 0"),
            )
            .parse()
            .unwrap()
    };
    let start = Instant::now();
    let (k, l, f) = loop {
        let ids = (id_of(&killed), id_of(&live), id_of(&frozen));
        if [&ids.0, &ids.1, &ids.2]
            .iter()
            .all(|id| !id.is_empty() && leases_of(id) > 0)
        {
            break ids;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the three workers did not all claim"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let signal = |child: &Child, signal: &str| {
        let ok = std::process::Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(ok.success());
    };
    // Frozen first, so that what the killed one holds is known; then killed.
    signal(&killed, "-STOP");
    signal(&frozen, "-STOP");
    let silent = Instant::now();
    let held = leases_of(&k);
    assert!(held > 0);
    killed.kill().unwrap();
    killed.wait().unwrap();
    let released = loop {
        let stopped = cluster.psql(&db, &format!("SELECT stopped FROM workers WHERE id = {k}"));
        if stopped == "2" && leases_of(&k) == 0 {
            break silent.elapsed();
        }
        assert_eq!(stopped, "0", "only found dead is right for a killed worker");
        assert!(
            silent.elapsed() < Duration::from_secs(6),
            "the killed worker's {held} matches were not released within 6 s"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    eprintln!("{held} matches of the killed worker released {released:?} after it fell silent");
    assert_eq!(worker_state(d, &db, &k), "gone (process ended)");
    assert_eq!(worker_state(d, &db, &l), "live");
    // The frozen one: gone two heartbeats after it fell silent.
    let gone = loop {
        let state = worker_state(d, &db, &f);
        if state == "gone (no heartbeat)" {
            break silent.elapsed();
        }
        assert_eq!(state, "live");
        assert!(
            silent.elapsed() < Duration::from_secs(5),
            "the frozen worker still shows live"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    eprintln!("the frozen worker shown gone {gone:?} after it fell silent");
    frozen.kill().unwrap();
    frozen.wait().unwrap();
    let t = finish(live);
    assert!(t.contains("stops: it played"), "{t}");
    assert_eq!(results_in(&db), 16);
    assert_eq!(cluster.psql(&db, "SELECT sum(played) FROM workers"), "16");
    assert_eq!(worker_state(d, &db, &l), "stopped");
    assert_eq!(worker_state(d, &db, &k), "gone (process ended)");
    assert!(worker_state(d, &db, &f).starts_with("gone"));
    let o = ludus(&["ladder", "status", "--db", &db], d);
    let t = text(&o);
    for needle in [
        "workers   0 live, 3 in all",
        "ratings   cover matches 0 to 15",
    ] {
        assert!(t.contains(needle), "`{needle}` is not in:\n{t}");
    }
    assert_eq!(
        cluster.psql(&db, "SELECT count(*) FROM workers WHERE stopped = 1"),
        "1",
        "only the worker that finished stopped itself"
    );
}

/// The PostgreSQL backup of `docs/distributed.md`: `pg_dump` of a database
/// a ladder is being played on, restored with `pg_restore` into a new
/// database, which is whole: a Ludus database whose ratings are those of
/// its results.
#[test]
fn a_pg_dump_taken_while_a_ladder_plays_restores_to_a_consistent_database() {
    let cluster = ludus_testkit::postgres::shared();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = cluster.create_database();
    submit_planet_wars_examples(d, &db);
    let mut run = spawn(
        &[
            "ladder",
            "run",
            "--game",
            "planet-wars",
            "--config",
            CONFIG,
            "--rounds",
            "20",
            "--threads",
            "1",
            "--db",
            &db,
        ],
        d,
    );
    // Under way: some results in, most to come.
    let start = Instant::now();
    while results_in(&db) < 5 {
        assert!(start.elapsed() < Duration::from_secs(120), "no progress");
        std::thread::sleep(Duration::from_millis(20));
    }
    let dump = d.join("ludus.dump");
    let o = std::process::Command::new(cluster.program("pg_dump"))
        .args(["--format=custom", "--file"])
        .arg(&dump)
        .arg(&db)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let restored = cluster.create_database();
    let o = std::process::Command::new(cluster.program("pg_restore"))
        .args(["--no-owner", "--dbname", &restored])
        .arg(&dump)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    // The run is not needed any more: the backup was taken under it.
    let _ = run.kill();
    let _ = run.wait();
    let copied = results_in(&restored);
    assert!((5..120).contains(&copied), "{copied} results in the copy");
    let o = ludus(&["ladder", "recompute", "--db", &restored], d);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("bit for bit"), "{}", text(&o));
    let o = ludus(&["ladder", "status", "--db", &restored], d);
    assert!(o.status.success(), "{}", text(&o));
}

/// A ladder of twelve matches a round that takes seconds to play: the
/// three bots and the slow one, `rounds` rounds of game pairs, 40 turns a
/// match (the slow bot is slow from its 31st turn on: its matches take a
/// second or two each); its matches.
fn seconds_long_ladder(dir: &Path, db: &str, rounds: usize) -> usize {
    submit_three(dir, db);
    submit_slow(dir, db);
    let o = ludus(
        &[
            "ladder",
            "create",
            "--game",
            "planet-wars",
            "--rounds",
            &rounds.to_string(),
            "--seed",
            "5",
            "--config",
            r#"{"max_turns": 40}"#,
            "--db",
            db,
        ],
        dir,
    );
    assert!(o.status.success(), "{}", text(&o));
    12 * rounds
}

/// A process frozen while it rates a ladder (SIGSTOP, a stalled VM) holds
/// the ladder's rating lock in an open transaction. The other workers must
/// play on: rating waits for the lock a moment at most, and is tried again
/// later; once the lock is free the ladder is rated, bit for bit as
/// recomputed. (Before, every worker waited on the lock as long as it was
/// held, and nothing was played anywhere.)
#[test]
fn workers_play_on_while_a_frozen_process_holds_the_rating_lock() {
    let cluster = ludus_testkit::postgres::shared();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = cluster.create_database();
    let total = seconds_long_ladder(d, &db, 1);
    // A session that took ladder 1's rating lock and then froze: its
    // transaction stays open until the test ends it.
    let mut frozen = std::process::Command::new(cluster.program("psql"))
        .args(["-X", "-q", "-v", "ON_ERROR_STOP=1", &db])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lock = format!(
        "BEGIN; SELECT pg_advisory_xact_lock({}, 1); SELECT 'held';\n",
        0x4C55 + 1
    );
    let mut stdin = frozen.stdin.take().unwrap();
    std::io::Write::write_all(&mut stdin, lock.as_bytes()).unwrap();
    let start = Instant::now();
    while cluster.psql(
        &db,
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted",
    ) != "1"
    {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the lock is taken"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let worker = spawn(
        &["worker", "--ladder", "1", "--threads", "2", "--db", &db],
        d,
    );
    let start = Instant::now();
    while results_in(&db) < total {
        assert!(
            start.elapsed() < Duration::from_secs(90),
            "the workers stopped playing behind the rating lock: {} of {total} results",
            results_in(&db)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        cluster.psql(&db, "SELECT rated_through FROM ladders WHERE id = 1"),
        "0",
        "nothing is rated while the lock is held"
    );
    // The frozen process wakes and ends its transaction: the worker rates
    // the ladder and stops.
    std::io::Write::write_all(&mut stdin, b"COMMIT;\n").unwrap();
    drop(stdin);
    frozen.wait().unwrap();
    let t = finish(worker);
    assert!(t.contains("stops: it played 12 matches"), "{t}");
    assert_eq!(
        cluster.psql(&db, "SELECT rated_through FROM ladders WHERE id = 1"),
        total.to_string()
    );
    let o = ludus(&["ladder", "recompute", "--ladder", "1", "--db", &db], d);
    assert!(
        o.status.success() && text(&o).contains("bit for bit"),
        "{}",
        text(&o)
    );
}

/// Results of the latest ladder of `db`, or `None` while the database
/// cannot be reached (it is restarting).
fn results_if_reachable(db: &str) -> Option<usize> {
    let store = Store::connect_existing(&Location::parse(db)).ok()?;
    let id = store.ladders().latest(None).ok()??;
    Some(store.results().all(id).ok()?.len())
}

/// Waits until the ladder of `db` has `more` results than `from`.
fn wait_for_results(db: &str, from: usize, more: usize) -> usize {
    let start = Instant::now();
    loop {
        if let Some(n) = results_if_reachable(db) {
            if n >= from + more {
                return n;
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no progress past {from} results"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// PostgreSQL restarted under a running `ludus worker`, fast and then
/// immediate (a crash): the worker waits for the database, connects again
/// and plays on; it does not exit, nor register again. The ladder ends
/// with every result once and its ratings as recomputed, bit for bit.
#[test]
fn a_worker_rides_out_database_restarts_and_stays_one_worker() {
    use ludus_testkit::postgres::{Cluster, Durability, Shutdown};
    // A cluster of the test's own: the shared one serves other tests.
    let cluster = Cluster::start(Durability::Scratch).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = cluster.create_database();
    let total = seconds_long_ladder(d, &db, 1);
    let worker = spawn(
        &["worker", "--ladder", "1", "--threads", "1", "--db", &db],
        d,
    );
    let mut seen = wait_for_results(&db, 0, 1);
    let mut restarted_mid_ladder = 0;
    for how in [Shutdown::Fast, Shutdown::Immediate] {
        if seen < total {
            restarted_mid_ladder += 1;
        }
        cluster.restart(how).unwrap();
        // Played on after the restart (or had already finished).
        seen = wait_for_results(&db, seen, usize::from(seen < total));
    }
    assert!(
        restarted_mid_ladder > 0,
        "the database restarted while the worker played"
    );
    let t = finish(worker);
    assert!(t.contains("worker 1 stops"), "{t}");
    assert_eq!(results_if_reachable(&db), Some(total));
    assert_eq!(
        cluster.psql(&db, "SELECT count(*) || ' ' || min(stopped) FROM workers"),
        "1 1",
        "one worker, stopped by itself"
    );
    let o = ludus(&["ladder", "recompute", "--ladder", "1", "--db", &db], d);
    assert!(
        o.status.success() && text(&o).contains("bit for bit"),
        "{}",
        text(&o)
    );
}

/// Sends `signal` to every process of the cluster: the postmaster and its
/// children (the backends that serve open connections too).
fn signal_cluster(cluster: &ludus_testkit::postgres::Cluster, signal: &str) {
    let pid = cluster.pid().to_string();
    let _ = std::process::Command::new("pkill")
        .args([signal, "-P", &pid])
        .status();
    let _ = std::process::Command::new("kill")
        .args([signal, &pid])
        .status();
}

/// `ludus serve` without a worker on `db`, its log written to `log`,
/// once it listens.
fn serve_logging_to(db: &str, dir: &Path, log: &Path) -> Serving {
    let mut cmd = ludus_cmd(
        &[
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--workers",
            "0",
            "--db",
            db,
        ],
        dir,
    );
    cmd.stderr(std::fs::File::create(log).unwrap());
    Serving::start(cmd)
}

/// `/readyz` as a load balancer asks it: the status, and how long the
/// answer took.
fn readyz(url: &str) -> (u16, Duration) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(5)))
        .http_status_as_error(false)
        .build()
        .into();
    let start = Instant::now();
    let status = agent
        .get(&format!("{url}/readyz"))
        .call()
        .map(|r| r.status().as_u16())
        .unwrap_or(0);
    (status, start.elapsed())
}

/// The database stops answering (every PostgreSQL process frozen): the
/// server's `/readyz` says 503 within a second, as a load balancer's
/// health check expects, not after the pool's ten-second wait; the probes
/// are not logged as errors, and the outage is logged once an interval,
/// not once a failure. When the database answers again, so does `/readyz`.
#[test]
fn readyz_says_not_ready_within_a_second_of_the_database_freezing() {
    use ludus_testkit::postgres::{Cluster, Durability};
    let cluster = Cluster::start(Durability::Scratch).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = cluster.create_database();
    let log = d.join("serve.log");
    let mut server = serve_logging_to(&db, d, &log);
    assert_eq!(readyz(&server.url).0, 200);
    signal_cluster(&cluster, "-STOP");
    let mut answers = Vec::new();
    for _ in 0..6 {
        answers.push(readyz(&server.url));
    }
    signal_cluster(&cluster, "-CONT");
    for (status, took) in &answers {
        assert_eq!(*status, 503, "{answers:?}");
        assert!(*took < Duration::from_millis(1500), "{answers:?}");
    }
    let start = Instant::now();
    while readyz(&server.url).0 != 200 {
        assert!(start.elapsed() < Duration::from_secs(30), "ready again");
        std::thread::sleep(Duration::from_millis(100));
    }
    server.stop();
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(
        !logged
            .lines()
            .any(|l| l.contains("ERROR") && l.contains("readyz")),
        "a probe is not an error: {logged}"
    );
    let outage = logged
        .lines()
        .filter(|l| l.contains("WARN") && l.contains("database"))
        .count();
    assert!(outage <= 2, "the outage logged once an interval: {logged}");
}

/// A `ludus serve` started while its PostgreSQL is down (shutting down,
/// then gone for seconds, as in a restart) waits for it and comes up with
/// it, as a worker does, instead of exiting: a supervisor that starts the
/// server beside a restarting database does not need to try again.
#[test]
fn a_server_started_while_its_database_restarts_waits_for_it() {
    use ludus_testkit::postgres::{Cluster, Durability, Shutdown};
    let cluster = Cluster::start(Durability::Scratch).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = cluster.create_database();
    let log = d.join("serve.log");
    let down = Duration::from_secs(4);
    std::thread::scope(|s| {
        let restart = s.spawn(|| cluster.restart_after(Shutdown::Fast, down));
        // The server starts once the database refuses connections.
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", cluster.port())).is_ok() {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "the database stops"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        let started = Instant::now();
        let mut server = serve_logging_to(&db, d, &log);
        let waited = started.elapsed();
        restart.join().unwrap().unwrap();
        assert_eq!(readyz(&server.url).0, 200, "ready once it listens");
        let logged = std::fs::read_to_string(&log).unwrap();
        assert!(
            waited > Duration::from_secs(1),
            "it listened only once the database was back ({waited:?}): {logged}"
        );
        assert!(
            logged.contains("waiting for the database"),
            "it said what it waited for: {logged}"
        );
        assert_eq!(server.stop().map(|s| s.success()), Some(true));
    });
}
