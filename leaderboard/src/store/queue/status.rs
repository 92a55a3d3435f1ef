//! Where a ladder stands in the queue: its matches done, leased, pending
//! and being verified, its integrity events, its pace and its workers; and
//! the finished prefix that ratings wait for.

use super::workers::{heard_from_recently, worker_info, WorkerInfo, WORKER_COLUMNS};
use super::Queue;
use crate::store::db::vals;
use crate::store::error::StoreError;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// A ladder's queue as its scheduler sees it ([`Queue::demand`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct QueueDemand {
    /// Matches left to play or verify, leased or not.
    pub waiting: u32,
    /// Threads of the live workers that may play the ladder.
    pub live_threads: u32,
    pub finished_recently: u32,
    pub finished_last_minute: u32,
    pub finished_last_hour: u32,
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

/// The queue of every game, and the live workers, as `GET /metrics`
/// reports them ([`Queue::totals`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct QueueTotals {
    /// Per game that has a ladder, by name.
    pub games: Vec<GameTotals>,
    /// Workers live now, and their threads.
    pub live_workers: u32,
    pub live_threads: u32,
}

/// One game's matches over all its ladders.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GameTotals {
    pub game: String,
    /// With a result (void ones included): it only grows, as no result is
    /// ever deleted.
    pub finished: u64,
    /// Left to play or verify, leased or not.
    pub waiting: u64,
    /// Of those, held under an unexpired lease: being played.
    pub in_play: u64,
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

