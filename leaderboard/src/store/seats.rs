//! The seat index (table `match_seats`): one row per seat of every
//! scheduled match, with the ladder position of the bot seated there and,
//! once the match is rated, that bot's Elo after it, the seat's place and
//! its faults. Written when a schedule is appended ([`index_seats`], from
//! the ladders' append and the migrations) and when ratings are applied
//! ([`write_elo_history`], through [`super::Ratings::save_elo_history`] and
//! the migrations), with numbers computed above the store
//! ([`crate::ratings::history::rated_seats`]); read through [`Seats`] by the
//! bots' pages and commands (a bot's matches, its Elo, its records against
//! the others) and by the check of the invariants.

use super::conn::Conn;
use super::db::{vals, Db, DbError, Row, Value};
use super::error::StoreError;
use super::records::{result_at, scheduled_match, RatedSeat, SeatedMatch, R_COLUMNS};
use crate::schedule::ScheduledMatch;
use std::collections::BTreeMap;

/// The seat index of a store ([`super::Store::seats`]).
pub struct Seats<'s> {
    pub(crate) conn: &'s Conn,
}

/// A seat of the seat index: (index, seat, ladder position, Elo after the
/// match if recorded).
pub type SeatRow = (u32, usize, usize, Option<f64>);

/// A seat of a match with the match and its result, from the columns of
/// [`Seats::of_bot`].
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

impl Seats<'_> {
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

    /// The seat index of the ladder's matches from index `from` to before
    /// `to`, in (index, seat) order.
    pub fn seats_between(
        &self,
        ladder: i64,
        from: u32,
        to: u32,
    ) -> Result<Vec<SeatRow>, StoreError> {
        self.conn.rows(
            "SELECT idx, seat, position, elo FROM match_seats
             WHERE ladder_id = $1 AND idx >= $2 AND idx < $3
             ORDER BY idx, seat",
            vals![ladder, from, to],
            |r| {
                let elo = match r.0.get(3) {
                    None | Some(Value::Null) => None,
                    Some(_) => Some(r.f64(3)?),
                };
                Ok((r.u32(0)?, r.i64(1)? as usize, r.i64(2)? as usize, elo))
            },
        )
    }
}

/// Indexes the seats of newly scheduled matches by bot, and counts them
/// in each bot's scheduled matches.
pub(crate) fn index_seats(
    db: &mut Db,
    ladder: i64,
    matches: &[ScheduledMatch],
) -> Result<(), DbError> {
    let mut scheduled = BTreeMap::<usize, u32>::new();
    for m in matches {
        for (seat, &position) in m.seats.iter().enumerate() {
            db.execute(
                "INSERT INTO match_seats (ladder_id, idx, seat, position) VALUES ($1, $2, $3, $4)",
                vals![ladder, m.index, seat, position],
            )?;
            // A bot seated twice plays one match.
            if !m.seats[..seat].contains(&position) {
                *scheduled.entry(position).or_default() += 1;
            }
        }
    }
    for (position, n) in scheduled {
        db.execute(
            "UPDATE ladder_bots SET scheduled_matches = scheduled_matches + $3 WHERE ladder_id = $1 AND position = $2",
            vals![ladder, position, n],
        )?;
    }
    Ok(())
}

/// Records each seat of the rated matches from index `from` to `end`, the
/// finished prefix the history covers (the ones in between rated no more
/// are cleared; none after `end` ever had an Elo, as the finished prefix
/// only grows), and each bot's count of rated matches.
pub(crate) fn write_elo_history(
    db: &mut Db,
    ladder: i64,
    (from, end): (u32, u32),
    seats: &[RatedSeat],
    rated: &[u32],
) -> Result<(), DbError> {
    db.execute(
        "UPDATE match_seats SET elo = NULL, place = NULL, faults = NULL
         WHERE ladder_id = $1 AND idx >= $2 AND idx < $3 AND elo IS NOT NULL",
        vals![ladder, from, end],
    )?;
    // Many seats a statement: a statement's own cost is most of a row's.
    // A chunk is padded to a power of two with copies of its last seat (the
    // same value written twice), so that few statements are prepared.
    const SEATS_AT_ONCE: usize = 256;
    let seats: Vec<&RatedSeat> = seats.iter().filter(|s| s.index >= from).collect();
    for chunk in seats.chunks(SEATS_AT_ONCE) {
        let mut params = vals![ladder].to_vec();
        let mut rows = Vec::with_capacity(chunk.len());
        let padded = chunk
            .iter()
            .chain(std::iter::repeat(
                chunk.last().expect("chunks are not empty"),
            ))
            .take(chunk.len().next_power_of_two());
        for (k, s) in padded.enumerate() {
            let p = 2 + 5 * k;
            rows.push(format!(
                "(CAST(${} AS {{int}}), CAST(${} AS {{int}}), CAST(${} AS {{real}}), CAST(${} AS {{int}}), CAST(${} AS {{int}}))",
                p,
                p + 1,
                p + 2,
                p + 3,
                p + 4
            ));
            params.extend(
                vals![s.index, s.seat, s.elo, s.place, s.faults]
                    .iter()
                    .cloned(),
            );
        }
        db.execute(
            &format!(
                "WITH v (idx, seat, elo, place, faults) AS (VALUES {})
                 UPDATE match_seats SET elo = v.elo, place = v.place, faults = v.faults FROM v
                 WHERE match_seats.ladder_id = $1 AND match_seats.idx = v.idx AND match_seats.seat = v.seat",
                rows.join(", ")
            ),
            &params,
        )?;
    }
    let stored = db.query(
        "SELECT position, rated_matches FROM ladder_bots WHERE ladder_id = $1 ORDER BY position",
        vals![ladder],
    )?;
    for row in stored {
        let (position, count) = (row.i64(0)? as usize, row.u32(1)?);
        let now = rated.get(position).copied().unwrap_or(0);
        if now != count {
            db.execute(
                "UPDATE ladder_bots SET rated_matches = $3 WHERE ladder_id = $1 AND position = $2",
                vals![ladder, position, now],
            )?;
        }
    }
    Ok(())
}
