//! Results waiting to be committed together. A commit's cost on the
//! database is mostly the statement's own, whatever the number of results
//! in it, so results that arrive within [`BATCH_WINDOW`] of each other
//! share one: with short matches a worker commits several at a time; with
//! matches longer than the window, each goes in alone, as it arrives. The
//! worker holds as many matches more than its threads as it waits for
//! results, so that no thread waits for a commit. Batching changes when
//! results are written, never what they are.

use crate::store::MatchResult;
use std::time::{Duration, Instant};

/// A played match's result, waiting to be committed.
pub(super) struct Finished {
    pub(super) ladder: i64,
    pub(super) result: MatchResult,
    pub(super) replay_gz: Vec<u8>,
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
pub(super) struct Batch {
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
    pub(super) fn size(&self) -> usize {
        match self.interval {
            Some(i) if !i.is_zero() => {
                ((BATCH_WINDOW.as_secs_f64() / i.as_secs_f64()) as usize).clamp(1, MAX_BATCH)
            }
            Some(_) => MAX_BATCH,
            None => 1,
        }
    }

    pub(super) fn push(&mut self, finished: Finished) {
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

    pub(super) fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }

    /// Whether to commit now: the batch is full (in results or in bytes)
    /// or its oldest result has waited the window out.
    pub(super) fn due(&self) -> bool {
        self.pending.len() >= self.size()
            || self.bytes >= MAX_BATCH_BYTES
            || self.since.is_some_and(|s| s.elapsed() >= BATCH_WINDOW)
    }

    /// When the oldest pending result has waited the window out.
    pub(super) fn deadline(&self) -> Option<Instant> {
        self.since.map(|s| s + BATCH_WINDOW)
    }

    /// The results waiting, to commit: [`Batch::take`] them once they
    /// are in (a commit that failed and is tried again sends them again).
    pub(super) fn pending(&self) -> &[Finished] {
        &self.pending
    }

    pub(super) fn take(&mut self) -> Vec<Finished> {
        self.since = None;
        self.bytes = 0;
        std::mem::take(&mut self.pending)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn finished(index: u32) -> Finished {
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
    pub(super) fn a_batch_waits_for_as_many_results_as_arrive_in_its_window() {
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
