//! Every route of the server, in one table: its method and path, its
//! handler, its body limit (the upload's is the server's upload limit,
//! every other route's [`SMALL_BODY`]), and whether its answer depends on
//! who asks (then no cache may keep it). Around every route, from the
//! outside in: a request id (the server's own: one a client sent is
//! replaced), the request's log line and counts ([`crate::request_log`]),
//! tracing, the one error shape, the security headers, the request's and
//! its body's time limits, the rate limit.

use crate::error::{self, ApiError, REQUEST_ID};
use crate::state::AppState;
use crate::{account_pages, api, challenges, my_pages, pages, rate_limit, request_log, security};
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderName, Request, StatusCode};
use axum::routing::{get, post, MethodRouter};
use axum::Router;
use tower::ServiceBuilder;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::timeout::{RequestBodyTimeoutLayer, TimeoutLayer};
use tower_http::trace::TraceLayer;

/// Largest body of any route but the upload: forms and small JSON only.
pub const SMALL_BODY: usize = 64 * 1024;

/// A route whose answer depends on who asks.
fn private(route: MethodRouter<AppState>) -> MethodRouter<AppState> {
    let [cache, vary] = security::private();
    route
        .layer::<_, std::convert::Infallible>(cache)
        .layer::<_, std::convert::Infallible>(vary)
}

/// The routes: API, OpenAPI document and pages.
pub fn router(state: AppState) -> Router {
    let config = state.config();
    let uploads = Router::new()
        .route("/api/bots", private(post(api::upload)))
        .layer(body_limit(config.upload_limit));
    // The page's upload: the file up to the upload limit, with room for the
    // form's other fields.
    let page_uploads = Router::new()
        .route(
            "/upload",
            private(get(my_pages::upload_form).post(my_pages::upload)),
        )
        .layer(body_limit(config.upload_limit + SMALL_BODY));
    let rest = Router::new()
        .route("/api/openapi.json", get(api::openapi))
        .route("/api/me", private(get(api::me)))
        .route("/api/games", get(api::games))
        .route("/api/games/{game}/leaderboard", get(api::leaderboard))
        .route("/api/bots/{name}", get(api::bot))
        .route("/api/bots/{name}/ratings", get(api::bot_ratings))
        .route("/api/bots/{name}/retire", private(post(api::retire)))
        .route(
            "/api/bots/{name}/versions/{version}/promote",
            private(post(challenges::promote)),
        )
        .route("/api/challenges", private(post(challenges::create)))
        .route("/api/challenges/{id}", get(challenges::get))
        .route("/api/challenges/{id}/stop", private(post(challenges::stop)))
        .route("/api/matches/{id}", get(api::match_info))
        // These two say themselves whether their answer may be kept.
        .route("/api/matches/{id}/replay", get(api::replay))
        // A page's navigation names who is signed in, and its forms carry
        // their session's token: no cache keeps pages.
        .route("/", private(get(pages::index)))
        .route("/games/{game}", private(get(pages::game)))
        .route("/games/{game}/rules", private(get(pages::rules)))
        .route("/bots/{name}", get(pages::bot))
        .route("/matches/{id}", get(pages::match_page))
        .route("/challenges/{id}", private(get(challenges::page)))
        .route(
            "/challenges/{id}/promote",
            private(post(challenges::promote_form)),
        )
        .route(
            "/challenges/{id}/stop",
            private(post(challenges::stop_form)),
        )
        .route(
            "/signin",
            private(get(account_pages::signin_form).post(account_pages::signin)),
        )
        .route(
            "/signup",
            private(get(account_pages::signup_form).post(account_pages::signup)),
        )
        .route(
            "/signout",
            private(get(account_pages::signout_form).post(account_pages::signout)),
        )
        .route("/account", private(get(my_pages::account)))
        .route("/account/retire", private(post(my_pages::retire)))
        .route(
            "/account/retire-version",
            private(post(my_pages::retire_version)),
        )
        .route("/account/promote", private(post(my_pages::promote)))
        .route("/account/tokens", private(post(my_pages::new_token)))
        .route(
            "/account/tokens/revoke",
            private(post(my_pages::revoke_token)),
        )
        // Browsers ask for it on every page: no icon, and no 404 in their console.
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .layer(body_limit(SMALL_BODY));
    // For a load balancer's probes, which come often from one address:
    // outside the rate limit, and answering no more than they must. The
    // metrics too, for the monitoring's scrapes, which must not fail when
    // traffic is high; they answer only the addresses the operator allows,
    // before any work.
    let health = Router::new()
        .route("/healthz", get(api::healthz))
        .route("/readyz", get(api::readyz))
        .route("/metrics", private(get(api::metrics)));
    let request_id = HeaderName::from_static(REQUEST_ID);
    let [csp, nosniff, frames, referrer] = security::headers();
    Router::new()
        .merge(uploads)
        .merge(page_uploads)
        .merge(rest)
        .fallback(|| async { ApiError::NotFound("no such route; see /api/openapi.json".into()) })
        .layer(axum::middleware::from_fn_with_state(
            rate_limit::Gate {
                limits: state.limits().clone(),
                trusted: config.trusted_proxies.clone().into(),
            },
            rate_limit::rate_limit,
        ))
        .merge(health)
        .layer(
            ServiceBuilder::new()
                .layer(axum::middleware::map_request(no_client_request_id))
                .layer(SetRequestIdLayer::new(request_id.clone(), MakeRequestUuid))
                .layer(axum::middleware::from_fn_with_state(
                    state.clone(),
                    request_log::observe,
                ))
                .layer(TraceLayer::new_for_http().make_span_with(|req: &Request<_>| {
                    let id = req
                        .headers()
                        .get(REQUEST_ID)
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or("");
                    tracing::info_span!("request", id, method = %req.method(), path = %req.uri().path())
                })
                // A request's one line is `request_log::observe`'s; a failure's
                // detail is `error::finish`'s.
                .on_response(())
                .on_failure(()))
                .layer(PropagateRequestIdLayer::new(request_id))
                .layer(axum::middleware::from_fn(error::finish))
                .layer(csp)
                .layer(nosniff)
                .layer(frames)
                .layer(referrer)
                .layer(TimeoutLayer::with_status_code(
                    StatusCode::REQUEST_TIMEOUT,
                    config.request_timeout,
                ))
                .layer(RequestBodyTimeoutLayer::new(config.body_timeout)),
        )
        .with_state(state)
}

/// The request without the id a client sent: the id is the server's own,
/// so that a client writes nothing into the log through it.
async fn no_client_request_id(mut req: axum::extract::Request) -> axum::extract::Request {
    req.headers_mut().remove(REQUEST_ID);
    req
}

/// A body limit of `bytes`, announced or not: axum's own default limit
/// off, so that this one is the only one.
fn body_limit(bytes: usize) -> tower::layer::util::Stack<DefaultBodyLimit, RequestBodyLimitLayer> {
    tower::layer::util::Stack::new(
        DefaultBodyLimit::disable(),
        RequestBodyLimitLayer::new(bytes),
    )
}
