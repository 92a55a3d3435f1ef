//! Pirates (AI Battleground 2021): four pirate ships on a hexagonal sea take
//! turns, one move each, seat 1 to 4, for 5000 moves in all. They race for
//! the flag, buy potions and upgrades at the shop, fire at each other and at
//! two hunting NPCs, and get caught in vortices. The rules are in
//! `docs/games/pirates.md`; one move of the ship whose turn it is:
//!
//! 1. its answer: a step, a purchase, a potion or a shot (an illegal one is
//!    counted, and every tenth costs 5% of its maximum health);
//! 2. the action;
//! 3. a vortex's hold counts down;
//! 4. the flag, if the ship is next to it;
//!
//! then, after the fourth seat's move, the NPCs act; the game ends after
//! 5000 moves or when one ship is left.
//!
//! Submodules: [`hex`] (the sea's geometry), [`map`] (the map and its
//! generator), `actions` (answers), `rules` (the phases and the end), `npc`
//! (the NPCs), `observation` (what a seat sees), `unseen` (what it does not,
//! changed at random for the leak test).

mod actions;
pub mod hex;
pub mod map;
mod npc;
mod observation;
mod rules;
mod unseen;

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

pub use actions::{kind as rejection_kind, parse_action, Action, Item};
pub use hex::{Dir, Hex};
pub use map::{Difficulty, Map, Terrain, STARTS};

use crate::game_info::GameInfo;
use crate::grid;
use crate::sight::Sight;
use crate::{EngineError, Game, Outcome, Rejection, Seat};

/// The registry entry.
pub const INFO: GameInfo = GameInfo {
    id: "pirates",
    rules_version: 2,
    seats: &[PLAYERS],
    max_seed: u64::MAX,
    score_unit: "gold",
    progress_unit: None,
    unreadable: &[actions::kind::UNPARSEABLE],
    summary:
        "Four pirate ships take turns on a hexagonal sea: flags, a shop, vortices and hunting NPCs.",
    new: |config, seed, players| Ok(Box::new(Pirates::from_config(config, seed, players)?)),
    answer_bytes: 4 << 10,
    sight: Sight::Partial(unseen::FOG),
};

/// Ships in a game.
pub const PLAYERS: usize = 4;
/// Moves in a game (1250 a seat).
pub const MAX_MOVES: u32 = 5000;
/// Largest move limit a config may set.
pub const MAX_MOVES_LIMIT: u32 = 1_000_000;

/// Maximum health by hull: the start, then each upgrade.
pub const HULLS: [u32; 3] = [400, 600, 1000];
/// Cannons (damage of a shot) by level: the start, then each upgrade.
pub const CANNONS: [u32; 3] = [100, 150, 250];
/// Price of the first and of the second upgrade, of the hull or the cannons.
pub const UPGRADE_PRICES: [u64; 2] = [200, 300];
pub const POTION_PRICE: u64 = 150;
/// Potions a ship may carry.
pub const MAX_POTIONS: u32 = 3;
/// A potion gives this share of maximum health, in percent.
pub const POTION_PERCENT: u32 = 10;
/// Moves a vortex holds a ship that sails into it.
pub const WHIRLPOOL_MOVES: u32 = 3;
/// Fields a shot reaches.
pub const ATTACK_RANGE: u32 = 2;
/// Fields a ship sees other ships within.
pub const SIGHT: u32 = 5;
/// Gold for taking the flag.
pub const FLAG_GOLD: u64 = 500;
/// Gold for eliminating a player's ship.
pub const PLAYER_BOUNTY: u64 = 250;
/// Every this many illegal moves cost a ship...
pub const ILLEGAL_MOVES_PER_PENALTY: u32 = 10;
/// ...this share of its maximum health, in percent.
pub const PENALTY_PERCENT: u32 = 5;

/// Ids: players are 1 to 4 (seat + 1), the NPCs 5 and 6.
pub const NPC_IDS: [u64; 2] = [5, 6];
pub const NPC_HEALTH: u32 = 500;
pub const NPC_CANNONS: u32 = 50;
/// Fields an NPC sees players within (it chases the ones it sees).
pub const NPC_SIGHT: u32 = 4;
/// Gold for eliminating an NPC.
pub const NPC_BOUNTY: u64 = 300;

/// A player's ship.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ship {
    pub pos: Hex,
    pub health: u32,
    pub max_health: u32,
    pub cannons: u32,
    pub gold: u64,
    pub potions: u32,
    pub illegal_moves: u32,
    /// Moves a vortex still holds it (`whirlpoolDuration`); paralyzed while
    /// above 0.
    pub whirlpool: u32,
    /// Hull upgrades bought (0 to 2).
    pub hull_level: u8,
    /// Cannon upgrades bought (0 to 2).
    pub cannon_level: u8,
    /// When it was eliminated: 1 for the first ship out, 2 for the second...
    pub eliminated: Option<u32>,
}

