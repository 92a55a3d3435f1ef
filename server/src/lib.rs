//! `ludus serve`: the platform's face. Accounts with API tokens (stored
//! hashed), uploads validated like `ludus check --game` off the request
//! threads, continuous ladders kept going per game ([`ludus_leaderboard::continuous`])
//! and played by the store's shared queue (in-process workers on SQLite, or
//! `ludus worker`s on other machines on PostgreSQL), a JSON API described by
//! OpenAPI, and pages rendered here with no script from another host.
//!
//! The store is synchronous (rusqlite, the blocking PostgreSQL client): every
//! use of it runs on tokio's blocking threads, never on a request thread.

pub mod api;
pub mod auth;
mod error;
pub mod pages;
pub mod scheduler;
mod state;

pub use error::ApiError;
pub use state::{AppState, ServerConfig};

use axum::extract::DefaultBodyLimit;
use axum::Router;
use std::io::Write;
use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::trace::TraceLayer;

/// Largest body of any route but the upload: forms and small JSON only.
pub const SMALL_BODY: usize = 64 * 1024;

/// The routes: API, OpenAPI document and pages, each with its body limit,
/// rate-limited per token and per address.
pub fn router(state: AppState) -> Router {
    let upload_limit = state.config().upload_limit;
    let uploads = Router::new()
        .route("/api/bots", axum::routing::post(api::upload))
        .layer(DefaultBodyLimit::disable())
        .layer(RequestBodyLimitLayer::new(upload_limit));
    let rest = Router::new()
        .merge(api::routes())
        .merge(pages::routes())
        .layer(DefaultBodyLimit::disable())
        .layer(RequestBodyLimitLayer::new(SMALL_BODY));
    Router::new()
        .merge(uploads)
        .merge(rest)
        .fallback(|| async { ApiError::NotFound("no such route".into()) })
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            state::rate_limit,
        ))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

/// Serves until SIGTERM or Ctrl-C; then stops taking requests, has the
/// in-process workers commit the matches they finished and release those in
/// play, and returns.
pub async fn serve(config: ServerConfig) -> anyhow::Result<()> {
    use anyhow::Context;
    let listen = config.listen;
    let state = AppState::open(config).await?;
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .with_context(|| format!("cannot listen on {listen}; is another server on that port?"))?;
    let local = listener.local_addr()?;
    tracing::info!(%local, "serving");
    // The one line scripts wait for.
    println!("ludus serve: listening on http://{local}");
    let background = scheduler::start(state.clone());
    let app = router(state.clone()).into_make_service_with_connect_info::<SocketAddr>();
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown_signal())
        .await
        .context("the server stopped")?;
    tracing::info!("stopping: the matches in play go back to the queue");
    state.stopping().store(true, Ordering::Relaxed);
    background.stop().await;
    // Not println!: a reader that went away (a closed pipe) must not turn a
    // clean stop into a panic.
    let _ = writeln!(std::io::stdout(), "ludus serve: stopped");
    Ok(())
}

/// Resolves on the first SIGTERM or Ctrl-C.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}
