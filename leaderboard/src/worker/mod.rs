//! A worker: the loop that plays a database's scheduled matches, alone or
//! beside other processes and machines. It claims as many matches as it
//! has threads (and a few more, waiting in its queue), plays them on rayon
//! threads (`play`), commits each result with its replay as it arrives
//! (results that come close together go in together, see `batch`),
//! sends its heartbeat and renews its leases five times a lease from a
//! thread and a connection of its own (`heartbeat`: a main loop busy
//! compiling a bot keeps its leases), releasing those of any dead worker of
//! its host as it does, shares its time among the ladders with work
//! (`fair_share`), and applies the
//! ratings of the finished prefix now and then (`pace`). Processes never
//! talk to each other: they meet in the database ([`crate::store::queue`]).
//!
//! Bots are fetched from the database by sha256 and checked against it
//! before they run; each worker compiles a bot once (and keeps it in the
//! module cache of its machine) (`known`).
//!
//! [`work`] is the one way matches of the queue are played: by `ludus
//! worker`, by `ludus ladder run` (through [`crate::ladder::run`]) and by
//! the server's in-process worker.

mod batch;
mod fair_share;
mod heartbeat;
mod known;
mod pace;
mod play;

use crate::error::Error;
use crate::ratings::{self, Fit};
use crate::store::{queue, ClaimNext, Claimed, Committed, MatchResult, Store};
use batch::{Batch, Finished};
use fair_share::FairShare;
use known::Known;
use ludus_host::Sandbox;
use pace::RatingPace;
use play::{InPlay, Job, Played};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How a worker works.
#[derive(Debug, Clone)]
pub struct WorkerOptions {
    /// Matches played at once.
    pub threads: usize,
    /// Only this ladder; the worker stops once every match of it is done.
    pub ladder: Option<i64>,
    /// How long a claim holds without a renewal: after a worker dies,
    /// its matches wait this long before another worker takes them.
    pub lease: Duration,
    /// Without a ladder: stop when no ladder has work left, instead of
    /// waiting for new ones.
    pub until_idle: bool,
    /// Set from elsewhere (a server shutting down, a signal): the worker
    /// claims no more, stops the matches it plays between two answers,
    /// commits those that had finished, releases the others' leases
    /// without spending an attempt, and returns.
    pub stop: Option<Arc<AtomicBool>>,
}

/// The ladder's match at `index` played again exactly as a worker plays
/// it (the same bots by sha256, seats, seed, config and limits): its
/// replay. [`Error::Refused`] when this build is not the one the ladder
/// needs (another Ludus, rules or wasmtime version), which could not give
/// the same replay.
pub fn play_again(
    store: &Store,
    sandbox: &Sandbox,
    ladder: i64,
    index: u32,
) -> Result<ludus_host::Replay, Error> {
    let mut known = Known::default();
    if known.ladder(store, ladder)?.is_none() {
        let reason = known.refused.remove(&ladder).unwrap_or_default();
        return Err(Error::Refused { ladder, reason });
    }
    let (scheduled, _) = store
        .results()
        .at(ladder, index)?
        .ok_or_else(|| Error::StoredLadder {
            ladder,
            reason: format!("it has no match {index}"),
        })?;
    let claimed = Claimed {
        ladder,
        index,
        group: scheduled.group,
        seed: scheduled.seed,
        seats: scheduled.seats,
        attempt: 0,
        verify: false,
    };
    play::replay(&known.job(store, sandbox, claimed)?)
}

/// The default lease, five seconds: a worker killed on another machine
/// has its matches played elsewhere about five seconds after it died (a
/// lease from its last heartbeat or claim), so the rated prefix waits
/// seconds for them, not a minute. Its heartbeat comes every second
/// ([`queue::HEARTBEATS_PER_LEASE`]), and the lease outlives four missed
/// ones. A heartbeat is two small updates through indexes and one read of
/// the host's silent workers, on a thread of its own (a worker loop busy
/// compiling a large bot still beats): a hundred workers make a hundred
/// heartbeats a second, a fraction of what their commits ask at a few
/// matches a second each. A machine whose database answers slowly gets a
/// longer `--lease`; a lease that runs out costs the matches in hand being
/// played twice, to the same result, never a lost or a different one.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(5);

