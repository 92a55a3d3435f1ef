//! Planet Wars: players conquer planets by sending fleets of ships between
//! them. The rules are in `docs/games/planet-wars.md`; in short, a turn is
//!
//! 1. construct ships: +1 ship on every player-owned planet;
//! 2. dispatch expeditions: every seat's moves, checked one by one;
//! 3. arrivals and combat: fleets land after the ceiled distance in turns,
//!    and every ship destroys one enemy ship;
//!
//! and the game ends when at most one player has ships, or at the turn limit.
//!
//! Submodules: [`map`] (map format, validation, generator), `moves` (answers),
//! `rules` (the phases and the end), `observation` (what a seat sees).

pub mod map;
mod moves;
mod observation;
mod rules;

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;
use sha2::{Digest, Sha256};

pub use map::{generate_map, travel_time, Map, Planet};
pub use moves::{kind as rejection_kind, MAX_MOVES_PER_TURN};

use crate::game_info::GameInfo;
use crate::sight::Sight;
use crate::{EngineError, Game, Outcome, Rejection, Seat};

/// The registry entry.
pub const INFO: GameInfo = GameInfo {
    id: "planet-wars",
    rules_version: 2,
    seats: &[2, 3, 4],
    max_seed: u64::MAX,
    score_unit: "share",
    progress_unit: Some("ships"),
    unreadable: &[moves::kind::UNPARSEABLE],
    summary: "Send fleets between planets to conquer them; the last player with ships wins.",
    new: |config, seed, players| Ok(Box::new(PlanetWars::from_config(config, seed, players)?)),
    answer_bytes: 64 << 10,
    sight: Sight::Full,
};

/// Turn limit when the config gives none.
pub const DEFAULT_MAX_TURNS: u32 = 500;
/// Largest turn limit a config may set.
pub const MAX_TURNS_LIMIT: u32 = 1_000_000;

/// A planet during the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlanetState {
    /// The seat holding the planet; `None` for neutral.
    pub owner: Option<Seat>,
    pub ship_count: u64,
}

/// A fleet in flight. `origin` and `destination` are planet indices in map order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expedition {
    pub id: u64,
    pub owner: Seat,
    pub origin: usize,
    pub destination: usize,
    pub ship_count: u64,
    /// Turns (calls to `step`) until it lands, counting the one it lands in.
    pub turns_remaining: u32,
}

/// A game of Planet Wars.
#[derive(Debug, Clone)]
pub struct PlanetWars {
    players: usize,
    max_turns: u32,
    /// The map as the game started (what `setup` returns).
    map: Map,
    positions: Vec<(f64, f64)>,
    /// Name to planet index; only looked up, never iterated.
    index_by_name: HashMap<String, usize>,
    /// Each planet's name as a JSON string.
    name_json: Vec<String>,
    /// Each planet's `{"name":..,"x":..,"y":..,"ship_count":` for observations.
    planet_json_prefix: Vec<String>,
    /// sha256 of the map, part of every state hash.
    map_digest: [u8; 32],

    turn: u32,
    planets: Vec<PlanetState>,
    /// In flight, by id.
    expeditions: Vec<Expedition>,
    next_expedition_id: u64,
    /// Per seat: the turn after which it had no ship left.
    eliminated_on: Vec<Option<u32>>,
}

fn config_error(reason: impl Into<String>) -> EngineError {
    EngineError::Config {
        game: INFO.id,
        reason: reason.into(),
    }
}

fn check_players(players: usize) -> Result<(), EngineError> {
    crate::game_info::check_players(&INFO, players)
}

impl PlanetWars {
    /// Sets up a game from its JSON config: `null`, or an object with the
    /// optional fields `map` (a map in the rule book's planet shape; without
    /// it the map is generated from `seed`) and `max_turns` (default 500).
    pub fn from_config(config: &Value, seed: u64, players: usize) -> Result<Self, EngineError> {
        check_players(players)?;
        let mut map = None;
        let mut max_turns = DEFAULT_MAX_TURNS;
        match config {
            Value::Null => {}
            Value::Object(fields) => {
                for (key, value) in fields {
                    match key.as_str() {
                        "map" => map = Some(parse_map(value)?),
                        "max_turns" => max_turns = parse_max_turns(value)?,
                        other => {
                            return Err(config_error(format!(
                                "unknown field {}; the config takes only `map` (a map object) \
                                 and `max_turns` (a whole number of turns)",
                                map::short_name(other)
                            )))
                        }
                    }
                }
            }
            _ => {
                return Err(config_error(
                    "the config must be null or an object with the optional fields `map` and \
                     `max_turns`",
                ))
            }
        }
        let map = map.unwrap_or_else(|| generate_map(seed, players));
        Self::from_map(map, players, max_turns)
    }

