//! Which process schedules a database's continuous ladders: one at a time,
//! however many `ludus serve` share the database.
//!
//! On PostgreSQL, the holder of a session-level advisory lock, on a
//! connection kept for it alone: the database releases the lock the moment
//! that connection ends, so a holder killed with `kill -9` (its socket
//! closed by its kernel) frees it at once, and another server takes it at
//! its next try. The connection carries the holder's name as its
//! `application_name`, so every server (and `pg_stat_activity`) can say who
//! schedules. On SQLite, an exclusive lock on the file `DATABASE-scheduler`
//! beside the database, which the OS releases the same way; it holds the
//! holder's name.
//!
//! The lock only keeps the others from doing the same work. What makes a
//! second scheduler harmless, should two ever overlap (a holder cut off
//! from the database while it still tops up), is the schedule itself: its
//! matches are appended at the next index in one transaction, and an
//! append that does not start at the schedule's end fails (`Ladders::append`),
//! so no index is scheduled twice and none is skipped.

use super::conn::LOCK_CLASS;
use super::db::vals;
use super::{Location, Store, StoreError};
use std::fs::File;
use std::io::{Read, Seek, Write};
use std::path::PathBuf;

/// The advisory lock's object within Ludus's class (the transaction locks
/// take -1 and -2).
const OBJECT: i32 = -3;

/// How long PostgreSQL keeps the lock's session when it hears nothing from
/// it: a holder pings it every second, so only a holder that is frozen or
/// cut off (a lost machine, whose socket no kernel closes) stays silent this
/// long, and the database then ends its session and frees the lock. As
/// long as a worker's lease: a frozen scheduler holds the ladders up no
/// longer than a frozen worker its matches.
pub const SILENT_HOLDER_DROPPED_AFTER: &str = "5s";

/// This process's claim to the scheduler, held or not yet.
pub struct SchedulerLock {
    location: Location,
    /// What the holder is called: e.g. `ludus serve on box (pid 12, 0.0.0.0:8080)`.
    name: String,
    held: Option<Held>,
    /// PostgreSQL: the connection that tries, and then holds, the lock.
    session: Option<Store>,
}

enum Held {
    Session,
    /// The open file is the lock: closing it releases the lock.
    File {
        _lock: File,
    },
}

impl SchedulerLock {
    /// A claim on the scheduler of `location` by a process called `name`;
    /// nothing is taken until [`SchedulerLock::try_hold`].
    pub fn new(location: &Location, name: &str) -> SchedulerLock {
        SchedulerLock {
            location: location.clone(),
            name: name.to_string(),
            held: None,
            session: None,
        }
    }

    /// The host this process runs on, for its name.
    pub fn this_host() -> String {
        rustix::system::uname()
            .nodename()
            .to_string_lossy()
            .into_owned()
    }

    /// Whether this process holds the lock now: it takes it if it is free.
    /// A holder whose connection was lost no longer holds it (false, and
    /// the next call tries again on a new connection); an error says the
    /// database cannot be reached.
    pub fn try_hold(&mut self) -> Result<bool, StoreError> {
        match &self.location {
            Location::File(path) => self.try_hold_file(lock_file(path)),
            Location::Postgres(_) => self.try_hold_session(),
        }
    }

    /// Whether this process holds the lock, as last found.
    pub fn held(&self) -> bool {
        self.held.is_some()
    }

    fn try_hold_session(&mut self) -> Result<bool, StoreError> {
        if self.session.as_ref().is_some_and(|s| s.connection_lost()) {
            self.lose();
        }
        let session = match &self.session {
            Some(s) => s,
            None => {
                let s = Store::connect_existing(&self.location)?;
                s.conn.query(
                    "SELECT set_config('application_name', $1, false)",
                    vals![self.name.as_str()],
                )?;
                // PostgreSQL 14 on; older ones free the lock of a lost
                // machine only when their TCP keepalives give up.
                if let Err(e) = s.conn.query(
                    "SELECT set_config('idle_session_timeout', $1, false)",
                    vals![SILENT_HOLDER_DROPPED_AFTER],
                ) {
                    tracing::debug!("the scheduler's session has no idle timeout: {e}");
                }
                self.session.insert(s)
            }
        };
        let outcome = if self.held.is_some() {
            // The lock lives as long as its session: a session that answers
            // still holds it.
            session.ping().map(|()| true)
        } else {
            session
                .conn
                .count(
                    "SELECT pg_try_advisory_lock($1, $2)::int",
                    vals![LOCK_CLASS, OBJECT],
                )
                .map(|n| n == 1)
        };
        match outcome {
            Ok(true) => {
                self.held = Some(Held::Session);
                Ok(true)
            }
            Ok(false) => Ok(false),
            Err(e) => {
                self.lose();
                Err(e)
            }
        }
    }

    fn try_hold_file(&mut self, path: PathBuf) -> Result<bool, StoreError> {
        if self.held.is_some() {
            return Ok(true);
        }
        let io = |e: std::io::Error| StoreError::SchedulerLock {
            path: path.clone(),
            cause: e.to_string(),
        };
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => return Ok(false),
            Err(std::fs::TryLockError::Error(e)) => return Err(io(e)),
        }
        file.set_len(0).map_err(io)?;
        file.write_all(self.name.as_bytes()).map_err(io)?;
        file.flush().map_err(io)?;
        self.held = Some(Held::File { _lock: file });
        Ok(true)
    }

    /// Who holds the lock, as it is called, if anyone does.
    pub fn holder(&mut self) -> Result<Option<String>, StoreError> {
        if self.held.is_some() {
            return Ok(Some(self.name.clone()));
        }
        match &self.location {
            Location::File(path) => {
                let path = lock_file(path);
                let Ok(mut file) = File::open(&path) else {
                    return Ok(None);
                };
                // Free (a lock taken and given back at once) means no holder.
                if file.try_lock_shared().is_ok() {
                    return Ok(None);
                }
                let mut name = String::new();
                file.rewind()
                    .and_then(|_| file.read_to_string(&mut name))
                    .map_err(|e| StoreError::SchedulerLock {
                        path,
                        cause: e.to_string(),
                    })?;
                Ok(Some(name).filter(|n| !n.is_empty()))
            }
            Location::Postgres(_) => {
                let Some(session) = &self.session else {
                    return Ok(None);
                };
                // pg_locks shows the two halves of the key as oids.
                session.conn.row(
                    "SELECT a.application_name FROM pg_locks l
                     JOIN pg_stat_activity a ON a.pid = l.pid
                     WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
                       AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                       AND l.classid::text::bigint = $1 AND l.objid::text::bigint = $2",
                    vals![LOCK_CLASS as i64, OBJECT as u32 as i64],
                    |r| r.text(0),
                )
            }
        }
    }

    /// Gives up the lock (and, on PostgreSQL, its connection).
    fn lose(&mut self) {
        self.held = None;
        if let Some(session) = self.session.take() {
            // A PostgreSQL client blocks on a runtime of its own as it
            // closes; not on a thread of the caller's async runtime.
            std::thread::scope(|s| {
                s.spawn(move || drop(session));
            });
        }
    }
}

impl Drop for SchedulerLock {
    fn drop(&mut self) {
        self.lose();
    }
}

/// The lock file of the SQLite database at `db`.
fn lock_file(db: &std::path::Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push("-scheduler");
    PathBuf::from(name)
}
