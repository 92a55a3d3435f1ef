//! Stalls: every 250 ms the number of results in the database, beside
//! whether a worker could play (one running and not frozen, and matches
//! waiting) and whether a fault excuses a pause in the results (the
//! database restarting, a server that may hold the scheduler frozen, a
//! server starting again). A stall is a time during which no result was
//! added while a worker could play.

use crate::faults::db::Db;
use crate::faults::journal::{Hold, Journal};
use crate::faults::procs::{Fleet, Role};
use crate::faults::schedule::Shape;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How the results are counted.
pub enum Counter {
    /// `SELECT count(*) FROM results` through psql.
    Sql(Db),
    /// The server's `ludus_matches_finished_total` (`GET /metrics`), which
    /// it reads from the database: the harness does not open the SQLite
    /// file while the server writes it, except as the `sqlite3` fault.
    Metrics(String),
}

impl Counter {
    /// The results counted now, and the matches waiting (scheduled, not
    /// finished); or why they could not be read.
    pub fn read(&self) -> Result<(i64, i64), String> {
        match self {
            Counter::Sql(db) => {
                let rows = db.query(
                    "SELECT (SELECT count(*) FROM results), (SELECT count(*) FROM matches WHERE done = 0)",
                    Duration::from_secs(3),
                )?;
                let n = |i: usize| {
                    rows.first()
                        .and_then(|r| r.get(i))
                        .and_then(|v| v.parse().ok())
                };
                n(0).zip(n(1))
                    .ok_or_else(|| format!("no counts in {rows:?}"))
            }
            Counter::Metrics(url) => {
                let text = crate::faults::client::get_text(
                    &format!("{url}/metrics"),
                    Duration::from_secs(2),
                )?;
                let sum = |family: &str| -> Option<i64> {
                    let mut sum = 0i64;
                    let mut seen = false;
                    for line in text.lines() {
                        if line.starts_with(family) && line[family.len()..].starts_with(['{', ' '])
                        {
                            let v: f64 = line.rsplit(' ').next()?.parse().ok()?;
                            sum += v as i64;
                            seen = true;
                        }
                    }
                    seen.then_some(sum)
                };
                let finished = sum("ludus_matches_finished_total").ok_or_else(|| {
                    let up = text
                        .lines()
                        .find(|l| l.starts_with("ludus_database_up"))
                        .unwrap_or("no ludus_matches_finished_total");
                    format!("GET /metrics: {up}")
                })?;
                Ok((finished, sum("ludus_queue_matches_waiting").unwrap_or(0)))
            }
        }
    }
}

/// One look.
#[derive(Debug, Clone)]
pub struct Sample {
    pub t: f64,
    pub results: Option<i64>,
    /// Matches scheduled and not finished.
    pub waiting: Option<i64>,
    /// Why the look failed.
    pub error: Option<String>,
    /// A worker was running and not frozen.
    pub up: bool,
    /// A worker running and not frozen, and matches waiting (or the look
    /// failed).
    pub can_play: bool,
    /// A fault that may hold the results up by design is active.
    pub excused: bool,
}

/// Whether a fault excuses a pause in the results at `t`, for `shape`:
/// the database restarting and 10 s after it is back (workers reconnect,
/// leases end); on PostgreSQL a frozen server, which may hold the
/// scheduler lock (another server takes it over once PostgreSQL ends the
/// frozen session, after 5 s), and 3 s after; on SQLite the server
/// starting again, and 10 s after.
pub fn excused(journal: &Journal, shape: Shape, t: f64) -> bool {
    journal.held(t, t, |h| {
        matches!(
            (shape, h),
            (_, Hold::Database)
                | (Shape::Postgres, Hold::ServerFrozen(_))
                | (Shape::Sqlite, Hold::ServerDown(_))
        )
    })
}

/// A stall this long gets a look at what every session of the database
/// is doing, and another each time as long again.
const SNAPSHOT_EVERY: f64 = 3.0;