impl Ship {
    fn new(pos: Hex) -> Ship {
        Ship {
            pos,
            health: HULLS[0],
            max_health: HULLS[0],
            cannons: CANNONS[0],
            gold: 0,
            potions: 0,
            illegal_moves: 0,
            whirlpool: 0,
            hull_level: 0,
            cannon_level: 0,
            eliminated: None,
        }
    }

    pub fn alive(&self) -> bool {
        self.eliminated.is_none()
    }

    pub fn paralyzed(&self) -> bool {
        self.whirlpool > 0
    }
}

/// A non-player pirate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Npc {
    pub pos: Hex,
    pub health: u32,
    /// The seat it chases.
    pub target: Option<Seat>,
    /// The ship it fired at in its last action, if it fired.
    pub fired_at: Option<Seat>,
    pub alive: bool,
}

/// A game of pirates.
#[derive(Debug, Clone)]
pub struct Pirates {
    map: Map,
    terrain: Vec<Terrain>,
    /// The NPCs' ring, clockwise.
    ring: Vec<Hex>,
    seed: u64,
    max_moves: u32,
    moves: u32,
    ships: [Ship; PLAYERS],
    npcs: [Npc; 2],
    /// The island the flag stands on.
    flag: Hex,
    /// The map's part of every observation, written once.
    map_json: String,
    /// sha256 of the map, part of every state hash.
    map_digest: [u8; 32],
}

fn config_error(reason: impl Into<String>) -> EngineError {
    EngineError::Config {
        game: INFO.id,
        reason: reason.into(),
    }
}

impl Pirates {
    /// Sets up a game from its config: `null`, or an object with the
    /// optional fields `max_turns` (moves in all, default 5000),
    /// `difficulty` (`"easy"`, `"normal"` or `"hard"`: the generated map,
    /// default normal) and `map` (a whole map, as `setup` gives it; then no
    /// `difficulty`).
    pub fn from_config(config: &Value, seed: u64, players: usize) -> Result<Self, EngineError> {
        crate::game_info::check_players(&INFO, players)?;
        let fields = grid::config_fields(INFO.id, config, &["max_turns", "difficulty", "map"])?;
        let get = |k: &str| fields.and_then(|f| f.get(k));
        let max_moves = match fields {
            None => None,
            Some(f) => grid::config_u64(INFO.id, f, "max_turns", 1..=u64::from(MAX_MOVES_LIMIT))?,
        }
        .map_or(MAX_MOVES, |m| m as u32);
        let difficulty = match get("difficulty") {
            None => None,
            Some(v) => Some(v.as_str().and_then(Difficulty::from_name).ok_or_else(|| {
                config_error(format!(
                    "`difficulty` is {v}; it must be \"easy\", \"normal\" or \"hard\""
                ))
            })?),
        };
        let map = match (get("map"), difficulty) {
            (Some(_), Some(_)) => {
                return Err(config_error(
                    "give either `map` or `difficulty`: a given map is played as it is",
                ))
            }
            (Some(m), None) => {
                Map::from_json(m).map_err(|e| config_error(format!("bad `map`: {e}")))?
            }
            (None, d) => Map::generate(seed, d.unwrap_or_default()),
        };
        Ok(Self::new(map, seed, max_moves))
    }

    /// The start of a game on `map` (valid: see [`Map::validate`]): every
    /// ship on its start, the NPCs on the top and the bottom of their ring.
    pub fn new(map: Map, seed: u64, max_moves: u32) -> Self {
        let terrain = map.terrain();
        let ring = hex::ring(map.npc_ring as i32);
        let npcs = map.npc_starts().map(|pos| Npc {
            pos,
            health: NPC_HEALTH,
            target: None,
            fired_at: None,
            alive: true,
        });
        let map_json = observation::map_json(&map);
        let mut digest = Sha256::new();
        digest.update(b"ludus/pirates/map/v1\0");
        digest.update(map_json.as_bytes());
        Pirates {
            flag: map.flag,
            terrain,
            ring,
            seed,
            max_moves,
            moves: 0,
            ships: STARTS.map(Ship::new),
            npcs,
            map_json,
            map_digest: digest.finalize().into(),
            map,
        }
    }

    pub fn map(&self) -> &Map {
        &self.map
    }

    pub fn terrain(&self, h: Hex) -> Terrain {
        self.terrain[h.index()]
    }

    /// Moves played so far.
    pub fn moves(&self) -> u32 {
        self.moves
    }

    pub fn max_moves(&self) -> u32 {
        self.max_moves
    }

    /// The seat whose move is next: moves go round the table from seat 0,
    /// each seat keeping its place even once its ship is out.
    pub fn to_move(&self) -> Seat {
        self.moves as usize % PLAYERS
    }

    pub fn ship(&self, seat: Seat) -> &Ship {
        &self.ships[seat]
    }

    pub fn npc(&self, k: usize) -> &Npc {
        &self.npcs[k]
    }

