//! Ratings: pure, deterministic functions from game results to ratings.
//!
//! Three systems, for three uses:
//!
//! - [`elo`]: the running ladder. Games are applied one by one in the order
//!   given (the schedule order, so the number of worker threads cannot change
//!   a rating); multi-seat games are split into pairs.
//! - [`bradley_terry`]: the order-free maximum-likelihood fit over every
//!   pairwise result, on the Elo scale, with 95% intervals. This is the
//!   number to publish at the end of a round robin or a gauntlet.
//! - [`weng_lin`]: Weng–Lin Bayesian ratings (OpenSkill, Bradley–Terry full
//!   pairing), made for 3–4 seat free-for-all tables; bots are ranked by the
//!   "ordinal" μ − 3σ.
//!
//! All of them take the same input: a slice of [`GameResult`] (one per game,
//! bots named by their index `0..n_bots`) and the number of bots. Bots are
//! plain `usize` indices so that a storage layer can map its own ids (rows,
//! names) to `0..n` in a stable order, such as by registration.
//!
//! # Determinism
//!
//! No result depends on hash-map iteration order, the clock or threads: games
//! are read in input order, pairs in seat order, bots in index order. The same
//! input gives bit-identical output on every run. The Bradley–Terry fit is also
//! independent of the order of the games (its counts are accumulated exactly,
//! in integers).

use crate::store::RatedGame;
use serde::{Deserialize, Serialize};
use thiserror::Error;

mod apply;
pub mod bradley_terry;
pub mod elo;
pub mod history;
pub mod weng_lin;

pub use apply::{apply, apply_with, rated_games_before, recompute, Fit, Recomputed};
pub(crate) use apply::{apply_locked, recomputed, save_elo};

/// A rating system, as a ladder stores its ratings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum System {
    /// The running Elo, applied in schedule order.
    Elo,
    /// The Bradley–Terry maximum-likelihood fit, on the Elo scale.
    BradleyTerry,
    /// Weng–Lin, ranked by μ − 3σ.
    WengLin,
}

impl System {
    /// The system that ranks a ladder of `players` seats a match, on every
    /// leaderboard: Bradley–Terry for two seats, Weng–Lin for more.
    pub fn ranking(players: u32) -> System {
        if players == 2 {
            System::BradleyTerry
        } else {
            System::WengLin
        }
    }

    /// The name its ratings are stored under.
    pub fn key(self) -> &'static str {
        match self {
            System::Elo => "elo",
            System::BradleyTerry => "bradley-terry",
            System::WengLin => "weng-lin",
        }
    }

    /// What a table rated by it says of its numbers.
    pub fn describe(self) -> &'static str {
        match self {
            System::Elo => "Elo, in schedule order",
            System::BradleyTerry => "Bradley–Terry (Elo scale, ± 95% interval)",
            System::WengLin => "Weng–Lin μ − 3σ (± 3σ)",
        }
    }
}

/// The outcome of a two-seat game, seen from the first seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// The first seat won.
    Win,
    /// Draw.
    Draw,
    /// The first seat lost.
    Loss,
}

impl Outcome {
    /// The first seat's score: 1 for a win, ½ for a draw, 0 for a loss.
    pub fn score(self) -> f64 {
        match self {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        }
    }

    /// The same game seen from the other seat.
    pub fn reversed(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }

    /// Compares two placements (lower is better): a better placement wins,
    /// an equal one draws.
    pub fn from_placements(first: u32, second: u32) -> Outcome {
        match first.cmp(&second) {
            std::cmp::Ordering::Less => Outcome::Win,
            std::cmp::Ordering::Equal => Outcome::Draw,
            std::cmp::Ordering::Greater => Outcome::Loss,
        }
    }
}

