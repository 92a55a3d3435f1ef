//! Storage: bots (content-addressed, their wasm included), ladders, their
//! schedules, results, compressed replays and ratings, and the queue that
//! workers share. One interface over two databases: the embedded SQLite
//! file (the default) and a PostgreSQL server, for ladders that several
//! processes or machines play ([`Location`]). Queries are written once
//! ([`db`]); the schema and its versions are in [`schema`]; claims, leases,
//! results arriving twice, heartbeats and the ladder's status in [`queue`].
//!
//! Every finished match is committed on its own, so a ladder stopped at any
//! moment keeps every finished result. u64 seeds are stored as the i64 with
//! the same bits.
//!
//! Every database error is told apart by its code, so that a damaged file, a
//! file of another program, a read-only file, a file another program keeps
//! locked, an unreachable server and a refused login each get their own
//! message, and only a damaged file is sent to `sqlite3 .recover`.

pub mod db;
pub mod platform;
pub mod queue;
pub mod schema;

use crate::schedule::ScheduledMatch;
use db::{vals, Db, DbError, Dialect, Row};
use rusqlite::{ErrorCode, OpenFlags};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub use platform::{elo_history, EloHistory, SeatedMatch};
pub use queue::{
    ClaimNext, Claimed, Committed, IntegrityEvent, LadderStatus, Needs, WorkerInfo, MAX_ATTEMPTS,
};

/// How long a write waits for another writer before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// Where a Ludus database is: a SQLite file, or a PostgreSQL database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    File(PathBuf),
    /// A `postgres://` or `postgresql://` URL.
    Postgres(String),
}

impl Location {
    /// `postgres://…` and `postgresql://…` name a PostgreSQL database;
    /// anything else is a SQLite file's path.
    pub fn parse(arg: &str) -> Location {
        if arg.starts_with("postgres://") || arg.starts_with("postgresql://") {
            Location::Postgres(arg.to_string())
        } else {
            Location::File(PathBuf::from(arg))
        }
    }

    pub fn is_postgres(&self) -> bool {
        matches!(self, Location::Postgres(_))
    }
}

impl std::str::FromStr for Location {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Location, Self::Err> {
        Ok(Location::parse(s))
    }
}

impl std::fmt::Display for Location {
    /// The path, or the URL with its password hidden.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Location::File(p) => write!(f, "{}", p.display()),
            Location::Postgres(url) => f.write_str(&hide_password(url)),
        }
    }
}

/// `postgres://user:secret@host/db` as `postgres://user:***@host/db`.
fn hide_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    match authority.rsplit_once('@') {
        Some((user_info, host)) => match user_info.split_once(':') {
            Some((user, _)) => format!("{scheme}://{user}:***@{host}{tail}"),
            None => url.to_string(),
        },
        None => url.to_string(),
    }
}

/// What can go wrong with the database. Each names it and says what to do.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{0} does not exist; pass your Ludus database with --db (a ladder run or a submit creates one)")]
    Missing(PathBuf),
    #[error("{0} is not a SQLite database but a file of another kind; pass your Ludus database with --db")]
    NotADatabase(PathBuf),
    #[error("{0} is a database, but not a Ludus one; pass another with --db")]
    Foreign(Location),
    #[error(
        "{db} was written by a newer Ludus (schema {found}, this Ludus knows {}); upgrade Ludus",
        schema::VERSION
    )]
    NewerSchema { db: Location, found: i32 },
    #[error("{0} was written by an older Ludus and must be upgraded, which writes to it; make it writable (`chmod u+w`) and run this again")]
    NeedsUpgrade(Location),
    #[error("{db} is damaged ({cause}); keep a copy and try `sqlite3 {db} .recover`")]
    Damaged { db: Location, cause: DbError },
    #[error("{0} is read-only and this command writes to it; make it writable (`chmod u+w`) or pass another file with --db")]
    ReadOnly(Location),
    #[error("{db} is locked by another program, which has been writing to it for over {waited_s} s (a `sqlite3` shell inside a transaction?); end or stop it and try again")]
    Locked { db: Location, waited_s: u64 },
    #[error("{db}: `{url}` is not a PostgreSQL URL Ludus can use ({reason}); write it as postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE")]
    BadUrl {
        db: Location,
        url: String,
        reason: String,
    },
    #[error("cannot reach the PostgreSQL server of {db} ({cause}); is it running, and are the host and port right? (--db or LUDUS_DB)")]
    Unreachable { db: Location, cause: DbError },
    #[error("the PostgreSQL server of {db} refused the login ({cause}); check the user and password in the URL")]
    LoginRefused { db: Location, cause: DbError },
    #[error("{db}: the PostgreSQL server has no such database ({cause}); create it (`createdb NAME`) or fix its name in the URL")]
    NoSuchDatabase { db: Location, cause: DbError },
    #[error("{db}: the PostgreSQL role may not do this ({cause}); grant it the rights on the database, or use the role that owns it")]
    Denied { db: Location, cause: DbError },
    #[error("{db}: {cause}")]
    Sql { db: Location, cause: DbError },
    #[error("{db}: cannot upgrade the schema: {cause}")]
    Migration { db: Location, cause: String },
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
    #[error("no bot with sha256 {} in {db}", ludus_host::short_id(sha256))]
    NoWasm { db: Location, sha256: String },
    #[error("the wasm stored in {db} for sha256 {} hashes to {}: the stored bot is damaged; submit it again", ludus_host::short_id(sha256), ludus_host::short_id(found))]
    WasmMismatch {
        db: Location,
        sha256: String,
        found: String,
    },
    #[error("no ladder {ladder} in {db}; leave out --ladder for the latest")]
    UnknownLadder { db: Location, ladder: i64 },
    #[error("no {} ladder in {db} yet; run `ludus ladder run` first", game.as_deref().unwrap_or("Ludus"))]
    NoLadder { db: Location, game: Option<String> },
    #[error("no stored match in {db} has an id starting with `{prefix}`; `ludus matches` lists a ladder's matches")]
    UnknownMatch { db: Location, prefix: String },
    #[error("{count} stored matches in {db} have ids starting with `{prefix}` ({examples}); give more of the id")]
    AmbiguousMatch {
        db: Location,
        prefix: String,
        count: usize,
        examples: String,
    },
    #[error("ladder {ladder} has no match {index}")]
    UnknownIndex { ladder: i64, index: u32 },
}

