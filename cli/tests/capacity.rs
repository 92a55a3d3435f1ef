//! `ludus serve` schedules as fast as its workers play: the matches waiting
//! follow the live workers' threads (on SQLite and PostgreSQL), games share
//! the workers' time, a new version's placement goes ahead of routine
//! matches, and an operator's budget holds. Real processes throughout.

mod common;

use common::*;
use ludus_leaderboard::continuous::PACE_WINDOW;
use ludus_leaderboard::store::{Location, QueueDemand, Store};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The continuous ladder of `game` and its queue, once the server made it.
fn queue_of(db: &str, game: &str) -> Option<(i64, QueueDemand)> {
    let store = Store::connect_existing(&Location::parse(db)).ok()?;
    let ladder = store.ladders().continuous(game).ok()??;
    Some((
        ladder,
        store.queue().demand(ladder, PACE_WINDOW, true).unwrap(),
    ))
}

/// Waits (twenty seconds at most: the tests of this file run side by side
/// on few cores) until `ok` holds of `game`'s queue.
fn wait_for(db: &str, game: &str, what: &str, ok: impl Fn(&QueueDemand) -> bool) -> QueueDemand {
    let start = Instant::now();
    loop {
        let now = queue_of(db, game);
        match now {
            Some((_, q)) if ok(&q) => return q,
            _ if start.elapsed() > Duration::from_secs(20) => {
                panic!("{what}: still {now:?} after twenty seconds")
            }
            _ => std::thread::sleep(Duration::from_millis(50)),
        }
    }
}

fn signal(child: &Child, signal: &str) {
    let ok = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
}

/// A server without workers keeps the fewest matches waiting; a worker of
/// eight threads makes it keep four per thread waiting; frozen, its
/// heartbeats stop, it no longer counts, and nothing more is scheduled.
fn waiting_matches_follow_the_live_threads(dir: &Path, db: &str) {
    submit_planet_wars_examples(dir, db);
    let _serving = serve(dir, &["--workers", "0", "--db", db]);
    // The three placement series (each bot against the two others, in both
    // seats) wait: more than the eight kept waiting without workers.
    let idle = wait_for(db, "planet-wars", "no workers", |q| q.waiting >= 8);
    std::thread::sleep(Duration::from_millis(300));
    let (_, again) = queue_of(db, "planet-wars").unwrap();
    assert_eq!((idle.live_threads, idle.waiting), (0, 12), "{idle:?}");
    assert_eq!(again, idle, "nothing more is scheduled without workers");
    // A lease of 20 s: a heartbeat every 4 s, gone after two missed (8 s),
    // time enough for the scheduler to see the threads on a loaded machine.
    let mut worker = ludus_cmd(
        &["worker", "--threads", "8", "--lease", "20s", "--db", db],
        dir,
    )
    .stdout(Stdio::null())
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    let busy = wait_for(db, "planet-wars", "eight live threads", |q| {
        q.live_threads == 8 && q.waiting >= 32
    });
    assert_eq!(busy.live_threads, 8, "{busy:?}");
    // Frozen once the queue follows it, not before: a process frozen
    // inside a write (a commit, a heartbeat) keeps SQLite's write lock, and
    // a scheduler that could not write would prove nothing.
    signal(&worker, "-STOP");
    // Frozen, its heartbeats stop: two missed and the worker is no longer
    // live: nothing is scheduled for it, and what waits stays.
    let gone = wait_for(db, "planet-wars", "the worker's heartbeats stop", |q| {
        q.live_threads == 0
    });
    std::thread::sleep(Duration::from_millis(500));
    let (_, after) = queue_of(db, "planet-wars").unwrap();
    assert_eq!(
        after.waiting, gone.waiting,
        "nothing more for a gone worker"
    );
    let _ = worker.kill();
    let _ = worker.wait();
}

#[test]
fn waiting_matches_follow_the_live_threads_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ludus.db").display().to_string();
    waiting_matches_follow_the_live_threads(dir.path(), &db);
}

#[test]
fn waiting_matches_follow_the_live_threads_on_postgres() {
    let dir = tempfile::tempdir().unwrap();
    let db = ludus_testkit::postgres::shared().create_database();
    waiting_matches_follow_the_live_threads(dir.path(), &db);
}

/// Results of `game`'s continuous ladder, and the seats of its schedule.
fn played(db: &str, game: &str) -> (usize, Vec<Vec<usize>>) {
    let store = Store::connect_existing(&Location::parse(db)).unwrap();
    let Some(ladder) = store.ladders().continuous(game).unwrap() else {
        return (0, Vec::new());
    };
    let results = store.results().all(ladder).unwrap().len();
    let seats = store
        .ladders()
        .schedule(ladder)
        .unwrap()
        .into_iter()
        .map(|m| m.seats)
        .collect();
    (results, seats)
}

