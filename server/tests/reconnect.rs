//! A server on PostgreSQL whose connections the database closes (as a
//! restart of the server does): the pool finds them gone as it hands them
//! out, and the server connects again; no request fails for it.

mod common;

use axum::http::StatusCode;
use common::json;
use ludus_host::Sandbox;
use ludus_leaderboard::store::{Location, Store};
use ludus_server::{auth, AppState, ServerConfig};
use std::sync::Arc;

#[test]
fn the_server_connects_again_after_the_database_closed_its_connection() {
    // The store opens outside the async runtime, as `ludus serve` opens it
    // on a blocking thread: a PostgreSQL client blocks on its own runtime.
    let cluster = ludus_testkit::postgres::shared();
    let url = cluster.create_database();
    let db = Location::Postgres(url.clone());
    let store = Store::connect(&db).unwrap();
    let token = auth::add_user(&store, "alice").unwrap().unwrap();
    let mut config = ServerConfig::new(db);
    config.workers = 0;
    drop(store);
    let state = AppState::new(config, Arc::new(Sandbox::new().unwrap())).unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(requests(cluster, &url, common::Server::over(state), &token));
}

async fn requests(
    cluster: &ludus_testkit::postgres::Cluster,
    url: &str,
    server: common::Server,
    token: &str,
) {
    let (status, body) = server.get("/api/me", Some(token)).await;
    assert_eq!(status, StatusCode::OK, "{body}");

    // Every connection to the database but psql's own ends, as at a restart.
    let ended = cluster.psql(
        url,
        "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid()) t",
    );
    let ended: u32 = ended.trim().parse().unwrap();
    assert!(ended >= 1, "the pool's connections: {ended}");

    // A connection is tried as it leaves the pool: the ended ones are
    // replaced before any request uses them.
    for _ in 0..2 {
        let (status, body) = server.get("/api/me", Some(token)).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(json(&body)["name"], "alice");
    }
}
