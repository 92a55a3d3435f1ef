//! The bot store: every bot's `.wasm` by sha256, and the names that point
//! at its versions; a version may be stored as a candidate, not entered in
//! its game's ladder until it is promoted (promoting and withdrawing a
//! version are a bot's life, with its name's owner: `owners`).

use super::conn::{Conn, Lock};
use super::db::{vals, Db, DbError};
use super::error::StoreError;
use super::records::{bot_record, BotRecord, Submitted};

/// The bots of a store ([`super::Store::bots`]).
pub struct Bots<'s> {
    pub(crate) conn: &'s Conn,
}

const BOT_COLUMNS: &str = "name, version, game, sha256, submitted_at";

fn latest_version(db: &mut Db, name: &str) -> Result<Option<BotRecord>, DbError> {
    db.query_opt(
        &format!(
            "SELECT {BOT_COLUMNS} FROM bot_versions WHERE name = $1 ORDER BY version DESC LIMIT 1"
        ),
        vals![name],
    )?
    .as_ref()
    .map(bot_record)
    .transpose()
}

impl Bots<'_> {
    /// Stores a bot's bytes under `name`, entered in its game's ladder
    /// ([`Bots::submit_as`], not a candidate).
    pub fn submit(
        &self,
        name: &str,
        game: &str,
        wasm: &[u8],
        sha256: &str,
        now: &str,
    ) -> Result<Submitted, StoreError> {
        self.submit_as(name, game, wasm, sha256, now, false)
    }

    /// Stores a bot's bytes under `name`, as a `candidate` or not: a
    /// candidate version is stored, but its game's ladder goes on with the
    /// name's latest version that is not one, until it is promoted
    /// ([`Bots::promote`]). Identical bytes to the name's latest version are
    /// a no-op (the same bytes not as a candidate promote that version);
    /// otherwise a new version is recorded, and older versions (and their
    /// results) stay.
    pub fn submit_as(
        &self,
        name: &str,
        game: &str,
        wasm: &[u8],
        sha256: &str,
        now: &str,
        candidate: bool,
    ) -> Result<Submitted, StoreError> {
        self.conn.write(|db| {
            Lock::Names.take(db)?;
            let latest = latest_version(db, name)?;
            if let Some(b) = &latest {
                if b.sha256 == sha256 && b.game == game {
                    if !candidate {
                        db.execute(
                            "UPDATE bot_versions SET candidate = 0 WHERE name = $1 AND version = $2",
                            vals![name, b.version],
                        )?;
                    }
                    return Ok(Submitted {
                        bot: b.clone(),
                        new_version: false,
                    });
                }
            }
            let version = latest.map_or(1, |b| b.version + 1);
            db.execute(
                "INSERT INTO bots (sha256, wasm, size_bytes) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING",
                vals![sha256, wasm, wasm.len()],
            )?;
            db.execute(
                "INSERT INTO bot_versions (name, version, game, sha256, submitted_at, candidate) VALUES ($1, $2, $3, $4, $5, $6)",
                vals![name, version, game, sha256, now, i64::from(candidate)],
            )?;
            Ok(Submitted {
                bot: BotRecord {
                    name: name.into(),
                    version,
                    game: game.into(),
                    sha256: sha256.into(),
                    submitted_at: now.into(),
                },
                new_version: true,
            })
        })
    }

    /// The latest version of every bot of `game` that is not a candidate,
    /// by name: the versions its ladders enter.
    pub fn latest(&self, game: &str) -> Result<Vec<BotRecord>, StoreError> {
        self.conn.rows(
            "SELECT v.name, v.version, v.game, v.sha256, v.submitted_at FROM bot_versions v
             WHERE v.game = $1 AND v.candidate = 0
               AND v.version = (SELECT max(version) FROM bot_versions w WHERE w.name = v.name AND w.candidate = 0)
             ORDER BY v.name",
            vals![game],
            bot_record,
        )
    }

    /// The latest version of a bot name that is not a candidate (the one
    /// its game's ladder enters), if it has one.
    pub fn entered(&self, name: &str) -> Result<Option<BotRecord>, StoreError> {
        self.conn.row(
            &format!(
                "SELECT {BOT_COLUMNS} FROM bot_versions WHERE name = $1 AND candidate = 0
                 ORDER BY version DESC LIMIT 1"
            ),
            vals![name],
            bot_record,
        )
    }

    /// A bot by name: the given version, or the latest.
    pub fn get(&self, name: &str, version: Option<u32>) -> Result<BotRecord, StoreError> {
        let latest =
            latest_version(&mut self.conn.db.borrow_mut(), name).map_err(|e| self.conn.err(e))?;
        let found = match version {
            None => latest.clone(),
            Some(v) => self.conn.row(
                &format!("SELECT {BOT_COLUMNS} FROM bot_versions WHERE name = $1 AND version = $2"),
                vals![name, v],
                bot_record,
            )?,
        };
        match (found, version) {
            (Some(b), _) => Ok(b),
            (None, Some(v)) if latest.is_some() => Err(StoreError::UnknownVersion {
                name: name.into(),
                version: v,
            }),
            (None, _) => Err(StoreError::UnknownBot(name.into())),
        }
    }

    /// Every version of a bot name, oldest first.
    pub fn versions(&self, name: &str) -> Result<Vec<BotRecord>, StoreError> {
        self.conn.rows(
            &format!("SELECT {BOT_COLUMNS} FROM bot_versions WHERE name = $1 ORDER BY version"),
            vals![name],
            bot_record,
        )
    }

    /// A bot's `.wasm` bytes, checked against the sha256 they are stored
    /// under: a worker on another machine runs exactly the submitted bot.
    pub fn wasm(&self, sha256: &str) -> Result<Vec<u8>, StoreError> {
        let wasm = self
            .conn
            .row(
                "SELECT wasm FROM bots WHERE sha256 = $1",
                vals![sha256],
                |r| r.blob(0),
            )?
            .ok_or_else(|| StoreError::NoWasm {
                db: self.conn.location.clone(),
                sha256: sha256.into(),
            })?;
        let found = ludus_host::sha256_hex(&wasm);
        if found != sha256 {
            return Err(StoreError::WasmMismatch {
                db: self.conn.location.clone(),
                sha256: sha256.into(),
                found,
            });
        }
        Ok(wasm)
    }

    /// Whether the store holds the bot whose bytes hash to `sha256`.
    pub fn contains(&self, sha256: &str) -> Result<bool, StoreError> {
        Ok(self
            .conn
            .count("SELECT count(*) FROM bots WHERE sha256 = $1", vals![sha256])?
            > 0)
    }
}
