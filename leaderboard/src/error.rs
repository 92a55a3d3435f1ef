//! The crate's error: what can go wrong with a ladder, a worker, ratings
//! or a report, each case with the names and numbers that say what to do.
//! The store's own errors are [`StoreError`], wrapped here.

use crate::ratings::RatingError;
use crate::schedule::ScheduleError;
use crate::store::StoreError;
use ludus_host::PlayError;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Engine(#[from] ludus_engine::EngineError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Schedule(#[from] ScheduleError),
    #[error("bot `{name}` v{version} in the store cannot be loaded: {reason}")]
    Bot {
        name: String,
        version: u32,
        reason: String,
    },
    #[error("match {index} (bots {bots}): {source}")]
    Play {
        index: u32,
        bots: String,
        source: PlayError,
    },
    #[error(transparent)]
    Rating(#[from] RatingError),
    #[error("cannot start {0} threads: {1}")]
    Threads(usize, String),
    #[error("this worker cannot play ladder {ladder}: {reason}; run a worker of the same build as the process that created the ladder")]
    Refused { ladder: i64, reason: String },
    #[error("ladder {ladder} in the database is damaged: {reason}")]
    StoredLadder { ladder: i64, reason: String },
    #[error("the open season of {game} (ladder {ladder}) plays with the game config {stored}, set when it started; --game-config only sets a first season's. To play {wanted}, start a new season with it (`ludus season new --game {game} --config '{wanted}'`), or leave out --game-config {game}")]
    ConfigFixed {
        ladder: i64,
        game: String,
        stored: serde_json::Value,
        wanted: serde_json::Value,
    },
    #[error("{game} has no season named `{name}`; its seasons: {seasons}")]
    NoSeason {
        game: String,
        name: String,
        seasons: String,
    },
    #[error("a season is named within its game: give --game GAME with --season `{0}`")]
    SeasonWithoutGame(String),
    #[error("cannot name a season of {game} `{name}`: {reason}")]
    SeasonName {
        game: String,
        name: String,
        reason: String,
    },
    #[error(
        "no {game} bots in {db}; add some with `ludus submit BOT.wasm --name NAME --game {game}`"
    )]
    NoBots { game: String, db: String },
    #[error("the gauntlet bot `{0}` is not among the ladder's bots")]
    NotAChallenger(String),
    #[error("stopped before the ladder's end: {done} of {total} matches played, every finished result kept; run the same command again to resume")]
    Stopped { ladder: i64, done: u32, total: u32 },
    #[error("ladder {ladder} plays a challenge, whose matches are never rated")]
    Unrated { ladder: i64 },
    #[error("{differ} stored ratings of ladder {ladder} differ from the recomputed ones")]
    RatingsDiffer { ladder: i64, differ: usize },
    #[error("cannot read the house's folder {}: {reason}", path.display())]
    HouseFolder {
        path: std::path::PathBuf,
        reason: String,
    },
    #[error("cannot read the house bot {}: {reason}", path.display())]
    HouseFile {
        path: std::path::PathBuf,
        reason: String,
    },
    #[error("{db} has an account named `{name}` that someone can sign in to; the house's bots need an account of that name that nobody can sign in to: rename that account, or serve another database")]
    HouseTaken { db: String, name: String },
    #[error("the bot `{bot}` belongs to {owner}; only its owner retires it (with their token: POST /api/bots/{bot}/retire)")]
    NotTheHouse { bot: String, owner: String },
    #[error("bot `{name}` plays no match of ladder {ladder}; its bots are {bots}")]
    NotInLadder {
        ladder: i64,
        name: String,
        bots: String,
    },
    #[error("{db} has no account named `{name}`; `ludus user list --db {db}` lists them")]
    UnknownAccount { db: String, name: String },
    #[error("`{name}` is the server's own account, which holds its house bots: it cannot be removed, and nobody signs in to it; retire a house bot with `ludus bot retire NAME`")]
    HouseAccount { name: String },
    /// No account of this name, for a command that changes one.
    #[error("{db} has no account named `{name}`; `ludus user list --db {db}` lists them, `ludus user add {name}` adds it")]
    NoAccount { db: String, name: String },
    #[error(
        "`{name}` is the server's own account, which holds its house bots: nobody signs in to it"
    )]
    HouseSignsIn { name: String },
    #[error("the account `{name}` was removed from {db}: its tokens sign in no more; add a new account with `ludus user add NAME`")]
    AccountRemoved { db: String, name: String },
    /// A name no account may have (`accounts::name_refused` says why).
    #[error("{0}")]
    AccountName(String),
}

impl Error {
    /// Whether trying again can succeed ([`StoreError::is_transient`]):
    /// the database was busy, in a conflict or out of reach.
    pub fn is_transient(&self) -> bool {
        matches!(self, Error::Store(e) if e.is_transient())
    }

    /// Whether the connection itself was lost: connect again before
    /// trying again.
    pub fn connection_lost(&self) -> bool {
        matches!(self, Error::Store(StoreError::Unreachable { .. }))
    }
}
