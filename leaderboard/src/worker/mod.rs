//! A worker: the loop that plays a database's scheduled matches, alone or
//! beside other processes and machines. It claims as many matches as it
//! has threads (and a few more, waiting in its queue), plays them on rayon
//! threads (`play`), commits each result with its replay as it arrives
//! (results that come close together go in together, see `batch`),
//! sends its heartbeat and renews its leases five times a lease from a
//! thread and a connection of its own (`heartbeat`: a main loop busy
//! compiling a bot keeps its leases), releasing those of any dead worker of
//! its host as it does, and applies the
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
mod heartbeat;
mod known;
mod pace;
mod play;

use crate::error::Error;
use crate::ratings::{self, Fit};
use crate::store::{queue, ClaimNext, Claimed, Committed, MatchResult, Store};
use batch::{Batch, Finished};
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
    // An unknown ladder is named before the worker registers.
    if let Some(id) = options.ladder {
        store.ladders().get(id)?;
    }
    // A killed worker of this machine holds nothing up for the next one.
    store.queue().reap_local_workers(true)?;
    let worker = store
        .queue()
        .register_worker(options.threads, options.ladder, options.lease)?;
    store.plan_statements_once(true)?;
    tracing::info!(worker, threads = options.threads, "worker started");
    let heartbeat = heartbeat::Heartbeat::start(store.location(), worker, options.lease)?;
    let mut run = Run {
        store,
        sandbox,
        options,
        worker,
        heartbeat: &heartbeat,
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
    if let Err(e) = store.queue().stop_worker(worker) {
        tracing::warn!(worker, "could not record the worker's stop: {e}");
    }
    if let Err(e) = store.plan_statements_once(false) {
        tracing::warn!(worker, "could not reset the connection's planning: {e}");
    }
    outcome.map(|()| summary)
}

/// The claim policy of a worker of every ladder: each claim goes to the
/// ladder with work that this worker's threads spent the least time on, so
/// that every ladder (every game of a server) gets an equal share of the
/// worker's time: two-second Pirates matches do not starve ten-millisecond
/// Planet Wars matches, nor the reverse. A ladder that comes with work, or
/// comes back to it after a while ([`LEVEL_AFTER`]), starts level with the
/// least served of those that kept theirs, instead of taking every thread
/// until it catches up; one that was without work only for a moment (a
/// queue emptied by a claim, before its scheduler tops it up again) keeps
/// what it is owed.
///
/// Challenges' ladders take the share of the worker's time the server sets
/// (`challenge_share`, [`crate::store::Settings::challenge_share`], read
/// with the ladders that have work) when ordinary ladders have work too,
/// split evenly among them; the others share the rest. Time is compared
/// as time spent over each ladder's weight (its share of the whole).
#[derive(Debug)]
struct FairShare {
    /// The ladders with work when last asked.
    with_work: Vec<i64>,
    /// Those of them that play challenges.
    challenges: Vec<i64>,
    /// The challenges' share of the time, when ordinary ladders have work too.
    share: f64,
    /// Time spent playing each ladder's matches.
    spent: BTreeMap<i64, Duration>,
    /// When the ladders with work were last asked for.
    asked: Option<Instant>,
    /// When each ladder was last seen with work.
    seen: BTreeMap<i64, Instant>,
}

impl Default for FairShare {
    fn default() -> Self {
        FairShare {
            with_work: Vec::new(),
            challenges: Vec::new(),
            share: crate::store::DEFAULT_CHALLENGE_SHARE,
            spent: BTreeMap::new(),
            asked: None,
            seen: BTreeMap::new(),
        }
    }
}

/// How long a worker that keeps claiming as it commits goes on with the
/// ladders it knows to have work before it asks again.
const ASK_FOR_WORK_EVERY: Duration = Duration::from_millis(250);

/// How long a ladder is without work before it is levelled when it comes
/// back ([`FairShare::level`]): longer than a scheduler takes to top up a
/// queue that a claim emptied, so that a challenge, whose few waiting
/// matches a worker claims at once, keeps the time it is owed.
const LEVEL_AFTER: Duration = Duration::from_secs(5);

