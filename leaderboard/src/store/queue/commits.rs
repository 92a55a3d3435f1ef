//! Commits: a worker's result goes in with its replay in one transaction
//! (on PostgreSQL, with the worker's next claim, in one statement). A
//! result that arrives twice is compared by its replay's sha256: the same
//! is ignored, a different one is kept as an integrity event naming the
//! worker, and the match is played once more to verify it. A result whose
//! replay its ladder's policy does not store comes with an empty replay:
//! its sha256 is compared all the same.

use super::claims::{
    claim_ctes, ClaimNext, ClaimParams, Claimed, Except, CLAIM_COLUMNS, CLAIM_FROM,
};
use super::{insert_result, ms, relaxed, result_values, Queue, MAX_ATTEMPTS, RELAXED};
use crate::store::db::{vals, Db, DbError, Value};
use crate::store::error::StoreError;
use crate::store::records::{match_result, MatchResult};
use std::collections::BTreeSet;
use std::time::Duration;

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

/// The sha256 of a gzipped replay's JSON.
pub fn replay_sha256_of_gz(gz: &[u8]) -> Option<String> {
    use std::io::Read;
    let mut json = Vec::new();
    flate2::read::GzDecoder::new(gz)
        .read_to_end(&mut json)
        .ok()?;
    Some(ludus_host::sha256_hex(&json))
}

