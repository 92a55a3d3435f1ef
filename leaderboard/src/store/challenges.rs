//! Challenges: unrated matches of one bot version against chosen
//! opponents, each played as a ladder of kind `challenge` (its bots: the
//! tested version at position 0, the opponents after it; its seed, the
//! challenge's). The store keeps a challenge's row (owner, test, limit,
//! verdict), the games each account's challenges scheduled a day, and
//! creates, grows and ends a challenge's ladder in one transaction each.
//! What a challenge's test is and when it has decided is
//! [`crate::challenge`]'s: the test is kept here as the JSON it gives.

use super::conn::{Conn, Lock};
use super::db::{vals, Db, DbError, Row};
use super::error::StoreError;
use super::ladders::{insert_ladder, insert_matches};
use super::records::NewLadder;
use crate::schedule::ScheduledMatch;

/// The ladder kind of a challenge's ladder: never rated, never on a
/// leaderboard.
pub const CHALLENGE_KIND: &str = "challenge";

/// The challenges of a store ([`super::Store::challenges`]).
pub struct Challenges<'s> {
    pub(crate) conn: &'s Conn,
}

/// A stored challenge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeRow {
    pub id: i64,
    /// The account that asked for it, the tested bot's owner.
    pub account: i64,
    /// The ladder its matches are scheduled in.
    pub ladder: i64,
    pub game: String,
    /// The test, as JSON ([`crate::challenge::Test`]).
    pub test: String,
    /// Games it schedules at most.
    pub max_games: u32,
    /// When it was created, unix seconds.
    pub created_at: i64,
    /// `stronger`, `not stronger` or `none`, once it ended.
    pub verdict: Option<String>,
    /// When it ended, unix seconds.
    pub ended_at: Option<i64>,
    pub ended_reason: Option<String>,
}

/// A challenge to create: its row's contents and its ladder (whose key the
/// store gives it, `challenge/ID`).
#[derive(Debug, Clone)]
pub struct NewChallenge<'a> {
    pub account: i64,
    pub test: &'a str,
    pub max_games: u32,
    pub created_at: i64,
    /// The ladder: its `key` is replaced.
    pub ladder: NewLadder<'a>,
}

/// Why the store did not create a challenge: the account's quota.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuotaSpent {
    /// The account runs this many challenges already.
    AtOnce { running: u32 },
    /// The account's challenges scheduled this many games today already.
    GamesToday { games: u32 },
}

const CHALLENGE_COLUMNS: &str =
    "id, account_id, ladder_id, game, test, max_games, created_at, verdict, ended_at, ended_reason";

fn challenge_row(r: &Row) -> Result<ChallengeRow, DbError> {
    Ok(ChallengeRow {
        id: r.i64(0)?,
        account: r.i64(1)?,
        ladder: r.i64(2)?,
        game: r.text(3)?,
        test: r.text(4)?,
        max_games: r.u32(5)?,
        created_at: r.i64(6)?,
        verdict: r.opt_text(7)?,
        ended_at: r.opt_i64(8)?,
        ended_reason: r.opt_text(9)?,
    })
}

/// The day of `at` (unix seconds) as `challenge_usage` counts days.
pub fn day_of(at: i64) -> i64 {
    at.div_euclid(86_400)
}

fn running(db: &mut Db, account: i64) -> Result<u32, DbError> {
    db.query_opt(
        "SELECT count(*) FROM challenges WHERE account_id = $1 AND ended_at IS NULL",
        vals![account],
    )?
    .expect("count gives a row")
    .u32(0)
}

fn usage(db: &mut Db, account: i64, day: i64) -> Result<u32, DbError> {
    Ok(db
        .query_opt(
            "SELECT games FROM challenge_usage WHERE account_id = $1 AND day = $2",
            vals![account, day],
        )?
        .map(|r| r.u32(0))
        .transpose()?
        .unwrap_or(0))
}

