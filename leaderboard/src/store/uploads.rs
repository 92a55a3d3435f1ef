//! Uploads counted for an account's daily quota: more of the [`Accounts`]
//! handle.

use super::db::vals;
use super::error::StoreError;
use super::Accounts;

impl Accounts<'_> {
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
}
