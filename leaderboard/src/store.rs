//! Storage: one SQLite file holding bots (content-addressed), ladders, their
//! schedules, results, compressed replays and ratings.
//!
//! Every finished match is committed on its own, so a ladder stopped at any
//! moment keeps every finished result. The schema is plain SQL (INTEGER, REAL,
//! TEXT, BLOB, primary and foreign keys) so it moves to a server database as it
//! is; u64 seeds are stored as the i64 with the same bits.

use crate::schedule::ScheduledMatch;
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// `PRAGMA application_id` of a Ludus database ("LUDU").
const APPLICATION_ID: i32 = 0x4C55_4455;
const SCHEMA_VERSION: i32 = 1;

const SCHEMA: &str = "
CREATE TABLE bots (
    sha256 TEXT PRIMARY KEY,
    wasm BLOB NOT NULL,
    size_bytes INTEGER NOT NULL
);
CREATE TABLE bot_versions (
    name TEXT NOT NULL,
    version INTEGER NOT NULL,
    game TEXT NOT NULL,
    sha256 TEXT NOT NULL REFERENCES bots(sha256),
    submitted_at TEXT NOT NULL,
    PRIMARY KEY (name, version)
);
CREATE TABLE ladders (
    id INTEGER PRIMARY KEY,
    ladder_key TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    kind TEXT NOT NULL,
    players INTEGER NOT NULL,
    rounds INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    config TEXT NOT NULL,
    limits TEXT NOT NULL
);
CREATE TABLE ladder_bots (
    ladder_id INTEGER NOT NULL REFERENCES ladders(id),
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    version INTEGER NOT NULL,
    sha256 TEXT NOT NULL REFERENCES bots(sha256),
    PRIMARY KEY (ladder_id, position)
);
CREATE TABLE matches (
    ladder_id INTEGER NOT NULL REFERENCES ladders(id),
    idx INTEGER NOT NULL,
    grp INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    PRIMARY KEY (ladder_id, idx)
);
CREATE TABLE results (
    ladder_id INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    match_id TEXT NOT NULL,
    placements TEXT NOT NULL,
    scores TEXT NOT NULL,
    faults TEXT NOT NULL,
    turns INTEGER NOT NULL,
    reason TEXT NOT NULL,
    aborted TEXT,
    PRIMARY KEY (ladder_id, idx),
    FOREIGN KEY (ladder_id, idx) REFERENCES matches(ladder_id, idx)
);
CREATE TABLE replays (
    match_id TEXT PRIMARY KEY,
    replay_gz BLOB NOT NULL
);
CREATE TABLE ratings (
    ladder_id INTEGER NOT NULL REFERENCES ladders(id),
    position INTEGER NOT NULL,
    system TEXT NOT NULL,
    rating REAL NOT NULL,
    interval REAL NOT NULL,
    PRIMARY KEY (ladder_id, position, system)
);
";

/// What can go wrong with the database file. Each names the file.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{0} is not a SQLite database (is it the right file? pass another with --db)")]
    NotADatabase(PathBuf),
    #[error("{0} is a SQLite database, but not a Ludus one; pass another file with --db")]
    Foreign(PathBuf),
    #[error("{path} was written by a newer Ludus (schema {found}, this Ludus knows {SCHEMA_VERSION}); upgrade Ludus")]
    NewerSchema { path: PathBuf, found: i32 },
    #[error("{path}: {source} (the file may be damaged; keep a copy and try `sqlite3 {path:?} .recover`)")]
    Sql {
        path: PathBuf,
        source: rusqlite::Error,
    },
    #[error("no bot named `{0}` in the store; `ludus submit` it first")]
    UnknownBot(String),
    #[error("bot `{name}` has no version {version}")]
    UnknownVersion { name: String, version: u32 },
    #[error("bot `{name}` is a {has} bot, not a {wanted} one")]
    WrongGame {
        name: String,
        has: String,
        wanted: String,
    },
}

/// A version of a bot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotRecord {
    pub name: String,
    pub version: u32,
    pub game: String,
    pub sha256: String,
    pub submitted_at: String,
}

/// What `submit` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submitted {
    pub bot: BotRecord,
    /// `false` when the same bytes were already the latest version of the name.
    pub new_version: bool,
}

