//! Results and replays: what each played match came to, its gzip replay by
//! match id, and the lookups the pages and commands make: by ladder, by a
//! bot's seats (through the seat index), by match id or a prefix of it.

use super::conn::Conn;
use super::db::{vals, DbError, Row, Value};
use super::error::StoreError;
use super::records::{
    match_result, result_at, scheduled_match, MatchResult, RatedGame, SeatedMatch, RESULT_COLUMNS,
};
use crate::schedule::ScheduledMatch;
use std::collections::BTreeMap;

/// The results and replays of a store ([`super::Store::results`]).
pub struct Results<'s> {
    pub(crate) conn: &'s Conn,
}

/// [`RESULT_COLUMNS`] of the results table joined as `r`.
const R_COLUMNS: &str = "r.idx, r.match_id, r.placements, r.scores, r.faults, r.turns, r.reason, r.aborted, r.replay_sha256, r.refused";

/// A seat of a match with the match and its result, from the columns of
/// [`Results::of_bot`].
fn seated_match(r: &Row) -> Result<SeatedMatch, DbError> {
    Ok(SeatedMatch {
        scheduled: scheduled_match(r)?,
        seat: r.i64(4)? as usize,
        elo: match r.0.get(5) {
            None | Some(Value::Null) => None,
            Some(_) => Some(r.f64(5)?),
        },
        result: result_at(r, 6)?,
    })
}

