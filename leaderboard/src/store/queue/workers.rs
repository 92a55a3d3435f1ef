//! The workers' registry: each worker records its host, process, threads
//! and heartbeats, from which `ladder status` reads who is playing; a
//! worker's leases are renewed with its heartbeat and released when it
//! stops, or when its process is found gone on this host.

use super::{ms, relaxed, Queue};
use crate::store::db::{vals, DbError, Row};
use crate::store::error::StoreError;
use crate::store::records::Needs;
use serde::{Deserialize, Serialize};
use std::time::Duration;

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
    /// Its lease length: it renews every third of it, and is taken for
    /// gone once a whole lease passes without a heartbeat.
    pub lease_ms: i64,
    pub stopped: bool,
}

impl WorkerInfo {
    /// `worker 3 (pid 1234 on host box)`.
    pub fn describe(&self) -> String {
        format!(
            "worker {} (pid {} on host {})",
            self.id, self.pid, self.host
        )
    }

    /// Whether it was seen within its lease and has not stopped, at `now`.
    pub fn is_live(&self, now: i64) -> bool {
        !self.stopped && self.last_seen + self.lease_ms >= now
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
        stopped: r.i64(11)? != 0,
    })
}

pub(super) const WORKER_COLUMNS: &str = "id, host, pid, threads, ladder_id, ludus_version, wasmtime_version, started_at, last_seen, played, lease_ms, stopped";

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
    /// (killed, crashed), at once rather than when the leases expire, and
    /// records them as stopped: on one machine a killed run never holds up
    /// the next, nor is counted as live. A worker on another host is known
    /// to be gone only by its lease's end. Returns how many workers were
    /// found gone.
    pub fn reap_local_workers(&self) -> Result<usize, StoreError> {
        let host = this_host();
        let holders = self.conn.rows(
            "SELECT id, pid FROM workers WHERE host = $1 AND stopped = 0",
            vals![host],
            |r| Ok((r.i64(0)?, r.u32(1)?)),
        )?;
        let gone: Vec<i64> = holders
            .into_iter()
            .filter(|&(_, pid)| pid != std::process::id() && !process_alive(pid))
            .map(|(id, _)| id)
            .collect();
        for &id in &gone {
            tracing::info!(
                worker = id,
                "worker {id} of this host is gone: its matches are claimable again"
            );
            self.conn.write(|db| {
                db.execute(
                    "UPDATE matches SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = $1",
                    vals![id],
                )?;
                db.execute("UPDATE workers SET stopped = 1 WHERE id = $1", vals![id])
            })?;
        }
        Ok(gone.len())
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

    /// The worker's heartbeat: it is alive, and its leases run for `lease`
    /// more from now. Returns how many leases it holds.
    pub fn heartbeat(&self, worker: i64, lease: Duration) -> Result<u64, StoreError> {
        self.conn.write(|db| {
            relaxed(db)?;
            db.execute(
                "UPDATE workers SET last_seen = {now} WHERE id = $1",
                vals![worker],
            )?;
            db.execute(
                "UPDATE matches SET lease_until = {now} + $2 WHERE lease_owner = $1 AND (done = 0 OR verify = 1)",
                vals![worker, ms(lease)],
            )
        })
    }

    /// The worker stops: the leases it still holds are released, their
    /// claims not counted as attempts, and it is recorded as stopped.
    pub fn stop_worker(&self, worker: i64) -> Result<(), StoreError> {
        self.conn.write(|db| {
            db.execute(
                "UPDATE matches SET lease_owner = NULL, lease_until = NULL,
                        attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END
                 WHERE lease_owner = $1 AND (done = 0 OR verify = 1)",
                vals![worker],
            )?;
            db.execute(
                "UPDATE workers SET stopped = 1, last_seen = {now} WHERE id = $1",
                vals![worker],
            )?;
            Ok(())
        })
    }
}
