//! A bot's life once stored: the account that owns its name (the first
//! to upload it; the house adopts a name the operator stored), whether it
//! is retired, and which of its versions are candidates, stored but not
//! entered in its game's ladder until promoted (a version withdrawn is one
//! again). The names' half is more of the [`Accounts`] handle, the
//! versions' of [`Bots`]; what an account may do to a bot is decided above
//! the store (`crate::owners`).

use super::conn::Lock;
use super::db::{vals, Db, DbError, Row};
use super::error::StoreError;
use super::{Accounts, Bots};
use std::collections::BTreeSet;

/// A bot version whose bytes another account's bot also has
/// ([`Accounts::same_bytes`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SameBytes {
    pub sha256: String,
    pub bot: String,
    pub version: u32,
    /// The bot's owner.
    pub account: String,
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

/// The versions of bots owned by accounts whose sha256 a bot of another
/// account also has, by sha256, account, bot and version.
const SAME_BYTES: &str = "SELECT v.sha256, v.name, v.version, a.name FROM bot_versions v
     JOIN bot_owners o ON o.bot = v.name JOIN accounts a ON a.id = o.account_id
     WHERE v.sha256 IN (SELECT w.sha256 FROM bot_versions w JOIN bot_owners p ON p.bot = w.name
                        GROUP BY w.sha256 HAVING count(DISTINCT p.account_id) > 1)
     ORDER BY v.sha256, a.name, v.name, v.version";

fn same_bytes_row(r: &Row) -> Result<SameBytes, DbError> {
    Ok(SameBytes {
        sha256: r.text(0)?,
        bot: r.text(1)?,
        version: r.u32(2)?,
        account: r.text(3)?,
    })
}

impl Accounts<'_> {
    /// Every bot name with an owner: its owner and whether it is retired.
    pub fn owners(&self) -> Result<Vec<(String, Ownership)>, StoreError> {
        self.conn.rows(
            "SELECT o.bot, o.account_id, a.name, o.retired FROM bot_owners o
             JOIN accounts a ON a.id = o.account_id ORDER BY o.bot",
            &[],
            |r| {
                Ok((
                    r.text(0)?,
                    Ownership {
                        account: r.i64(1)?,
                        owner: r.text(2)?,
                        retired: r.i64(3)? != 0,
                    },
                ))
            },
        )
    }

    /// Every version of an owned bot whose bytes (its sha256) a bot of
    /// another account also has, by sha256, account, bot and version: the
    /// groups of identical bytes uploaded by different accounts.
    pub fn same_bytes(&self) -> Result<Vec<SameBytes>, StoreError> {
        self.conn.rows(SAME_BYTES, &[], same_bytes_row)
    }

    /// The bots of other accounts than `bot`'s owner that have the bytes
    /// of one of `bot`'s versions, each once (its version with those
    /// bytes, the earliest), by name; none for a bot without an owner.
    pub fn same_bytes_as(&self, bot: &str) -> Result<Vec<SameBytes>, StoreError> {
        let mut others = self.conn.rows(
            "SELECT w.sha256, w.name, w.version, a.name FROM bot_versions v
             JOIN bot_owners o ON o.bot = v.name
             JOIN bot_versions w ON w.sha256 = v.sha256 AND w.name <> v.name
             JOIN bot_owners p ON p.bot = w.name AND p.account_id <> o.account_id
             JOIN accounts a ON a.id = p.account_id
             WHERE v.name = $1 ORDER BY w.name, w.version",
            vals![bot],
            same_bytes_row,
        )?;
        others.dedup_by(|b, a| a.bot == b.bot);
        Ok(others)
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
}

impl Bots<'_> {
    /// The versions of a bot name that are candidates, oldest first.
    pub fn candidates(&self, name: &str) -> Result<Vec<u32>, StoreError> {
        self.conn.rows(
            "SELECT version FROM bot_versions WHERE name = $1 AND candidate = 1 ORDER BY version",
            vals![name],
            |r| r.u32(0),
        )
    }

    /// Enters a candidate version in its game's ladder: it is a candidate
    /// no more. `false`, and nothing changed, when it was not a candidate
    /// (or does not exist).
    pub fn promote(&self, name: &str, version: u32) -> Result<bool, StoreError> {
        self.conn.write(|db| {
            Ok(db.execute(
                "UPDATE bot_versions SET candidate = 0 WHERE name = $1 AND version = $2 AND candidate = 1",
                vals![name, version],
            )? == 1)
        })
    }

    /// Takes a version out of its game's ladder (retires it): a candidate
    /// again, so the ladder plays the name's version before it (its latest
    /// that is not a candidate) and promoting it enters it again. `false`,
    /// and nothing changed, when it was a candidate already (or does not
    /// exist).
    pub fn withdraw(&self, name: &str, version: u32) -> Result<bool, StoreError> {
        self.conn.write(|db| {
            Ok(db.execute(
                "UPDATE bot_versions SET candidate = 1 WHERE name = $1 AND version = $2 AND candidate = 0",
                vals![name, version],
            )? == 1)
        })
    }
}
