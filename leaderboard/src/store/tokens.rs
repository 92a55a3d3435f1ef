//! An account's API tokens, named and many, kept only as the sha256 of
//! their secrets, and the operator's one-time invitations, kept as the
//! sha256 of their codes: more of the [`Accounts`] handle.

use super::db::{vals, DbError, Row};
use super::error::StoreError;
use super::Accounts;

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

impl Accounts<'_> {
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
}
