//! Results and replays: what each played match came to, its gzip replay by
//! match id, and the lookups the pages and commands make: by ladder, by
//! match id or a prefix of it. A bot's matches are read through the seat
//! index, [`super::Seats`].

use super::conn::Conn;
use super::db::vals;
use super::error::StoreError;
use super::records::{
    match_result, result_at, scheduled_match, MatchResult, RatedGame, RESULT_COLUMNS, R_COLUMNS,
};
use crate::schedule::ScheduledMatch;
use std::collections::BTreeMap;

/// The results and replays of a store ([`super::Store::results`]).
pub struct Results<'s> {
    pub(crate) conn: &'s Conn,
}

impl Results<'_> {
    /// The ladder's results, in schedule order.
    pub fn all(&self, ladder: i64) -> Result<Vec<MatchResult>, StoreError> {
        self.before(ladder, u32::MAX)
    }

    /// The ladder's results of the matches before index `end`, in schedule order.
    pub fn before(&self, ladder: i64, end: u32) -> Result<Vec<MatchResult>, StoreError> {
        self.conn.rows(
            &format!(
                "SELECT {RESULT_COLUMNS} FROM results WHERE ladder_id = $1 AND idx < $2 ORDER BY idx"
            ),
            vals![ladder, end],
            match_result,
        )
    }

    /// What ratings read of the matches before `end` that have an outcome
    /// (void and aborted ones left out), in schedule order: each match's
    /// index, its seats (ladder positions), their placements and faults. Only those
    /// columns, and without reading the rest of the schedule.
    pub fn rated_before(&self, ladder: i64, end: u32) -> Result<Vec<RatedGame>, StoreError> {
        self.rated_between(ladder, 0, end)
    }

    /// [`Results::rated_before`], from index `from` on: what an
    /// incremental rating reads.
    pub fn rated_between(
        &self,
        ladder: i64,
        from: u32,
        end: u32,
    ) -> Result<Vec<RatedGame>, StoreError> {
        super::records::rated_games(&mut self.conn.db.borrow_mut(), ladder, from, end)
            .map_err(|e| self.conn.err(e))
    }

    /// The ladder's schedule with the result of every match played so far.
    pub fn with_schedule(
        &self,
        ladder: i64,
    ) -> Result<Vec<(ScheduledMatch, Option<MatchResult>)>, StoreError> {
        let mut results: BTreeMap<u32, MatchResult> = self
            .all(ladder)?
            .into_iter()
            .map(|r| (r.index, r))
            .collect();
        Ok(super::Ladders { conn: self.conn }
            .schedule(ladder)?
            .into_iter()
            .map(|m| {
                let r = results.remove(&m.index);
                (m, r)
            })
            .collect())
    }

    /// The scheduled match at `index` of the ladder, with its result.
    pub fn at(
        &self,
        ladder: i64,
        index: u32,
    ) -> Result<Option<(ScheduledMatch, Option<MatchResult>)>, StoreError> {
        self.conn.row(
            &format!(
                "SELECT m.idx, m.grp, m.seed, m.seats, {R_COLUMNS}
                 FROM matches m
                 LEFT JOIN results r ON r.ladder_id = m.ladder_id AND r.idx = m.idx
                 WHERE m.ladder_id = $1 AND m.idx = $2"
            ),
            vals![ladder, index],
            |r| Ok((scheduled_match(r)?, result_at(r, 4)?)),
        )
    }

    /// Where the result with this full match id is: (ladder, index), in
    /// ladder order (the same match may be in several ladders).
    pub fn locate(&self, match_id: &str) -> Result<Vec<(i64, u32)>, StoreError> {
        self.conn.rows(
            "SELECT ladder_id, idx FROM results WHERE match_id = $1 ORDER BY ladder_id, idx",
            vals![match_id],
            |r| Ok((r.i64(0)?, r.u32(1)?)),
        )
    }

    /// Whether the replay of the match is stored.
    pub fn has_replay(&self, match_id: &str) -> Result<bool, StoreError> {
        Ok(self
            .conn
            .row(
                "SELECT 1 FROM replays WHERE match_id = $1",
                vals![match_id],
                |_| Ok(()),
            )?
            .is_some())
    }

    /// Stores a replay (gzip of the replay JSON) the policy left out; one
    /// already stored stays.
    pub fn keep_replay(&self, match_id: &str, replay_gz: &[u8]) -> Result<(), StoreError> {
        self.conn.write(|db| {
            db.execute(
                "INSERT INTO replays (match_id, replay_gz) VALUES ($1, $2) ON CONFLICT (match_id) DO NOTHING",
                vals![match_id, replay_gz],
            )
        })?;
        Ok(())
    }

    /// The ladder's played matches whose replay is not stored: (index,
    /// match id), in schedule order.
    pub fn without_replay(&self, ladder: i64) -> Result<Vec<(u32, String)>, StoreError> {
        self.conn.rows(
            "SELECT r.idx, r.match_id FROM results r
             WHERE r.ladder_id = $1 AND r.match_id <> ''
               AND NOT EXISTS (SELECT 1 FROM replays p WHERE p.match_id = r.match_id)
             ORDER BY r.idx",
            vals![ladder],
            |r| Ok((r.u32(0)?, r.text(1)?)),
        )
    }

    /// How many of the ladder's played matches have no stored replay.
    pub fn count_without_replay(&self, ladder: i64) -> Result<u32, StoreError> {
        self.conn.count(
            "SELECT count(*) FROM results r
             WHERE r.ladder_id = $1 AND r.match_id <> ''
               AND NOT EXISTS (SELECT 1 FROM replays p WHERE p.match_id = r.match_id)",
            vals![ladder],
        )
    }

    /// Removes the stored replays of the ladder's matches from index `from`
    /// to before `to`, but those in which a seat faulted when
    /// `keep_faulted`, and those another ladder's result shares (the same
    /// match in two ladders); records that pruning goes on from `to`.
    /// Returns how many were removed.
    pub fn prune_replays(
        &self,
        ladder: i64,
        from: u32,
        to: u32,
        keep_faulted: bool,
    ) -> Result<u64, StoreError> {
        self.conn.write(|db| {
            let rows = db.query(
                "SELECT r.match_id, r.faults FROM results r
                 WHERE r.ladder_id = $1 AND r.idx >= $2 AND r.idx < $3 AND r.match_id <> ''
                   AND NOT EXISTS (SELECT 1 FROM results o
                                   WHERE o.match_id = r.match_id AND o.ladder_id <> r.ladder_id)",
                vals![ladder, from, to],
            )?;
            let mut removed = 0;
            for row in &rows {
                if keep_faulted {
                    let faults: Vec<u32> = row.json(1)?;
                    if faults.iter().any(|&n| n > 0) {
                        continue;
                    }
                }
                removed += db.execute(
                    "DELETE FROM replays WHERE match_id = $1",
                    vals![row.text(0)?],
                )?;
            }
            db.execute(
                "UPDATE ladders SET replays_pruned_below = $2 WHERE id = $1 AND replays_pruned_below < $2",
                vals![ladder, to],
            )?;
            Ok(removed)
        })
    }

    /// A stored replay (gzip of the replay JSON).
    pub fn replay(&self, match_id: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.conn.row(
            "SELECT replay_gz FROM replays WHERE match_id = $1",
            vals![match_id],
            |r| r.blob(0),
        )
    }

    /// The full id of the stored match whose id starts with `prefix`: a
    /// match with a result, whether its replay is stored or not.
    pub fn find_match(&self, prefix: &str) -> Result<String, StoreError> {
        let hex = |c: char| c.is_ascii_digit() || ('a'..='f').contains(&c);
        let ids = if prefix.is_empty() {
            Vec::new()
        } else if prefix.chars().all(hex) {
            // Ids are lowercase hex: the prefix's range of the index by
            // match id ('g' sorts after every hex digit).
            self.conn.rows(
                "SELECT DISTINCT match_id FROM results WHERE match_id >= $1 AND match_id < $2 ORDER BY match_id LIMIT 6",
                vals![prefix, format!("{prefix}g")],
                |r| r.text(0),
            )?
        } else {
            self.conn.rows(
                "SELECT DISTINCT match_id FROM results WHERE match_id <> '' AND substr(match_id, 1, $2) = $1 ORDER BY match_id LIMIT 6",
                vals![prefix, prefix.chars().count()],
                |r| r.text(0),
            )?
        };
        let db = self.conn.location.clone();
        match ids.as_slice() {
            [one] => Ok(one.clone()),
            [] => Err(StoreError::UnknownMatch {
                db,
                prefix: prefix.into(),
            }),
            more => Err(StoreError::AmbiguousMatch {
                db,
                prefix: prefix.into(),
                count: more.len(),
                examples: more
                    .iter()
                    .map(|id| ludus_host::short_id(id))
                    .collect::<Vec<_>>()
                    .join(", "),
            }),
        }
    }
}
