//! What can go wrong with the database, each case with its own message
//! that says what to do. Every database error is told apart by its SQLite
//! code or PostgreSQL state, so that a damaged file, a file of another
//! program, a read-only file, a file another program keeps locked, an
//! unreachable server and a refused login each get their own message, and
//! only a damaged file is sent to `sqlite3 .recover`.

use super::db::DbError;
use super::location::Location;
use super::schema;
use rusqlite::ErrorCode;
use std::path::PathBuf;
use std::time::Duration;

/// How long a write waits for another writer before giving up.
pub(crate) const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

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
    #[error("cannot use the scheduler's lock file {path} ({cause}); the folder of the database must be writable")]
    SchedulerLock { path: PathBuf, cause: String },
    #[error("{db}: {cause}; another process held what this needed (a deadlock, or a lock or statement past its timeout): trying again mends it, and workers and servers do")]
    Conflict { db: Location, cause: DbError },
    #[error("{db}: {cause}")]
    Sql { db: Location, cause: DbError },
    #[error("{db}: cannot upgrade the schema: {cause}")]
    Migration { db: Location, cause: String },
    #[error("{0} is a PostgreSQL database: back it up with `pg_dump --format=custom` (docs/distributed.md, \"Backups\"); `ludus backup` copies SQLite files")]
    NoBackup(Location),
    #[error("{} exists; a backup goes to a new file", .0.display())]
    BackupExists(std::path::PathBuf),
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
    #[error("no {} ladder in {db} yet: `ludus ladder run` makes one, and `ludus serve` makes a game's continuous ladder once the game has enough bots", game.as_deref().unwrap_or("Ludus"))]
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
                        if *c == SqlState::T_R_DEADLOCK_DETECTED
                            || *c == SqlState::T_R_SERIALIZATION_FAILURE
                            || *c == SqlState::LOCK_NOT_AVAILABLE
                            || *c == SqlState::QUERY_CANCELED =>
                    {
                        StoreError::Conflict { db, cause }
                    }
                    Some(c)
                        if c.code().starts_with("08")
                            || *c == SqlState::ADMIN_SHUTDOWN
                            || *c == SqlState::CRASH_SHUTDOWN
                            || *c == SqlState::CANNOT_CONNECT_NOW
                            || *c == SqlState::IDLE_IN_TRANSACTION_SESSION_TIMEOUT =>
                    {
                        StoreError::Unreachable { db, cause }
                    }
                    // No answer of the server's: the connection itself
                    // (not a value that failed to decode).
                    None if e.is_closed()
                        || std::error::Error::source(e)
                            .is_some_and(|s| s.is::<std::io::Error>()) =>
                    {
                        StoreError::Unreachable { db, cause }
                    }
                    _ => StoreError::Sql { db, cause },
                }
            }
            DbError::Decode { .. } => StoreError::Sql { db, cause },
        }
    }

    /// Whether trying again, after a wait (and on a new connection when
    /// [`StoreError::Unreachable`]), can succeed: a deadlock, a conflict of
    /// transactions, a lock or statement past its timeout, a database that
    /// is busy, restarting or out of reach. Workers, the scheduler and
    /// rating retry these; anything else is reported.
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            StoreError::Conflict { .. }
                | StoreError::Unreachable { .. }
                | StoreError::Locked { .. }
        )
    }
}
