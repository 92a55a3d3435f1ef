//! The store's SQLite files: each way a database file can be wrong gets its
//! own true message, and files of older Ludus versions are brought up to
//! the schema. (The operations common to both databases are pinned in
//! `store_backends.rs`.)

use ludus_leaderboard::store::db::Dialect;
use ludus_leaderboard::store::schema::{migrations, APPLICATION_ID, HISTORY, VERSION};
use ludus_leaderboard::store::{Needs, Store, StoreError};
use std::path::Path;
use std::time::Duration;

const NOW: &str = "2026-01-01T00:00:00Z";
const WASM: &[u8] = b"\0asm\x01\0\0\0";

fn sha(bytes: &[u8]) -> String {
    ludus_host::sha256_hex(bytes)
}

/// A Ludus database holding one bot.
fn database(path: &Path) -> Store {
    let store = Store::open(path).unwrap();
    store
        .bots()
        .submit("one", "planet-wars", WASM, &sha(WASM), NOW)
        .unwrap();
    store
}

/// Submits a second bot: a write.
fn submit_another(store: &mut Store) -> Result<(), StoreError> {
    let wasm = b"\0asm\x01\0\0\0\0";
    store
        .bots()
        .submit("two", "planet-wars", wasm, &sha(wasm), NOW)
        .map(drop)
}

fn says(err: &StoreError, words: &[&str]) {
    let text = err.to_string();
    for w in words {
        assert!(text.contains(w), "`{w}` is not in: {text}");
    }
}

#[test]
fn a_file_of_another_kind_is_not_a_database_and_not_called_damaged() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "these are my notes, not a database").unwrap();
    let err = Store::open(&notes).expect_err("refused");
    assert!(matches!(err, StoreError::NotADatabase(_)), "{err}");
    says(&err, &["notes.txt", "not a SQLite database", "--db"]);
    assert!(!err.to_string().contains("recover"), "{err}");
    assert_eq!(
        std::fs::read(&notes).unwrap(),
        b"these are my notes, not a database"
    );
}

#[test]
fn a_sqlite_database_of_another_program_is_foreign() {
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("shop.db");
    rusqlite::Connection::open(&other)
        .unwrap()
        .execute_batch("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
        .unwrap();
    let err = Store::open(&other).expect_err("refused");
    assert!(matches!(err, StoreError::Foreign(_)), "{err}");
    says(&err, &["shop.db", "not a Ludus one"]);
}

#[test]
fn a_damaged_database_is_sent_to_sqlite_recover() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ludus.db");
    drop(database(&path));
    // Garble every page after the file header: the schema and the data.
    let mut bytes = std::fs::read(&path).unwrap();
    for b in bytes.iter_mut().skip(100) {
        *b ^= 0x5a;
    }
    std::fs::write(&path, &bytes).unwrap();
    let _ = std::fs::remove_file(dir.path().join("ludus.db-wal"));
    let err = match Store::open(&path) {
        Err(e) => e,
        Ok(store) => store
            .bots()
            .latest("planet-wars")
            .expect_err("garbled pages are noticed"),
    };
    assert!(matches!(err, StoreError::Damaged { .. }), "{err:?}");
    says(&err, &["ludus.db", "is damaged", ".recover"]);
}

#[test]
fn a_read_only_database_is_read_and_refuses_writes_saying_so() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ludus.db");
    drop(database(&path));
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    // Even for root, who may write anywhere: the file's permissions say read-only.
    let mut store = Store::open(&path).unwrap();
    assert_eq!(store.bots().latest("planet-wars").unwrap().len(), 1);
    let err = submit_another(&mut store).expect_err("refused");
    assert!(matches!(err, StoreError::ReadOnly(_)), "{err:?}");
    says(&err, &["ludus.db", "read-only", "chmod u+w"]);
    assert!(!err.to_string().contains("recover"), "{err}");
}

#[test]
fn a_database_another_program_keeps_locked_says_it_is_locked() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ludus.db");
    let mut store = database(&path);
    store.set_busy_timeout(Duration::from_millis(100)).unwrap();
    let other = rusqlite::Connection::open(&path).unwrap();
    other
        .execute_batch("BEGIN IMMEDIATE; DELETE FROM bot_versions WHERE name = 'nobody';")
        .unwrap();
    let err = submit_another(&mut store).expect_err("blocked");
    assert!(matches!(err, StoreError::Locked { .. }), "{err:?}");
    says(&err, &["ludus.db", "locked by another program"]);
    assert!(!err.to_string().contains("recover"), "{err}");
    other.execute_batch("ROLLBACK").unwrap();
    // Reading was never blocked, and the write goes through once the lock is gone.
    assert_eq!(store.bots().latest("planet-wars").unwrap().len(), 1);
    submit_another(&mut store).unwrap();
}

