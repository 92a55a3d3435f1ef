//! What the API answers and takes, as types: each derives its OpenAPI
//! schema. The leaderboard is the leaderboard crate's own
//! ([`ludus_leaderboard::report::Leaderboard`]), the one every table shows.

use crate::error::ApiError;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// The signed-in account.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Me {
    /// The account's id, as a string of its digits (ids are 64-bit: a JSON
    /// number above 2^53 is rounded where it is read as a double).
    #[serde(with = "ludus_leaderboard::exact")]
    #[schema(value_type = String, example = "1")]
    pub id: i64,
    pub name: String,
}

/// A game and its continuous ladder.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct GameSummary {
    pub id: String,
    pub summary: String,
    /// Seats per match.
    #[schema(value_type = Vec<u32>)]
    pub seats: Vec<usize>,
    /// Bots in its ladder (every version that joined).
    #[schema(value_type = u32)]
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
    /// What ranks its game's leaderboard, and what each version's
    /// `ranking` and `interval` are.
    pub rating_system: String,
    /// Elo after each of its latest rated matches (500 at most), in
    /// schedule order; `/api/bots/{name}/ratings` pages through them all.
    pub rating_history: Vec<RatingPoint>,
    /// Its played matches, newest first, each from its point of view: page
    /// `page` of `per_page`.
    pub recent: Vec<BotMatch>,
    /// Its played matches, and its rated ones.
    pub matches: u32,
    pub rated_matches: u32,
    pub page: u32,
    pub per_page: u32,
    /// Turns with a fault, over its rated matches.
    pub fault_turns: u32,
    /// Its rated results against each opponent.
    pub head_to_head: Vec<HeadToHead>,
}

/// A page of a bot's Elo after each rated match, newest first.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RatingHistory {
    pub page: u32,
    pub per_page: u32,
    /// Rated matches in all.
    pub total: u32,
    pub points: Vec<RatingPoint>,
}

/// Which page of a list: `page` from 1, `per_page` items (at most
/// [`Page::MAX`]).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// The page, from 1 (default 1).
    #[param(minimum = 1, maximum = 1000000)]
    pub page: Option<u32>,
    /// Items a page (default 20, at most 100).
    #[param(minimum = 1, maximum = 100)]
    pub per_page: Option<u32>,
}

/// A page of a list, checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    pub number: u32,
    pub size: u32,
}

impl Page {
    /// The most items a page holds.
    pub const MAX: u32 = 100;
    pub const DEFAULT: u32 = 20;

    /// The most pages a list is read to.
    pub const LAST: u32 = 1_000_000;

    /// The page `query` asks for; refused outside 1..=[`Page::LAST`] and
    /// sizes outside 1..=[`Page::MAX`].
    pub fn of(query: PageQuery) -> Result<Page, ApiError> {
        let number = query.page.unwrap_or(1);
        let size = query.per_page.unwrap_or(Page::DEFAULT);
        if !(1..=Page::LAST).contains(&number) || !(1..=Page::MAX).contains(&size) {
            return Err(ApiError::BadRequest(format!(
                "a page is 1 to {} and holds 1 to {} items",
                Page::LAST,
                Page::MAX
            )));
        }
        Ok(Page { number, size })
    }

    pub fn offset(self) -> u32 {
        (self.number - 1).saturating_mul(self.size)
    }
}

