//! The one log line of every request, which also counts it for
//! `GET /metrics` ([`crate::metrics`]).

use crate::error::request_id;
use crate::metrics::UNMATCHED;
use crate::state::AppState;
use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::Response;
use std::time::Instant;

/// The longest path a log line carries; the rest is cut.
const PATH_IN_LOG: usize = 200;

/// Counts every request ([`crate::metrics::Metrics::request`]) and logs it in one line at
/// info, under the target `ludus_server::requests`: its method, its path
/// (never its query string), its status, the milliseconds it took and its
/// request id, the one its answer carries. Tokens travel in headers and
/// cookies, which are never logged.
pub async fn observe(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let start = Instant::now();
    let method = request.method().clone();
    let path = request.uri().path();
    let path = match path.char_indices().nth(PATH_IN_LOG) {
        Some((cut, _)) => format!("{}…", &path[..cut]),
        None => path.to_string(),
    };
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or(UNMATCHED.to_string(), |p| p.as_str().to_string());
    let id = request_id(request.headers());
    let response = next.run(request).await;
    let elapsed = start.elapsed();
    let status = response.status();
    state.metrics().request(&route, &method, status, elapsed);
    tracing::info!(
        target: "ludus_server::requests",
        %method,
        %path,
        status = status.as_u16(),
        ms = elapsed.as_micros() as f64 / 1000.0,
        request_id = %id,
        "request"
    );
    response
}