impl FairShare {
    /// Asks which ladders have work now (and, when challenges do, their
    /// share of the time).
    fn refresh(&mut self, store: &Store) -> Result<(), Error> {
        let now = store.queue().ladders_with_work_and_kind()?;
        let challenges: Vec<i64> = now.iter().filter(|l| l.1).map(|l| l.0).collect();
        if !challenges.is_empty() {
            self.share = store.settings().challenge_share()?;
        }
        self.challenges = challenges;
        let at = Instant::now();
        self.level(now.into_iter().map(|l| l.0).collect(), at);
        self.asked = Some(at);
        Ok(())
    }

    /// Asks again when the answer is older than [`ASK_FOR_WORK_EVERY`]:
    /// a ladder that got work since is seen while this worker keeps busy.
    fn refresh_if_stale(&mut self, store: &Store) -> Result<(), Error> {
        match self.asked {
            Some(t) if t.elapsed() < ASK_FOR_WORK_EVERY => Ok(()),
            _ => self.refresh(store),
        }
    }

    /// The share of the worker's time ladder `id` is due among those with
    /// work: an even split, unless challenges and ordinary ladders both
    /// have work.
    fn weight(&self, id: i64) -> f64 {
        let n = self.with_work.len();
        let c = self.challenges.len();
        if c == 0 || c == n {
            return 1.0 / n.max(1) as f64;
        }
        match self.challenges.contains(&id) {
            true => self.share / c as f64,
            false => (1.0 - self.share) / (n - c) as f64,
        }
    }

    /// Time spent on ladder `id` over its weight: who is least served.
    fn served(&self, id: i64) -> f64 {
        let spent = self.spent.get(&id).copied().unwrap_or_default();
        match self.weight(id) {
            w if w > 0.0 => spent.as_secs_f64() / w,
            _ => f64::INFINITY,
        }
    }

    /// `now` have work, at `at`: those that had none for [`LEVEL_AFTER`]
    /// or more (or never had any) start level with the least served of
    /// those that kept it (with all of them, when none did); those without
    /// work for less keep what they are owed.
    fn level(&mut self, now: Vec<i64>, at: Instant) {
        let recently = |id: &i64| {
            self.seen
                .get(id)
                .is_some_and(|t| at.saturating_duration_since(*t) < LEVEL_AFTER)
        };
        let kept: Vec<i64> = now.iter().copied().filter(recently).collect();
        for &id in &now {
            self.seen.insert(id, at);
        }
        self.with_work = now;
        let served: Vec<f64> = match kept.is_empty() {
            false => kept.iter().map(|&id| self.served(id)).collect(),
            true => self.with_work.iter().map(|&id| self.served(id)).collect(),
        };
        let finite = served.into_iter().filter(|s| s.is_finite());
        let floor = match kept.is_empty() {
            false => finite.reduce(f64::min),
            true => finite.reduce(f64::max),
        };
        let Some(floor) = floor else { return };
        for id in self.with_work.clone() {
            if kept.contains(&id) {
                continue;
            }
            let level = Duration::from_secs_f64(floor * self.weight(id));
            let s = self.spent.entry(id).or_default();
            *s = (*s).max(level);
        }
    }

    /// The ladders with work when last asked, the least served first.
    fn order(&self) -> Vec<i64> {
        let mut order = self.with_work.clone();
        order.sort_by(|a, b| self.served(*a).total_cmp(&self.served(*b)).then(a.cmp(b)));
        order
    }

    /// A thread spent `took` on a match of `ladder`.
    fn spend(&mut self, ladder: i64, took: Duration) {
        *self.spent.entry(ladder).or_default() += took;
    }
}

