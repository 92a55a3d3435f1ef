//! The ratings a ladder keeps: each system's rating of each ladder bot, the
//! Elo of every seat after each rated match (for the bots' pages), each
//! bot's count of rated matches, and how far the ratings reach. What the
//! numbers are is decided in [`crate::ratings`]; here they are only kept.

use super::conn::Conn;
use super::db::{vals, Db, DbError};
use super::error::StoreError;
use super::records::{RatedGame, RatedSeat};
use crate::ratings::rated_seat_of;
use std::collections::BTreeMap;

/// The stored ratings of a store ([`super::Store::ratings`]).
pub struct Ratings<'s> {
    pub(crate) conn: &'s Conn,
}

/// One bot's stored rating: (ladder position, rating, interval).
pub type RatingRow = (usize, f64, f64);

impl Ratings<'_> {
    /// The ladder's ratings of `system`, by position.
    pub fn get(&self, ladder: i64, system: &str) -> Result<Vec<RatingRow>, StoreError> {
        self.conn.rows(
            "SELECT position, rating, interval FROM ratings WHERE ladder_id = $1 AND system = $2 ORDER BY position",
            vals![ladder, system],
            |r| Ok((r.i64(0)? as usize, r.f64(1)?, r.f64(2)?)),
        )
    }

    /// Replaces the ladder's ratings of `system`.
    pub fn save(&self, ladder: i64, system: &str, rows: &[RatingRow]) -> Result<(), StoreError> {
        self.conn.write(|db| save_ratings(db, ladder, system, rows))
    }

    /// Records each seat of the matches rated from index `from` to the
    /// finished prefix `end` (its Elo after the match, its place, its
    /// faults), and each bot's count of rated matches, by position.
    pub fn save_elo_history(
        &self,
        ladder: i64,
        (from, end): (u32, u32),
        seats: &[RatedSeat],
        rated: &[u32],
    ) -> Result<(), StoreError> {
        self.conn
            .write(|db| write_elo_history(db, ladder, (from, end), seats, rated))
    }

    /// Every ladder bot's count of rated matches, by position.
    pub fn rated_counts(&self, ladder: i64) -> Result<Vec<u32>, StoreError> {
        self.conn.rows(
            "SELECT rated_matches FROM ladder_bots WHERE ladder_id = $1 ORDER BY position",
            vals![ladder],
            |r| r.u32(0),
        )
    }

    /// Whether a seat of a match at `from` or later has an Elo: the ratings
    /// were applied past `from` before it was set back there (a verified
    /// result replaced the one they were applied with).
    pub fn applied_from(&self, ladder: i64, from: u32) -> Result<bool, StoreError> {
        Ok(!self
            .conn
            .query(
                "SELECT 1 FROM match_seats WHERE ladder_id = $1 AND idx >= $2 AND elo IS NOT NULL LIMIT 1",
                vals![ladder, from],
            )?
            .is_empty())
    }

    /// Records that the ratings cover the matches before `end`.
    pub fn set_rated_through(&self, ladder: i64, end: u32) -> Result<(), StoreError> {
        self.conn.write(|db| {
            db.execute(
                "UPDATE ladders SET rated_through = $2 WHERE id = $1",
                vals![ladder, end],
            )?;
            Ok(())
        })
    }
}

pub(crate) fn save_ratings(
    db: &mut Db,
    ladder: i64,
    system: &str,
    rows: &[RatingRow],
) -> Result<(), DbError> {
    db.execute(
        "DELETE FROM ratings WHERE ladder_id = $1 AND system = $2",
        vals![ladder, system],
    )?;
    for &(position, rating, interval) in rows {
        db.execute(
            "INSERT INTO ratings (ladder_id, position, system, rating, interval) VALUES ($1, $2, $3, $4, $5)",
            vals![ladder, position, system, rating, interval],
        )?;
    }
    Ok(())
}

/// The seats of the rated matches in `after` (each match's index and the
/// Elo after it of each seat of the game it rated), with their places and
/// faults from `games`. A bot seated several times was rated once
/// ([`crate::ratings::GameResult::of_seats`]): each of its seats gets its
/// Elo after the match, and keeps its own place and faults.
pub fn rated_seats(after: &[(u32, Vec<f64>)], games: &[RatedGame]) -> Vec<RatedSeat> {
    let by_index: BTreeMap<u32, &RatedGame> = games.iter().map(|g| (g.index, g)).collect();
    after
        .iter()
        .flat_map(|(index, elos)| {
            let game = by_index.get(index);
            // The seat of the rated game each seat's bot is rated in.
            let rated = match game {
                Some(g) => rated_seat_of(&g.seats),
                None => (0..elos.len()).collect(),
            };
            rated.into_iter().enumerate().filter_map(move |(seat, r)| {
                Some(RatedSeat {
                    index: *index,
                    seat,
                    elo: *elos.get(r)?,
                    place: game
                        .and_then(|g| g.placements.get(seat))
                        .copied()
                        .unwrap_or(0),
                    faults: game.and_then(|g| g.faults.get(seat)).copied().unwrap_or(0),
                })
            })
        })
        .collect()
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