impl Queue<'_> {
    /// The index before which every match of the ladder is done.
    pub fn finished_prefix(&self, ladder: i64) -> Result<u32, StoreError> {
        // One statement, so one snapshot: read in two, a scheduler's
        // append between them would move the end past matches not yet
        // played, and rating would skip them.
        Ok(self
            .conn
            .row(
                "SELECT coalesce(
                   (SELECT CAST(min(idx) AS BIGINT) FROM matches WHERE ladder_id = $1 AND done = 0),
                   (SELECT count(*) FROM matches WHERE ladder_id = $1))",
                vals![ladder],
                |r| r.u32(0),
            )?
            .unwrap_or(0))
    }

    /// What the scheduler of a continuous ladder needs to know: the
    /// matches left to play, the threads of the live workers that may play
    /// them (workers of this ladder or of any), and the matches finished
    /// within the last `recent`, by the database's clock (read through
    /// `matches_finished`); with `budgeted`, also those of the last minute
    /// and hour, which a ladder without a budget does not count (at full
    /// speed an hour is hundreds of thousands of matches).
    pub fn demand(
        &self,
        ladder: i64,
        recent: Duration,
        budgeted: bool,
    ) -> Result<QueueDemand, StoreError> {
        let within = |ms: &str| {
            match budgeted {
            true => format!(
                "(SELECT count(*) FROM matches WHERE ladder_id = $1 AND finished_at >= {{now}} - {ms})"
            ),
            false => "CAST(0 AS BIGINT)".to_string(),
        }
        };
        let rows = self.conn.query(
            &format!(
                "SELECT
                   (SELECT count(*) FROM matches WHERE ladder_id = $1 AND (done = 0 OR verify = 1)),
                   (SELECT CAST(coalesce(sum(threads), 0) AS BIGINT) FROM workers
                     WHERE stopped = 0 AND {}
                       AND (ladder_id IS NULL OR ladder_id = $1)),
                   (SELECT count(*) FROM matches WHERE ladder_id = $1 AND finished_at >= {{now}} - $2),
                   {}, {}",
                heard_from_recently(),
                within("60000"),
                within("3600000")
            ),
            vals![ladder, super::ms(recent)],
        )?;
        let r = &rows[0];
        let int = |i| {
            r.i64(i)
                .map(|v| v.clamp(0, u32::MAX as i64) as u32)
                .map_err(|e| self.conn.err(e))
        };
        Ok(QueueDemand {
            waiting: int(0)?,
            live_threads: int(1)?,
            finished_recently: int(2)?,
            finished_last_minute: int(3)?,
            finished_last_hour: int(4)?,
        })
    }

    /// Matches of the ladder left to play or verify, leased or not.
    pub fn remaining(&self, ladder: i64) -> Result<u32, StoreError> {
        Ok(self.conn.rows(
            "SELECT count(*) FROM matches WHERE ladder_id = $1 AND (done = 0 OR verify = 1)",
            vals![ladder],
            |r| r.u32(0),
        )?[0])
    }

    /// The ladder's integrity events, oldest first.
    pub fn integrity_events(&self, ladder: i64) -> Result<Vec<IntegrityEvent>, StoreError> {
        self.conn.rows(
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

    /// Every game's matches finished, waiting and in play over all its
    /// ladders, and the live workers and their threads. Cheap enough to
    /// read at every scrape: a schedule's length is its last index (a
    /// schedule has no gaps), and the open matches are read through the
    /// claimable index, so nothing counts the finished ones row by row.
    pub fn totals(&self) -> Result<QueueTotals, StoreError> {
        let per_ladder = self.conn.rows(
            "SELECT l.game,
                    (SELECT m.idx + 1 FROM matches m WHERE m.ladder_id = l.id
                      ORDER BY m.idx DESC LIMIT 1),
                    (SELECT count(*) FROM matches m WHERE m.ladder_id = l.id
                      AND (m.done = 0 OR m.verify = 1) AND m.done = 0),
                    (SELECT count(*) FROM matches m WHERE m.ladder_id = l.id
                      AND (m.done = 0 OR m.verify = 1)),
                    (SELECT count(*) FROM matches m WHERE m.ladder_id = l.id
                      AND (m.done = 0 OR m.verify = 1) AND m.lease_until >= {now})
             FROM ladders l ORDER BY l.game",
            &[],
            |r| {
                let n = |i| r.opt_i64(i).map(|v| v.unwrap_or(0).max(0) as u64);
                Ok((r.text(0)?, n(1)?, n(2)?, n(3)?, n(4)?))
            },
        )?;
        let mut games: Vec<GameTotals> = Vec::new();
        for (game, scheduled, not_done, waiting, in_play) in per_ladder {
            if games.last().is_none_or(|g| g.game != game) {
                games.push(GameTotals {
                    game,
                    ..GameTotals::default()
                });
            }
            let g = games.last_mut().expect("pushed above");
            g.finished += scheduled.saturating_sub(not_done);
            g.waiting += waiting;
            g.in_play += in_play;
        }
        let now = self.conn.rows("SELECT {now}", &[], |r| r.i64(0))?[0];
        let live: Vec<WorkerInfo> = self
            .conn
            .rows(
                &format!("SELECT {WORKER_COLUMNS} FROM workers WHERE stopped = 0"),
                &[],
                worker_info,
            )?
            .into_iter()
            .filter(|w| w.is_live(now))
            .collect();
        Ok(QueueTotals {
            games,
            live_workers: live.len() as u32,
            live_threads: live.iter().map(|w| w.threads).sum(),
        })
    }

    /// Where the ladder stands.
    pub fn status(&self, ladder: i64) -> Result<LadderStatus, StoreError> {
        let record = crate::store::Ladders { conn: self.conn }.get(ladder)?;
        let counts = self.conn.query(
            "SELECT count(*),
                    count(CASE WHEN done = 1 THEN 1 END),
                    count(CASE WHEN (done = 0 OR verify = 1) AND lease_until >= {now} THEN 1 END),
                    count(CASE WHEN verify = 1 THEN 1 END),
                    {now}
             FROM matches WHERE ladder_id = $1",
            vals![ladder],
        )?;
        let c = &counts[0];
        let int = |i| c.i64(i).map_err(|e| self.conn.err(e));
        let (total, done, leased, verifying, now) = (
            int(0)? as u32,
            int(1)? as u32,
            int(2)? as u32,
            int(3)? as u32,
            int(4)?,
        );
        let void = self.conn.rows(
            "SELECT count(*) FROM results WHERE ladder_id = $1 AND match_id = '' AND aborted IS NOT NULL",
            vals![ladder],
            |r| r.u32(0),
        )?[0];
        let events = self.conn.rows(
            "SELECT count(*) FROM integrity_events WHERE ladder_id = $1",
            vals![ladder],
            |r| r.u32(0),
        )?[0];
        let recent = self.conn.query(
            "SELECT count(*), min(finished_at) FROM matches
             WHERE ladder_id = $1 AND finished_at >= $2",
            vals![ladder, now - 300_000],
        )?;
        let (n, oldest) = (
            recent[0].i64(0).map_err(|e| self.conn.err(e))?,
            recent[0].opt_i64(1).map_err(|e| self.conn.err(e))?,
        );
        let rate = match oldest {
            // Two or more finished within the same millisecond count as a millisecond.
            Some(oldest) if n >= 2 => Some(n as f64 / ((now - oldest).max(1) as f64 / 1000.0)),
            _ => None,
        };
        let mut workers = self.conn.rows(
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
