//! Storage: one SQLite file holding bots (content-addressed), ladders, their
//! schedules, results, compressed replays and ratings.
//!
//! Every finished match is committed on its own, so a ladder stopped at any
//! moment keeps every finished result. The schema is plain SQL (INTEGER, REAL,
//! TEXT, BLOB, primary and foreign keys) so it moves to a server database as it
//! is; u64 seeds are stored as the i64 with the same bits.
//!
//! Every SQLite error is told apart by its code, so that a damaged file, a
//! file of another program, a read-only file and a file another program
//! keeps locked each get their own message, and only a damaged file is sent
//! to `sqlite3 .recover`.

use crate::schedule::ScheduledMatch;
use rusqlite::{params, Connection, ErrorCode, OpenFlags, OptionalExtension, TransactionBehavior};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// `PRAGMA application_id` of a Ludus database ("LUDU").
const APPLICATION_ID: i32 = 0x4C55_4455;
/// 1: the first schema. 2: the same tables; the seeds of matches not yet
/// played are reduced into their game's seed range (`GameInfo::game_seed`),
/// as schedules derive them since (`docs/replay.md`, "Seeds").
const SCHEMA_VERSION: i32 = 2;
/// How long a write waits for another writer before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

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

/// What can go wrong with the database file. Each names the file and says
/// what to do.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{0} does not exist; pass your Ludus database with --db (a ladder run or a submit creates one)")]
    Missing(PathBuf),
    #[error("{0} is not a SQLite database but a file of another kind; pass your Ludus database with --db")]
    NotADatabase(PathBuf),
    #[error("{0} is a SQLite database, but not a Ludus one; pass another file with --db")]
    Foreign(PathBuf),
    #[error("{path} was written by a newer Ludus (schema {found}, this Ludus knows {SCHEMA_VERSION}); upgrade Ludus")]
    NewerSchema { path: PathBuf, found: i32 },
    #[error("{path} is damaged ({cause}); keep a copy and try `sqlite3 {path:?} .recover`")]
    Damaged {
        path: PathBuf,
        cause: rusqlite::Error,
    },
    #[error("{0} is read-only and this command writes to it; make it writable (`chmod u+w`) or pass another file with --db")]
    ReadOnly(PathBuf),
    #[error("{path} is locked by another program, which has been writing to it for over {waited_s} s (a `sqlite3` shell inside a transaction?); end or stop it and try again")]
    Locked { path: PathBuf, waited_s: u64 },
    #[error("{path}: {cause}")]
    Sql {
        path: PathBuf,
        cause: rusqlite::Error,
    },
    #[error("cannot claim ladder {ladder} in {path}: {cause}")]
    Claim {
        path: PathBuf,
        ladder: i64,
        cause: std::io::Error,
    },
    #[error("ladder {ladder} is being played by another process ({}); nothing was played here. Wait for it to finish or stop it, then run this again to resume", Holder::describe(holder.as_ref()))]
    LadderBusy {
        ladder: i64,
        /// `None` when the holder has not written its name yet.
        holder: Option<Holder>,
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
    #[error("no ladder {ladder} in {path}; leave out --ladder for the latest")]
    UnknownLadder { path: PathBuf, ladder: i64 },
    #[error("no {} ladder in {path} yet; run `ludus ladder run` first", game.as_deref().unwrap_or("Ludus"))]
    NoLadder { path: PathBuf, game: Option<String> },
    #[error("no stored match in {path} has an id starting with `{prefix}`; `ludus matches` lists a ladder's matches")]
    UnknownMatch { path: PathBuf, prefix: String },
    #[error("{count} stored matches in {path} have ids starting with `{prefix}` ({examples}); give more of the id")]
    AmbiguousMatch {
        path: PathBuf,
        prefix: String,
        count: usize,
        examples: String,
    },
}

impl StoreError {
    /// The error for `cause` on the database at `path`, told apart by its
    /// SQLite code.
    fn sql(path: &Path, cause: rusqlite::Error) -> StoreError {
        let path = path.to_path_buf();
        match cause.sqlite_error_code() {
            Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) => {
                StoreError::Damaged { path, cause }
            }
            Some(ErrorCode::ReadOnly) => StoreError::ReadOnly(path),
            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => StoreError::Locked {
                path,
                waited_s: BUSY_TIMEOUT.as_secs(),
            },
            _ => StoreError::Sql { path, cause },
        }
    }
}

/// Who holds a ladder: the process playing it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Holder {
    pub pid: u32,
    pub host: String,
    /// When it started playing, RFC 3339.
    pub since: String,
}

impl Holder {
    fn of_this_process() -> Holder {
        Holder {
            pid: std::process::id(),
            host: rustix::system::uname()
                .nodename()
                .to_string_lossy()
                .into_owned(),
            since: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
        }
    }

    /// `pid 1234 on host box, since 2026-12-01T10:00:00Z`.
    fn describe(holder: Option<&Holder>) -> String {
        match holder {
            Some(h) => format!("pid {} on host {}, since {}", h.pid, h.host, h.since),
            None => "it is just starting".into(),
        }
    }
}

