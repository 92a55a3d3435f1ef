//! Every route of the server, in one table: its method and path, its
//! handler, and its body limit (the upload's is the server's upload limit,
//! every other route's [`SMALL_BODY`]). Every request is rate-limited per
//! token and per address, and traced.

use crate::error::ApiError;
use crate::state::AppState;
use crate::{api, pages, rate_limit};
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::Router;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::trace::TraceLayer;

/// Largest body of any route but the upload: forms and small JSON only.
pub const SMALL_BODY: usize = 64 * 1024;

/// The routes: API, OpenAPI document and pages.
pub fn router(state: AppState) -> Router {
    let uploads = Router::new()
        .route("/api/bots", post(api::upload))
        .layer(body_limit(state.config().upload_limit));
    let rest = Router::new()
        .route("/api/openapi.json", get(api::openapi))
        .route("/api/me", get(api::me))
        .route("/api/games", get(api::games))
        .route("/api/games/{game}/leaderboard", get(api::leaderboard))
        .route("/api/bots/{name}", get(api::bot))
        .route("/api/bots/{name}/retire", post(api::retire))
        .route("/api/matches/{id}", get(api::match_info))
        .route("/api/matches/{id}/replay", get(api::replay))
        .route("/", get(pages::index))
        .route("/games/{game}", get(pages::game))
        .route("/bots/{name}", get(pages::bot))
        .route("/matches/{id}", get(pages::match_page))
        .route("/signin", get(pages::signin_form).post(pages::signin))
        // Browsers ask for it on every page: no icon, and no 404 in their console.
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .layer(body_limit(SMALL_BODY));
    Router::new()
        .merge(uploads)
        .merge(rest)
        .fallback(|| async { ApiError::NotFound("no such route".into()) })
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            rate_limit::rate_limit,
        ))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

/// A body limit of `bytes`, announced or not: axum's own default limit
/// off, so that this one is the only one.
fn body_limit(bytes: usize) -> tower::layer::util::Stack<DefaultBodyLimit, RequestBodyLimitLayer> {
    tower::layer::util::Stack::new(
        DefaultBodyLimit::disable(),
        RequestBodyLimitLayer::new(bytes),
    )
}
