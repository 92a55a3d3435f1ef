//! The scheduler's lock on both databases: one holder at a time, named to
//! the others, and free again the moment its holder lets go.

use ludus_leaderboard::store::{Location, SchedulerLock, Store};

/// Returns the holder at the end, `server b`.
fn one_holder_at_a_time(db: &Location) -> SchedulerLock {
    let mut a = SchedulerLock::new(db, "server a");
    let mut b = SchedulerLock::new(db, "server b");
    assert!(a.try_hold().unwrap(), "a free lock is taken");
    assert!(a.try_hold().unwrap(), "and kept");
    assert!(!b.try_hold().unwrap(), "a held lock is not taken");
    assert!(!b.held());
    assert_eq!(b.holder().unwrap().as_deref(), Some("server a"));
    assert_eq!(a.holder().unwrap().as_deref(), Some("server a"));
    drop(a);
    assert!(b.try_hold().unwrap(), "let go, it is taken at the next try");
    assert_eq!(b.holder().unwrap().as_deref(), Some("server b"));
    let mut c = SchedulerLock::new(db, "server c");
    assert!(!c.try_hold().unwrap());
    assert_eq!(c.holder().unwrap().as_deref(), Some("server b"));
    b
}

#[test]
fn on_sqlite_one_process_holds_the_scheduler_lock_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let db = Location::File(dir.path().join("ludus.db"));
    Store::connect(&db).unwrap();
    let mut nobody = SchedulerLock::new(&db, "server x");
    // Before anyone took it: no file, no holder.
    assert_eq!(nobody.holder().unwrap(), None);
    let _b = one_holder_at_a_time(&db);
}

#[test]
fn on_postgres_one_process_holds_the_scheduler_lock_at_a_time() {
    let cluster = ludus_testkit::postgres::shared();
    let url = cluster.create_database();
    let db = Location::Postgres(url.clone());
    Store::connect(&db).unwrap();
    let mut b = one_holder_at_a_time(&db);

    // The holder's connection ended by the database (a restart, or a
    // holder gone silent past its idle timeout): it holds the lock no more,
    // and another takes it.
    let mut d = SchedulerLock::new(&db, "server d");
    assert!(!d.try_hold().unwrap());
    let ended = cluster.psql(
        &url,
        "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE application_name = 'server b') t",
    );
    assert_eq!(ended.trim(), "1");
    let start = std::time::Instant::now();
    while !d.try_hold().unwrap() {
        assert!(start.elapsed().as_secs() < 10, "the lock stays held");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(d.holder().unwrap().as_deref(), Some("server d"));
    // The old holder finds out at its next check, and does not take it back.
    assert!(b.try_hold().is_err() || !b.held());
    assert!(!b.try_hold().unwrap());
    assert!(!b.held());
}
