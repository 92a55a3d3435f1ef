//! Halite IV, bit for bit as the `halite` environment of
//! `kaggle-environments` 1.33.2. The rules are in `docs/games/halite.md`; a
//! turn (one `env.step`) is
//!
//! 1. bind actions;
//! 2. per seat, in seat order: spawns, converts, moves, the converts'
//!    surplus banked;
//! 3. ship–ship collisions;
//! 4. ship–shipyard collisions;
//! 5. deposits;
//! 6. mining;
//! 7. regeneration;
//! 8. the turn counter;
//! 9. eliminations;
//! 10. the last-fleet check;
//! 11. the reference's reward update;
//! 12. its turn limit.
//!
//! Submodules: [`actions`] (answers), `rules` (the phases), `observation`
//! (what a seat sees). What Halite shares with Kore (Python's numbers, JSON
//! and random generators, the board generator, uids, seats) is
//! [`crate::kaggle`].

pub mod actions;

mod observation;
mod rules;

use std::fmt::Write;

use serde_json::Value;
use sha2::{Digest, Sha256};

pub use crate::kaggle::pynum::Num;
pub use crate::kaggle::{Status, Uid, REMAINING_OVERAGE_TIME};
pub use actions::Action;
pub use rules::kind as rejection_kind;

use crate::game_info::GameInfo;
use crate::kaggle::{
    populate_board, BoardText, CellIndex, ConfigReader, Generator, NewUids, Seats,
};
use crate::sight::Sight;
use crate::{EngineError, Game, Outcome, Rejection, Seat};

/// The registry entry.
pub const INFO: GameInfo = GameInfo {
    id: "halite",
    rules_version: 1,
    seats: &[2, 4],
    max_seed: u32::MAX as u64,
    score_unit: "halite",
    progress_unit: None,
    unreadable: &[rules::kind::UNPARSEABLE, rules::kind::INVALID_ACTION],
    summary:
        "Halite IV (Kaggle): mine halite with ships, bank it at shipyards; the largest bank wins.",
    new: |config, seed, players| Ok(Box::new(Halite::from_config(config, seed, players)?)),
    answer_bytes: 64 << 10,
    sight: Sight::Full,
};

/// Every seat's bank at the start: the reference's default reward, which
/// `populate_board` uses as the starting halite of each player.
pub const STARTING_BANK: i64 = 5000;

/// The game's configuration: the reference's `configuration` fields.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    pub random_seed: u32,
    pub episode_steps: u32,
    pub act_timeout: Num,
    pub run_timeout: Num,
    pub starting_halite: i64,
    pub size: usize,
    pub spawn_cost: i64,
    pub convert_cost: i64,
    pub move_cost: Num,
    pub collect_rate: Num,
    pub regen_rate: Num,
    pub max_cell_halite: i64,
    pub agent_timeout: Num,
}

impl Config {
    /// The reference's defaults with `randomSeed`.
    pub fn with_seed(random_seed: u32) -> Self {
        Config {
            random_seed,
            episode_steps: 400,
            act_timeout: Num::Int(3),
            run_timeout: Num::Int(9600),
            starting_halite: 24000,
            size: 21,
            spawn_cost: 500,
            convert_cost: 500,
            move_cost: Num::Int(0),
            collect_rate: Num::Float(0.25),
            regen_rate: Num::Float(0.02),
            max_cell_halite: 500,
            agent_timeout: Num::Int(60),
        }
    }

    /// The configuration as the reference's `env.configuration` prints it
    /// when made with `{"randomSeed": seed}`: `randomSeed` first, then the
    /// schema's order.
    pub fn write_json(&self, out: &mut String) {
        let nums: [(&str, Num); 12] = [
            ("episodeSteps", Num::Int(i64::from(self.episode_steps))),
            ("actTimeout", self.act_timeout),
            ("runTimeout", self.run_timeout),
            ("startingHalite", Num::Int(self.starting_halite)),
            ("size", Num::Int(self.size as i64)),
            ("spawnCost", Num::Int(self.spawn_cost)),
            ("convertCost", Num::Int(self.convert_cost)),
            ("moveCost", self.move_cost),
            ("collectRate", self.collect_rate),
            ("regenRate", self.regen_rate),
            ("maxCellHalite", Num::Int(self.max_cell_halite)),
            ("agentTimeout", self.agent_timeout),
        ];
        let _ = write!(out, "{{\"randomSeed\":{}", self.random_seed);
        for (key, value) in nums {
            let _ = write!(out, ",\"{key}\":");
            value.write_json(out);
        }
        out.push('}');
    }
}

