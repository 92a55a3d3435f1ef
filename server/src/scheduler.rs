//! What runs beside the routes: the scheduler that tops up every game's
//! continuous ladder, and the in-process worker that plays the queue (on
//! PostgreSQL, `ludus worker`s elsewhere play it too, or alone).

use crate::AppState;
use ludus_leaderboard::continuous;
use ludus_leaderboard::store::Store;
use ludus_leaderboard::worker::{self, WorkerOptions};
use std::sync::atomic::Ordering;

/// The running background work.
pub struct Background {
    scheduler: tokio::task::JoinHandle<()>,
    worker: Option<tokio::task::JoinHandle<()>>,
}

/// Starts the scheduler and, with `workers > 0`, the in-process worker.
pub fn start(state: AppState) -> Background {
    let worker = (state.config().workers > 0).then(|| {
        let state = state.clone();
        tokio::task::spawn_blocking(move || run_worker(&state))
    });
    let scheduler = tokio::spawn(schedule_forever(state));
    Background { scheduler, worker }
}

impl Background {
    /// Stops scheduling, and waits for the worker to finish and commit the
    /// matches it holds (the stop flag is already set).
    pub async fn stop(self) {
        self.scheduler.abort();
        if let Some(w) = self.worker {
            let _ = w.await;
        }
    }
}

async fn schedule_forever(state: AppState) {
    let mut tick = tokio::time::interval(state.config().schedule_every);
    loop {
        tick.tick().await;
        if state.stopping().load(Ordering::Relaxed) {
            return;
        }
        let st = state.clone();
        let done = st
            .with_store({
                let config = state.config().continuous.clone();
                move |store| {
                    let mut out = Vec::new();
                    for game in ludus_engine::games() {
                        out.push((game.id, continuous::top_up(store, game, &config)));
                    }
                    Ok(out)
                }
            })
            .await;
        for (game, r) in done.unwrap_or_default() {
            match r {
                Ok(t) if t.scheduled > 0 || !t.joined.is_empty() => {
                    tracing::info!(game, joined = ?t.joined, scheduled = t.scheduled, "ladder topped up")
                }
                Ok(_) => {}
                Err(e) => tracing::error!(game, "cannot schedule: {e}"),
            }
        }
    }
}

fn run_worker(state: &AppState) {
    let options = WorkerOptions {
        stop: Some(state.stopping().clone()),
        ..WorkerOptions::new(state.config().workers)
    };
    let result = Store::connect(&state.config().db)
        .map_err(Into::into)
        .and_then(|mut store| worker::work(&mut store, state.sandbox(), &options, |_| {}));
    match result {
        Ok(s) => tracing::info!(played = s.played, "the in-process worker stopped"),
        Err(e) => tracing::error!("the in-process worker failed: {e}"),
    }
}
