//! Kore 2022 (Kaggle's `kore_fleets`), bit for bit as `kaggle-environments`
//! 1.33.2 plays it. Players mine kore with fleets that fly flight plans over a
//! 21×21 torus, spawn ships at shipyards, build new shipyards and capture the
//! others'. The rules are in `docs/games/kore.md`; a turn is
//!
//! 1. spawning and launching, 2. flight plans (and conversion to shipyards),
//!    3. moving, 4. allied fleets coalescing — upstream runs these four player
//!    by player —
//! 5. fleet collisions, 6. fleet–shipyard collisions, 7. deposits at own
//!    shipyards, 8. damage to adjacent enemy fleets, 9. mining,
//!    10. regeneration, 11. end of turn (errors, elimination, rewards).
//!
//! Submodules: `config` (upstream's configuration), `board` (the generated
//! board), `pyparse` and `actions` (reading answers as upstream does),
//! `rules` (the phases), `observation` (upstream's JSON). Python's ints,
//! floats and `round` are [`crate::pynum`], shared with Halite.

mod actions;
mod board;
mod config;

mod observation;
mod pyparse;
mod rules;

use std::fmt;

use serde_json::Value;
use sha2::{Digest, Sha256};

pub use crate::pynum::{round3, Num};
pub use actions::{kind as rejection_kind, read_value, Order, Reading};
pub use board::{generate_kore, starting_positions};
pub use config::Config;
pub use pyparse::JsonValue;

use crate::{EngineError, Game, GameInfo, Outcome, Rejection, Seat};

/// The registry entry.
pub const INFO: GameInfo = GameInfo {
    id: "kore",
    rules_version: 1,
    seats: &[2, 4],
    max_seed: u32::MAX as u64,
    score_unit: "kore",
    unreadable: &["not_json", "not_an_object", "agent_error"],
    summary: "Kore 2022: mine kore with fleets on flight plans, build shipyards, capture the \
              others'; the most kore after 400 turns wins (Kaggle's kore_fleets, bit for bit).",
    new: |config, seed, players| Ok(Box::new(Kore::from_config(config, seed, players)?)),
};

/// The kore every player starts with (upstream's reward default).
pub const STARTING_PLAYER_KORE: i64 = 500;

/// The observation's `remainingOverageTime`: upstream's default, never spent
/// in Ludus (time is metered as fuel).
pub const REMAINING_OVERAGE_TIME: i64 = 60;

/// An asset's uid, `"{step}-{n}"`: the step it was made in (counted from 1)
/// and its number within that step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Uid {
    pub step: u32,
    pub n: u32,
}

impl fmt::Display for Uid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.step, self.n)
    }
}

impl Uid {
    /// Whether `key` is this uid's text exactly.
    pub fn matches(&self, key: &str) -> bool {
        fn canonical(s: &str) -> Option<u32> {
            if s.is_empty() || (s.len() > 1 && s.starts_with('0')) {
                return None;
            }
            if !s.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            s.parse().ok()
        }
        match key.split_once('-') {
            Some((a, b)) => canonical(a) == Some(self.step) && canonical(b) == Some(self.n),
            None => false,
        }
    }
}

/// Flight directions, numbered as upstream's `Direction.to_index`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Dir {
    North = 0,
    East = 1,
    South = 2,
    West = 3,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];

    pub fn from_char(c: u8) -> Option<Dir> {
        match c {
            b'N' => Some(Dir::North),
            b'E' => Some(Dir::East),
            b'S' => Some(Dir::South),
            b'W' => Some(Dir::West),
            _ => None,
        }
    }

    pub fn index(self) -> i64 {
        self as i64
    }
}

/// A fleet in flight.
#[derive(Debug, Clone, PartialEq)]
pub struct Fleet {
    pub uid: Uid,
    pub owner: Seat,
    /// Cell index, `row * size + col` (row 0 at the top).
    pub pos: usize,
    pub kore: Num,
    pub ships: i64,
    pub dir: Dir,
    /// What is left of the flight plan (only `NESWC0-9`).
    pub plan: String,
    pub(crate) alive: bool,
}

