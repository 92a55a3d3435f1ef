//! A ladder's replay policy as a value: which replays it stores, read
//! from and written as `all`, `none`, `recent:N`, `faults` or
//! `recent:N,faults`. The store keeps it with each ladder; what a worker
//! stores under it, and pruning what falls out of it, is decided in
//! [`crate::retention`], which re-exports it.

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
