//! The workers' registry: each worker records its host, process, threads
//! and heartbeats, from which `ladder status` reads who is playing; a
//! worker's leases are renewed with its heartbeat and released when it
//! stops, or when a live worker of its host finds its process gone.
//!
//! `workers.stopped` says how a worker ended: 0 it has not (it is live, or
//! gone without a word: its heartbeats stopped), 1 it stopped itself
//! (SIGTERM, its work done), 2 a worker of its host found its process gone
//! (killed) and released its leases, 3 it ended on an error (crashed),
//! kept in `workers.error`. Rows of workers gone for over a day
//! ([`PRUNE_AFTER`]) are deleted as a new worker registers.

use super::{ms, Queue};
use crate::store::db::{vals, DbError, Row};
use crate::store::error::StoreError;
use crate::store::records::Needs;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// Heartbeats in a lease: a worker renews its leases every fifth of one
/// (every second at the default lease of five seconds), so a lease
/// outlives four missed heartbeats of a loaded machine, and a dead
/// worker's matches come back a lease after its last heartbeat or claim.
pub const HEARTBEATS_PER_LEASE: u32 = 5;

/// Heartbeat intervals without a heartbeat after which a worker is taken
/// for gone: two, so that one late heartbeat (a commit, a rating fit in
/// its loop) does not make a live worker look gone.
pub const GONE_AFTER_HEARTBEATS: i64 = 2;

/// `workers.stopped` of a worker that stopped itself.
const STOPPED_ITSELF: i64 = 1;
/// `workers.stopped` of a worker whose process a worker of its host found gone.
const FOUND_DEAD: i64 = 2;
/// `workers.stopped` of a worker that ended on an error.
const CRASHED: i64 = 3;

/// How long the row of a worker not heard from is kept.
pub const PRUNE_AFTER: Duration = Duration::from_secs(24 * 60 * 60);

/// SQL: the worker of the row has sent a heartbeat within
/// [`GONE_AFTER_HEARTBEATS`] of its intervals, by the database's clock
/// (the same arithmetic as [`WorkerInfo::is_late`]).
pub(super) fn heard_from_recently() -> String {
    format!("last_seen + lease_ms / {HEARTBEATS_PER_LEASE} * {GONE_AFTER_HEARTBEATS} >= {{now}}")
}

/// Where a worker stands, as `ladder status` shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkerState {
    /// Its heartbeats come.
    Live,
    /// It stopped itself: a signal, or its work was done.
    Stopped,
    /// It ended on an error ([`WorkerInfo::crashed`] says which).
    Crashed,
    /// Gone: its heartbeats stopped (a lost machine, a frozen process);
    /// its leases end a lease after the last one.
    NoHeartbeat,
    /// Gone: a worker of its host found its process gone and released its
    /// leases.
    ProcessGone,
}

/// A worker, as its heartbeats record it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WorkerInfo {
    pub id: i64,
    pub host: String,
    pub pid: u32,
    pub threads: u32,
    /// The ladder it was started for; `None`: any ladder.
    pub ladder: Option<i64>,
    pub ludus_version: String,
    pub wasmtime_version: String,
    /// Milliseconds since the Unix epoch, by the database's clock.
    pub started_at: i64,
    pub last_seen: i64,
    /// Matches it committed a result of, over all ladders.
    pub played: u32,
    /// Its lease length: it sends a heartbeat (and renews its leases)
    /// [`HEARTBEATS_PER_LEASE`] times a lease, and is taken for gone once
    /// [`GONE_AFTER_HEARTBEATS`] of those intervals pass without one.
    pub lease_ms: i64,
    /// It stopped itself (a signal, its work done).
    pub stopped: bool,
    /// A worker of its host found its process gone (killed, crashed).
    pub found_dead: bool,
    /// It ended on this error.
    pub crashed: Option<String>,
}

impl WorkerInfo {
    /// `worker 3 (pid 1234 on host box)`.
    pub fn describe(&self) -> String {
        format!(
            "worker {} (pid {} on host {})",
            self.id, self.pid, self.host
        )
    }

    /// Milliseconds between two of its heartbeats.
    pub fn heartbeat_ms(&self) -> i64 {
        self.lease_ms / HEARTBEATS_PER_LEASE as i64
    }

    /// Whether [`GONE_AFTER_HEARTBEATS`] of its heartbeat intervals passed
    /// without a heartbeat, at `now`.
    pub fn is_late(&self, now: i64) -> bool {
        self.last_seen + self.heartbeat_ms() * GONE_AFTER_HEARTBEATS < now
    }

    /// Where it stands at `now`.
    pub fn state(&self, now: i64) -> WorkerState {
        if self.stopped {
            WorkerState::Stopped
        } else if self.crashed.is_some() {
            WorkerState::Crashed
        } else if self.found_dead {
            WorkerState::ProcessGone
        } else if self.is_late(now) {
            WorkerState::NoHeartbeat
        } else {
            WorkerState::Live
        }
    }

