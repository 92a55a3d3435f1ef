//! The queue that workers share: scheduled matches are rows; a worker
//! claims a batch in one statement (`… ORDER BY idx LIMIT n FOR UPDATE SKIP
//! LOCKED` on PostgreSQL; on SQLite the immediate transaction holds the one
//! write lock), under a lease that ends at a time of the database's clock
//! and that the worker renews while it plays. A match whose lease expired
//! is claimable again; one that [`MAX_ATTEMPTS`] claims did not finish is
//! recorded as void, the same way whoever claims it next.
//!
//! Each result is committed with its replay in one transaction. A result
//! that arrives twice (a slow worker whose lease expired) is compared by
//! the sha256 of its replay: the same is ignored; a different one is kept
//! as an [`IntegrityEvent`] naming the worker, and the match is played once
//! more to verify it.
//!
//! Workers record heartbeats (host, pid, threads, matches played, last
//! seen), from which `ladder status` reads who is playing; with each
//! heartbeat a worker releases the leases of the workers of its host whose
//! process is gone.
//!
//! The queue's parts, a file each: `claims`, `commits`, `workers` (registry and
//! heartbeats), `status`.

mod claims;
mod commits;
mod status;
mod workers;

pub use claims::{ClaimNext, Claimed};
pub use commits::{replay_sha256_of_gz, Committed};
pub use status::{GameTotals, IntegrityEvent, LadderStatus, QueueDemand, QueueTotals};
pub use workers::{WorkerInfo, WorkerState, GONE_AFTER_HEARTBEATS, HEARTBEATS_PER_LEASE};

use super::conn::Conn;
use super::db::{vals, Db, DbError, Dialect, Value};
use super::records::MatchResult;
use std::time::Duration;

/// The queue of a store ([`super::Store::queue`]): claims, commits,
/// workers and where each ladder stands.
pub struct Queue<'s> {
    pub(crate) conn: &'s Conn,
}

/// Claims of one match that may end without a result before it is void.
pub const MAX_ATTEMPTS: u32 = 3;

/// How often a worker sends its heartbeat and renews its leases:
/// [`HEARTBEATS_PER_LEASE`] times a lease.
pub fn renew_every(lease: Duration) -> Duration {
    lease / HEARTBEATS_PER_LEASE
}

fn ms(d: Duration) -> i64 {
    d.as_millis().min(i64::MAX as u128) as i64
}

/// The queue's own transactions (claims, results, heartbeats) on
/// PostgreSQL commit without waiting for their WAL to reach the disk: a
/// server crash may lose the last few hundred milliseconds of them, never
/// part of one (a result goes with its replay and its `done` mark), and a
/// lost result is played again, to the same bytes. This saves an fsync per
/// match, most of the cost of coordination. SQLite's WAL with `synchronous
/// = NORMAL` makes the same trade.
fn relaxed(db: &mut Db) -> Result<(), DbError> {
    if db.dialect() == Dialect::Postgres {
        db.execute("SET LOCAL synchronous_commit TO off", &[])?;
    }
    Ok(())
}

/// [`relaxed`] as a column of a statement that is its own transaction
/// (PostgreSQL): the setting holds until that transaction's commit, which
/// is where it is read.
const RELAXED: &str = "set_config('synchronous_commit', 'off', true)";

fn insert_result(
    db: &mut Db,
    ladder: i64,
    result: &MatchResult,
    replay_gz: &[u8],
) -> Result<(), DbError> {
    // An empty replay is one the ladder's policy does not store.
    if !result.match_id.is_empty() && !replay_gz.is_empty() {
        db.execute(
            "INSERT INTO replays (match_id, replay_gz) VALUES ($1, $2) ON CONFLICT (match_id) DO NOTHING",
            vals![&result.match_id, replay_gz],
        )?;
    }
    db.execute(
        "INSERT INTO results (ladder_id, idx, match_id, placements, scores, faults, turns, reason, aborted, replay_sha256, refused)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        &result_values(ladder, result),
    )?;
    Ok(())
}

/// A result's columns, in the order of the `results` table.
fn result_values(ladder: i64, result: &MatchResult) -> Vec<Value> {
    vals![
        ladder,
        result.index,
        &result.match_id,
        serde_json::to_string(&result.placements).expect("serialises"),
        serde_json::to_string(&result.scores).expect("serialises"),
        serde_json::to_string(&result.faults).expect("serialises"),
        result.turns,
        &result.reason,
        result.aborted.as_deref(),
        &result.replay_sha256,
        serde_json::to_string(&result.refused).expect("serialises"),
    ]
    .to_vec()
}
