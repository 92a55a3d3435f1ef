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
    #[error("the continuous ladder of {game} (ladder {ladder}) plays with the game config {stored}, set when it was created; it cannot change to {wanted}")]
    ConfigFixed {
        ladder: i64,
        game: String,
        stored: serde_json::Value,
        wanted: serde_json::Value,
    },
    #[error(
        "no {game} bots in {db}; add some with `ludus submit BOT.wasm --name NAME --game {game}`"
    )]
    NoBots { game: String, db: String },
    #[error("the gauntlet bot `{0}` is not among the ladder's bots")]
    NotAChallenger(String),
    #[error("stopped before the ladder's end: {done} of {total} matches played, every finished result kept; run the same command again to resume")]
    Stopped { ladder: i64, done: u32, total: u32 },
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
}