/// A stored ladder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LadderRecord {
    pub id: i64,
    pub key: String,
    pub game: String,
    pub kind: String,
    pub players: u32,
    pub rounds: u32,
    pub seed: u64,
    pub config: serde_json::Value,
    pub limits: serde_json::Value,
    pub bots: Vec<BotRecord>,
}

/// The result of one scheduled match.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchResult {
    pub index: u32,
    pub match_id: String,
    pub placements: Vec<u32>,
    pub scores: Vec<f64>,
    /// Per seat: turns with a fault.
    pub faults: Vec<u32>,
    pub turns: u32,
    pub reason: String,
    /// Set when a host problem stopped the match: not rated.
    pub aborted: Option<String>,
}

pub struct Store {
    conn: Connection,
    path: PathBuf,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("path", &self.path).finish()
    }
}

impl Store {
    /// Opens (or creates) the Ludus database at `path`, refusing any other file.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let path_buf = path.to_path_buf();
        if let Ok(mut f) = std::fs::File::open(path) {
            use std::io::Read;
            let mut header = [0u8; 16];
            let n = f.read(&mut header).unwrap_or(0);
            if n > 0 && (n < 16 || &header != b"SQLite format 3\0") {
                return Err(StoreError::NotADatabase(path_buf));
            }
        }
        let sql = |source| StoreError::Sql {
            path: path_buf.clone(),
            source,
        };
        let conn = Connection::open(path).map_err(sql)?;
        let app_id: i32 = conn
            .query_row("PRAGMA application_id", [], |r| r.get(0))
            .map_err(|e| match e.sqlite_error_code() {
                Some(rusqlite::ErrorCode::NotADatabase) => {
                    StoreError::NotADatabase(path_buf.clone())
                }
                _ => sql(e),
            })?;
        let tables: i64 = conn
            .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
            .map_err(sql)?;
        if app_id != APPLICATION_ID && (app_id != 0 || tables > 0) {
            return Err(StoreError::Foreign(path_buf));
        }
        // WAL with synchronous = NORMAL: every commit survives the process
        // being killed at any moment (only a power cut may lose the last
        // ones), without an fsync per match.
        conn.execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
        )
        .map_err(sql)?;
        conn.busy_timeout(std::time::Duration::from_secs(10))
            .map_err(sql)?;
        if tables == 0 {
            conn.execute_batch(&format!(
                "BEGIN; {SCHEMA} PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;"
            ))
            .map_err(sql)?;
        } else {
            let version: i32 = conn
                .query_row("PRAGMA user_version", [], |r| r.get(0))
                .map_err(sql)?;
            if version > SCHEMA_VERSION {
                return Err(StoreError::NewerSchema {
                    path: path_buf,
                    found: version,
                });
            }
        }
        Ok(Store {
            conn,
            path: path.to_path_buf(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `f` in one transaction: all of it is committed, or none.
    fn in_transaction<T>(
        &mut self,
        f: impl FnOnce(&rusqlite::Transaction) -> rusqlite::Result<T>,
    ) -> Result<T, StoreError> {
        let run = |conn: &mut Connection| {
            let tx = conn.transaction()?;
            let value = f(&tx)?;
            tx.commit()?;
            Ok(value)
        };
        run(&mut self.conn).map_err(|source| StoreError::Sql {
            path: self.path.clone(),
            source,
        })
    }

    fn sql(&self, source: rusqlite::Error) -> StoreError {
        StoreError::Sql {
            path: self.path.clone(),
            source,
        }
    }

    /// Stores a bot's bytes under `name`. Identical bytes to the name's latest
    /// version are a no-op; otherwise a new version is recorded, and older
    /// versions (and their results) stay.
    pub fn submit(
        &mut self,
        name: &str,
        game: &str,
        wasm: &[u8],
        sha256: &str,
        now: &str,
    ) -> Result<Submitted, StoreError> {
        let latest = self.latest_version(name)?;
        if let Some(b) = &latest {
            if b.sha256 == sha256 && b.game == game {
                return Ok(Submitted {
                    bot: b.clone(),
                    new_version: false,
                });
            }
        }
        let version = latest.map_or(1, |b| b.version + 1);
        self.in_transaction(|tx| {
            tx.execute(
                "INSERT INTO bots (sha256, wasm, size_bytes) VALUES (?1, ?2, ?3) ON CONFLICT (sha256) DO NOTHING",
                params![sha256, wasm, wasm.len() as i64],
            )?;
            tx.execute(
                "INSERT INTO bot_versions (name, version, game, sha256, submitted_at) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![name, version, game, sha256, now],
            )?;
            Ok(())
        })?;
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
    }

    /// Runs a query and maps every row; a bad row is an error naming the file.
    fn rows<T>(
        &self,
        sql: &str,
        args: impl rusqlite::Params,
        map: impl FnMut(&rusqlite::Row) -> rusqlite::Result<T>,
    ) -> Result<Vec<T>, StoreError> {
        let query = || -> rusqlite::Result<Vec<T>> {
            let mut stmt = self.conn.prepare(sql)?;
            let rows = stmt.query_map(args, map)?.collect();
            rows
        };
        query().map_err(|e| self.sql(e))
    }

    fn bot_rows(
        &self,
        sql: &str,
        args: impl rusqlite::Params,
    ) -> Result<Vec<BotRecord>, StoreError> {
        self.rows(sql, args, |r| {
            Ok(BotRecord {
                name: r.get(0)?,
                version: r.get(1)?,
                game: r.get(2)?,
                sha256: r.get(3)?,
                submitted_at: r.get(4)?,
            })
        })
    }

    fn latest_version(&self, name: &str) -> Result<Option<BotRecord>, StoreError> {
        Ok(self
            .bot_rows(
                "SELECT name, version, game, sha256, submitted_at FROM bot_versions WHERE name = ?1 ORDER BY version DESC LIMIT 1",
                params![name],
            )?
            .into_iter()
            .next())
    }

    /// The latest version of every bot of `game`, by name.
    pub fn latest_bots(&self, game: &str) -> Result<Vec<BotRecord>, StoreError> {
        self.bot_rows(
            "SELECT v.name, v.version, v.game, v.sha256, v.submitted_at FROM bot_versions v
             WHERE v.game = ?1 AND v.version = (SELECT max(version) FROM bot_versions w WHERE w.name = v.name)
             ORDER BY v.name",
            params![game],
        )
    }

    /// A bot by name: the given version, or the latest.
    pub fn bot(&self, name: &str, version: Option<u32>) -> Result<BotRecord, StoreError> {
        let found = match version {
            None => self.latest_version(name)?,
            Some(v) => self
                .bot_rows(
                    "SELECT name, version, game, sha256, submitted_at FROM bot_versions WHERE name = ?1 AND version = ?2",
                    params![name, v],
                )?
                .into_iter()
                .next(),
        };
        match (found, version) {
            (Some(b), _) => Ok(b),
            (None, Some(v)) if self.latest_version(name)?.is_some() => {
                Err(StoreError::UnknownVersion {
                    name: name.into(),
                    version: v,
                })
            }
            (None, _) => Err(StoreError::UnknownBot(name.into())),
        }
    }

    /// A bot's `.wasm` bytes.
    pub fn wasm(&self, sha256: &str) -> Result<Vec<u8>, StoreError> {
        self.conn
            .query_row(
                "SELECT wasm FROM bots WHERE sha256 = ?1",
                params![sha256],
                |r| r.get(0),
            )
            .map_err(|e| self.sql(e))
    }

    /// Finds the ladder with `key`, or creates it with its bots and schedule,
    /// in one transaction.
    #[allow(clippy::too_many_arguments)]
    pub fn ensure_ladder(
        &mut self,
        key: &str,
        game: &str,
        kind: &str,
        players: u32,
        rounds: u32,
        seed: u64,
        config: &serde_json::Value,
        limits: &serde_json::Value,
        bots: &[BotRecord],
        schedule: &[ScheduledMatch],
    ) -> Result<i64, StoreError> {
        if let Some(id) = self
            .conn
            .query_row(
                "SELECT id FROM ladders WHERE ladder_key = ?1",
                params![key],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.sql(e))?
        {
            return Ok(id);
        }
        self.in_transaction(|tx| {
            tx.execute(
                "INSERT INTO ladders (ladder_key, game, kind, players, rounds, seed, config, limits) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![key, game, kind, players, rounds, seed as i64, config.to_string(), limits.to_string()],
            )?;
            let id = tx.last_insert_rowid();
            for (position, b) in bots.iter().enumerate() {
                tx.execute(
                    "INSERT INTO ladder_bots (ladder_id, position, name, version, sha256) VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![id, position as i64, b.name, b.version, b.sha256],
                )?;
            }
            let mut stmt = tx.prepare("INSERT INTO matches (ladder_id, idx, grp, seed, seats) VALUES (?1, ?2, ?3, ?4, ?5)")?;
            for m in schedule {
                let seats = serde_json::to_string(&m.seats).expect("seats serialise");
                stmt.execute(params![id, m.index, m.group, m.seed as i64, seats])?;
            }
            drop(stmt);
            Ok(id)
        })
    }

    /// A ladder with its bots.
    pub fn ladder(&self, id: i64) -> Result<LadderRecord, StoreError> {
        let mut l = self
            .conn
            .query_row(
                "SELECT id, ladder_key, game, kind, players, rounds, seed, config, limits FROM ladders WHERE id = ?1",
                params![id],
                |r| {
                    Ok(LadderRecord {
                        id: r.get(0)?,
                        key: r.get(1)?,
                        game: r.get(2)?,
                        kind: r.get(3)?,
                        players: r.get(4)?,
                        rounds: r.get(5)?,
                        seed: r.get::<_, i64>(6)? as u64,
                        config: json(r, 7)?,
                        limits: json(r, 8)?,
                        bots: Vec::new(),
                    })
                },
            )
            .map_err(|e| self.sql(e))?;
        l.bots = self.bot_rows(
            "SELECT b.name, b.version, v.game, b.sha256, v.submitted_at FROM ladder_bots b
             JOIN bot_versions v ON v.name = b.name AND v.version = b.version
             WHERE b.ladder_id = ?1 ORDER BY b.position",
            params![id],
        )?;
        Ok(l)
    }

    /// The most recently created ladder, of `game` if given.
    pub fn latest_ladder(&self, game: Option<&str>) -> Result<Option<i64>, StoreError> {
        self.conn
            .query_row(
                "SELECT id FROM ladders WHERE ?1 IS NULL OR game = ?1 ORDER BY id DESC LIMIT 1",
                params![game],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.sql(e))
    }

    /// The ladder's schedule.
    pub fn schedule(&self, ladder: i64) -> Result<Vec<ScheduledMatch>, StoreError> {
        self.rows(
            "SELECT idx, grp, seed, seats FROM matches WHERE ladder_id = ?1 ORDER BY idx",
            params![ladder],
            |r| {
                Ok(ScheduledMatch {
                    index: r.get(0)?,
                    group: r.get(1)?,
                    seed: r.get::<_, i64>(2)? as u64,
                    seats: json(r, 3)?,
                })
            },
        )
    }

    /// Indices of the ladder's matches that have a result.
    pub fn finished(&self, ladder: i64) -> Result<BTreeSet<u32>, StoreError> {
        Ok(self.results(ladder)?.into_iter().map(|r| r.index).collect())
    }

    /// Records a finished match and its replay, in one transaction. A second
    /// result for the same match is an error, never a silent overwrite.
    pub fn record(
        &mut self,
        ladder: i64,
        result: &MatchResult,
        replay_gz: &[u8],
    ) -> Result<(), StoreError> {
        self.in_transaction(|tx| {
            tx.execute(
                "INSERT INTO replays (match_id, replay_gz) VALUES (?1, ?2) ON CONFLICT (match_id) DO NOTHING",
                params![result.match_id, replay_gz],
            )?;
            tx.execute(
                "INSERT INTO results (ladder_id, idx, match_id, placements, scores, faults, turns, reason, aborted)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![
                    ladder,
                    result.index,
                    result.match_id,
                    serde_json::to_string(&result.placements).expect("serialises"),
                    serde_json::to_string(&result.scores).expect("serialises"),
                    serde_json::to_string(&result.faults).expect("serialises"),
                    result.turns,
                    result.reason,
                    result.aborted,
                ],
            )?;
            Ok(())
        })
    }

    /// The ladder's results, in schedule order.
    pub fn results(&self, ladder: i64) -> Result<Vec<MatchResult>, StoreError> {
        self.rows(
            "SELECT idx, match_id, placements, scores, faults, turns, reason, aborted FROM results
             WHERE ladder_id = ?1 ORDER BY idx",
            params![ladder],
            |r| {
                Ok(MatchResult {
                    index: r.get(0)?,
                    match_id: r.get(1)?,
                    placements: json(r, 2)?,
                    scores: json(r, 3)?,
                    faults: json(r, 4)?,
                    turns: r.get(5)?,
                    reason: r.get(6)?,
                    aborted: r.get(7)?,
                })
            },
        )
    }

    /// A stored replay (gzip of the replay JSON).
    pub fn replay(&self, match_id: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.conn
            .query_row(
                "SELECT replay_gz FROM replays WHERE match_id = ?1",
                params![match_id],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.sql(e))
    }

    /// Replaces the ladder's ratings of `system`: (position, rating, interval).
    pub fn save_ratings(
        &mut self,
        ladder: i64,
        system: &str,
        rows: &[(usize, f64, f64)],
    ) -> Result<(), StoreError> {
        self.in_transaction(|tx| {
            tx.execute(
                "DELETE FROM ratings WHERE ladder_id = ?1 AND system = ?2",
                params![ladder, system],
            )?;
            for &(position, rating, interval) in rows {
                tx.execute(
                    "INSERT INTO ratings (ladder_id, position, system, rating, interval) VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![ladder, position as i64, system, rating, interval],
                )?;
            }
            Ok(())
        })
    }

    /// The ladder's ratings of `system`: (position, rating, interval), by position.
    pub fn ratings(&self, ladder: i64, system: &str) -> Result<Vec<(usize, f64, f64)>, StoreError> {
        self.rows(
            "SELECT position, rating, interval FROM ratings WHERE ladder_id = ?1 AND system = ?2 ORDER BY position",
            params![ladder, system],
            |r| Ok((r.get::<_, i64>(0)? as usize, r.get(1)?, r.get(2)?)),
        )
    }

    /// Every table's rows in primary-key order, as text: two databases with
    /// the same contents give the same dump, whatever order rows were written in.
    pub fn dump(&self) -> Result<String, StoreError> {
        let tables = [
            ("bots", "sha256"),
            ("bot_versions", "name, version"),
            ("ladders", "id"),
            ("ladder_bots", "ladder_id, position"),
            ("matches", "ladder_id, idx"),
            ("results", "ladder_id, idx"),
            ("replays", "match_id"),
            ("ratings", "ladder_id, position, system"),
        ];
        let mut out = String::new();
        for (table, key) in tables {
            out.push_str(&format!("-- {table}\n"));
            let mut stmt = self
                .conn
                .prepare(&format!("SELECT * FROM {table} ORDER BY {key}"))
                .map_err(|e| self.sql(e))?;
            let columns = stmt.column_count();
            let mut rows = stmt.query([]).map_err(|e| self.sql(e))?;
            while let Some(row) = rows.next().map_err(|e| self.sql(e))? {
                let cells: Vec<String> = (0..columns)
                    .map(|i| {
                        use rusqlite::types::ValueRef;
                        match row.get_ref(i) {
                            Ok(ValueRef::Null) => "NULL".into(),
                            Ok(ValueRef::Integer(n)) => n.to_string(),
                            Ok(ValueRef::Real(x)) => format!("{x:?}"),
                            Ok(ValueRef::Text(t)) => format!("{:?}", String::from_utf8_lossy(t)),
                            Ok(ValueRef::Blob(b)) => {
                                format!("blob:{}", ludus_host::sandbox::sha256_hex(b))
                            }
                            Err(e) => format!("error:{e}"),
                        }
                    })
                    .collect();
                out.push_str(&cells.join(" | "));
                out.push('\n');
            }
        }
        Ok(out)
    }
}

/// A JSON column, parsed; a damaged value is an error, never a silent default.
fn json<T: serde::de::DeserializeOwned>(row: &rusqlite::Row, index: usize) -> rusqlite::Result<T> {
    let text: String = row.get(index)?;
    serde_json::from_str(&text).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(index, rusqlite::types::Type::Text, Box::new(e))
    })
}