/// The result of one game: which bot sat in each seat and where it placed.
///
/// `placements[s]` is the placement of the bot in seat `s`: 1 is first, and
/// tied seats share a placement (a two-seat draw is `[1, 1]`; a four-seat game
/// with a tie for second is `[1, 2, 2, 4]` or `[1, 2, 2, 3]`: only the order
/// matters). A game has at least two seats, and a bot sits in one seat at
/// most: a stored match seating a bot several times is rated through
/// [`GameResult::of_seats`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameResult {
    /// The bot (index in `0..n_bots`) in each seat.
    pub bots: Vec<usize>,
    /// The placement of each seat: 1 = first, ties share.
    pub placements: Vec<u32>,
}

impl GameResult {
    /// A game with the given bots (in seat order) and placements.
    pub fn new(bots: Vec<usize>, placements: Vec<u32>) -> Self {
        GameResult { bots, placements }
    }

    /// A two-seat game between `first` and `second`, with the outcome for
    /// `first`.
    pub fn duel(first: usize, second: usize, outcome: Outcome) -> Self {
        let placements = match outcome {
            Outcome::Win => vec![1, 2],
            Outcome::Draw => vec![1, 1],
            Outcome::Loss => vec![2, 1],
        };
        GameResult {
            bots: vec![first, second],
            placements,
        }
    }

    /// The game a stored match rates, from the ladder position of each
    /// seat's bot and each seat's placement. A bot seated several times
    /// (a house bot's copies filling a table) is rated once, in the seat it
    /// first sits in, by its best place among its seats: its copies are not
    /// rated against each other. Without a repeated bot, the seats as they
    /// are; seats and placements of different lengths are left as they are
    /// for [`GameResult::validate`] to refuse.
    pub fn of_seats(seats: &[usize], placements: &[u32]) -> Self {
        let rated = rated_seat_of(seats);
        let distinct = rated.iter().max().map_or(0, |&s| s + 1);
        if distinct == seats.len() || seats.len() != placements.len() {
            return GameResult::new(seats.to_vec(), placements.to_vec());
        }
        let mut bots = Vec::with_capacity(distinct);
        let mut best = Vec::with_capacity(distinct);
        for ((&bot, &place), &r) in seats.iter().zip(placements).zip(&rated) {
            if r == bots.len() {
                bots.push(bot);
                best.push(place);
            } else {
                best[r] = best[r].min(place);
            }
        }
        GameResult::new(bots, best)
    }

    /// The number of seats.
    pub fn seats(&self) -> usize {
        self.bots.len()
    }

    /// Every pair of seats once, as `(bot a, bot b, outcome for a)`, with
    /// `a` in the earlier seat; pairs come in seat order `(0,1), (0,2), …,
    /// (1,2), …`. A game of n seats gives n(n−1)/2 pairs.
    pub fn pairs(&self) -> impl Iterator<Item = (usize, usize, Outcome)> + '_ {
        let n = self.bots.len();
        (0..n).flat_map(move |s| {
            (s + 1..n).map(move |t| {
                (
                    self.bots[s],
                    self.bots[t],
                    Outcome::from_placements(self.placements[s], self.placements[t]),
                )
            })
        })
    }

    /// Checks the game against `n_bots`; `index` is the game's position in
    /// its slice, reported in the error.
    pub fn validate(&self, index: usize, n_bots: usize) -> Result<(), RatingError> {
        if self.bots.len() != self.placements.len() {
            return Err(RatingError::LengthMismatch {
                game: index,
                bots: self.bots.len(),
                placements: self.placements.len(),
            });
        }
        if self.bots.len() < 2 {
            return Err(RatingError::TooFewSeats {
                game: index,
                seats: self.bots.len(),
            });
        }
        for (s, &bot) in self.bots.iter().enumerate() {
            if bot >= n_bots {
                return Err(RatingError::UnknownBot {
                    game: index,
                    bot,
                    n_bots,
                });
            }
            if self.bots[..s].contains(&bot) {
                return Err(RatingError::DuplicateBot { game: index, bot });
            }
        }
        Ok(())
    }
}

