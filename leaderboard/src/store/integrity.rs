//! What a check of the database's invariants reads ([`crate::integrity`]),
//! and nothing it writes: a read-only snapshot to read it in, and the few
//! queries no other handle has (a ladder's schedule in figures, the
//! matches whose `done` mark and result disagree, the bots' counters, the
//! bots' stored bytes); the seat index in ranges is
//! [`super::Seats::seats_between`]. Each reads a
//! ladder's rows through their primary keys, so a check costs about one
//! read of them.

use super::conn::Conn;
use super::db::{vals, Dialect};
use super::error::StoreError;
pub use super::seats::SeatRow;

/// The reads of a check of the invariants ([`super::Store::integrity`]).
pub struct Integrity<'s> {
    pub(crate) conn: &'s Conn,
}

/// What [`Integrity::done_mismatches`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DoneMismatches {
    /// Matches marked done that have no result.
    pub done_without_result: Vec<u32>,
    /// Results whose match is not marked done (true) or not scheduled
    /// at all (false).
    pub results_not_done: Vec<(i64, bool)>,
}

/// A ladder's schedule in figures, from one read of its matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ScheduleFigures {
    /// Matches in the schedule.
    pub matches: u32,
    /// The lowest and highest index (`None` for an empty schedule).
    pub first: Option<i64>,
    pub last: Option<i64>,
    /// Matches marked done.
    pub done: u32,
    /// The first index not marked done: the end of the finished prefix
    /// (`None` when every match is done).
    pub first_open: Option<i64>,
    /// Matches marked done at or after the index the figures were asked
    /// for (the rated prefix's end): the rating lag.
    pub done_from: u32,
}

/// An open read-only transaction, rolled back when dropped (read-only:
/// nothing to commit, and a rollback cannot lose a thing).
struct Snapshot<'c>(&'c Conn);

impl Snapshot<'_> {
    fn end(self) -> Result<(), super::db::DbError> {
        let ended = self.0.db.borrow_mut().batch("ROLLBACK");
        std::mem::forget(self);
        ended
    }
}

impl Drop for Snapshot<'_> {
    fn drop(&mut self) {
        if let Ok(mut db) = self.0.db.try_borrow_mut() {
            let _ = db.batch("ROLLBACK");
        }
    }
}

/// A ladder bot's counters: (position, scheduled matches, rated matches).
pub type CounterRow = (usize, u32, u32);

