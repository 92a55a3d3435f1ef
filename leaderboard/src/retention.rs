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
use crate::store::{MatchResult, Store};
use std::fmt;
use std::str::FromStr;

/// The replays a ladder stores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct KeepReplays {
    /// Every replay.
    pub all: bool,
    /// The replays of the last N matches.
    pub recent: Option<u32>,
    /// The replays of matches in which a seat faulted.
    pub faults: bool,
}

impl KeepReplays {
    /// Every replay: what ladders written before policies existed keep.
    pub const ALL: KeepReplays = KeepReplays {
        all: true,
        recent: None,
        faults: false,
    };
    /// No replay.
    pub const NONE: KeepReplays = KeepReplays {
        all: false,
        recent: None,
        faults: false,
    };

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

/// The default: the last 1 000 matches of each ladder, and every match in
/// which a seat faulted: the matches people open most are instant.
impl Default for KeepReplays {
    fn default() -> KeepReplays {
        KeepReplays {
            all: false,
            recent: Some(1000),
            faults: true,
        }
    }
}

impl fmt::Display for KeepReplays {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.all {
            return f.write_str("all");
        }
        let mut parts = Vec::new();
        if let Some(n) = self.recent {
            parts.push(format!("recent:{n}"));
        }
        if self.faults {
            parts.push("faults".into());
        }
        if parts.is_empty() {
            return f.write_str("none");
        }
        f.write_str(&parts.join(","))
    }
}

impl FromStr for KeepReplays {
    type Err = String;

    fn from_str(s: &str) -> Result<KeepReplays, String> {
        const EXPECTED: &str = "expected `all`, `none`, `recent:N`, `faults`, or `recent:N,faults`";
        let mut policy = KeepReplays::NONE;
        let (mut all, mut none) = (false, false);
        for part in s.split(',').map(str::trim) {
            match part {
                "all" => all = true,
                "none" => none = true,
                "faults" => policy.faults = true,
                _ => match part.strip_prefix("recent:") {
                    Some(n) => {
                        let n: u32 = n.parse().map_err(|_| {
                            format!("`{part}`: N in `recent:N` is a count of matches, e.g. `recent:1000`")
                        })?;
                        if n == 0 {
                            return Err(format!("`{part}`: `recent:0` keeps nothing; say `none`"));
                        }
                        policy.recent = Some(n);
                    }
                    None => return Err(format!("`{part}` is not a replay policy: {EXPECTED}")),
                },
            }
        }
        let others = policy != KeepReplays::NONE;
        if (all || none) && (others || (all && none)) {
            return Err(format!("`{s}`: `all` and `none` stand alone; {EXPECTED}"));
        }
        Ok(if all { KeepReplays::ALL } else { policy })
    }
}

impl From<KeepReplays> for String {
    fn from(k: KeepReplays) -> String {
        k.to_string()
    }
}

impl TryFrom<String> for KeepReplays {
    type Error = String;
    fn try_from(s: String) -> Result<KeepReplays, String> {
        s.parse()
    }
}

/// Removes the replays the ladder's policy `keep` no longer keeps: with
/// `recent:N`, those of the matches more than N before `end`, the end of
/// the ladder's finished prefix (as rating it just found it) (but those with a fault under `faults`), from
/// where the last pruning stopped. Returns how many were removed. Any
/// process may run it at any time; two at once remove each replay once.
pub fn prune(store: &Store, ladder: i64, keep: KeepReplays, end: u32) -> Result<u64, Error> {
    let Some(n) = keep.recent.filter(|_| !keep.all) else {
        return Ok(0);
    };
    let cut = end.saturating_sub(n);
    let from = store.ladders().replays_pruned_below(ladder)?;
    if cut <= from {
        return Ok(0);
    }
    Ok(store
        .results()
        .prune_replays(ladder, from, cut, keep.faults)?)
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