/// For each seat of a stored match (the ladder position of each seat's
/// bot), the seat of [`GameResult::of_seats`] its bot is rated in: the
/// order in which the bots first sit.
pub fn rated_seat_of(seats: &[usize]) -> Vec<usize> {
    let mut first: Vec<usize> = Vec::with_capacity(seats.len());
    seats
        .iter()
        .map(|bot| {
            first.iter().position(|b| b == bot).unwrap_or_else(|| {
                first.push(*bot);
                first.len() - 1
            })
        })
        .collect()
}

/// Stored rated matches as the rating systems take them
/// ([`GameResult::of_seats`]: a bot seated several times is rated once, by
/// its best place).
pub fn games_of(stored: &[RatedGame]) -> Vec<(u32, GameResult)> {
    stored
        .iter()
        .map(|g| (g.index, GameResult::of_seats(&g.seats, &g.placements)))
        .collect()
}

/// Checks every game of a slice (see [`GameResult::validate`]).
pub fn validate_games(games: &[GameResult], n_bots: usize) -> Result<(), RatingError> {
    games
        .iter()
        .enumerate()
        .try_for_each(|(i, g)| g.validate(i, n_bots))
}

/// A rating system a [`Ladder`] updates one game at a time ([`elo`],
/// [`weng_lin`]), as its parameters (`Self`) say: what each system has of
/// its own, the ladder's bookkeeping being the same for all.
pub trait Incremental: Copy {
    /// A bot's rating.
    type Rating: Copy;
    /// What a ladder's stored ratings are called in its errors.
    const RATINGS: &'static str;
    /// Checks the parameters.
    fn check(&self) -> Result<(), RatingError>;
    /// The rating of a bot that has played no game.
    fn initial(&self) -> Self::Rating;
    /// The ratings of the seats of `game` after it (in seat order), from
    /// `ratings` (by bot) before it; the game is valid for `ratings.len()`
    /// bots (see [`GameResult::validate`]).
    fn rate(&self, ratings: &[Self::Rating], game: &GameResult) -> Vec<Self::Rating>;
    /// What is wrong with a stored rating, if anything.
    fn invalid(rating: &Self::Rating) -> Option<String>;
    /// The number a bot is ranked by, the higher the better.
    fn rank_key(rating: &Self::Rating) -> f64;
}

/// The ratings of a ladder under a system `C` (its parameters), one per
/// bot with its number of games, updated one game at a time in the order
/// given: [`elo::EloLadder`], [`weng_lin::WengLinLadder`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(
    serialize = "C: Serialize, C::Rating: Serialize",
    deserialize = "C: Deserialize<'de>, C::Rating: Deserialize<'de>"
))]
pub struct Ladder<C: Incremental> {
    config: C,
    ratings: Vec<C::Rating>,
    games: Vec<u64>,
}

impl<C: Incremental> Ladder<C> {
    /// A ladder of `n_bots` bots, all at the initial rating of `config`.
    pub fn new(n_bots: usize, config: C) -> Result<Self, RatingError> {
        config.check()?;
        Ok(Ladder {
            config,
            ratings: vec![config.initial(); n_bots],
            games: vec![0; n_bots],
        })
    }

    /// A ladder resumed from stored ratings and game counts (one per bot).
    pub fn from_ratings(
        ratings: Vec<C::Rating>,
        games: Vec<u64>,
        config: C,
    ) -> Result<Self, RatingError> {
        config.check()?;
        if ratings.len() != games.len() {
            return Err(RatingError::InvalidConfig(format!(
                "{} {} but {} game counts",
                ratings.len(),
                C::RATINGS,
                games.len()
            )));
        }
        if let Some(why) = ratings.iter().find_map(C::invalid) {
            return Err(RatingError::InvalidConfig(why));
        }
        Ok(Ladder {
            config,
            ratings,
            games,
        })
    }

    /// Adds a bot at the initial rating and returns its index.
    pub fn add_bot(&mut self) -> usize {
        self.ratings.push(self.config.initial());
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
        let after = self.config.rate(&self.ratings, game);
        for (&bot, rating) in game.bots.iter().zip(after) {
            self.ratings[bot] = rating;
            self.games[bot] += 1;
        }
    }