    /// Whether its heartbeats come, at `now`.
    pub fn is_live(&self, now: i64) -> bool {
        self.state(now) == WorkerState::Live
    }
}

/// This machine's host name, as workers record it.
fn this_host() -> String {
    rustix::system::uname()
        .nodename()
        .to_string_lossy()
        .into_owned()
}

/// Whether process `pid` of this machine exists.
fn process_alive(pid: u32) -> bool {
    let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    match rustix::process::test_kill_process(pid) {
        Ok(()) => true,
        // It exists, and belongs to someone else.
        Err(e) => e != rustix::io::Errno::SRCH,
    }
}

pub(super) fn worker_info(r: &Row) -> Result<WorkerInfo, DbError> {
    Ok(WorkerInfo {
        id: r.i64(0)?,
        host: r.text(1)?,
        pid: r.u32(2)?,
        threads: r.u32(3)?,
        ladder: r.opt_i64(4)?,
        ludus_version: r.text(5)?,
        wasmtime_version: r.text(6)?,
        started_at: r.i64(7)?,
        last_seen: r.i64(8)?,
        played: r.u32(9)?,
        lease_ms: r.i64(10)?,
        stopped: r.i64(11)? == STOPPED_ITSELF,
        found_dead: r.i64(11)? == FOUND_DEAD,
        crashed: match r.i64(11)? {
            CRASHED => Some(r.opt_text(12)?.unwrap_or_default()),
            _ => None,
        },
    })
}

pub(super) const WORKER_COLUMNS: &str = "id, host, pid, threads, ladder_id, ludus_version, wasmtime_version, started_at, last_seen, played, lease_ms, stopped, error";

