//! Shields: four bots on an 8×8 board of cells worth 1 to 3 take cells by
//! staying on them, upgrade their own, and SHIELD to freeze rivals sitting
//! on their land. The rules are in `docs/games/shields.md`; a turn is
//!
//! 1. every bot picks NORTH, EAST, SOUTH, WEST, STAY or SHIELD (late,
//!    missing or illegal is STAY; a frozen bot is forced to STAY);
//! 2. moves, all at once: closed cells, contested cells (owner, then the
//!    priority token); a blocked move counts as a stay;
//! 3. shields: every rival staying on a shielder's cells is caught (loses
//!    its progress, frozen 2 turns); a shield that catches nobody backfires;
//! 4. take and upgrade: staying 1 turn takes a cell (3 for an upgraded rival
//!    cell, with a raid bonus); staying 3 turns on your own upgrades it;
//! 5. score: every cell's value, doubled if upgraded;
//! 6. freezes and shield cooldowns count down;
//!
//! then the token moves one seat. 80 turns; most points wins.

mod observation;
mod rules;

use rand_core::RngCore;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::game_info::GameInfo;
use crate::grid::{self, corner, mirror_quadrant, Board, PLAYERS};
use crate::sight::Sight;
use crate::{EngineError, Game, Outcome, Rejection, Seat};

/// The registry entry.
pub const INFO: GameInfo = GameInfo {
    id: "shields",
    rules_version: 2,
    seats: &[4],
    max_seed: u64::MAX,
    score_unit: "points",
    progress_unit: None,
    unreadable: &[grid::kind::UNPARSEABLE],
    summary: "Four bots take, upgrade and shield valued cells on an 8x8 board; most points wins.",
    new: |config, seed, players| Ok(Box::new(Shields::from_config(config, seed, players)?)),
    answer_bytes: 1 << 10,
    sight: Sight::Full,
};

/// Turns in a game.
pub const MAX_TURNS: u32 = 80;
/// The board's side.
pub const SIDE: usize = 8;
/// Turns of staying to take an upgraded rival cell, or to upgrade your own.
pub const LONG_STAY: u32 = 3;
/// Turns a caught rival (or a shielder whose shield backfired) stays frozen.
pub const FREEZE_TURNS: u32 = 2;
/// Turns after a SHIELD before the next one.
pub const SHIELD_COOLDOWN: u32 = 4;
/// Raid bonus factor: 8 × value × level.
pub const RAID_FACTOR: u64 = 8;

/// One bot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShieldsBot {
    pub position: usize,
    /// Its corner: always its own.
    pub home: usize,
    /// Turns it has stayed on this cell towards taking or upgrading it.
    pub progress: u32,
    /// Turns before it may SHIELD again (0: it may).
    pub shield_cooldown: u32,
    /// Turns it is still frozen (forced to STAY).
    pub frozen: u32,
    /// It shielded in the last turn.
    pub shielded: bool,
    /// Points so far, raid bonuses included.
    pub score: u64,
}

/// A game of shields.
#[derive(Debug, Clone)]
pub struct Shields {
    board: Board,
    max_turns: u32,
    turn: u32,
    value: Vec<u8>,
    /// 1, or 2 once upgraded (meaningful on owned cells).
    level: Vec<u8>,
    owner: Vec<Option<Seat>>,
    bots: [ShieldsBot; PLAYERS],
}

fn config_error(reason: impl Into<String>) -> EngineError {
    EngineError::Config {
        game: INFO.id,
        reason: reason.into(),
    }
}

impl Shields {
    /// Sets up a game from its config: `null`, or an object with the
    /// optional fields `values` (rows of cell values 1 to 3, 4 to 32 cells a
    /// side; without it the seed generates an 8×8 board) and `max_turns`
    /// (default 80).
    pub fn from_config(config: &Value, seed: u64, players: usize) -> Result<Self, EngineError> {
        crate::game_info::check_players(&INFO, players)?;
        let fields = grid::config_fields(INFO.id, config, &["values", "max_turns"])?;
        let max_turns = match fields {
            None => None,
            Some(f) => grid::config_u64(INFO.id, f, "max_turns", 1..=100_000)?,
        }
        .map_or(MAX_TURNS, |v| v as u32);
        let (board, values) = match fields.and_then(|f| f.get("values")) {
            Some(v) => parse_values(v)?,
            None => generate_values(seed),
        };
        Ok(Self::new(board, values, max_turns))
    }

    /// The starting position: each bot on its corner, which it owns;
    /// every other cell neutral, every cell at level 1.
    pub fn new(board: Board, value: Vec<u8>, max_turns: u32) -> Self {
        let mut owner = vec![None; board.len()];
        let bots = std::array::from_fn(|seat| {
            let home = corner(board, seat);
            owner[home] = Some(seat);
            ShieldsBot {
                position: home,
                home,
                progress: 0,
                shield_cooldown: 0,
                frozen: 0,
                shielded: false,
                score: 0,
            }
        });
        Shields {
            board,
            max_turns,
            turn: 0,
            level: vec![1; board.len()],
            value,
            owner,
            bots,
        }
    }

    pub fn board(&self) -> Board {
        self.board
    }

    pub fn owner(&self) -> &[Option<Seat>] {
        &self.owner
    }

    pub fn value(&self) -> &[u8] {
        &self.value
    }

    pub fn level(&self) -> &[u8] {
        &self.level
    }

