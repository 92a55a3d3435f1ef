//! Requests share a pool of store connections: a connection held elsewhere
//! holds up no request while another is free, and a request that finds
//! them all in use waits for one instead of failing.

mod common;

use axum::http::StatusCode;
use ludus_server::AppState;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Takes a connection of `state`'s pool on a blocking thread and holds it
/// until the returned sender is dropped.
async fn hold(state: AppState) -> std::sync::mpsc::Sender<()> {
    let (taken, is_taken) = tokio::sync::oneshot::channel();
    let (let_go, wait) = std::sync::mpsc::channel::<()>();
    tokio::task::spawn_blocking(move || {
        let connection = state.connection().unwrap();
        taken.send(()).unwrap();
        let _ = wait.recv();
        drop(connection);
    });
    is_taken.await.unwrap();
    let_go
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_takes_a_free_connection_and_waits_when_none_is_free() {
    let s = Arc::new(common::server(|c| c.db_connections = 2));
    let first = hold(s.state.clone()).await;
    let started = Instant::now();
    let (status, body) = s.get("/api/games", None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // Not the pool's 10 s wait: the free connection served it.
    assert!(started.elapsed() < Duration::from_secs(5));

    let second = hold(s.state.clone()).await;
    let server = s.clone();
    let started = Instant::now();
    let request = tokio::spawn(async move { server.get("/api/games", None).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!request.is_finished(), "no connection was free");
    drop(first);
    let (status, body) = request.await.unwrap();
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(started.elapsed() >= Duration::from_millis(300));
    drop(second);
}

/// On SQLite, pages read while another process writes: the file's readers
/// do not wait for its writer (WAL).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_sqlite_a_read_does_not_wait_for_a_writer() {
    let s = common::server(|_| {});
    let ludus_leaderboard::store::Location::File(path) = &s.db else {
        unreachable!("the tests' server is on SQLite")
    };
    let writer = rusqlite::Connection::open(path).unwrap();
    writer
        .execute_batch(
            "BEGIN IMMEDIATE; INSERT INTO paused_games (game, paused_at) VALUES ('claim', 0);",
        )
        .unwrap();
    let started = Instant::now();
    let (status, body) = s.get("/api/games/planet-wars/leaderboard", None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // A reader that waited would wait for the writer's commit, or for the
    // 10 s busy timeout.
    assert!(started.elapsed() < Duration::from_secs(5));
    writer.execute_batch("ROLLBACK").unwrap();
}