    /// A game on the generated map of `seed`, with the default turn limit.
    pub fn from_seed(seed: u64, players: usize) -> Result<Self, EngineError> {
        check_players(players)?;
        Self::from_map(generate_map(seed, players), players, DEFAULT_MAX_TURNS)
    }

    /// A game on `map` (validated) for `players`, ending at `max_turns` at the latest.
    pub fn from_map(map: Map, players: usize, max_turns: u32) -> Result<Self, EngineError> {
        check_players(players)?;
        if !(1..=MAX_TURNS_LIMIT).contains(&max_turns) {
            return Err(config_error(format!(
                "`max_turns` is {max_turns}; it must be from 1 to {MAX_TURNS_LIMIT}"
            )));
        }
        map.validate(players)
            .map_err(|e| config_error(format!("bad map: {e}")))?;

        let n = map.planets.len();
        let mut index_by_name = HashMap::with_capacity(n);
        let mut name_json = Vec::with_capacity(n);
        let mut planet_json_prefix = Vec::with_capacity(n);
        let mut digest = Sha256::new();
        digest.update(b"ludus/planet-wars/map/v1\0");
        digest.update((n as u64).to_le_bytes());
        for (i, p) in map.planets.iter().enumerate() {
            index_by_name.insert(p.name.clone(), i);
            let name = serde_json::to_string(&p.name).expect("strings serialise");
            let x = serde_json::to_string(&p.x).expect("finite floats serialise");
            let y = serde_json::to_string(&p.y).expect("finite floats serialise");
            planet_json_prefix.push(format!(
                "{{\"name\":{name},\"x\":{x},\"y\":{y},\"ship_count\":"
            ));
            name_json.push(name);
            digest.update((p.name.len() as u64).to_le_bytes());
            digest.update(p.name.as_bytes());
            digest.update(p.x.to_bits().to_le_bytes());
            digest.update(p.y.to_bits().to_le_bytes());
            digest.update(p.ship_count.to_le_bytes());
            digest.update(p.owner.unwrap_or(0).to_le_bytes());
        }
        Ok(Self {
            players,
            max_turns,
            positions: map.planets.iter().map(|p| (p.x, p.y)).collect(),
            planets: map
                .planets
                .iter()
                .map(|p| PlanetState {
                    owner: p.owner.map(|k| k as Seat - 1),
                    ship_count: p.ship_count,
                })
                .collect(),
            map,
            index_by_name,
            name_json,
            planet_json_prefix,
            map_digest: digest.finalize().into(),
            turn: 0,
            expeditions: Vec::new(),
            next_expedition_id: 0,
            eliminated_on: vec![None; players],
        })
    }

    /// The map as the game started.
    pub fn map(&self) -> &Map {
        &self.map
    }

    /// The turn limit.
    pub fn max_turns(&self) -> u32 {
        self.max_turns
    }

    /// Every planet now, in map order.
    pub fn planets(&self) -> &[PlanetState] {
        &self.planets
    }

    /// Every fleet in flight, by id.
    pub fn expeditions(&self) -> &[Expedition] {
        &self.expeditions
    }

    /// A planet's index in map order.
    pub fn planet_index(&self, name: &str) -> Option<usize> {
        self.index_by_name.get(name).copied()
    }

    /// A planet now, by name.
    pub fn planet(&self, name: &str) -> Option<PlanetState> {
        self.planet_index(name).map(|i| self.planets[i])
    }

    /// Per seat: the turn after which it had no ship left, or `None` while it is in.
    /// For tests and tools: the planets, to edit directly, bypassing the rules.
    pub fn planets_mut(&mut self) -> &mut [PlanetState] {
        &mut self.planets
    }

    /// For tests and tools: the expeditions in flight, to edit directly,
    /// bypassing the rules (keep them in id order).
    pub fn expeditions_mut(&mut self) -> &mut Vec<Expedition> {
        &mut self.expeditions
    }

