//! `ludus serve`: the platform's face. Accounts with passwords (Argon2id)
//! and browser sessions, API tokens (named, revocable, stored hashed),
//! uploads validated like `ludus check --game` off the request
//! threads, continuous ladders kept going per game ([`ludus_leaderboard::continuous`])
//! and played by the store's shared queue (in-process workers on SQLite, or
//! `ludus worker`s on other machines on PostgreSQL), a JSON API described by
//! OpenAPI, and pages rendered here with no script from another host.
//!
//! The map: [`routes`] is the table of every route; [`api`] and [`pages`]
//! are their handlers, which take what they need in their signatures (the
//! [`auth`] and [`session`] extractors say who asks; [`account_pages`]
//! signs people up, in and out, under the rules of [`password`] and of
//! [`ludus_leaderboard::accounts`]) and call a view ([`views`], the reads
//! behind pages) or a command ([`commands`], uploads and retirements, with
//! the rules of [`uploads`]; who may do what to a bot is
//! [`ludus_leaderboard::owners`]); [`dto`] holds the API's types, [`templates`]
//! the pages' markup, [`error`] the one error shape. [`scheduler`] runs
//! beside the routes: it tops up the ladders, runs the in-process
//! worker, and has [`invariants`] check the database every minute. With
//! `--house DIR`, the server stocks the house's bots
//! ([`ludus_leaderboard::house`]) as it starts, beside the routes. [`client`]
//! is the API's client, for `ludus submit --server`.
//!
//! The store is synchronous (rusqlite, the blocking PostgreSQL client): every
//! use of it runs on tokio's blocking threads, never on a request thread.

pub(crate) mod account_pages;
pub mod api;
pub mod auth;
pub mod challenges;
pub mod client;
pub(crate) mod commands;
pub mod dto;
pub mod error;
mod extract;
pub mod invariants;
pub mod listen;
pub mod metrics;
pub mod my_pages;
pub mod pages;
pub mod password;
pub mod pool;
pub mod rate_limit;
pub mod replays;
pub mod request_log;
pub mod routes;
pub mod scheduler;
pub mod security;
pub mod session;
mod state;
pub mod templates;
pub(crate) mod uploads;
pub mod views;

pub use error::{ApiError, ErrorBody, ErrorDetail};
pub use routes::{router, SMALL_BODY};
pub use state::{connect_waiting, Signup};
pub use state::{AppState, ServerConfig};

use std::io::Write;
use std::sync::atomic::Ordering;

/// Serves on a runtime of its own until SIGTERM or Ctrl-C: `ludus serve`.
pub fn run(config: ServerConfig) -> anyhow::Result<()> {
    use anyhow::Context;
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?
        .block_on(serve(config))
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
    let name = format!(
        "ludus serve on {} (pid {}, {local})",
        ludus_leaderboard::store::SchedulerLock::this_host(),
        std::process::id()
    );
    let background = scheduler::start(state.clone(), name);
    if let Some(dir) = state.config().house.clone() {
        tokio::spawn(stock_house(state.clone(), dir));
    }
    let forget = tokio::spawn(forget_idle_clients(state.clone()));
    listen::serve(
        listener,
        router(state.clone()),
        state.config().connections,
        shutdown_signal(),
    )
    .await;
    tracing::info!("stopping: the matches in play go back to the queue");
    state.stopping().store(true, Ordering::Relaxed);
    background.stop().await;
    forget.abort();
    // Not println!: a reader that went away (a closed pipe) must not turn a
    // clean stop into a panic.
    let _ = writeln!(std::io::stdout(), "ludus serve: stopped");
    Ok(())
}

/// Stocks the house with the bots of `dir` ([`ludus_leaderboard::house`])
/// on a blocking thread with a store connection of its own, so that the
/// validation matches hold up no request; then wakes the scheduler. A
/// failure is logged: the server serves on without the house's new bots.
async fn stock_house(state: AppState, dir: std::path::PathBuf) {
    let st = state.clone();
    let folder = dir.display().to_string();
    let stocked = tokio::task::spawn_blocking(move || {
        let store = ludus_leaderboard::store::Store::connect(&st.config().db)?;
        let limits = &st.config().continuous.limits;
        ludus_leaderboard::house::stock(&store, st.sandbox(), &dir, limits, st.stopping())
    })
    .await;
    match stocked {
        Ok(Ok(stock)) if stock.stopped => tracing::info!("house: stopped before stocking"),
        Ok(Ok(stock)) => {
            tracing::info!(
                files = stock.files,
                stored = stock.stored.len(),
                known = stock.known.len(),
                passed = stock.passed,
                failed = stock.failed,
                skipped = stock.skipped.len(),
                unplayable = stock.unplayable.len(),
                "house stocked"
            );
            state.wake_scheduler();
            // The line scripts wait for, as for the listening one.
            let _ = writeln!(
                std::io::stdout(),
                "ludus serve: house stocked from {folder}: {} bots stored, {} stored already, \
                 {} names skipped, {} files play no game",
                stock.stored.len(),
                stock.known.len(),
                stock.skipped.len(),
                stock.unplayable.len()
            );
        }
        Ok(Err(e)) => tracing::error!(error = %e, "house: cannot stock it"),
        Err(e) => tracing::error!(error = %e, "house: the stocking task failed"),
    }
}

/// Forgets the rate limits' idle clients once a minute: their memory is
/// bounded by the clients of the last minute, not of all time.
async fn forget_idle_clients(state: AppState) {
    let mut tick = tokio::time::interval(std::time::Duration::from_secs(60));
    loop {
        tick.tick().await;
        state.limits().forget_idle();
        state.sign_ins().forget_idle();
    }
}

/// Resolves on the first SIGTERM or Ctrl-C.
async fn shutdown_signal() {
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