/// A SQLite file as Ludus wrote it at schema 1, before schema versions had a
/// history table: its tables (the first migration, which never changes),
/// one bot, a Kore ladder of three matches with seeds outside Kore's range
/// and the first one played, and a Planet Wars ladder of one pending match.
fn schema_1_file(path: &Path, big: u64) {
    let c = rusqlite::Connection::open(path).unwrap();
    let v1 = migrations(Dialect::Sqlite)[0].sql().unwrap().to_string();
    c.execute_batch(&v1).unwrap();
    c.execute_batch(&format!(
        "PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = 1;"
    ))
    .unwrap();
    c.execute(
        "INSERT INTO bots VALUES (?1, ?2, ?3)",
        rusqlite::params![sha(WASM), WASM, WASM.len() as i64],
    )
    .unwrap();
    c.execute(
        "INSERT INTO bot_versions VALUES ('one', 1, 'planet-wars', ?1, ?2)",
        rusqlite::params![sha(WASM), NOW],
    )
    .unwrap();
    for (id, game, seeds) in [
        (1, "kore", vec![big, big, 7]),
        (2, "planet-wars", vec![big]),
    ] {
        c.execute(
            "INSERT INTO ladders VALUES (?1, ?2, ?3, 'round-robin', 2, 1, 0, 'null', '{}')",
            rusqlite::params![id, format!("key-{game}"), game],
        )
        .unwrap();
        c.execute(
            "INSERT INTO ladder_bots VALUES (?1, 0, 'one', 1, ?2)",
            rusqlite::params![id, sha(WASM)],
        )
        .unwrap();
        for (idx, seed) in seeds.into_iter().enumerate() {
            c.execute(
                "INSERT INTO matches VALUES (?1, ?2, ?2, ?3, '[0,0]')",
                rusqlite::params![id, idx as i64, seed as i64],
            )
            .unwrap();
        }
    }
    c.execute_batch(
        "INSERT INTO results VALUES (1, 0, 'm0', '[1,2]', '[1.0,0.0]', '[0,0]', 1, 'done', NULL);
         INSERT INTO replays VALUES ('m0', x'1f8b');",
    )
    .unwrap();
}

#[test]
fn a_schema_1_file_migrates_keeping_its_results_and_reducing_unplayed_kore_seeds() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ludus.db");
    let big = 13302247461581951591u64;
    schema_1_file(&path, big);
    let mut store = Store::open(&path).unwrap();
    let seeds = |store: &Store, ladder| -> Vec<u64> {
        store
            .ladders()
            .schedule(ladder)
            .unwrap()
            .iter()
            .map(|m| m.seed)
            .collect()
    };
    assert_eq!(
        seeds(&store, 1),
        vec![big, big % (1 << 32), 7],
        "played kept, pending reduced"
    );
    assert_eq!(
        seeds(&store, 2),
        vec![big],
        "Planet Wars seeds span every u64"
    );
    // The played match is done in the queue; the others are claimable.
    assert_eq!(store.results().all(1).unwrap().len(), 1);
    assert_eq!(store.queue().remaining(1).unwrap(), 2);
    assert_eq!(store.queue().finished_prefix(1).unwrap(), 1);
    // The ladders need what the Ludus that migrated them is.
    let kore = ludus_engine::registry::info("kore").unwrap();
    assert_eq!(
        store.ladders().get(1).unwrap().needs,
        Needs::of_this_build(kore.rules_version)
    );
    // Bots and names came along.
    assert_eq!(store.bots().wasm(&sha(WASM)).unwrap(), WASM);
    submit_another(&mut store).unwrap();
    drop(store);
    let c = rusqlite::Connection::open(&path).unwrap();
    let version: i32 = c
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, VERSION);
    let history: i64 = c
        .query_row(&format!("SELECT max(version) FROM {HISTORY}"), [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(history, VERSION as i64);
    // Opening it again changes nothing.
    drop(Store::open(&path).unwrap());
}

#[test]
fn a_missing_database_is_not_created_by_a_reading_command() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("typo.db");
    let err = Store::open_existing(&path).expect_err("missing");
    assert!(matches!(err, StoreError::Missing(_)), "{err:?}");
    says(&err, &["typo.db", "does not exist"]);
    assert!(!path.exists());
}

/// An operator's `sqlite3` opened and closed on the live database (to look
/// at it, or to back it up) must not take it from under Ludus: while Ludus
/// holds connections to the file it never opens a descriptor of its own
/// on it (closing one would drop every POSIX lock of the process on the
/// file, those of its SQLite connections too, and `sqlite3` closing last
/// would then delete the write-ahead log they still write to). Two
/// connections, as a server's pool holds them; every write acknowledged
/// is found by a new connection afterwards, and the file is whole.
#[test]
fn sqlite3_opening_and_closing_the_live_database_loses_no_acknowledged_write() {
    ludus_testkit::ensure_sqlite3().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ludus.db");
    let first = database(&path);
    let second = Store::open(&path).unwrap();
    let mut acknowledged = Vec::new();
    for i in 0..6u8 {
        let o = std::process::Command::new("sqlite3")
            .arg(&path)
            .arg("SELECT count(*) FROM bots;")
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        // Written after `sqlite3` closed: into the log it must not have
        // deleted.
        let wasm = [b"\0asm\x01\0\0\0".as_slice(), &[i; 3]].concat();
        let writer = if i % 2 == 0 { &first } else { &second };
        writer
            .bots()
            .submit(&format!("bot{i}"), "planet-wars", &wasm, &sha(&wasm), NOW)
            .unwrap();
        acknowledged.push(sha(&wasm));
    }
    // Seen by a new connection while the others are open (another process,
    // the operator's backup), and again after they closed.
    let all_found = |when: &str| {
        let stored: Vec<String> = Store::open(&path)
            .unwrap()
            .bots()
            .latest("planet-wars")
            .unwrap()
            .into_iter()
            .map(|b| b.sha256)
            .collect();
        for sha in &acknowledged {
            assert!(
                stored.contains(sha),
                "acknowledged {sha} is missing {when}: {stored:?}"
            );
        }
    };
    all_found("while Ludus's connections are open");
    drop((first, second));
    all_found("after they closed");
    let o = std::process::Command::new("sqlite3")
        .arg(&path)
        .arg("PRAGMA integrity_check;")
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "ok");
}
