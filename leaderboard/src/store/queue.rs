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
//! seen), from which `ladder status` reads who is playing.

use super::db::{vals, Db, DbError, Row, Value};
use super::{match_result, Lock, MatchResult, Store, StoreError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::time::Duration;

/// Claims of one match that may end without a result before it is void.
pub const MAX_ATTEMPTS: u32 = 3;

/// What a worker must run to play a ladder's matches, as the ladder
/// records it: replays (and so results) are the same bytes only between
/// the same engine, rules and sandbox.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Needs {
    /// The Ludus version (engines and host).
    pub ludus_version: String,
    /// The game's rules version.
    pub rules_version: u32,
    /// The wasmtime version: fuel accounting may change between releases.
    pub wasmtime_version: String,
}

impl Needs {
    /// What this build is, for a game of `rules_version`.
    pub fn of_this_build(rules_version: u32) -> Needs {
        Needs {
            ludus_version: env!("CARGO_PKG_VERSION").into(),
            rules_version,
            wasmtime_version: ludus_host::WASMTIME_VERSION.into(),
        }
    }

    /// Why a worker that is `mine` may not play a ladder that needs `self`;
    /// `None` when it may.
    pub fn refusal(&self, mine: &Needs) -> Option<String> {
        let mut differ = Vec::new();
        if self.ludus_version != mine.ludus_version {
            differ.push(format!(
                "Ludus {} (this worker runs {})",
                self.ludus_version, mine.ludus_version
            ));
        }
        if self.rules_version != mine.rules_version {
            differ.push(format!(
                "rules version {} (this worker has {})",
                self.rules_version, mine.rules_version
            ));
        }
        if self.wasmtime_version != mine.wasmtime_version {
            differ.push(format!(
                "wasmtime {} (this worker has {})",
                self.wasmtime_version, mine.wasmtime_version
            ));
        }
        (!differ.is_empty()).then(|| differ.join(", "))
    }
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

/// A match a worker holds a lease on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claimed {
    pub ladder: i64,
    pub index: u32,
    pub group: u32,
    pub seed: u64,
    pub seats: Vec<usize>,
    /// This claim's number, from 1.
    pub attempt: u32,
    /// Played again to verify a result that arrived twice, differently.
    pub verify: bool,
}

/// What a worker's step claims with its commit: up to `n` matches of
/// `ladder`, under a lease of `lease`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClaimNext {
    pub ladder: i64,
    pub n: usize,
    pub lease: Duration,
}

/// What became of a committed result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Committed {
    /// The match's result.
    Recorded,
    /// The match had this very result already (same replay hash): ignored.
    Same,
    /// The match had another result: kept, and this one recorded as an
    /// integrity event; the match will be played again to verify.
    Differs { event: i64 },
    /// A verification's result, and the verdict written on the events.
    Verified { verdict: String },
}

/// A result that arrived twice with different replays.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IntegrityEvent {
    pub id: i64,
    pub ladder: i64,
    pub index: u32,
    /// The worker whose result is kept (none for results stored before
    /// workers were recorded).
    pub kept_worker: Option<i64>,
    pub kept_sha256: String,
    /// The worker whose result differed.
    pub worker: i64,
    pub sha256: String,
    pub at: i64,
    /// What the verification found; `None` until it is played again.
    pub verdict: Option<String>,
}

/// Where a ladder stands: its matches, its workers, its pace.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LadderStatus {
    pub ladder: i64,
    pub game: String,
    pub total: u32,
    /// With a result (void ones included).
    pub done: u32,
    /// Held under an unexpired lease.
    pub leased: u32,
    /// Neither done nor leased.
    pub pending: u32,
    /// Done, but to be played again because a second result differed.
    pub verifying: u32,
    /// Recorded as void: no worker finished them.
    pub void: u32,
    pub integrity_events: u32,
    /// The ratings cover the matches before this index.
    pub rated_through: u32,
    /// Matches finished per second over the last five minutes, when at
    /// least two were.
    pub rate: Option<f64>,
    /// The database's clock, in ms since the Unix epoch.
    pub now: i64,
    /// Workers of this ladder or of any ladder, live first.
    pub workers: Vec<WorkerInfo>,
}

impl LadderStatus {
    /// Seconds until every match is done at the current rate.
    pub fn eta_s(&self) -> Option<f64> {
        let left = self.total - self.done;
        match self.rate {
            _ if left == 0 => Some(0.0),
            Some(rate) if rate > 0.0 => Some(left as f64 / rate),
            _ => None,
        }
    }
}

/// How often a worker renews its leases: three times a lease.
pub fn renew_every(lease: Duration) -> Duration {
    lease / 3
}

fn ms(d: Duration) -> i64 {
    d.as_millis().min(i64::MAX as u128) as i64
}

