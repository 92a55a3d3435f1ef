//! Accounts of the server: an account's password is kept only as its
//! Argon2id hash (made by the server, which alone hashes), its API tokens,
//! named and many, only as the sha256 of their secrets; a bot name belongs
//! to the account that first uploaded it (which may retire it); uploads are
//! counted for the daily quota. The operator invites people (one-time codes,
//! kept hashed), disables an account (its sessions end, its tokens refuse,
//! its bots play on) or removes it (its tokens sign in no more, its bots are
//! retired, its results stay) and is told of identical bytes uploaded by
//! different accounts.

use super::conn::{Conn, Lock};
use super::db::{vals, Db, DbError, Row};
use super::error::StoreError;
use std::collections::BTreeSet;

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
    /// Now: RFC 3339, and unix seconds (an invitation expired at or
    /// before it is refused).
    pub now: &'a str,
    pub now_unix: i64,
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

/// An API token of an account, as its owner lists them (never its secret).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiToken {
    pub id: i64,
    pub account_id: i64,
    pub name: String,
    /// sha256 (hex) of its secret.
    pub token_sha256: String,
    /// RFC 3339.
    pub created_at: String,
    /// Unix seconds; recorded at most once a minute.
    pub last_used_at: Option<i64>,
    pub revoked_at: Option<i64>,
}

/// The columns [`token_row`] reads, in its order.
const TOKEN_COLUMNS: &str =
    "id, account_id, name, token_sha256, created_at, last_used_at, revoked_at";

fn token_row(r: &Row) -> Result<ApiToken, DbError> {
    Ok(ApiToken {
        id: r.i64(0)?,
        account_id: r.i64(1)?,
        name: r.text(2)?,
        token_sha256: r.text(3)?,
        created_at: r.text(4)?,
        last_used_at: r.opt_i64(5)?,
        revoked_at: r.opt_i64(6)?,
    })
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
    pub fn create(&self, new: &NewAccount) -> Result<Created, StoreError> {
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
                if row.i64(1)? <= new.now_unix {
                    return Ok(Created::Invite(InviteRefused::Expired));
                }
            }
            let id = db
                .query_opt(
                    "INSERT INTO accounts (name, token_sha256, created_at, operator, password_hash)
                     VALUES ($1, '', $2, $3, $4) RETURNING id",
                    vals![new.name, new.now, i64::from(new.operator), new.password_hash],
                )?
                .expect("INSERT … RETURNING gives a row")
                .i64(0)?;
            if let Some((name, sha256)) = new.token {
                db.execute(
                    "INSERT INTO api_tokens (account_id, name, token_sha256, created_at) VALUES ($1, $2, $3, $4)",
                    vals![id, name, sha256, new.now],
                )?;
            }
            if let Some(code) = new.invite {
                db.execute(
                    "UPDATE invites SET used_by = $2, used_at = $3 WHERE code_sha256 = $1",
                    vals![code, id, new.now_unix],
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

    /// Adds an API token named `name` to the account: its id.
    pub fn add_token(
        &self,
        account: i64,
        name: &str,
        token_sha256: &str,
        now: &str,
    ) -> Result<i64, StoreError> {
        self.conn.write(|db| {
            db.query_opt(
                "INSERT INTO api_tokens (account_id, name, token_sha256, created_at) VALUES ($1, $2, $3, $4) RETURNING id",
                vals![account, name, token_sha256, now],
            )?
            .expect("INSERT … RETURNING gives a row")
            .i64(0)
        })
    }

    /// The account's API tokens, revoked ones included, oldest first.
    pub fn tokens(&self, account: i64) -> Result<Vec<ApiToken>, StoreError> {
        self.conn.rows(
            &format!("SELECT {TOKEN_COLUMNS} FROM api_tokens WHERE account_id = $1 ORDER BY id"),
            vals![account],
            token_row,
        )
    }

    /// The token whose secret has this sha256, revoked or not.
    pub fn token(&self, token_sha256: &str) -> Result<Option<ApiToken>, StoreError> {
        self.conn.row(
            &format!("SELECT {TOKEN_COLUMNS} FROM api_tokens WHERE token_sha256 = $1"),
            vals![token_sha256],
            token_row,
        )
    }

    /// Revokes the account's token `id` at `at` (unix seconds): it refuses
    /// from the next request on. `false`, and nothing changed, for a token
    /// of another account, unknown, or revoked already.
    pub fn revoke_token(&self, account: i64, id: i64, at: i64) -> Result<bool, StoreError> {
        self.conn.write(|db| {
            Ok(db.execute(
                "UPDATE api_tokens SET revoked_at = $3 WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL",
                vals![id, account, at],
            )? == 1)
        })
    }

    /// Records that the token `id` was used at `at` (unix seconds).
    pub fn token_used(&self, id: i64, at: i64) -> Result<(), StoreError> {
        self.conn.write(|db| {
            db.execute(
                "UPDATE api_tokens SET last_used_at = $2 WHERE id = $1",
                vals![id, at],
            )?;
            Ok(())
        })
    }

    /// Records a one-time invitation, by the sha256 of its code, usable
    /// until `expires_at` (unix seconds).
    pub fn add_invite(
        &self,
        code_sha256: &str,
        now: i64,
        expires_at: i64,
    ) -> Result<(), StoreError> {
        self.conn.write(|db| {
            db.execute(
                "INSERT INTO invites (code_sha256, created_at, expires_at) VALUES ($1, $2, $3)",
                vals![code_sha256, now, expires_at],
            )?;
            Ok(())
        })
    }

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

    /// Counts an upload by `account` at `at` (unix seconds) if it has made
    /// fewer than `most` since `since`; whether it was counted. The check
    /// and the count are one transaction that holds the account's row
    /// (PostgreSQL; the write lock on SQLite): uploads of one account at
    /// the same moment, on any server, take turns, and never overrun the
    /// quota.
    pub fn count_upload(
        &self,
        account: i64,
        at: i64,
        since: i64,
        most: u32,
    ) -> Result<bool, StoreError> {
        self.conn.write(|db| {
            db.query(
                "SELECT id FROM accounts WHERE id = $1 {for_update}",
                vals![account],
            )?;
            let made = db
                .query_opt(
                    "SELECT count(*) FROM uploads WHERE account_id = $1 AND at >= $2",
                    vals![account, since],
                )?
                .map(|r| r.i64(0))
                .transpose()?
                .unwrap_or(0);
            if made >= i64::from(most) {
                return Ok(false);
            }
            db.execute(
                "INSERT INTO uploads (account_id, at) VALUES ($1, $2)",
                vals![account, at],
            )?;
            Ok(true)
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
