//! Games by id, with their rules versions, seat counts, seed ranges and
//! scores. Registering a game is adding its [`GameInfo`] to [`games`]: every
//! command, and the matrix test that runs every command for every game and
//! seat count, then covers it.

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
    /// What the game's score counts, as the leaderboard heads it: `ships`,
    /// `kore`, `halite`, `cells`, `points`.
    pub score_unit: &'static str,
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
    /// a seat count the game allows; [`new_game`] checks both first.
    pub new: Constructor,
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

/// Every game Ludus hosts.
pub fn games() -> &'static [GameInfo] {
    &[
        crate::planet_wars::INFO,
        crate::kore::INFO,
        crate::halite::INFO,
        crate::claim::INFO,
        crate::loops::INFO,
        crate::shields::INFO,
        crate::conquest::INFO,
        crate::pirates::INFO,
        crate::fences::INFO,
    ]
}

/// Looks up a game by id.
pub fn info(id: &str) -> Result<&'static GameInfo, EngineError> {
    games()
        .iter()
        .find(|g| g.id == id)
        .ok_or_else(|| EngineError::UnknownGame(id.to_string()))
}

/// The ids of every game, for messages: `planet-wars, kore, ...`.
pub fn ids_text() -> String {
    games().iter().map(|g| g.id).collect::<Vec<_>>().join(", ")
}

/// Sets up a new game. `config` is the game's own JSON config (`null` for
/// defaults); any u64 `seed` is valid (see [`GameInfo::game_seed`]).
pub fn new_game(
    id: &str,
    config: &serde_json::Value,
    seed: u64,
    players: usize,
) -> Result<Box<dyn Game>, EngineError> {
    let g = info(id)?;
    check_players(g, players)?;
    (g.new)(config, g.game_seed(seed), players)
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

    #[test]
    fn every_match_seed_reduces_into_the_games_range() {
        let kore = info("kore").unwrap();
        assert_eq!(kore.game_seed(7), 7);
        assert_eq!(kore.game_seed(u32::MAX as u64), u32::MAX as u64);
        assert_eq!(kore.game_seed(1 << 32), 0);
        assert!(kore.game_seed(13302247461581951591) <= kore.max_seed);
        let pw = info("planet-wars").unwrap();
        assert_eq!(pw.game_seed(u64::MAX), u64::MAX);
    }

    #[test]
    fn every_game_builds_at_every_seat_count_from_any_seed() {
        for g in games() {
            assert!(!g.seats.is_empty() && g.seats.windows(2).all(|w| w[0] < w[1]));
            for &players in g.seats {
                for seed in [0, 1, u32::MAX as u64 + 5, u64::MAX] {
                    let game = new_game(g.id, &serde_json::Value::Null, seed, players)
                        .unwrap_or_else(|e| {
                            panic!("{} with {players} seats, seed {seed}: {e}", g.id)
                        });
                    assert_eq!(game.players(), players);
                    assert_eq!(game.id(), g.id);
                }
            }
            let refused = (0..=8).find(|n| !g.allows(*n)).unwrap();
            assert!(matches!(
                new_game(g.id, &serde_json::Value::Null, 0, refused),
                Err(EngineError::PlayerCount { .. })
            ));
        }
    }
}
