//! What `GET /metrics` reports, in Prometheus's text format (the route
//! itself is `api::metrics`; the requests are counted as they are logged,
//! by `request_log`).
//!
//! Two kinds of numbers: the server's own, counted as it answers (requests
//! by route, method and status, their latencies, the uploads' validation
//! times), and the store's, read from the database at each scrape (matches
//! finished, waiting and in play per game, live workers and their threads),
//! since the workers that play may be other processes on other machines.
//! Matches finished is a counter the store keeps by itself (results are
//! never deleted), so `rate(ludus_matches_finished_total[1m])` is each
//! game's matches per second, whichever process played them.
//!
//! The server that schedules also reports what its last check of the
//! database's invariants found ([`crate::invariants`], every minute): the
//! violations, and per game the rating lag (matches finished and not yet
//! rated). A server that does not schedule leaves them out.
//!
//! The route is visitors' business only as far as they must know: it is
//! answered to the networks of `--metrics-from` alone (loopback unless
//! told otherwise), after the client is found as the rate limits find it
//! ([`crate::rate_limit::client_ip`]).

use crate::error::ApiError;
use axum::http::{HeaderMap, Method, StatusCode};
use ipnet::IpNet;
use ludus_leaderboard::store::QueueTotals;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::{Registry, Unit};
use std::net::IpAddr;
use std::time::Duration;

/// The content type of the answer: Prometheus's text format, 0.0.4.
pub const CONTENT_TYPE: &str = prometheus_client::encoding::prometheus_text::CONTENT_TYPE;

/// The route label of a request that matched no route: one label for all
/// of them, so that visitors' made-up paths make no new series.
pub const UNMATCHED: &str = "unmatched";

/// Request latencies, in seconds: from a page served from memory to an
/// upload validated within the request's time limit.
const REQUEST_BUCKETS: [f64; 14] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

/// Validation times, in seconds: a bot refused at compilation to one that
/// plays its validation match to the end on its full budgets.
const VALIDATION_BUCKETS: [f64; 11] =
    [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0];

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    route: String,
    method: String,
    status: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    route: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ValidationLabels {
    game: String,
    /// `passed` or `refused`.
    outcome: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct GameLabels {
    game: String,
}

type HistogramFamily<L> = Family<L, Histogram, fn() -> Histogram>;

/// The server's own counters and histograms (requests, validations), and
/// what the last check of the invariants found.
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    latency: HistogramFamily<RouteLabels>,
    validations: HistogramFamily<ValidationLabels>,
    invariants: std::sync::Mutex<Option<InvariantFigures>>,
}

/// What a check of the database's invariants found, as `/metrics` reports
/// it until the next check.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct InvariantFigures {
    /// Violations over every invariant of every ladder.
    pub violations: u64,
    /// Per game, matches finished and not yet rated, over its ladders.
    pub rating_lag: Vec<(String, u64)>,
    /// How long the check took.
    pub seconds: f64,
}

impl Default for Metrics {
    fn default() -> Metrics {
        let mut registry = Registry::with_prefix("ludus");
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "http_requests",
            "Requests answered, by route (the route's pattern, `unmatched` for a path no route takes), method and status",
            requests.clone(),
        );
        let latency: HistogramFamily<RouteLabels> =
            Family::new_with_constructor(|| Histogram::new(REQUEST_BUCKETS));
        registry.register_with_unit(
            "http_request_duration",
            "Time from a request's arrival to its answer's headers, by route",
            Unit::Seconds,
            latency.clone(),
        );
        let validations: HistogramFamily<ValidationLabels> =
            Family::new_with_constructor(|| Histogram::new(VALIDATION_BUCKETS));
        registry.register_with_unit(
            "upload_validation_duration",
            "Time an upload's check took (its validation match included), by game and outcome (passed, refused)",
            Unit::Seconds,
            validations.clone(),
        );
        Metrics {
            registry,
            requests,
            latency,
            validations,
            invariants: std::sync::Mutex::new(None),
        }
    }
}

impl Metrics {
    /// Counts a request answered with `status` after `elapsed`.
    pub fn request(&self, route: &str, method: &Method, status: StatusCode, elapsed: Duration) {
        self.requests
            .get_or_create(&RequestLabels {
                route: route.to_string(),
                method: method_label(method).to_string(),
                status: status.as_u16().to_string(),
            })
            .inc();
        self.latency
            .get_or_create(&RouteLabels {
                route: route.to_string(),
            })
            .observe(elapsed.as_secs_f64());
    }

