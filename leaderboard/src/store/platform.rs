//! What the server keeps beside the ladders: accounts (a token's hash, never
//! the token), which account owns each bot name and whether it is retired,
//! uploads for the daily quota, and the continuous ladders, which grow: a
//! new bot version gets the next position, and scheduled matches are
//! appended to the stored schedule before anyone plays them.

use super::db::{vals, DbError};
use super::{bot_record, BotRecord, Lock, Needs, NewLadder, Store, StoreError};
use crate::schedule::ScheduledMatch;
use std::collections::BTreeSet;

/// An account: who may upload and retire bots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    pub id: i64,
    pub name: String,
    /// sha256 (hex) of the account's token secret.
    pub token_sha256: String,
}

/// Who owns a bot name, and whether the owner retired it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ownership {
    pub account: i64,
    pub owner: String,
    pub retired: bool,
}

/// The key of the continuous ladder of `game`.
pub fn continuous_key(game: &str) -> String {
    format!("continuous/{game}")
}

impl Store {
    /// Adds an account; `None` when the name is taken.
    pub fn add_account(
        &mut self,
        name: &str,
        token_sha256: &str,
        now: &str,
    ) -> Result<Option<i64>, StoreError> {
        self.write(|db| {
            Lock::Names.take(db)?;
            if db
                .query_opt("SELECT id FROM accounts WHERE name = $1", vals![name])?
                .is_some()
            {
                return Ok(None);
            }
            let row = db
                .query_opt(
                    "INSERT INTO accounts (name, token_sha256, created_at) VALUES ($1, $2, $3) RETURNING id",
                    vals![name, token_sha256, now],
                )?
                .expect("INSERT … RETURNING gives a row");
            Ok(Some(row.i64(0)?))
        })
    }

    /// The account with this id.
    pub fn account(&self, id: i64) -> Result<Option<Account>, StoreError> {
        Ok(self
            .rows(
                "SELECT id, name, token_sha256 FROM accounts WHERE id = $1",
                vals![id],
                |r| {
                    Ok(Account {
                        id: r.i64(0)?,
                        name: r.text(1)?,
                        token_sha256: r.text(2)?,
                    })
                },
            )?
            .into_iter()
            .next())
    }

    /// Who owns the bot name, if anyone does.
    pub fn ownership(&self, bot: &str) -> Result<Option<Ownership>, StoreError> {
        Ok(self
            .rows(
                "SELECT o.account_id, a.name, o.retired FROM bot_owners o JOIN accounts a ON a.id = o.account_id WHERE o.bot = $1",
                vals![bot],
                |r| {
                    Ok(Ownership {
                        account: r.i64(0)?,
                        owner: r.text(1)?,
                        retired: r.i64(2)? != 0,
                    })
                },
            )?
            .into_iter()
            .next())
    }

    /// Gives the bot name to `account` unless another account has it; also
    /// un-retires it (a new version is a comeback). Returns the owner's id.
    pub fn take_bot_name(&mut self, bot: &str, account: i64) -> Result<i64, StoreError> {
        self.write(|db| {
            Lock::Names.take(db)?;
            if let Some(row) = db.query_opt(
                "SELECT account_id FROM bot_owners WHERE bot = $1",
                vals![bot],
            )? {
                let owner = row.i64(0)?;
                if owner == account {
                    db.execute(
                        "UPDATE bot_owners SET retired = 0 WHERE bot = $1",
                        vals![bot],
                    )?;
                }
                return Ok(owner);
            }
            db.execute(
                "INSERT INTO bot_owners (bot, account_id, retired) VALUES ($1, $2, 0)",
                vals![bot, account],
            )?;
            Ok(account)
        })
    }

    /// Marks the bot retired: it is scheduled no more.
    pub fn retire_bot(&mut self, bot: &str) -> Result<(), StoreError> {
        self.write(|db| {
            db.execute(
                "UPDATE bot_owners SET retired = 1 WHERE bot = $1",
                vals![bot],
            )?;
            Ok(())
        })
    }

    /// The retired bot names.
    pub fn retired_bots(&self) -> Result<BTreeSet<String>, StoreError> {
        Ok(self
            .rows("SELECT bot FROM bot_owners WHERE retired = 1", &[], |r| {
                r.text(0)
            })?
            .into_iter()
            .collect())
    }

