//! What the store's tests on both databases share: a fresh database of
//! either kind, raw SQL on it, and [`on_both!`], which runs each test once
//! on a SQLite file and once on a database of the throw-away PostgreSQL
//! cluster this test process starts.
#![allow(dead_code)]

use ludus_leaderboard::store::{Location, Store};

/// A fresh database of either kind, and raw SQL on it for the tests that
/// look under the store.
pub enum Db {
    Sqlite(tempfile::TempDir),
    Postgres(String),
}

impl Db {
    pub fn location(&self) -> Location {
        match self {
            Db::Sqlite(dir) => Location::File(dir.path().join("ludus.db")),
            Db::Postgres(url) => Location::Postgres(url.clone()),
        }
    }

    pub fn store(&self) -> Store {
        Store::connect(&self.location()).unwrap()
    }

    /// Runs `sql`; the first column of the first row, as text, if any.
    pub fn raw(&self, sql: &str) -> String {
        match self {
            Db::Sqlite(dir) => {
                let c = rusqlite::Connection::open(dir.path().join("ludus.db")).unwrap();
                let mut stmt = c.prepare(sql).unwrap();
                let mut rows = stmt.query([]).unwrap();
                match rows.next().unwrap() {
                    Some(r) => match r.get_ref(0).unwrap() {
                        rusqlite::types::ValueRef::Integer(n) => n.to_string(),
                        rusqlite::types::ValueRef::Text(t) => String::from_utf8_lossy(t).into(),
                        _ => String::new(),
                    },
                    None => String::new(),
                }
            }
            Db::Postgres(url) => ludus_testkit::postgres::shared()
                .psql(url, sql)
                .lines()
                .next()
                .unwrap_or("")
                .to_string(),
        }
    }
}

pub fn sqlite() -> Db {
    Db::Sqlite(tempfile::tempdir().unwrap())
}

pub fn postgres() -> Db {
    Db::Postgres(ludus_testkit::postgres::shared().create_database())
}

/// Runs each test on both databases: the test file's functions named,
/// each taking a [`Db`].
macro_rules! on_both {
    ($($name:ident),* $(,)?) => {
        mod on_sqlite {
            $(#[test] fn $name() { super::$name(super::sqlite()) })*
        }
        mod on_postgres {
            $(#[test] fn $name() { super::$name(super::postgres()) })*
        }
    };
}
