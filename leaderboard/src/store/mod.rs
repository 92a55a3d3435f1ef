//! Storage: bots (content-addressed, their wasm included), ladders, their
//! schedules, results, compressed replays and ratings, the server's
//! accounts, and the queue that workers share. One interface over two
//! databases: the embedded SQLite file (the default) and a PostgreSQL
//! server, for ladders that several processes or machines play
//! ([`Location`]).
//!
//! A [`Store`] is one open database. What it holds is reached through a
//! handle per concern, each in its own module: [`Store::bots`],
//! [`Store::ladders`] (and schedules), [`Store::results`] (and replays),
//! [`Store::seats`] (the seat index),
//! [`Store::ratings`], [`Store::accounts`] (its files: `accounts`,
//! `tokens` with invitations, `owners`, whose bot names are and which
//! versions play, and `uploads`), [`Store::sessions`] and
//! [`Store::queue`] (claims,
//! commits, workers, status), [`Store::challenges`] and
//! [`Store::settings`] (what a server tells its workers). Below them: [`db`] runs each query, written
//! once, on either database; [`schema`] holds the migrations and
//! `legacy` what older databases lack; [`StoreError`] tells every
//! database error apart by its code.
//!
//! Every finished match is committed on its own, so a ladder stopped at any
//! moment keeps every finished result. u64 seeds are stored as the i64 with
//! the same bits.

mod accounts;
mod bots;
mod challenges;
mod conn;
pub mod db;
mod error;
pub mod integrity;
mod keep_replays;
mod ladders;
mod legacy;
mod location;
mod owners;
pub mod queue;
mod ratings;
mod records;
mod results;
mod scheduler_lock;
pub mod schema;
mod seats;
mod sessions;
mod settings;
mod tokens;
mod uploads;

pub use accounts::{Account, Accounts, Created, InviteRefused, Listed, NewAccount};
pub use bots::Bots;
pub use challenges::{
    day_of, ChallengeRow, Challenges, NewChallenge, QuotaSpent, CHALLENGE_KIND, NOT_PLAYED,
};
pub use error::StoreError;
pub use keep_replays::KeepReplays;
pub use ladders::{closed_key, continuous_key, Ladders, SeasonRow};
pub use location::Location;
pub use owners::{Claim, Ownership, SameBytes};
pub use queue::{
    ClaimNext, Claimed, Committed, GameTotals, IntegrityEvent, LadderStatus, Queue, QueueDemand,
    QueueTotals, WorkerInfo, WorkerState, MAX_ATTEMPTS,
};
pub use ratings::{RatingRow, Ratings};
pub use records::{
    BotRecord, ContinuousLadder, LadderRecord, MatchResult, Needs, NewLadder, RatedGame, RatedSeat,
    SeatedMatch, Submitted,
};
pub use results::Results;
pub use scheduler_lock::SchedulerLock;
pub use seats::Seats;
pub use sessions::Sessions;
pub use settings::{Settings, DEFAULT_CHALLENGE_SHARE};
pub use tokens::ApiToken;

use conn::{Conn, Lock};
use db::{Db, Dialect};
use error::BUSY_TIMEOUT;
use rusqlite::OpenFlags;
use std::path::Path;
use std::time::Duration;

/// One open Ludus database.
pub struct Store {
    conn: Conn,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("location", &self.conn.location.to_string())
            .finish()
    }
}

/// How long a statement of Ludus's may run, how long it waits for a lock,
/// and how long a transaction may stay open while its process does
/// nothing. A process frozen (SIGSTOP, a stalled VM) inside a transaction
/// has it ended by the server after the last, releasing its locks;
/// another waits for a lock at most the second, and then tries again
/// ([`StoreError::is_transient`]). Migrations lift the first two.
pub const STATEMENT_TIMEOUT: Duration = Duration::from_secs(60);
pub const LOCK_TIMEOUT: Duration = Duration::from_secs(10);
pub const IDLE_IN_TRANSACTION_TIMEOUT: Duration = Duration::from_secs(10);

/// How long [`Store::with_rating_lock`] waits for another process's
/// rating on PostgreSQL.
pub const RATING_LOCK_WAIT: Duration = Duration::from_millis(200);