impl Challenges<'_> {
    /// Creates the challenge and its ladder (no matches yet), in one
    /// transaction under the names' lock, unless the account runs
    /// `at_once` challenges already or its challenges scheduled
    /// `games_a_day` games on the day of `created_at`. The challenge's id.
    pub fn create(
        &self,
        new: &NewChallenge,
        at_once: u32,
        games_a_day: u32,
    ) -> Result<Result<i64, QuotaSpent>, StoreError> {
        self.conn.write(|db| {
            Lock::Names.take(db)?;
            let n = running(db, new.account)?;
            if n >= at_once {
                return Ok(Err(QuotaSpent::AtOnce { running: n }));
            }
            let games = usage(db, new.account, day_of(new.created_at))?;
            if games >= games_a_day {
                return Ok(Err(QuotaSpent::GamesToday { games }));
            }
            // The key names the challenge, whose id comes after its ladder's.
            let ladder = insert_ladder(
                db,
                &NewLadder {
                    key: "challenge/new",
                    ..new.ladder.clone()
                },
            )?;
            let id = db
                .query_opt(
                    "INSERT INTO challenges (account_id, ladder_id, game, test, max_games, created_at)
                     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
                    vals![
                        new.account,
                        ladder,
                        new.ladder.game,
                        new.test,
                        new.max_games,
                        new.created_at
                    ],
                )?
                .expect("INSERT … RETURNING gives a row")
                .i64(0)?;
            db.execute(
                "UPDATE ladders SET ladder_key = $2 WHERE id = $1",
                vals![ladder, format!("challenge/{id}")],
            )?;
            Ok(Ok(id))
        })
    }

    /// The challenge with this id.
    pub fn get(&self, id: i64) -> Result<Option<ChallengeRow>, StoreError> {
        self.conn.row(
            &format!("SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE id = $1"),
            vals![id],
            challenge_row,
        )
    }

    /// The challenge that plays ladder `ladder`, if one does.
    pub fn of_ladder(&self, ladder: i64) -> Result<Option<ChallengeRow>, StoreError> {
        self.conn.row(
            &format!("SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE ladder_id = $1"),
            vals![ladder],
            challenge_row,
        )
    }

    /// The account's challenges, newest first.
    pub fn of_account(&self, account: i64) -> Result<Vec<ChallengeRow>, StoreError> {
        self.conn.rows(
            &format!(
                "SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE account_id = $1 ORDER BY id DESC"
            ),
            vals![account],
            challenge_row,
        )
    }

    /// The challenges that have not ended, oldest first.
    pub fn active(&self) -> Result<Vec<ChallengeRow>, StoreError> {
        self.conn.rows(
            &format!(
                "SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE ended_at IS NULL ORDER BY id"
            ),
            &[],
            challenge_row,
        )
    }

    /// The account's challenges that have not ended.
    pub fn running(&self, account: i64) -> Result<u32, StoreError> {
        let n = running(&mut self.conn.db.borrow_mut(), account);
        n.map_err(|e| self.conn.err(e))
    }

    /// The games the account's challenges scheduled on `day` ([`day_of`]).
    pub fn usage(&self, account: i64, day: i64) -> Result<u32, StoreError> {
        let games = usage(&mut self.conn.db.borrow_mut(), account, day);
        games.map_err(|e| self.conn.err(e))
    }

    /// Appends `matches` to the schedule of challenge `row`'s ladder and
    /// counts them in its account's games of `day`, in one transaction;
    /// their indices must continue the schedule. A challenge that ended
    /// meanwhile takes none: `false`.
    pub fn schedule(
        &self,
        row: &ChallengeRow,
        matches: &[ScheduledMatch],
        day: i64,
    ) -> Result<bool, StoreError> {
        self.conn.write(|db| {
            let open = db
                .query_opt(
                    "SELECT ended_at FROM challenges WHERE id = $1 {for_update}",
                    vals![row.id],
                )?
                .map(|r| r.opt_i64(0))
                .transpose()?
                .flatten()
                .is_none();
            if !open || matches.is_empty() {
                return Ok(open);
            }
            let next = db
                .query_opt(
                    "SELECT idx FROM matches WHERE ladder_id = $1 ORDER BY idx DESC LIMIT 1",
                    vals![row.ladder],
                )?
                .map_or(Ok(0), |r| r.u32(0).map(|last| last + 1))?;
            if matches[0].index != next {
                return Err(DbError::Decode {
                    column: 0,
                    wanted: "the next index of the challenge's schedule",
                    found: format!("{} (the schedule is at {next})", matches[0].index),
                });
            }
            insert_matches(db, row.ladder, matches)?;
            db.execute(
                "INSERT INTO challenge_usage (account_id, day, games) VALUES ($1, $2, $3)
                 ON CONFLICT (account_id, day) DO UPDATE SET games = challenge_usage.games + $3",
                vals![row.account, day, matches.len()],
            )?;
            Ok(true)
        })
    }

    /// Ends challenge `id` with `verdict` for `reason` at `at` (unix
    /// seconds), and records its matches that nobody is playing as void
    /// ("not played"), so that no worker claims them: in one transaction.
    /// `false`, and nothing changed, when it had ended already.
    pub fn end(&self, id: i64, verdict: &str, reason: &str, at: i64) -> Result<bool, StoreError> {
        self.conn.write(|db| {
            let Some(row) = db.query_opt(
                "SELECT ladder_id, account_id FROM challenges WHERE id = $1 AND ended_at IS NULL {for_update}",
                vals![id],
            )?
            else {
                return Ok(false);
            };
            let (ladder, account) = (row.i64(0)?, row.i64(1)?);
            db.execute(
                "UPDATE challenges SET verdict = $2, ended_at = $3, ended_reason = $4 WHERE id = $1",
                vals![id, verdict, at, reason],
            )?;
            // A match under a live lease is being played: its result comes.
            let waiting = db.query(
                "SELECT idx FROM matches
                 WHERE ladder_id = $1 AND done = 0 AND (lease_until IS NULL OR lease_until < {now})
                 ORDER BY idx {skip_locked}",
                vals![ladder],
            )?;
            // Games scheduled but never played go back to the account's
            // games of the day (of the day it ends).
            let unplayed = waiting.len() as i64;
            db.execute(
                "UPDATE challenge_usage SET games = CASE WHEN games > $3 THEN games - $3 ELSE 0 END
                 WHERE account_id = $1 AND day = $2",
                vals![account, day_of(at), unplayed],
            )?;
            for r in waiting {
                let index = r.u32(0)?;
                db.execute(
                    "INSERT INTO results (ladder_id, idx, match_id, placements, scores, faults, turns, reason, aborted, replay_sha256, refused)
                     VALUES ($1, $2, '', '[]', '[]', '[]', 0, 'void', $3, '', '[]')",
                    vals![ladder, index, NOT_PLAYED],
                )?;
                db.execute(
                    "UPDATE matches SET done = 1, lease_owner = NULL, lease_until = NULL, finished_at = {now}
                     WHERE ladder_id = $1 AND idx = $2",
                    vals![ladder, index],
                )?;
            }
            Ok(true)
        })
    }
}

/// Why a match of an ended challenge has a void result.
pub const NOT_PLAYED: &str = "not played: the challenge had ended";
