//! Head-to-head: two bots play seat-swapped game pairs on fresh seeds until a
//! pentanomial SPRT decides, as chess engine testing does.

use crate::ratings::Outcome;
use crate::sprt::{Sprt, SprtConfig, SprtError};
use ludus_engine::GameInfo;
use ludus_host::{BotModule, Limits, MatchSpec, PlayError};
use rayon::prelude::*;
use std::sync::Arc;

/// A head-to-head test of `a` (the tested bot) against `b`.
#[derive(Debug, Clone)]
pub struct MatchUp {
    pub game: String,
    pub config: serde_json::Value,
    pub limits: Limits,
    /// Pair `k` is played on a seed derived from this seed and `k`.
    pub seed: u64,
    pub a: Arc<BotModule>,
    pub b: Arc<BotModule>,
    pub sprt: SprtConfig,
    /// Stop undecided after this many pairs.
    pub max_pairs: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum MatchUpError {
    #[error(transparent)]
    Engine(#[from] ludus_engine::EngineError),
    #[error(transparent)]
    Sprt(#[from] SprtError),
    #[error("pair {pair}: {source}")]
    Play { pair: u64, source: PlayError },
    #[error("pair {pair} was aborted by the wall-clock backstop: {reason}")]
    Aborted { pair: u64, reason: String },
}

/// The seed of pair `k`, in `game`'s seed range as a ladder's match seeds are.
pub fn pair_seed(game: &GameInfo, seed: u64, k: u64) -> u64 {
    game.game_seed(ludus_engine::rng::derive_seed(
        seed,
        &format!("match-up/pair-{k}"),
    ))
}

fn play_pair(m: &MatchUp, game: &GameInfo, k: u64) -> Result<(Outcome, Outcome), MatchUpError> {
    let seed = pair_seed(game, m.seed, k);
    let mut outcomes = [Outcome::Draw; 2];
    for (game, (seats, a_seat)) in [
        (vec![m.a.clone(), m.b.clone()], 0),
        (vec![m.b.clone(), m.a.clone()], 1),
    ]
    .into_iter()
    .enumerate()
    {
        let replay = ludus_host::play(&MatchSpec {
            game: m.game.clone(),
            config: m.config.clone(),
            seed,
            limits: m.limits.clone(),
            bots: seats,
        })
        .map_err(|source| MatchUpError::Play { pair: k, source })?;
        let outcome = replay.outcome.ok_or_else(|| MatchUpError::Aborted {
            pair: k,
            reason: replay.aborted.clone().unwrap_or_default(),
        })?;
        outcomes[game] =
            Outcome::from_placements(outcome.placements[a_seat], outcome.placements[1 - a_seat]);
    }
    Ok((outcomes[0], outcomes[1]))
}

/// Plays pairs, `threads` at a time, applying them in pair order, until the
/// SPRT decides or `max_pairs` is reached. Calls `on_pair` after each pair.
/// The result does not depend on `threads`.
pub fn run(
    m: &MatchUp,
    threads: usize,
    mut on_pair: impl FnMut(&Sprt),
) -> Result<Sprt, MatchUpError> {
    let mut sprt = Sprt::new(m.sprt)?;
    // The game, its two seats and its config, checked before any match.
    let game = ludus_engine::registry::info(&m.game)?;
    ludus_engine::new_game(&m.game, &m.config, 0, 2)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .expect("a thread pool");
    let batch = threads.max(1) as u64;
    let mut next = 0u64;
    while next < m.max_pairs && sprt.decision().is_none() {
        let ks: Vec<u64> = (next..(next + batch).min(m.max_pairs)).collect();
        let results: Vec<_> =
            pool.install(|| ks.par_iter().map(|&k| play_pair(m, game, k)).collect());
        for r in results {
            let (first, second) = r?;
            sprt.add_pair(first, second);
            on_pair(&sprt);
            if sprt.decision().is_some() {
                break;
            }
        }
        next += batch;
    }
    Ok(sprt)
}
