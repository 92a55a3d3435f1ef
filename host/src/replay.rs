//! Replays: everything that determines a match, and everything that happened
//! in it, turn by turn. The format is specified in `docs/replay.md`.

use crate::fault::Fault;
use crate::limits::Limits;
use ludus_engine::Outcome;
use serde::{Deserialize, Serialize};
use std::io::Read;
use std::path::{Path, PathBuf};

pub const REPLAY_FORMAT: &str = "ludus-replay";
pub const REPLAY_FORMAT_VERSION: u32 = 1;

/// A bot in a seat, as the replay records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    pub name: String,
    /// sha256 of the bot's `.wasm`, hex.
    pub sha256: String,
}

/// A refused part of a seat's answer (see the game's rules page for the kinds).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refusal {
    pub kind: String,
    pub reason: String,
}

/// What one seat did on one turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct SeatTurn {
    /// The raw answer, when the bot gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// The fault that replaced the answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<Fault>,
    /// The seat is out of the match (too many faults in a row) and was not called.
    #[serde(default, skip_serializing_if = "is_false")]
    pub out: bool,
    /// The game did not ask this seat this turn (not its move, in a game
    /// played in turn order), so it was not called.
    #[serde(default, skip_serializing_if = "is_false")]
    pub waiting: bool,
    /// Fuel burnt.
    #[serde(default)]
    pub fuel: u64,
    /// What the bot wrote to stdout/stderr this turn (within the match's cap).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub log: String,
    /// Log bytes dropped this turn because the cap was reached.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub log_dropped: u64,
    /// Parts of the answer the game refused.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refused: Vec<Refusal>,
}

fn is_false(b: &bool) -> bool {
    !b
}
fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// One resolved turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TurnRecord {
    /// The turn number: 1 for the first turn resolved.
    pub turn: u32,
    pub seats: Vec<SeatTurn>,
    /// Per-seat scores after the turn (the game's running score).
    pub scores: Vec<f64>,
    /// sha256 of the game state after the turn, hex.
    pub state_hash: String,
}

/// A whole match.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    pub format: String,
    pub format_version: u32,
    pub ludus_version: String,
    pub wasmtime_version: String,
    /// sha256 of everything that determines the match; see [`Replay::compute_match_id`].
    pub match_id: String,
    pub game: String,
    pub rules_version: u32,
    /// The config the match was asked for.
    pub config: serde_json::Value,
    /// The full setup the game made from config and seed (e.g. the map).
    pub setup: serde_json::Value,
    pub seed: u64,
    pub limits: Limits,
    pub seats: Vec<SeatInfo>,
    pub initial_state_hash: String,
    pub turns: Vec<TurnRecord>,
    /// `None` when the match was aborted.
    pub outcome: Option<Outcome>,
    /// Why the match was aborted (a host problem, never a bot's): it is not scored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aborted: Option<String>,
}

/// The fields that determine a match, hashed into its id.
#[derive(Serialize)]
struct MatchIdentity<'a> {
    format_version: u32,
    wasmtime_version: &'a str,
    game: &'a str,
    rules_version: u32,
    setup: &'a serde_json::Value,
    seed: u64,
    /// Without the wall-clock backstop, which does not change a game.
    limits: &'a Limits,
    bots: Vec<&'a str>,
}

impl Replay {
    /// The match id: sha256 of format version, wasmtime version, game, rules
    /// version, setup, seed, limits (without the backstop) and the bots'
    /// hashes in seat order.
    pub fn compute_match_id(&self) -> String {
        let mut limits = self.limits.clone();
        limits.backstop_ms = 0;
        let identity = MatchIdentity {
            format_version: self.format_version,
            wasmtime_version: &self.wasmtime_version,
            game: &self.game,
            rules_version: self.rules_version,
            setup: &self.setup,
            seed: self.seed,
            limits: &limits,
            bots: self.seats.iter().map(|s| s.sha256.as_str()).collect(),
        };
        let bytes = serde_json::to_vec(&identity).expect("identity serialises");
        crate::digest::sha256_hex(&bytes)
    }

    /// Serialises to bytes: compact JSON, gzip when `gzip`. The same replay
    /// always gives the same bytes.
    pub fn to_bytes(&self, gzip: bool) -> Vec<u8> {
        let mut json = serde_json::to_vec(self).expect("replay serialises");
        json.push(b'\n');
        if !gzip {
            return json;
        }
        crate::gzip(&json)
    }