    /// The configuration.
    pub fn config(&self) -> &C {
        &self.config
    }

    /// Every bot's rating, by index.
    pub fn ratings(&self) -> &[C::Rating] {
        &self.ratings
    }

    /// One bot's rating.
    pub fn rating(&self, bot: usize) -> C::Rating {
        self.ratings[bot]
    }

    /// Every bot's number of games, by index.
    pub fn games(&self) -> &[u64] {
        &self.games
    }

    /// Bot indices from the best rank to the worst
    /// ([`Incremental::rank_key`]); equal ones keep index order.
    pub fn standings(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.ratings.len()).collect();
        order.sort_by(|&a, &b| {
            C::rank_key(&self.ratings[b])
                .total_cmp(&C::rank_key(&self.ratings[a]))
                .then(a.cmp(&b))
        });
        order
    }

    /// The ratings of `n_bots` bots after `games`, applied in order from
    /// the initial rating.
    pub fn ratings_after(
        n_bots: usize,
        games: &[GameResult],
        config: C,
    ) -> Result<Vec<C::Rating>, RatingError> {
        let mut ladder = Ladder::new(n_bots, config)?;
        ladder.apply_all(games)?;
        Ok(ladder.ratings)
    }
}

/// Why a rating could not be computed.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum RatingError {
    /// `bots` and `placements` differ in length.
    #[error("game {game}: {bots} bots but {placements} placements")]
    LengthMismatch {
        /// Position of the game in the input.
        game: usize,
        /// Length of `bots`.
        bots: usize,
        /// Length of `placements`.
        placements: usize,
    },
    /// A game needs two seats at least.
    #[error("game {game}: {seats} seat(s), a game needs at least 2")]
    TooFewSeats {
        /// Position of the game in the input.
        game: usize,
        /// Number of seats.
        seats: usize,
    },
    /// A bot index out of `0..n_bots`.
    #[error("game {game}: bot {bot} is not among the {n_bots} bots")]
    UnknownBot {
        /// Position of the game in the input.
        game: usize,
        /// The bad index.
        bot: usize,
        /// The number of bots.
        n_bots: usize,
    },
    /// The same bot in two seats of one game.
    #[error("game {game}: bot {bot} sits in two seats")]
    DuplicateBot {
        /// Position of the game in the input.
        game: usize,
        /// The repeated bot.
        bot: usize,
    },
    /// A configuration value out of range.
    #[error("invalid configuration: {0}")]
    InvalidConfig(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_seated_twice_is_rated_once_by_its_best_place() {
        // Bot 2 in seats 1 and 3, placed third and first.
        let g = GameResult::of_seats(&[0, 2, 1, 2], &[2, 3, 4, 1]);
        assert_eq!(g, GameResult::new(vec![0, 2, 1], vec![2, 1, 4]));
        assert_eq!(g.validate(0, 3), Ok(()));
        assert_eq!(rated_seat_of(&[0, 2, 1, 2]), vec![0, 1, 2, 1]);
        // Three copies of bot 1.
        let g = GameResult::of_seats(&[1, 1, 0, 1], &[4, 2, 3, 1]);
        assert_eq!(g, GameResult::new(vec![1, 0], vec![1, 3]));
        // No repeated bot: the seats as they are.
        let g = GameResult::of_seats(&[3, 1, 0, 2], &[1, 2, 2, 4]);
        assert_eq!(g, GameResult::new(vec![3, 1, 0, 2], vec![1, 2, 2, 4]));
        assert_eq!(rated_seat_of(&[3, 1, 0, 2]), vec![0, 1, 2, 3]);
        // Nothing hides a malformed match from the check.
        let g = GameResult::of_seats(&[0, 0], &[1]);
        assert!(g.validate(0, 1).is_err());
        assert!(GameResult::new(vec![0, 0], vec![1, 2])
            .validate(0, 1)
            .is_err());
    }
}
