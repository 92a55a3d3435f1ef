//! The ratings a ladder keeps: each system's rating of each ladder bot, the
//! Elo of every seat after each rated match (for the bots' pages), each
//! bot's count of rated matches, and how far the ratings reach. What the
//! numbers are is decided in [`crate::ratings`]; here they are only kept.

use super::conn::Conn;
use super::db::{vals, Db, DbError};
use super::error::StoreError;
use super::records::RatedSeat;
use super::seats::write_elo_history;

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
