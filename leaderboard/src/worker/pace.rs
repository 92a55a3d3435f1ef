//! When a worker applies the ratings of what it played. Applying them reads
//! the ladder's whole finished prefix, so they wait until the prefix has
//! grown by a share of itself (which keeps their cost a match the same
//! whatever the ladder's size), or a minute; the ratings are the same
//! whenever they are applied.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

/// How often a worker applies the ratings of what it played, at most.
const RATING_EVERY: Duration = Duration::from_secs(5);

/// How long a worker that plays lets the ratings wait, at most.
const RATING_AT_LEAST: Duration = Duration::from_secs(60);

/// Between those, ratings are applied once the worker has played this
/// share of what was done when they were last applied.
const RATING_GROWTH: f64 = 0.1;

pub(super) struct RatingPace {
    last: Instant,
    /// Matches done in the worker's ladders when the ratings were last
    /// applied, and the worker's results committed by then.
    done_then: usize,
    played_then: usize,
    /// Ladders with results committed since.
    dirty: BTreeSet<i64>,
}

impl RatingPace {
    pub(super) fn new() -> RatingPace {
        RatingPace {
            last: Instant::now(),
            done_then: 0,
            played_then: 0,
            dirty: BTreeSet::new(),
        }
    }

    /// Results of these ladders went in.
    pub(super) fn committed(&mut self, ladders: impl Iterator<Item = i64>) {
        self.dirty.extend(ladders);
    }

    /// Whether to apply the ratings now, the worker having committed
    /// `played` results in all.
    pub(super) fn due(&self, played: usize) -> bool {
        let elapsed = self.last.elapsed();
        let grown = played - self.played_then;
        elapsed >= RATING_EVERY
            && !self.dirty.is_empty()
            && (grown as f64 >= RATING_GROWTH * self.done_then as f64 || elapsed >= RATING_AT_LEAST)
    }

    /// The ladders to rate now; `played` and `done` are the counts as the
    /// ratings are applied.
    pub(super) fn take(&mut self, played: usize, done: usize) -> BTreeSet<i64> {
        self.last = Instant::now();
        self.played_then = played;
        self.done_then = done;
        std::mem::take(&mut self.dirty)
    }
}
