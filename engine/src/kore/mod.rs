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
//! Submodules: `config` (upstream's configuration), `actions` and `pystr`
//! (reading answers as upstream does), `rules` (the phases), `observation`
//! (upstream's JSON). What Kore shares with Halite (Python's numbers, JSON
//! and random generators, the board generator, uids, seats) is
//! [`crate::kaggle`].

mod actions;
mod config;
mod observation;
mod pystr;
mod rules;

use serde_json::Value;
use sha2::{Digest, Sha256};

pub use crate::kaggle::pynum::{round3, Num};
pub use crate::kaggle::{Dir, Status, Uid, REMAINING_OVERAGE_TIME};
pub use actions::{kind as rejection_kind, read_value, Order, Reading};
pub use config::Config;
pub use pystr::PyInt;

use crate::game_info::GameInfo;
use crate::kaggle::{populate_board, BoardText, CellIndex, Generator, NewUids, Seats};
use crate::sight::Sight;
use crate::{EngineError, Game, Outcome, Rejection, Seat};

/// The registry entry.
pub const INFO: GameInfo = GameInfo {
    id: "kore",
    rules_version: 1,
    seats: &[2, 4],
    max_seed: u32::MAX as u64,
    score_unit: "kore",
    progress_unit: None,
    unreadable: &["not_json", "not_an_object", "agent_error"],
    summary: "Kore 2022: mine kore with fleets on flight plans, build shipyards, capture the \
              others'; the most kore after 400 turns wins (Kaggle's kore_fleets, bit for bit).",
    new: |config, seed, players| Ok(Box::new(Kore::from_config(config, seed, players)?)),
    answer_bytes: 64 << 10,
    sight: Sight::Full,
};

/// The kore every player starts with (upstream's reward default).
pub const STARTING_PLAYER_KORE: i64 = 500;

/// Cell kore of upstream's generated board, as ints (index `row * size +
/// col`, row 0 at the top, as upstream's `observation.kore`).
pub fn generate_kore(config: &Config) -> Vec<i64> {
    populate_board(Generator {
        size: config.size,
        total: config.starting_kore,
        seed: config.random_seed,
        symmetric_quarter: true,
    })
    // Kore boards are at least 5 cells a side: the quarter's last seeds
    // are (half - 1)² > 0, so the total is never 0.
    .expect("a Kore board holds kore")
}