impl StoreError {
    /// The error for `cause` on the database at `db`, told apart by its
    /// SQLite code or PostgreSQL state.
    pub fn db(db: &Location, cause: DbError) -> StoreError {
        let db = db.clone();
        match &cause {
            DbError::Sqlite(e) => match e.sqlite_error_code() {
                Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) => {
                    StoreError::Damaged { db, cause }
                }
                Some(ErrorCode::ReadOnly) => StoreError::ReadOnly(db),
                Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => StoreError::Locked {
                    db,
                    waited_s: BUSY_TIMEOUT.as_secs(),
                },
                _ => StoreError::Sql { db, cause },
            },
            DbError::Postgres(e) => {
                use postgres::error::SqlState;
                match e.code() {
                    Some(c)
                        if *c == SqlState::INVALID_PASSWORD
                            || *c == SqlState::INVALID_AUTHORIZATION_SPECIFICATION =>
                    {
                        StoreError::LoginRefused { db, cause }
                    }
                    Some(c) if *c == SqlState::INVALID_CATALOG_NAME => {
                        StoreError::NoSuchDatabase { db, cause }
                    }
                    Some(c) if *c == SqlState::INSUFFICIENT_PRIVILEGE => {
                        StoreError::Denied { db, cause }
                    }
                    Some(c)
                        if c.code().starts_with("08")
                            || *c == SqlState::ADMIN_SHUTDOWN
                            || *c == SqlState::CANNOT_CONNECT_NOW =>
                    {
                        StoreError::Unreachable { db, cause }
                    }
                    None if e.as_db_error().is_none() => StoreError::Unreachable { db, cause },
                    _ => StoreError::Sql { db, cause },
                }
            }
            DbError::Decode { .. } => StoreError::Sql { db, cause },
        }
    }
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

/// A ladder to create: what it is, and what a worker needs to play it.
#[derive(Debug, Clone)]
pub struct NewLadder<'a> {
    /// sha256 of everything that determines its matches.
    pub key: &'a str,
    pub game: &'a str,
    pub kind: &'a str,
    pub players: u32,
    pub rounds: u32,
    pub seed: u64,
    pub config: &'a serde_json::Value,
    pub limits: &'a serde_json::Value,
    pub needs: &'a Needs,
    pub bots: &'a [BotRecord],
    pub schedule: &'a [ScheduledMatch],
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
    /// What a worker must run to play its matches.
    pub needs: Needs,
    /// The ratings cover the matches before this index.
    pub rated_through: u32,
}

/// The result of one scheduled match.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MatchResult {
    pub index: u32,
    pub match_id: String,
    pub placements: Vec<u32>,
    pub scores: Vec<f64>,
    /// Per seat: turns with a fault.
    pub faults: Vec<u32>,
    pub turns: u32,
    pub reason: String,
    /// Set when a host problem stopped the match, or no worker could
    /// finish it: not rated.
    pub aborted: Option<String>,
    /// sha256 of the replay's JSON (empty for a void match, and for results
    /// stored before replays were hashed).
    pub replay_sha256: String,
}