    pub fn bot(&self, seat: Seat) -> &ShieldsBot {
        &self.bots[seat]
    }

    /// For tests and tools: the owners, to edit directly, bypassing the rules.
    pub fn owner_mut(&mut self) -> &mut [Option<Seat>] {
        &mut self.owner
    }

    /// For tests and tools: the levels (1 or 2), to edit directly.
    pub fn level_mut(&mut self) -> &mut [u8] {
        &mut self.level
    }

    /// For tests and tools: a bot, to edit directly, bypassing the rules.
    pub fn bot_mut(&mut self, seat: Seat) -> &mut ShieldsBot {
        &mut self.bots[seat]
    }

    fn is_over(&self) -> bool {
        self.turn >= self.max_turns
    }
}

fn parse_values(v: &Value) -> Result<(Board, Vec<u8>), EngineError> {
    let shape = "`values` must be rows (4 to 32) of cell values 1 to 3, all rows as long (4 to 32)";
    let rows = v.as_array().ok_or_else(|| config_error(shape))?;
    let height = rows.len();
    let width = rows
        .first()
        .and_then(|r| r.as_array())
        .map_or(0, |r| r.len());
    if !(4..=32).contains(&height) || !(4..=32).contains(&width) {
        return Err(config_error(shape));
    }
    let mut values = Vec::with_capacity(width * height);
    for row in rows {
        let row = row
            .as_array()
            .filter(|r| r.len() == width)
            .ok_or_else(|| config_error(shape))?;
        for cell in row {
            let n = cell
                .as_u64()
                .filter(|n| (1..=3).contains(n))
                .ok_or_else(|| config_error(format!("{shape}; found {cell}")))?;
            values.push(n as u8);
        }
    }
    Ok((Board::new(width, height), values))
}

/// The generated 8×8 board of `seed`: one quarter drawn, mirrored into the
/// other three. A quarter cell `[x, y]` (corner at `[0, 0]`) starts at 1
/// when `x + y` is 0 to 2, 2 when 3 or 4, 3 when 5 or 6 (the middle), then
/// each cell but the corner and the middle one moves down by one with chance
/// 1/6 and up by one with chance 1/6 (kept within 1 to 3), and is raised to the value of its
/// neighbours further from the middle if they are higher.
pub fn generate_values(seed: u64) -> (Board, Vec<u8>) {
    let mut rng = crate::rng::stream(seed, "shields/board");
    let half = SIDE / 2;
    let mut quarter = vec![0u8; half * half];
    for y in 0..half {
        for x in 0..half {
            let c = x + y;
            let mut v: i32 = 1 + i32::from(c >= 3) + i32::from(c >= 5);
            let fixed = c == 0 || c == 2 * (half - 1);
            let r = rng.next_u32() % 6;
            if !fixed && r == 0 {
                v -= 1;
            } else if !fixed && r == 1 {
                v += 1;
            }
            // Never lower than the cells further out: values only rise
            // towards the middle.
            let mut v = v.clamp(1, 3) as u8;
            if x > 0 {
                v = v.max(quarter[y * half + x - 1]);
            }
            if y > 0 {
                v = v.max(quarter[(y - 1) * half + x]);
            }
            quarter[y * half + x] = v;
        }
    }
    let board = Board::new(SIDE, SIDE);
    (board, mirror_quadrant(board, |x, y| quarter[y * half + x]))
}

impl Game for Shields {
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
        self.turn
    }

    fn setup(&self) -> Value {
        let rows: Vec<Vec<u8>> = self
            .value
            .chunks(self.board.width)
            .map(|r| r.to_vec())
            .collect();
        json!({"values": rows, "max_turns": self.max_turns})
    }

    fn observation(&self, seat: Seat, out: &mut String) {
        self.write_observation(seat, out);
    }

    /// One turn in the rule book's order. Stepping a finished game does nothing.
    fn step(&mut self, answers: &[Option<&str>]) -> Vec<Rejection> {
        if self.is_over() {
            return Vec::new();
        }
        let (actions, rejections) = self.read_actions(answers);
        let mut stayed = self.move_bots(&actions);
        let freezes = self.raise_shields(&actions, &mut stayed);
        self.take_and_upgrade(&stayed);
        self.score_cells();
        self.count_down(&actions, &freezes);
        self.turn += 1;
        rejections
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        Some(self.final_outcome())
    }

    fn state_hash(&self) -> [u8; 32] {
        let mut h = Sha256::new();
        h.update(b"ludus/shields/state/v1\0");
        h.update((self.board.width as u64).to_le_bytes());
        h.update((self.board.height as u64).to_le_bytes());
        h.update(self.max_turns.to_le_bytes());
        h.update(self.turn.to_le_bytes());
        h.update(&self.value);
        h.update(&self.level);
        grid::hash_owners(&mut h, &self.owner);
        for b in &self.bots {
            h.update((b.position as u64).to_le_bytes());
            h.update(b.progress.to_le_bytes());
            h.update(b.shield_cooldown.to_le_bytes());
            h.update(b.frozen.to_le_bytes());
            h.update([u8::from(b.shielded)]);
            h.update(b.score.to_le_bytes());
        }
        h.finalize().into()
    }

    /// Per seat: points so far.
    fn scores(&self) -> Vec<f64> {
        self.bots.iter().map(|b| b.score as f64).collect()
    }
}