impl Fleet {
    /// A fleet for a hand-made position (see [`Kore::from_parts`]).
    pub fn new(
        uid: Uid,
        owner: Seat,
        pos: usize,
        kore: Num,
        ships: i64,
        dir: Dir,
        plan: &str,
    ) -> Self {
        Fleet {
            uid,
            owner,
            pos,
            kore,
            ships,
            dir,
            plan: plan.to_string(),
            alive: true,
        }
    }
}

/// A shipyard.
#[derive(Debug, Clone, PartialEq)]
pub struct Shipyard {
    pub uid: Uid,
    pub owner: Seat,
    pub pos: usize,
    pub ships: i64,
    pub turns_controlled: i64,
    pub(crate) alive: bool,
}

impl Shipyard {
    /// A shipyard for a hand-made position (see [`Kore::from_parts`]).
    pub fn new(uid: Uid, owner: Seat, pos: usize, ships: i64, turns_controlled: i64) -> Self {
        Shipyard {
            uid,
            owner,
            pos,
            ships,
            turns_controlled,
            alive: true,
        }
    }
}

/// A seat's status, as upstream's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Active,
    Done,
    /// The seat's answer would have raised inside upstream's interpreter:
    /// it is out, its fleets and shipyards removed.
    Error,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Active => "ACTIVE",
            Status::Done => "DONE",
            Status::Error => "ERROR",
        }
    }
}

/// A game of Kore.
#[derive(Debug, Clone)]
pub struct Kore {
    config: Config,
    players: usize,
    step: u32,
    /// The board as it started, for `setup`.
    initial_kore: Vec<i64>,
    cells: Vec<Num>,
    /// Per seat: kore held.
    kore: Vec<Num>,
    /// Every fleet; grouped by owner between turns, as upstream rebuilds its
    /// board player by player (which fixes the order of many float sums).
    fleets: Vec<Fleet>,
    shipyards: Vec<Shipyard>,
    status: Vec<Status>,
    /// Per seat: the reward; `None` (JSON null) once errored.
    reward: Vec<Option<Num>>,
    /// New uids this turn: one counter, shared in processing order.
    uid_counter: u32,
    /// Per cell: 1 + index of the shipyard there, 0 for none.
    shipyard_at: Vec<u32>,
    /// Per cell: 1 + index of the fleet there, once collisions are resolved.
    fleet_at: Vec<u32>,
}

impl Kore {
    /// Sets up a game from its JSON config (see [`config::parse`]): upstream's
    /// board for `seed` (`configuration.randomSeed`, 0 to 2^32 − 1).
    pub fn from_config(config: &Value, seed: u64, players: usize) -> Result<Self, EngineError> {
        crate::registry::check_players(&INFO, players)?;
        let parsed = config::parse(config, seed)?;
        let kore = match parsed.kore {
            Some(k) => k,
            None => generate_kore(&parsed.config),
        };
        Ok(Self::from_board(parsed.config, players, kore))
    }

    /// A game on a given board: `kore` per cell (ints), one shipyard per
    /// player at upstream's starting places (their cells cleared).
    pub fn from_board(config: Config, players: usize, mut kore: Vec<i64>) -> Self {
        let size = config.size;
        let starts = starting_positions(size, players);
        for &pos in &starts {
            kore[pos] = 0;
        }
        let mut game = Kore {
            players,
            step: 0,
            initial_kore: kore.clone(),
            cells: kore.iter().map(|&k| Num::Int(k)).collect(),
            kore: vec![Num::Int(STARTING_PLAYER_KORE); players],
            fleets: Vec::new(),
            shipyards: Vec::new(),
            status: vec![Status::Active; players],
            reward: vec![Some(Num::Int(STARTING_PLAYER_KORE)); players],
            uid_counter: 0,
            shipyard_at: vec![0; size * size],
            fleet_at: vec![0; size * size],
            config,
        };
        for (seat, &pos) in starts.iter().enumerate() {
            game.shipyards.push(Shipyard {
                uid: Uid {
                    step: 0,
                    n: seat as u32 + 1,
                },
                owner: seat,
                pos,
                ships: 0,
                turns_controlled: 0,
                alive: true,
            });
        }
        game.index_shipyards();
        game
    }