/// The stored result of a match, its replay hash computed from the stored
/// replay where the result predates replay hashes.
fn stored_result(db: &mut Db, ladder: i64, index: u32) -> Result<MatchResult, DbError> {
    let row = db
        .query_opt(
            "SELECT idx, match_id, placements, scores, faults, turns, reason, aborted, replay_sha256, refused
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
            // The kept replay was the wrong one: replaced, or removed
            // where the ladder's policy does not store this one.
            if replay_gz.is_empty() {
                db.execute(
                    "DELETE FROM replays WHERE match_id = $1",
                    vals![&result.match_id],
                )?;
            } else {
                db.execute(
                    "UPDATE replays SET replay_gz = $2 WHERE match_id = $1",
                    vals![&result.match_id, replay_gz],
                )?;
            }
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

impl Queue<'_> {
    /// Commits `worker`'s result of a match with its replay (gzip), in one
    /// transaction; see [`Committed`] for what a result that arrives twice
    /// becomes.
    pub fn commit(
        &self,
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

    /// Commits a result to `ladder` as [`Queue::commit`] does, and claims
    /// `next` as [`Queue::claim`] does (from the same ladder or another): a
    /// worker's step when one of its threads finishes a match.
    pub fn commit_and_claim(
        &self,
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
    /// as [`Queue::commit`] does, what became of each in their order, and
    /// claims `next` as [`Queue::claim`] does. On PostgreSQL the results
    /// that are their matches' first (the usual case) and the claim are one
    /// statement, one round trip, one transaction: a worker that commits
    /// several results at once pays for the statement once. A result that
    /// arrived before it is then compared in a transaction of its own. When
    /// a result names a match the ladder does not have, nothing is claimed
    /// and the answer is [`StoreError::UnknownIndex`].
    pub fn commit_many_and_claim(
        &self,
        worker: i64,
        ladder: i64,
        results: &[(&MatchResult, &[u8])],
        next: &ClaimNext,
    ) -> Result<(Vec<Committed>, Vec<Claimed>), StoreError> {
        // On PostgreSQL the first results go in with the claim, one result
        // a match: a second one for the same match (its lease ran out and
        // it came back to this worker) is compared afterwards, as any late
        // result is, and so is every result on SQLite.
        let (mut recorded, claimed) = if self.conn.is_postgres() && !results.is_empty() {
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

    /// Records that the ladder's match at `index`, played again on request
    /// to regenerate its replay, gave a replay with sha256 `got` instead of
    /// the `recorded` one: an integrity event with its verdict already
    /// written (the recorded result stands; the replay was not served).
    /// Returns the event's id.
    pub fn regenerated_differs(
        &self,
        ladder: i64,
        index: u32,
        recorded: &str,
        got: &str,
        replay_gz: &[u8],
    ) -> Result<i64, StoreError> {
        let event = self.conn.write(|db| {
            db.query_opt(
                "INSERT INTO integrity_events (ladder_id, idx, kept_worker, kept_sha256, worker, sha256, replay_gz, at, verdict)
                 VALUES ($1, $2, (SELECT played_by FROM matches WHERE ladder_id = $1 AND idx = $2), $3, 0, $4, $5, {now}, $6) RETURNING id",
                vals![
                    ladder,
                    index,
                    recorded,
                    got,
                    replay_gz,
                    "played again on request to regenerate its replay, which differs from the recorded one: the recorded result stands, the replay was not served"
                ],
            )?
            .expect("INSERT … RETURNING gives a row")
            .i64(0)
        })?;
        tracing::error!(
            ladder,
            index,
            "a match played again to regenerate its replay differs from its recorded result: integrity event {event}"
        );
        Ok(event)
    }

    /// [`Queue::commit`] in a transaction that reads the match first, so
    /// that a result arriving twice is compared with the one kept.
    fn commit_compared(
        &self,
        worker: i64,
        ladder: i64,
        result: &MatchResult,
        replay_gz: &[u8],
    ) -> Result<Committed, StoreError> {
        let index = result.index;
        self.conn.write(|db| {
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

    /// [`Queue::commit`] of matches' first results on PostgreSQL, with the
    /// claim of up to `n` more matches: the replays, the results, the
    /// matches' state, the worker's count and the claim in one statement,
    /// one round trip, its own transaction. Returns the indices whose
    /// results were recorded, and what was claimed. A result whose match is
    /// already done is not written here (it goes the longer way, which
    /// compares the results) but the claim is made; when the ladder lacks
    /// one of the matches, no claim is.
    fn commit_first_and_claim(
        &self,
        worker: i64,
        ladder: i64,
        results: &[(&MatchResult, &[u8])],
        next: &ClaimNext,
    ) -> Result<(Vec<u32>, Vec<Claimed>), StoreError> {
        // $1 to $6, then eleven parameters per result. The results are padded
        // to a power of two with rows of no match (negative indices, passed
        // over), so that few statements are prepared, each planned once.
        const FIXED: usize = 6;
        const PER_RESULT: usize = 11;
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
                "(${}::bigint, ${}::text, ${}::text, ${}::text, ${}::text, ${}::bigint, ${}::text, ${}::text, ${}::text, ${}::text, ${}::bytea)",
                p + 1, p + 2, p + 3, p + 4, p + 5, p + 6, p + 7, p + 8, p + 9, p + 10, p + 11
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
        let rows = self.conn.query(
            &format!(
                "WITH input (idx, match_id, placements, scores, faults, turns, reason, aborted, replay_sha256, refused, replay_gz) AS (
                     VALUES {rows_sql}
                 ), m AS (
                     SELECT idx, done FROM matches WHERE ladder_id = $1 AND idx IN ({indices})
                     ORDER BY idx FOR UPDATE
                 ), fresh AS MATERIALIZED (
                     SELECT i.* FROM input i JOIN m ON m.idx = i.idx WHERE m.done = 0
                 ), replay AS (
                     INSERT INTO replays (match_id, replay_gz)
                     SELECT match_id, replay_gz FROM fresh WHERE match_id <> '' AND length(replay_gz) > 0
                     ON CONFLICT (match_id) DO NOTHING
                 ), result AS (
                     INSERT INTO results (ladder_id, idx, match_id, placements, scores, faults, turns, reason, aborted, replay_sha256, refused)
                     SELECT $1, idx, match_id, placements, scores, faults, turns, reason, aborted, replay_sha256, refused
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
                    self.conn.err(DbError::Decode {
                        column: 8,
                        wanted: "the indices of the recorded results",
                        found: e.to_string(),
                    })
                })?,
            Err(e) => return Err(self.conn.err(e)),
        };
        Ok((recorded, self.claimed_or_void(next.ladder, rows)?))
    }
}
