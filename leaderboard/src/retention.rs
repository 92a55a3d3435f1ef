//! Which replays a ladder keeps. Every match keeps what re-running it
//! takes (its seed, its ladder's config and versions, each seat's bot by
//! sha256), its result and its replay's sha256, so a replay is a cache of
//! a computation: a ladder's policy says which ones are stored, and any
//! other is played again on request ([`crate::replays`]).
//!
//! A policy is `all`, `none`, or a combination of `recent:N` (the replays
//! of the ladder's last N matches, by schedule order, counted back from
//! the end of its finished prefix) and `faults` (every match in which a
//! seat faulted), written `recent:1000,faults`.

use crate::error::Error;
pub use crate::store::KeepReplays;
use crate::store::{MatchResult, Store};

impl KeepReplays {
    /// Whether a worker stores the replay of a match with `result` when it
    /// commits it. A recent match is stored; [`prune`] removes it once it
    /// is no longer among the last N.
    pub fn stores(&self, result: &MatchResult) -> bool {
        self.all || self.recent.is_some() || (self.faults && faulted(result))
    }
}

/// Whether a seat of the match faulted.
pub fn faulted(result: &MatchResult) -> bool {
    result.faults.iter().any(|&n| n > 0)
}

/// Removes the replays the ladder's policy `keep` no longer keeps: with
/// `recent:N`, those of the matches more than N before `end`, the end of
/// the ladder's finished prefix (as rating it just found it) (but those with a fault under `faults`), from
/// where the last pruning stopped. Returns how many were removed. Any
/// process may run it at any time: it holds the ladder's rating lock
/// ([`Store::with_rating_lock`]), so one process prunes a ladder at a
/// time, and one that finds another pruning (or frozen while it prunes,
/// holding the rows it deletes) gives up at once with a transient error
/// and prunes later, instead of waiting on those rows with every worker
/// that rated the ladder.
pub fn prune(store: &Store, ladder: i64, keep: KeepReplays, end: u32) -> Result<u64, Error> {
    let Some(n) = keep.recent.filter(|_| !keep.all) else {
        return Ok(0);
    };
    let cut = end.saturating_sub(n);
    // Nothing to do is found without the lock; under it, found again.
    if cut <= store.ladders().replays_pruned_below(ladder)? {
        return Ok(0);
    }
    store.with_rating_lock(ladder, |store| {
        let from = store.ladders().replays_pruned_below(ladder)?;
        if cut <= from {
            return Ok(0);
        }
        Ok(store
            .results()
            .prune_replays(ladder, from, cut, keep.faults)?)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policies_read_and_print_the_same() {
        for (text, printed) in [
            ("all", "all"),
            ("none", "none"),
            ("recent:1000", "recent:1000"),
            ("faults", "faults"),
            ("recent:1000,faults", "recent:1000,faults"),
            ("faults, recent:5", "recent:5,faults"),
        ] {
            let p: KeepReplays = text.parse().unwrap();
            assert_eq!(p.to_string(), printed, "{text}");
            assert_eq!(printed.parse::<KeepReplays>().unwrap(), p);
        }
        assert_eq!(
            KeepReplays::default().to_string(),
            "recent:1000,faults",
            "the default"
        );
    }

    #[test]
    fn nonsense_is_refused_with_what_is_expected() {
        for bad in [
            "",
            "some",
            "recent:",
            "recent:x",
            "recent:0",
            "all,faults",
            "none,recent:3",
            "all,none",
        ] {
            let e = bad.parse::<KeepReplays>().expect_err(bad);
            assert!(
                e.contains("expected") || e.contains("recent:") || e.contains("none"),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn what_a_worker_stores() {
        let clean = MatchResult {
            faults: vec![0, 0],
            ..MatchResult::default()
        };
        let faulty = MatchResult {
            faults: vec![0, 3],
            ..MatchResult::default()
        };
        let p = |s: &str| s.parse::<KeepReplays>().unwrap();
        assert!(p("all").stores(&clean));
        assert!(!p("none").stores(&faulty));
        assert!(!p("faults").stores(&clean));
        assert!(p("faults").stores(&faulty));
        assert!(p("recent:10").stores(&clean), "pruned later, not at once");
    }
}
