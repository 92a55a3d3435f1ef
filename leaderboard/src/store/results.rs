//! Results and replays: what each played match came to, its gzip replay by
//! match id, and the lookups the pages and commands make: by ladder, by a
//! bot's seats (through the seat index), by match id or a prefix of it.

use super::conn::Conn;
use super::db::vals;
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
const R_COLUMNS: &str = "r.idx, r.match_id, r.placements, r.scores, r.faults, r.turns, r.reason, r.aborted, r.replay_sha256";

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
    /// index, its seats (ladder positions) and their placements. Only those
    /// columns, and without reading the rest of the schedule.
    pub fn rated_before(&self, ladder: i64, end: u32) -> Result<Vec<RatedGame>, StoreError> {
        self.conn.rows(
            "SELECT r.idx, m.seats, r.placements FROM results r
             JOIN matches m ON m.ladder_id = r.ladder_id AND m.idx = r.idx
             WHERE r.ladder_id = $1 AND r.idx < $2 AND r.aborted IS NULL
             ORDER BY r.idx",
            vals![ladder, end],
            |r| {
                Ok(RatedGame {
                    index: r.u32(0)?,
                    seats: r.json(1)?,
                    placements: r.json(2)?,
                })
            },
        )
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
    /// schedule order, found through the bot index.
    pub fn of_bot(&self, ladder: i64, position: usize) -> Result<Vec<SeatedMatch>, StoreError> {
        self.conn.rows(
            &format!(
                "SELECT m.idx, m.grp, m.seed, m.seats, s.seat, s.elo, {R_COLUMNS}
                 FROM match_seats s
                 JOIN matches m ON m.ladder_id = s.ladder_id AND m.idx = s.idx
                 LEFT JOIN results r ON r.ladder_id = s.ladder_id AND r.idx = s.idx
                 WHERE s.ladder_id = $1 AND s.position = $2
                 ORDER BY s.idx, s.seat"
            ),
            vals![ladder, position],
            |r| {
                Ok(SeatedMatch {
                    scheduled: scheduled_match(r)?,
                    seat: r.i64(4)? as usize,
                    elo: match r.0.get(5) {
                        None | Some(super::db::Value::Null) => None,
                        Some(_) => Some(r.f64(5)?),
                    },
                    result: result_at(r, 6)?,
                })
            },
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

    /// A stored replay (gzip of the replay JSON).
    pub fn replay(&self, match_id: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.conn.row(
            "SELECT replay_gz FROM replays WHERE match_id = $1",
            vals![match_id],
            |r| r.blob(0),
        )
    }

    /// The full id of the stored match whose id starts with `prefix`.
    pub fn find_match(&self, prefix: &str) -> Result<String, StoreError> {
        let hex = |c: char| c.is_ascii_digit() || ('a'..='f').contains(&c);
        let ids = if prefix.is_empty() {
            Vec::new()
        } else if prefix.chars().all(hex) {
            // Ids are lowercase hex: the prefix's range of the primary key,
            // an index lookup ('g' sorts after every hex digit).
            self.conn.rows(
                "SELECT match_id FROM replays WHERE match_id >= $1 AND match_id < $2 ORDER BY match_id LIMIT 6",
                vals![prefix, format!("{prefix}g")],
                |r| r.text(0),
            )?
        } else {
            self.conn.rows(
                "SELECT match_id FROM replays WHERE substr(match_id, 1, $2) = $1 ORDER BY match_id LIMIT 6",
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
