//! Browser sessions of the server's accounts: a session is kept by the
//! sha256 of the random id its cookie holds (so a copy of the database
//! signs nobody in), with the CSRF token of its forms, when it expires and
//! when it was ended (signed out, or its account disabled). A session of
//! an account removed or disabled finds nobody.

use super::accounts::Account;
use super::conn::Conn;
use super::db::vals;
use super::error::StoreError;

/// The sessions of a store ([`super::Store::sessions`]).
pub struct Sessions<'s> {
    pub(crate) conn: &'s Conn,
}

impl Sessions<'_> {
    /// Starts a session of `account`, kept by the sha256 of its id, until
    /// `expires_at` (unix seconds). The account's sessions that expired or
    /// ended are forgotten now, so an account keeps no more rows than its
    /// live sessions.
    pub fn start(
        &self,
        id_sha256: &str,
        account: i64,
        csrf: &str,
        now: i64,
        expires_at: i64,
    ) -> Result<(), StoreError> {
        self.conn.write(|db| {
            db.execute(
                "DELETE FROM sessions WHERE account_id = $1 AND (expires_at <= $2 OR ended_at IS NOT NULL)",
                vals![account, now],
            )?;
            db.execute(
                "INSERT INTO sessions (id_sha256, account_id, csrf, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)",
                vals![id_sha256, account, csrf, now, expires_at],
            )?;
            Ok(())
        })
    }

    /// The account of the live session kept by `id_sha256` and its CSRF
    /// token; `None` for a session unknown, ended or expired at `now`, or
    /// of an account removed or disabled.
    pub fn find(&self, id_sha256: &str, now: i64) -> Result<Option<(Account, String)>, StoreError> {
        self.conn.row(
            "SELECT a.id, a.name, a.token_sha256, a.operator, a.removed_at, a.disabled_at, s.csrf
             FROM sessions s JOIN accounts a ON a.id = s.account_id
             WHERE s.id_sha256 = $1 AND s.ended_at IS NULL AND s.expires_at > $2
               AND a.removed_at IS NULL AND a.disabled_at IS NULL",
            vals![id_sha256, now],
            |r| {
                Ok((
                    Account {
                        id: r.i64(0)?,
                        name: r.text(1)?,
                        token_sha256: r.text(2)?,
                        operator: r.i64(3)? != 0,
                        removed_at: r.opt_i64(4)?,
                        disabled_at: r.opt_i64(5)?,
                    },
                    r.text(6)?,
                ))
            },
        )
    }

    /// Ends the session kept by `id_sha256` at `at` (unix seconds); `false`
    /// when it was unknown or ended already.
    pub fn end(&self, id_sha256: &str, at: i64) -> Result<bool, StoreError> {
        self.conn.write(|db| {
            Ok(db.execute(
                "UPDATE sessions SET ended_at = $2 WHERE id_sha256 = $1 AND ended_at IS NULL",
                vals![id_sha256, at],
            )? == 1)
        })
    }

    /// The account's sessions that are live at `now`.
    pub fn live(&self, account: i64, now: i64) -> Result<u32, StoreError> {
        self.conn.count(
            "SELECT count(*) FROM sessions WHERE account_id = $1 AND ended_at IS NULL AND expires_at > $2",
            vals![account, now],
        )
    }
}
