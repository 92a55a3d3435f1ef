//! Ladders: what a ladder is ([`LadderSpec`]), creating its stored
//! schedule, playing it as a worker ([`run`]; other processes join with
//! [`crate::worker`]), and its ratings, applied in schedule order over the
//! finished prefix so that neither the thread count nor the number of
//! workers ever changes a number.

use crate::ratings::{self, GameResult};
use crate::schedule::{schedule, Kind, ScheduleError};
use crate::store::{BotRecord, Needs, NewLadder, Store, StoreError};
use crate::worker::WorkerOptions;
use ludus_host::{Limits, PlayError, Sandbox};
use serde::Serialize;

/// What a ladder is: changing any of it makes another ladder.
#[derive(Debug, Clone)]
pub struct LadderSpec {
    pub game: String,
    pub kind: Kind,
    /// Seats per match.
    pub players: usize,
    pub rounds: u32,
    pub seed: u64,
    pub config: serde_json::Value,
    pub limits: Limits,
    /// The bots, in ladder position order.
    pub bots: Vec<BotRecord>,
}

#[derive(Debug, thiserror::Error)]
pub enum LadderError {
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
    Rating(#[from] ratings::RatingError),
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
    #[error("bot `{name}` plays no match of ladder {ladder}; its bots are {bots}")]
    NotInLadder {
        ladder: i64,
        name: String,
        bots: String,
    },
}

/// The identity of a ladder: sha256 of everything that determines its matches.
pub fn ladder_key(spec: &LadderSpec) -> String {
    #[derive(Serialize)]
    struct Key<'a> {
        game: &'a str,
        kind: &'a Kind,
        players: usize,
        rounds: u32,
        seed: u64,
        config: &'a serde_json::Value,
        limits: &'a Limits,
        bots: Vec<&'a str>,
    }
    let mut limits = spec.limits.clone();
    limits.backstop_ms = 0;
    let key = Key {
        game: &spec.game,
        kind: &spec.kind,
        players: spec.players,
        rounds: spec.rounds,
        seed: spec.seed,
        config: &spec.config,
        limits: &limits,
        bots: spec.bots.iter().map(|b| b.sha256.as_str()).collect(),
    };
    ludus_host::sha256_hex(&serde_json::to_vec(&key).expect("key serialises"))
}

pub use crate::worker::Progress;

/// Creates the ladder (its bots, its schedule, what a worker needs to play
/// it), or finds it when it exists: the same spec is the same ladder, and
/// the stored schedule is what is played, so a ladder keeps meaning the
/// same matches. Returns its id.
pub fn create(store: &mut Store, spec: &LadderSpec) -> Result<i64, LadderError> {
    // The game, its seat count and its config, checked before anything is stored.
    let game = ludus_engine::registry::info(&spec.game)?;
    ludus_engine::new_game(&spec.game, &spec.config, 0, spec.players)?;
    let matches = schedule(
        &spec.kind,
        spec.bots.len(),
        spec.players,
        spec.rounds,
        spec.seed,
        game,
    )?;
    let limits = serde_json::to_value(&spec.limits).expect("limits serialise");
    let config = spec.config.clone();
    let needs = Needs::of_this_build(game.rules_version);
    let key = ladder_key(spec);
    Ok(store.ensure_ladder(&NewLadder {
        key: &key,
        game: &spec.game,
        kind: spec.kind.label(),
        players: spec.players as u32,
        rounds: spec.rounds,
        seed: spec.seed,
        config: &config,
        limits: &limits,
        needs: &needs,
        bots: &spec.bots,
        schedule: &matches,
    })?)
}

/// Creates (or finds) the ladder and plays its matches as a worker of
/// `threads` threads until every one is done, committing each result as it
/// finishes; other processes on the same database share the work. Calls
/// `on_progress` after every commit. Returns the ladder id.
pub fn run(
    store: &mut Store,
    sandbox: &Sandbox,
    spec: &LadderSpec,
    threads: usize,
    on_progress: impl FnMut(&Progress),
) -> Result<i64, LadderError> {
    let id = create(store, spec)?;
    let options = WorkerOptions {
        ladder: Some(id),
        ..WorkerOptions::new(threads)
    };
    crate::worker::work(store, sandbox, &options, on_progress)?;
    Ok(id)
}

/// The rated games of a ladder's matches before `end`, in schedule order,
/// with their indices (aborted and void matches are not rated): what
/// ratings are applied from, and recomputed from.
pub fn rated_games_before(
    store: &Store,
    ladder: i64,
    end: u32,
) -> Result<Vec<(u32, GameResult)>, LadderError> {
    Ok(store
        .rated_games_before(ladder, end)?
        .into_iter()
        .map(|g| (g.index, GameResult::new(g.seats, g.placements)))
        .collect())
}

/// Rating systems stored per ladder.
pub const ELO: &str = "elo";
pub const BRADLEY_TERRY: &str = "bradley-terry";
pub const WENG_LIN: &str = "weng-lin";

/// Applies the ratings of the ladder's finished prefix: the matches before
/// the first one without a result, all of them, in schedule order. One
/// process at a time does it, under the ladder's rating lock, so the
/// ratings never depend on how many workers there were or which finished
/// first. Returns the end of the rated prefix.
pub fn apply_ratings(store: &Store, ladder: i64) -> Result<u32, LadderError> {
    store.with_rating_lock(ladder, |store| {
        let record = store.ladder(ladder)?;
        let end = store.finished_prefix(ladder)?;
        if end == record.rated_through && end > 0 {
            return Ok(end);
        }
        let rated = rated_games_before(store, ladder, end)?;
        let n = record.bots.len();
        // Elo one match at a time, keeping each seat's rating after the
        // matches rated now, for the bots' pages.
        let from = record.rated_through.min(end);
        let history = crate::store::elo_history(n, &rated, from)?;
        let games: Vec<GameResult> = rated.into_iter().map(|(_, g)| g).collect();
        let rows: Vec<_> = history
            .ratings
            .iter()
            .enumerate()
            .map(|(i, &r)| (i, r, 0.0))
            .collect();
        store.save_ratings(ladder, ELO, &rows)?;
        store.save_elo_history(ladder, (from, end), &history)?;
        if record.players == 2 {
            let bt = ratings::bradley_terry::fit(n, &games, Default::default())?;
            let rows: Vec<_> = (0..n).map(|i| (i, bt.ratings[i], bt.ci95(i))).collect();
            store.save_ratings(ladder, BRADLEY_TERRY, &rows)?;
        } else {
            let mut wl = ratings::weng_lin::WengLinLadder::new(n, Default::default())?;
            wl.apply_all(&games)?;
            let rows: Vec<_> = wl
                .ratings()
                .iter()
                .enumerate()
                .map(|(i, s)| (i, s.ordinal(), 3.0 * s.sigma))
                .collect();
            store.save_ratings(ladder, WENG_LIN, &rows)?;
        }
        store.set_rated_through(ladder, end)?;
        Ok(end)
    })
}