/// The first wait before a step that failed transiently is tried again;
/// it doubles up to [`LAST_RETRY`], so a database that comes back is used
/// within seconds, and one that does not is not hammered.
const FIRST_RETRY: Duration = Duration::from_millis(100);
const LAST_RETRY: Duration = Duration::from_secs(5);

/// Runs `step` until it succeeds or fails with an error that trying again
/// cannot mend ([`Error::is_transient`]): a deadlock, a lock past its
/// timeout, a lost connection (connected again), a database restarting.
/// The waits grow from [`FIRST_RETRY`] to [`LAST_RETRY`]; once `stop` is
/// set it tries once more and gives up. Logged at the first failure and
/// then once each longest wait, not at every try.
fn with_retries<T>(
    store: &Store,
    stop: Option<&AtomicBool>,
    worker: Option<i64>,
    what: &str,
    mut step: impl FnMut() -> Result<T, Error>,
) -> Result<T, Error> {
    let stopping = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
    let mut wait = FIRST_RETRY;
    let mut tries = 0u32;
    loop {
        match step() {
            Ok(v) => {
                if tries > 0 {
                    tracing::info!(worker, tries, "{what}: the database answers again");
                }
                return Ok(v);
            }
            Err(e) if e.is_transient() && !(stopping() && tries > 0) => {
                tries += 1;
                if tries == 1 || wait == LAST_RETRY {
                    tracing::warn!(
                        worker,
                        tries,
                        retry_in_ms = wait.as_millis() as u64,
                        "{what}: {e}; trying again"
                    );
                }
                std::thread::sleep(wait);
                wait = (wait * 2).min(LAST_RETRY);
                mend(store, &e, worker);
            }
            Err(e) => return Err(e),
        }
    }
}

/// Connects `store` again when `e` says its connection was lost (with the
/// worker's setting of it, [`Store::plan_statements_once`]).
fn mend(store: &Store, e: &Error, worker: Option<i64>) {
    if e.connection_lost() || store.connection_lost() {
        let again = store
            .reconnect()
            .and_then(|()| store.plan_statements_once(true));
        if let Err(e) = again {
            tracing::debug!(worker, "cannot connect again yet: {e}");
        }
    }
}

impl WorkerOptions {
    pub fn new(threads: usize) -> WorkerOptions {
        WorkerOptions {
            threads: threads.max(1),
            ladder: None,
            lease: DEFAULT_LEASE,
            until_idle: false,
            stop: None,
        }
    }

    /// How long to wait before looking for work again when there is none:
    /// short, as a continuous ladder's scheduler tops its queue up as
    /// results come in, and a worker that slept through that would idle.
    fn poll(&self) -> Duration {
        (self.lease / 4).clamp(Duration::from_millis(50), Duration::from_millis(250))
    }
}

/// Progress of a ladder, as one worker sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub ladder: i64,
    /// Matches with a result, by any worker, earlier runs included.
    pub done: usize,
    pub total: usize,
    /// Matches that had a result when this worker first saw the ladder.
    pub resumed: usize,
    /// Matches this worker committed.
    pub played_here: usize,
}

/// What a worker did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    pub worker: i64,
    /// Results committed.
    pub played: usize,
    /// Results that another worker had committed first, the same.
    pub duplicates: usize,
    /// Statements (transactions on SQLite) that committed results: fewer
    /// than the results when results that came close together went in
    /// together.
    pub commits: usize,
    /// Integrity events this worker's results caused.
    pub integrity_events: usize,
    /// Ladders it refused, with the reason.
    pub refused: Vec<(i64, String)>,
    /// Time its threads spent playing each ladder's matches.
    pub busy: BTreeMap<i64, Duration>,
}