/// The session options of [`STATEMENT_TIMEOUT`] and the others, as the
/// PostgreSQL start-up packet takes them (so that every new connection
/// has them, a reconnection too).
fn session_timeouts() -> String {
    format!(
        "-c statement_timeout={} -c lock_timeout={} -c idle_in_transaction_session_timeout={}",
        STATEMENT_TIMEOUT.as_millis(),
        LOCK_TIMEOUT.as_millis(),
        IDLE_IN_TRANSACTION_TIMEOUT.as_millis()
    )
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
        // The file's header is read by SQLite itself (`SQLITE_NOTADB` on
        // the first statement), never through a descriptor of our own:
        // closing any descriptor of a file drops every POSIX lock this
        // process holds on it, those of its open SQLite connections too,
        // and then another program's connection could take the file for
        // unused and delete its write-ahead log under them.
        let sql = |cause: rusqlite::Error| match cause.sqlite_error_code() {
            Some(rusqlite::ErrorCode::NotADatabase) => StoreError::NotADatabase(path.to_path_buf()),
            _ => StoreError::db(&location, cause.into()),
        };
        let mut read_only = false;
        if let Ok(meta) = std::fs::metadata(path) {
            if meta.is_dir() {
                return Err(StoreError::NotADatabase(path.to_path_buf()));
            }
            read_only = meta.permissions().readonly();
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
        // Reads the header (an empty file is a new database).
        conn.query_row("PRAGMA schema_version", [], |_| Ok(()))
            .map_err(sql)?;
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
            conn: Conn::new(Db::sqlite(conn), location),
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
            .connect_timeout(Duration::from_secs(10))
            // A database host that vanished is noticed in seconds.
            .keepalives(true)
            .keepalives_idle(Duration::from_secs(10))
            // The server's own notices at their level ("terminating
            // connection due to administrator command" is a warning).
            .notice_callback(|notice| match notice.severity() {
                "WARNING" => tracing::warn!("PostgreSQL: {}", notice.message()),
                severity => tracing::debug!("PostgreSQL {severity}: {}", notice.message()),
            });
        // The URL's own `options` come after, and so win.
        let options = match config.get_options() {
            Some(theirs) => format!("{} {theirs}", session_timeouts()),
            None => session_timeouts(),
        };
        config.options(&options);
        let client = config
            .connect(postgres::NoTls)
            .map_err(|e| StoreError::db(&location, e.into()))?;
        let store = Store {
            conn: Conn::new(Db::postgres(client), location),
        };
        store.prepare_schema(false)?;
        Ok(store)
    }

    /// Connects again to the same database, in place: after the PostgreSQL
    /// server restarted or closed the connection
    /// ([`StoreError::is_transient`]). A SQLite file has nothing to connect
    /// again to. The connection's settings ([`Store::plan_statements_once`])
    /// start over.
    pub fn reconnect(&self) -> Result<(), StoreError> {
        if let Location::Postgres(url) = &self.conn.location {
            let fresh = Store::open_postgres(url)?;
            let db = fresh.conn.db.into_inner();
            *self.conn.db.borrow_mut() = db;
        }
        Ok(())
    }

    /// Checks what the database is and brings it to this Ludus's schema:
    /// creates it when empty, migrates it when older, refuses a newer or
    /// a foreign one.
    fn prepare_schema(&self, read_only: bool) -> Result<(), StoreError> {
        use schema::Found;
        let found =
            schema::inspect(&mut self.conn.db.borrow_mut()).map_err(|e| self.conn.err(e))?;
        match found {
            Found::Ludus(v) if v == schema::VERSION => return Ok(()),
            Found::Ludus(v) if v > schema::VERSION => {
                return Err(StoreError::NewerSchema {
                    db: self.conn.location.clone(),
                    found: v,
                })
            }
            Found::Foreign => return Err(StoreError::Foreign(self.conn.location.clone())),
            Found::Empty if read_only => {
                return Err(StoreError::ReadOnly(self.conn.location.clone()))
            }
            _ if read_only => return Err(StoreError::NeedsUpgrade(self.conn.location.clone())),
            _ => {}
        }
        let location = self.conn.location.clone();
        let mut db = self.conn.db.borrow_mut();
        let db = &mut *db;
        db.begin().map_err(|e| self.conn.err(e))?;
        let migrated = (|| -> Result<(), StoreError> {
            let err = |e| StoreError::db(&location, e);
            // A migration of a large database may take long, and so may
            // waiting for another process's.
            if db.dialect() == Dialect::Postgres {
                db.batch("SET LOCAL statement_timeout = 0; SET LOCAL lock_timeout = 0")
                    .map_err(err)?;
            }
            Lock::Schema.take(db).map_err(err)?;
            // Another process may have done it since we looked.
            let found = schema::inspect(db).map_err(err)?;
            let baseline = match found {
                Found::Ludus(v) if v >= schema::VERSION => return Ok(()),
                Found::Foreign => return Err(StoreError::Foreign(location.clone())),
                Found::Legacy(version) => {
                    if version < 2 {
                        legacy::reduce_pending_seeds(db).map_err(err)?;
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
                legacy::fill_legacy_needs(db).map_err(err)?;
            }
            // The bot index came with schema 5: filled in from before it.
            if matches!(found, Found::Legacy(_)) || matches!(found, Found::Ludus(v) if v < 5) {
                legacy::index_older_ladders(db).map_err(err)?;
            } else if matches!(found, Found::Ludus(v) if v < 7) {
                // The seats' places and faults came with schema 7.
                legacy::fill_seat_outcomes(db).map_err(err)?;
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
            Ok(()) => db.commit().map_err(|e| self.conn.err(e)),
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
        if !self.conn.is_postgres() {
            return Ok(());
        }
        let sql = if once {
            "SET plan_cache_mode = force_generic_plan"
        } else {
            "RESET plan_cache_mode"
        };
        self.conn
            .db
            .borrow_mut()
            .batch(sql)
            .map_err(|e| self.conn.err(e))
    }

    /// Whether the connection to the database is known to be gone (the
    /// PostgreSQL server restarted or closed it): connect again.
    pub fn connection_lost(&self) -> bool {
        self.conn.db.borrow().is_closed()
    }

    /// Writes a consistent copy of this SQLite database, taken live, to the
    /// new file `to` (which must not exist); [`StoreError::NoBackup`] on
    /// PostgreSQL, which `pg_dump` copies.
    pub fn backup(&self, to: &Path) -> Result<(), StoreError> {
        if to.exists() {
            return Err(StoreError::BackupExists(to.to_path_buf()));
        }
        match self.conn.db.borrow().backup_to(to) {
            Some(done) => done.map_err(|e| self.conn.err(e)),
            None => Err(StoreError::NoBackup(self.conn.location.clone())),
        }
    }

    /// Whether the database answers, by a query that reads nothing.
    pub fn ping(&self) -> Result<(), StoreError> {
        self.conn.query("SELECT 1", &[]).map(drop)
    }

    /// The schema version the database is at: [`schema::VERSION`] once its
    /// migrations ran. A query that fails says the database does not answer.
    pub fn schema_version(&self) -> Result<i32, StoreError> {
        Ok(self
            .conn
            .row(
                &format!("SELECT max(version) FROM {}", schema::HISTORY),
                &[],
                |r| r.opt_i64(0),
            )?
            .flatten()
            .unwrap_or(0) as i32)
    }

    /// Where the database is.
    pub fn location(&self) -> &Location {
        &self.conn.location
    }

    /// How long a write waits for another program's write to end before
    /// failing with [`StoreError::Locked`] (SQLite).
    pub fn set_busy_timeout(&mut self, timeout: Duration) -> Result<(), StoreError> {
        let set = self.conn.db.get_mut().set_busy_timeout(timeout);
        set.map_err(|e| self.conn.err(e))
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
            for row in self.conn.query(
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

    /// Runs `f` holding the ladder's rating lock (PostgreSQL: an advisory
    /// lock; SQLite: the write lock), in one transaction: one process at a
    /// time applies ratings, and what `f` reads does not change under it.
    /// On PostgreSQL it waits for the lock [`RATING_LOCK_WAIT`] at most, then
    /// fails with a transient [`StoreError::Conflict`]: a worker whose
    /// sibling rates (or froze while rating) goes on playing and rates
    /// later.
    pub fn with_rating_lock<T, E: From<StoreError>>(
        &self,
        ladder: i64,
        f: impl FnOnce(&Store) -> Result<T, E>,
    ) -> Result<T, E> {
        {
            let mut db = self.conn.db.borrow_mut();
            db.begin().map_err(|e| self.conn.err(e))?;
            if let Err(e) = Lock::Ratings(ladder).take_within(&mut db, RATING_LOCK_WAIT) {
                db.rollback();
                return Err(self.conn.err(e).into());
            }
        }
        let value = f(self);
        let mut db = self.conn.db.borrow_mut();
        match value {
            Ok(v) => {
                db.commit().map_err(|e| self.conn.err(e))?;
                Ok(v)
            }
            Err(e) => {
                db.rollback();
                Err(e)
            }
        }
    }

    /// The bot store: wasm by sha256, names and versions.
    pub fn bots(&self) -> Bots<'_> {
        Bots { conn: &self.conn }
    }

    /// Ladders and their schedules.
    pub fn ladders(&self) -> Ladders<'_> {
        Ladders { conn: &self.conn }
    }

    /// Results and replays, and the lookups of matches.
    pub fn results(&self) -> Results<'_> {
        Results { conn: &self.conn }
    }

    /// The seat index: every seat of every scheduled match, its bot and,
    /// once rated, its Elo, place and faults.
    pub fn seats(&self) -> Seats<'_> {
        Seats { conn: &self.conn }
    }

    /// The stored ratings.
    pub fn ratings(&self) -> Ratings<'_> {
        Ratings { conn: &self.conn }
    }

    /// The server's accounts, their tokens and invitations, bot names'
    /// owners and uploads.
    pub fn accounts(&self) -> Accounts<'_> {
        Accounts { conn: &self.conn }
    }

    /// The browser sessions of the server's accounts.
    pub fn sessions(&self) -> Sessions<'_> {
        Sessions { conn: &self.conn }
    }

    /// The queue workers share: claims, commits, workers, status.
    pub fn queue(&self) -> Queue<'_> {
        Queue { conn: &self.conn }
    }

    /// Challenges, their ladders and the games they scheduled a day.
    pub fn challenges(&self) -> Challenges<'_> {
        Challenges { conn: &self.conn }
    }

    /// The server's settings that its workers read.
    pub fn settings(&self) -> Settings<'_> {
        Settings { conn: &self.conn }
    }

    /// What a check of the invariants reads, in a read-only snapshot.
    pub fn integrity(&self) -> integrity::Integrity<'_> {
        integrity::Integrity { conn: &self.conn }
    }
}