/// A process's claim on a ladder: while it is alive no other process plays
/// the ladder. It is an advisory lock on a file beside the database
/// (`<db>-ladder-<id>.lock`, holding the [`Holder`]), which the operating
/// system releases when the process ends, however it ends: a claim of a
/// dead process never blocks anyone.
#[derive(Debug)]
pub struct LadderClaim {
    _file: std::fs::File,
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
    /// Opens (or creates) the Ludus database at `path`, refusing any other
    /// file. A file without write permission is opened read-only: reading
    /// commands work on it, writing ones say it is read-only.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let path_buf = path.to_path_buf();
        let sql = |cause| StoreError::sql(path, cause);
        let mut read_only = false;
        if let Ok(meta) = std::fs::metadata(path) {
            if meta.is_dir() {
                return Err(StoreError::NotADatabase(path_buf));
            }
            read_only = meta.permissions().readonly();
            let mut header = [0u8; 16];
            let n = std::fs::File::open(path)
                .and_then(|mut f| std::io::Read::read(&mut f, &mut header))
                .unwrap_or(0);
            if n > 0 && (n < 16 || &header != b"SQLite format 3\0") {
                return Err(StoreError::NotADatabase(path_buf));
            }
        }
        let conn = if read_only {
            Connection::open_with_flags(
                path,
                OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )
        } else {
            Connection::open(path)
        }
        .map_err(sql)?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(sql)?;
        let app_id: i32 = conn
            .query_row("PRAGMA application_id", [], |r| r.get(0))
            .map_err(sql)?;
        let tables: i64 = conn
            .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
            .map_err(sql)?;
        if app_id != APPLICATION_ID && (app_id != 0 || tables > 0) {
            return Err(StoreError::Foreign(path_buf));
        }
        if read_only {
            if tables == 0 {
                return Err(StoreError::ReadOnly(path_buf));
            }
        } else {
            // WAL with synchronous = NORMAL: every commit survives the process
            // being killed at any moment (only a power cut may lose the last
            // ones), without an fsync per match.
            conn.execute_batch(
                "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
            )
            .map_err(sql)?;
        }
        let mut store = Store {
            conn,
            path: path_buf,
        };
        if tables == 0 {
            store.in_transaction(|tx| {
                // Another process may have made it since we looked.
                let tables: i64 =
                    tx.query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))?;
                if tables > 0 {
                    return Ok(());
                }
                tx.execute_batch(&format!(
                    "{SCHEMA} PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {SCHEMA_VERSION};"
                ))
            })?;
        } else {
            let version: i32 = store
                .conn
                .query_row("PRAGMA user_version", [], |r| r.get(0))
                .map_err(sql)?;
            if version > SCHEMA_VERSION {
                return Err(StoreError::NewerSchema {
                    path: store.path,
                    found: version,
                });
            }
            if version < 2 && !read_only {
                store.reduce_pending_seeds()?;
            }
        }
        Ok(store)
    }

    /// Opens the Ludus database at `path`, which must exist (for commands
    /// that only read: a mistyped `--db` must not create an empty database).
    pub fn open_existing(path: &Path) -> Result<Store, StoreError> {
        if !path.exists() {
            return Err(StoreError::Missing(path.to_path_buf()));
        }
        Store::open(path)
    }

    /// How long a write waits for another program's write to end before
    /// it reports the file locked (10 s unless set).
    pub fn set_busy_timeout(&mut self, timeout: Duration) -> Result<(), StoreError> {
        self.conn
            .busy_timeout(timeout)
            .map_err(|e| StoreError::sql(&self.path, e))
    }

    /// Schema 1 to 2: the seeds of matches not yet played, reduced into
    /// their game's seed range. Played matches keep the seed their replays
    /// record.
    fn reduce_pending_seeds(&mut self) -> Result<(), StoreError> {
        self.in_transaction(|tx| {
            let pending: Vec<(i64, i64, i64, String)> = tx
                .prepare(
                    "SELECT m.ladder_id, m.idx, m.seed, l.game FROM matches m JOIN ladders l ON l.id = m.ladder_id
                     WHERE NOT EXISTS (SELECT 1 FROM results r WHERE r.ladder_id = m.ladder_id AND r.idx = m.idx)",
                )?
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
                .collect::<rusqlite::Result<_>>()?;
            for (ladder, idx, seed, game) in pending {
                let Ok(info) = ludus_engine::registry::info(&game) else {
                    continue;
                };
                let reduced = info.game_seed(seed as u64) as i64;
                if reduced != seed {
                    tx.execute(
                        "UPDATE matches SET seed = ?3 WHERE ladder_id = ?1 AND idx = ?2",
                        params![ladder, idx, reduced],
                    )?;
                }
            }
            tx.execute_batch(&format!("PRAGMA user_version = {SCHEMA_VERSION};"))
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `f` in one transaction: all of it is committed, or none. The
    /// write lock is taken at the start, so what `f` reads cannot change
    /// under it before it writes.
    fn in_transaction<T>(
        &mut self,
        f: impl FnOnce(&rusqlite::Transaction) -> rusqlite::Result<T>,
    ) -> Result<T, StoreError> {
        let run = |conn: &mut Connection| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let value = f(&tx)?;
            tx.commit()?;
            Ok(value)
        };
        run(&mut self.conn).map_err(|cause| StoreError::sql(&self.path, cause))
    }

    fn sql(&self, cause: rusqlite::Error) -> StoreError {
        StoreError::sql(&self.path, cause)
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
        // Looked up inside the write transaction: two processes starting
        // the same ladder at once find one ladder, never make two.
        self.in_transaction(|tx| {
            if let Some(id) = tx
                .query_row(
                    "SELECT id FROM ladders WHERE ladder_key = ?1",
                    params![key],
                    |r| r.get(0),
                )
                .optional()?
            {
                return Ok(id);
            }
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
            .map_err(|e| match e {
                rusqlite::Error::QueryReturnedNoRows => StoreError::UnknownLadder {
                    path: self.path.clone(),
                    ladder: id,
                },
                e => self.sql(e),
            })?;
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

    /// Ladder `ladder` if it exists, else the most recently created one (of
    /// `game` if given).
    pub fn pick_ladder(&self, ladder: Option<i64>, game: Option<&str>) -> Result<i64, StoreError> {
        match ladder {
            Some(id) => self.ladder(id).map(|l| l.id),
            None => self
                .latest_ladder(game)?
                .ok_or_else(|| StoreError::NoLadder {
                    path: self.path.clone(),
                    game: game.map(str::to_string),
                }),
        }
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

    /// Whether the store holds the bot whose bytes hash to `sha256`.
    pub fn has_bot(&self, sha256: &str) -> Result<bool, StoreError> {
        self.conn
            .query_row(
                "SELECT count(*) FROM bots WHERE sha256 = ?1",
                params![sha256],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| n > 0)
            .map_err(|e| self.sql(e))
    }

    /// The full id of the stored match whose id starts with `prefix`.
    pub fn find_match(&self, prefix: &str) -> Result<String, StoreError> {
        let ids = if prefix.is_empty() {
            Vec::new()
        } else {
            self.rows(
                "SELECT match_id FROM replays WHERE substr(match_id, 1, ?2) = ?1 ORDER BY match_id LIMIT 6",
                params![prefix, prefix.chars().count() as i64],
                |r| r.get::<_, String>(0),
            )?
        };
        match ids.as_slice() {
            [one] => Ok(one.clone()),
            [] => Err(StoreError::UnknownMatch {
                path: self.path.clone(),
                prefix: prefix.into(),
            }),
            more => Err(StoreError::AmbiguousMatch {
                path: self.path.clone(),
                prefix: prefix.into(),
                count: more.len(),
                examples: more
                    .iter()
                    .map(|id| ludus_host::short_id(id))
                    .collect::<Vec<_>>()
                    .join(", "),
            }),
        }
    }

    /// Claims ladder `ladder` for this process until the claim is dropped;
    /// [`StoreError::LadderBusy`] names the live process that holds it.
    pub fn claim_ladder(&self, ladder: i64) -> Result<LadderClaim, StoreError> {
        use std::io::{Read, Seek, Write};
        let mut name = self.path.as_os_str().to_owned();
        name.push(format!("-ladder-{ladder}.lock"));
        let lock_path = PathBuf::from(name);
        let claim_err = |cause| StoreError::Claim {
            path: lock_path.clone(),
            ladder,
            cause,
        };
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&lock_path)
            .map_err(claim_err)?;
        match file.try_lock() {
            Ok(()) => {
                let holder = serde_json::to_vec(&Holder::of_this_process()).expect("serialises");
                file.set_len(0)
                    .and_then(|()| file.rewind())
                    .and_then(|()| file.write_all(&holder))
                    .map_err(claim_err)?;
                Ok(LadderClaim { _file: file })
            }
            Err(std::fs::TryLockError::WouldBlock) => {
                let mut text = String::new();
                let _ = file.read_to_string(&mut text);
                // A holder that has not written its name yet is still a holder.
                let holder = serde_json::from_str(&text).ok();
                Err(StoreError::LadderBusy { ladder, holder })
            }
            Err(std::fs::TryLockError::Error(cause)) => Err(claim_err(cause)),
        }
    }

    /// The ladder's schedule with the result of every match played so far.
    pub fn matches(
        &self,
        ladder: i64,
    ) -> Result<Vec<(ScheduledMatch, Option<MatchResult>)>, StoreError> {
        let mut results: std::collections::BTreeMap<u32, MatchResult> = self
            .results(ladder)?
            .into_iter()
            .map(|r| (r.index, r))
            .collect();
        Ok(self
            .schedule(ladder)?
            .into_iter()
            .map(|m| {
                let r = results.remove(&m.index);
                (m, r)
            })
            .collect())
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
                                format!("blob:{}", ludus_host::sha256_hex(b))
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
