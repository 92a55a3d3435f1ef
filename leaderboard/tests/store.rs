//! The store's files and processes: each way a database file can be wrong
//! gets its own true message, two processes never play one ladder at once,
//! and older databases are brought up to the schema.

use ludus_leaderboard::schedule::ScheduledMatch;
use ludus_leaderboard::store::{MatchResult, Store, StoreError};
use std::path::Path;
use std::time::Duration;

const NOW: &str = "2026-01-01T00:00:00Z";
const WASM: &[u8] = b"\0asm\x01\0\0\0";

fn sha(bytes: &[u8]) -> String {
    ludus_host::sha256_hex(bytes)
}

/// A Ludus database holding one bot.
fn database(path: &Path) -> Store {
    let mut store = Store::open(path).unwrap();
    store
        .submit("one", "planet-wars", WASM, &sha(WASM), NOW)
        .unwrap();
    store
}

/// Submits a second bot: a write.
fn submit_another(store: &mut Store) -> Result<(), StoreError> {
    let wasm = b"\0asm\x01\0\0\0\0";
    store
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
            .latest_bots("planet-wars")
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
    assert_eq!(store.latest_bots("planet-wars").unwrap().len(), 1);
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
    assert_eq!(store.latest_bots("planet-wars").unwrap().len(), 1);
    submit_another(&mut store).unwrap();
}

fn one_ladder(store: &mut Store, game: &str, seeds: &[u64]) -> i64 {
    let bots = store.latest_bots("planet-wars").unwrap();
    let schedule: Vec<ScheduledMatch> = seeds
        .iter()
        .enumerate()
        .map(|(i, &seed)| ScheduledMatch {
            index: i as u32,
            group: i as u32,
            seed,
            seats: vec![0, 0],
        })
        .collect();
    store
        .ensure_ladder(
            &format!("key-{game}"),
            game,
            "round-robin",
            2,
            1,
            0,
            &serde_json::Value::Null,
            &serde_json::json!({}),
            &bots,
            &schedule,
        )
        .unwrap()
}

fn result(index: u32) -> MatchResult {
    MatchResult {
        index,
        match_id: format!("m{index}"),
        placements: vec![1, 2],
        scores: vec![1.0, 0.0],
        faults: vec![0, 0],
        turns: 1,
        reason: "done".into(),
        aborted: None,
    }
}

#[test]
fn a_result_recorded_twice_is_refused_without_calling_the_file_damaged() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = database(&dir.path().join("ludus.db"));
    let id = one_ladder(&mut store, "planet-wars", &[1]);
    store.record(id, &result(0), b"gz").unwrap();
    let err = store
        .record(id, &result(0), b"gz")
        .expect_err("a second result");
    assert!(matches!(err, StoreError::Sql { .. }), "{err:?}");
    assert!(!err.to_string().contains("damaged"), "{err}");
    assert_eq!(store.results(id).unwrap().len(), 1);
}

#[test]
fn a_claimed_ladder_is_refused_to_another_claim_naming_the_holder_until_released() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = database(&dir.path().join("ludus.db"));
    let id = one_ladder(&mut store, "planet-wars", &[1]);
    let other = one_ladder(&mut store, "kore", &[1]);
    let claim = store.claim_ladder(id).unwrap();
    // A second claim through another open file, as another process makes.
    let second = Store::open(store.path()).unwrap();
    let err = second.claim_ladder(id).expect_err("held");
    assert!(matches!(err, StoreError::LadderBusy { .. }), "{err:?}");
    says(
        &err,
        &[
            &format!("ladder {id} is being played by another process"),
            &format!("pid {}", std::process::id()),
            "since 20",
            "nothing was played here",
        ],
    );
    // Other ladders are free.
    drop(second.claim_ladder(other).unwrap());
    drop(claim);
    drop(second.claim_ladder(id).unwrap());
}

#[test]
fn the_claim_of_a_dead_process_blocks_nobody() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = database(&dir.path().join("ludus.db"));
    let id = one_ladder(&mut store, "planet-wars", &[1]);
    // What a process killed with SIGKILL leaves: its name, and no lock.
    std::fs::write(
        dir.path().join(format!("ludus.db-ladder-{id}.lock")),
        r#"{"pid":4000000,"host":"gone","since":"2026-01-01T00:00:00Z"}"#,
    )
    .unwrap();
    drop(store.claim_ladder(id).unwrap());
}

#[test]
fn a_schema_1_database_gets_its_unplayed_kore_seeds_reduced_and_keeps_played_ones() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ludus.db");
    let big = 13302247461581951591u64;
    let (kore, pw) = {
        let mut store = database(&path);
        let kore = one_ladder(&mut store, "kore", &[big, big, 7]);
        let pw = one_ladder(&mut store, "planet-wars", &[big]);
        store.record(kore, &result(0), b"gz").unwrap();
        (kore, pw)
    };
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch("PRAGMA user_version = 1")
        .unwrap();
    let store = Store::open(&path).unwrap();
    let seeds = |ladder| -> Vec<u64> {
        store
            .schedule(ladder)
            .unwrap()
            .iter()
            .map(|m| m.seed)
            .collect()
    };
    assert_eq!(
        seeds(kore),
        vec![big, big % (1 << 32), 7],
        "played kept, pending reduced"
    );
    assert_eq!(seeds(pw), vec![big], "Planet Wars seeds span every u64");
    let version: i32 = rusqlite::Connection::open(&path)
        .unwrap()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, 2);
}

#[test]
fn a_stored_match_is_found_by_a_unique_prefix_of_its_id() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = database(&dir.path().join("ludus.db"));
    let id = one_ladder(&mut store, "planet-wars", &[1, 2, 3]);
    for (i, match_id) in ["abc111", "abc222", "def333"].iter().enumerate() {
        let r = MatchResult {
            match_id: match_id.to_string(),
            ..result(i as u32)
        };
        store.record(id, &r, b"gz").unwrap();
    }
    assert_eq!(store.find_match("abc1").unwrap(), "abc111");
    assert_eq!(store.find_match("d").unwrap(), "def333");
    let err = store.find_match("abc").expect_err("two match");
    assert!(
        matches!(err, StoreError::AmbiguousMatch { count: 2, .. }),
        "{err:?}"
    );
    says(&err, &["abc111", "abc222", "give more of the id"]);
    assert!(matches!(
        store.find_match("zzz"),
        Err(StoreError::UnknownMatch { .. })
    ));
    assert!(matches!(
        store.find_match(""),
        Err(StoreError::UnknownMatch { .. })
    ));
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