    /// Records an upload by `account` at `at` (unix seconds).
    pub fn record_upload(&mut self, account: i64, at: i64) -> Result<(), StoreError> {
        self.write(|db| {
            db.execute(
                "INSERT INTO uploads (account_id, at) VALUES ($1, $2)",
                vals![account, at],
            )?;
            Ok(())
        })
    }

    /// The account's uploads at or after `since` (unix seconds).
    pub fn uploads_since(&self, account: i64, since: i64) -> Result<u32, StoreError> {
        let n = self.rows(
            "SELECT count(*) FROM uploads WHERE account_id = $1 AND at >= $2",
            vals![account, since],
            |r| r.i64(0),
        )?;
        Ok(n.first().copied().unwrap_or(0) as u32)
    }

    /// Every version of a bot name, oldest first.
    pub fn bot_versions(&self, name: &str) -> Result<Vec<BotRecord>, StoreError> {
        self.rows(
            "SELECT name, version, game, sha256, submitted_at FROM bot_versions WHERE name = $1 ORDER BY version",
            vals![name],
            bot_record,
        )
    }

    /// The continuous ladder of `game`, created empty the first time.
    pub fn continuous_ladder(
        &mut self,
        game: &str,
        players: u32,
        seed: u64,
        limits: &serde_json::Value,
        needs: &Needs,
    ) -> Result<i64, StoreError> {
        let key = continuous_key(game);
        self.ensure_ladder(&NewLadder {
            key: &key,
            game,
            kind: "continuous",
            players,
            rounds: 0,
            seed,
            config: &serde_json::Value::Null,
            limits,
            needs,
            bots: &[],
            schedule: &[],
        })
    }

    /// The continuous ladder of `game`, if it exists.
    pub fn find_continuous_ladder(&self, game: &str) -> Result<Option<i64>, StoreError> {
        Ok(self
            .rows(
                "SELECT id FROM ladders WHERE ladder_key = $1",
                vals![continuous_key(game)],
                |r| r.i64(0),
            )?
            .into_iter()
            .next())
    }

    /// Gives `bot` the next position of the ladder (or its position when it
    /// has one).
    pub fn add_ladder_bot(&mut self, ladder: i64, bot: &BotRecord) -> Result<usize, StoreError> {
        self.write(|db| {
            if let Some(row) = db.query_opt(
                "SELECT position FROM ladder_bots WHERE ladder_id = $1 AND name = $2 AND version = $3",
                vals![ladder, &bot.name, bot.version],
            )? {
                return Ok(row.i64(0)? as usize);
            }
            let next = db
                .query_opt(
                    "SELECT count(*) FROM ladder_bots WHERE ladder_id = $1",
                    vals![ladder],
                )?
                .expect("count gives a row")
                .i64(0)?;
            db.execute(
                "INSERT INTO ladder_bots (ladder_id, position, name, version, sha256) VALUES ($1, $2, $3, $4, $5)",
                vals![ladder, next, &bot.name, bot.version, &bot.sha256],
            )?;
            Ok(next as usize)
        })
    }

    /// Appends matches to the ladder's schedule, in one transaction; their
    /// indices must continue the schedule.
    pub fn append_matches(
        &mut self,
        ladder: i64,
        matches: &[ScheduledMatch],
    ) -> Result<(), StoreError> {
        self.write(|db| {
            let next = db
                .query_opt(
                    "SELECT count(*) FROM matches WHERE ladder_id = $1",
                    vals![ladder],
                )?
                .expect("count gives a row")
                .i64(0)? as u32;
            for (i, m) in matches.iter().enumerate() {
                if m.index != next + i as u32 {
                    return Err(DbError::Decode {
                        column: 0,
                        wanted: "the next index of the ladder's schedule",
                        found: format!("{} (the schedule is at {})", m.index, next + i as u32),
                    });
                }
                let seats = serde_json::to_string(&m.seats).expect("seats serialise");
                db.execute(
                    "INSERT INTO matches (ladder_id, idx, grp, seed, seats) VALUES ($1, $2, $3, $4, $5)",
                    vals![ladder, m.index, m.group, m.seed as i64, seats],
                )?;
            }
            Ok(())
        })
    }
}