/// What the database's sessions do and wait for, each named by the process
/// of the run it belongs to (matched by its client port): written to
/// `stalls.txt` in the run's folder while a stall lasts, so that a stall
/// can be explained after the run.
fn snapshot(db: &Db, fleet: &Fleet) -> String {
    let owners: Vec<(String, std::collections::BTreeSet<u16>, bool)> = fleet
        .running()
        .into_iter()
        .map(|(name, pid, frozen)| (name, crate::faults::aim::local_ports(pid), frozen))
        .collect();
    let owner = |port: &str| -> String {
        let Ok(port) = port.parse::<u16>() else {
            return "-".into();
        };
        owners
            .iter()
            .find(|(_, ports, _)| ports.contains(&port))
            .map_or("?".into(), |(name, _, frozen)| {
                format!("{name}{}", if *frozen { " (frozen)" } else { "" })
            })
    };
    let mut out = String::new();
    let sessions = db.query(
        "SELECT pid, client_port, state, coalesce(wait_event_type || '/' || wait_event, ''),
                coalesce(round(extract(epoch FROM now() - xact_start)::numeric, 1)::text, ''),
                coalesce(round(extract(epoch FROM now() - state_change)::numeric, 1)::text, ''),
                left(regexp_replace(query, '\\s+', ' ', 'g'), 160)
         FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid()
         ORDER BY pid",
        Duration::from_secs(3),
    );
    match sessions {
        Ok(rows) => {
            out.push_str(
                "  sessions: pid, process, state, waiting for, transaction age, state age, query\n",
            );
            for r in rows {
                let f = |i: usize| r.get(i).map_or("", String::as_str);
                out.push_str(&format!(
                    "    {} {} {} [{}] xact {}s state {}s: {}\n",
                    f(0),
                    owner(f(1)),
                    f(2),
                    f(3),
                    f(4),
                    f(5),
                    f(6)
                ));
            }
        }
        Err(e) => out.push_str(&format!("  sessions: {e}\n")),
    }
    let locks = db.query(
        "SELECT pid, locktype, coalesce(relation::regclass::text, ''), coalesce(classid::text || '/' || objid::text, ''),
                mode, granted
         FROM pg_locks
         WHERE pid <> pg_backend_pid() AND (NOT granted OR locktype = 'advisory')
         ORDER BY granted, pid",
        Duration::from_secs(3),
    );
    match locks {
        Ok(rows) => {
            out.push_str("  advisory locks and waits: pid, type, relation, key, mode, granted\n");
            for r in rows {
                out.push_str(&format!("    {}\n", r.join(" ")));
            }
        }
        Err(e) => out.push_str(&format!("  locks: {e}\n")),
    }
    out
}

/// Looks every 250 ms until `stop`; the samples. With `snapshots`, a
/// database on PostgreSQL and the file to append to, a stall of
/// [`SNAPSHOT_EVERY`] seconds or more is explained there ([`snapshot`]).
pub fn spawn(
    counter: Counter,
    shape: Shape,
    fleet: Arc<Fleet>,
    journal: Arc<Journal>,
    stop: Arc<AtomicBool>,
    snapshots: Option<(Db, std::path::PathBuf)>,
) -> std::thread::JoinHandle<Vec<Sample>> {
    std::thread::spawn(move || {
        let mut samples: Vec<Sample> = Vec::new();
        // Since when no result was added while a worker could play, and
        // when the stall was last explained.
        let mut stalled: Option<(f64, f64)> = None;
        let mut last_results: Option<i64> = None;
        // Who plays: the servers' in-process workers, and the `ludus
        // worker`s on PostgreSQL.
        let players = || fleet.available_of(Role::Server) + fleet.available_of(Role::Worker);
        while !stop.load(Ordering::SeqCst) {
            let started = std::time::Instant::now();
            // The time of the look is its start: a look at a frozen server
            // waits for its timeout.
            let t = journal.now();
            let up_before = players() > 0;
            let read = counter.read();
            let waiting = read.as_ref().ok().map(|(_, w)| *w);
            // Up the whole look: a look begun as a server froze fails
            // after its thaw.
            let up = up_before && players() > 0;
            // A look that fails while a worker runs: the results were not
            // seen to grow, and work is assumed.
            let can_play = up && waiting.is_none_or(|w| w > 0);
            samples.push(Sample {
                t,
                results: read.as_ref().ok().map(|(n, _)| *n),
                waiting,
                error: read.err(),
                up,
                can_play,
                excused: excused(&journal, shape, t),
            });
            if let (Some((db, file)), Some(sample)) = (&snapshots, samples.last()) {
                let progressed = sample
                    .results
                    .is_some_and(|n| last_results.is_none_or(|l| n > l));
                if let Some(n) = sample.results {
                    last_results = Some(last_results.map_or(n, |l| l.max(n)));
                }
                if progressed || !sample.can_play {
                    stalled = None;
                } else {
                    let (from, told) = *stalled.get_or_insert((t, t));
                    if t - told >= SNAPSHOT_EVERY {
                        let text = format!(
                            "+{:.1} s: no result for {:.1} s\n{}\n",
                            t - journal.phase(),
                            t - from,
                            snapshot(db, &fleet)
                        );
                        let _ = std::fs::OpenOptions::new()
                            .create(true)
                            .append(true)
                            .open(file)
                            .and_then(|mut f| std::io::Write::write_all(&mut f, text.as_bytes()));
                        stalled = Some((from, t));
                    }
                }
            }
            let spent = started.elapsed();
            std::thread::sleep(Duration::from_millis(250).saturating_sub(spent));
        }
        samples
    })
}