impl Summary {
    /// `ladder 3 12.5 s, ladder 4 12.1 s`: where its time went.
    pub fn describe_busy(&self) -> String {
        self.busy
            .iter()
            .map(|(ladder, d)| format!("ladder {ladder} {:.1} s", d.as_secs_f64()))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Works as a new worker until its ladder is done (or, without one, until
/// no ladder has work when `until_idle`, else forever). Its leases are
/// released when it stops, however the loop ended.
pub fn work(
    store: &Store,
    sandbox: &Sandbox,
    options: &WorkerOptions,
    mut on_progress: impl FnMut(&Progress),
) -> Result<Summary, Error> {
    // A database restarting or out of reach is waited for; an unknown
    // ladder is named before the worker registers.
    let stop = options.stop.as_deref();
    let worker = with_retries(store, stop, None, "start the worker", || {
        if let Some(id) = options.ladder {
            store.ladders().get(id)?;
        }
        // A killed worker of this machine holds nothing up for the next one.
        store.queue().reap_local_workers(true)?;
        let worker =
            store
                .queue()
                .register_worker(options.threads, options.ladder, options.lease)?;
        store.plan_statements_once(true)?;
        Ok(worker)
    })?;
    tracing::info!(worker, threads = options.threads, "worker started");
    let holds = heartbeat::Holds::default();
    let heartbeat = with_retries(store, stop, Some(worker), "start the heartbeat", || {
        heartbeat::Heartbeat::start(store.location(), worker, options.lease, holds.clone())
    })?;
    let mut run = Run {
        store,
        sandbox,
        options,
        worker,
        heartbeat: &heartbeat,
        holds,
        known: Known::default(),
        share: FairShare::default(),
        summary: Summary {
            worker,
            ..Summary::default()
        },
    };
    let outcome = run.run(&mut on_progress);
    let mut summary = std::mem::take(&mut run.summary);
    summary.refused = std::mem::take(&mut run.known.refused).into_iter().collect();
    summary.busy = std::mem::take(&mut run.share.spent);
    if !summary.busy.is_empty() {
        tracing::info!(worker, "time spent playing: {}", summary.describe_busy());
    }
    heartbeat.stop();
    let ended = match &outcome {
        Ok(()) => store.queue().stop_worker(worker),
        Err(e) => store.queue().crash_worker(worker, &e.to_string()),
    };
    if let Err(e) = ended {
        tracing::warn!(worker, "could not record the worker's end: {e}");
    }
    if let Err(e) = store.plan_statements_once(false) {
        tracing::warn!(worker, "could not reset the connection's planning: {e}");
    }
    outcome.map(|()| summary)
}

struct Run<'a> {
    store: &'a Store,
    sandbox: &'a Sandbox,
    options: &'a WorkerOptions,
    worker: i64,
    heartbeat: &'a heartbeat::Heartbeat,
    /// What the heartbeat renews: the matches claimed and not yet
    /// committed or given back.
    holds: heartbeat::Holds,
    known: Known,
    share: FairShare,
    summary: Summary,
}

impl Run<'_> {
    fn run(&mut self, on_progress: &mut impl FnMut(&Progress)) -> Result<(), Error> {
        let threads = self.options.threads.max(1);
        let mut in_play = InPlay::new(threads, self.options.stop.clone())?;
        if let Some(id) = self.options.ladder {
            self.known.ladder(self.store, id)?;
            if let Some(reason) = self.known.refused.get(&id) {
                return Err(Error::Refused {
                    ladder: id,
                    reason: reason.clone(),
                });
            }
            on_progress(&self.known.ladders[&id].progress);
        }
        let mut batch = Batch::default();
        let renew = queue::renew_every(self.options.lease);
        let mut next_renew = Instant::now() + renew;
        let mut pace = RatingPace::new();
        loop {
            let stopping = self.stopping();
            // As many matches more than threads as the batch waits for
            // results (one at least): they wait in the pool's queue, so a
            // thread that finishes starts its next match at once while
            // results go in and the next claim comes back; the database's
            // round trips are off the matches' path.
            let held = if stopping { 0 } else { threads + batch.size() };
            // Results go in when the batch is due, when a thread would
            // otherwise wait for work, and before the worker stops; the
            // same statement claims what the freed threads play next.
            if !batch.is_empty() && (batch.due() || in_play.count < threads || stopping) {
                let want = held.saturating_sub(in_play.count);
                // A commit that failed is tried again with the same
                // results: one that went in is found the same.
                let committed = self.retrying("commit results", |run| {
                    run.commit(batch.pending(), want, on_progress)
                });
                match committed {
                    Ok(jobs) => {
                        for f in batch.take() {
                            self.holds.release(f.ladder, f.result.index);
                        }
                        for job in jobs {
                            self.start(&mut in_play, job);
                        }
                        pace.committed(self.known.ladders.keys().copied());
                    }
                    Err(e) if e.is_transient() && stopping => {
                        tracing::warn!(
                            worker = self.worker,
                            "results not committed as the worker stops: {e}"
                        );
                        for f in batch.take() {
                            self.holds.release(f.ladder, f.result.index);
                        }
                    }
                    Err(e) => return Err(e),
                }
            }
            if stopping && in_play.count == 0 && batch.is_empty() {
                break;
            }
            if in_play.count < held && batch.is_empty() {
                for job in self.retrying("claim matches", |run| run.claim(held - in_play.count))? {
                    self.start(&mut in_play, job);
                }
            }
            if in_play.count == 0
                && batch.is_empty()
                && self.retrying("look for work", |run| run.finished())?
            {
                break;
            }
            let mut wait = next_renew
                .saturating_duration_since(Instant::now())
                .min(self.options.poll());
            if let Some(deadline) = batch.deadline() {
                wait = wait.min(deadline.saturating_duration_since(Instant::now()));
            }
            if let Some(played) = in_play.next(wait) {
                self.share.spend(played.ladder, played.took);
                let (ladder, index) = (played.ladder, played.index);
                match self.finished_match(played)? {
                    Some(finished) => batch.push(finished),
                    None => self.holds.release(ladder, index),
                }
            }
            if Instant::now() >= next_renew {
                self.retrying("renew", |run| run.renew(on_progress))?;
                next_renew = Instant::now() + renew;
            }
            if let Some(due) = pace.take() {
                let started = Instant::now();
                for id in due.ladders {
                    // Rated later when another process rates now, or the
                    // database is away: the worker goes on playing.
                    if let Err(e) = self.rate(id, due.fit) {
                        self.transient_or(e, "rate")?;
                    }
                }
                if due.fit {
                    pace.fitted(started.elapsed());
                }
            }
        }
        for id in self.known.ladders.keys().copied().collect::<Vec<_>>() {
            match self.retrying("rate", |run| run.rate(id, true)) {
                Err(e) if e.is_transient() && self.stopping() => {
                    tracing::warn!(
                        worker = self.worker,
                        ladder = id,
                        "ladder not rated as the worker stops (the next rating covers it): {e}"
                    );
                }
                other => other?,
            }
        }
        Ok(())
    }

    /// [`with_retries`] for a step of the loop.
    fn retrying<T>(
        &mut self,
        what: &str,
        mut step: impl FnMut(&mut Self) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let (store, stop, worker) = (self.store, self.options.stop.clone(), self.worker);
        with_retries(store, stop.as_deref(), Some(worker), what, || step(self))
    }

    /// Connects again when `e` says the connection was lost.
    fn mend(&mut self, e: &Error) {
        mend(self.store, e, Some(self.worker));
    }

    /// `Ok` for a transient error (logged at debug, the connection mended),
    /// the error otherwise.
    fn transient_or(&mut self, e: Error, what: &str) -> Result<(), Error> {
        if !e.is_transient() {
            return Err(e);
        }
        tracing::debug!(worker = self.worker, "{what}: {e}; later");
        self.mend(&e);
        Ok(())
    }

    fn stopping(&self) -> bool {
        self.options
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// At each heartbeat's interval: the heartbeat still beats (on its own
    /// thread, [`heartbeat`]: the worker's leases run for another lease, and
    /// the leases of a dead worker of this host are released, so a killed
    /// sibling holds up the ladder's rated prefix only seconds), and the
    /// progress of the worker's ladders is read again.
    fn renew(&mut self, on_progress: &mut impl FnMut(&Progress)) -> Result<(), Error> {
        self.heartbeat.check()?;
        for id in self.known.ladders.keys().copied().collect::<Vec<_>>() {
            self.known.refresh(self.store, id)?;
            on_progress(&self.known.ladders[&id].progress);
        }
        Ok(())
    }

    /// Applies the ratings of ladder `id`'s finished prefix, and prunes its
    /// replays as its policy says ([`crate::retention`]). Its statements
    /// run now and then over ranges of the ladder, so they are planned for
    /// the values at hand, unlike the worker's own (see
    /// [`Store::plan_statements_once`]).
    fn rate(&mut self, id: i64, fit: bool) -> Result<(), Error> {
        self.store.plan_statements_once(false)?;
        let fit = if fit { Fit::Now } else { Fit::Later };
        let end = ratings::apply_with(self.store, id, fit)?;
        // Replays past the policy's recent ones go as the prefix moves on.
        if let Some(l) = self.known.ladders.get(&id) {
            crate::retention::prune(self.store, id, l.record.keep_replays, end)?;
        }
        self.store.plan_statements_once(true)?;
        Ok(())
    }

    /// Whether the worker is done: its ladder has no match left (a match
    /// another worker holds is not done), or, without a ladder and with
    /// `until_idle`, no ladder it may play has.
    fn finished(&mut self) -> Result<bool, Error> {
        match self.options.ladder {
            Some(id) => Ok(self.store.queue().remaining(id)? == 0),
            None if self.options.until_idle => Ok(self
                .store
                .queue()
                .ladders_with_work()?
                .iter()
                .all(|id| self.known.refused.contains_key(id))),
            None => Ok(false),
        }
    }

    /// Claims up to `n` matches, from this worker's ladder or from the
    /// oldest ladders with work it may play.
    fn claim(&mut self, n: usize) -> Result<Vec<Job>, Error> {
        let jobs = self.claim_once(n)?;
        if jobs.is_empty() && self.store.queue().reap_local_workers(false)? > 0 {
            return self.claim_once(n);
        }
        Ok(jobs)
    }

    fn claim_once(&mut self, n: usize) -> Result<Vec<Job>, Error> {
        let candidates = match self.options.ladder {
            Some(id) => vec![id],
            None => {
                self.share.refresh(self.store)?;
                self.share.order()
            }
        };
        let mut jobs = Vec::new();
        for id in candidates {
            if jobs.len() >= n {
                break;
            }
            if self.known.ladder(self.store, id)?.is_none() {
                continue;
            }
            let claimed =
                self.store
                    .queue()
                    .claim(self.worker, id, n - jobs.len(), self.options.lease)?;
            for c in claimed {
                jobs.push(self.job(c)?);
            }
        }
        Ok(jobs)
    }

    fn job(&mut self, claimed: Claimed) -> Result<Job, Error> {
        self.known.job(self.store, self.sandbox, claimed)
    }

    /// Starts `job`, which the worker now holds until its result is
    /// committed or it is given back.
    fn start(&self, in_play: &mut InPlay, job: Job) {
        self.holds.hold(job.claimed.ladder, job.claimed.index);
        in_play.start(job);
    }

    /// The least served ladder to claim from, among those that had work
    /// when last asked and that this worker can play.
    fn next_ladder(&mut self) -> Result<Option<i64>, Error> {
        self.share.refresh_if_stale(self.store)?;
        let (order, known, store) = (self.share.order(), &mut self.known, self.store);
        for id in order {
            if known.ladder(store, id)?.is_some() {
                return Ok(Some(id));
            }
        }
        Ok(None)
    }

    /// A played match's result, to be committed; `None` for a match that
    /// was not played or not finished (the worker is stopping) or that the
    /// host could not play: it goes back to the queue at once (after a few
    /// such attempts it is void).
    fn finished_match(&mut self, played: Played) -> Result<Option<Finished>, Error> {
        match played.outcome {
            None => Ok(None),
            Some(Ok((result, replay_gz))) => Ok(Some(Finished {
                ladder: played.ladder,
                result,
                replay_gz,
            })),
            Some(Err(e)) => {
                tracing::warn!(
                    ladder = played.ladder,
                    index = played.index,
                    "cannot play the match, it goes back to the queue: {e}"
                );
                // When the database is away, its lease runs out instead.
                let released = self
                    .store
                    .queue()
                    .release(self.worker, played.ladder, played.index);
                if let Err(e) = released {
                    self.transient_or(e.into(), "give the match back")?;
                }
                Ok(None)
            }
        }
    }

    /// Commits played matches (one statement per ladder among them) and
    /// claims up to `want` more with the last, from this worker's ladder
    /// or, for a worker of every ladder, from the next one in turn; the
    /// jobs claimed.
    fn commit(
        &mut self,
        finished: &[Finished],
        want: usize,
        on_progress: &mut impl FnMut(&Progress),
    ) -> Result<Vec<Job>, Error> {
        let mut by_ladder: BTreeMap<i64, Vec<&Finished>> = BTreeMap::new();
        for f in finished {
            by_ladder.entry(f.ladder).or_default().push(f);
        }
        let claim_from = match self.options.ladder {
            Some(id) => id,
            None => match self.next_ladder()? {
                Some(id) => id,
                None => *by_ladder.keys().next().expect("results to commit"),
            },
        };
        let groups = by_ladder.len();
        let mut claimed = Vec::new();
        for (k, (ladder, group)) in by_ladder.into_iter().enumerate() {
            let results: Vec<(&MatchResult, &[u8])> = group
                .iter()
                .map(|f| (&f.result, f.replay_gz.as_slice()))
                .collect();
            let next = ClaimNext {
                ladder: claim_from,
                n: if k + 1 == groups { want } else { 0 },
                lease: self.options.lease,
            };
            let (committed, c) =
                self.store
                    .queue()
                    .commit_many_and_claim(self.worker, ladder, &results, &next)?;
            self.summary.commits += 1;
            claimed.extend(c);
            for (f, committed) in group.iter().zip(committed) {
                self.note(ladder, f.result.index, committed, on_progress);
            }
        }
        claimed.into_iter().map(|c| self.job(c)).collect()
    }

    /// What became of a committed result, in the summary and the progress.
    fn note(
        &mut self,
        ladder: i64,
        index: u32,
        committed: Committed,
        on_progress: &mut impl FnMut(&Progress),
    ) {
        match committed {
            Committed::Recorded => {
                self.summary.played += 1;
                if let Some(l) = self.known.ladders.get_mut(&ladder) {
                    l.progress.done = (l.progress.done + 1).min(l.progress.total);
                    l.progress.played_here += 1;
                    on_progress(&l.progress);
                }
            }
            Committed::Same => self.summary.duplicates += 1,
            Committed::Differs { event } => {
                self.summary.integrity_events += 1;
                tracing::warn!(
                    ladder,
                    index,
                    "this worker's result differs from the one kept: integrity event {event}"
                );
            }
            Committed::Verified { verdict } => {
                tracing::warn!(ladder, index, "{verdict}");
            }
        }
    }
}