/// Where each seat's first ship starts, as `populate_board` places them.
pub fn starting_positions(size: usize, players: usize) -> Vec<usize> {
    match players {
        1 => vec![size * (size / 2) + size / 2],
        2 => vec![
            size * (size / 2) + size / 4,
            size * (size / 2) + (3 * size).div_ceil(4) - 1,
        ],
        _ => vec![
            size * (size / 4) + size / 4,
            size * (size / 4) + 3 * size / 4,
            size * (3 * size / 4) + size / 4,
            size * (3 * size / 4) + 3 * size / 4,
        ],
    }
}

/// Bounds on config values (the reference has lower bounds only); they keep
/// every quantity of a game far from overflow and every assertion of the
/// reference true.
pub const MAX_EPISODE_STEPS: i64 = 100_000;
pub const MAX_SIZE: i64 = 100;
pub const MAX_AMOUNT: i64 = 1_000_000_000;

/// A ship.
#[derive(Debug, Clone, PartialEq)]
pub struct Ship {
    pub uid: Uid,
    pub owner: Seat,
    /// Cell index: `row * size + column`, row 0 at the top.
    pub pos: usize,
    /// Cargo.
    pub halite: Num,
    /// The action bound this turn (phase 1; never `Spawn`), cleared when
    /// it has been carried out (phase 6).
    pub action: Option<Action>,
    pub(crate) alive: bool,
}

impl Ship {
    pub fn new(uid: Uid, owner: Seat, pos: usize, halite: Num) -> Self {
        Ship {
            uid,
            owner,
            pos,
            halite,
            action: None,
            alive: true,
        }
    }

    /// Whether the ship is in play. Ships destroyed during a step are only
    /// removed at its end (phase 8), so a phase run alone leaves them with
    /// this false.
    pub fn is_alive(&self) -> bool {
        self.alive
    }
}

/// A shipyard.
#[derive(Debug, Clone, PartialEq)]
pub struct Shipyard {
    pub uid: Uid,
    pub owner: Seat,
    pub pos: usize,
    /// Told to `SPAWN` this turn (phase 1), until it has (phase 2.1).
    pub spawn: bool,
    pub(crate) alive: bool,
}

impl Shipyard {
    pub fn new(uid: Uid, owner: Seat, pos: usize) -> Self {
        Shipyard {
            uid,
            owner,
            pos,
            spawn: false,
            alive: true,
        }
    }

    /// Whether the shipyard is in play (see [`Ship::is_alive`]).
    pub fn is_alive(&self) -> bool {
        self.alive
    }
}

/// Why the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndReason {
    /// `episodeSteps - 1` steps were played.
    TurnLimit,
    /// Fewer than two seats were still active after this step.
    LastFleet,
}

/// A game of Halite.
#[derive(Debug, Clone)]
pub struct Halite {
    config: Config,
    config_json: String,
    players: usize,
    step: u32,
    /// Per cell, row-major.
    halite: Vec<Num>,
    /// Every ship, in the reference's board order: seat by seat, each seat's
    /// ships in its dict order.
    ships: Vec<Ship>,
    /// Every shipyard, in the same kind of order.
    shipyards: Vec<Shipyard>,
    banks: Vec<Num>,
    seats: Seats,
    /// Per seat: halite its ships ever mined (the placement ladder's third key).
    mined: Vec<Num>,
    /// Per seat: the step it was declared invalid.
    invalid_at: Vec<Option<u32>>,
    ended: Option<(EndReason, u32)>,
    /// The live ship on each cell, as of the last ship collisions (phase 3)
    /// or the end of the last step.
    occupant: CellIndex,
    /// The live shipyard on each cell.
    yard_at: CellIndex,
    /// Uids handed out in the current step.
    new_uids: NewUids,
    /// What every seat's observation shares, once written this step.
    board_text: BoardText,
}

