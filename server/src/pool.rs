//! The store's connections, shared by every request: a pool (r2d2), so that
//! a page read never queues behind another request's write. On PostgreSQL
//! each request holds a connection of its own for as long as it uses the
//! store; on SQLite each holds one of the file's connections, whose reads
//! do not wait for the writer (WAL), while writes still take turns at the
//! file's one write lock.
//!
//! A connection the database closed (a PostgreSQL restart) is found by a
//! ping as it is taken from the pool and replaced, so requests after a
//! restart are served without one failing first.

use ludus_leaderboard::store::{Location, Store, StoreError};
use std::time::Duration;

/// The pool; cloning it shares it.
pub type Pool = r2d2::Pool<Connections>;

/// A connection taken from the pool, given back when dropped.
pub type Connection = r2d2::PooledConnection<Connections>;

/// How long a request waits for a free connection before it is told the
/// server is busy (503).
pub const WAIT_FOR_A_CONNECTION: Duration = Duration::from_secs(10);

/// Makes the pool's connections to one database.
#[derive(Debug)]
pub struct Connections {
    db: Location,
}

impl r2d2::ManageConnection for Connections {
    type Connection = Store;
    type Error = StoreError;

    fn connect(&self) -> Result<Store, StoreError> {
        // The server made (or migrated) the database as it started.
        Store::connect_existing(&self.db)
    }

    fn is_valid(&self, store: &mut Store) -> Result<(), StoreError> {
        // A SQLite file has no connection to lose.
        match self.db {
            Location::File(_) => Ok(()),
            Location::Postgres(_) => store.ping(),
        }
    }

    fn has_broken(&self, store: &mut Store) -> bool {
        store.connection_lost()
    }
}

/// Logs what the pool could not do (a connection refused), through
/// `tracing` like everything else, at most a line an [`OUTAGE_LOG_EVERY`].
#[derive(Debug)]
struct LogErrors;

impl r2d2::HandleError<StoreError> for LogErrors {
    fn handle_error(&self, error: StoreError) {
        outage_warning(&format!("a connection to the database failed: {error}"));
    }
}

/// How often a database out of reach is logged: once at the first failure,
/// then a line an interval with the count of failures in it, not a line a
/// request or a pool's attempt.
pub const OUTAGE_LOG_EVERY: Duration = Duration::from_secs(10);

/// When the last outage line was logged, and the failures since.
static OUTAGE: std::sync::Mutex<Option<(std::time::Instant, u64)>> = std::sync::Mutex::new(None);

/// Logs `what` (a failure to reach the database) at warning, unless a line
/// was logged within [`OUTAGE_LOG_EVERY`]: then it is counted, and the next
/// line says how many were not logged.
pub fn outage_warning(what: &str) {
    // Wall-clock time only paces the log.
    let now = std::time::Instant::now();
    let mut last = OUTAGE.lock().unwrap_or_else(|e| e.into_inner());
    match &mut *last {
        Some((at, quiet)) if now.duration_since(*at) < OUTAGE_LOG_EVERY => *quiet += 1,
        Some((at, quiet)) => {
            tracing::warn!(
                "{what} ({} more such failures in the last {:.0} s)",
                *quiet,
                now.duration_since(*at).as_secs_f64()
            );
            *at = now;
            *quiet = 0;
        }
        None => {
            tracing::warn!("{what}");
            *last = Some((now, 0));
        }
    }
}

/// A pool of at most `size` connections to `db`, one of which is opened
/// now (an error here says the database cannot be reached). Blocks: call it
/// off the async runtime's threads.
pub fn open(db: &Location, size: u32) -> Result<Pool, StoreError> {
    // One connection now, so that a database out of reach is an error
    // here rather than at the first request.
    drop(Store::connect_existing(db)?);
    Ok(r2d2::Pool::builder()
        .max_size(size.max(1))
        .min_idle(Some(1))
        .connection_timeout(WAIT_FOR_A_CONNECTION)
        .error_handler(Box::new(LogErrors))
        .build_unchecked(Connections { db: db.clone() }))
}