    /// The island the flag stands on.
    pub fn flag(&self) -> Hex {
        self.flag
    }

    /// For tests and tools: a ship, to edit directly, bypassing the rules.
    pub fn ship_mut(&mut self, seat: Seat) -> &mut Ship {
        &mut self.ships[seat]
    }

    /// For tests and tools: an NPC, to edit directly, bypassing the rules.
    pub fn npc_mut(&mut self, k: usize) -> &mut Npc {
        &mut self.npcs[k]
    }

    /// For tests and tools: moves played, to set whose move is next.
    pub fn set_moves(&mut self, moves: u32) {
        self.moves = moves;
    }

    /// For tests and tools: puts the flag on `island`, bypassing the rules.
    pub fn set_flag(&mut self, island: Hex) {
        self.flag = island;
    }

    /// Ships still in the game.
    pub fn afloat(&self) -> usize {
        self.ships.iter().filter(|s| s.alive()).count()
    }

    fn is_over(&self) -> bool {
        self.moves >= self.max_moves || self.afloat() <= 1
    }

    /// The seat of the ship with id `id` (1 to 4).
    fn seat_of(id: u64) -> Option<Seat> {
        (1..=PLAYERS as u64).contains(&id).then(|| id as usize - 1)
    }

    /// Whether a ship or an NPC still in the game is on `h`.
    fn occupied(&self, h: Hex) -> bool {
        self.ships.iter().any(|s| s.alive() && s.pos == h)
            || self.npcs.iter().any(|n| n.alive && n.pos == h)
    }
}

impl Game for Pirates {
    fn id(&self) -> &'static str {
        INFO.id
    }

    fn rules_version(&self) -> u32 {
        INFO.rules_version
    }

    fn players(&self) -> usize {
        PLAYERS
    }

    fn turn(&self) -> u32 {
        self.moves
    }

    /// `{"map": <the map>, "max_turns": N}`: fed back as the config, it
    /// rebuilds the same game.
    fn setup(&self) -> Value {
        json!({"map": self.map.to_json(), "max_turns": self.max_moves})
    }

    fn observation(&self, seat: Seat, out: &mut String) {
        self.write_observation(seat, out);
    }

    /// Every ship and NPC, where a seat sees only those within its sight.
    fn spectator(&self, out: &mut String) -> bool {
        self.write_spectator(out);
        true
    }

    /// Only the ship to move is asked, and only when it can do something.
    fn asks(&self, seat: Seat) -> bool {
        seat == self.to_move() && !self.legal_actions(seat).is_empty()
    }

    /// One move, in the rule book's order (see the module doc). Stepping a
    /// finished game does nothing.
    fn step(&mut self, answers: &[Option<&str>]) -> Vec<Rejection> {
        if self.is_over() {
            return Vec::new();
        }
        let seat = self.to_move();
        let mut rejections = Vec::new();
        if self.ships[seat].alive() {
            let held = self.ships[seat].paralyzed();
            let answer = answers.get(seat).copied().flatten();
            if let Some(action) = self.read_action(seat, answer, &mut rejections) {
                self.act(seat, action);
            }
            if held {
                self.count_down_whirlpool(seat);
            }
            self.take_flag(seat);
        }
        if seat == PLAYERS - 1 {
            self.npcs_act();
        }
        self.moves += 1;
        rejections
    }

    fn outcome(&self) -> Option<Outcome> {
        self.is_over().then(|| self.final_outcome())
    }

    fn state_hash(&self) -> [u8; 32] {
        let mut h = Sha256::new();
        h.update(b"ludus/pirates/state/v1\0");
        h.update(self.map_digest);
        h.update(self.seed.to_le_bytes());
        h.update(self.max_moves.to_le_bytes());
        h.update(self.moves.to_le_bytes());
        h.update(self.flag.q.to_le_bytes());
        h.update(self.flag.r.to_le_bytes());
        for s in &self.ships {
            h.update(s.pos.q.to_le_bytes());
            h.update(s.pos.r.to_le_bytes());
            for v in [
                s.health,
                s.max_health,
                s.cannons,
                s.potions,
                s.illegal_moves,
                s.whirlpool,
                u32::from(s.hull_level),
                u32::from(s.cannon_level),
                s.eliminated.unwrap_or(0),
            ] {
                h.update(v.to_le_bytes());
            }
            h.update(s.gold.to_le_bytes());
        }
        for n in &self.npcs {
            h.update(n.pos.q.to_le_bytes());
            h.update(n.pos.r.to_le_bytes());
            h.update(n.health.to_le_bytes());
            grid::hash_opt(&mut h, n.target);
            grid::hash_opt(&mut h, n.fired_at);
            h.update([u8::from(n.alive)]);
        }
        h.finalize().into()
    }

    /// Per seat: gold.
    fn scores(&self) -> Vec<f64> {
        self.ships.iter().map(|s| s.gold as f64).collect()
    }
}
