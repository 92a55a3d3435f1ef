//! Playing one claimed match on a worker's thread: its result and its
//! gzipped replay, or nothing when the worker's stop interrupted it.

use crate::error::Error;
use crate::retention::KeepReplays;
use crate::store::{Claimed, MatchResult};
use ludus_host::{BotModule, Limits, MatchSpec};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// One claimed match, ready to play on any thread.
pub(super) struct Job {
    pub(super) claimed: Claimed,
    pub(super) game: String,
    pub(super) config: serde_json::Value,
    pub(super) limits: Limits,
    pub(super) bots: Vec<Arc<BotModule>>,
    pub(super) names: Vec<String>,
    /// Which replays the ladder stores: one it does not is not even
    /// compressed, and the worker sends its sha256 alone.
    pub(super) keep: KeepReplays,
}

/// A played match, back from its thread.
pub(super) struct Played {
    pub(super) ladder: i64,
    pub(super) index: u32,
    /// `None` for a match the worker's stop interrupted, or that waited in
    /// the pool's queue until then: unfinished, it goes back with the
    /// worker's other leases when the worker stops, without spending an
    /// attempt.
    pub(super) outcome: Option<Result<(MatchResult, Vec<u8>), Error>>,
    /// How long its thread spent on it: what the worker's share of time
    /// between ladders counts ([`super::FairShare`]); it never reaches a
    /// match.
    pub(super) took: Duration,
}

/// The matches a worker has in play: a rayon pool of its threads, the
/// matches waiting in the pool's queue, and the channel their results
/// come back on.
pub(super) struct InPlay {
    pool: rayon::ThreadPool,
    tx: mpsc::Sender<Played>,
    rx: mpsc::Receiver<Played>,
    stop: Option<Arc<AtomicBool>>,
    /// Matches started whose result has not come back.
    pub(super) count: usize,
}

impl InPlay {
    pub(super) fn new(threads: usize, stop: Option<Arc<AtomicBool>>) -> Result<InPlay, Error> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| Error::Threads(threads, e.to_string()))?;
        let (tx, rx) = mpsc::channel();
        Ok(InPlay {
            pool,
            tx,
            rx,
            stop,
            count: 0,
        })
    }

    /// Starts `job` on the first free thread.
    pub(super) fn start(&mut self, job: Job) {
        let tx = self.tx.clone();
        let stop = self.stop.clone();
        self.count += 1;
        self.pool.spawn(move || {
            let started = std::time::Instant::now();
            let outcome = play(&job, stop.as_deref());
            let played = Played {
                ladder: job.claimed.ladder,
                index: job.claimed.index,
                outcome,
                took: started.elapsed(),
            };
            // The receiver only goes away when the worker stops.
            let _ = tx.send(played);
        });
    }

    /// The next match to come back, waiting `wait` at most.
    pub(super) fn next(&mut self, wait: Duration) -> Option<Played> {
        match self.rx.recv_timeout(wait) {
            Ok(played) => {
                self.count -= 1;
                Some(played)
            }
            Err(mpsc::RecvTimeoutError::Timeout) => None,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                unreachable!("the worker holds a sender")
            }
        }
    }
}

/// Plays one match to its end, as a worker plays it: its replay. What
/// regenerates a replay the ladder did not store.
pub(super) fn replay(job: &Job) -> Result<ludus_host::Replay, Error> {
    ludus_host::play_until(&job.spec(), |_| ControlFlow::Continue(())).map_err(|source| {
        Error::Play {
            index: job.claimed.index,
            bots: job.names.join(" vs "),
            source,
        }
    })
}

impl Job {
    fn spec(&self) -> MatchSpec {
        MatchSpec {
            game: self.game.clone(),
            config: self.config.clone(),
            seed: self.claimed.seed,
            limits: self.limits.clone(),
            bots: self.bots.clone(),
        }
    }
}

/// Plays one match; its result and its gzipped replay, or `None` when
/// `stop` was set before it finished (it is checked after every answer, so
/// a stop waits for one bot's turn at most).
fn play(job: &Job, stop: Option<&AtomicBool>) -> Option<Result<(MatchResult, Vec<u8>), Error>> {
    let stopped = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
    if stopped() {
        return None;
    }
    let spec = job.spec();
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
            .map_err(|source| Error::Play {
                index: job.claimed.index,
                bots: job.names.join(" vs "),
                source,
            })
            .map(|replay| result_of(job, &replay)),
    )
}

/// A finished match's result and its gzipped replay (empty where the
/// ladder does not store it).
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
        refused: replay
            .refusal_counts()
            .into_iter()
            .map(|n| n as u32)
            .collect(),
    };
    let gz = if job.keep.stores(&result) {
        ludus_host::gzip(&json)
    } else {
        Vec::new()
    };
    (result, gz)
}
