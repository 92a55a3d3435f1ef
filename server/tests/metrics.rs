//! `GET /metrics` through the router: what moves after requests, uploads
//! and matches, and who may read it.

mod common;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{header, Request, StatusCode};
use common::{bot, error_code, server, Server};
use ludus_leaderboard::continuous::{self, ContinuousConfig};
use ludus_leaderboard::store::Store;
use ludus_leaderboard::worker::{self, WorkerOptions};
use std::net::SocketAddr;
use std::time::Duration;

/// A scrape from `peer`, with `headers`: the status, the content type and
/// the body.
async fn scrape_from(
    s: &Server,
    peer: Option<&str>,
    headers: &[(&str, &str)],
) -> (StatusCode, String, String) {
    let mut req = Request::get("/metrics");
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    let mut req = req.body(Body::empty()).unwrap();
    if let Some(peer) = peer {
        let addr: SocketAddr = peer.parse().unwrap();
        req.extensions_mut().insert(ConnectInfo(addr));
    }
    let res = tower::ServiceExt::oneshot(ludus_server::router(s.state.clone()), req)
        .await
        .unwrap();
    let status = res.status();
    let kind = res
        .headers()
        .get(header::CONTENT_TYPE)
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let body = http_body_util::BodyExt::collect(res.into_body())
        .await
        .unwrap()
        .to_bytes();
    (status, kind, String::from_utf8(body.to_vec()).unwrap())
}

async fn scrape(s: &Server) -> String {
    let (status, kind, body) = scrape_from(s, Some("127.0.0.1:40000"), &[]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(kind.starts_with("text/plain; version=0.0.4"), "{kind}");
    body
}

/// The value of the sample `series` (its name and labels, as written).
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' '))
        .map(|v| v.parse().unwrap())
}

fn value(text: &str, series: &str) -> f64 {
    sample(text, series).unwrap_or_else(|| panic!("no sample {series} in:\n{text}"))
}

#[tokio::test(flavor = "multi_thread")]
async fn a_scrape_counts_requests_validations_matches_and_live_workers() {
    let s = server(|_| {});
    let before = scrape(&s).await;
    assert_eq!(value(&before, "ludus_database_up"), 1.0);
    assert!(
        !before.contains("ludus_matches_finished_total{"),
        "no ladder yet:\n{before}"
    );
    for _ in 0..2 {
        assert_eq!(s.get("/api/games", None).await.0, StatusCode::OK);
    }
    assert_eq!(
        s.get("/nowhere/at/all", None).await.0,
        StatusCode::NOT_FOUND
    );
    for (name, tag) in [("one", "1"), ("two", "2")] {
        let (status, body) = s.upload(name, Some(&s.alice), bot(tag, false)).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    let (status, _) = s.upload("junk", Some(&s.alice), b"not wasm".to_vec()).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);

    // The continuous ladder's first matches, scheduled and not yet played.
    let store = Store::connect(&s.db).unwrap();
    let game = ludus_engine::registry::info("planet-wars").unwrap();
    let config = ContinuousConfig {
        pending: 6,
        ..ContinuousConfig::default()
    };
    continuous::top_up(&store, game, &config, continuous::Look::Bots).unwrap();
    let worker = store
        .queue()
        .register_worker(3, None, Duration::from_secs(60))
        .unwrap();
    let queued = scrape(&s).await;
    let requests = |route: &str, method: &str, status: u16| {
        value(
            &queued,
            &format!(
                r#"ludus_http_requests_total{{route="{route}",method="{method}",status="{status}"}}"#
            ),
        )
    };
    assert_eq!(requests("/api/games", "GET", 200), 2.0);
    assert_eq!(requests("unmatched", "GET", 404), 1.0);
    assert_eq!(requests("/api/bots", "POST", 201), 2.0);
    assert_eq!(requests("/api/bots", "POST", 422), 1.0);
    assert_eq!(requests("/metrics", "GET", 200), 1.0, "the scrape before");
    assert_eq!(
        value(
            &queued,
            r#"ludus_http_request_duration_seconds_count{route="/api/games"}"#
        ),
        2.0
    );
    let validations = |outcome: &str| {
        value(
            &queued,
            &format!(
                r#"ludus_upload_validation_duration_seconds_count{{game="planet-wars",outcome="{outcome}"}}"#
            ),
        )
    };
    assert_eq!((validations("passed"), validations("refused")), (2.0, 1.0));
    assert!(
        value(
            &queued,
            r#"ludus_upload_validation_duration_seconds_sum{game="planet-wars",outcome="passed"}"#
        ) > 0.0
    );
    let waiting = value(
        &queued,
        r#"ludus_queue_matches_waiting{game="planet-wars"}"#,
    );
    assert!(waiting >= 2.0, "{queued}");
    assert_eq!(
        value(
            &queued,
            r#"ludus_matches_finished_total{game="planet-wars"}"#
        ),
        0.0
    );
    assert_eq!(value(&queued, "ludus_workers_live"), 1.0);
    assert_eq!(value(&queued, "ludus_workers_live_threads"), 3.0);

    // Played out by a worker of another "process": the store's numbers move.
    store.queue().stop_worker(worker).unwrap();
    let options = WorkerOptions {
        until_idle: true,
        ..WorkerOptions::new(2)
    };
    let played = worker::work(&store, s.state.sandbox(), &options, |_| {}).unwrap();
    assert!(played.played >= 2, "{}", played.played);
    let after = scrape(&s).await;
    assert_eq!(
        value(
            &after,
            r#"ludus_matches_finished_total{game="planet-wars"}"#
        ),
        waiting
    );
    assert_eq!(
        value(&after, r#"ludus_queue_matches_waiting{game="planet-wars"}"#),
        0.0
    );
    assert_eq!(value(&after, "ludus_workers_live"), 0.0);
    assert_eq!(
        value(
            &after,
            r#"ludus_http_requests_total{route="/metrics",method="GET",status="200"}"#
        ),
        2.0
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn only_the_allowed_addresses_read_the_metrics_beyond_the_rate_limit() {
    let s = server(|c| {
        c.rate_per_second = 1;
        c.rate_burst = 2;
    });
    for (peer, headers) in [
        (Some("203.0.113.9:5000"), &[][..]),
        (Some("[2001:db8::1]:5000"), &[][..]),
        // No peer known: nobody to allow.
        (None, &[][..]),
        // From loopback, but through a proxy the server was not told to
        // trust: its visitors all come from loopback.
        (
            Some("127.0.0.1:5000"),
            &[("x-forwarded-for", "203.0.113.9")][..],
        ),
        (
            Some("127.0.0.1:5000"),
            &[("forwarded", "for=203.0.113.9")][..],
        ),
    ] {
        let (status, _, body) = scrape_from(&s, peer, headers).await;
        assert_eq!(
            status,
            StatusCode::FORBIDDEN,
            "{peer:?} {headers:?}: {body}"
        );
        assert_eq!(error_code(&body), "forbidden");
        assert!(!body.contains("ludus_"), "{body}");
    }
    // Loopback, over IPv4 and IPv6, as often as it likes: the rate limit
    // is for visitors.
    for peer in ["127.0.0.1:5000", "[::1]:5000"].iter().cycle().take(6) {
        let (status, _, body) = scrape_from(&s, Some(peer), &[]).await;
        assert_eq!(status, StatusCode::OK, "{peer}: {body}");
    }
}
