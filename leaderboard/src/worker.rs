//! A worker: the loop that plays a database's scheduled matches, alone or
//! beside other processes and machines. It claims as many matches as it
//! has threads (and a few more, waiting in its queue), plays them on rayon
//! threads, commits each result with its replay as it arrives (results
//! that come close together go in together, see [`Batch`]), renews its
//! leases and heartbeat every third of a lease, and applies the ratings of
//! the finished prefix under the ladder's rating lock. Processes never talk to each other: they meet in
//! the database ([`crate::store::queue`]).
//!
//! Bots are fetched from the database by sha256 and checked against it
//! before they run; each worker compiles a bot once (and keeps it in the
//! module cache of its machine).

use crate::ladder::{apply_ratings, LadderError};
use crate::store::{queue, ClaimNext, Claimed, Committed, LadderRecord, MatchResult, Needs, Store};
use ludus_host::{BotModule, Limits, MatchSpec, Sandbox};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
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

/// The default lease: long enough that a loaded machine renews in time,
/// short enough that a lost machine's matches are soon played elsewhere.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(60);

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

    /// How long to wait before looking for work again when there is none.
    fn poll(&self) -> Duration {
        (self.lease / 4).clamp(Duration::from_millis(100), Duration::from_secs(2))
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
}

/// One claimed match, ready to play on any thread.
struct Job {
    claimed: Claimed,
    game: String,
    config: serde_json::Value,
    limits: Limits,
    bots: Vec<Arc<BotModule>>,
    names: Vec<String>,
}

/// A played match, back from its thread.
struct Played {
    ladder: i64,
    index: u32,
    /// `None` for a match the worker's stop interrupted, or that waited in
    /// the pool's queue until then: unfinished, it goes back with the
    /// worker's other leases when the worker stops, without spending an
    /// attempt.
    outcome: Option<Result<(MatchResult, Vec<u8>), LadderError>>,
}

/// How often a worker applies the ratings of what it played, at most.
const RATING_EVERY: Duration = Duration::from_secs(5);

/// How long a worker that plays lets the ratings wait, at most.
const RATING_AT_LEAST: Duration = Duration::from_secs(60);

/// Between those, ratings are applied once the worker has played this
/// share of what was done when they were last applied.
const RATING_GROWTH: f64 = 0.1;

/// A played match's result, waiting to be committed.
struct Finished {
    ladder: i64,
    result: MatchResult,
    replay_gz: Vec<u8>,
}

/// The most results committed together.
const MAX_BATCH: usize = 16;

/// How long a result may wait for others to be committed with it.
const BATCH_WINDOW: Duration = Duration::from_millis(200);

/// Replay bytes a batch holds at most: a bot can make its replays large
/// (long answers, long logs), and a batch is held in memory and sent in one
/// statement.
const MAX_BATCH_BYTES: usize = 8 << 20;

/// Results waiting to be committed together. A commit's cost on the
/// database is mostly the statement's own, whatever the number of results
/// in it, so results that arrive within [`BATCH_WINDOW`] of each other
/// share one: with short matches a worker commits several at a time; with
/// matches longer than the window, each goes in alone, as it arrives. The
/// worker holds as many matches more than its threads as it waits for
/// results, so that no thread waits for a commit. Batching changes when
/// results are written, never what they are.
#[derive(Default)]
struct Batch {
    pending: Vec<Finished>,
    /// Their replays' bytes.
    bytes: usize,
    /// When the oldest pending result arrived.
    since: Option<Instant>,
    last_arrival: Option<Instant>,
    /// Moving average of the time between two results.
    interval: Option<Duration>,
}

impl Batch {
    /// How many results to wait for: as many as arrive in the window.
    fn size(&self) -> usize {
        match self.interval {
            Some(i) if !i.is_zero() => {
                ((BATCH_WINDOW.as_secs_f64() / i.as_secs_f64()) as usize).clamp(1, MAX_BATCH)
            }
            Some(_) => MAX_BATCH,
            None => 1,
        }
    }