impl Integrity<'_> {
    /// Runs `f` in one read-only transaction, so that everything it reads
    /// is the database at one moment however it is written meanwhile: on
    /// PostgreSQL `REPEATABLE READ READ ONLY` (one snapshot; it takes no
    /// lock and holds up no writer), on SQLite a read transaction (WAL: a
    /// reader never blocks a writer). Nothing is written; the transaction
    /// ends with a rollback whatever `f` returns, or if it panics.
    pub fn snapshot<T, E: From<StoreError>>(
        &self,
        f: impl FnOnce() -> Result<T, E>,
    ) -> Result<T, E> {
        let begin = match self.conn.db.borrow().dialect() {
            Dialect::Sqlite => "BEGIN DEFERRED",
            Dialect::Postgres => "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
        };
        self.conn
            .db
            .borrow_mut()
            .batch(begin)
            .map_err(|e| self.conn.err(e))?;
        // Ended however `f` ends, a panic included: the connection goes
        // back to its pool out of any transaction.
        let snapshot = Snapshot(self.conn);
        let value = f()?;
        snapshot.end().map_err(|e| self.conn.err(e))?;
        Ok(value)
    }

    /// The ladder's schedule in figures, with its matches done at or after
    /// index `from`, in one read of its matches.
    pub fn schedule_figures(&self, ladder: i64, from: u32) -> Result<ScheduleFigures, StoreError> {
        Ok(self
            .conn
            .row(
                "SELECT count(*), min(idx), max(idx),
                        CAST(coalesce(sum(CASE WHEN done <> 0 THEN 1 ELSE 0 END), 0) AS {int}),
                        min(CASE WHEN done = 0 THEN idx END),
                        CAST(coalesce(sum(CASE WHEN done <> 0 AND idx >= $2 THEN 1 ELSE 0 END), 0) AS {int})
                 FROM matches WHERE ladder_id = $1",
                vals![ladder, from],
                |r| {
                    Ok(ScheduleFigures {
                        matches: r.u32(0)?,
                        first: r.opt_i64(1)?,
                        last: r.opt_i64(2)?,
                        done: r.u32(3)?,
                        first_open: r.opt_i64(4)?,
                        done_from: r.u32(5)?,
                    })
                },
            )?
            .unwrap_or_default())
    }

    /// Every index of the ladder's schedule, in order (read only when its
    /// figures say the indices are not 0 to n − 1, to name what is wrong).
    pub fn indices(&self, ladder: i64) -> Result<Vec<i64>, StoreError> {
        self.conn.rows(
            "SELECT idx FROM matches WHERE ladder_id = $1 ORDER BY idx",
            vals![ladder],
            |r| r.i64(0),
        )
    }

    /// The ladder's results: how many.
    pub fn result_count(&self, ladder: i64) -> Result<u32, StoreError> {
        self.conn.count(
            "SELECT count(*) FROM results WHERE ladder_id = $1",
            vals![ladder],
        )
    }

    /// Where the schedule's done marks and the results disagree, in
    /// order: the matches marked done that have no result, and the results
    /// whose match is not marked done or not scheduled at all (index,
    /// whether the schedule has the match). Two range scans in one
    /// statement, merged here, not a join: a join's plan rests on
    /// statistics that lag behind a growing ladder, and may then read the
    /// ladder once per result (`records::rated_games`); these cost what
    /// they read.
    pub fn done_mismatches(&self, ladder: i64) -> Result<DoneMismatches, StoreError> {
        // One statement, so one snapshot: read in two, a commit between
        // them (a match marked done with its result) would look like a
        // result of a match not done. Each index comes as its match (kind
        // 0, with its done mark) then its result (kind 1), either missing.
        let rows = self.conn.rows(
            "SELECT idx, 0 AS kind, done FROM matches WHERE ladder_id = $1
             UNION ALL
             SELECT idx, 1 AS kind, 0 FROM results WHERE ladder_id = $1
             ORDER BY idx, kind",
            vals![ladder],
            |r| Ok((r.i64(0)?, r.i64(1)? == 0, r.i64(2)? != 0)),
        )?;
        let mut found = DoneMismatches::default();
        let mut rows = rows.into_iter().peekable();
        while let Some((index, is_match, done)) = rows.next() {
            if !is_match {
                found.results_not_done.push((index, false));
                continue;
            }
            let has_result = rows.next_if(|&(i, m, _)| i == index && !m).is_some();
            match (done, has_result) {
                (true, false) => found.done_without_result.push(index as u32),
                (false, true) => found.results_not_done.push((index, true)),
                _ => {}
            }
        }
        Ok(found)
    }

    /// Each ladder bot's counters of scheduled and rated matches, by position.
    pub fn counters(&self, ladder: i64) -> Result<Vec<CounterRow>, StoreError> {
        self.conn.rows(
            "SELECT position, scheduled_matches, rated_matches FROM ladder_bots
             WHERE ladder_id = $1 ORDER BY position",
            vals![ladder],
            |r| Ok((r.i64(0)? as usize, r.u32(1)?, r.u32(2)?)),
        )
    }

    /// The sha256 under which every stored bot is kept, in order.
    pub fn bot_hashes(&self) -> Result<Vec<String>, StoreError> {
        self.conn
            .rows("SELECT sha256 FROM bots ORDER BY sha256", &[], |r| {
                r.text(0)
            })
    }

    /// The bytes stored under `sha256` and the size recorded beside them,
    /// as they are, unchecked (`None`: no such bot).
    pub fn stored_wasm(&self, sha256: &str) -> Result<Option<(Vec<u8>, i64)>, StoreError> {
        self.conn.row(
            "SELECT wasm, size_bytes FROM bots WHERE sha256 = $1",
            vals![sha256],
            |r| Ok((r.blob(0)?, r.i64(1)?)),
        )
    }
}