pub struct Store {
    db: RefCell<Db>,
    location: Location,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("location", &self.location.to_string())
            .finish()
    }
}

/// The advisory locks of PostgreSQL that serialise what SQLite's single
/// writer serialises by itself: (class, object).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Lock {
    Schema,
    Names,
    Ratings(i64),
}

/// The class of Ludus's advisory locks ("LU").
const LOCK_CLASS: i32 = 0x4C55;

impl Lock {
    fn key(self) -> (i32, i32) {
        match self {
            Lock::Schema => (LOCK_CLASS, -1),
            Lock::Names => (LOCK_CLASS, -2),
            // Ladder ids are positive; two ladders 2^32 apart share a lock,
            // which only makes them take turns.
            Lock::Ratings(ladder) => (LOCK_CLASS + 1, ladder as i32),
        }
    }

    /// Takes the lock until the end of the transaction (PostgreSQL); on
    /// SQLite the transaction already holds the only write lock.
    pub(crate) fn take(self, db: &mut Db) -> Result<(), DbError> {
        if db.dialect() == Dialect::Postgres {
            let (class, object) = self.key();
            db.execute("SELECT pg_advisory_xact_lock($1, $2)", vals![class, object])?;
        }
        Ok(())
    }
}

/// A match with an outcome, as ratings read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatedGame {
    pub index: u32,
    /// The ladder position of each seat's bot.
    pub seats: Vec<usize>,
    /// Each seat's placement (1 is first).
    pub placements: Vec<u32>,
}

impl Store {
    /// Opens (or creates) the Ludus database at `location`.
    pub fn connect(location: &Location) -> Result<Store, StoreError> {
        match location {
            Location::File(path) => Store::open(path),
            Location::Postgres(url) => Store::open_postgres(url),
        }
    }

    /// Opens the Ludus database at `location`, which must exist (for
    /// commands that only read: a mistyped `--db` must not create an empty
    /// database; a PostgreSQL database is made by its server's owner).
    pub fn connect_existing(location: &Location) -> Result<Store, StoreError> {
        match location {
            Location::File(path) => Store::open_existing(path),
            Location::Postgres(url) => Store::open_postgres(url),
        }
    }

