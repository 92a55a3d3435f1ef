//! How a worker of every ladder shares its time among the ladders with
//! work ([`FairShare`]).

use crate::error::Error;
use crate::store::Store;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

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
pub(super) struct FairShare {
    /// The ladders with work when last asked.
    with_work: Vec<i64>,
    /// Those of them that play challenges.
    challenges: Vec<i64>,
    /// The challenges' share of the time, when ordinary ladders have work too.
    share: f64,
    /// Time spent playing each ladder's matches.
    pub(super) spent: BTreeMap<i64, Duration>,
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
    pub(super) fn refresh(&mut self, store: &Store) -> Result<(), Error> {
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
    pub(super) fn refresh_if_stale(&mut self, store: &Store) -> Result<(), Error> {
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
    pub(super) fn order(&self) -> Vec<i64> {
        let mut order = self.with_work.clone();
        order.sort_by(|a, b| self.served(*a).total_cmp(&self.served(*b)).then(a.cmp(b)));
        order
    }

    /// A thread spent `took` on a match of `ladder`.
    pub(super) fn spend(&mut self, ladder: i64, took: Duration) {
        *self.spent.entry(ladder).or_default() += took;
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