/// A time without a new result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stall {
    pub from: f64,
    pub to: f64,
}

impl Stall {
    pub fn secs(&self) -> f64 {
        self.to - self.from
    }
}

/// The longest stall among `samples`, counting only the samples `counts`
/// takes: a stall runs from the last new result (or from when the samples
/// began to count) to the next new result (or to when they stop counting,
/// or the last sample). A sample whose count could not be read adds no
/// result.
pub fn longest(samples: &[Sample], counts: impl Fn(&Sample) -> bool) -> Option<Stall> {
    let mut best: Option<Stall> = None;
    let mut from: Option<f64> = None;
    let mut last: Option<i64> = None;
    let mut close = |from: &mut Option<f64>, to: f64| {
        if let Some(f) = from.take() {
            let s = Stall { from: f, to };
            if best.is_none_or(|b| s.secs() > b.secs()) {
                best = Some(s);
            }
        }
    };
    for s in samples {
        let progressed = match s.results {
            Some(n) => {
                let more = last.is_some_and(|l| n > l);
                last = Some(last.map_or(n, |l| l.max(n)));
                more
            }
            None => false,
        };
        if progressed || !counts(s) {
            close(&mut from, s.t);
        }
        if counts(s) && from.is_none() {
            from = Some(s.t);
        }
    }
    if let Some(s) = samples.last() {
        close(&mut from, s.t);
    }
    best
}

/// The samples as a table (`samples.tsv` in the run's folder): seconds
/// into the fault phase, results, matches waiting, whether a worker could
/// play, whether a fault excused a stall.
pub fn table(samples: &[Sample], phase: f64) -> String {
    let mut out = String::from("t\tresults\twaiting\tcan_play\texcused\n");
    let opt = |v: Option<i64>| v.map_or("-".to_string(), |v| v.to_string());
    for s in samples {
        out.push_str(&format!(
            "{:.2}\t{}\t{}\t{}\t{}\n",
            s.t - phase,
            opt(s.results),
            opt(s.waiting),
            u8::from(s.can_play),
            u8::from(s.excused)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(t: f64, n: i64, can_play: bool) -> Sample {
        Sample {
            t,
            results: Some(n),
            waiting: Some(1),
            error: None,
            up: can_play,
            can_play,
            excused: false,
        }
    }

    #[test]
    fn a_stall_is_the_longest_time_without_a_result_while_a_worker_could_play() {
        let samples = [
            s(0.0, 1, true),
            s(1.0, 2, true),
            s(2.0, 2, true),
            s(3.0, 2, false), // nobody could play: the stall ends here
            s(4.0, 2, false),
            s(5.0, 2, true),
            s(6.0, 2, true),
            s(7.0, 2, true),
            s(8.5, 3, true),
            s(9.0, 4, true),
        ];
        let l = longest(&samples, |s| s.can_play).unwrap();
        assert_eq!(l, Stall { from: 5.0, to: 8.5 });
    }
}