/// Each player's starting shipyard cell (upstream's `starting_positions`
/// for 2 and 4 players).
pub fn starting_positions(size: usize, players: usize) -> Vec<usize> {
    if players == 2 {
        vec![
            size * (size / 2 - size / 4) + size / 4,
            size * (size / 2 + size / 4) + (3 * size).div_ceil(4) - 1,
        ]
    } else {
        vec![
            size * (size / 4 + 1) + size / 4 - 1,
            size * (size / 4 - 1) + 3 * size / 4 - 1,
            size * (3 * size / 4 + 1) + size / 4 + 1,
            size * (3 * size / 4 - 1) + 3 * size / 4 + 1,
        ]
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

    /// Whether the fleet is still in play. Fleets destroyed during a step
    /// are only removed at its end, so a phase run alone leaves them here
    /// with this false.
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

    /// Whether the shipyard is still in play (see [`Fleet::is_alive`]).
    pub fn is_alive(&self) -> bool {
        self.alive
    }
}

/// A game of Kore.
#[derive(Debug, Clone)]
pub struct Kore {
    config: Config,
    /// The configuration as agents see it, written once.
    config_text: String,
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
    seats: Seats,
    /// New uids this turn: one counter, shared in processing order.
    new_uids: NewUids,
    /// The live shipyard on each cell.
    shipyard_at: CellIndex,
    /// The live fleet on each cell, as of the last fleet collisions (phase
    /// 5) or the end of the last step.
    fleet_at: CellIndex,
    /// What every seat's observation shares, once written this step.
    board_text: BoardText,
}

impl Kore {
    /// Sets up a game from its JSON config (see [`config::parse`]): upstream's
    /// board for `seed` (`configuration.randomSeed`, 0 to 2^32 − 1).
    pub fn from_config(config: &Value, seed: u64, players: usize) -> Result<Self, EngineError> {
        crate::game_info::check_players(&INFO, players)?;
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
        let starts = starting_positions(config.size, players);
        for &pos in &starts {
            kore[pos] = 0;
        }
        let shipyards = starts
            .iter()
            .enumerate()
            .map(|(seat, &pos)| {
                let uid = Uid {
                    step: 0,
                    n: seat as u32 + 1,
                };
                Shipyard::new(uid, seat, pos, 0, 0)
            })
            .collect();
        let mut game = Self::from_parts(
            config,
            0,
            kore.iter().map(|&k| Num::Int(k)).collect(),
            vec![Num::Int(STARTING_PLAYER_KORE); players],
            shipyards,
            Vec::new(),
        );
        game.initial_kore = kore;
        game
    }

    /// A hand-made position, for tests and analysis: cells, players' kore,
    /// shipyards and fleets (grouped by owner, in the order given), at `step`.
    pub fn from_parts(
        config: Config,
        step: u32,
        cells: Vec<Num>,
        kore: Vec<Num>,
        mut shipyards: Vec<Shipyard>,
        mut fleets: Vec<Fleet>,
    ) -> Self {
        let n = config.size * config.size;
        for f in &mut fleets {
            f.alive = true;
        }
        for s in &mut shipyards {
            s.alive = true;
        }
        fleets.sort_by_key(|f| f.owner);
        shipyards.sort_by_key(|s| s.owner);
        let mut config_text = String::new();
        config.write_json(&mut config_text);
        let mut game = Kore {
            players: kore.len(),
            step,
            initial_kore: cells.iter().map(|c| c.to_f64() as i64).collect(),
            seats: Seats::new(&kore),
            cells,
            kore,
            fleets,
            shipyards,
            new_uids: NewUids::default(),
            shipyard_at: CellIndex::new(n),
            fleet_at: CellIndex::new(n),
            board_text: BoardText::default(),
            config,
            config_text,
        };
        game.index_cells();
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

    /// Every fleet, by owner, each owner's in upstream's order (within a
    /// step, destroyed ones too: see [`Fleet::is_alive`]).
    pub fn fleets(&self) -> &[Fleet] {
        &self.fleets
    }

    /// Every shipyard, by owner, each owner's in upstream's order (within a
    /// step, destroyed ones too).
    pub fn shipyards(&self) -> &[Shipyard] {
        &self.shipyards
    }

    /// The fleet with this uid, if it is in play.
    pub fn fleet(&self, uid: &str) -> Option<&Fleet> {
        self.fleets.iter().find(|f| f.alive && f.uid.matches(uid))
    }

    /// The shipyard with this uid, if it is in play.
    pub fn shipyard(&self, uid: &str) -> Option<&Shipyard> {
        self.shipyards
            .iter()
            .find(|s| s.alive && s.uid.matches(uid))
    }

    pub fn status(&self) -> &[Status] {
        self.seats.statuses()
    }

    pub fn reward(&self) -> &[Option<Num>] {
        self.seats.rewards()
    }

    /// Which shipyard and which fleet stand on each cell. Between steps a
    /// cell holds at most one fleet; during phases 1 to 4 fleets move and
    /// merge, and phase 5 indexes them again.
    fn index_cells(&mut self) {
        self.shipyard_at.clear_all();
        for (i, s) in self.shipyards.iter().enumerate() {
            if s.alive {
                self.shipyard_at.set(s.pos, i);
            }
        }
        self.fleet_at.clear_all();
        for (i, f) in self.fleets.iter().enumerate() {
            if f.alive {
                self.fleet_at.set(f.pos, i);
            }
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
        crate::kaggle::write_agent_view(out, seat, self.step, &self.config_text, |out| {
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

    /// One turn in upstream's order (`Board.next` and the interpreter).
    /// Stepping a finished game does nothing.
    fn step(&mut self, answers: &[Option<&str>]) -> Vec<Rejection> {
        if self.seats.is_over() {
            return Vec::new();
        }
        self.board_text.forget();
        let mut rejections = Vec::new();
        let orders = self.read_orders(answers, &mut rejections);
        self.new_uids.reset();
        for seat in 0..self.players {
            self.spawn_and_launch(seat, &orders, &mut rejections);
            self.follow_flight_plans(seat);
            self.move_fleets(seat);
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
        if !self.seats.is_over() {
            return None;
        }
        let scores = self.scores();
        let statuses = self.seats.statuses();
        let alive = statuses.iter().filter(|s| **s == Status::Done).count();
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
        h.update((self.config_text.len() as u64).to_le_bytes());
        h.update(self.config_text.as_bytes());
        h.update((self.players as u64).to_le_bytes());
        h.update(self.step.to_le_bytes());
        for c in &self.cells {
            h.update(c.hash_bytes());
        }
        for k in &self.kore {
            h.update(k.hash_bytes());
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
            h.update(f.kore.hash_bytes());
            h.update(f.ships.to_le_bytes());
            h.update([f.dir as u8]);
            h.update((f.plan.len() as u64).to_le_bytes());
            h.update(f.plan.as_bytes());
        }
        for (s, r) in self.seats.statuses().iter().zip(self.seats.rewards()) {
            h.update([*s as u8]);
            match r {
                None => h.update([2u8]),
                Some(n) => h.update(n.hash_bytes()),
            }
        }
        h.finalize().into()
    }

    /// Per seat: the reward (kore held while playing); an errored seat
    /// scores below any eliminated one.
    fn scores(&self) -> Vec<f64> {
        self.seats.scores(self.config.episode_steps)
    }

    fn rewards(&self) -> Vec<Value> {
        self.seats.rewards_json()
    }

    fn statuses(&self) -> Vec<&'static str> {
        self.seats.status_words()
    }
}
