//! What the registry knows of a game, in a module of its own so that each
//! game declares its entry without depending on the registry that lists it.

use crate::sight::Sight;
use crate::{EngineError, Game};

/// Builds a game from its JSON config, a seed and a seat count.
pub type Constructor = fn(&serde_json::Value, u64, usize) -> Result<Box<dyn Game>, EngineError>;

/// A registered game.
#[derive(Debug, Clone, Copy)]
pub struct GameInfo {
    pub id: &'static str,
    pub rules_version: u32,
    /// The seat counts the game allows, ascending (Kore: 2 and 4, not 3).
    pub seats: &'static [usize],
    /// The game's own generators take seeds from 0 to `max_seed` (Kore and
    /// Halite: Python's, 0 to 2^32 − 1). Match seeds are reduced into that
    /// range by [`GameInfo::game_seed`].
    pub max_seed: u64,
    /// What the outcome's score counts, as every table heads its column
    /// (`ludus games`, `play`, `replay show`, leaderboards) and the game's
    /// page names it: Planet Wars' `share` (of the opponents outlasted, 0 to
    /// 1), `kore`, `halite`, `cells`, `gold`, `points`.
    pub score_unit: &'static str,
    /// What the running score ([`Game::scores`](crate::Game::scores), kept
    /// in every turn of a replay) counts, where it is not the outcome's
    /// score: Planet Wars' `ships`, shown beside the score by `play` and
    /// `replay show`. `None` where the outcome's score is the final running
    /// score.
    pub progress_unit: Option<&'static str>,
    /// The [`Rejection`](crate::Rejection) kinds with which the game refuses
    /// a seat's answer as a whole, because it cannot read it as this game's
    /// answer at all: `unparseable` for most games; Kore's `not_json`,
    /// `not_an_object` and `agent_error`; Halite's `unparseable` and
    /// `invalid_action` (for the Kaggle games, a value outside the action
    /// language puts the seat out, as upstream does). Any other kind refuses
    /// one move inside a readable answer. A validation match (`ludus check`,
    /// `ludus submit`) fails a bot on these kinds and warns on the others.
    pub unreadable: &'static [&'static str],
    pub summary: &'static str,
    /// Builds a game from its JSON config, a seed within `0..=max_seed` and
    /// a seat count the game allows; [`new_game`](crate::new_game) checks
    /// both first.
    pub new: Constructor,
    /// The longest answer the game reads, in bytes: a longer one is a fault
    /// (the answer is too large) before the game sees it, so that no replay
    /// keeps a bot's megabytes of padding. Generous for every real answer
    /// of the game (Planet Wars: its most moves a turn, written out).
    pub answer_bytes: u64,
    /// Whether each seat sees the whole state or a part of it, and for a
    /// game with a hidden part, how the leak test changes what a seat
    /// cannot see (see [`crate::sight`]).
    pub sight: Sight,
}

impl GameInfo {
    /// The fewest seats the game is played with.
    pub fn fewest_seats(&self) -> usize {
        self.seats[0]
    }

    /// Whether the game is played with `players` seats.
    pub fn allows(&self, players: usize) -> bool {
        self.seats.contains(&players)
    }

    /// Whether a rejection of `kind` refuses an answer as a whole, because
    /// the game cannot read it (see [`GameInfo::unreadable`]).
    pub fn is_unreadable(&self, kind: &str) -> bool {
        self.unreadable.contains(&kind)
    }

    /// The seat counts as people write them: `2, 3, 4` or `4`.
    pub fn seats_text(&self) -> String {
        seats_text(self.seats)
    }

    /// The seed the game's generators get for a match seed: the match seed
    /// itself when it is in `0..=max_seed`, else the match seed modulo
    /// `max_seed + 1`. Every u64 is a valid match seed for every game, and a
    /// seed in range means what the reference means by it.
    pub fn game_seed(&self, match_seed: u64) -> u64 {
        match self.max_seed.checked_add(1) {
            None => match_seed,
            Some(modulus) => match_seed % modulus,
        }
    }
}

/// `[2, 4]` as `2 or 4`, `[2, 3, 4]` as `2, 3 or 4`.
fn seats_text(seats: &[usize]) -> String {
    match seats {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!(
            "{} or {last}",
            init.iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// `Ok` when `game` is played with `players` seats.
pub fn check_players(game: &GameInfo, players: usize) -> Result<(), EngineError> {
    if game.allows(players) {
        Ok(())
    } else {
        Err(EngineError::PlayerCount {
            game: game.id,
            allowed: game.seats_text(),
            got: players,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_counts_read_as_a_set() {
        assert_eq!(seats_text(&[2, 4]), "2 or 4");
        assert_eq!(seats_text(&[2, 3, 4]), "2, 3 or 4");
        assert_eq!(seats_text(&[4]), "4");
    }
}