/// The sha256 of a gzipped replay's JSON.
pub fn replay_sha256_of_gz(gz: &[u8]) -> Option<String> {
    use std::io::Read;
    let mut json = Vec::new();
    flate2::read::GzDecoder::new(gz)
        .read_to_end(&mut json)
        .ok()?;
    Some(ludus_host::sha256_hex(&json))
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

/// The queue's own transactions (claims, results, heartbeats) on
/// PostgreSQL commit without waiting for their WAL to reach the disk: a
/// server crash may lose the last few hundred milliseconds of them, never
/// part of one (a result goes with its replay and its `done` mark), and a
/// lost result is played again, to the same bytes. This saves an fsync per
/// match, most of the cost of coordination. SQLite's WAL with `synchronous
/// = NORMAL` makes the same trade.
fn relaxed(db: &mut Db) -> Result<(), DbError> {
    if db.dialect() == super::db::Dialect::Postgres {
        db.execute("SET LOCAL synchronous_commit TO off", &[])?;
    }
    Ok(())
}

/// [`relaxed`] as a column of a statement that is its own transaction
/// (PostgreSQL): the setting holds until that transaction's commit, which
/// is where it is read.
const RELAXED: &str = "set_config('synchronous_commit', 'off', true)";

fn void_reason() -> String {
    format!("void: no worker finished it in {MAX_ATTEMPTS} attempts")
}

fn worker_info(r: &Row) -> Result<WorkerInfo, DbError> {
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

const WORKER_COLUMNS: &str = "id, host, pid, threads, ladder_id, ludus_version, wasmtime_version, started_at, last_seen, played, lease_ms, stopped";

impl Store {
    /// Records a new worker of this process and returns its id.
    pub fn register_worker(
        &mut self,
        threads: usize,
        ladder: Option<i64>,
        lease: Duration,
    ) -> Result<i64, StoreError> {
        let host = this_host();
        let mine = Needs::of_this_build(0);
        self.write(|db| {
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
    pub fn reap_local_workers(&mut self) -> Result<usize, StoreError> {
        let host = this_host();
        let holders = self.rows(
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
            self.write(|db| {
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
    pub fn heartbeat(&mut self, worker: i64, lease: Duration) -> Result<u64, StoreError> {
        self.write(|db| {
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
    pub fn stop_worker(&mut self, worker: i64) -> Result<(), StoreError> {
        self.write(|db| {
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

    /// Claims up to `n` claimable matches of `ladder` for `worker`, in
    /// schedule order, under a lease of `lease`. Matches that
    /// [`MAX_ATTEMPTS`] claims did not finish are recorded as void first.
    pub fn claim(
        &mut self,
        worker: i64,
        ladder: i64,
        n: usize,
        lease: Duration,
    ) -> Result<Vec<Claimed>, StoreError> {
        if self.is_postgres() {
            return self.claim_in_one_statement(worker, ladder, n, lease);
        }
        self.write(|db| {
            relaxed(db)?;
            void_exhausted(db, ladder)?;
            let rows = db.query(
                "UPDATE matches SET lease_owner = $1, lease_until = {now} + $2, attempts = attempts + 1
                 WHERE ladder_id = $3 AND idx IN (
                     SELECT idx FROM matches
                     WHERE ladder_id = $3 AND (done = 0 OR verify = 1) AND attempts < $4
                       AND (lease_until IS NULL OR lease_until < {now})
                     ORDER BY idx LIMIT $5 {skip_locked})
                 RETURNING idx, grp, seed, seats, attempts, verify",
                vals![worker, ms(lease), ladder, MAX_ATTEMPTS, n],
            )?;
            claimed_rows(ladder, &rows)
        })
    }

    pub(crate) fn is_postgres(&self) -> bool {
        self.db.borrow().dialect() == super::db::Dialect::Postgres
    }

    /// [`Store::claim`] on PostgreSQL: one round trip, its own transaction.
    fn claim_in_one_statement(
        &mut self,
        worker: i64,
        ladder: i64,
        n: usize,
        lease: Duration,
    ) -> Result<Vec<Claimed>, StoreError> {
        let rows = self.query(
            &format!(
                "WITH {claim} SELECT {CLAIM_COLUMNS}, {RELAXED} {CLAIM_FROM}",
                claim = claim_ctes(ClaimParams {
                    worker: 1,
                    lease: 2,
                    ladder: 3,
                    attempts: 4,
                    n,
                    except: None,
                })
            ),
            vals![worker, ms(lease), ladder, MAX_ATTEMPTS],
        )?;
        self.claimed_or_void(ladder, rows)
    }

    /// The rows of [`claim_ctes`] as claimed matches, voiding the matches
    /// that ran out of attempts when the statement found any.
    fn claimed_or_void(&mut self, ladder: i64, rows: Vec<Row>) -> Result<Vec<Claimed>, StoreError> {
        let exhausted = rows
            .first()
            .map(|r| r.i64(6))
            .transpose()
            .map_err(|e| self.err(e))?
            == Some(1);
        if exhausted {
            self.write(|db| {
                relaxed(db)?;
                void_exhausted(db, ladder)
            })?;
        }
        // With nothing claimed, the one row is the `exhausted` flag's alone.
        let rows: Vec<Row> = rows.into_iter().filter(|r| r.0[0] != Value::Null).collect();
        claimed_rows(ladder, &rows).map_err(|e| self.err(e))
    }

    /// Gives back a match the worker could not play: its claim stays
    /// counted, and the match is claimable again at once.
    pub fn release(&mut self, worker: i64, ladder: i64, index: u32) -> Result<(), StoreError> {
        self.write(|db| {
            db.execute(
                "UPDATE matches SET lease_owner = NULL, lease_until = NULL
                 WHERE ladder_id = $1 AND idx = $2 AND lease_owner = $3",
                vals![ladder, index, worker],
            )?;
            Ok(())
        })
    }

    /// Commits `worker`'s result of a match with its replay (gzip), in one
    /// transaction; see [`Committed`] for what a result that arrives twice
    /// becomes.
    pub fn commit(
        &mut self,
        worker: i64,
        ladder: i64,
        result: &MatchResult,
        replay_gz: &[u8],
    ) -> Result<Committed, StoreError> {
        let nothing = ClaimNext {
            ladder,
            n: 0,
            lease: Duration::ZERO,
        };
        let (mut committed, _) =
            self.commit_many_and_claim(worker, ladder, &[(result, replay_gz)], &nothing)?;
        Ok(committed.pop().expect("one result, one answer"))
    }

    /// Commits a result to `ladder` as [`Store::commit`] does, and claims
    /// `next` as [`Store::claim`] does (from the same ladder or another): a
    /// worker's step when one of its threads finishes a match.
    pub fn commit_and_claim(
        &mut self,
        worker: i64,
        ladder: i64,
        result: &MatchResult,
        replay_gz: &[u8],
        next: &ClaimNext,
    ) -> Result<(Committed, Vec<Claimed>), StoreError> {
        let (mut committed, claimed) =
            self.commit_many_and_claim(worker, ladder, &[(result, replay_gz)], next)?;
        Ok((committed.pop().expect("one result, one answer"), claimed))
    }

    /// Commits results of `ladder`'s matches (each with its replay, gzip)
    /// as [`Store::commit`] does, what became of each in their order, and
    /// claims `next` as [`Store::claim`] does. On PostgreSQL the results
    /// that are their matches' first (the usual case) and the claim are one
    /// statement, one round trip, one transaction: a worker that commits
    /// several results at once pays for the statement once. A result that
    /// arrived before it is then compared in a transaction of its own. When
    /// a result names a match the ladder does not have, nothing is claimed
    /// and the answer is [`StoreError::UnknownIndex`].
    pub fn commit_many_and_claim(
        &mut self,
        worker: i64,
        ladder: i64,
        results: &[(&MatchResult, &[u8])],
        next: &ClaimNext,
    ) -> Result<(Vec<Committed>, Vec<Claimed>), StoreError> {
        // On PostgreSQL the first results go in with the claim, one result
        // a match: a second one for the same match (its lease ran out and
        // it came back to this worker) is compared afterwards, as any late
        // result is, and so is every result on SQLite.
        let (mut recorded, claimed) = if self.is_postgres() && !results.is_empty() {
            let mut seen = BTreeSet::new();
            let first: Vec<(&MatchResult, &[u8])> = results
                .iter()
                .filter(|(r, _)| seen.insert(r.index))
                .copied()
                .collect();
            let (recorded, claimed) = self.commit_first_and_claim(worker, ladder, &first, next)?;
            (recorded.into_iter().collect(), Some(claimed))
        } else {
            (BTreeSet::new(), None)
        };
        let mut committed = Vec::with_capacity(results.len());
        for (result, replay_gz) in results {
            committed.push(if recorded.remove(&result.index) {
                Committed::Recorded
            } else {
                self.commit_compared(worker, ladder, result, replay_gz)?
            });
        }
        let claimed = match claimed {
            Some(claimed) => claimed,
            None if next.n > 0 => self.claim(worker, next.ladder, next.n, next.lease)?,
            None => Vec::new(),
        };
        Ok((committed, claimed))
    }

    /// [`Store::commit`] in a transaction that reads the match first, so
    /// that a result arriving twice is compared with the one kept.
    fn commit_compared(
        &mut self,
        worker: i64,
        ladder: i64,
        result: &MatchResult,
        replay_gz: &[u8],
    ) -> Result<Committed, StoreError> {
        let index = result.index;
        self.write(|db| {
            relaxed(db)?;
            let Some(row) = db.query_opt(
                "SELECT done, verify, lease_owner, played_by FROM matches
                 WHERE ladder_id = $1 AND idx = $2 {for_update}",
                vals![ladder, index],
            )?
            else {
                return Ok(Err(StoreError::UnknownIndex { ladder, index }));
            };
            let (done, verify, owner, played_by) =
                (row.i64(0)? != 0, row.i64(1)? != 0, row.opt_i64(2)?, row.opt_i64(3)?);
            if !done {
                insert_result(db, ladder, result, replay_gz)?;
                db.execute(
                    "UPDATE matches SET done = 1, lease_owner = NULL, lease_until = NULL,
                            played_by = $3, finished_at = {now}
                     WHERE ladder_id = $1 AND idx = $2",
                    vals![ladder, index, worker],
                )?;
                db.execute(
                    "UPDATE workers SET played = played + 1, last_seen = {now} WHERE id = $1",
                    vals![worker],
                )?;
                return Ok(Ok(Committed::Recorded));
            }
            let kept = stored_result(db, ladder, index)?;
            if verify && owner == Some(worker) {
                return verify_result(db, worker, ladder, result, replay_gz, &kept).map(Ok);
            }
            if kept.replay_sha256 == result.replay_sha256 {
                return Ok(Ok(Committed::Same));
            }
            let event = db
                .query_opt(
                    "INSERT INTO integrity_events (ladder_id, idx, kept_worker, kept_sha256, worker, sha256, replay_gz, at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, {now}) RETURNING id",
                    vals![ladder, index, played_by, &kept.replay_sha256, worker, &result.replay_sha256, replay_gz],
                )?
                .expect("INSERT … RETURNING gives a row")
                .i64(0)?;
            tracing::warn!(
                ladder,
                index,
                worker,
                kept_worker = played_by,
                "a second result differs from the kept one: integrity event {event}; the match will be verified"
            );
            db.execute(
                "UPDATE matches SET verify = 1, attempts = 0 WHERE ladder_id = $1 AND idx = $2",
                vals![ladder, index],
            )?;
            Ok(Ok(Committed::Differs { event }))
        })
        .and_then(|r| r)
    }

    /// [`Store::commit`] of matches' first results on PostgreSQL, with the
    /// claim of up to `n` more matches: the replays, the results, the
    /// matches' state, the worker's count and the claim in one statement,
    /// one round trip, its own transaction. Returns the indices whose
    /// results were recorded, and what was claimed. A result whose match is
    /// already done is not written here (it goes the longer way, which
    /// compares the results) but the claim is made; when the ladder lacks
    /// one of the matches, no claim is.
    fn commit_first_and_claim(
        &mut self,
        worker: i64,
        ladder: i64,
        results: &[(&MatchResult, &[u8])],
        next: &ClaimNext,
    ) -> Result<(Vec<u32>, Vec<Claimed>), StoreError> {
        // $1 to $6, then ten parameters per result. The results are padded
        // to a power of two with rows of no match (negative indices, passed
        // over), so that few statements are prepared, each planned once.
        const FIXED: usize = 6;
        const PER_RESULT: usize = 10;
        let mut params = vals![
            ladder,
            worker,
            ms(next.lease),
            MAX_ATTEMPTS,
            next.ladder,
            results.len()
        ]
        .to_vec();
        let blank = MatchResult::default();
        let padded = results.iter().copied().chain(std::iter::repeat_n(
            (&blank, &[][..]),
            results.len().next_power_of_two() - results.len(),
        ));
        let mut rows_sql = Vec::with_capacity(results.len());
        let mut indices = Vec::with_capacity(results.len());
        for (k, (result, replay_gz)) in padded.enumerate() {
            let p = FIXED + k * PER_RESULT;
            // Typed here: a parameter in a VALUES list would be taken for text.
            rows_sql.push(format!(
                "(${}::bigint, ${}::text, ${}::text, ${}::text, ${}::text, ${}::bigint, ${}::text, ${}::text, ${}::text, ${}::bytea)",
                p + 1, p + 2, p + 3, p + 4, p + 5, p + 6, p + 7, p + 8, p + 9, p + 10
            ));
            indices.push(format!("${}", p + 1));
            let mut values = result_values(ladder, result).into_iter().skip(1);
            if k >= results.len() {
                // No match has a negative index.
                values.next();
                params.push(Value::from(-1 - k as i64));
            }
            params.extend(values);
            params.push(Value::from(replay_gz));
        }
        let (rows_sql, indices) = (rows_sql.join(", "), indices.join(", "));
        // The matches' rows are locked first, in index order: a second
        // result for one of them waits, then finds it done, and writes
        // nothing here. The claim passes over those rows, which its own
        // statement holds.
        let rows = self.query(
            &format!(
                "WITH input (idx, match_id, placements, scores, faults, turns, reason, aborted, replay_sha256, replay_gz) AS (
                     VALUES {rows_sql}
                 ), m AS (
                     SELECT idx, done FROM matches WHERE ladder_id = $1 AND idx IN ({indices})
                     ORDER BY idx FOR UPDATE
                 ), fresh AS MATERIALIZED (
                     SELECT i.* FROM input i JOIN m ON m.idx = i.idx WHERE m.done = 0
                 ), replay AS (
                     INSERT INTO replays (match_id, replay_gz)
                     SELECT match_id, replay_gz FROM fresh WHERE match_id <> ''
                     ON CONFLICT (match_id) DO NOTHING
                 ), result AS (
                     INSERT INTO results (ladder_id, idx, match_id, placements, scores, faults, turns, reason, aborted, replay_sha256)
                     SELECT $1, idx, match_id, placements, scores, faults, turns, reason, aborted, replay_sha256
                     FROM fresh
                 ), state AS (
                     UPDATE matches q SET done = 1, lease_owner = NULL, lease_until = NULL,
                            played_by = $2, finished_at = {{now}}
                     FROM fresh f WHERE q.ladder_id = $1 AND q.idx = f.idx
                 ), played AS (
                     UPDATE workers SET played = played + (SELECT count(*) FROM fresh), last_seen = {{now}}
                     WHERE id = $2 AND EXISTS (SELECT 1 FROM fresh)
                 ), {claim}
                 SELECT {CLAIM_COLUMNS}, {RELAXED}, (SELECT string_agg(idx::text, ',') FROM fresh) {CLAIM_FROM}",
                claim = claim_ctes(ClaimParams {
                    worker: 2,
                    lease: 3,
                    ladder: 5,
                    attempts: 4,
                    n: next.n,
                    except: Some(Except {
                        ladder: 1,
                        indices: &indices,
                        count: 6,
                    }),
                })
            ),
            &params,
        )?;
        let recorded = match rows.first().map(|r| r.opt_text(8)).transpose() {
            Ok(list) => list
                .flatten()
                .unwrap_or_default()
                .split(',')
                .filter(|i| !i.is_empty())
                .map(|i| i.parse::<u32>())
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| {
                    self.err(DbError::Decode {
                        column: 8,
                        wanted: "the indices of the recorded results",
                        found: e.to_string(),
                    })
                })?,
            Err(e) => return Err(self.err(e)),
        };
        Ok((recorded, self.claimed_or_void(next.ladder, rows)?))
    }

    /// The index before which every match of the ladder is done.
    pub fn finished_prefix(&self, ladder: i64) -> Result<u32, StoreError> {
        let first_open = self.rows(
            "SELECT min(idx) FROM matches WHERE ladder_id = $1 AND done = 0",
            vals![ladder],
            |r| r.opt_i64(0),
        )?;
        match first_open.first().copied().flatten() {
            Some(idx) => Ok(idx as u32),
            None => Ok(self.rows(
                "SELECT count(*) FROM matches WHERE ladder_id = $1",
                vals![ladder],
                |r| r.u32(0),
            )?[0]),
        }
    }

    /// Runs `f` holding the ladder's rating lock (PostgreSQL: an advisory
    /// lock; SQLite: the write lock), in one transaction: one process at a
    /// time applies ratings, and what `f` reads does not change under it.
    pub fn with_rating_lock<T, E: From<StoreError>>(
        &self,
        ladder: i64,
        f: impl FnOnce(&Store) -> Result<T, E>,
    ) -> Result<T, E> {
        {
            let mut db = self.db.borrow_mut();
            db.begin().map_err(|e| self.err(e))?;
            if let Err(e) = Lock::Ratings(ladder).take(&mut db) {
                db.rollback();
                return Err(self.err(e).into());
            }
        }
        let value = f(self);
        let mut db = self.db.borrow_mut();
        match value {
            Ok(v) => {
                db.commit().map_err(|e| self.err(e))?;
                Ok(v)
            }
            Err(e) => {
                db.rollback();
                Err(e)
            }
        }
    }

    /// Records that the ratings cover the matches before `end`.
    pub fn set_rated_through(&self, ladder: i64, end: u32) -> Result<(), StoreError> {
        self.write(|db| {
            db.execute(
                "UPDATE ladders SET rated_through = $2 WHERE id = $1",
                vals![ladder, end],
            )?;
            Ok(())
        })
    }

    /// Ladders with matches left to play or verify, oldest first.
    pub fn ladders_with_work(&self) -> Result<Vec<i64>, StoreError> {
        self.rows(
            "SELECT DISTINCT ladder_id FROM matches WHERE done = 0 OR verify = 1 ORDER BY ladder_id",
            &[],
            |r| r.i64(0),
        )
    }

    /// The number of matches in the ladder's schedule.
    pub fn schedule_len(&self, ladder: i64) -> Result<u32, StoreError> {
        Ok(self.rows(
            "SELECT count(*) FROM matches WHERE ladder_id = $1",
            vals![ladder],
            |r| r.u32(0),
        )?[0])
    }

    /// Matches of the ladder left to play or verify, leased or not.
    pub fn remaining(&self, ladder: i64) -> Result<u32, StoreError> {
        Ok(self.rows(
            "SELECT count(*) FROM matches WHERE ladder_id = $1 AND (done = 0 OR verify = 1)",
            vals![ladder],
            |r| r.u32(0),
        )?[0])
    }

    /// The ladder's integrity events, oldest first.
    pub fn integrity_events(&self, ladder: i64) -> Result<Vec<IntegrityEvent>, StoreError> {
        self.rows(
            "SELECT id, ladder_id, idx, kept_worker, kept_sha256, worker, sha256, at, verdict
             FROM integrity_events WHERE ladder_id = $1 ORDER BY id",
            vals![ladder],
            |r| {
                Ok(IntegrityEvent {
                    id: r.i64(0)?,
                    ladder: r.i64(1)?,
                    index: r.u32(2)?,
                    kept_worker: r.opt_i64(3)?,
                    kept_sha256: r.text(4)?,
                    worker: r.i64(5)?,
                    sha256: r.text(6)?,
                    at: r.i64(7)?,
                    verdict: r.opt_text(8)?,
                })
            },
        )
    }

    /// Where the ladder stands.
    pub fn ladder_status(&self, ladder: i64) -> Result<LadderStatus, StoreError> {
        let record = self.ladder(ladder)?;
        let counts = self.query(
            "SELECT count(*),
                    count(CASE WHEN done = 1 THEN 1 END),
                    count(CASE WHEN (done = 0 OR verify = 1) AND lease_until >= {now} THEN 1 END),
                    count(CASE WHEN verify = 1 THEN 1 END),
                    {now}
             FROM matches WHERE ladder_id = $1",
            vals![ladder],
        )?;
        let c = &counts[0];
        let int = |i| c.i64(i).map_err(|e| self.err(e));
        let (total, done, leased, verifying, now) = (
            int(0)? as u32,
            int(1)? as u32,
            int(2)? as u32,
            int(3)? as u32,
            int(4)?,
        );
        let void = self.rows(
            "SELECT count(*) FROM results WHERE ladder_id = $1 AND match_id = '' AND aborted IS NOT NULL",
            vals![ladder],
            |r| r.u32(0),
        )?[0];
        let events = self.rows(
            "SELECT count(*) FROM integrity_events WHERE ladder_id = $1",
            vals![ladder],
            |r| r.u32(0),
        )?[0];
        let recent = self.query(
            "SELECT count(*), min(finished_at) FROM matches
             WHERE ladder_id = $1 AND finished_at >= $2",
            vals![ladder, now - 300_000],
        )?;
        let (n, oldest) = (
            recent[0].i64(0).map_err(|e| self.err(e))?,
            recent[0].opt_i64(1).map_err(|e| self.err(e))?,
        );
        let rate = match oldest {
            // Two or more finished within the same millisecond count as a millisecond.
            Some(oldest) if n >= 2 => Some(n as f64 / ((now - oldest).max(1) as f64 / 1000.0)),
            _ => None,
        };
        let mut workers = self.rows(
            &format!(
                "SELECT {WORKER_COLUMNS} FROM workers
                 WHERE ladder_id = $1 OR ladder_id IS NULL
                    OR id IN (SELECT played_by FROM matches WHERE ladder_id = $1 AND played_by IS NOT NULL)
                 ORDER BY id"
            ),
            vals![ladder],
            worker_info,
        )?;
        workers.sort_by_key(|w| (!w.is_live(now), w.id));
        Ok(LadderStatus {
            ladder,
            game: record.game,
            total,
            done,
            leased,
            pending: total - done - leased.min(total - done),
            verifying,
            void,
            integrity_events: events,
            rated_through: record.rated_through,
            rate,
            now,
            workers,
        })
    }
}

fn insert_result(
    db: &mut Db,
    ladder: i64,
    result: &MatchResult,
    replay_gz: &[u8],
) -> Result<(), DbError> {
    if !result.match_id.is_empty() {
        db.execute(
            "INSERT INTO replays (match_id, replay_gz) VALUES ($1, $2) ON CONFLICT (match_id) DO NOTHING",
            vals![&result.match_id, replay_gz],
        )?;
    }
    db.execute(
        "INSERT INTO results (ladder_id, idx, match_id, placements, scores, faults, turns, reason, aborted, replay_sha256)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
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
    ]
    .to_vec()
}

/// Where a claim's parameters are in its statement (`$k`).
struct ClaimParams<'a> {
    worker: usize,
    lease: usize,
    ladder: usize,
    attempts: usize,
    /// How many matches to claim: written into the statement, as a plan
    /// made once for a `LIMIT` parameter does not walk the partial index.
    n: usize,
    /// The matches the same statement commits, locked by its CTE `m`:
    /// passed over, and nothing is claimed when the ladder lacks one of
    /// them (the commit is refused then).
    except: Option<Except<'a>>,
}

/// The matches a claim passes over: the parameter of their ladder, theirs
/// (`$k, …`) and the parameter of how many of them are real.
struct Except<'a> {
    ladder: usize,
    indices: &'a str,
    count: usize,
}

/// The claim on PostgreSQL as common table expressions: `picked`, up to n
/// claimable matches in schedule order, skipping rows other claims hold,
/// chosen once (as `UPDATE … WHERE idx IN (SELECT … LIMIT n FOR UPDATE
/// SKIP LOCKED)` the planner may run the choice again for every row, each
/// run passing over the rows the statement has just updated, and lease the
/// whole ladder); `claimed`, those matches leased; `exhausted` says whether any open match ran out of attempts
/// (those are voided afterwards, in a transaction of their own; the claim
/// passes them over either way, so the same matches are claimed). Read
/// with [`CLAIM_COLUMNS`] and [`CLAIM_FROM`]: one row per claimed match, or
/// one row of nulls and the flag.
fn claim_ctes(p: ClaimParams<'_>) -> String {
    let ClaimParams {
        worker,
        lease,
        ladder,
        attempts,
        n,
        except,
    } = p;
    let except = except.map_or(String::new(), |e| {
        format!(
            "AND NOT (ladder_id = ${} AND idx IN ({})) AND (SELECT count(*) FROM m) = ${}",
            e.ladder, e.indices, e.count
        )
    });
    format!(
        "picked AS MATERIALIZED (
             SELECT idx FROM matches
             WHERE ladder_id = ${ladder} AND (done = 0 OR verify = 1) AND attempts < ${attempts} {except}
               AND (lease_until IS NULL OR lease_until < {{now}})
             ORDER BY idx LIMIT {n} FOR UPDATE SKIP LOCKED
         ), claimed AS (
             UPDATE matches q SET lease_owner = ${worker}, lease_until = {{now}} + ${lease}, attempts = q.attempts + 1
             FROM picked p WHERE q.ladder_id = ${ladder} AND q.idx = p.idx
             RETURNING q.idx, q.grp, q.seed, q.seats, q.attempts, q.verify
         ), exhausted AS (
             SELECT coalesce((
                 SELECT attempts FROM matches
                 WHERE ladder_id = ${ladder} AND (done = 0 OR verify = 1)
                   AND (lease_until IS NULL OR lease_until < {{now}})
                 ORDER BY attempts DESC LIMIT 1), 0) >= ${attempts} AS any
         )"
    )
}

/// The columns of a claim's rows: the match (as [`claimed_rows`] reads
/// them), then the `exhausted` flag.
const CLAIM_COLUMNS: &str = "c.idx, c.grp, c.seed, c.seats, c.attempts, c.verify, e.any";

/// Where a claim's rows come from: a row even when nothing is claimed.
const CLAIM_FROM: &str = "FROM exhausted e LEFT JOIN claimed c ON true";

fn claimed_rows(ladder: i64, rows: &[Row]) -> Result<Vec<Claimed>, DbError> {
    let mut claimed = rows
        .iter()
        .map(|r| {
            Ok(Claimed {
                ladder,
                index: r.u32(0)?,
                group: r.u32(1)?,
                seed: r.i64(2)? as u64,
                seats: r.json(3)?,
                attempt: r.u32(4)?,
                verify: r.i64(5)? != 0,
            })
        })
        .collect::<Result<Vec<_>, DbError>>()?;
    claimed.sort_by_key(|c| c.index);
    Ok(claimed)
}

/// The stored result of a match, its replay hash computed from the stored
/// replay where the result predates replay hashes.
fn stored_result(db: &mut Db, ladder: i64, index: u32) -> Result<MatchResult, DbError> {
    let row = db
        .query_opt(
            "SELECT idx, match_id, placements, scores, faults, turns, reason, aborted, replay_sha256
             FROM results WHERE ladder_id = $1 AND idx = $2",
            vals![ladder, index],
        )?
        .ok_or(DbError::Decode {
            column: 0,
            wanted: "the result of a done match",
            found: "no row".into(),
        })?;
    let mut kept = match_result(&row)?;
    if kept.replay_sha256.is_empty() && !kept.match_id.is_empty() {
        if let Some(gz) = db.query_opt(
            "SELECT replay_gz FROM replays WHERE match_id = $1",
            vals![&kept.match_id],
        )? {
            kept.replay_sha256 = replay_sha256_of_gz(&gz.blob(0)?).unwrap_or_default();
        }
    }
    Ok(kept)
}

/// A verification's result against the kept one and the differing ones:
/// the result two workers agree on is kept; the verdict is written on the
/// match's open integrity events.
fn verify_result(
    db: &mut Db,
    worker: i64,
    ladder: i64,
    result: &MatchResult,
    replay_gz: &[u8],
    kept: &MatchResult,
) -> Result<Committed, DbError> {
    let index = result.index;
    let open = db.query(
        "SELECT id, worker, sha256, kept_worker FROM integrity_events
         WHERE ladder_id = $1 AND idx = $2 AND verdict IS NULL ORDER BY id",
        vals![ladder, index],
    )?;
    let mut verdicts = Vec::new();
    for e in &open {
        let (id, other, other_sha, kept_worker) = (e.i64(0)?, e.i64(1)?, e.text(2)?, e.opt_i64(3)?);
        let kept_by = kept_worker.map_or("an earlier run".to_string(), |w| format!("worker {w}"));
        let verdict = if result.replay_sha256 == kept.replay_sha256 {
            format!("verified by worker {worker}: the kept result of {kept_by} is right; worker {other} sent a different replay")
        } else if result.replay_sha256 == other_sha {
            format!("verified by worker {worker}: the result of worker {other} is right and replaces the one of {kept_by}")
        } else {
            format!("verified by worker {worker}: a third, different replay; the result of {kept_by} is kept, and no worker agrees with another")
        };
        db.execute(
            "UPDATE integrity_events SET verdict = $2 WHERE id = $1",
            vals![id, &verdict],
        )?;
        verdicts.push(verdict);
    }
    let replaces = result.replay_sha256 != kept.replay_sha256
        && open
            .iter()
            .any(|e| e.text(2).is_ok_and(|s| s == result.replay_sha256));
    if replaces {
        db.execute(
            "DELETE FROM results WHERE ladder_id = $1 AND idx = $2",
            vals![ladder, index],
        )?;
        if kept.match_id == result.match_id {
            db.execute(
                "UPDATE replays SET replay_gz = $2 WHERE match_id = $1",
                vals![&result.match_id, replay_gz],
            )?;
        }
        insert_result(db, ladder, result, replay_gz)?;
        // The ratings are applied again from here.
        db.execute(
            "UPDATE ladders SET rated_through = $2 WHERE id = $1 AND rated_through > $2",
            vals![ladder, index],
        )?;
    }
    db.execute(
        "UPDATE matches SET verify = 0, lease_owner = NULL, lease_until = NULL,
                played_by = CASE WHEN $3 = 1 THEN $4 ELSE played_by END
         WHERE ladder_id = $1 AND idx = $2",
        vals![ladder, index, replaces as i64, worker],
    )?;
    Ok(Committed::Verified {
        verdict: verdicts.join("; "),
    })
}

/// Records as void every match of the ladder that [`MAX_ATTEMPTS`] claims
/// did not finish, once its last lease has expired; and ends the
/// verification of a done match that as many claims did not finish.
fn void_exhausted(db: &mut Db, ladder: i64) -> Result<(), DbError> {
    let exhausted = db.query(
        "SELECT idx, done FROM matches
         WHERE ladder_id = $1 AND (done = 0 OR verify = 1) AND attempts >= $2
           AND (lease_until IS NULL OR lease_until < {now})
         {skip_locked}",
        vals![ladder, MAX_ATTEMPTS],
    )?;
    for row in exhausted {
        let (index, done) = (row.u32(0)?, row.i64(1)? != 0);
        if done {
            db.execute(
                "UPDATE integrity_events SET verdict = $3 WHERE ladder_id = $1 AND idx = $2 AND verdict IS NULL",
                vals![ladder, index, format!("not verified: no worker finished the match in {MAX_ATTEMPTS} attempts; the kept result stays")],
            )?;
            db.execute(
                "UPDATE matches SET verify = 0, lease_owner = NULL, lease_until = NULL WHERE ladder_id = $1 AND idx = $2",
                vals![ladder, index],
            )?;
            continue;
        }
        tracing::warn!(ladder, index, "{}", void_reason());
        let void = MatchResult {
            index,
            reason: "void".into(),
            aborted: Some(void_reason()),
            ..MatchResult::default()
        };
        insert_result(db, ladder, &void, &[])?;
        db.execute(
            "UPDATE matches SET done = 1, lease_owner = NULL, lease_until = NULL, finished_at = {now}
             WHERE ladder_id = $1 AND idx = $2",
            vals![ladder, index],
        )?;
    }
    Ok(())
}
