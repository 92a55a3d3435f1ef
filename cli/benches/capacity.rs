//! Does `ludus serve` schedule as fast as its workers play? Measured from
//! outside, with real processes:
//!
//! 1. SQLite: matches per second of `ludus ladder run --threads 2` and of
//!    `ludus serve --workers 2` on the three Planet Wars example bots,
//!    alternated run by run; during each serve run, how far the ratings
//!    lag behind the results (Elo's rated prefix against the finished one,
//!    sampled every 50 ms);
//! 2. PostgreSQL: two `ludus worker --threads 1` processes on a `ladder
//!    create` ladder, against the same two workers beside `ludus serve
//!    --workers 0`;
//! 3. every example bot as a house bot (`serve --house`): matches per
//!    second of each game, and the share of the worker's time each got;
//! 4. challenges: `ludus serve --workers 2 --challenge-share S` (S a
//!    quarter, then a half) on the three Planet Wars example bots, in
//!    matches of 30 turns that no bot ends sooner (checked from the
//!    stored results), so that a share of the matches is a share of the
//!    time: the ladder's matches per second alone, then beside a
//!    challenge of a candidate against a ladder bot, with the challenge's
//!    own, the challenge's fraction of the matches, and its share of the
//!    time as the worker counts it (its log). Sampled every 50 ms
//!    meanwhile: the challenge's matches not done, whether some of them
//!    waited unclaimed, and the ladder's matches the worker held.
//!
//! `cargo bench -p ludus-cli --bench capacity`. LUDUS_BENCH_SECONDS sets
//! each measuring window (default 15), LUDUS_BENCH_RUNS the runs of parts
//! 1, 2 and 4 (default 3), LUDUS_BENCH_ONLY one part (sqlite, postgres,
//! house or challenge).

#[path = "../tests/common/mod.rs"]
mod common;

