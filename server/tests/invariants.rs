//! The server that schedules checks the database's invariants
//! ([`ludus_server::invariants`]) as it takes the scheduler, then every
//! minute, and `/metrics` reports what the last check found: the
//! violations, and each game's rating lag.

mod common;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use common::{server, Server};
use ludus_leaderboard::ratings;
use ludus_leaderboard::retention::KeepReplays;
use ludus_leaderboard::schedule::ScheduledMatch;
use ludus_leaderboard::store::{Location, MatchResult, Needs, NewLadder, Store};
use ludus_server::scheduler;
use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

async fn scrape(s: &Server) -> String {
    let mut req = Request::get("/metrics").body(Body::empty()).unwrap();
    let peer: SocketAddr = "127.0.0.1:40000".parse().unwrap();
    req.extensions_mut().insert(ConnectInfo(peer));
    let res = tower::ServiceExt::oneshot(ludus_server::router(s.state.clone()), req)
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let body = http_body_util::BodyExt::collect(res.into_body())
        .await
        .unwrap()
        .to_bytes();
    String::from_utf8(body.to_vec()).unwrap()
}

fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' '))
        .map(|v| v.parse().unwrap())
}

/// A Planet Wars ladder of two tiny bots and six matches, all finished but
/// match 4, rated (over matches 0 to 3); then match 1's seats lose their
/// Elo: one `seat_elo` violation and, as the seat index no longer counts
/// match 1, two `counters` ones. Match 5 waits to be rated: a lag of 1.
fn broken_ladder(db: &Location) {
    let store = Store::connect(db).unwrap();
    for (name, wasm) in [
        ("a", &b"\0asm\x01\0\0\0"[..]),
        ("b", &b"\0asm\x01\0\0\0\0"[..]),
    ] {
        let sha = ludus_host::sha256_hex(wasm);
        store
            .bots()
            .submit(name, "planet-wars", wasm, &sha, "2026-01-01T00:00:00Z")
            .unwrap();
    }
    let bots = store.bots().latest("planet-wars").unwrap();
    let schedule: Vec<ScheduledMatch> = (0..6)
        .map(|i| ScheduledMatch {
            index: i,
            group: i / 2,
            seed: u64::from(i),
            seats: if i % 2 == 0 { vec![0, 1] } else { vec![1, 0] },
        })
        .collect();
    let needs = Needs::of_this_build(
        ludus_engine::registry::info("planet-wars")
            .unwrap()
            .rules_version,
    );
    let id = store
        .ladders()
        .ensure(&NewLadder {
            key: "broken",
            game: "planet-wars",
            kind: "round-robin",
            players: 2,
            rounds: 1,
            seed: 1,
            config: &serde_json::Value::Null,
            limits: &serde_json::to_value(ludus_host::Limits::default()).unwrap(),
            needs: &needs,
            keep_replays: KeepReplays::NONE,
            bots: &bots,
            schedule: &schedule,
        })
        .unwrap();
    let w = store
        .queue()
        .register_worker(1, Some(id), Duration::from_secs(60))
        .unwrap();
    for i in [0, 1, 2, 3, 5] {
        let r = MatchResult {
            index: i,
            match_id: format!("m{i}"),
            placements: vec![1, 2],
            scores: vec![1.0, 0.0],
            faults: vec![0, 0],
            turns: 5,
            reason: "done".into(),
            aborted: None,
            replay_sha256: ludus_host::sha256_hex(&[i as u8]),
            refused: vec![0, 0],
        };
        store.queue().commit(w, id, &r, b"").unwrap();
    }
    assert_eq!(ratings::apply(&store, id).unwrap(), 4);
    store.queue().stop_worker(w).unwrap();
    let Location::File(path) = db else {
        unreachable!("the test's server is on SQLite")
    };
    let c = rusqlite::Connection::open(path).unwrap();
    c.execute(
        "UPDATE match_seats SET elo = NULL WHERE ladder_id = ?1 AND idx = 1",
        [id],
    )
    .unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_scheduling_server_checks_the_invariants_and_reports_them() {
    let s = server(|_| {});
    broken_ladder(&s.db);
    let before = scrape(&s).await;
    assert!(
        !before.contains("ludus_invariant_violations"),
        "no check before the server schedules:\n{before}"
    );
    let background = scheduler::start(s.state.clone(), "the test's server".into());
    let start = Instant::now();
    let text = loop {
        let text = scrape(&s).await;
        if text.contains("ludus_invariant_violations") {
            break text;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no check of the invariants:\n{text}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    s.state.stopping().store(true, Ordering::Relaxed);
    background.stop().await;
    assert_eq!(
        sample(&text, "ludus_invariant_violations"),
        Some(3.0),
        "{text}"
    );
    assert_eq!(
        sample(&text, r#"ludus_rating_lag{game="planet-wars"}"#),
        Some(1.0),
        "{text}"
    );
    assert!(
        sample(&text, "ludus_invariant_check_duration_seconds").is_some_and(|s| s > 0.0),
        "{text}"
    );
}
