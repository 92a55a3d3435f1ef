//! The server's settings that every worker of its database reads, on this
//! machine or another: a name and its value, as text.

use super::conn::Conn;
use super::db::vals;
use super::error::StoreError;

/// The settings of a store ([`super::Store::settings`]).
pub struct Settings<'s> {
    pub(crate) conn: &'s Conn,
}

/// The share of a worker's time that challenges take when ladders of both
/// kinds have work, unless the operator set another.
pub const DEFAULT_CHALLENGE_SHARE: f64 = 0.25;

const CHALLENGE_SHARE: &str = "challenge_share";

impl Settings<'_> {
    /// A setting's value, if it is set.
    pub fn get(&self, name: &str) -> Result<Option<String>, StoreError> {
        self.conn.row(
            "SELECT value FROM server_settings WHERE name = $1",
            vals![name],
            |r| r.text(0),
        )
    }

    /// Sets a setting.
    pub fn set(&self, name: &str, value: &str) -> Result<(), StoreError> {
        self.conn.write(|db| {
            db.execute(
                "INSERT INTO server_settings (name, value) VALUES ($1, $2)
                 ON CONFLICT (name) DO UPDATE SET value = $2",
                vals![name, value],
            )?;
            Ok(())
        })
    }

    /// The share of a worker's time (0 to 1) that the ladders of
    /// challenges take together when ordinary ladders have work too
    /// ([`DEFAULT_CHALLENGE_SHARE`] unless set; a stored value that is not
    /// a share reads as the default).
    pub fn challenge_share(&self) -> Result<f64, StoreError> {
        let stored = self.get(CHALLENGE_SHARE)?;
        Ok(stored
            .and_then(|v| v.parse::<f64>().ok())
            .filter(|s| (0.0..=1.0).contains(s))
            .unwrap_or(DEFAULT_CHALLENGE_SHARE))
    }

    /// Sets the challenges' share of the workers' time, clamped into
    /// [0, 1] (a value that is not a number sets the default).
    pub fn set_challenge_share(&self, share: f64) -> Result<(), StoreError> {
        let share = match share.is_nan() {
            true => DEFAULT_CHALLENGE_SHARE,
            false => share.clamp(0.0, 1.0),
        };
        self.set(CHALLENGE_SHARE, &share.to_string())
    }
}
