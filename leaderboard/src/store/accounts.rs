//! Accounts of the server: who they are, their password hashes (Argon2id,
//! made by the server, which alone hashes), making one (its first token and
//! its invitation used up with it), and the operator's disable, enable and
//! remove (its tokens sign in no more, its bots are retired, its results
//! stay). The same handle, [`Accounts`], also answers for tokens and
//! invitations (`tokens`), bot names' owners (`owners`) and upload counts
//! (`uploads`), each in a file of its own.

use super::conn::{Conn, Lock};
use super::db::{vals, DbError, Row};
use super::error::StoreError;

/// An account: who may upload and retire bots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    pub id: i64,
    pub name: String,
    /// sha256 (hex) of the token an account had before tokens were named
    /// ([`ApiToken`]): kept to tell the house apart (`house::NO_TOKEN`),
    /// empty for an account made since.
    pub token_sha256: String,
    /// An operator's account: its pages show what only the operator is told.
    pub operator: bool,
    /// When the operator removed the account (unix seconds): its tokens
    /// sign in no more.
    pub removed_at: Option<i64>,
    /// When the operator disabled the account (unix seconds): its sessions
    /// ended, and neither sessions nor tokens sign in while it is.
    pub disabled_at: Option<i64>,
}

/// What a new account starts with ([`Accounts::create`]).
#[derive(Debug, Clone, Copy)]
pub struct NewAccount<'a> {
    pub name: &'a str,
    pub operator: bool,
    /// The PHC string of its password's hash, if it signs in by password.
    pub password_hash: Option<&'a str>,
    /// Its first API token, if it has one: the token's name and the
    /// sha256 of its secret.
    pub token: Option<(&'a str, &'a str)>,
    /// The sha256 of the one-time invitation code it signs up with, used
    /// up as the account is made.
    pub invite: Option<&'a str>,
}

/// What became of [`Accounts::create`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Created {
    /// The new account's id.
    Account(i64),
    /// The name is taken (in any case, removed accounts' too), by this one.
    NameTaken(String),
    /// The invitation code is refused: nothing was made.
    Invite(InviteRefused),
}

/// Why an invitation code is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InviteRefused {
    Unknown,
    Used,
    Expired,
}

/// An account as the operator lists it ([`Accounts::list`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    pub account: Account,
    /// RFC 3339, as recorded when it was added.
    pub created_at: String,
    /// The bot names it owns, by name, each with whether it is retired.
    pub bots: Vec<(String, bool)>,
}

/// The columns [`account_row`] reads, in its order.
const ACCOUNT_COLUMNS: &str = "id, name, token_sha256, operator, removed_at, disabled_at";

/// An account from its [`ACCOUNT_COLUMNS`].
fn account_row(r: &Row) -> Result<Account, DbError> {
    Ok(Account {
        id: r.i64(0)?,
        name: r.text(1)?,
        token_sha256: r.text(2)?,
        operator: r.i64(3)? != 0,
        removed_at: r.opt_i64(4)?,
        disabled_at: r.opt_i64(5)?,
    })
}

/// The accounts of a store ([`super::Store::accounts`]).
pub struct Accounts<'s> {
    pub(crate) conn: &'s Conn,
}