const READ: ConfigReader = ConfigReader { game: INFO.id };

impl Halite {
    /// Sets up a game from its JSON config: `null`, or an object overriding
    /// any of the reference's configuration fields (`episodeSteps`, `size`,
    /// `startingHalite`, `spawnCost`, `convertCost`, `moveCost`,
    /// `collectRate`, `regenRate`, `maxCellHalite`, `randomSeed`,
    /// `agentTimeout`, `actTimeout`, `runTimeout`). Without `randomSeed`, the
    /// match seed is the random seed; it must be below 2^32.
    pub fn from_config(config: &Value, seed: u64, players: usize) -> Result<Self, EngineError> {
        let mut seed_value = Value::from(seed);
        let mut c = Config::with_seed(0);
        match config {
            Value::Null => {}
            Value::Object(fields) => {
                for (key, v) in fields {
                    match key.as_str() {
                        "randomSeed" => seed_value = v.clone(),
                        "episodeSteps" => {
                            c.episode_steps = READ.int(key, v, 1, MAX_EPISODE_STEPS)? as u32
                        }
                        "size" => c.size = READ.int(key, v, 2, MAX_SIZE)? as usize,
                        "startingHalite" => c.starting_halite = READ.int(key, v, 0, MAX_AMOUNT)?,
                        "spawnCost" => c.spawn_cost = READ.int(key, v, 0, MAX_AMOUNT)?,
                        "convertCost" => c.convert_cost = READ.int(key, v, 0, MAX_AMOUNT)?,
                        "maxCellHalite" => c.max_cell_halite = READ.int(key, v, 0, MAX_AMOUNT)?,
                        "moveCost" => c.move_cost = READ.num(key, v, 1.0)?,
                        "collectRate" => c.collect_rate = READ.num(key, v, 1.0)?,
                        "regenRate" => c.regen_rate = READ.num(key, v, 10.0)?,
                        "agentTimeout" => c.agent_timeout = READ.num(key, v, 1e9)?,
                        "actTimeout" => c.act_timeout = READ.num(key, v, 1e9)?,
                        "runTimeout" => c.run_timeout = READ.num(key, v, 1e9)?,
                        other => {
                            return Err(READ.error(format!(
                                "unknown field `{}`; the config takes the reference's fields \
                                 episodeSteps, size, startingHalite, spawnCost, convertCost, \
                                 moveCost, collectRate, regenRate, maxCellHalite, randomSeed, \
                                 agentTimeout, actTimeout, runTimeout",
                                crate::kaggle::shorten(other)
                            )))
                        }
                    }
                }
            }
            _ => {
                return Err(READ.error(
                    "the config must be null or an object of the reference's configuration fields",
                ))
            }
        }
        c.random_seed = seed_value
            .as_u64()
            .and_then(|s| u32::try_from(s).ok())
            .ok_or_else(|| {
                READ.error(format!(
                    "the random seed is {seed_value}; the reference's generators take seeds \
                     from 0 to 4294967295"
                ))
            })?;
        Self::new(c, players)
    }