    /// Opens (or creates) the Ludus SQLite file at `path`, refusing any
    /// other file. A file without write permission is opened read-only:
    /// reading commands work on it, writing ones say it is read-only.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let location = Location::File(path.to_path_buf());
        let sql = |cause: rusqlite::Error| StoreError::db(&location, cause.into());
        let mut read_only = false;
        if let Ok(meta) = std::fs::metadata(path) {
            if meta.is_dir() {
                return Err(StoreError::NotADatabase(path.to_path_buf()));
            }
            read_only = meta.permissions().readonly();
            let mut header = [0u8; 16];
            let n = std::fs::File::open(path)
                .and_then(|mut f| std::io::Read::read(&mut f, &mut header))
                .unwrap_or(0);
            if n > 0 && (n < 16 || &header != b"SQLite format 3\0") {
                return Err(StoreError::NotADatabase(path.to_path_buf()));
            }
        }
        let conn = if read_only {
            rusqlite::Connection::open_with_flags(
                path,
                OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )
        } else {
            rusqlite::Connection::open(path)
        }
        .map_err(sql)?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(sql)?;
        if !read_only {
            // WAL with synchronous = NORMAL: every commit survives the process
            // being killed at any moment (only a power cut may lose the last
            // ones), without an fsync per match.
            conn.execute_batch(
                "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
            )
            .map_err(sql)?;
        }
        let store = Store {
            db: RefCell::new(Db::sqlite(conn)),
            location,
        };
        store.prepare_schema(read_only)?;
        Ok(store)
    }

    /// Opens the Ludus SQLite file at `path`, which must exist.
    pub fn open_existing(path: &Path) -> Result<Store, StoreError> {
        if !path.exists() {
            return Err(StoreError::Missing(path.to_path_buf()));
        }
        Store::open(path)
    }

    fn open_postgres(url: &str) -> Result<Store, StoreError> {
        let location = Location::Postgres(url.to_string());
        let mut config: postgres::Config =
            url.parse()
                .map_err(|e: postgres::Error| StoreError::BadUrl {
                    db: location.clone(),
                    url: location.to_string(),
                    reason: e.to_string(),
                })?;
        config
            .application_name("ludus")
            .connect_timeout(Duration::from_secs(10));
        let client = config
            .connect(postgres::NoTls)
            .map_err(|e| StoreError::db(&location, e.into()))?;
        let store = Store {
            db: RefCell::new(Db::postgres(client)),
            location,
        };
        store.prepare_schema(false)?;
        Ok(store)
    }

    /// Checks what the database is and brings it to this Ludus's schema:
    /// creates it when empty, migrates it when older, refuses a newer or
    /// a foreign one.
    fn prepare_schema(&self, read_only: bool) -> Result<(), StoreError> {
        use schema::Found;
        let found = schema::inspect(&mut self.db.borrow_mut()).map_err(|e| self.err(e))?;
        match found {
            Found::Ludus(v) if v == schema::VERSION => return Ok(()),
            Found::Ludus(v) if v > schema::VERSION => {
                return Err(StoreError::NewerSchema {
                    db: self.location.clone(),
                    found: v,
                })
            }
            Found::Foreign => return Err(StoreError::Foreign(self.location.clone())),
            Found::Empty if read_only => return Err(StoreError::ReadOnly(self.location.clone())),
            _ if read_only => return Err(StoreError::NeedsUpgrade(self.location.clone())),
            _ => {}
        }
        let location = self.location.clone();
        let mut db = self.db.borrow_mut();
        let db = &mut *db;
        db.begin().map_err(|e| self.err(e))?;
        let migrated = (|| -> Result<(), StoreError> {
            let err = |e| StoreError::db(&location, e);
            Lock::Schema.take(db).map_err(err)?;
            // Another process may have done it since we looked.
            let found = schema::inspect(db).map_err(err)?;
            let baseline = match found {
                Found::Ludus(v) if v >= schema::VERSION => return Ok(()),
                Found::Foreign => return Err(StoreError::Foreign(location.clone())),
                Found::Legacy(version) => {
                    if version < 2 {
                        reduce_pending_seeds(db).map_err(err)?;
                    }
                    Some(2)
                }
                Found::Empty | Found::Ludus(_) => None,
            };
            schema::migrate(db, baseline).map_err(|e| StoreError::Migration {
                db: location.clone(),
                cause: e.to_string(),
            })?;
            if matches!(found, Found::Legacy(_)) {
                fill_legacy_needs(db).map_err(err)?;
            }
            // The bot index came with schema 5: filled in from before it.
            if matches!(found, Found::Legacy(_)) || matches!(found, Found::Ludus(v) if v < 5) {
                platform::index_older_ladders(db).map_err(err)?;
            }
            if db.dialect() == Dialect::Sqlite {
                db.batch(&format!(
                    "PRAGMA application_id = {}; PRAGMA user_version = {};",
                    schema::APPLICATION_ID,
                    schema::VERSION
                ))
                .map_err(err)?;
            }
            Ok(())
        })();
        match migrated {
            Ok(()) => db.commit().map_err(|e| self.err(e)),
            Err(e) => {
                db.rollback();
                Err(e)
            }
        }
    }

    /// On PostgreSQL, whether this connection's prepared statements are
    /// planned once, when first run, rather than at every run. A worker's
    /// statements are few, keyed by ids that fit their indexes, and run
    /// hundreds of times a second; planning each run was two fifths of a
    /// commit's cost, and the statement's many shapes (so many results, so
    /// many matches to claim) each run too rarely for PostgreSQL to settle
    /// on one plan by itself. A no-op on SQLite.
    pub fn plan_statements_once(&self, once: bool) -> Result<(), StoreError> {
        if !self.is_postgres() {
            return Ok(());
        }
        let sql = if once {
            "SET plan_cache_mode = force_generic_plan"
        } else {
            "RESET plan_cache_mode"
        };
        self.db.borrow_mut().batch(sql).map_err(|e| self.err(e))
    }

    /// Whether the connection to the database is known to be gone (the
    /// PostgreSQL server restarted or closed it): connect again.
    pub fn connection_lost(&self) -> bool {
        self.db.borrow().is_closed()
    }

    /// Where the database is.
    pub fn location(&self) -> &Location {
        &self.location
    }

    /// How long a write waits for another program's write to end before
    /// failing with [`StoreError::Locked`] (SQLite).
    pub fn set_busy_timeout(&mut self, timeout: Duration) -> Result<(), StoreError> {
        self.db
            .get_mut()
            .set_busy_timeout(timeout)
            .map_err(|e| StoreError::db(&self.location, e))
    }

    pub(crate) fn err(&self, cause: DbError) -> StoreError {
        StoreError::db(&self.location, cause)
    }

    /// Runs a query and returns its rows; an error names the database.
    pub(crate) fn query(&self, sql: &str, params: &[db::Value]) -> Result<Vec<Row>, StoreError> {
        self.db
            .borrow_mut()
            .query(sql, params)
            .map_err(|e| self.err(e))
    }

    /// Runs a query and maps every row.
    fn rows<T>(
        &self,
        sql: &str,
        params: &[db::Value],
        map: impl FnMut(&Row) -> Result<T, DbError>,
    ) -> Result<Vec<T>, StoreError> {
        self.query(sql, params)?
            .iter()
            .map(map)
            .collect::<Result<_, _>>()
            .map_err(|e| self.err(e))
    }

    /// Runs `f` in one transaction: all of it is committed, or none. The
    /// write lock (SQLite) is taken at the start, so what `f` reads cannot
    /// change under it before it writes; on PostgreSQL `f` takes the row
    /// and advisory locks it needs.
    pub(crate) fn write<T>(
        &self,
        f: impl FnOnce(&mut Db) -> Result<T, DbError>,
    ) -> Result<T, StoreError> {
        self.db.borrow_mut().transaction(f).map_err(|e| self.err(e))
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
        self.write(|db| {
            Lock::Names.take(db)?;
            let latest = latest_version(db, name)?;
            if let Some(b) = &latest {
                if b.sha256 == sha256 && b.game == game {
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
                "INSERT INTO bot_versions (name, version, game, sha256, submitted_at) VALUES ($1, $2, $3, $4, $5)",
                vals![name, version, game, sha256, now],
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

    fn bot_rows(&self, sql: &str, params: &[db::Value]) -> Result<Vec<BotRecord>, StoreError> {
        self.rows(sql, params, bot_record)
    }

    /// The latest version of every bot of `game`, by name.
    pub fn latest_bots(&self, game: &str) -> Result<Vec<BotRecord>, StoreError> {
        self.bot_rows(
            "SELECT v.name, v.version, v.game, v.sha256, v.submitted_at FROM bot_versions v
             WHERE v.game = $1 AND v.version = (SELECT max(version) FROM bot_versions w WHERE w.name = v.name)
             ORDER BY v.name",
            vals![game],
        )
    }

    /// A bot by name: the given version, or the latest.
    pub fn bot(&self, name: &str, version: Option<u32>) -> Result<BotRecord, StoreError> {
        let latest = latest_version(&mut self.db.borrow_mut(), name).map_err(|e| self.err(e))?;
        let found = match version {
            None => latest.clone(),
            Some(v) => self
                .bot_rows(
                    "SELECT name, version, game, sha256, submitted_at FROM bot_versions WHERE name = $1 AND version = $2",
                    vals![name, v],
                )?
                .into_iter()
                .next(),
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

    /// A bot's `.wasm` bytes, checked against the sha256 they are stored
    /// under: a worker on another machine runs exactly the submitted bot.
    pub fn wasm(&self, sha256: &str) -> Result<Vec<u8>, StoreError> {
        let row = self
            .query("SELECT wasm FROM bots WHERE sha256 = $1", vals![sha256])?
            .into_iter()
            .next()
            .ok_or_else(|| StoreError::NoWasm {
                db: self.location.clone(),
                sha256: sha256.into(),
            })?;
        let wasm = row.blob(0).map_err(|e| self.err(e))?;
        let found = ludus_host::sha256_hex(&wasm);
        if found != sha256 {
            return Err(StoreError::WasmMismatch {
                db: self.location.clone(),
                sha256: sha256.into(),
                found,
            });
        }
        Ok(wasm)
    }

    /// Whether the store holds the bot whose bytes hash to `sha256`.
    pub fn has_bot(&self, sha256: &str) -> Result<bool, StoreError> {
        let n = self.rows(
            "SELECT count(*) FROM bots WHERE sha256 = $1",
            vals![sha256],
            |r| r.i64(0),
        )?;
        Ok(n.first().copied().unwrap_or(0) > 0)
    }

    /// Finds the ladder with `ladder.key`, or creates it with its bots and
    /// schedule, in one transaction: two processes starting the same
    /// ladder at once find one ladder, never make two.
    pub fn ensure_ladder(&mut self, ladder: &NewLadder) -> Result<i64, StoreError> {
        self.write(|db| {
            Lock::Names.take(db)?;
            if let Some(row) = db.query_opt(
                "SELECT id FROM ladders WHERE ladder_key = $1",
                vals![ladder.key],
            )? {
                return row.i64(0);
            }
            let id = db
                .query_opt(
                    "INSERT INTO ladders (ladder_key, game, kind, players, rounds, seed, config, limits, ludus_version, rules_version, wasmtime_version)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id",
                    vals![
                        ladder.key,
                        ladder.game,
                        ladder.kind,
                        ladder.players,
                        ladder.rounds,
                        ladder.seed as i64,
                        ladder.config.to_string(),
                        ladder.limits.to_string(),
                        &ladder.needs.ludus_version,
                        ladder.needs.rules_version,
                        &ladder.needs.wasmtime_version,
                    ],
                )?
                .expect("INSERT … RETURNING gives a row")
                .i64(0)?;
            for (position, b) in ladder.bots.iter().enumerate() {
                db.execute(
                    "INSERT INTO ladder_bots (ladder_id, position, name, version, sha256) VALUES ($1, $2, $3, $4, $5)",
                    vals![id, position, &b.name, b.version, &b.sha256],
                )?;
            }
            for m in ladder.schedule {
                let seats = serde_json::to_string(&m.seats).expect("seats serialise");
                db.execute(
                    "INSERT INTO matches (ladder_id, idx, grp, seed, seats) VALUES ($1, $2, $3, $4, $5)",
                    vals![id, m.index, m.group, m.seed as i64, seats],
                )?;
            }
            platform::index_seats(db, id, ladder.schedule)?;
            // The planner's statistics, for the queue's indexes: a schedule
            // of 100 000 matches must not be read whole at each claim.
            db.batch("ANALYZE matches")?;
            Ok(id)
        })
    }

    /// A ladder with its bots.
    pub fn ladder(&self, id: i64) -> Result<LadderRecord, StoreError> {
        let mut l = self
            .rows(
                "SELECT id, ladder_key, game, kind, players, rounds, seed, config, limits,
                        ludus_version, rules_version, wasmtime_version, rated_through
                 FROM ladders WHERE id = $1",
                vals![id],
                |r| {
                    Ok(LadderRecord {
                        id: r.i64(0)?,
                        key: r.text(1)?,
                        game: r.text(2)?,
                        kind: r.text(3)?,
                        players: r.u32(4)?,
                        rounds: r.u32(5)?,
                        seed: r.i64(6)? as u64,
                        config: r.json(7)?,
                        limits: r.json(8)?,
                        bots: Vec::new(),
                        needs: Needs {
                            ludus_version: r.text(9)?,
                            rules_version: r.u32(10)?,
                            wasmtime_version: r.text(11)?,
                        },
                        rated_through: r.u32(12)?,
                    })
                },
            )?
            .into_iter()
            .next()
            .ok_or_else(|| StoreError::UnknownLadder {
                db: self.location.clone(),
                ladder: id,
            })?;
        l.bots = self.bot_rows(
            "SELECT b.name, b.version, v.game, b.sha256, v.submitted_at FROM ladder_bots b
             JOIN bot_versions v ON v.name = b.name AND v.version = b.version
             WHERE b.ladder_id = $1 ORDER BY b.position",
            vals![id],
        )?;
        Ok(l)
    }

    /// The most recently created ladder, of `game` if given.
    pub fn latest_ladder(&self, game: Option<&str>) -> Result<Option<i64>, StoreError> {
        let ids = match game {
            Some(game) => self.rows(
                "SELECT id FROM ladders WHERE game = $1 ORDER BY id DESC LIMIT 1",
                vals![game],
                |r| r.i64(0),
            )?,
            None => self.rows(
                "SELECT id FROM ladders ORDER BY id DESC LIMIT 1",
                &[],
                |r| r.i64(0),
            )?,
        };
        Ok(ids.first().copied())
    }

    /// Ladder `ladder` if it exists, else the most recently created one (of
    /// `game` if given).
    pub fn pick_ladder(&self, ladder: Option<i64>, game: Option<&str>) -> Result<i64, StoreError> {
        match ladder {
            Some(id) => self.ladder(id).map(|l| l.id),
            None => self
                .latest_ladder(game)?
                .ok_or_else(|| StoreError::NoLadder {
                    db: self.location.clone(),
                    game: game.map(str::to_string),
                }),
        }
    }

    /// The ladder's schedule.
    pub fn schedule(&self, ladder: i64) -> Result<Vec<ScheduledMatch>, StoreError> {
        self.rows(
            "SELECT idx, grp, seed, seats FROM matches WHERE ladder_id = $1 ORDER BY idx",
            vals![ladder],
            |r| {
                Ok(ScheduledMatch {
                    index: r.u32(0)?,
                    group: r.u32(1)?,
                    seed: r.i64(2)? as u64,
                    seats: r.json(3)?,
                })
            },
        )
    }

    /// Indices of the ladder's matches that have a result.
    pub fn finished(&self, ladder: i64) -> Result<BTreeSet<u32>, StoreError> {
        Ok(self
            .rows(
                "SELECT idx FROM results WHERE ladder_id = $1",
                vals![ladder],
                |r| r.u32(0),
            )?
            .into_iter()
            .collect())
    }

    /// The ladder's results, in schedule order.
    pub fn results(&self, ladder: i64) -> Result<Vec<MatchResult>, StoreError> {
        self.results_before(ladder, u32::MAX)
    }

    /// The ladder's results of the matches before index `end`, in schedule order.
    pub fn results_before(&self, ladder: i64, end: u32) -> Result<Vec<MatchResult>, StoreError> {
        self.rows(
            "SELECT idx, match_id, placements, scores, faults, turns, reason, aborted, replay_sha256
             FROM results WHERE ladder_id = $1 AND idx < $2 ORDER BY idx",
            vals![ladder, end],
            match_result,
        )
    }

    /// What ratings read of the matches before `end` that have an outcome
    /// (void and aborted ones left out), in schedule order: each match's
    /// index, its seats (ladder positions) and their placements. Only those
    /// columns, and without reading the rest of the schedule.
    pub fn rated_games_before(&self, ladder: i64, end: u32) -> Result<Vec<RatedGame>, StoreError> {
        self.rows(
            "SELECT r.idx, m.seats, r.placements FROM results r
             JOIN matches m ON m.ladder_id = r.ladder_id AND m.idx = r.idx
             WHERE r.ladder_id = $1 AND r.idx < $2 AND r.aborted IS NULL
             ORDER BY r.idx",
            vals![ladder, end],
            |r| {
                Ok(RatedGame {
                    index: r.u32(0)?,
                    seats: r.json(1)?,
                    placements: r.json(2)?,
                })
            },
        )
    }

    /// A stored replay (gzip of the replay JSON).
    pub fn replay(&self, match_id: &str) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self
            .rows(
                "SELECT replay_gz FROM replays WHERE match_id = $1",
                vals![match_id],
                |r| r.blob(0),
            )?
            .into_iter()
            .next())
    }

    /// Replaces the ladder's ratings of `system`: (position, rating, interval).
    pub fn save_ratings(
        &self,
        ladder: i64,
        system: &str,
        rows: &[(usize, f64, f64)],
    ) -> Result<(), StoreError> {
        self.write(|db| save_ratings(db, ladder, system, rows))
    }

    /// The ladder's ratings of `system`: (position, rating, interval), by position.
    pub fn ratings(&self, ladder: i64, system: &str) -> Result<Vec<(usize, f64, f64)>, StoreError> {
        self.rows(
            "SELECT position, rating, interval FROM ratings WHERE ladder_id = $1 AND system = $2 ORDER BY position",
            vals![ladder, system],
            |r| Ok((r.i64(0)? as usize, r.f64(1)?, r.f64(2)?)),
        )
    }

    /// The full id of the stored match whose id starts with `prefix`.
    pub fn find_match(&self, prefix: &str) -> Result<String, StoreError> {
        let hex = |c: char| c.is_ascii_digit() || ('a'..='f').contains(&c);
        let ids = if prefix.is_empty() {
            Vec::new()
        } else if prefix.chars().all(hex) {
            // Ids are lowercase hex: the prefix's range of the primary key,
            // an index lookup ('g' sorts after every hex digit).
            self.rows(
                "SELECT match_id FROM replays WHERE match_id >= $1 AND match_id < $2 ORDER BY match_id LIMIT 6",
                vals![prefix, format!("{prefix}g")],
                |r| r.text(0),
            )?
        } else {
            self.rows(
                "SELECT match_id FROM replays WHERE substr(match_id, 1, $2) = $1 ORDER BY match_id LIMIT 6",
                vals![prefix, prefix.chars().count()],
                |r| r.text(0),
            )?
        };
        match ids.as_slice() {
            [one] => Ok(one.clone()),
            [] => Err(StoreError::UnknownMatch {
                db: self.location.clone(),
                prefix: prefix.into(),
            }),
            more => Err(StoreError::AmbiguousMatch {
                db: self.location.clone(),
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

    /// The tables of the ladders' contents in primary-key order, as text:
    /// two databases with the same contents give the same dump, whatever
    /// order rows were written in and whichever workers wrote them. The
    /// queue's bookkeeping (leases, attempts, workers, times) is left out.
    pub fn dump(&self) -> Result<String, StoreError> {
        let tables = [
            ("bots", "sha256", "*"),
            ("bot_versions", "name, version", "*"),
            (
                "ladders",
                "id",
                "id, ladder_key, game, kind, players, rounds, seed, config, limits, ludus_version, rules_version, wasmtime_version",
            ),
            ("ladder_bots", "ladder_id, position", "*"),
            ("matches", "ladder_id, idx", "ladder_id, idx, grp, seed, seats, done"),
            ("results", "ladder_id, idx", "*"),
            ("replays", "match_id", "*"),
            ("ratings", "ladder_id, position, system", "*"),
        ];
        let mut out = String::new();
        for (table, key, columns) in tables {
            out.push_str(&format!("-- {table}\n"));
            for row in self.query(
                &format!("SELECT {columns} FROM {table} ORDER BY {key}"),
                &[],
            )? {
                let cells: Vec<String> = row
                    .0
                    .iter()
                    .map(|v| match v {
                        db::Value::Null => "NULL".into(),
                        db::Value::Int(n) => n.to_string(),
                        db::Value::Real(x) => format!("{x:?}"),
                        db::Value::Text(t) => format!("{t:?}"),
                        db::Value::Blob(b) => {
                            format!("blob:{}", ludus_host::sha256_hex(b))
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

fn bot_record(r: &Row) -> Result<BotRecord, DbError> {
    Ok(BotRecord {
        name: r.text(0)?,
        version: r.u32(1)?,
        game: r.text(2)?,
        sha256: r.text(3)?,
        submitted_at: r.text(4)?,
    })
}

pub(crate) fn match_result(r: &Row) -> Result<MatchResult, DbError> {
    Ok(MatchResult {
        index: r.u32(0)?,
        match_id: r.text(1)?,
        placements: r.json(2)?,
        scores: r.json(3)?,
        faults: r.json(4)?,
        turns: r.u32(5)?,
        reason: r.text(6)?,
        aborted: r.opt_text(7)?,
        replay_sha256: r.text(8)?,
    })
}

fn latest_version(db: &mut Db, name: &str) -> Result<Option<BotRecord>, DbError> {
    db.query_opt(
        "SELECT name, version, game, sha256, submitted_at FROM bot_versions WHERE name = $1 ORDER BY version DESC LIMIT 1",
        vals![name],
    )?
    .as_ref()
    .map(bot_record)
    .transpose()
}

pub(crate) fn save_ratings(
    db: &mut Db,
    ladder: i64,
    system: &str,
    rows: &[(usize, f64, f64)],
) -> Result<(), DbError> {
    db.execute(
        "DELETE FROM ratings WHERE ladder_id = $1 AND system = $2",
        vals![ladder, system],
    )?;
    for &(position, rating, interval) in rows {
        db.execute(
            "INSERT INTO ratings (ladder_id, position, system, rating, interval) VALUES ($1, $2, $3, $4, $5)",
            vals![ladder, position, system, rating, interval],
        )?;
    }
    Ok(())
}

/// Schema 1 → 2: the seeds of matches not yet played are reduced into
/// their game's seed range; played ones keep the seed their replay records.
fn reduce_pending_seeds(db: &mut Db) -> Result<(), DbError> {
    let pending = db.query(
        "SELECT m.ladder_id, m.idx, m.seed, l.game FROM matches m JOIN ladders l ON l.id = m.ladder_id
         WHERE NOT EXISTS (SELECT 1 FROM results r WHERE r.ladder_id = m.ladder_id AND r.idx = m.idx)",
        &[],
    )?;
    for row in pending {
        let (ladder, idx, seed, game) = (row.i64(0)?, row.i64(1)?, row.i64(2)?, row.text(3)?);
        let Ok(info) = ludus_engine::registry::info(&game) else {
            continue;
        };
        let reduced = info.game_seed(seed as u64) as i64;
        if reduced != seed {
            db.execute(
                "UPDATE matches SET seed = $3 WHERE ladder_id = $1 AND idx = $2",
                vals![ladder, idx, reduced],
            )?;
        }
    }
    Ok(())
}

/// Ladders stored before ladders recorded what they need were made by the
/// Ludus that upgrades them: they need what this build is.
fn fill_legacy_needs(db: &mut Db) -> Result<(), DbError> {
    for row in db.query("SELECT id, game FROM ladders WHERE ludus_version = ''", &[])? {
        let (id, game) = (row.i64(0)?, row.text(1)?);
        let rules = ludus_engine::registry::info(&game).map_or(0, |g| g.rules_version);
        let needs = Needs::of_this_build(rules);
        db.execute(
            "UPDATE ladders SET ludus_version = $2, rules_version = $3, wasmtime_version = $4 WHERE id = $1",
            vals![id, needs.ludus_version, needs.rules_version, needs.wasmtime_version],
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_postgres_url_is_shown_without_its_password() {
        let l = Location::parse("postgres://ludus:s3cret@db.example:5432/ludus?sslmode=disable");
        assert!(l.is_postgres());
        assert_eq!(
            l.to_string(),
            "postgres://ludus:***@db.example:5432/ludus?sslmode=disable"
        );
        assert_eq!(
            Location::parse("postgresql://ludus@h/db").to_string(),
            "postgresql://ludus@h/db"
        );
        assert_eq!(
            Location::parse("ludus.db"),
            Location::File(PathBuf::from("ludus.db"))
        );
    }
}
