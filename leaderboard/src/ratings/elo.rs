//! Elo ratings for the running ladder, updated game by game.
//!
//! # The formula
//!
//! For bots A and B rated `Ra` and `Rb`, A's expected score is
//!
//! ```text
//! Ea = 1 / (1 + 10^((Rb − Ra) / 400))
//! ```
//!
//! and after a game where A scored `Sa` (1 win, ½ draw, 0 loss) the ratings
//! move by `Ra' = Ra + K·(Sa − Ea)` and `Rb' = Rb − K·(Sa − Ea)` (Elo, *The
//! Rating of Chessplayers*, 1978; the expected score comes from the
//! `skillratings` crate's `elo::expected_score`).
//!
//! # Defaults
//!
//! New bots start at [`INITIAL_RATING`] = 1500. The default K is
//! [`DEFAULT_K`] = 16, the value chess federations use for established
//! players: a bot's strength does not change between its games, and ladders
//! play many games, so the lower K gives a steadier ladder than 32 (the usual
//! value for newcomers).
//!
//! # Multi-seat games
//!
//! A game of n seats is split into its n(n−1)/2 pairs of seats, each pair
//! once, scored by placement (the better placement wins, an equal one draws),
//! each with `K / (n − 1)`, so that a bot's total weight per game is K
//! whatever the table size. All pairs are computed from the ratings *before*
//! the game and their changes are summed and applied together, so the order of
//! the seats does not matter. For two seats this is exactly the classic update.
//!
//! # Order
//!
//! Elo depends on the order of the games: the caller passes them in schedule
//! order (not completion order), so that the thread count cannot change a
//! rating. Ratings are zero-sum: a game never changes the sum of the ratings
//! (up to rounding).

use serde::{Deserialize, Serialize};
use skillratings::elo::{expected_score as sr_expected_score, EloRating};

use super::{validate_games, GameResult, RatingError};

/// Rating of a bot that has played no game.
pub const INITIAL_RATING: f64 = 1500.0;

/// Default K factor (see the module documentation).
pub const DEFAULT_K: f64 = 16.0;

/// Elo parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct EloConfig {
    /// The K factor: the most a rating can move in one two-seat game.
    pub k: f64,
    /// The rating of a new bot.
    pub initial: f64,
}

impl Default for EloConfig {
    /// K = 16, initial rating 1500.
    fn default() -> Self {
        EloConfig {
            k: DEFAULT_K,
            initial: INITIAL_RATING,
        }
    }
}

impl EloConfig {
    fn check(&self) -> Result<(), RatingError> {
        if !(self.k.is_finite() && self.k > 0.0) {
            return Err(RatingError::InvalidConfig(format!(
                "Elo K must be finite and positive, got {}",
                self.k
            )));
        }
        if !self.initial.is_finite() {
            return Err(RatingError::InvalidConfig(format!(
                "Elo initial rating must be finite, got {}",
                self.initial
            )));
        }
        Ok(())
    }
}

/// Expected score of a bot rated `a` against one rated `b`:
/// `1 / (1 + 10^((b − a)/400))`.
pub fn expected_score(a: f64, b: f64) -> f64 {
    sr_expected_score(&EloRating { rating: a }, &EloRating { rating: b }).0
}

/// The rating changes (in seat order) that one game causes, from the ratings
/// before the game; see the module documentation for multi-seat games.
///
/// `ratings` is indexed by bot. The game must be valid for `ratings.len()`
/// bots (see [`GameResult::validate`]).
pub fn game_deltas(ratings: &[f64], game: &GameResult, k: f64) -> Vec<f64> {
    let n = game.seats();
    let k_pair = k / (n as f64 - 1.0);
    let mut deltas = vec![0.0; n];
    for s in 0..n {
        for t in s + 1..n {
            let (a, b) = (game.bots[s], game.bots[t]);
            let score =
                super::Outcome::from_placements(game.placements[s], game.placements[t]).score();
            let change = k_pair * (score - expected_score(ratings[a], ratings[b]));
            deltas[s] += change;
            deltas[t] -= change;
        }
    }
    deltas
}

/// The Elo ratings of a ladder, updated one game at a time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EloLadder {
    config: EloConfig,
    ratings: Vec<f64>,
    games: Vec<u64>,
}

impl EloLadder {
    /// A ladder of `n_bots` bots, all at `config.initial`.
    pub fn new(n_bots: usize, config: EloConfig) -> Result<Self, RatingError> {
        config.check()?;
        Ok(EloLadder {
            config,
            ratings: vec![config.initial; n_bots],
            games: vec![0; n_bots],
        })
    }

    /// A ladder resumed from stored ratings and game counts (one per bot).
    pub fn from_ratings(
        ratings: Vec<f64>,
        games: Vec<u64>,
        config: EloConfig,
    ) -> Result<Self, RatingError> {
        config.check()?;
        if ratings.len() != games.len() {
            return Err(RatingError::InvalidConfig(format!(
                "{} ratings but {} game counts",
                ratings.len(),
                games.len()
            )));
        }
        if let Some(r) = ratings.iter().find(|r| !r.is_finite()) {
            return Err(RatingError::InvalidConfig(format!(
                "stored Elo rating is not finite: {r}"
            )));
        }
        Ok(EloLadder {
            config,
            ratings,
            games,
        })
    }

    /// Adds a bot at the initial rating and returns its index.
    pub fn add_bot(&mut self) -> usize {
        self.ratings.push(self.config.initial);
        self.games.push(0);
        self.ratings.len() - 1
    }

    /// Applies one game. On error nothing changes (the error names it game 0).
    pub fn apply(&mut self, game: &GameResult) -> Result<(), RatingError> {
        game.validate(0, self.ratings.len())?;
        self.apply_valid(game);
        Ok(())
    }

    /// Applies the games in the given order. All games are checked first: on
    /// error nothing changes, and the error names the game's position.
    pub fn apply_all(&mut self, games: &[GameResult]) -> Result<(), RatingError> {
        validate_games(games, self.ratings.len())?;
        for game in games {
            self.apply_valid(game);
        }
        Ok(())
    }

    fn apply_valid(&mut self, game: &GameResult) {
        let deltas = game_deltas(&self.ratings, game, self.config.k);
        for (&bot, delta) in game.bots.iter().zip(deltas) {
            self.ratings[bot] += delta;
            self.games[bot] += 1;
        }
    }

    /// The configuration.
    pub fn config(&self) -> &EloConfig {
        &self.config
    }

    /// Every bot's rating, by index.
    pub fn ratings(&self) -> &[f64] {
        &self.ratings
    }

    /// One bot's rating.
    pub fn rating(&self, bot: usize) -> f64 {
        self.ratings[bot]
    }

    /// Every bot's number of games, by index.
    pub fn games(&self) -> &[u64] {
        &self.games
    }

    /// Bot indices from the highest rating to the lowest; equal ratings keep
    /// index order.
    pub fn standings(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.ratings.len()).collect();
        order.sort_by(|&a, &b| self.ratings[b].total_cmp(&self.ratings[a]).then(a.cmp(&b)));
        order
    }
}

/// Elo ratings of `n_bots` bots after `games`, applied in order from the
/// initial rating.
pub fn elo_ratings(
    n_bots: usize,
    games: &[GameResult],
    config: EloConfig,
) -> Result<Vec<f64>, RatingError> {
    let mut ladder = EloLadder::new(n_bots, config)?;
    ladder.apply_all(games)?;
    Ok(ladder.ratings)
}