    /// A game with this configuration.
    pub fn new(config: Config, players: usize) -> Result<Self, EngineError> {
        // The reference places starting ships for 1, 2 or 4 agents only.
        crate::game_info::check_players(&INFO, players)?;
        let size = config.size;
        let halite = populate_board(Generator {
            size,
            total: config.starting_halite,
            seed: config.random_seed,
            symmetric_quarter: false,
        })
        .ok_or_else(|| {
            READ.error(format!(
                "the board of seed {} and size {size} has no halite (the reference \
                 divides by zero); choose another seed or size",
                config.random_seed
            ))
        })?;
        let ships = starting_positions(size, players)
            .into_iter()
            .enumerate()
            .map(|(seat, pos)| {
                let uid = Uid {
                    step: 0,
                    n: seat as u32 + 1,
                };
                Ship::new(uid, seat, pos, Num::Int(0))
            })
            .collect();
        let mut config_json = String::new();
        config.write_json(&mut config_json);
        let banks = vec![Num::Int(STARTING_BANK); players];
        let mut game = Halite {
            config_json,
            players,
            step: 0,
            halite: halite.into_iter().map(Num::Int).collect(),
            ships,
            shipyards: Vec::new(),
            seats: Seats::new(&banks),
            banks,
            mined: vec![Num::Int(0); players],
            invalid_at: vec![None; players],
            ended: None,
            occupant: CellIndex::new(size * size),
            yard_at: CellIndex::new(size * size),
            new_uids: NewUids::default(),
            board_text: BoardText::default(),
            config,
        };
        game.index_cells();
        Ok(game)
    }

    /// A game on a hand-made board, for tests and tools: `halite` per cell,
    /// the assets in the reference's order, and per seat its bank. Every seat
    /// is active; the step is `step`.
    pub fn from_parts(
        config: Config,
        step: u32,
        halite: Vec<Num>,
        ships: Vec<Ship>,
        shipyards: Vec<Shipyard>,
        banks: Vec<Num>,
    ) -> Result<Self, EngineError> {
        let players = banks.len();
        let cells = config.size * config.size;
        if halite.len() != cells {
            return Err(READ.error(format!("the board has {} cells, not {cells}", halite.len())));
        }
        if ships.iter().any(|s| s.owner >= players || s.pos >= cells)
            || shipyards
                .iter()
                .any(|y| y.owner >= players || y.pos >= cells)
        {
            return Err(READ.error("an asset has no seat or lies off the board"));
        }
        let mut g = Self::new(config, players)?;
        g.step = step;
        g.halite = halite;
        g.ships = ships;
        g.shipyards = shipyards;
        g.seats = Seats::new(&banks);
        g.banks = banks;
        g.index_cells();
        Ok(g)
    }

    /// Which ship and which shipyard stand on each cell. Between steps a
    /// cell holds at most one ship; during phase 2 ships move, convert and
    /// spawn, and phase 3 indexes them again.
    fn index_cells(&mut self) {
        self.yard_at.clear_all();
        for (i, y) in self.shipyards.iter().enumerate() {
            if y.alive {
                self.yard_at.set(y.pos, i);
            }
        }
        self.occupant.clear_all();
        for (i, s) in self.ships.iter().enumerate() {
            if s.alive {
                self.occupant.set(s.pos, i);
            }
        }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The step (turn) number the observation shows.
    pub fn step_number(&self) -> u32 {
        self.step
    }

    /// Halite per cell.
    pub fn halite(&self) -> &[Num] {
        &self.halite
    }

    /// Every ship, in the reference's order.
    pub fn ships(&self) -> &[Ship] {
        &self.ships
    }

    /// Every shipyard, in the reference's order.
    pub fn shipyards(&self) -> &[Shipyard] {
        &self.shipyards
    }

    /// Per seat: banked halite.
    pub fn banks(&self) -> &[Num] {
        &self.banks
    }

    /// Per seat: its status.
    pub fn seat_statuses(&self) -> &[Status] {
        self.seats.statuses()
    }

    /// Per seat: its reward (`None` for invalid seats).
    pub fn seat_rewards(&self) -> &[Option<Num>] {
        self.seats.rewards()
    }

    /// Per seat: halite its ships ever mined.
    pub fn mined(&self) -> &[Num] {
        &self.mined
    }

    /// Why and after which step the game ended, once it has.
    pub fn ended(&self) -> Option<(EndReason, u32)> {
        self.ended
    }

    /// The game is over when no seat is active.
    pub fn is_over(&self) -> bool {
        self.seats.is_over()
    }
}

impl Game for Halite {
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
        self.step
    }

