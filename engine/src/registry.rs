//! Games by id, with their rules versions.

use crate::{EngineError, Game};

/// A registered game.
#[derive(Debug, Clone, Copy)]
pub struct GameInfo {
    pub id: &'static str,
    pub rules_version: u32,
    pub min_players: usize,
    pub max_players: usize,
    pub summary: &'static str,
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
    ]
}

/// Looks up a game by id.
pub fn info(id: &str) -> Result<&'static GameInfo, EngineError> {
    games()
        .iter()
        .find(|g| g.id == id)
        .ok_or_else(|| EngineError::UnknownGame(id.to_string()))
}

/// Sets up a new game. `config` is the game's own JSON config (`null` for defaults).
pub fn new_game(
    id: &str,
    config: &serde_json::Value,
    seed: u64,
    players: usize,
) -> Result<Box<dyn Game>, EngineError> {
    let g = info(id)?;
    if players < g.min_players || players > g.max_players {
        return Err(EngineError::PlayerCount {
            game: g.id,
            min: g.min_players,
            max: g.max_players,
            got: players,
        });
    }
    match g.id {
        "planet-wars" => Ok(Box::new(crate::planet_wars::PlanetWars::from_config(
            config, seed, players,
        )?)),
        "kore" => Ok(Box::new(crate::kore::Kore::from_config(
            config, seed, players,
        )?)),
        "halite" => Ok(Box::new(crate::halite::Halite::from_config(
            config, seed, players,
        )?)),
        "claim" => Ok(Box::new(crate::claim::Claim::from_config(
            config, seed, players,
        )?)),
        "loops" => Ok(Box::new(crate::loops::Loops::from_config(
            config, seed, players,
        )?)),
        "shields" => Ok(Box::new(crate::shields::Shields::from_config(
            config, seed, players,
        )?)),
        _ => unreachable!("every registered game is constructible"),
    }
}