    fn push(&mut self, finished: Finished) {
        let now = Instant::now();
        if let Some(last) = self.last_arrival {
            // The average starts at the window (batches of one), so that
            // two results that happen to finish together do not make a
            // worker of long matches hold many.
            let avg = self.interval.unwrap_or(BATCH_WINDOW);
            self.interval = Some(avg.mul_f64(0.5) + (now - last).mul_f64(0.5));
        }
        self.last_arrival = Some(now);
        self.since.get_or_insert(now);
        self.bytes += finished.replay_gz.len();
        self.pending.push(finished);
    }

    fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }

    /// Whether to commit now: the batch is full (in results or in bytes)
    /// or its oldest result has waited the window out.
    fn due(&self) -> bool {
        self.pending.len() >= self.size()
            || self.bytes >= MAX_BATCH_BYTES
            || self.since.is_some_and(|s| s.elapsed() >= BATCH_WINDOW)
    }

    /// When the oldest pending result has waited the window out.
    fn deadline(&self) -> Option<Instant> {
        self.since.map(|s| s + BATCH_WINDOW)
    }

    fn take(&mut self) -> Vec<Finished> {
        self.since = None;
        self.bytes = 0;
        std::mem::take(&mut self.pending)
    }
}

/// What a worker knows of a ladder it plays.
struct Ladder {
    record: LadderRecord,
    limits: Limits,
    progress: Progress,
}

/// Works as a new worker until its ladder is done (or, without one, until
/// no ladder has work when `until_idle`, else forever). Its leases are
/// released when it stops, however the loop ended.
pub fn work(
    store: &mut Store,
    sandbox: &Sandbox,
    options: &WorkerOptions,
    mut on_progress: impl FnMut(&Progress),
) -> Result<Summary, LadderError> {
    let worker = store.register_worker(options.threads, options.ladder, options.lease)?;
    store.plan_statements_once(true)?;
    tracing::info!(worker, threads = options.threads, "worker started");
    let mut run = Run {
        store,
        sandbox,
        options,
        worker,
        ladders: BTreeMap::new(),
        refused: BTreeMap::new(),
        modules: BTreeMap::new(),
        with_work: Vec::new(),
        turn: 0,
        summary: Summary {
            worker,
            ..Summary::default()
        },
    };
    let outcome = run.run(&mut on_progress);
    let mut summary = std::mem::take(&mut run.summary);
    summary.refused = std::mem::take(&mut run.refused).into_iter().collect();
    if let Err(e) = store.stop_worker(worker) {
        tracing::warn!(worker, "could not record the worker's stop: {e}");
    }
    if let Err(e) = store.plan_statements_once(false) {
        tracing::warn!(worker, "could not reset the connection's planning: {e}");
    }
    outcome.map(|()| summary)
}

struct Run<'a> {
    store: &'a mut Store,
    sandbox: &'a Sandbox,
    options: &'a WorkerOptions,
    worker: i64,
    ladders: BTreeMap<i64, Ladder>,
    /// Ladders this worker may not play, and why.
    refused: BTreeMap<i64, String>,
    /// Compiled bots by sha256.
    modules: BTreeMap<String, Arc<BotModule>>,
    /// The ladders with work when last asked (a worker of every ladder).
    with_work: Vec<i64>,
    /// Turns of the claims across those ladders: each claim starts at the
    /// next one, so that no ladder's matches wait for another's to run out.
    turn: usize,
    summary: Summary,
}