impl Queue<'_> {
    /// Records a new worker of this process and returns its id.
    pub fn register_worker(
        &self,
        threads: usize,
        ladder: Option<i64>,
        lease: Duration,
    ) -> Result<i64, StoreError> {
        let host = this_host();
        let mine = Needs::of_this_build(0);
        self.conn.write(|db| {
            // The rows of workers long gone go, unless they still hold a
            // lease (none should, by then).
            db.execute(
                "DELETE FROM workers WHERE last_seen < {now} - $1
                   AND NOT EXISTS (SELECT 1 FROM matches WHERE lease_owner = workers.id)",
                vals![ms(PRUNE_AFTER)],
            )?;
            db.query_opt(
                "INSERT INTO workers (host, pid, threads, ladder_id, lease_ms, ludus_version, wasmtime_version, started_at, last_seen)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, {now}, {now}) RETURNING id",
                vals![host, std::process::id(), threads, ladder, ms(lease), mine.ludus_version, mine.wasmtime_version],
            )?
            .expect("INSERT … RETURNING gives a row")
            .i64(0)
        })
    }

    /// Releases the leases of this host's workers whose process is gone
    /// (killed, crashed), rather than waiting for the leases to end, and
    /// records them as found dead. Every worker calls it with each
    /// heartbeat and when it finds nothing to claim, and `ladder run` as it
    /// starts: on one machine a killed worker's matches come back within a
    /// few heartbeats, while its siblings play on. A worker on another host is known to be gone
    /// only by its lease's end.
    ///
    /// Only a worker that also missed its heartbeats
    /// ([`GONE_AFTER_HEARTBEATS`]) is looked at, except as a run starts
    /// (`starting`): a live worker whose pid this process cannot see
    /// (another pid namespace under the same host name, as in containers
    /// sharing the host's name) is not taken for dead at every heartbeat;
    /// a run started again right after its predecessor was killed does not
    /// wait for the killed one's heartbeats to be missed. (A live sibling
    /// in another pid namespace released at a start beats again and is live
    /// again; the matches it held may be played twice, to the same
    /// results.) Returns how many workers were found gone.
    pub fn reap_local_workers(&self, starting: bool) -> Result<usize, StoreError> {
        let host = this_host();
        let silent = match starting {
            true => "1 = 1".to_string(),
            false => format!("NOT ({})", heard_from_recently()),
        };
        let silent = self.conn.rows(
            &format!("SELECT id, pid FROM workers WHERE host = $1 AND stopped = 0 AND {silent}"),
            vals![host],
            |r| Ok((r.i64(0)?, r.u32(1)?)),
        )?;
        let mut found = 0;
        for (id, pid) in silent {
            if pid == std::process::id() || process_alive(pid) {
                continue;
            }
            // Whoever marks it first releases its leases; a sibling that
            // found it at the same moment does nothing more.
            let released = self.conn.write(|db| {
                if db.execute(
                    "UPDATE workers SET stopped = $2 WHERE id = $1 AND stopped = 0",
                    vals![id, FOUND_DEAD],
                )? == 0
                {
                    return Ok(None);
                }
                db.execute(
                    "UPDATE matches SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = $1",
                    vals![id],
                )
                .map(Some)
            })?;
            if let Some(leases) = released {
                found += 1;
                tracing::info!(
                    worker = id,
                    pid,
                    leases,
                    "worker {id} of this host (pid {pid}) is gone: its {leases} matches are claimable again"
                );
            }
        }
        Ok(found)
    }

    /// The worker `id`.
    pub fn worker(&self, id: i64) -> Result<Option<WorkerInfo>, StoreError> {
        Ok(self
            .conn
            .rows(
                &format!("SELECT {WORKER_COLUMNS} FROM workers WHERE id = $1"),
                vals![id],
                worker_info,
            )?
            .into_iter()
            .next())
    }

    /// The worker's heartbeat: it is alive, and the leases of the matches
    /// it `holds` (plays, or has a result of to commit) run for `lease`
    /// more from now. Returns how many leases it renewed. A worker taken
    /// for dead that still beats (frozen for a while, then resumed) is live
    /// again; the leases released meanwhile stay released; a worker that
    /// stopped (or crashed) stays so.
    ///
    /// Only the matches named are renewed, not every match leased to the
    /// worker: a result the worker took for committed may have been lost
    /// (PostgreSQL commits the queue's transactions without waiting for
    /// the disk, and a crash loses the last ones), and its match, still
    /// leased to the worker, must come back to the queue when its lease
    /// ends rather than be held for as long as the worker lives.
    ///
    /// It is sent from a connection of its own beside the worker's commits
    /// (`worker::Heartbeat`), so it takes no lock a commit may wait for:
    /// two statements, each its own transaction, and the leases of matches
    /// a commit holds at that moment are skipped (PostgreSQL; the commit
    /// settles them itself), so the two never wait on each other's rows.
    pub fn heartbeat(
        &self,
        worker: i64,
        lease: Duration,
        holds: &[(i64, u32)],
    ) -> Result<u64, StoreError> {
        self.conn.query(
            "UPDATE workers SET last_seen = {now}, stopped = 0 WHERE id = $1 AND stopped NOT IN (1, 3)",
            vals![worker],
        )?;
        if holds.is_empty() {
            return Ok(0);
        }
        // Padded to a power of two with copies of the last (the same match
        // named twice), so that few statements are prepared.
        let padded: Vec<(i64, u32)> = holds
            .iter()
            .chain(std::iter::repeat(holds.last().expect("not empty")))
            .take(holds.len().next_power_of_two())
            .copied()
            .collect();
        let mut params = vals![worker, ms(lease)].to_vec();
        let mut rows = Vec::with_capacity(padded.len());
        for (k, (ladder, index)) in padded.iter().enumerate() {
            rows.push(format!(
                "(CAST(${} AS {{int}}), CAST(${} AS {{int}}))",
                3 + 2 * k,
                4 + 2 * k
            ));
            params.extend(vals![*ladder, *index].iter().cloned());
        }
        let renewed = self.conn.query(
            &format!(
                "UPDATE matches SET lease_until = {{now}} + $2
                 WHERE (ladder_id, idx) IN (
                     SELECT ladder_id, idx FROM matches
                     WHERE lease_owner = $1 AND (done = 0 OR verify = 1)
                       AND (ladder_id, idx) IN (VALUES {}) {{skip_locked}})
                 RETURNING idx",
                rows.join(", ")
            ),
            &params,
        )?;
        Ok(renewed.len() as u64)
    }

    /// The worker stops: the leases it still holds are released, their
    /// claims not counted as attempts, and it is recorded as stopped.
    pub fn stop_worker(&self, worker: i64) -> Result<(), StoreError> {
        self.end_worker(worker, None)
    }

    /// The worker ended on `error`: as [`Queue::stop_worker`], recorded as
    /// crashed, with the error.
    pub fn crash_worker(&self, worker: i64, error: &str) -> Result<(), StoreError> {
        self.end_worker(worker, Some(error))
    }

    fn end_worker(&self, worker: i64, error: Option<&str>) -> Result<(), StoreError> {
        let state = match error {
            None => STOPPED_ITSELF,
            Some(_) => CRASHED,
        };
        self.conn.write(|db| {
            db.execute(
                "UPDATE matches SET lease_owner = NULL, lease_until = NULL,
                        attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END
                 WHERE lease_owner = $1 AND (done = 0 OR verify = 1)",
                vals![worker],
            )?;
            db.execute(
                "UPDATE workers SET stopped = $2, error = $3, last_seen = {now} WHERE id = $1",
                vals![worker, state, error],
            )?;
            Ok(())
        })
    }
}
