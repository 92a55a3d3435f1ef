//! The database's invariants, watched by the server that schedules: every
//! [`CHECK_EVERY`] it runs [`ludus_leaderboard::integrity::check`] over
//! every ladder (without the bots' bytes) on a blocking thread, read-only in
//! one snapshot, logs each violation with `tracing::error!` naming its
//! invariant, and gives `/metrics` the violations and each game's rating
//! lag ([`crate::metrics::InvariantFigures`]). A check never runs twice
//! at once; the scheduler's loop asks for one at each of its looks, and
//! goes on at once.

use crate::metrics::InvariantFigures;
use crate::state::AppState;
use ludus_leaderboard::integrity::{self, CheckOptions, Which};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often the server that schedules checks the invariants.
pub const CHECK_EVERY: Duration = Duration::from_secs(60);

/// When the last check started, and whether one runs.
#[derive(Debug, Default)]
pub struct Watch {
    started: Option<Instant>,
    running: Arc<AtomicBool>,
    /// Whether the last check found violations: a check that finds none
    /// after one that did says so once.
    violated: Arc<AtomicBool>,
}

impl Watch {
    /// Starts a check on a blocking thread when [`CHECK_EVERY`] passed since
    /// the last one started (or none did) and none runs; returns at once.
    pub fn tick(&mut self, state: &AppState) {
        if self.running.load(Ordering::Relaxed)
            || self.started.is_some_and(|t| t.elapsed() < CHECK_EVERY)
        {
            return;
        }
        self.started = Some(Instant::now());
        self.running.store(true, Ordering::Relaxed);
        let (running, violated, state) =
            (self.running.clone(), self.violated.clone(), state.clone());
        tokio::task::spawn_blocking(move || {
            check_now(&state, &violated);
            running.store(false, Ordering::Relaxed);
        });
    }
}

/// One check over every ladder: logged, and recorded for `/metrics`.
fn check_now(state: &AppState, violated: &AtomicBool) {
    let report = match state.connection() {
        Ok(store) => integrity::check(&store, &Which::All, CheckOptions::default()),
        // Said by the pool already; tried again at the next minute.
        Err(_) => return,
    };
    let report = match report {
        Ok(r) => r,
        Err(e) => {
            tracing::warn!("cannot check the database's invariants (tried again in a minute): {e}");
            return;
        }
    };
    for (invariant, line) in report.violation_lines() {
        tracing::error!(invariant, "invariant violated: {line}");
    }
    if !report.holds() {
        tracing::error!(
            violations = report.violations,
            "the database's invariants do not hold: {} violations (`ludus ladder check` lists them, `ludus ladder repair` re-rates the ladders whose ratings do not hold)",
            report.violations
        );
    } else if violated.load(Ordering::Relaxed) {
        tracing::info!("the database's invariants hold again");
    }
    tracing::debug!(
        ladders = report.ladders.len(),
        violations = report.violations,
        seconds = report.seconds,
        "checked the database's invariants"
    );
    violated.store(!report.holds(), Ordering::Relaxed);
    state.metrics().invariants_checked(InvariantFigures {
        violations: report.violations,
        rating_lag: report
            .rating_lag_by_game()
            .into_iter()
            .map(|(game, lag)| (game.to_string(), lag))
            .collect(),
        seconds: report.seconds,
    });
}