    /// Records an upload's check for `game`: how long it took, and whether
    /// the bot passed.
    pub fn validation(&self, game: &str, passed: bool, elapsed: Duration) {
        self.validations
            .get_or_create(&ValidationLabels {
                game: game.to_string(),
                outcome: if passed { "passed" } else { "refused" }.to_string(),
            })
            .observe(elapsed.as_secs_f64());
    }

    /// Records what the last check of the invariants found.
    pub fn invariants_checked(&self, figures: InvariantFigures) {
        *self.invariants.lock().unwrap_or_else(|e| e.into_inner()) = Some(figures);
    }

    /// The text of a scrape: the server's own families, then the store's
    /// (`None`: the database could not be read, which
    /// `ludus_database_up 0` says).
    pub fn render(&self, store: Option<&QueueTotals>) -> String {
        use prometheus_client::encoding::prometheus_text::encode;
        let mut scrape = Registry::with_prefix("ludus");
        gauge(
            &mut scrape,
            "database_up",
            "1 when this scrape read the database, 0 when it could not (the store's families are then left out)",
            i64::from(store.is_some()),
        );
        if let Some(totals) = store {
            register_store(&mut scrape, totals);
        }
        let invariants = self
            .invariants
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        if let Some(figures) = invariants {
            register_invariants(&mut scrape, &figures);
        }
        let mut out = String::new();
        encode(&mut out, &self.registry).expect("writing to a String cannot fail");
        encode(&mut out, &scrape).expect("writing to a String cannot fail");
        out
    }
}

/// The store's families, read at this scrape.
fn register_store(scrape: &mut Registry, totals: &QueueTotals) {
    let finished = Family::<GameLabels, Counter>::default();
    let waiting = Family::<GameLabels, Gauge>::default();
    let in_play = Family::<GameLabels, Gauge>::default();
    for g in &totals.games {
        let game = GameLabels {
            game: g.game.clone(),
        };
        finished.get_or_create(&game).inc_by(g.finished);
        waiting.get_or_create(&game).set(clamp(g.waiting));
        in_play.get_or_create(&game).set(clamp(g.in_play));
    }
    scrape.register(
        "matches_finished",
        "Matches with a result (void ones included) over all ladders of the game, whichever worker played them; rate() of it is the game's matches per second",
        finished,
    );
    scrape.register(
        "queue_matches_waiting",
        "Matches scheduled and not yet finished (or to be verified) over all ladders of the game, in play or not",
        waiting,
    );
    scrape.register(
        "queue_matches_in_play",
        "Of the waiting matches, those a worker holds under an unexpired lease",
        in_play,
    );
    gauge(
        scrape,
        "workers_live",
        "Workers (in this server or `ludus worker` processes) whose heartbeat is current",
        i64::from(totals.live_workers),
    );
    gauge(
        scrape,
        "workers_live_threads",
        "Matches the live workers play at once, in all",
        i64::from(totals.live_threads),
    );
}

/// What the last check of the invariants found.
fn register_invariants(scrape: &mut Registry, figures: &InvariantFigures) {
    gauge(
        scrape,
        "invariant_violations",
        "Violations of the database's invariants the last check found (every minute, by the server that schedules; `ludus ladder check` lists them)",
        clamp(figures.violations),
    );
    let lag = Family::<GameLabels, Gauge>::default();
    for (game, n) in &figures.rating_lag {
        lag.get_or_create(&GameLabels { game: game.clone() })
            .set(clamp(*n));
    }
    scrape.register(
        "rating_lag",
        "Matches finished and not yet rated over the game's ladders, at the last check of the invariants",
        lag,
    );
    let seconds = Gauge::<f64, std::sync::atomic::AtomicU64>::default();
    seconds.set(figures.seconds);
    scrape.register_with_unit(
        "invariant_check_duration",
        "How long the last check of the invariants took",
        Unit::Seconds,
        seconds,
    );
}

/// A gauge of one value, registered as `name`.
fn gauge(registry: &mut Registry, name: &str, help: &str, value: i64) {
    let g = Gauge::<i64>::default();
    g.set(value);
    registry.register(name, help, g);
}

fn clamp(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// A method as a label: the standard ones by name, any other as `other`,
/// so that made-up methods make no new series.
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::PATCH => "PATCH",
        Method::OPTIONS => "OPTIONS",
        _ => "other",
    }
}