impl Default for Page {
    fn default() -> Page {
        Page {
            number: 1,
            size: Page::DEFAULT,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct VersionView {
    pub version: u32,
    pub sha256: String,
    pub submitted_at: String,
    /// Its Elo in the game's ladder, once it joined.
    pub rating: Option<f64>,
    /// Its leaderboard rating ([`BotView::rating_system`]) and the ± of
    /// its uncertainty, once it joined.
    pub ranking: Option<f64>,
    pub interval: Option<f64>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RatingPoint {
    /// The match's place in the ladder's schedule.
    pub index: u32,
    pub version: u32,
    pub rating: f64,
    /// The ± of the uncertainty drawn around this point, in Elo points:
    /// its version's current 95% interval where the leaderboard's rating is
    /// on the Elo scale (Bradley–Terry, two seats). The history keeps no
    /// interval per match, so this is the version's interval as it stands
    /// now; `None` where the rating is on another scale (Weng–Lin).
    pub interval: Option<f64>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct MatchSummary {
    pub index: u32,
    /// Empty until the match is played.
    pub match_id: String,
    pub game: String,
    /// The match seed (a u64), as a string of its digits: a JSON number
    /// above 2^53 is rounded where it is read as a double, and the match
    /// re-plays only from its exact seed (`ludus play --seed`).
    #[serde(with = "ludus_leaderboard::exact")]
    #[schema(value_type = String, example = "15337121675167056173")]
    pub seed: u64,
    /// `name vN` per seat: each seat's bot as the ladder's schedule seated
    /// it, whatever bytes it shares with another.
    pub seats: Vec<String>,
    pub placements: Vec<u32>,
    pub scores: Vec<f64>,
    /// Per seat: turns with a fault.
    pub faults: Vec<u32>,
    pub turns: u32,
    pub reason: String,
    pub aborted: Option<String>,
}

/// A match of a bot, from its point of view.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct BotMatch {
    #[serde(flatten)]
    pub summary: MatchSummary,
    /// The bot's seat (its best-placed one, if it sat at several).
    pub seat: u32,
    /// The bot's version that played it.
    pub version: u32,
    /// How it ended for the bot: `won`, `lost` or `drawn` (first place
    /// shared) with two seats; with more, its place, as `2nd of 4` (`tied`
    /// when shared); `aborted` for a match a host problem stopped.
    pub result: String,
    /// The other bots of the match, in seat order.
    pub opponents: Vec<SeatedBot>,
    /// Turns with a fault of the bot, over its seats.
    pub bot_faults: u32,
}

/// A bot in a seat, as the ladder's schedule seated it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SeatedBot {
    pub name: String,
    pub version: u32,
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
    /// The bot's name: new, or one of yours (a new version). 1 to 64
    /// characters: letters, digits, `-`, `_` and `.`, beginning with a
    /// letter or a digit; names that differ only in case are one name.
    #[param(pattern = "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")]
    pub name: String,
    /// The game it plays, as `ludus games` lists.
    pub game: String,
}

/// Whether an upload is a candidate.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CandidateQuery {
    /// `true`: store the bot as a candidate, validated and stored as a
    /// version of its name, but not entered in its game's ladder until
    /// you promote it (`POST /api/bots/{name}/versions/{version}/promote`);
    /// meanwhile it plays only your challenges.
    #[serde(default)]
    pub candidate: bool,
}

/// A bot's `.wasm`, as an upload's body.
#[derive(ToSchema)]
#[schema(value_type = String, format = Binary)]
pub struct WasmBody(pub Vec<u8>);

/// What an upload stored.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Uploaded {
    pub name: String,
    pub version: u32,
    pub game: String,
    pub sha256: String,
    /// `false` when these bytes already were its latest version.
    pub new_version: bool,
    /// Stored as a candidate: not in its game's ladder until promoted.
    #[serde(default)]
    pub candidate: bool,
    /// How its validation match went, in a line.
    pub validation: String,
}

/// A page of a game's leaderboard: the board's rows from `(page - 1) *
/// per_page`, ranked among all `total`.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct LeaderboardPage {
    #[serde(flatten)]
    pub board: ludus_leaderboard::report::Leaderboard,
    pub page: u32,
    pub per_page: u32,
    /// Rows on every page together.
    pub total: u32,
    /// How many more bots the game needs before its matches start (a
    /// match seats `players`); 0 once it has enough.
    pub needs: u32,
    /// The season shown: the open one unless `?season=` names another;
    /// `None` before the game's first season starts.
    pub season: Option<String>,
    /// The season shown is the open one, which the scheduler plays.
    pub open: bool,
    /// The game is paused: its open season schedules no new match.
    pub paused: bool,
    /// Every season of the game, oldest first.
    pub seasons: Vec<SeasonLink>,
    /// Each row's rated results, in the rows' order.
    pub records: Vec<RowRecord>,
}

/// A leaderboard row's rated matches as won, drawn (first place shared)
/// and lost, and the share won.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RowRecord {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Wins per rated match, in percent; `None` before its first.
    pub win_rate: Option<f64>,
}

/// A season of a game, as the leaderboard lists it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SeasonLink {
    pub name: String,
    /// The open season; the others are closed, their boards as they ended.
    pub open: bool,
}

/// Which season of a game's leaderboard.
#[derive(Debug, Clone, Default, Serialize, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SeasonQuery {
    /// The season's name, as the leaderboard's `seasons` list it (default:
    /// the open season).
    pub season: Option<String>,
}

/// What an upload stored, and its validation as `ludus check` prints it.
#[derive(Debug)]
pub struct Stored {
    pub uploaded: Uploaded,
    pub report: String,
}

/// Why an upload was refused: the API's error and, for a bot that failed
/// its validation match, that match's report as `ludus check` prints it
/// (the turn, the seat, the answer, the bot's log, what to do).
#[derive(Debug)]
pub struct Refusal {
    pub error: ApiError,
    pub report: Option<String>,
}

impl From<ApiError> for Refusal {
    fn from(error: ApiError) -> Self {
        Refusal {
            error,
            report: None,
        }
    }
}

impl From<ludus_leaderboard::store::StoreError> for Refusal {
    fn from(e: ludus_leaderboard::store::StoreError) -> Self {
        ApiError::from(e).into()
    }
}
