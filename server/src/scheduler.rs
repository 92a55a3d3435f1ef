//! What runs beside the routes: the scheduler that tops up every game's
//! continuous ladder and every running challenge, and the in-process
//! worker that plays the queue, challenges' ladders included (on
//! PostgreSQL, `ludus worker`s elsewhere play it too, or alone).

use crate::state::AppState;
use ludus_leaderboard::challenge;
use ludus_leaderboard::continuous::{self, Look};
use ludus_leaderboard::store::{SchedulerLock, Store};
use ludus_leaderboard::worker::{self, WorkerOptions};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// The running background work.
pub struct Background {
    scheduler: tokio::task::JoinHandle<()>,
    worker: Option<tokio::task::JoinHandle<()>>,
}

/// Starts the scheduler and, with `workers > 0`, the in-process worker,
/// which starts again after an error until the server stops. `name` is what
/// the other servers of the database call this one while it schedules.
pub fn start(state: AppState, name: String) -> Background {
    let worker = (state.config().workers > 0).then(|| tokio::spawn(keep_working(state.clone())));
    let scheduler = tokio::spawn(schedule_forever(state, name));
    Background { scheduler, worker }
}

impl Background {
    /// Stops scheduling, and waits for the worker to finish and commit the
    /// matches it holds (the stop flag is already set).
    pub async fn stop(self) {
        self.scheduler.abort();
        let _ = self.scheduler.await;
        if let Some(w) = self.worker {
            let _ = w.await;
        }
    }
}

/// How often a server that does not schedule tries to take the scheduler,
/// and the one that does checks it still holds it: a server that dies is
/// replaced within about this long.
pub const TRY_TO_SCHEDULE_EVERY: Duration = Duration::from_secs(1);

/// How often the scheduler looks at every game's bots even when no upload
/// or retirement told it to (bots stored through another server or by the
/// operator's `ludus submit`).
const LOOK_AT_BOTS_EVERY: Duration = Duration::from_secs(2);

/// Tops up every game's continuous ladder whenever results arrive or bots
/// change, and every [`crate::ServerConfig::schedule_every`] besides: the
/// matches waiting follow the workers ([`continuous::demand`]). Only while
/// this server holds the database's [`SchedulerLock`]: of the servers on
/// one database, one schedules, and another takes over when it goes.
async fn schedule_forever(state: AppState, name: String) {
    let mut bots_looked_at: Option<std::time::Instant> = None;
    let mut seat = Seat::new(SchedulerLock::new(&state.config().db, &name), name);
    let mut tried: Option<std::time::Instant> = None;
    let mut invariants = crate::invariants::Watch::default();
    loop {
        tokio::select! {
            _ = state.wake().notified() => {}
            _ = tokio::time::sleep(state.config().schedule_every) => {}
        }
        if state.stopping().load(Ordering::Relaxed) {
            return;
        }
        // Wall-clock time only paces the scheduler's looks and tries; what
        // it schedules derives from the ladder's seed and indices alone.
        if tried.is_none_or(|t| t.elapsed() >= TRY_TO_SCHEDULE_EVERY) {
            tried = Some(std::time::Instant::now());
            if seat.try_hold().await == Some(Taken::Now) {
                // What changed while another server scheduled.
                bots_looked_at = None;
            }
        }
        if !seat.held() {
            continue;
        }
        // The database's invariants, checked every minute beside.
        invariants.tick(&state);
        let look = match bots_looked_at {
            Some(t) if t.elapsed() < LOOK_AT_BOTS_EVERY && !state.take_bots_changed() => {
                Look::Queue
            }
            _ => {
                state.take_bots_changed();
                bots_looked_at = Some(std::time::Instant::now());
                Look::Bots
            }
        };
        let st = state.clone();
        let done = st
            .with_store({
                let config = state.config().continuous.clone();
                let limits = state.config().challenges;
                move |store| {
                    let mut out = Vec::new();
                    for game in ludus_engine::games() {
                        out.push((game.id, continuous::top_up(store, game, &config, look)));
                    }
                    // Wall-clock time only counts the games of the day; a
                    // challenge's matches derive from its seed alone.
                    let now = ludus_leaderboard::clock::now_unix();
                    let challenges = challenge::top_up(store, &limits, now);
                    Ok((out, challenges))
                }
            })
            .await;
        let (done, challenges) = match done {
            Ok((done, challenges)) => (done, Some(challenges)),
            Err(_) => (Vec::new(), None),
        };
        match challenges {
            Some(Ok(t)) if t.scheduled > 0 || !t.ended.is_empty() => {
                tracing::debug!(scheduled = t.scheduled, ended = ?t.ended, "challenges topped up")
            }
            // Tried again at the next look, a moment later.
            Some(Err(e)) if e.is_transient() => {
                crate::pool::outage_warning(&format!("cannot schedule the challenges now: {e}"))
            }
            Some(Err(e)) => tracing::error!("cannot schedule the challenges: {e}"),
            _ => {}
        }
        for (game, r) in done {
            match r {
                Ok(t) if !t.joined.is_empty() => {
                    tracing::info!(game, joined = ?t.joined, scheduled = t.scheduled, "bots joined the ladder")
                }
                Ok(t) if t.scheduled > 0 => {
                    tracing::debug!(game, scheduled = t.scheduled, "ladder topped up")
                }
                Ok(_) => {}
                Err(e) if e.is_transient() => {
                    crate::pool::outage_warning(&format!("cannot schedule {game} now: {e}"))
                }
                Err(e) => tracing::error!(game, "cannot schedule: {e}"),
            }
        }
    }
}