    /// A hand-made position, for tests and analysis: cells, players' kore,
    /// shipyards and fleets (grouped by owner, in the order given), at `step`.
    pub fn from_parts(
        config: Config,
        step: u32,
        cells: Vec<Num>,
        kore: Vec<Num>,
        shipyards: Vec<Shipyard>,
        fleets: Vec<Fleet>,
    ) -> Self {
        let players = kore.len();
        let n = config.size * config.size;
        let mut game = Kore {
            players,
            step,
            initial_kore: cells.iter().map(|c| c.to_f64() as i64).collect(),
            reward: kore.iter().map(|&k| Some(k)).collect(),
            cells,
            kore,
            fleets,
            shipyards,
            status: vec![Status::Active; players],
            uid_counter: 0,
            shipyard_at: vec![0; n],
            fleet_at: vec![0; n],
            config,
        };
        for f in &mut game.fleets {
            f.alive = true;
        }
        for s in &mut game.shipyards {
            s.alive = true;
        }
        game.fleets.sort_by_key(|f| f.owner);
        game.shipyards.sort_by_key(|s| s.owner);
        game.index_shipyards();
        game
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Steps played (the observation's `step`).
    pub fn step_number(&self) -> u32 {
        self.step
    }

    /// Kore per cell, `row * size + col`.
    pub fn cells(&self) -> &[Num] {
        &self.cells
    }

    /// Kore held per seat.
    pub fn player_kore(&self) -> &[Num] {
        &self.kore
    }

    /// Every fleet, by owner, each owner's in upstream's order.
    pub fn fleets(&self) -> &[Fleet] {
        &self.fleets
    }

    /// Every shipyard, by owner, each owner's in upstream's order.
    pub fn shipyards(&self) -> &[Shipyard] {
        &self.shipyards
    }

    pub fn fleet(&self, uid: &str) -> Option<&Fleet> {
        self.fleets.iter().find(|f| f.uid.matches(uid))
    }

    pub fn shipyard(&self, uid: &str) -> Option<&Shipyard> {
        self.shipyards.iter().find(|s| s.uid.matches(uid))
    }

    pub fn status(&self) -> &[Status] {
        &self.status
    }

    pub fn reward(&self) -> &[Option<Num>] {
        &self.reward
    }

    fn is_over(&self) -> bool {
        self.status.iter().all(|s| *s != Status::Active)
    }

    fn index_shipyards(&mut self) {
        self.shipyard_at.fill(0);
        for (i, s) in self.shipyards.iter().enumerate() {
            if s.alive {
                self.shipyard_at[s.pos] = i as u32 + 1;
            }
        }
    }

    /// A seat's score for placements: its reward; an errored seat (reward
    /// null) below any eliminated one.
    fn score(&self, seat: Seat) -> f64 {
        match self.reward[seat] {
            Some(r) => r.to_f64(),
            None => -f64::from(self.config.episode_steps) - 1.0,
        }
    }
}

impl Game for Kore {
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

    /// The configuration with the starting board as `kore`: fed back as the
    /// config (with the same seed), it rebuilds the same game.
    fn setup(&self) -> Value {
        let c = &self.config;
        serde_json::json!({
            "episodeSteps": c.episode_steps,
            "actTimeout": c.act_timeout.to_json_value(),
            "runTimeout": c.run_timeout.to_json_value(),
            "startingKore": c.starting_kore,
            "size": c.size,
            "spawnCost": c.spawn_cost.to_json_value(),
            "convertCost": c.convert_cost,
            "regenRate": c.regen_rate.to_json_value(),
            "maxRegenCellKore": c.max_regen_cell_kore,
            "agentTimeout": c.agent_timeout.to_json_value(),
            "kore": self.initial_kore,
        })
    }

    /// `{"observation": <upstream's observation for the seat>,
    /// "configuration": <upstream's configuration>}`: a Kaggle agent's
    /// `agent(obs, config)` reads the two halves.
    fn observation(&self, seat: Seat, out: &mut String) {
        out.clear();
        out.push_str("{\"observation\":");
        self.write_reference_observation(seat, out);
        out.push_str(",\"configuration\":");
        self.config.write_json(out);
        out.push('}');
    }

    fn reference_observation(&self, seat: Seat, out: &mut String) {
        out.clear();
        self.write_reference_observation(seat, out);
    }

    /// One turn in upstream's order (`Board.next` and the interpreter).
    /// Stepping a finished game does nothing.
    fn step(&mut self, answers: &[Option<&str>]) -> Vec<Rejection> {
        if self.is_over() {
            return Vec::new();
        }
        let mut rejections = Vec::new();
        let orders = self.read_orders(answers, &mut rejections);
        self.uid_counter = 0;
        for seat in 0..self.players {
            self.spawn_and_launch(seat, &orders, &mut rejections);
            self.count_turns_controlled(seat);
            self.follow_flight_plans(seat);
            self.coalesce_allied_fleets(seat);
        }
        self.resolve_fleet_collisions();
        self.resolve_shipyard_collisions();
        self.deposit_at_own_shipyards();
        self.damage_adjacent_fleets();
        self.mine_kore();
        self.regenerate_kore();
        self.end_turn();
        rejections
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let scores = self.scores();
        let alive = self.status.iter().filter(|s| **s == Status::Done).count();
        let reason = if self.step + 1 >= self.config.episode_steps {
            format!("step limit ({}) reached", self.config.episode_steps)
        } else if alive > 0 {
            "fewer than two players left".to_string()
        } else {
            "every player is out".to_string()
        };
        Some(Outcome {
            placements: crate::placements_from_scores(&scores),
            scores,
            reason,
        })
    }

    fn state_hash(&self) -> [u8; 32] {
        let mut h = Sha256::new();
        h.update(b"ludus/kore/state/v1\0");
        let mut config = String::new();
        self.config.write_json(&mut config);
        h.update((config.len() as u64).to_le_bytes());
        h.update(config.as_bytes());
        h.update((self.players as u64).to_le_bytes());
        h.update(self.step.to_le_bytes());
        let num = |h: &mut Sha256, n: Num| match n {
            Num::Int(i) => {
                h.update([0u8]);
                h.update(i.to_le_bytes());
            }
            Num::Float(f) => {
                h.update([1u8]);
                h.update(f.to_bits().to_le_bytes());
            }
        };
        for &c in &self.cells {
            num(&mut h, c);
        }
        for &k in &self.kore {
            num(&mut h, k);
        }
        h.update((self.shipyards.len() as u64).to_le_bytes());
        for s in &self.shipyards {
            h.update(s.uid.step.to_le_bytes());
            h.update(s.uid.n.to_le_bytes());
            h.update((s.owner as u64).to_le_bytes());
            h.update((s.pos as u64).to_le_bytes());
            h.update(s.ships.to_le_bytes());
            h.update(s.turns_controlled.to_le_bytes());
        }
        h.update((self.fleets.len() as u64).to_le_bytes());
        for f in &self.fleets {
            h.update(f.uid.step.to_le_bytes());
            h.update(f.uid.n.to_le_bytes());
            h.update((f.owner as u64).to_le_bytes());
            h.update((f.pos as u64).to_le_bytes());
            num(&mut h, f.kore);
            h.update(f.ships.to_le_bytes());
            h.update([f.dir as u8]);
            h.update((f.plan.len() as u64).to_le_bytes());
            h.update(f.plan.as_bytes());
        }
        for (s, r) in self.status.iter().zip(&self.reward) {
            h.update([*s as u8]);
            match r {
                None => h.update([2u8]),
                Some(n) => num(&mut h, *n),
            }
        }
        h.finalize().into()
    }

    /// Per seat: the reward (kore held while playing); an errored seat
    /// scores below any eliminated one.
    fn scores(&self) -> Vec<f64> {
        (0..self.players).map(|s| self.score(s)).collect()
    }

    fn rewards(&self) -> Vec<Value> {
        self.reward
            .iter()
            .map(|r| r.map_or(Value::Null, Num::to_json_value))
            .collect()
    }

    fn statuses(&self) -> Vec<&'static str> {
        self.status.iter().map(|s| s.as_str()).collect()
    }
}
