//! One open database, as every part of the store uses it: queries whose
//! errors name the database, transactions, and the advisory locks that
//! stand in on PostgreSQL for SQLite's single writer.

use super::db::{self, vals, Db, DbError, Dialect, Row};
use super::error::StoreError;
use super::location::Location;
use std::cell::RefCell;
use std::time::Duration;

/// A connection and where it leads. The queries of every concern
/// ([`super::Bots`], [`super::Queue`], ...) run through it.
pub(crate) struct Conn {
    pub(crate) db: RefCell<Db>,
    pub(crate) location: Location,
}

impl Conn {
    pub(crate) fn new(db: Db, location: Location) -> Conn {
        Conn {
            db: RefCell::new(db),
            location,
        }
    }

    pub(crate) fn err(&self, cause: DbError) -> StoreError {
        StoreError::db(&self.location, cause)
    }

    pub(crate) fn is_postgres(&self) -> bool {
        self.db.borrow().dialect() == Dialect::Postgres
    }

    /// Runs a query and returns its rows; an error names the database.
    pub(crate) fn query(&self, sql: &str, params: &[db::Value]) -> Result<Vec<Row>, StoreError> {
        self.db
            .borrow_mut()
            .query(sql, params)
            .map_err(|e| self.err(e))
    }

    /// Runs a query and maps every row.
    pub(crate) fn rows<T>(
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

    /// The first row of a query, mapped, if there is one.
    pub(crate) fn row<T>(
        &self,
        sql: &str,
        params: &[db::Value],
        map: impl FnMut(&Row) -> Result<T, DbError>,
    ) -> Result<Option<T>, StoreError> {
        Ok(self.rows(sql, params, map)?.into_iter().next())
    }

    /// A `count(*)` or other single number.
    pub(crate) fn count(&self, sql: &str, params: &[db::Value]) -> Result<u32, StoreError> {
        Ok(self.row(sql, params, |r| r.u32(0))?.unwrap_or(0))
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
pub(crate) const LOCK_CLASS: i32 = 0x4C55;

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

    /// [`Lock::take`], waiting `wait` at most on PostgreSQL (then the
    /// error is `lock_not_available`); the transaction's later statements
    /// wait as long as the session's own lock timeout says.
    pub(crate) fn take_within(self, db: &mut Db, wait: Duration) -> Result<(), DbError> {
        if db.dialect() == Dialect::Postgres {
            db.batch(&format!("SET LOCAL lock_timeout = {}", wait.as_millis()))?;
            self.take(db)?;
            db.batch("SET LOCAL lock_timeout = DEFAULT")?;
        }
        Ok(())
    }
}
