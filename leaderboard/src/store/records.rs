//! The rows the store reads and writes, as types: bots, ladders, results,
//! what a ladder needs of a worker; and the decoders of their columns that
//! several queries share.

use super::db::{vals, Db, DbError, Row};
use super::keep_replays::KeepReplays;
use crate::schedule::ScheduledMatch;
use serde::{Deserialize, Serialize};

/// A version of a bot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotRecord {
    pub name: String,
    pub version: u32,
    pub game: String,
    pub sha256: String,
    pub submitted_at: String,
}

/// What `submit` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submitted {
    pub bot: BotRecord,
    /// `false` when the same bytes were already the latest version of the name.
    pub new_version: bool,
}

/// A ladder to create: what it is, and what a worker needs to play it.
#[derive(Debug, Clone)]
pub struct NewLadder<'a> {
    /// sha256 of everything that determines its matches.
    pub key: &'a str,
    pub game: &'a str,
    pub kind: &'a str,
    pub players: u32,
    pub rounds: u32,
    pub seed: u64,
    pub config: &'a serde_json::Value,
    pub limits: &'a serde_json::Value,
    pub needs: &'a Needs,
    /// Which replays it stores.
    pub keep_replays: KeepReplays,
    pub bots: &'a [BotRecord],
    pub schedule: &'a [ScheduledMatch],
}

/// A server's continuous ladder of a game, as it is created: empty, its
/// bots and matches added as they come.
#[derive(Debug, Clone)]
pub struct ContinuousLadder<'a> {
    pub game: &'a str,
    pub players: u32,
    pub seed: u64,
    pub config: &'a serde_json::Value,
    pub limits: &'a serde_json::Value,
    pub needs: &'a Needs,
    pub keep_replays: KeepReplays,
}

/// A stored ladder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LadderRecord {
    pub id: i64,
    pub key: String,
    pub game: String,
    pub kind: String,
    pub players: u32,
    pub rounds: u32,
    pub seed: u64,
    pub config: serde_json::Value,
    pub limits: serde_json::Value,
    pub bots: Vec<BotRecord>,
    /// What a worker must run to play its matches.
    pub needs: Needs,
    /// The ratings cover the matches before this index.
    pub rated_through: u32,
    /// Which replays it stores.
    pub keep_replays: KeepReplays,
}

/// The result of one scheduled match.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MatchResult {
    pub index: u32,
    pub match_id: String,
    pub placements: Vec<u32>,
    pub scores: Vec<f64>,
    /// Per seat: turns with a fault.
    pub faults: Vec<u32>,
    pub turns: u32,
    pub reason: String,
    /// Set when a host problem stopped the match, or no worker could
    /// finish it: not rated.
    pub aborted: Option<String>,
    /// sha256 of the replay's JSON (empty for a void match, and for results
    /// stored before replays were hashed).
    pub replay_sha256: String,
    /// Per seat: moves the game refused (empty for results stored before
    /// they were counted).
    #[serde(default)]
    pub refused: Vec<u32>,
}

/// A match with an outcome, as ratings read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatedGame {
    pub index: u32,
    /// The ladder position of each seat's bot.
    pub seats: Vec<usize>,
    /// Each seat's placement (1 is first).
    pub placements: Vec<u32>,
    /// Each seat's turns with a fault.
    pub faults: Vec<u32>,
}

/// The rated matches of ladder `ladder` from index `from` to before `end`
/// (those with an outcome: not aborted, not void), in schedule order:
/// what ratings read. Two range scans of one table each, merged here,
/// rather than a join: the planner sizes a join from statistics, which
/// lag behind a ladder that grows (a new season's is empty at the last
/// `ANALYZE`), and then joins the two ranges row by row with a filter, in
/// time that grows with the square of the ladder: a minute on 20 000
/// matches, while every worker waited for its rating. A range scan costs
/// what it reads, whatever the statistics say.
pub(crate) fn rated_games(
    db: &mut Db,
    ladder: i64,
    from: u32,
    end: u32,
) -> Result<Vec<RatedGame>, DbError> {
    let outcomes = db.query(
        "SELECT idx, placements, faults FROM results
         WHERE ladder_id = $1 AND idx >= $2 AND idx < $3 AND aborted IS NULL
         ORDER BY idx",
        vals![ladder, from, end],
    )?;
    let Some(last) = outcomes.last() else {
        return Ok(Vec::new());
    };
    // The seats of the same range (up to the last outcome), in order.
    let first = outcomes[0].u32(0)?;
    let seats = db.query(
        "SELECT idx, seats FROM matches
         WHERE ladder_id = $1 AND idx >= $2 AND idx <= $3
         ORDER BY idx",
        vals![ladder, first, last.u32(0)?],
    )?;
    let mut seats = seats.iter().peekable();
    let mut games = Vec::with_capacity(outcomes.len());
    for r in &outcomes {
        let index = r.u32(0)?;
        // Both are in index order: skip the matches without an outcome;
        // a result without its match (which `ladder check` reports) is
        // passed over, as a join would.
        while seats
            .next_if(|m| m.u32(0).is_ok_and(|i| i < index))
            .is_some()
        {}
        let Some(m) = seats.next_if(|m| m.u32(0).is_ok_and(|i| i == index)) else {
            continue;
        };
        games.push(RatedGame {
            index,
            seats: m.json(1)?,
            placements: r.json(1)?,
            faults: r.json(2)?,
        });
    }
    Ok(games)
}

