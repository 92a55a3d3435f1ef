//! What the API answers and takes, as types: each derives its OpenAPI
//! schema. The leaderboard is the leaderboard crate's own
//! ([`ludus_leaderboard::report::Leaderboard`]), the one every table shows.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// The signed-in account.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Me {
    pub id: i64,
    pub name: String,
}

/// A game and its continuous ladder.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct GameSummary {
    pub id: String,
    pub summary: String,
    /// Seats per match.
    pub seats: Vec<usize>,
    /// Bots in its ladder (every version that joined).
    pub bots: usize,
    /// Matches rated so far.
    pub rated: u32,
}

/// A bot: its versions, ratings over time, recent matches, faults, and
/// results against each opponent.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct BotView {
    pub name: String,
    pub game: String,
    pub owner: Option<String>,
    pub retired: bool,
    pub versions: Vec<VersionView>,
    /// Elo after each of its rated matches, in schedule order.
    pub rating_history: Vec<RatingPoint>,
    /// Its latest matches, newest first.
    pub recent: Vec<MatchSummary>,
    /// Turns with a fault, over all its finished matches.
    pub fault_turns: u32,
    pub head_to_head: Vec<HeadToHead>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct VersionView {
    pub version: u32,
    pub sha256: String,
    pub submitted_at: String,
    /// Its Elo in the game's ladder, once it joined.
    pub rating: Option<f64>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RatingPoint {
    /// The match's place in the ladder's schedule.
    pub index: u32,
    pub version: u32,
    pub rating: f64,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct MatchSummary {
    pub index: u32,
    /// Empty until the match is played.
    pub match_id: String,
    pub game: String,
    pub seed: u64,
    /// `name vN` per seat.
    pub seats: Vec<String>,
    pub placements: Vec<u32>,
    pub scores: Vec<f64>,
    /// Per seat: turns with a fault.
    pub faults: Vec<u32>,
    pub turns: u32,
    pub reason: String,
    pub aborted: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct HeadToHead {
    pub opponent: String,
    /// Matches in which this bot placed better, worse, the same.
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

/// Where an upload goes.
#[derive(Debug, Clone, Serialize, Deserialize, IntoParams)]
pub struct UploadQuery {
    /// The bot's name: new, or one of yours (a new version).
    pub name: String,
    /// The game it plays, as `ludus games` lists.
    pub game: String,
}

/// What an upload stored.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Uploaded {
    pub name: String,
    pub version: u32,
    pub game: String,
    pub sha256: String,
    /// `false` when these bytes already were its latest version.
    pub new_version: bool,
    /// How its validation match went, in a line.
    pub validation: String,
}