/// Whether this server holds the scheduler lock, and since when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Taken {
    /// At this try.
    Now,
    /// Since an earlier try.
    Before,
}

/// This server's claim on the scheduler, and what it last told the log
/// about it (each change once, not once a second).
struct Seat {
    /// `None` only while a try runs on a blocking thread.
    lock: Option<SchedulerLock>,
    name: String,
    holder_told: Option<String>,
    failing: bool,
}

impl Seat {
    fn new(lock: SchedulerLock, name: String) -> Seat {
        Seat {
            lock: Some(lock),
            name,
            holder_told: None,
            failing: false,
        }
    }

    fn held(&self) -> bool {
        self.lock.as_ref().is_some_and(|l| l.held())
    }

    /// Takes the lock if it is free, or checks that this server still
    /// holds it; logs who schedules whenever that changes.
    async fn try_hold(&mut self) -> Option<Taken> {
        let was = self.held();
        let mut lock = self.lock.take()?;
        let (lock, outcome) = tokio::task::spawn_blocking(move || {
            let outcome = lock.try_hold().and_then(|held| {
                let holder = if held { None } else { lock.holder()? };
                Ok((held, holder))
            });
            (lock, outcome)
        })
        .await
        .ok()?;
        self.lock = Some(lock);
        let failed = outcome.is_err();
        let taken = match outcome {
            Ok((true, _)) if was => Some(Taken::Before),
            Ok((true, _)) => {
                tracing::info!(server = %self.name, "this server schedules the continuous ladders");
                self.holder_told = None;
                Some(Taken::Now)
            }
            Ok((false, holder)) => {
                if was {
                    tracing::warn!("this server no longer schedules the continuous ladders");
                }
                if was || holder != self.holder_told {
                    let named = holder.clone().unwrap_or_else(|| "no server".into());
                    tracing::info!(holder = %named, "another server schedules the continuous ladders; this one takes over if it goes");
                }
                self.holder_told = holder;
                None
            }
            Err(e) if was => {
                tracing::warn!("this server no longer schedules the continuous ladders: {e}");
                None
            }
            Err(e) if !self.failing => {
                tracing::warn!("cannot ask the database which server schedules (tried again every second): {e}");
                None
            }
            Err(_) => None,
        };
        self.failing = failed;
        taken
    }
}