/// `$2, $3, …` for `positions`, after the ladder's `$1`, with the values.
fn in_list(ladder: i64, positions: &[usize]) -> (String, Vec<Value>) {
    let mut params = vec![Value::from(ladder)];
    let mut list = Vec::new();
    for &p in positions {
        params.push(Value::from(p));
        list.push(format!("${}", params.len()));
    }
    if list.is_empty() {
        // No position: a list that matches none.
        list.push("-1".into());
    }
    (list.join(", "), params)
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

    /// Every match in which the ladder's bot at `position` has a seat, in
    /// schedule order, found through the bot index; a match in which it
    /// sits several times (a house bot's copies), once, at its first seat.
    pub fn of_bot(&self, ladder: i64, position: usize) -> Result<Vec<SeatedMatch>, StoreError> {
        self.conn.rows(
            &format!(
                "SELECT m.idx, m.grp, m.seed, m.seats, s.seat, s.elo, {R_COLUMNS}
                 FROM match_seats s
                 JOIN matches m ON m.ladder_id = s.ladder_id AND m.idx = s.idx
                 LEFT JOIN results r ON r.ladder_id = s.ladder_id AND r.idx = s.idx
                 WHERE s.ladder_id = $1 AND s.position = $2
                   AND s.seat = (SELECT min(x.seat) FROM match_seats x
                              WHERE x.ladder_id = s.ladder_id AND x.idx = s.idx AND x.position = s.position)
                 ORDER BY s.idx, s.seat"
            ),
            vals![ladder, position],
            seated_match,
        )
    }

    /// A page of the played matches in which the ladder's bots at
    /// `positions` (the versions of one bot) have a seat, newest first:
    /// `limit` from the `offset`-th on, found through the bot index. A match
    /// in which two of them sit is listed once, at its first seat.
    pub fn of_bot_page(
        &self,
        ladder: i64,
        positions: &[usize],
        offset: u32,
        limit: u32,
    ) -> Result<Vec<SeatedMatch>, StoreError> {
        let (list, mut params) = in_list(ladder, positions);
        params.push(limit.into());
        params.push(offset.into());
        let n = params.len();
        let rows = self.conn.rows(
            &format!(
                "SELECT m.idx, m.grp, m.seed, m.seats, s.seat, s.elo, {R_COLUMNS}
                 FROM match_seats s
                 JOIN matches m ON m.ladder_id = s.ladder_id AND m.idx = s.idx
                 JOIN results r ON r.ladder_id = s.ladder_id AND r.idx = s.idx
                 WHERE s.ladder_id = $1 AND s.position IN ({list})
                   AND s.seat = (SELECT min(x.seat) FROM match_seats x
                                 WHERE x.ladder_id = s.ladder_id AND x.idx = s.idx AND x.position IN ({list}))
                 ORDER BY s.idx DESC LIMIT ${} OFFSET ${n}",
                n - 1
            ),
            &params,
            seated_match,
        )?;
        Ok(rows)
    }

    /// How many played matches the ladder's bots at `positions` have a
    /// seat in.
    pub fn of_bot_count(&self, ladder: i64, positions: &[usize]) -> Result<u32, StoreError> {
        let (list, params) = in_list(ladder, positions);
        self.conn.count(
            &format!(
                "SELECT count(DISTINCT s.idx) FROM match_seats s
                 JOIN results r ON r.ladder_id = s.ladder_id AND r.idx = s.idx
                 WHERE s.ladder_id = $1 AND s.position IN ({list})"
            ),
            &params,
        )
    }

    /// A page of the Elo of the ladder's bots at `positions` after each of
    /// their rated matches, newest first: (match index, position, Elo); a
    /// bot seated several times in a match, once.
    pub fn elo_page(
        &self,
        ladder: i64,
        positions: &[usize],
        offset: u32,
        limit: u32,
    ) -> Result<Vec<(u32, usize, f64)>, StoreError> {
        let (list, mut params) = in_list(ladder, positions);
        params.push(limit.into());
        params.push(offset.into());
        let n = params.len();
        self.conn.rows(
            &format!(
                "SELECT s.idx, s.position, s.elo FROM match_seats s
                 WHERE s.ladder_id = $1 AND s.position IN ({list}) AND s.elo IS NOT NULL
                   AND s.seat = (SELECT min(x.seat) FROM match_seats x
                              WHERE x.ladder_id = s.ladder_id AND x.idx = s.idx AND x.position = s.position)
                 ORDER BY s.idx DESC, s.seat LIMIT ${} OFFSET ${n}",
                n - 1
            ),
            &params,
            |r| Ok((r.u32(0)?, r.i64(1)? as usize, r.f64(2)?)),
        )
    }

    /// The rated seats of the ladder's bots at `positions`, and their turns
    /// with a fault over them.
    pub fn rated_seats_of(
        &self,
        ladder: i64,
        positions: &[usize],
    ) -> Result<(u32, u64), StoreError> {
        let (list, params) = in_list(ladder, positions);
        Ok(self
            .conn
            .row(
                &format!(
                    "SELECT count(DISTINCT s.idx), CAST(coalesce(sum(s.faults), 0) AS {{int}}) FROM match_seats s
                     WHERE s.ladder_id = $1 AND s.position IN ({list}) AND s.elo IS NOT NULL"
                ),
                &params,
                |r| Ok((r.u32(0)?, r.i64(1)? as u64)),
            )?
            .unwrap_or((0, 0)))
    }

    /// The rated results of the ladder's bots at `positions` against every
    /// other bot of the ladder they met: (its position, matches in which
    /// they placed better, worse, the same), by position.
    pub fn head_to_head(
        &self,
        ladder: i64,
        positions: &[usize],
    ) -> Result<Vec<(usize, u32, u32, u32)>, StoreError> {
        let (list, params) = in_list(ladder, positions);
        self.conn.rows(
            &format!(
                "SELECT o.position,
                        count(CASE WHEN me.place < o.place THEN 1 END),
                        count(CASE WHEN me.place > o.place THEN 1 END),
                        count(CASE WHEN me.place = o.place THEN 1 END)
                 FROM match_seats me
                 JOIN match_seats o ON o.ladder_id = me.ladder_id AND o.idx = me.idx AND o.seat <> me.seat
                 WHERE me.ladder_id = $1 AND me.position IN ({list}) AND o.position NOT IN ({list})
                   AND me.place IS NOT NULL AND o.place IS NOT NULL
                 GROUP BY o.position ORDER BY o.position"
            ),
            &params,
            |r| Ok((r.i64(0)? as usize, r.u32(1)?, r.u32(2)?, r.u32(3)?)),
        )
    }

    /// The rated matches of each of the ladder's bots at `positions`: (its
    /// position, rated matches, those it placed first in alone, those it
    /// shared first place in), by position. A bot seated several times in a
    /// match counts once, at its best place. Read through the bot index: its
    /// cost grows with these bots' matches, not the ladder's.
    pub fn records_of(
        &self,
        ladder: i64,
        positions: &[usize],
    ) -> Result<Vec<(usize, u32, u32, u32)>, StoreError> {
        let (list, params) = in_list(ladder, positions);
        self.conn.rows(
            &format!(
                "SELECT position, count(*),
                        count(CASE WHEN best = 1 AND others = 0 THEN 1 END),
                        count(CASE WHEN best = 1 AND others > 0 THEN 1 END)
                 FROM (SELECT me.position, min(me.place) AS best,
                              (SELECT count(*) FROM match_seats o
                               WHERE o.ladder_id = $1 AND o.idx = me.idx AND o.place = 1
                                 AND o.position <> me.position) AS others
                       FROM match_seats me
                       WHERE me.ladder_id = $1 AND me.position IN ({list}) AND me.elo IS NOT NULL
                       GROUP BY me.position, me.idx) AS mine
                 GROUP BY position ORDER BY position"
            ),
            &params,
            |r| Ok((r.i64(0)? as usize, r.u32(1)?, r.u32(2)?, r.u32(3)?)),
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
