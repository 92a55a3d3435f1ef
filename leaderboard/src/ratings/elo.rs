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

use super::{GameResult, Incremental, Ladder, RatingError};

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

impl Incremental for EloConfig {
    type Rating = f64;
    const RATINGS: &'static str = "ratings";

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

    fn initial(&self) -> f64 {
        self.initial
    }

    /// Each seat's rating plus its [`game_deltas`].
    fn rate(&self, ratings: &[f64], game: &GameResult) -> Vec<f64> {
        let deltas = game_deltas(ratings, game, self.k);
        game.bots
            .iter()
            .zip(deltas)
            .map(|(&bot, delta)| ratings[bot] + delta)
            .collect()
    }

    fn invalid(rating: &f64) -> Option<String> {
        (!rating.is_finite()).then(|| format!("stored Elo rating is not finite: {rating}"))
    }

    fn rank_key(rating: &f64) -> f64 {
        *rating
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

/// The Elo ratings of a ladder, updated one game at a time; ranked from
/// the highest rating.
pub type EloLadder = Ladder<EloConfig>;

/// Elo ratings of `n_bots` bots after `games`, applied in order from the
/// initial rating.
pub fn elo_ratings(
    n_bots: usize,
    games: &[GameResult],
    config: EloConfig,
) -> Result<Vec<f64>, RatingError> {
    EloLadder::ratings_after(n_bots, games, config)
}