struct Run<'a> {
    store: &'a Store,
    sandbox: &'a Sandbox,
    options: &'a WorkerOptions,
    worker: i64,
    heartbeat: &'a heartbeat::Heartbeat,
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
                for job in self.commit(batch.take(), want, on_progress)? {
                    in_play.start(job);
                }
                pace.committed(self.known.ladders.keys().copied());
            }
            if stopping && in_play.count == 0 && batch.is_empty() {
                break;
            }
            if in_play.count < held && batch.is_empty() {
                for job in self.claim(held - in_play.count)? {
                    in_play.start(job);
                }
            }
            if in_play.count == 0 && batch.is_empty() && self.finished()? {
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
                if let Some(finished) = self.finished_match(played)? {
                    batch.push(finished);
                }
            }
            if Instant::now() >= next_renew {
                self.renew(on_progress)?;
                next_renew = Instant::now() + renew;
            }
            if let Some(due) = pace.take() {
                let started = Instant::now();
                for id in due.ladders {
                    self.rate(id, due.fit)?;
                }
                if due.fit {
                    pace.fitted(started.elapsed());
                }
            }
        }
        for id in self.known.ladders.keys().copied().collect::<Vec<_>>() {
            self.rate(id, true)?;
        }
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
    /// was not played or not finished (the worker is stopping) or that the host could not
    /// play (it goes back to the queue at once; after a few such attempts
    /// it is void).
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
                self.store
                    .queue()
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
    ) -> Result<Vec<Job>, Error> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_served_ladder_goes_first_and_newcomers_start_level() {
        let ms = Duration::from_millis;
        let t0 = Instant::now();
        let mut share = FairShare::default();
        share.level(vec![1, 2], t0);
        assert_eq!(share.order(), [1, 2], "level at the start: by id");
        share.spend(1, ms(2000));
        share.spend(2, ms(10));
        assert_eq!(share.order(), [2, 1], "a long match puts its ladder behind");
        for _ in 0..250 {
            share.spend(2, ms(10));
        }
        assert_eq!(share.order(), [1, 2], "enough short matches pass it");
        // Ladder 3 arrives: level with the least served that kept work (1,
        // at 2 s), not at zero, which would give it every thread.
        share.level(vec![1, 2, 3], t0 + ms(100));
        assert_eq!(share.spent[&3], ms(2000));
        // Ladder 2 is without work for a moment, and comes back: it keeps
        // what it is owed.
        share.level(vec![1, 3], t0 + ms(200));
        share.spend(1, ms(3000));
        share.spend(3, ms(3000));
        share.level(vec![1, 2, 3], t0 + ms(400));
        assert_eq!(share.spent[&2], ms(2510), "not levelled");
        assert_eq!(share.order()[0], 2, "owed the most, it goes first");
        // Ladder 2 has no work for a while, and comes back: level with
        // the others.
        share.level(vec![1, 3], t0 + ms(500));
        share.spend(1, ms(2000));
        share.spend(3, ms(2000));
        share.level(vec![1, 3], t0 + ms(5500));
        share.level(vec![1, 2, 3], t0 + ms(6000));
        assert_eq!(share.spent[&2], ms(7000), "back level with the others");
    }

    /// Plays `rounds` matches of `took` each, always on the least served
    /// ladder; the time each ladder got.
    fn play(share: &mut FairShare, rounds: usize, took: Duration) -> BTreeMap<i64, Duration> {
        let mut got = BTreeMap::new();
        for _ in 0..rounds {
            let id = share.order()[0];
            share.spend(id, took);
            *got.entry(id).or_insert(Duration::ZERO) += took;
        }
        got
    }

    #[test]
    fn challenges_take_their_share_of_the_time_when_ladders_of_both_kinds_have_work() {
        let ms = Duration::from_millis;
        // Two ordinary ladders (1, 2) and a challenge's (3), a quarter for it.
        let mut share = FairShare {
            challenges: vec![3],
            share: 0.25,
            ..FairShare::default()
        };
        share.level(vec![1, 2, 3], Instant::now());
        let got = play(&mut share, 1000, ms(10));
        assert_eq!(got[&3], ms(2500), "a quarter: {got:?}");
        assert_eq!((got[&1], got[&2]), (ms(3750), ms(3750)), "{got:?}");
        // Two challenges share the half the operator gives them.
        let mut share = FairShare {
            challenges: vec![3, 4],
            share: 0.5,
            ..FairShare::default()
        };
        share.level(vec![1, 3, 4], Instant::now());
        let got = play(&mut share, 1000, ms(10));
        assert_eq!((got[&1], got[&3], got[&4]), (ms(5000), ms(2500), ms(2500)));
        // Challenges alone (or ordinary ladders alone) share evenly.
        let mut share = FairShare {
            challenges: vec![3, 4],
            share: 0.1,
            ..FairShare::default()
        };
        share.level(vec![3, 4], Instant::now());
        let got = play(&mut share, 100, ms(10));
        assert_eq!((got[&3], got[&4]), (ms(500), ms(500)));
        // A share of nothing: challenges wait until nothing else has work.
        let mut share = FairShare {
            challenges: vec![3],
            share: 0.0,
            ..FairShare::default()
        };
        share.level(vec![1, 3], Instant::now());
        assert_eq!(play(&mut share, 50, ms(10)).get(&3), None);
        assert_eq!(share.order(), [1, 3], "still claimable, last");
    }
}