impl Run<'_> {
    fn run(&mut self, on_progress: &mut impl FnMut(&Progress)) -> Result<(), LadderError> {
        let threads = self.options.threads.max(1);
        let mut batch = Batch::default();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| LadderError::Threads(threads, e.to_string()))?;
        if let Some(id) = self.options.ladder {
            self.ladder(id)?;
            if let Some(reason) = self.refused.get(&id) {
                return Err(LadderError::Refused {
                    ladder: id,
                    reason: reason.clone(),
                });
            }
            on_progress(&self.ladders[&id].progress);
        }
        let (tx, rx) = mpsc::channel::<Played>();
        let mut in_flight = 0usize;
        let renew = queue::renew_every(self.options.lease);
        let mut next_renew = Instant::now() + renew;
        let mut dirty: BTreeSet<i64> = BTreeSet::new();
        let mut last_rating = Instant::now();
        // Matches done in this worker's ladders when the ratings were last
        // applied, and results it has committed since.
        let (mut done_then, mut played_then) = (0usize, 0usize);
        let stop = self.options.stop.clone();
        let spawn = |job: Job| {
            let tx = tx.clone();
            let stop = stop.clone();
            pool.spawn(move || {
                let played = Played {
                    ladder: job.claimed.ladder,
                    index: job.claimed.index,
                    outcome: play(&job, stop.as_deref()),
                };
                // The receiver only goes away when the worker stops.
                let _ = tx.send(played);
            });
        };
        loop {
            let stopping = self
                .options
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed));
            // As many matches more than threads as the batch waits for
            // results (one at least): they wait in the pool's queue, so a
            // thread that finishes starts its next match at once while
            // results go in and the next claim comes back; the database's
            // round trips are off the matches' path.
            let held = threads + batch.size();
            let want = |in_flight: usize| {
                if stopping {
                    0
                } else {
                    held.saturating_sub(in_flight)
                }
            };
            // Results go in when the batch is due, when a thread would
            // otherwise wait for work, and before the worker stops.
            if !batch.is_empty() && (batch.due() || in_flight < threads || stopping) {
                let finished = batch.take();
                for job in self.commit(finished, want(in_flight), on_progress)? {
                    in_flight += 1;
                    spawn(job);
                }
                dirty.extend(self.ladders.keys().copied());
            }
            if stopping && in_flight == 0 && batch.is_empty() {
                break;
            }
            if in_flight < held && !stopping && batch.is_empty() {
                for job in self.claim(held.saturating_sub(in_flight))? {
                    in_flight += 1;
                    spawn(job);
                }
            }
            if in_flight == 0 && batch.is_empty() && self.finished()? {
                break;
            }
            let mut wait = next_renew
                .saturating_duration_since(Instant::now())
                .min(self.options.poll());
            if let Some(deadline) = batch.deadline() {
                wait = wait.min(deadline.saturating_duration_since(Instant::now()));
            }
            match rx.recv_timeout(wait) {
                Ok(played) => {
                    in_flight -= 1;
                    if let Some(finished) = self.finished_match(played)? {
                        batch.push(finished);
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    unreachable!("the worker holds a sender")
                }
            }
            if Instant::now() >= next_renew {
                self.store.heartbeat(self.worker, self.options.lease)?;
                next_renew = Instant::now() + renew;
                for id in self.ladders.keys().copied().collect::<Vec<_>>() {
                    self.refresh(id)?;
                    on_progress(&self.ladders[&id].progress);
                }
            }
            // Ratings of the finished prefix, now and then while playing.
            // Applying them reads the ladder's whole prefix, so they wait
            // until the prefix has grown by a share of itself (which keeps
            // their cost a match the same whatever the ladder's size), or a
            // minute; the ratings are the same whenever they are applied.
            let elapsed = last_rating.elapsed();
            let played = self.summary.played - played_then;
            if elapsed >= RATING_EVERY
                && !dirty.is_empty()
                && (played as f64 >= RATING_GROWTH * done_then as f64 || elapsed >= RATING_AT_LEAST)
            {
                for id in std::mem::take(&mut dirty) {
                    self.rate(id)?;
                }
                last_rating = Instant::now();
                played_then = self.summary.played;
                done_then = self.ladders.values().map(|l| l.progress.done).sum();
            }
        }
        for id in self.ladders.keys().copied().collect::<Vec<_>>() {
            self.rate(id)?;
        }
        Ok(())
    }

    /// Applies the ratings of ladder `id`'s finished prefix. Its statements
    /// run now and then over ranges of the ladder, so they are planned for
    /// the values at hand, unlike the worker's own (see
    /// [`Store::plan_statements_once`]).
    fn rate(&mut self, id: i64) -> Result<(), LadderError> {
        self.store.plan_statements_once(false)?;
        apply_ratings(self.store, id)?;
        self.store.plan_statements_once(true)?;
        Ok(())
    }

    /// Whether the worker is done: its ladder has no match left (a match
    /// another worker holds is not done), or, without a ladder and with
    /// `until_idle`, no ladder it may play has.
    fn finished(&mut self) -> Result<bool, LadderError> {
        match self.options.ladder {
            Some(id) => Ok(self.store.remaining(id)? == 0),
            None if self.options.until_idle => Ok(self
                .store
                .ladders_with_work()?
                .iter()
                .all(|id| self.refused.contains_key(id))),
            None => Ok(false),
        }
    }

    /// What this worker knows of ladder `id`, looked up once; a ladder
    /// whose needs differ from this build goes to `refused`.
    fn ladder(&mut self, id: i64) -> Result<Option<&Ladder>, LadderError> {
        if self.refused.contains_key(&id) {
            return Ok(None);
        }
        if !self.ladders.contains_key(&id) {
            let record = self.store.ladder(id)?;
            let refusal = match ludus_engine::registry::info(&record.game) {
                Err(_) => Some(format!(
                    "it is a ladder of {}, a game this Ludus does not have",
                    record.game
                )),
                Ok(info) => record
                    .needs
                    .refusal(&Needs::of_this_build(info.rules_version))
                    .map(|d| format!("it needs {d}")),
            };
            if let Some(reason) = refusal {
                tracing::warn!(ladder = id, "this worker cannot play ladder {id}: {reason}");
                self.refused.insert(id, reason);
                return Ok(None);
            }
            let limits: Limits = serde_json::from_value(record.limits.clone()).map_err(|e| {
                LadderError::StoredLadder {
                    ladder: id,
                    reason: format!("its limits do not parse: {e}"),
                }
            })?;
            let total = self.store.schedule_len(id)? as usize;
            let done = total - self.store.remaining(id)? as usize;
            self.ladders.insert(
                id,
                Ladder {
                    record,
                    limits,
                    progress: Progress {
                        ladder: id,
                        done,
                        total,
                        resumed: done,
                        played_here: 0,
                    },
                },
            );
        }
        Ok(self.ladders.get(&id))
    }

    fn refresh(&mut self, id: i64) -> Result<(), LadderError> {
        let total = self.store.schedule_len(id)? as usize;
        let remaining = self.store.remaining(id)? as usize;
        if let Some(l) = self.ladders.get_mut(&id) {
            l.progress.total = total;
            l.progress.done = total - remaining;
        }
        Ok(())
    }

    /// Claims up to `n` matches, from this worker's ladder or from the
    /// oldest ladders with work it may play.
    fn claim(&mut self, n: usize) -> Result<Vec<Job>, LadderError> {
        let jobs = self.claim_once(n)?;
        if jobs.is_empty() && self.store.reap_local_workers()? > 0 {
            return self.claim_once(n);
        }
        Ok(jobs)
    }

    fn claim_once(&mut self, n: usize) -> Result<Vec<Job>, LadderError> {
        let candidates = match self.options.ladder {
            Some(id) => vec![id],
            None => {
                self.with_work = self.store.ladders_with_work()?;
                let mut turned = self.with_work.clone();
                if !turned.is_empty() {
                    let by = self.turn % turned.len();
                    turned.rotate_left(by);
                    self.turn += 1;
                }
                turned
            }
        };
        let mut jobs = Vec::new();
        for id in candidates {
            if jobs.len() >= n {
                break;
            }
            if self.ladder(id)?.is_none() {
                continue;
            }
            let claimed = self
                .store
                .claim(self.worker, id, n - jobs.len(), self.options.lease)?;
            for c in claimed {
                jobs.push(self.job(c)?);
            }
        }
        Ok(jobs)
    }

    fn job(&mut self, claimed: Claimed) -> Result<Job, LadderError> {
        // A continuous ladder gains bots after this worker first read it.
        let known = self.ladders[&claimed.ladder].record.bots.len();
        if claimed.seats.iter().any(|&b| b >= known) {
            let record = self.store.ladder(claimed.ladder)?;
            if let Some(l) = self.ladders.get_mut(&claimed.ladder) {
                l.record = record;
            }
        }
        let l = &self.ladders[&claimed.ladder];
        let (game, config, limits) = (
            l.record.game.clone(),
            l.record.config.clone(),
            l.limits.clone(),
        );
        let seated: Vec<_> = claimed
            .seats
            .iter()
            .map(|&b| {
                l.record
                    .bots
                    .get(b)
                    .cloned()
                    .ok_or_else(|| LadderError::StoredLadder {
                        ladder: claimed.ladder,
                        reason: format!(
                            "match {} seats bot {b}, which it does not have",
                            claimed.index
                        ),
                    })
            })
            .collect::<Result<_, _>>()?;
        let mut bots = Vec::with_capacity(seated.len());
        for b in &seated {
            bots.push(self.module(b)?);
        }
        Ok(Job {
            claimed,
            game,
            config,
            limits,
            bots,
            names: seated.into_iter().map(|b| b.name).collect(),
        })
    }

    /// A bot compiled once per worker: from the module cache when it is
    /// there, else fetched from the database and checked against its sha256.
    fn module(&mut self, bot: &crate::store::BotRecord) -> Result<Arc<BotModule>, LadderError> {
        if let Some(m) = self.modules.get(&bot.sha256) {
            return Ok(m.clone());
        }
        let refused = |e: ludus_host::LoadError| LadderError::Bot {
            name: bot.name.clone(),
            version: bot.version,
            reason: e.to_string(),
        };
        let module = match self
            .sandbox
            .load_compiled(&bot.name, &bot.sha256)
            .map_err(refused)?
        {
            Some(m) => m,
            None => {
                let wasm = self.store.wasm(&bot.sha256)?;
                self.sandbox.load(&bot.name, &wasm).map_err(refused)?
            }
        };
        self.modules.insert(bot.sha256.clone(), module.clone());
        Ok(module)
    }

    /// The ladder whose turn it is to be claimed from, among those that
    /// had work when last asked and that this worker can play.
    fn next_ladder(&mut self) -> Result<Option<i64>, LadderError> {
        for _ in 0..self.with_work.len() {
            let id = self.with_work[self.turn % self.with_work.len()];
            self.turn += 1;
            if self.ladder(id)?.is_some() {
                return Ok(Some(id));
            }
        }
        Ok(None)
    }

    /// A played match's result, to be committed; `None` for a match that
    /// was not played or not finished (the worker is stopping) or that the host could not
    /// play (it goes back to the queue at once; after a few such attempts
    /// it is void).
    fn finished_match(&mut self, played: Played) -> Result<Option<Finished>, LadderError> {
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
                self.store
                    .release(self.worker, played.ladder, played.index)?;
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
        finished: Vec<Finished>,
        want: usize,
        on_progress: &mut impl FnMut(&Progress),
    ) -> Result<Vec<Job>, LadderError> {
        let mut by_ladder: BTreeMap<i64, Vec<Finished>> = BTreeMap::new();
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
                if let Some(l) = self.ladders.get_mut(&ladder) {
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

/// Plays one match; its result and its gzipped replay, or `None` when
/// `stop` was set before it finished (it is checked after every answer, so
/// a stop waits for one bot's turn at most).
fn play(
    job: &Job,
    stop: Option<&AtomicBool>,
) -> Option<Result<(MatchResult, Vec<u8>), LadderError>> {
    let stopped = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
    if stopped() {
        return None;
    }
    let spec = MatchSpec {
        game: job.game.clone(),
        config: job.config.clone(),
        seed: job.claimed.seed,
        limits: job.limits.clone(),
        bots: job.bots.clone(),
    };
    let mut interrupted = false;
    // The flag only decides whether the match goes on, never what happens
    // in it: a match played to its end is the same however many stops
    // interrupted it before.
    let replay = ludus_host::play_until(&spec, |_| {
        interrupted = stopped();
        if interrupted {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    if interrupted {
        return None;
    }
    Some(
        replay
            .map_err(|source| LadderError::Play {
                index: job.claimed.index,
                bots: job.names.join(" vs "),
                source,
            })
            .map(|replay| result_of(job, &replay)),
    )
}

/// A finished match's result and its gzipped replay.
fn result_of(job: &Job, replay: &ludus_host::Replay) -> (MatchResult, Vec<u8>) {
    let (placements, scores, reason) = match &replay.outcome {
        Some(o) => (o.placements.clone(), o.scores.clone(), o.reason.clone()),
        None => (Vec::new(), Vec::new(), String::new()),
    };
    let json = replay.to_bytes(false);
    let result = MatchResult {
        index: job.claimed.index,
        match_id: replay.match_id.clone(),
        placements,
        scores,
        faults: replay
            .fault_counts()
            .into_iter()
            .map(|n| n as u32)
            .collect(),
        turns: replay.turns.len() as u32,
        reason,
        aborted: replay.aborted.clone(),
        replay_sha256: ludus_host::sha256_hex(&json),
    };
    (result, gzip(&json))
}

/// Gzip as replays are written: no timestamp, so the same replay is the
/// same bytes.
fn gzip(json: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut enc = flate2::GzBuilder::new()
        .mtime(0)
        .write(Vec::new(), flate2::Compression::default());
    enc.write_all(json).expect("writing to a Vec");
    enc.finish().expect("writing to a Vec")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finished(index: u32) -> Finished {
        Finished {
            ladder: 1,
            result: MatchResult {
                index,
                ..MatchResult::default()
            },
            replay_gz: Vec::new(),
        }
    }

    #[test]
    fn a_batch_waits_for_as_many_results_as_arrive_in_its_window() {
        let mut batch = Batch::default();
        assert_eq!(batch.size(), 1, "nothing known yet: each result alone");
        batch.push(finished(0));
        assert!(batch.due());
        assert_eq!(batch.take().len(), 1);
        // Two results that finish together: the worker waits for two, not
        // for many.
        batch.push(finished(1));
        assert!(batch.size() <= 2);
        batch.take();
        for (interval, size) in [(500, 1), (200, 1), (48, 4), (40, 5), (1, MAX_BATCH)] {
            batch.interval = Some(Duration::from_millis(interval));
            assert_eq!(batch.size(), size, "results {interval} ms apart");
        }
        batch.interval = Some(Duration::from_millis(40));
        for i in 0..4 {
            batch.push(finished(i));
        }
        // Pushed at once: the average gap shrank, so the batch grew.
        assert!(batch.size() > 5);
        assert!(!batch.due(), "neither full nor old");
        std::thread::sleep(BATCH_WINDOW);
        assert!(batch.due(), "its oldest result waited the window out");
        let taken: Vec<u32> = batch.take().iter().map(|f| f.result.index).collect();
        assert_eq!(taken, [0, 1, 2, 3]);
        assert!(batch.is_empty() && batch.deadline().is_none());
        // Large replays go in without waiting for more.
        let mut large = finished(4);
        large.replay_gz = vec![0; MAX_BATCH_BYTES];
        batch.push(large);
        batch.interval = Some(Duration::from_millis(1));
        assert!(batch.size() > 1 && batch.due());
    }
}
