//! Games by id, with their rules versions, seat counts, seed ranges, scores
//! and what their seats see. Registering a game is adding its [`GameInfo`]
//! to [`games`]: every command, the matrix test that runs every command for
//! every game and seat count, and the leak test (`engine/tests/leaks.rs`)
//! then cover it.

pub use crate::game_info::{check_players, Constructor, GameInfo};
use crate::{EngineError, Game};

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
        .ok_or_else(|| EngineError::UnknownGame {
            id: id.to_string(),
            games: ids_text(),
        })
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

#[cfg(test)]
mod tests {
    use super::*;

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