    /// Parses replay bytes (JSON, or gzip of it). Anything that is not a
    /// whole replay of this format, with as many seats in every turn as in
    /// its header, is an error that says what is wrong, never a panic later.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, ReplayError> {
        const TRUNCATED: &str =
            "the file is truncated (was it still being written, or cut short when copied?)";
        let json = if bytes.starts_with(&[0x1f, 0x8b]) {
            let mut out = Vec::new();
            flate2::read::GzDecoder::new(bytes)
                .read_to_end(&mut out)
                .map_err(|e| {
                    ReplayError::Parse(if e.kind() == std::io::ErrorKind::UnexpectedEof {
                        format!("its gzip stream ends early: {TRUNCATED}")
                    } else {
                        format!("bad gzip: {e}")
                    })
                })?;
            out
        } else {
            bytes.to_vec()
        };
        let replay: Replay = serde_json::from_slice(&json).map_err(|e| {
            ReplayError::Parse(if e.is_eof() && !json.is_empty() {
                format!("it ends early, at byte {}: {TRUNCATED}", json.len())
            } else if json.is_empty() {
                "the file is empty".into()
            } else {
                e.to_string()
            })
        })?;
        if replay.format != REPLAY_FORMAT {
            return Err(ReplayError::Parse(format!(
                "format is `{}`, not `{REPLAY_FORMAT}`",
                replay.format
            )));
        }
        if replay.format_version != REPLAY_FORMAT_VERSION {
            return Err(ReplayError::Parse(format!(
                "format version {} is not supported (this Ludus reads version {REPLAY_FORMAT_VERSION})",
                replay.format_version
            )));
        }
        replay.check_shape().map_err(ReplayError::Parse)?;
        Ok(replay)
    }

    /// Every per-seat list has one entry per seat of the header.
    fn check_shape(&self) -> Result<(), String> {
        let seats = self.seats.len();
        if seats == 0 {
            return Err("it has no seats".into());
        }
        for t in &self.turns {
            if t.seats.len() != seats || t.scores.len() != seats {
                return Err(format!(
                    "turn {} has {} seats and {} scores, but the replay has {seats} seats",
                    t.turn,
                    t.seats.len(),
                    t.scores.len()
                ));
            }
        }
        if let Some(o) = &self.outcome {
            if o.scores.len() != seats || o.placements.len() != seats {
                return Err(format!(
                    "its outcome has {} scores and {} places, but the replay has {seats} seats",
                    o.scores.len(),
                    o.placements.len()
                ));
            }
        }
        Ok(())
    }

    /// The match id as people quote it (see [`short_id`]).
    pub fn short_id(&self) -> &str {
        short_id(&self.match_id)
    }

    /// Writes the replay to `path` (gzip when it ends in `.gz`).
    pub fn save(&self, path: &Path) -> Result<(), ReplayError> {
        let gzip = path.extension().is_some_and(|e| e == "gz");
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| ReplayError::Write(dir.to_path_buf(), e))?;
        }
        std::fs::write(path, self.to_bytes(gzip)).map_err(|e| ReplayError::Write(path.into(), e))
    }

    /// Reads a replay file.
    pub fn load(path: &Path) -> Result<Self, ReplayError> {
        if path.is_dir() {
            return Err(ReplayError::File(
                path.into(),
                "it is a directory; give a replay file (.json or .json.gz)".into(),
            ));
        }
        let bytes = std::fs::read(path).map_err(|e| ReplayError::Io(path.into(), e))?;
        Replay::from_bytes(&bytes).map_err(|e| match e {
            ReplayError::Parse(m) => ReplayError::File(path.into(), m),
            other => other,
        })
    }

    /// Per seat: turns with a fault.
    pub fn fault_counts(&self) -> Vec<usize> {
        (0..self.seats.len())
            .map(|s| {
                self.turns
                    .iter()
                    .filter(|t| t.seats[s].fault.is_some())
                    .count()
            })
            .collect()
    }

    /// Per seat: parts of its answers the game refused, over the match.
    pub fn refusal_counts(&self) -> Vec<usize> {
        (0..self.seats.len())
            .map(|s| self.turns.iter().map(|t| t.seats[s].refused.len()).sum())
            .collect()
    }

    /// Compares a re-run with this (recorded) replay and names the first
    /// difference: the first turn that differs, with what differs there, and
    /// any difference of bots or header.
    pub fn first_difference(&self, rerun: &Replay) -> Option<Divergence> {
        let mut notes = Vec::new();
        if self.game != rerun.game || self.rules_version != rerun.rules_version {
            notes.push(format!(
                "game differs: recorded {} v{}, re-run {} v{}",
                self.game, self.rules_version, rerun.game, rerun.rules_version
            ));
        }
        for (i, (a, b)) in self.seats.iter().zip(&rerun.seats).enumerate() {
            if a.sha256 != b.sha256 {
                notes.push(format!(
                    "seat {i} was `{}` ({}) and is now `{}` ({})",
                    a.name,
                    short_id(&a.sha256),
                    b.name,
                    short_id(&b.sha256)
                ));
            }
        }
        if self.match_id != self.compute_match_id() {
            notes.push(
                "the match id does not match the replay's contents (config, limits or seed edited?)"
                    .into(),
            );
        }
        let (turn, detail) = match self.first_turn_difference(rerun) {
            Some((turn, what)) => (Some(turn), Some(what)),
            None if self.outcome != rerun.outcome => (
                None,
                Some(format!(
                    "outcome: recorded {:?}, re-run {:?}",
                    self.outcome, rerun.outcome
                )),
            ),
            None if notes.is_empty() && self != rerun => (
                None,
                Some("the replay's header differs from the re-run's".into()),
            ),
            None => (None, None),
        };
        notes.extend(detail);
        if notes.is_empty() {
            None
        } else {
            Some(Divergence {
                turn,
                what: notes.join("; "),
            })
        }
    }

    fn first_turn_difference(&self, rerun: &Replay) -> Option<(u32, String)> {
        if self.initial_state_hash != rerun.initial_state_hash {
            return Some((0, "initial state differs (setup or seed edited?)".into()));
        }
        let n = self.turns.len().max(rerun.turns.len());
        for i in 0..n {
            let (Some(a), Some(b)) = (self.turns.get(i), rerun.turns.get(i)) else {
                return Some((
                    i as u32 + 1,
                    format!(
                        "the recorded match has {} turns, the re-run {}",
                        self.turns.len(),
                        rerun.turns.len()
                    ),
                ));
            };
            for (s, (x, y)) in a.seats.iter().zip(&b.seats).enumerate() {
                let field = if x.answer != y.answer {
                    format!(
                        "answer: recorded {}, re-run {}",
                        clip(x.answer.as_deref()),
                        clip(y.answer.as_deref())
                    )
                } else if x.fault != y.fault {
                    format!(
                        "fault: recorded {:?}, re-run {:?}",
                        x.fault.as_ref().map(|f| f.to_string()),
                        y.fault.as_ref().map(|f| f.to_string())
                    )
                } else if x.fuel != y.fuel {
                    format!("fuel: recorded {}, re-run {}", x.fuel, y.fuel)
                } else if x != y {
                    "log, refusals or status differ".to_string()
                } else {
                    continue;
                };
                let name = &self.seats[s].name;
                return Some((a.turn, format!("seat {s} (`{name}`) {field}")));
            }
            if a.state_hash != b.state_hash {
                return Some((
                    a.turn,
                    format!(
                        "state hash: recorded {}, re-run {}",
                        short_id(&a.state_hash),
                        short_id(&b.state_hash)
                    ),
                ));
            }
            if a != b {
                return Some((a.turn, "scores differ".into()));
            }
        }
        None
    }
}

