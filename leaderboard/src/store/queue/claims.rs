//! Claims: up to n claimable matches of a ladder, in schedule order, under
//! a lease (one statement on PostgreSQL, `FOR UPDATE SKIP LOCKED`; on
//! SQLite the immediate transaction holds the one write lock). A match that
//! [`MAX_ATTEMPTS`] claims did not finish is recorded as void first.

use super::{insert_result, ms, relaxed, Queue, MAX_ATTEMPTS, RELAXED};
use crate::store::db::{vals, Db, DbError, Row, Value};
use crate::store::error::StoreError;
use crate::store::records::MatchResult;
use std::time::Duration;

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

fn void_reason() -> String {
    format!("void: no worker finished it in {MAX_ATTEMPTS} attempts")
}

/// Where a claim's parameters are in its statement (`$k`).
pub(super) struct ClaimParams<'a> {
    pub(super) worker: usize,
    pub(super) lease: usize,
    pub(super) ladder: usize,
    pub(super) attempts: usize,
    /// How many matches to claim: written into the statement, as a plan
    /// made once for a `LIMIT` parameter does not walk the partial index.
    pub(super) n: usize,
    /// The matches the same statement commits, locked by its CTE `m`:
    /// passed over, and nothing is claimed when the ladder lacks one of
    /// them (the commit is refused then).
    pub(super) except: Option<Except<'a>>,
}

/// The matches a claim passes over: the parameter of their ladder, theirs
/// (`$k, …`) and the parameter of how many of them are real.
pub(super) struct Except<'a> {
    pub(super) ladder: usize,
    pub(super) indices: &'a str,
    pub(super) count: usize,
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
pub(super) fn claim_ctes(p: ClaimParams<'_>) -> String {
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
pub(super) const CLAIM_COLUMNS: &str = "c.idx, c.grp, c.seed, c.seats, c.attempts, c.verify, e.any";

/// Where a claim's rows come from: a row even when nothing is claimed.
pub(super) const CLAIM_FROM: &str = "FROM exhausted e LEFT JOIN claimed c ON true";

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

impl Queue<'_> {
    /// Claims up to `n` claimable matches of `ladder` for `worker`, in
    /// schedule order, under a lease of `lease`. Matches that
    /// [`MAX_ATTEMPTS`] claims did not finish are recorded as void first.
    pub fn claim(
        &self,
        worker: i64,
        ladder: i64,
        n: usize,
        lease: Duration,
    ) -> Result<Vec<Claimed>, StoreError> {
        if self.conn.is_postgres() {
            return self.claim_in_one_statement(worker, ladder, n, lease);
        }
        self.conn.write(|db| {
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

    /// [`Queue::claim`] on PostgreSQL: one round trip, its own transaction.
    fn claim_in_one_statement(
        &self,
        worker: i64,
        ladder: i64,
        n: usize,
        lease: Duration,
    ) -> Result<Vec<Claimed>, StoreError> {
        let rows = self.conn.query(
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
    pub(super) fn claimed_or_void(
        &self,
        ladder: i64,
        rows: Vec<Row>,
    ) -> Result<Vec<Claimed>, StoreError> {
        let exhausted = rows
            .first()
            .map(|r| r.i64(6))
            .transpose()
            .map_err(|e| self.conn.err(e))?
            == Some(1);
        if exhausted {
            self.conn.write(|db| {
                relaxed(db)?;
                void_exhausted(db, ladder)
            })?;
        }
        // With nothing claimed, the one row is the `exhausted` flag's alone.
        let rows: Vec<Row> = rows.into_iter().filter(|r| r.0[0] != Value::Null).collect();
        claimed_rows(ladder, &rows).map_err(|e| self.conn.err(e))
    }

    /// Gives back a match the worker could not play: its claim stays
    /// counted, and the match is claimable again at once.
    pub fn release(&self, worker: i64, ladder: i64, index: u32) -> Result<(), StoreError> {
        self.conn.write(|db| {
            db.execute(
                "UPDATE matches SET lease_owner = NULL, lease_until = NULL
                 WHERE ladder_id = $1 AND idx = $2 AND lease_owner = $3",
                vals![ladder, index, worker],
            )?;
            Ok(())
        })
    }

    /// Ladders with matches left to play or verify, oldest first, each
    /// with whether it plays a challenge (whose share of a worker's time
    /// the server sets).
    pub fn ladders_with_work_and_kind(&self) -> Result<Vec<(i64, bool)>, StoreError> {
        self.conn.rows(
            "SELECT w.ladder_id, l.kind FROM
                 (SELECT DISTINCT ladder_id FROM matches WHERE done = 0 OR verify = 1) w
             JOIN ladders l ON l.id = w.ladder_id ORDER BY w.ladder_id",
            &[],
            |r| Ok((r.i64(0)?, r.text(1)? == crate::store::CHALLENGE_KIND)),
        )
    }

    /// Ladders with matches left to play or verify, oldest first.
    pub fn ladders_with_work(&self) -> Result<Vec<i64>, StoreError> {
        self.conn.rows(
            "SELECT DISTINCT ladder_id FROM matches WHERE done = 0 OR verify = 1 ORDER BY ladder_id",
            &[],
            |r| r.i64(0),
        )
    }
}