/// A seat of a rated match, as the bot index keeps it: the seat's Elo after
/// the match, its place and its turns with a fault.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatedSeat {
    pub index: u32,
    pub seat: usize,
    pub elo: f64,
    pub place: u32,
    pub faults: u32,
}

/// What a worker must run to play a ladder's matches, as the ladder
/// records it: replays (and so results) are the same bytes only between
/// the same engine, rules and sandbox.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Needs {
    /// The Ludus version (engines and host).
    pub ludus_version: String,
    /// The game's rules version.
    pub rules_version: u32,
    /// The wasmtime version: fuel accounting may change between releases.
    pub wasmtime_version: String,
}

impl Needs {
    /// What this build is, for a game of `rules_version`.
    pub fn of_this_build(rules_version: u32) -> Needs {
        Needs {
            ludus_version: env!("CARGO_PKG_VERSION").into(),
            rules_version,
            wasmtime_version: ludus_host::WASMTIME_VERSION.into(),
        }
    }

    /// Why a worker that is `mine` may not play a ladder that needs `self`;
    /// `None` when it may.
    pub fn refusal(&self, mine: &Needs) -> Option<String> {
        let mut differ = Vec::new();
        if self.ludus_version != mine.ludus_version {
            differ.push(format!(
                "Ludus {} (this worker runs {})",
                self.ludus_version, mine.ludus_version
            ));
        }
        if self.rules_version != mine.rules_version {
            differ.push(format!(
                "rules version {} (this worker has {})",
                self.rules_version, mine.rules_version
            ));
        }
        if self.wasmtime_version != mine.wasmtime_version {
            differ.push(format!(
                "wasmtime {} (this worker has {})",
                self.wasmtime_version, mine.wasmtime_version
            ));
        }
        (!differ.is_empty()).then(|| differ.join(", "))
    }
}

/// A bot's seat in a match, with the match and its result.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatedMatch {
    pub scheduled: ScheduledMatch,
    /// The bot's seat.
    pub seat: usize,
    pub result: Option<MatchResult>,
    /// The bot's Elo after the match, once the match is rated.
    pub elo: Option<f64>,
}

pub(crate) fn bot_record(r: &Row) -> Result<BotRecord, DbError> {
    Ok(BotRecord {
        name: r.text(0)?,
        version: r.u32(1)?,
        game: r.text(2)?,
        sha256: r.text(3)?,
        submitted_at: r.text(4)?,
    })
}

/// A result's columns, as [`match_result`] reads them.
pub(crate) const RESULT_COLUMNS: &str =
    "idx, match_id, placements, scores, faults, turns, reason, aborted, replay_sha256, refused";

/// [`RESULT_COLUMNS`] of the results table joined as `r`.
pub(crate) const R_COLUMNS: &str = "r.idx, r.match_id, r.placements, r.scores, r.faults, r.turns, r.reason, r.aborted, r.replay_sha256, r.refused";

pub(crate) fn match_result(r: &Row) -> Result<MatchResult, DbError> {
    Ok(MatchResult {
        index: r.u32(0)?,
        match_id: r.text(1)?,
        placements: r.json(2)?,
        scores: r.json(3)?,
        faults: r.json(4)?,
        turns: r.u32(5)?,
        reason: r.text(6)?,
        aborted: r.opt_text(7)?,
        replay_sha256: r.text(8)?,
        refused: r.json(9)?,
    })
}

/// A result from the columns at `at` on, when there is one (LEFT JOIN).
pub(crate) fn result_at(r: &Row, at: usize) -> Result<Option<MatchResult>, DbError> {
    if r.opt_text(at + 1)?.is_none() {
        return Ok(None);
    }
    let tail = Row(r.0[at..].to_vec());
    match_result(&tail).map(Some)
}

/// A scheduled match from `idx, grp, seed, seats`.
pub(crate) fn scheduled_match(r: &Row) -> Result<ScheduledMatch, DbError> {
    Ok(ScheduledMatch {
        index: r.u32(0)?,
        group: r.u32(1)?,
        seed: r.i64(2)? as u64,
        seats: r.json(3)?,
    })
}
