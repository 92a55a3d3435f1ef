//! The engine contract and every game Ludus hosts.
//!
//! Engines are pure state machines: no I/O, no wall clock, no threads, no
//! iteration over hash-ordered maps. All randomness comes from [`rng::stream`]
//! seeded from the match seed, so the same (game, rules version, config, seed,
//! answers) gives the same game on every machine.
//! [`kaggle`] holds what the two Kaggle ports (Kore and Halite) share.

pub mod claim;
pub mod conquest;
pub mod fences;
pub mod game_info;
pub mod grid;
pub mod halite;
pub mod kaggle;
pub mod kore;
pub mod loops;
pub mod pirates;
pub mod planet_wars;
pub mod reference;
pub mod registry;
pub mod rng;
pub mod shields;
pub mod sight;

pub use game_info::GameInfo;
pub use registry::{games, new_game};

use serde::{Deserialize, Serialize};

/// A seat's place at the table, counted from 0. Bots see themselves as player 1;
/// seats are what the host and the replay use.
pub type Seat = usize;

/// Why a game could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("unknown game `{id}`; the games are {games}")]
    UnknownGame {
        id: String,
        /// The ids of every game, as text (`planet-wars, kore, ...`).
        games: String,
    },
    #[error("{game} is played by {allowed} players, not {got}")]
    PlayerCount {
        game: &'static str,
        /// The seat counts the game allows, as text (`2 or 4`).
        allowed: String,
        got: usize,
    },
    #[error("invalid config for {game}: {reason}")]
    Config { game: &'static str, reason: String },
}

/// One part of a seat's answer that the engine refused, and why. Refusals are
/// data: they go into the replay and never disqualify anybody.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rejection {
    pub seat: Seat,
    /// Short machine-readable kind, e.g. `unparseable`, `not_your_planet`.
    pub kind: String,
    /// What was refused and why, in words a bot author can act on.
    pub reason: String,
}

/// The end of a game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// Per seat: the game's score (higher is better).
    pub scores: Vec<f64>,
    /// Per seat: 1 for first place; tied seats share a place (1, 1, 3, ...).
    pub placements: Vec<u32>,
    /// Why the game ended, e.g. `"last player standing"` or `"turn limit (500) reached: a tie"`.
    pub reason: String,
}

/// A game in progress, as the host drives it. Object safe so the host can play
/// any registered game; each game keeps its typed actions inside.
pub trait Game: Send {
    /// Registry id, e.g. `planet-wars`.
    fn id(&self) -> &'static str;
    /// Version of the rules this engine implements; part of every replay.
    fn rules_version(&self) -> u32;
    /// Number of seats.
    fn players(&self) -> usize;
    /// Turns resolved so far (0 before the first `step`).
    fn turn(&self) -> u32;
    /// The full setup that, with the seed, determines the game (e.g. the map);
    /// stored in the replay so a match can be re-run even if generators change.
    fn setup(&self) -> serde_json::Value;
    /// Writes what `seat` sees this turn into `out` (cleared first), as the
    /// JSON text its bot receives.
    fn observation(&self, seat: Seat, out: &mut String);
    /// Whether `seat`'s bot is asked for an answer this turn. Games played
    /// in turn order ask only the seat to move; the host records the others
    /// as waiting, without calling them, and passes `None` for them to
    /// [`Game::step`]. Every seat, unless a game says otherwise.
    fn asks(&self, seat: Seat) -> bool {
        let _ = seat;
        true
    }

    /// Resolves one turn from every seat's raw answer. `None` means the seat
    /// gave no answer this turn (a fault, it is out of the match, or it was
    /// not asked).
    /// Returns what was refused, seat by seat in order.
    fn step(&mut self, answers: &[Option<&str>]) -> Vec<Rejection>;
    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// sha256 of a canonical encoding of the full state.
    fn state_hash(&self) -> [u8; 32];
    /// A compact per-seat score of the current state (e.g. ships held), for
    /// progress displays and replays.
    fn scores(&self) -> Vec<f64>;

    /// For games whose observations hide part of the state (fog of war):
    /// writes the whole state as JSON text into `out` (cleared first) and
    /// returns `true`; the replay viewer draws the whole board from it. The
    /// default, for games where every seat sees everything, writes nothing
    /// and returns `false`.
    fn spectator(&self, _out: &mut String) -> bool {
        false
    }

    /// Writes what `seat` sees as JSON text into `out` (cleared first), in
    /// the shape of the game's reference implementation where it has one
    /// (Kaggle's `observation` for Kore and Halite, keys in upstream's order).
    /// `ludus engine run` prints it for seat 0 and the fidelity tests compare
    /// it with upstream's. Defaults to the bot observation.
    fn reference_observation(&self, seat: Seat, out: &mut String) {
        self.observation(seat, out);
    }

    /// Per seat, the reward as the reference reports it, ints and floats kept
    /// apart as the reference has them. Defaults to [`Game::scores`].
    fn rewards(&self) -> Vec<serde_json::Value> {
        self.scores()
            .into_iter()
            .map(serde_json::Value::from)
            .collect()
    }

    /// Per seat, the reference's status word: `ACTIVE` while playing, `DONE`
    /// once finished; games with agent errors also use `ERROR` and `INVALID`.
    fn statuses(&self) -> Vec<&'static str> {
        let done = self.outcome().is_some();
        vec![if done { "DONE" } else { "ACTIVE" }; self.players()]
    }
}

/// Placements from scores, higher is better; equal scores share a place.
pub fn placements_from_scores(scores: &[f64]) -> Vec<u32> {
    scores
        .iter()
        .map(|s| 1 + scores.iter().filter(|o| *o > s).count() as u32)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tied_scores_share_a_place() {
        assert_eq!(
            placements_from_scores(&[3.0, 5.0, 3.0, 1.0]),
            vec![2, 1, 2, 4]
        );
        assert_eq!(placements_from_scores(&[0.0, 0.0]), vec![1, 1]);
    }
}
