//! Accounts of the server: an account's token is kept only as the sha256
//! of its secret; a bot name belongs to the account that first uploaded it
//! (which may retire it); uploads are counted for the daily quota.

use super::conn::{Conn, Lock};
use super::db::{vals, Db, DbError, Row};
use super::error::StoreError;
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

/// What became of a claim on a bot name ([`Accounts::take_bot_name`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// The name is the account's.
    Taken,
    /// Another account, named here, owns it.
    Owned(String),
    /// The operator stored a bot under it: it has no owner to claim it.
    Unowned,
    /// This name exists, and differs from the one asked for only in case.
    LooksLike(String),
}

/// Whose the bot name is, for `account`: the claim, and whether the
/// account owns it already. Names are compared by their lower case.
fn examine(db: &mut Db, bot: &str, account: i64) -> Result<(Claim, bool), DbError> {
    if let Some(row) = db.query_opt(
        "SELECT o.bot, o.account_id, a.name FROM bot_owners o JOIN accounts a ON a.id = o.account_id
         WHERE lower(o.bot) = lower($1) ORDER BY o.bot LIMIT 1",
        vals![bot],
    )? {
        let (name, owner, owner_name) = (row.text(0)?, row.i64(1)?, row.text(2)?);
        return Ok(match () {
            _ if name != bot => (Claim::LooksLike(name), false),
            _ if owner != account => (Claim::Owned(owner_name), false),
            _ => (Claim::Taken, true),
        });
    }
    if let Some(row) = db.query_opt(
        "SELECT name FROM bot_versions WHERE lower(name) = lower($1) ORDER BY name LIMIT 1",
        vals![bot],
    )? {
        let name = row.text(0)?;
        return Ok(if name == bot {
            (Claim::Unowned, false)
        } else {
            (Claim::LooksLike(name), false)
        });
    }
    Ok((Claim::Taken, false))
}

/// An account from its `id, name, token_sha256` columns.
fn account_row(r: &Row) -> Result<Account, DbError> {
    Ok(Account {
        id: r.i64(0)?,
        name: r.text(1)?,
        token_sha256: r.text(2)?,
    })
}

/// The accounts of a store ([`super::Store::accounts`]).
pub struct Accounts<'s> {
    pub(crate) conn: &'s Conn,
}

impl Accounts<'_> {
    /// Adds an account; `None` when the name is taken, in any case.
    pub fn add(
        &self,
        name: &str,
        token_sha256: &str,
        now: &str,
    ) -> Result<Option<i64>, StoreError> {
        self.conn.write(|db| {
            Lock::Names.take(db)?;
            if db
                .query_opt(
                    "SELECT id FROM accounts WHERE lower(name) = lower($1)",
                    vals![name],
                )?
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
    pub fn get(&self, id: i64) -> Result<Option<Account>, StoreError> {
        Ok(self
            .conn
            .rows(
                "SELECT id, name, token_sha256 FROM accounts WHERE id = $1",
                vals![id],
                account_row,
            )?
            .into_iter()
            .next())
    }

    /// The account named `name`, in any case, if there is one.
    pub fn named(&self, name: &str) -> Result<Option<Account>, StoreError> {
        Ok(self
            .conn
            .rows(
                "SELECT id, name, token_sha256 FROM accounts WHERE lower(name) = lower($1) ORDER BY id LIMIT 1",
                vals![name],
                account_row,
            )?
            .into_iter()
            .next())
    }

    /// The bot names `account` owns, retired ones included.
    pub fn owned_by(&self, account: i64) -> Result<BTreeSet<String>, StoreError> {
        Ok(self
            .conn
            .rows(
                "SELECT bot FROM bot_owners WHERE account_id = $1",
                vals![account],
                |r| r.text(0),
            )?
            .into_iter()
            .collect())
    }

    /// Gives `account` a bot name the operator stored bots under
    /// ([`Claim::Unowned`]: no account owns it), as one step under the
    /// names' lock; `false`, and nothing changed, for any other name.
    pub fn adopt(&self, bot: &str, account: i64) -> Result<bool, StoreError> {
        self.conn.write(|db| {
            Lock::Names.take(db)?;
            let (claim, _) = examine(db, bot, account)?;
            if claim != Claim::Unowned {
                return Ok(false);
            }
            db.execute(
                "INSERT INTO bot_owners (bot, account_id, retired) VALUES ($1, $2, 0)",
                vals![bot, account],
            )?;
            Ok(true)
        })
    }

    /// Who owns the bot name, if anyone does.
    pub fn ownership(&self, bot: &str) -> Result<Option<Ownership>, StoreError> {
        Ok(self.conn
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

    /// Whether `account` may take the bot name: [`Claim::Taken`] when
    /// the name is free or already the account's; otherwise whose it is.
    pub fn check_bot_name(&self, bot: &str, account: i64) -> Result<Claim, StoreError> {
        let examined = examine(&mut self.conn.db.borrow_mut(), bot, account);
        examined
            .map(|(claim, _)| claim)
            .map_err(|e| self.conn.err(e))
    }

    /// Gives the bot name to `account` unless it is another's (see
    /// [`Claim`]), as one step under the names' lock; also un-retires a
    /// name of the account's own (a new version is a comeback).
    pub fn take_bot_name(&self, bot: &str, account: i64) -> Result<Claim, StoreError> {
        self.conn.write(|db| {
            Lock::Names.take(db)?;
            let (claim, owned) = examine(db, bot, account)?;
            match (&claim, owned) {
                (Claim::Taken, true) => db.execute(
                    "UPDATE bot_owners SET retired = 0 WHERE bot = $1",
                    vals![bot],
                )?,
                (Claim::Taken, false) => db.execute(
                    "INSERT INTO bot_owners (bot, account_id, retired) VALUES ($1, $2, 0)",
                    vals![bot, account],
                )?,
                _ => 0,
            };
            Ok(claim)
        })
    }

    /// Marks the bot retired: it is scheduled no more.
    pub fn retire(&self, bot: &str) -> Result<(), StoreError> {
        self.conn.write(|db| {
            db.execute(
                "UPDATE bot_owners SET retired = 1 WHERE bot = $1",
                vals![bot],
            )?;
            Ok(())
        })
    }

    /// The retired bot names.
    pub fn retired(&self) -> Result<BTreeSet<String>, StoreError> {
        Ok(self
            .conn
            .rows("SELECT bot FROM bot_owners WHERE retired = 1", &[], |r| {
                r.text(0)
            })?
            .into_iter()
            .collect())
    }

    /// Records an upload by `account` at `at` (unix seconds).
    pub fn record_upload(&self, account: i64, at: i64) -> Result<(), StoreError> {
        self.conn.write(|db| {
            db.execute(
                "INSERT INTO uploads (account_id, at) VALUES ($1, $2)",
                vals![account, at],
            )?;
            Ok(())
        })
    }

    /// The account's uploads at or after `since` (unix seconds).
    pub fn uploads_since(&self, account: i64, since: i64) -> Result<u32, StoreError> {
        let n = self.conn.rows(
            "SELECT count(*) FROM uploads WHERE account_id = $1 AND at >= $2",
            vals![account, since],
            |r| r.i64(0),
        )?;
        Ok(n.first().copied().unwrap_or(0) as u32)
    }
}