/// Loopback, IPv4 and IPv6.
pub fn loopback() -> Vec<IpNet> {
    vec![
        "127.0.0.0/8".parse().expect("a network"),
        "::1/128".parse().expect("a network"),
    ]
}

/// Headers a proxy adds to say whom it forwards for.
const FORWARDING: [&str; 3] = ["x-forwarded-for", "forwarded", "x-real-ip"];

/// Whether a request from `peer` with `headers` may read the metrics: its
/// client (`peer`, or whom a trusted proxy names) is in `allowed`. A
/// request that names a client through a proxy this server does not
/// trust is refused whatever its peer: behind such a proxy every visitor
/// comes from the proxy's address, often loopback.
pub fn may_scrape(
    peer: Option<IpAddr>,
    headers: &HeaderMap,
    trusted: &[IpNet],
    allowed: &[IpNet],
) -> Result<(), ApiError> {
    let refused = || {
        ApiError::Forbidden(
            "the metrics are served only to the monitoring addresses the operator allows".into(),
        )
    };
    let peer = peer.ok_or_else(refused)?;
    let proxied = FORWARDING.iter().any(|h| headers.contains_key(*h));
    if proxied && !trusted.iter().any(|net| net.contains(&peer)) {
        return Err(refused());
    }
    let client = crate::rate_limit::client_ip(peer, headers, trusted);
    if allowed.iter().any(|net| net.contains(&client)) {
        Ok(())
    } else {
        Err(refused())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> Option<IpAddr> {
        Some(s.parse().unwrap())
    }

    #[test]
    fn only_allowed_clients_scrape_and_an_untrusted_proxy_hides_who_asks() {
        let none = HeaderMap::new();
        let lo = loopback();
        assert!(may_scrape(ip("127.0.0.1"), &none, &[], &lo).is_ok());
        assert!(may_scrape(ip("::1"), &none, &[], &lo).is_ok());
        assert!(may_scrape(ip("::ffff:127.0.0.1"), &none, &[], &lo).is_ok());
        assert!(may_scrape(ip("203.0.113.7"), &none, &[], &lo).is_err());
        assert!(may_scrape(None, &none, &[], &lo).is_err());
        // A proxy on loopback that this server was not told to trust.
        let mut via = HeaderMap::new();
        via.insert("x-forwarded-for", "203.0.113.7".parse().unwrap());
        assert!(may_scrape(ip("127.0.0.1"), &via, &[], &lo).is_err());
        // Trusted, it names the client: a visitor is refused, the
        // monitoring network it names is not.
        let trusted: Vec<IpNet> = vec!["127.0.0.1/32".parse().unwrap()];
        assert!(may_scrape(ip("127.0.0.1"), &via, &trusted, &lo).is_err());
        let monitoring: Vec<IpNet> = vec!["10.9.0.0/16".parse().unwrap()];
        let mut from_monitoring = HeaderMap::new();
        from_monitoring.insert("x-forwarded-for", "10.9.3.4".parse().unwrap());
        assert!(may_scrape(ip("127.0.0.1"), &from_monitoring, &trusted, &monitoring).is_ok());
        assert!(may_scrape(ip("10.9.3.4"), &none, &[], &monitoring).is_ok());
        assert!(may_scrape(ip("127.0.0.1"), &none, &[], &monitoring).is_err());
    }

    #[test]
    fn made_up_methods_share_one_label() {
        let m = Metrics::default();
        let odd = Method::from_bytes(b"BREW").unwrap();
        m.request(
            UNMATCHED,
            &odd,
            StatusCode::NOT_FOUND,
            Duration::from_millis(1),
        );
        let text = m.render(None);
        assert!(
            text.contains(
                r#"ludus_http_requests_total{route="unmatched",method="other",status="404"} 1"#
            ),
            "{text}"
        );
        assert!(text.contains("ludus_database_up 0"), "{text}");
        assert!(!text.contains("ludus_invariant_violations"), "{text}");
    }

    #[test]
    fn the_last_check_of_the_invariants_is_reported() {
        let m = Metrics::default();
        m.invariants_checked(InvariantFigures {
            violations: 3,
            rating_lag: vec![("claim".into(), 0), ("planet-wars".into(), 31)],
            seconds: 0.25,
        });
        let text = m.render(None);
        for line in [
            "ludus_invariant_violations 3",
            r#"ludus_rating_lag{game="planet-wars"} 31"#,
            r#"ludus_rating_lag{game="claim"} 0"#,
            "ludus_invariant_check_duration_seconds 0.25",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} in:\n{text}");
        }
    }
}