/// The wait before the in-process worker starts again after its first
/// failure; it doubles with each failure in a row, up to [`LONGEST_WAIT`].
pub const FIRST_WAIT: Duration = Duration::from_secs(1);
/// The longest wait between two starts of a failing worker; a worker that
/// ran this long before failing was healthy, and the waits start over.
pub const LONGEST_WAIT: Duration = Duration::from_secs(60);

/// The waits between starts of a worker that keeps failing: bounded, so a
/// database that comes back is used soon, and growing, so one that does not
/// is not hammered nor the log flooded.
#[derive(Debug, Clone)]
pub struct Backoff {
    next: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff { next: FIRST_WAIT }
    }
}

impl Backoff {
    /// The wait after a failure of a worker that ran for `ran`.
    pub fn after_failure(&mut self, ran: Duration) -> Duration {
        if ran >= LONGEST_WAIT {
            self.next = FIRST_WAIT;
        }
        let wait = self.next;
        self.next = (self.next * 2).min(LONGEST_WAIT);
        wait
    }
}

/// Runs the in-process worker until the server stops, starting it again
/// after each failure (a lost database connection, a lock held too long, a
/// panic), each logged, after a wait from [`Backoff`].
async fn keep_working(state: AppState) {
    let mut backoff = Backoff::default();
    loop {
        // Wall-clock time only paces restarts; it never reaches a match.
        let started = std::time::Instant::now();
        let st = state.clone();
        let outcome = tokio::task::spawn_blocking(move || run_worker(&st)).await;
        let stopping = state.stopping().load(Ordering::Relaxed);
        let why = match outcome {
            Ok(Ok(played)) if stopping => {
                tracing::info!(played, "the in-process worker stopped");
                return;
            }
            Ok(Ok(_)) => "it stopped by itself".to_string(),
            Ok(Err(e)) => format!("{e:#}"),
            Err(e) => format!("it panicked: {e}"),
        };
        if stopping {
            tracing::error!("the in-process worker failed while the server stopped: {why}");
            return;
        }
        let wait = backoff.after_failure(started.elapsed());
        tracing::error!(
            retry_in_s = wait.as_secs_f64(),
            "the in-process worker failed: {why}; it starts again in {wait:?}"
        );
        if !sleep_unless_stopping(&state, wait).await {
            return;
        }
    }
}

/// Sleeps for `wait`, waking early when the server stops; false then.
async fn sleep_unless_stopping(state: &AppState, wait: Duration) -> bool {
    const STEP: Duration = Duration::from_millis(100);
    let end = tokio::time::Instant::now() + wait;
    loop {
        let left = end.saturating_duration_since(tokio::time::Instant::now());
        if state.stopping().load(Ordering::Relaxed) || left.is_zero() {
            break;
        }
        tokio::time::sleep(STEP.min(left)).await;
    }
    !state.stopping().load(Ordering::Relaxed)
}

/// One run of the in-process worker: until the server stops, or an error.
fn run_worker(state: &AppState) -> anyhow::Result<usize> {
    let options = WorkerOptions {
        stop: Some(state.stopping().clone()),
        ..WorkerOptions::new(state.config().workers)
    };
    let store = Store::connect(&state.config().db)?;
    let summary = worker::work(&store, state.sandbox(), &options, |_| {
        state.results_arrived()
    })?;
    Ok(summary.played)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_double_up_to_a_bound_and_start_over_after_a_healthy_run() {
        let mut b = Backoff::default();
        let quick = Duration::from_millis(10);
        let waits: Vec<u64> = (0..9).map(|_| b.after_failure(quick).as_secs()).collect();
        assert_eq!(waits, [1, 2, 4, 8, 16, 32, 60, 60, 60]);
        assert_eq!(b.after_failure(LONGEST_WAIT), FIRST_WAIT);
        assert_eq!(b.after_failure(quick), FIRST_WAIT * 2);
    }
}
