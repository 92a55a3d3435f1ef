//! When a worker applies the ratings of what it played. Elo goes on from
//! the stored ratings over the new results alone, so it is applied every
//! [`ELO_EVERY`] while results come in: the leaderboard stays that close
//! behind the last result. Bradley-Terry and Weng-Lin read every rated
//! match of a ladder, so they are fitted less often: no sooner than
//! [`FIT_AT_LEAST`] after the last fit, nor than ten times as long as the
//! last fit took, which keeps their share of a worker's time under a
//! tenth however large the ladder grows. Whenever they are applied, the
//! ratings are the same.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

/// How often a worker applies Elo to what it played, at most.
const ELO_EVERY: Duration = Duration::from_secs(1);

/// The shortest wait between two fits of the slower systems.
const FIT_AT_LEAST: Duration = Duration::from_secs(2);

/// A fit waits this many times as long as the last one took.
const FIT_COST_FACTOR: u32 = 10;

/// What is due now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Due {
    pub(super) ladders: BTreeSet<i64>,
    /// Whether the slower systems are fitted too.
    pub(super) fit: bool,
}

pub(super) struct RatingPace {
    last_elo: Instant,
    last_fit: Instant,
    /// How long the last fits took, together.
    fit_took: Duration,
    /// Ladders with results committed since Elo was applied, and since the
    /// slower systems were fitted.
    unrated: BTreeSet<i64>,
    unfitted: BTreeSet<i64>,
}

impl RatingPace {
    pub(super) fn new() -> RatingPace {
        let now = Instant::now();
        RatingPace {
            last_elo: now,
            last_fit: now,
            fit_took: Duration::ZERO,
            unrated: BTreeSet::new(),
            unfitted: BTreeSet::new(),
        }
    }

    /// Results of these ladders went in.
    pub(super) fn committed(&mut self, ladders: impl Iterator<Item = i64> + Clone) {
        self.unrated.extend(ladders.clone());
        self.unfitted.extend(ladders);
    }

    fn fit_due(&self, now: Instant) -> bool {
        !self.unfitted.is_empty()
            && now.duration_since(self.last_fit)
                >= FIT_AT_LEAST.max(self.fit_took * FIT_COST_FACTOR)
    }

    /// The ladders to rate now, if any, and whether to fit them too.
    pub(super) fn take(&mut self) -> Option<Due> {
        let now = Instant::now();
        if self.fit_due(now) {
            self.last_elo = now;
            self.last_fit = now;
            self.unrated.clear();
            return Some(Due {
                ladders: std::mem::take(&mut self.unfitted),
                fit: true,
            });
        }
        if self.unrated.is_empty() || now.duration_since(self.last_elo) < ELO_EVERY {
            return None;
        }
        self.last_elo = now;
        Some(Due {
            ladders: std::mem::take(&mut self.unrated),
            fit: false,
        })
    }

    /// The fits just done took `took`, together.
    pub(super) fn fitted(&mut self, took: Duration) {
        self.fit_took = took;
        self.last_fit = Instant::now();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_every_second_and_fits_waiting_ten_times_their_cost() {
        let mut pace = RatingPace::new();
        assert_eq!(pace.take(), None, "nothing committed yet");
        pace.committed([7].into_iter());
        assert_eq!(pace.take(), None, "too soon after the start");
        pace.last_elo -= ELO_EVERY;
        let due = pace.take().expect("Elo is due after a second");
        assert_eq!((due.ladders, due.fit), ([7].into(), false));
        assert_eq!(pace.take(), None, "nothing new since");
        pace.committed([7, 8].into_iter());
        pace.last_elo -= ELO_EVERY;
        pace.last_fit -= FIT_AT_LEAST;
        let due = pace.take().expect("the fit is due after its wait");
        assert_eq!((due.ladders, due.fit), ([7, 8].into(), true));
        // A fit that took a second waits ten.
        pace.fitted(Duration::from_secs(1));
        pace.committed([8].into_iter());
        pace.last_elo -= ELO_EVERY;
        pace.last_fit -= Duration::from_secs(9);
        assert_eq!(pace.take().map(|d| d.fit), Some(false), "Elo only");
        pace.committed([8].into_iter());
        pace.last_elo -= ELO_EVERY;
        pace.last_fit -= Duration::from_secs(1);
        assert_eq!(pace.take().map(|d| d.fit), Some(true), "ten seconds on");
    }
}