/// The first 12 characters of a match id or a hash, as people quote it
/// (`ludus` accepts any unique prefix back). The whole text when shorter:
/// an id from a foreign replay may be anything.
pub fn short_id(id: &str) -> &str {
    match id.char_indices().nth(12) {
        Some((end, _)) => &id[..end],
        None => id,
    }
}

fn clip(s: Option<&str>) -> String {
    match s {
        None => "nothing".into(),
        Some(s) if s.len() > 80 => {
            let cut = (0..=80).rev().find(|&i| s.is_char_boundary(i)).unwrap_or(0);
            format!("`{}…`", &s[..cut])
        }
        Some(s) => format!("`{s}`"),
    }
}

/// Where a re-run first differs from a recorded replay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divergence {
    /// The turn (1-based; 0 is the initial state), or `None` for the header.
    pub turn: Option<u32>,
    pub what: String,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.turn {
            Some(t) => write!(f, "turn {t}: {}", self.what),
            None => write!(f, "{}", self.what),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("cannot read replay {0}: {1}")]
    Io(PathBuf, std::io::Error),
    #[error("cannot write {0}: {1}")]
    Write(PathBuf, std::io::Error),
    #[error("{0} is not a Ludus replay: {1}")]
    File(PathBuf, String),
    #[error("not a Ludus replay: {0}")]
    Parse(String),
}