impl Accounts<'_> {
    /// Adds an account (an operator's if `operator`); `None` when the name
    /// is taken, in any case, removed accounts' names too.
    pub fn add(
        &self,
        name: &str,
        token_sha256: &str,
        operator: bool,
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
                    "INSERT INTO accounts (name, token_sha256, created_at, operator) VALUES ($1, $2, $3, $4) RETURNING id",
                    vals![name, token_sha256, now, i64::from(operator)],
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
                &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = $1"),
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
                &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE lower(name) = lower($1) ORDER BY id LIMIT 1"),
                vals![name],
                account_row,
            )?
            .into_iter()
            .next())
    }

    /// Every account, by name, with when it was added and the bots it owns.
    pub fn list(&self) -> Result<Vec<Listed>, StoreError> {
        let rows = self.conn.rows(
            "SELECT a.id, a.name, a.token_sha256, a.operator, a.removed_at, a.disabled_at, a.created_at, o.bot, o.retired
             FROM accounts a LEFT JOIN bot_owners o ON o.account_id = a.id ORDER BY a.name, a.id, o.bot",
            &[],
            |r| {
                let bot = match r.opt_text(7)? {
                    Some(bot) => Some((bot, r.i64(8)? != 0)),
                    None => None,
                };
                Ok((account_row(r)?, r.text(6)?, bot))
            },
        )?;
        let mut out: Vec<Listed> = Vec::new();
        for (account, created_at, bot) in rows {
            if out.last().is_none_or(|l| l.account.id != account.id) {
                out.push(Listed {
                    account,
                    created_at,
                    bots: Vec::new(),
                });
            }
            let listed = out.last_mut().expect("pushed above");
            listed.bots.extend(bot);
        }
        Ok(out)
    }

    /// Removes the account as one step: `removed_at` is set to `at` (unix
    /// seconds), which its tokens' check refuses, and every bot it owns is
    /// retired; its bots, versions and results stay. The bot names retired
    /// by this step, by name; `None`, and nothing changed, when the account
    /// was removed already.
    pub fn remove(&self, id: i64, at: i64) -> Result<Option<Vec<String>>, StoreError> {
        self.conn.write(|db| {
            Lock::Names.take(db)?;
            let removed = db.execute(
                "UPDATE accounts SET removed_at = $2 WHERE id = $1 AND removed_at IS NULL",
                vals![id, at],
            )?;
            if removed == 0 {
                return Ok(None);
            }
            let mut retired = db
                .query(
                    "UPDATE bot_owners SET retired = 1 WHERE account_id = $1 AND retired = 0 RETURNING bot",
                    vals![id],
                )?
                .iter()
                .map(|r| r.text(0))
                .collect::<Result<Vec<_>, _>>()?;
            retired.sort();
            Ok(Some(retired))
        })
    }

    /// Makes an account as one step under the names' lock: its password
    /// hash and first token if it has them, and its invitation used up.
    /// Nothing is made when the name is taken or the invitation refused.
    /// `now` is RFC 3339, and `now_unix` unix seconds (an invitation
    /// expired at or before it is refused).
    pub fn create(
        &self,
        new: &NewAccount,
        now: &str,
        now_unix: i64,
    ) -> Result<Created, StoreError> {
        self.conn.write(|db| {
            Lock::Names.take(db)?;
            if let Some(row) = db.query_opt(
                "SELECT name FROM accounts WHERE lower(name) = lower($1)",
                vals![new.name],
            )? {
                return Ok(Created::NameTaken(row.text(0)?));
            }
            if let Some(code) = new.invite {
                let Some(row) = db.query_opt(
                    "SELECT used_by, expires_at FROM invites WHERE code_sha256 = $1",
                    vals![code],
                )?
                else {
                    return Ok(Created::Invite(InviteRefused::Unknown));
                };
                if row.opt_i64(0)?.is_some() {
                    return Ok(Created::Invite(InviteRefused::Used));
                }
                if row.i64(1)? <= now_unix {
                    return Ok(Created::Invite(InviteRefused::Expired));
                }
            }
            let id = db
                .query_opt(
                    "INSERT INTO accounts (name, token_sha256, created_at, operator, password_hash)
                     VALUES ($1, '', $2, $3, $4) RETURNING id",
                    vals![new.name, now, i64::from(new.operator), new.password_hash],
                )?
                .expect("INSERT … RETURNING gives a row")
                .i64(0)?;
            if let Some((name, sha256)) = new.token {
                db.execute(
                    "INSERT INTO api_tokens (account_id, name, token_sha256, created_at) VALUES ($1, $2, $3, $4)",
                    vals![id, name, sha256, now],
                )?;
            }
            if let Some(code) = new.invite {
                db.execute(
                    "UPDATE invites SET used_by = $2, used_at = $3 WHERE code_sha256 = $1",
                    vals![code, id, now_unix],
                )?;
            }
            Ok(Created::Account(id))
        })
    }

    /// The PHC string of the account's password hash; `None` for an
    /// account without a password (or no such account).
    pub fn password_hash(&self, id: i64) -> Result<Option<String>, StoreError> {
        Ok(self
            .conn
            .row(
                "SELECT password_hash FROM accounts WHERE id = $1",
                vals![id],
                |r| r.opt_text(0),
            )?
            .flatten())
    }

    /// Sets the account's password hash; `false`, and nothing changed, for
    /// an account removed or unknown.
    pub fn set_password_hash(&self, id: i64, phc: &str) -> Result<bool, StoreError> {
        self.conn.write(|db| {
            Ok(db.execute(
                "UPDATE accounts SET password_hash = $2 WHERE id = $1 AND removed_at IS NULL",
                vals![id, phc],
            )? == 1)
        })
    }

    /// Disables the account at `at` (unix seconds) and ends its sessions,
    /// as one step: neither its sessions nor its tokens sign in until it
    /// is enabled again; its bots are left as they are. `false`, and
    /// nothing changed, when it was disabled already.
    pub fn disable(&self, id: i64, at: i64) -> Result<bool, StoreError> {
        self.conn.write(|db| {
            if db.execute(
                "UPDATE accounts SET disabled_at = $2 WHERE id = $1 AND disabled_at IS NULL",
                vals![id, at],
            )? == 0
            {
                return Ok(false);
            }
            db.execute(
                "UPDATE sessions SET ended_at = $2 WHERE account_id = $1 AND ended_at IS NULL",
                vals![id, at],
            )?;
            Ok(true)
        })
    }

    /// Enables a disabled account: its tokens that were not revoked sign in
    /// again; its ended sessions stay ended. `false` when it was not
    /// disabled.
    pub fn enable(&self, id: i64) -> Result<bool, StoreError> {
        self.conn.write(|db| {
            Ok(db.execute(
                "UPDATE accounts SET disabled_at = NULL WHERE id = $1 AND disabled_at IS NOT NULL",
                vals![id],
            )? == 1)
        })
    }
}
