//! Running a ladder: the schedule played in parallel (rayon), each finished
//! match committed at once, ratings applied in schedule order so that the
//! thread count never changes a number.

use crate::ratings::{self, GameResult};
use crate::schedule::{schedule, Kind, ScheduleError, ScheduledMatch};
use crate::store::{BotRecord, MatchResult, Store, StoreError};
use ludus_host::{BotModule, Limits, MatchSpec, PlayError, Sandbox};
use serde::Serialize;
use std::sync::Arc;

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

/// Progress of a running ladder.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    /// Matches with a result, including those of earlier runs.
    pub done: usize,
    pub total: usize,
    /// Matches that had a result before this run started.
    pub resumed: usize,
}

/// Creates (or finds) the ladder and plays every match without a result, on
/// `threads` threads, committing each result as it finishes. Calls
/// `on_progress` after every commit. Returns the ladder id.
///
/// The process claims the ladder first ([`Store::claim_ladder`]): a second
/// process running the same ladder is refused with the first one's pid,
/// host and start, and plays nothing twice. The stored schedule is what is
/// played, so a ladder keeps meaning the same matches.
pub fn run(
    store: &mut Store,
    sandbox: &Sandbox,
    spec: &LadderSpec,
    threads: usize,
    mut on_progress: impl FnMut(Progress),
) -> Result<i64, LadderError> {
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
    let limits_json = serde_json::to_value(&spec.limits).expect("limits serialise");
    let id = store.ensure_ladder(
        &ladder_key(spec),
        &spec.game,
        spec.kind.label(),
        spec.players as u32,
        spec.rounds,
        spec.seed,
        &spec.config,
        &limits_json,
        &spec.bots,
        &matches,
    )?;
    let _claim = store.claim_ladder(id)?;
    let finished = store.finished(id)?;
    let pending: Vec<ScheduledMatch> = store
        .schedule(id)?
        .into_iter()
        .filter(|m| !finished.contains(&m.index))
        .collect();
    let total = finished.len() + pending.len();
    let mut progress = Progress {
        done: finished.len(),
        total,
        resumed: finished.len(),
    };
    on_progress(progress);
    if pending.is_empty() {
        rate(store, id)?;
        return Ok(id);
    }

    // Compile every bot once; instances are per match.
    let modules: Vec<Arc<BotModule>> = spec
        .bots
        .iter()
        .map(|b| {
            let refused = |e: ludus_host::LoadError| LadderError::Bot {
                name: b.name.clone(),
                version: b.version,
                reason: e.to_string(),
            };
            // The store is keyed by sha256: a bot compiled before is not
            // read out of it and hashed again.
            match sandbox.load_compiled(&b.name, &b.sha256).map_err(refused)? {
                Some(module) => Ok(module),
                None => {
                    let wasm = store.wasm(&b.sha256)?;
                    sandbox.load(&b.name, &wasm).map_err(refused)
                }
            }
        })
        .collect::<Result<_, _>>()?;

    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| LadderError::Threads(threads, e.to_string()))?;
    let (tx, rx) = std::sync::mpsc::channel::<(u32, Result<(MatchResult, Vec<u8>), LadderError>)>();
    let mut first_error = None;
    std::thread::scope(|scope| {
        scope.spawn(|| {
            pool.install(|| {
                use rayon::prelude::*;
                pending.par_iter().for_each_with(tx, |tx, m| {
                    let outcome = play_one(spec, &modules, m);
                    // The receiver only goes away after an error; then stop quietly.
                    let _ = tx.send((m.index, outcome));
                });
            })
        });
        // The single writer: commit each result as it arrives.
        for (_, outcome) in rx {
            if first_error.is_some() {
                continue;
            }
            match outcome.and_then(|(result, replay)| Ok(store.record(id, &result, &replay)?)) {
                Ok(()) => {
                    progress.done += 1;
                    on_progress(progress);
                }
                Err(e) => first_error = Some(e),
            }
        }
    });
    if let Some(e) = first_error {
        return Err(e);
    }
    rate(store, id)?;
    Ok(id)
}

fn play_one(
    spec: &LadderSpec,
    modules: &[Arc<BotModule>],
    m: &ScheduledMatch,
) -> Result<(MatchResult, Vec<u8>), LadderError> {
    let match_spec = MatchSpec {
        game: spec.game.clone(),
        config: spec.config.clone(),
        seed: m.seed,
        limits: spec.limits.clone(),
        bots: m.seats.iter().map(|&b| modules[b].clone()).collect(),
    };
    let replay = ludus_host::play(&match_spec).map_err(|source| LadderError::Play {
        index: m.index,
        bots: m
            .seats
            .iter()
            .map(|&b| spec.bots[b].name.as_str())
            .collect::<Vec<_>>()
            .join(" vs "),
        source,
    })?;
    let (placements, scores, reason) = match &replay.outcome {
        Some(o) => (o.placements.clone(), o.scores.clone(), o.reason.clone()),
        None => (Vec::new(), Vec::new(), String::new()),
    };
    let result = MatchResult {
        index: m.index,
        match_id: replay.match_id.clone(),
        placements,
        scores,
        faults: replay
            .fault_counts()
            .into_iter()
            .map(|n| n as u32)
            .collect(),
        turns: replay.turns.len() as u32,
        reason,
        aborted: replay.aborted.clone(),
    };
    Ok((result, replay.to_bytes(true)))
}

/// The rated games of a ladder, in schedule order (aborted matches are not rated).
pub fn games(store: &Store, ladder: i64) -> Result<Vec<GameResult>, LadderError> {
    let schedule = store.schedule(ladder)?;
    Ok(store
        .results(ladder)?
        .into_iter()
        .filter(|r| r.aborted.is_none())
        .map(|r| GameResult::new(schedule[r.index as usize].seats.clone(), r.placements))
        .collect())
}

/// Rating systems stored per ladder.
pub const ELO: &str = "elo";
pub const BRADLEY_TERRY: &str = "bradley-terry";
pub const WENG_LIN: &str = "weng-lin";

/// Recomputes and stores the ladder's ratings from all its results, in
/// schedule order: Elo and Bradley–Terry for two seats, Weng–Lin (μ − 3σ)
/// for more.
pub fn rate(store: &mut Store, ladder: i64) -> Result<(), LadderError> {
    let record = store.ladder(ladder)?;
    let n = record.bots.len();
    let games = games(store, ladder)?;
    let elo = ratings::elo::elo_ratings(n, &games, Default::default())?;
    store.save_ratings(
        ladder,
        ELO,
        &elo.iter()
            .enumerate()
            .map(|(i, &r)| (i, r, 0.0))
            .collect::<Vec<_>>(),
    )?;
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
    Ok(())
}