    pub fn eliminated_on(&self) -> &[Option<u32>] {
        &self.eliminated_on
    }

    /// Per seat: ships on its planets plus ships in flight.
    pub fn ship_totals(&self) -> Vec<u64> {
        let mut totals = vec![0u64; self.players];
        for p in &self.planets {
            if let Some(o) = p.owner {
                totals[o] += p.ship_count;
            }
        }
        for e in &self.expeditions {
            totals[e.owner] += e.ship_count;
        }
        totals
    }
}

fn parse_map(value: &Value) -> Result<Map, EngineError> {
    Map::deserialize(value).map_err(|e| {
        config_error(format!(
            "bad map: {e}; a map is {{\"planets\": [{{\"name\": <unique string>, \"x\": <number>, \
             \"y\": <number>, \"ship_count\": <whole number ≥ 0>, \"owner\": <player number from \
             1, or null>}}, ...]}}"
        ))
    })
}

fn parse_max_turns(value: &Value) -> Result<u32, EngineError> {
    value
        .as_u64()
        .filter(|t| (1..=u64::from(MAX_TURNS_LIMIT)).contains(t))
        .map(|t| t as u32)
        .ok_or_else(|| {
            config_error(format!(
                "`max_turns` is {}; it must be a whole number from 1 to {MAX_TURNS_LIMIT}",
                value
            ))
        })
}

impl Game for PlanetWars {
    fn id(&self) -> &'static str {
        INFO.id
    }

    fn rules_version(&self) -> u32 {
        INFO.rules_version
    }

    fn players(&self) -> usize {
        self.players
    }

    fn turn(&self) -> u32 {
        self.turn
    }

    /// `{"map": <the starting map>, "max_turns": N}`: fed back as the config,
    /// it rebuilds the same game whatever the seed.
    fn setup(&self) -> Value {
        serde_json::json!({ "map": self.map, "max_turns": self.max_turns })
    }

    fn observation(&self, seat: Seat, out: &mut String) {
        self.write_observation(seat, out);
    }

    /// One turn, in the rule book's order. Stepping a finished game does nothing.
    fn step(&mut self, answers: &[Option<&str>]) -> Vec<Rejection> {
        if self.is_over() {
            return Vec::new();
        }
        self.construct_ships();
        let rejections = self.dispatch_expeditions(answers);
        self.arrivals_and_combat();
        self.turn += 1;
        self.record_eliminations();
        rejections
    }

    fn outcome(&self) -> Option<Outcome> {
        self.final_outcome()
    }

    fn state_hash(&self) -> [u8; 32] {
        let mut h = Sha256::new();
        h.update(b"ludus/planet-wars/state/v1\0");
        h.update(self.map_digest);
        h.update((self.players as u64).to_le_bytes());
        h.update(self.max_turns.to_le_bytes());
        h.update(self.turn.to_le_bytes());
        h.update((self.planets.len() as u64).to_le_bytes());
        for p in &self.planets {
            hash_seat(&mut h, p.owner);
            h.update(p.ship_count.to_le_bytes());
        }
        h.update((self.expeditions.len() as u64).to_le_bytes());
        for e in &self.expeditions {
            h.update(e.id.to_le_bytes());
            h.update((e.owner as u64).to_le_bytes());
            h.update((e.origin as u64).to_le_bytes());
            h.update((e.destination as u64).to_le_bytes());
            h.update(e.ship_count.to_le_bytes());
            h.update(e.turns_remaining.to_le_bytes());
        }
        h.update(self.next_expedition_id.to_le_bytes());
        for out in &self.eliminated_on {
            match out {
                None => h.update([0u8]),
                Some(t) => {
                    h.update([1u8]);
                    h.update(t.to_le_bytes());
                }
            }
        }
        h.finalize().into()
    }

    /// Per seat: ships held, on planets plus in flight.
    fn scores(&self) -> Vec<f64> {
        self.ship_totals().into_iter().map(|s| s as f64).collect()
    }
}

fn hash_seat(h: &mut Sha256, seat: Option<Seat>) {
    match seat {
        None => h.update([0u8]),
        Some(s) => {
            h.update([1u8]);
            h.update((s as u64).to_le_bytes());
        }
    }
}