use common::{bot, env_or, get_json, ludus, ludus_cmd, submit_planet_wars_examples, text, Serving};
use ludus_leaderboard::store::{Location, Store};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn spawn(dir: &Path, args: &[&str]) -> Child {
    ludus_cmd(args, dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn interrupt(mut child: Child) {
    let _ = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let _ = child.wait();
}

/// Matches done in the ladder `which` finds, and its Elo's rated prefix
/// and finished prefix.
fn progress(db: &str, which: &dyn Fn(&Store) -> Option<i64>) -> Option<(u32, u32, u32)> {
    let store = Store::connect_existing(&Location::parse(db)).ok()?;
    let ladder = which(&store)?;
    let status = store.queue().status(ladder).ok()?;
    let prefix = store.queue().finished_prefix(ladder).ok()?;
    Some((status.done, status.rated_through, prefix))
}

/// Matches per second over `window` after a `warm` start, and the
/// ratings' lag behind the results, sampled every 50 ms: for each sample,
/// how long ago the first result the ratings do not cover finished (0
/// when they cover every finished one).
fn measure(
    db: &str,
    which: &dyn Fn(&Store) -> Option<i64>,
    warm: Duration,
    window: Duration,
) -> (f64, Vec<f64>) {
    let start = Instant::now();
    while progress(db, which).is_none() || start.elapsed() < warm {
        std::thread::sleep(Duration::from_millis(50));
    }
    let (done0, _, _) = progress(db, which).unwrap();
    let t0 = Instant::now();
    // When each finished prefix was first seen.
    let mut prefix_seen: Vec<(u32, Instant)> = Vec::new();
    let mut lags = Vec::new();
    let mut last = (done0, t0);
    while t0.elapsed() < window {
        std::thread::sleep(Duration::from_millis(50));
        let Some((done, rated, prefix)) = progress(db, which) else {
            continue;
        };
        let now = Instant::now();
        last = (done, now);
        if prefix_seen.last().is_none_or(|p| p.0 < prefix) {
            prefix_seen.push((prefix, now));
        }
        let lag = prefix_seen
            .iter()
            .find(|(p, _)| *p > rated)
            .map_or(0.0, |(_, t)| now.duration_since(*t).as_secs_f64());
        lags.push(lag);
    }
    let rate = (last.0 - done0) as f64 / last.1.duration_since(t0).as_secs_f64();
    (rate, lags)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn quantile(v: &mut [f64], q: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * q).round() as usize]
}

fn latest(store: &Store) -> Option<i64> {
    store.ladders().latest(None).ok()?
}

fn continuous_pw(store: &Store) -> Option<i64> {
    store.ladders().continuous("planet-wars").ok()?
}

fn on_sqlite(runs: usize, window: Duration) {
    let warm = Duration::from_secs(3);
    let (mut ladder_rates, mut serve_rates, mut lags) = (Vec::new(), Vec::new(), Vec::new());
    for run in 0..runs {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let db = d.join("ladder.db").display().to_string();
        submit_planet_wars_examples(d, &db);
        let child = spawn(
            d,
            &[
                "ladder",
                "run",
                "--game",
                "planet-wars",
                "--rounds",
                "5000",
                "--threads",
                "2",
                "--db",
                &db,
            ],
        );
        let (rate, _) = measure(&db, &latest, warm, window);
        interrupt(child);
        ladder_rates.push(rate);

        let db = d.join("serve.db").display().to_string();
        submit_planet_wars_examples(d, &db);
        let serving = Serving::start(ludus_cmd(
            &[
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--workers",
                "2",
                "--db",
                &db,
            ],
            d,
        ));
        let (rate, lag) = measure(&db, &continuous_pw, warm, window);
        drop(serving);
        serve_rates.push(rate);
        lags.extend(lag);
        println!(
            "run {run}: ladder run {:.1}/s, serve {:.1}/s",
            ladder_rates[run], serve_rates[run]
        );
    }
    let (l, s) = (median(&mut ladder_rates), median(&mut serve_rates));
    println!("| SQLite, 2 threads | `ladder run --threads 2` | {l:.1} | `serve --workers 2` | {s:.1} | {:.2} |", s / l);
    println!(
        "ratings' lag behind the last result (serve, {} samples): median {:.2} s, 95th percentile {:.2} s, most {:.2} s",
        lags.len(),
        median(&mut lags),
        quantile(&mut lags, 0.95),
        quantile(&mut lags, 1.0)
    );
}

fn workers(d: &Path, db: &str, ladder: Option<&str>) -> Vec<Child> {
    (0..2)
        .map(|_| {
            let mut args = vec!["worker", "--threads", "1", "--db", db];
            if let Some(id) = ladder {
                args.extend(["--ladder", id]);
            }
            spawn(d, &args)
        })
        .collect()
}

fn on_postgres(runs: usize, window: Duration) {
    let cluster = ludus_testkit::postgres::shared();
    let warm = Duration::from_secs(3);
    let (mut ladder_rates, mut serve_rates) = (Vec::new(), Vec::new());
    for run in 0..runs {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let db = cluster.create_database();
        submit_planet_wars_examples(d, &db);
        let o = ludus(
            &[
                "ladder",
                "create",
                "--game",
                "planet-wars",
                "--rounds",
                "5000",
                "--db",
                &db,
            ],
            d,
        );
        assert!(o.status.success(), "{}", text(&o));
        // `ladder 3: planet-wars round-robin, …`
        let out = String::from_utf8_lossy(&o.stdout).to_string();
        let id = out
            .strip_prefix("ladder ")
            .and_then(|rest| rest.split(':').next())
            .unwrap_or_else(|| panic!("no ladder id in {out}"))
            .to_string();
        let children = workers(d, &db, Some(&id));
        let (rate, _) = measure(&db, &latest, warm, window);
        children.into_iter().for_each(interrupt);
        ladder_rates.push(rate);

        let db = cluster.create_database();
        submit_planet_wars_examples(d, &db);
        let serving = Serving::start(ludus_cmd(
            &[
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--workers",
                "0",
                "--db",
                &db,
            ],
            d,
        ));
        let children = workers(d, &db, None);
        let (rate, _) = measure(&db, &continuous_pw, warm, window);
        children.into_iter().for_each(interrupt);
        drop(serving);
        serve_rates.push(rate);
        println!(
            "run {run}: workers on a ladder {:.1}/s, workers beside serve {:.1}/s",
            ladder_rates[run], serve_rates[run]
        );
    }
    let (l, s) = (median(&mut ladder_rates), median(&mut serve_rates));
    println!("| PostgreSQL, 2 × `worker --threads 1` | on a `ladder create` ladder | {l:.1} | beside `serve --workers 0` | {s:.1} | {:.2} |", s / l);
}

/// Every example bot as a house bot, two threads: each game's matches per
/// second and its share of the worker's time (from its log).
fn house(window: Duration) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("ludus.db").display().to_string();
    let folder = ludus_testkit::example_bots_folder();
    let log = d.join("serve.log");
    let mut cmd = ludus_cmd(
        &[
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--workers",
            "2",
            "--house",
            &folder.display().to_string(),
            "--db",
            &db,
        ],
        d,
    );
    cmd.env("LUDUS_LOG", "info")
        .stderr(std::fs::File::create(&log).unwrap());
    let mut serving = Serving::start(cmd);
    let games: Vec<&str> = ludus_engine::games().iter().map(|g| g.id).collect();
    let done = |store: &Store| -> Vec<(String, i64, u32)> {
        games
            .iter()
            .filter_map(|g| {
                let id = store.ladders().continuous(g).ok()??;
                Some((g.to_string(), id, store.queue().status(id).ok()?.done))
            })
            .collect()
    };
    let start = Instant::now();
    let before = loop {
        let store = Store::connect_existing(&Location::parse(&db)).ok();
        let now = store.as_ref().map(done).unwrap_or_default();
        if now.len() == games.len() || start.elapsed() > Duration::from_secs(120) {
            break now;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let t0 = Instant::now();
    std::thread::sleep(window);
    let after = done(&Store::connect_existing(&Location::parse(&db)).unwrap());
    let secs = t0.elapsed().as_secs_f64();
    serving.stop();
    let log = std::fs::read_to_string(&log).unwrap();
    let spent: Vec<(i64, f64)> = log
        .lines()
        .find_map(|l| l.split_once("time spent playing: ").map(|(_, r)| r))
        .map(|line| {
            line.split(", ")
                .filter_map(|p| {
                    let w: Vec<&str> = p.split_whitespace().collect();
                    Some((w.get(1)?.parse().ok()?, w.get(2)?.parse().ok()?))
                })
                .collect()
        })
        .unwrap_or_default();
    let total: f64 = spent.iter().map(|s| s.1).sum();
    println!("| game | matches/s | share of the worker's time (whole run) |");
    println!("|---|---:|---:|");
    for (game, id, done) in &after {
        let was = before.iter().find(|b| &b.0 == game).map_or(0, |b| b.2);
        let share = spent
            .iter()
            .find(|s| s.0 == *id)
            .map_or(0.0, |s| s.1 / total);
        println!(
            "| {game} | {:.1} | {:.1}% |",
            (done - was) as f64 / secs,
            100.0 * share
        );
    }
}

/// Planet Wars matches that all last the same number of turns, so that a
/// share of the matches is a share of the time: none of the example bots
/// eliminates another within 30 (the expander can end the random bot from
/// turn 39 on).
const EVEN_CONFIG: &str = r#"planet-wars={"max_turns": 30}"#;

/// Games of the challenge: more than it can play in any window.
const CHALLENGE_GAMES: &str = "100000";

/// What one run of part 4 measured.
struct ChallengeRun {
    /// The ladder's matches per second alone, beside the challenge, and
    /// the challenge's.
    alone: f64,
    with: f64,
    challenge: f64,
    /// The challenge's share of the worker's time by the worker's own
    /// count (its log, the whole run): what its fair share compares,
    /// which starts a ladder that comes back to work level with the
    /// others.
    counted_share: Option<f64>,
    /// Samples of the challenge's window (every 50 ms): the challenge's
    /// matches not done and those of them no worker holds, and the
    /// ladder's matches held by the worker.
    challenge_open: Vec<f64>,
    challenge_claimable: Vec<f64>,
    ladder_held: Vec<f64>,
}

/// Matches done, held under a lease, and neither, of a ladder.
type Counts = (u32, u32, u32);

/// The [`Counts`] of ladder `id`.
fn counts(store: &Store, id: i64) -> Option<Counts> {
    let s = store.queue().status(id).ok()?;
    Some((s.done, s.leased, s.pending))
}

/// One run of part 4 at `share`: a server whose ladder plays alone, then
/// beside a challenge of a candidate against a ladder bot.
fn challenge_run(share: f64, warm: Duration, window: Duration) -> ChallengeRun {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("ludus.db").display().to_string();
    submit_planet_wars_examples(d, &db);
    let o = ludus(&["user", "add", "alice", "--db", &db], d);
    assert!(o.status.success(), "{}", text(&o));
    let token = String::from_utf8(o.stdout).unwrap().trim().to_string();
    let log = d.join("serve.log");
    let share_arg = share.to_string();
    let mut cmd = ludus_cmd(
        &[
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--workers",
            "2",
            "--challenge-share",
            &share_arg,
            "--challenge-max-games",
            CHALLENGE_GAMES,
            "--challenge-games-a-day",
            CHALLENGE_GAMES,
            "--game-config",
            EVEN_CONFIG,
            "--db",
            &db,
        ],
        d,
    );
    cmd.env("LUDUS_LOG", "info")
        .stderr(std::fs::File::create(&log).unwrap());
    let mut serving = Serving::start(cmd);
    // The candidate: the expander's bytes under a name of alice's, not
    // entered in the ladder. Uploaded before the first window, whose
    // validation match would otherwise fall in it.
    let expander = bot("planet_wars_expander");
    let o = ludus(
        &[
            "submit",
            &expander,
            "--name",
            "candidate",
            "--game",
            "planet-wars",
            "--candidate",
            "--server",
            &serving.url,
            "--token",
            &token,
        ],
        d,
    );
    assert!(o.status.success(), "{}", text(&o));

    let (alone, _) = measure(&db, &continuous_pw, warm, window);

    let o = ludus(
        &[
            "challenge",
            "candidate",
            "--vs",
            "planet_wars_random",
            "--games",
            CHALLENGE_GAMES,
            "--seed",
            "1",
            "--server",
            &serving.url,
            "--token",
            &token,
        ],
        d,
    );
    assert!(o.status.success(), "{}", text(&o));
    // `challenge 1: …`
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    let id: u64 = out
        .strip_prefix("challenge ")
        .and_then(|rest| rest.split(':').next())
        .and_then(|id| id.parse().ok())
        .unwrap_or_else(|| panic!("no challenge id in {out}"));
    let status = |serving: &Serving| get_json(&format!("{}/api/challenges/{id}", serving.url));
    let challenge_ladder: i64 = status(&serving)["ladder"]
        .as_str()
        .and_then(|l| l.parse().ok())
        .expect("the challenge's ladder");
    let ladder = continuous_pw(&Store::connect_existing(&Location::parse(&db)).unwrap())
        .expect("the ladder");

    std::thread::sleep(warm);
    let both = || -> Option<(Counts, Counts, Instant)> {
        let store = Store::connect_existing(&Location::parse(&db)).ok()?;
        Some((
            counts(&store, ladder)?,
            counts(&store, challenge_ladder)?,
            Instant::now(),
        ))
    };
    let first = loop {
        if let Some(b) = both() {
            break b;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let (mut challenge_open, mut challenge_claimable, mut ladder_held) =
        (Vec::new(), Vec::new(), Vec::new());
    let mut last = first;
    while first.2.elapsed() < window {
        std::thread::sleep(Duration::from_millis(50));
        let Some(now) = both() else { continue };
        let (l, c) = (now.0, now.1);
        challenge_open.push(f64::from(c.1 + c.2));
        challenge_claimable.push(f64::from(c.2));
        ladder_held.push(f64::from(l.1));
        last = now;
    }
    let secs = last.2.duration_since(first.2).as_secs_f64();
    let ladder_n = last.0 .0 - first.0 .0;
    let challenge_n = last.1 .0 - first.1 .0;
    let after = status(&serving);
    assert_eq!(
        after["state"], "running",
        "the challenge ended within its window: {}",
        after["ended_reason"]
    );
    assert!(serving.stop().is_some_and(|s| s.success()));

    // Every match, the ladder's and the challenge's, lasted as long.
    let store = Store::connect_existing(&Location::parse(&db)).unwrap();
    let mut turns = std::collections::BTreeMap::new();
    let mut played = [0usize; 2];
    for (k, id) in [ladder, challenge_ladder].into_iter().enumerate() {
        for r in store.results().all(id).unwrap() {
            if r.aborted.is_none() {
                *turns.entry(r.turns).or_insert(0usize) += 1;
                played[k] += 1;
            }
        }
    }
    assert_eq!(
        turns.len(),
        1,
        "matches of different lengths (turns: matches): {turns:?}"
    );

    // The worker's time on each ladder over the whole run, as it counts it.
    let log = std::fs::read_to_string(&log).unwrap();
    let spent = |id: i64| -> Option<f64> {
        log.lines()
            .find_map(|l| l.split_once("time spent playing: ").map(|(_, r)| r))?
            .split(", ")
            .find_map(|p| {
                let w: Vec<&str> = p.split_whitespace().collect();
                (w.get(1)?.parse::<i64>().ok()? == id).then(|| w.get(2)?.parse().ok())?
            })
    };
    let counted_share = match (spent(ladder), spent(challenge_ladder)) {
        (Some(l), Some(c)) if l + c > 0.0 => Some(c / (l + c)),
        _ => None,
    };
    println!(
        "share {share}: ladder alone {alone:.1}/s, with the challenge {:.1}/s, challenge {:.1}/s; every match {} turns ({} matches)",
        ladder_n as f64 / secs,
        challenge_n as f64 / secs,
        turns.keys().next().unwrap(),
        played[0] + played[1],
    );
    ChallengeRun {
        alone,
        with: ladder_n as f64 / secs,
        challenge: challenge_n as f64 / secs,
        counted_share,
        challenge_open,
        challenge_claimable,
        ladder_held,
    }
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len().max(1) as f64
}

/// The ladder's matches per second alone and beside a challenge, and the
/// challenge's, at shares of a quarter and a half.
fn challenge(runs: usize, window: Duration) {
    let warm = Duration::from_secs(3);
    let mut rows = Vec::new();
    for share in [0.25, 0.5] {
        let all: Vec<ChallengeRun> = (0..runs)
            .map(|_| challenge_run(share, warm, window))
            .collect();
        let med =
            |f: &dyn Fn(&ChallengeRun) -> f64| median(&mut all.iter().map(f).collect::<Vec<_>>());
        let fraction = med(&|r| r.challenge / (r.challenge + r.with));
        let mut time: Vec<f64> = all.iter().filter_map(|r| r.counted_share).collect();
        let time = (!time.is_empty()).then(|| median(&mut time));
        let samples = |f: &dyn Fn(&ChallengeRun) -> &Vec<f64>| -> Vec<f64> {
            all.iter().flat_map(|r| f(r).iter().copied()).collect()
        };
        let (open, claimable) = (
            samples(&|r| &r.challenge_open),
            samples(&|r| &r.challenge_claimable),
        );
        let waiting = claimable.iter().filter(|&&c| c > 0.0).count();
        println!(
            "share {share}, the challenge's windows ({} samples): its matches not done {:.1} on average, {} at most, some of them unclaimed in {:.0}% of the samples; the ladder's matches the worker held {:.1} on average",
            open.len(),
            mean(&open),
            open.iter().copied().fold(0.0, f64::max),
            100.0 * waiting as f64 / claimable.len().max(1) as f64,
            mean(&samples(&|r| &r.ladder_held)),
        );
        rows.push((
            share,
            med(&|r| r.alone),
            med(&|r| r.with),
            med(&|r| r.challenge),
            fraction,
            time,
        ));
    }
    println!("| share | ladder alone | ladder with the challenge | challenge | challenge's fraction of the matches | its share of the time, by the worker's count |");
    println!("|---:|---:|---:|---:|---:|---:|");
    for (share, alone, with, challenge, fraction, time) in rows {
        println!(
            "| {share} | {alone:.1}/s | {with:.1}/s | {challenge:.1}/s | {:.1}% | {} |",
            100.0 * fraction,
            time.map_or("–".to_string(), |t| format!("{:.1}%", 100.0 * t))
        );
    }
}

fn main() {
    // `cargo bench` passes --bench; nothing else is taken.
    let window = Duration::from_secs(env_or("LUDUS_BENCH_SECONDS", 15));
    let runs = env_or("LUDUS_BENCH_RUNS", 3);
    ludus_testkit::bots_dir();
    // LUDUS_BENCH_ONLY=sqlite|postgres|house|challenge runs one part.
    let only = std::env::var("LUDUS_BENCH_ONLY").ok();
    let part = |name: &str| only.as_deref().is_none_or(|o| o == name);
    if part("sqlite") {
        on_sqlite(runs, window);
    }
    if part("postgres") {
        on_postgres(runs, window);
    }
    if part("house") {
        house(window);
    }
    if part("challenge") {
        challenge(runs, window);
    }
}