/// A `ludus serve` whose log goes to a file, read once it stops.
fn serve_logged(dir: &Path, args: &[&str]) -> (Serving, std::path::PathBuf) {
    let log = dir.join("serve.log");
    let mut all = vec!["serve", "--listen", "127.0.0.1:0"];
    all.extend_from_slice(args);
    let mut cmd = ludus_cmd(&all, dir);
    cmd.env("LUDUS_LOG", "info")
        .stderr(std::fs::File::create(&log).unwrap());
    (Serving::start(cmd), log)
}

/// Seconds per ladder from the worker's log line `time spent playing:
/// ladder 1 3.2 s, ladder 2 2.9 s`.
fn time_spent(log: &str) -> Vec<(i64, f64)> {
    let line = log
        .lines()
        .find_map(|l| l.split_once("time spent playing: ").map(|(_, rest)| rest))
        .unwrap_or_else(|| panic!("no time spent in the log:\n{log}"));
    line.split(", ")
        .map(|part| {
            let words: Vec<&str> = part.split_whitespace().collect();
            (words[1].parse().unwrap(), words[2].parse().unwrap())
        })
        .collect()
}

/// Pirates matches take many times as long as Planet Wars matches; each
/// game gets about half of the workers' time, so Planet Wars plays many
/// more matches, and Pirates plays too.
#[test]
fn a_long_match_game_and_a_short_match_game_share_the_workers_time() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("ludus.db").display().to_string();
    submit_planet_wars_examples(d, &db);
    // A table of Pirates seats four.
    for (file, name) in [
        ("pirates_random", "pirates_random"),
        ("pirates_sample", "pirates_sample"),
        ("pirates_strategy", "pirates_strategy"),
        ("pirates_random", "pirates_random_too"),
    ] {
        submit_game(d, &db, file, name, "pirates");
    }
    let (mut serving, log) = serve_logged(d, &["--workers", "2", "--db", &db]);
    std::thread::sleep(Duration::from_secs(12));
    assert!(serving.stop().is_some_and(|s| s.success()));
    let (pw, _) = played(&db, "planet-wars");
    let (pirates, _) = played(&db, "pirates");
    let log = std::fs::read_to_string(log).unwrap();
    let spent = time_spent(&log);
    assert_eq!(spent.len(), 2, "two ladders: {spent:?}");
    let total: f64 = spent.iter().map(|s| s.1).sum();
    for (ladder, secs) in &spent {
        let share = secs / total;
        assert!(
            (0.3..=0.7).contains(&share),
            "ladder {ladder} got {share:.2} of the time: {spent:?}"
        );
    }
    assert!(pirates >= 4, "pirates played {pirates}");
    assert!(pw >= 3 * pirates, "planet wars {pw}, pirates {pirates}");
}

/// Under a budget of 60 matches an hour (one a minute), the first bots'
/// placement series are played and then nothing routine for the minute;
/// a bot that arrives then gets its whole placement series at once,
/// ahead of any routine match, whatever the budget.
#[test]
fn placement_goes_ahead_of_routine_matches_and_a_budget_holds() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("ludus.db").display().to_string();
    submit_planet_wars_examples(d, &db);
    let _serving = serve(
        d,
        &[
            "--workers",
            "2",
            "--max-matches-per-hour",
            "60",
            "--db",
            &db,
        ],
    );
    // Three bots, each against the two others in both seats.
    wait_for(&db, "planet-wars", "the first placements", |q| {
        q.finished_last_hour >= 12 && q.waiting == 0
    });
    std::thread::sleep(Duration::from_millis(500));
    let (results, seats) = played(&db, "planet-wars");
    assert_eq!(
        (results, seats.len()),
        (12, 12),
        "the minute's share is spent"
    );

    submit_game(d, &db, "planet_wars_expander", "latecomer", "planet-wars");
    wait_for(&db, "planet-wars", "the latecomer's placement", |q| {
        q.finished_last_hour >= 18 && q.waiting == 0
    });
    std::thread::sleep(Duration::from_millis(500));
    let (results, seats) = played(&db, "planet-wars");
    assert_eq!(results, 18);
    assert_eq!(seats.len(), 18, "no routine match past the budget");
    assert!(
        seats[12..].iter().all(|s| s.contains(&3)),
        "every match after the first placements is the latecomer's: {:?}",
        &seats[12..]
    );
}