    /// The full configuration, `randomSeed` included: fed back as the
    /// config it rebuilds the same game whatever the match seed.
    fn setup(&self) -> Value {
        serde_json::from_str(&self.config_json).unwrap_or(Value::Null)
    }

    /// `{"observation": <the reference's observation for the seat>,
    /// "configuration": <the reference's configuration>}`.
    fn observation(&self, seat: Seat, out: &mut String) {
        out.clear();
        crate::kaggle::write_agent_view(out, seat, self.step, &self.config_json, |out| {
            self.board_text
                .append_to(out, |text| self.write_board(text))
        });
    }

    fn reference_observation(&self, seat: Seat, out: &mut String) {
        out.clear();
        crate::kaggle::write_observation(out, seat, self.step, |out| {
            self.board_text
                .append_to(out, |text| self.write_board(text))
        });
    }

    /// One `env.step`, phase by phase in the reference's order. Stepping a
    /// finished game does nothing.
    fn step(&mut self, answers: &[Option<&str>]) -> Vec<Rejection> {
        if self.is_over() {
            return Vec::new();
        }
        let mut rejections = Vec::new();
        self.board_text.forget();
        self.new_uids.reset();
        self.bind_actions(answers, &mut rejections);
        for seat in 0..self.players {
            self.spawn_ships(seat, &mut rejections);
            let surplus = self.convert_ships(seat, &mut rejections);
            self.move_ships(seat);
            self.bank_convert_surplus(seat, surplus);
        }
        self.ship_collisions();
        self.ship_shipyard_collisions();
        self.deposit();
        self.mine();
        self.regenerate();
        self.advance_turn();
        self.eliminate();
        self.last_fleet_check();
        self.update_rewards();
        self.turn_limit();
        rejections
    }

    fn outcome(&self) -> Option<Outcome> {
        self.final_outcome()
    }

    fn state_hash(&self) -> [u8; 32] {
        let mut h = Sha256::new();
        h.update(b"ludus/halite/state/v1\0");
        h.update(self.config_json.as_bytes());
        h.update((self.players as u64).to_le_bytes());
        h.update(self.step.to_le_bytes());
        for v in &self.halite {
            h.update(v.hash_bytes());
        }
        h.update((self.ships.len() as u64).to_le_bytes());
        for s in &self.ships {
            h.update(s.uid.step.to_le_bytes());
            h.update(s.uid.n.to_le_bytes());
            h.update((s.owner as u64).to_le_bytes());
            h.update((s.pos as u64).to_le_bytes());
            h.update(s.halite.hash_bytes());
        }
        h.update((self.shipyards.len() as u64).to_le_bytes());
        for y in &self.shipyards {
            h.update(y.uid.step.to_le_bytes());
            h.update(y.uid.n.to_le_bytes());
            h.update((y.owner as u64).to_le_bytes());
            h.update((y.pos as u64).to_le_bytes());
        }
        for seat in 0..self.players {
            h.update(self.banks[seat].hash_bytes());
            h.update(self.seats.status(seat).as_str().as_bytes());
            match self.seats.rewards()[seat] {
                None => h.update([0u8]),
                Some(r) => {
                    h.update([1u8]);
                    h.update(r.hash_bytes());
                }
            }
            h.update(self.mined[seat].hash_bytes());
            h.update(
                self.invalid_at[seat]
                    .map_or(u64::MAX, u64::from)
                    .to_le_bytes(),
            );
        }
        match self.ended {
            None => h.update([0u8]),
            Some((reason, step)) => {
                h.update([1 + reason as u8]);
                h.update(step.to_le_bytes());
            }
        }
        h.finalize().into()
    }

    /// Per seat: banked halite.
    fn scores(&self) -> Vec<f64> {
        self.banks.iter().map(|b| b.to_f64()).collect()
    }

    /// The reference's rewards: ints and floats as it has them, `null` for
    /// an invalid seat.
    fn rewards(&self) -> Vec<Value> {
        self.seats.rewards_json()
    }

    fn statuses(&self) -> Vec<&'static str> {
        self.seats.status_words()
    }
}
