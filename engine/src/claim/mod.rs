//! Claim: four bots start on the corners and capture cells by staying on
//! them, staying connected to their home corner. The rules are in
//! `docs/games/claim.md`; a turn is
//!
//! 1. every bot picks NORTH, EAST, SOUTH, WEST, STAY or RETREAT (late,
//!    missing or illegal is STAY; while capturing only STAY or RETREAT);
//! 2. moves, all at once: closed cells, contested cells (owner, then the
//!    priority token); stepping off your land starts a capture;
//! 3. captures: a bot that stayed finishes its capture (an enemy home takes
//!    two turns);
//! 4. cut-offs: land cut off from home turns neutral; a bot cut off or
//!    without its home is out and all its land turns neutral;
//! 5. the cap: a 36th cell releases one of the bot's outer cells;
//!
//! then the token moves one seat, and the game ends with the last bot
//! standing or after 300 turns.

mod observation;
mod rules;

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::game_info::GameInfo;
use crate::grid::{self, corner, Board, PLAYERS};
use crate::sight::Sight;
use crate::{EngineError, Game, Outcome, Rejection, Seat};

/// The registry entry.
pub const INFO: GameInfo = GameInfo {
    id: "claim",
    rules_version: 2,
    seats: &[4],
    max_seed: u64::MAX,
    score_unit: "cells",
    progress_unit: None,
    unreadable: &[grid::kind::UNPARSEABLE],
    summary: "Four bots capture cells from the corners, staying connected to home; 35-cell cap.",
    new: |config, seed, players| Ok(Box::new(Claim::from_config(config, seed, players)?)),
    answer_bytes: 1 << 10,
    sight: Sight::Full,
};

/// Turns in a game.
pub const MAX_TURNS: u32 = 300;
/// Cells a bot may hold.
pub const CELL_CAP: usize = 35;
/// Board sides the generator picks from.
pub const SIDES: [usize; 3] = [11, 13, 15];

/// One bot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimBot {
    /// The cell it stands on (its last cell once it is out).
    pub position: usize,
    /// Its corner.
    pub home: usize,
    /// While capturing: the cell it stepped in from (where RETREAT goes).
    pub came_from: Option<usize>,
    /// While capturing: the cell being captured (the one it stands on).
    pub capture_target: Option<usize>,
    /// Turns of staying still needed to finish the capture.
    pub dwell_remaining: u32,
    /// The turn (1-based) it went out, or `None` while it is in.
    pub out_on: Option<u32>,
}

impl ClaimBot {
    pub fn alive(&self) -> bool {
        self.out_on.is_none()
    }
}

/// A game of claim.
#[derive(Debug, Clone)]
pub struct Claim {
    board: Board,
    max_turns: u32,
    turn: u32,
    owner: Vec<Option<Seat>>,
    bots: [ClaimBot; PLAYERS],
}

impl Claim {
    /// Sets up a game from its config: `null`, or an object with the
    /// optional fields `width` and `height` (5 to 64; without them the seed
    /// picks each from 11, 13, 15) and `max_turns` (default 300).
    pub fn from_config(config: &Value, seed: u64, players: usize) -> Result<Self, EngineError> {
        crate::game_info::check_players(&INFO, players)?;
        let fields = grid::config_fields(INFO.id, config, &["width", "height", "max_turns"])?;
        let get = |k: &str, r| match fields {
            None => Ok(None),
            Some(f) => grid::config_u64(INFO.id, f, k, r),
        };
        let (gw, gh) = generate_size(seed);
        let width = get("width", 5..=64)?.map_or(gw, |v| v as usize);
        let height = get("height", 5..=64)?.map_or(gh, |v| v as usize);
        let max_turns = get("max_turns", 1..=100_000)?.map_or(MAX_TURNS, |v| v as u32);
        Ok(Self::new(width, height, max_turns))
    }

    /// The starting position on a `width` × `height` board: each bot on its
    /// corner, which it owns; every other cell neutral.
    pub fn new(width: usize, height: usize, max_turns: u32) -> Self {
        let board = Board::new(width, height);
        let mut owner = vec![None; board.len()];
        let bots = std::array::from_fn(|seat| {
            let home = corner(board, seat);
            owner[home] = Some(seat);
            ClaimBot {
                position: home,
                home,
                came_from: None,
                capture_target: None,
                dwell_remaining: 0,
                out_on: None,
            }
        });
        Claim {
            board,
            max_turns,
            turn: 0,
            owner,
            bots,
        }
    }

    pub fn board(&self) -> Board {
        self.board
    }

    /// Each cell's owner, row by row.
    pub fn owner(&self) -> &[Option<Seat>] {
        &self.owner
    }

    pub fn owner_at(&self, x: usize, y: usize) -> Option<Seat> {
        self.owner[self.board.index(x, y)]
    }

    pub fn bot(&self, seat: Seat) -> &ClaimBot {
        &self.bots[seat]
    }

    /// Cells `seat` owns.
    pub fn owned_count(&self, seat: Seat) -> usize {
        self.owner.iter().filter(|o| **o == Some(seat)).count()
    }

    /// Cells each seat owns.
    pub fn owned_counts(&self) -> [usize; PLAYERS] {
        grid::counts(&self.owner)
    }

    /// For tests and tools: the owners, to edit directly, bypassing the rules.
    pub fn owner_mut(&mut self) -> &mut [Option<Seat>] {
        &mut self.owner
    }

    /// For tests and tools: a bot, to edit directly, bypassing the rules.
    pub fn bot_mut(&mut self, seat: Seat) -> &mut ClaimBot {
        &mut self.bots[seat]
    }

    fn is_over(&self) -> bool {
        self.bots.iter().filter(|b| b.alive()).count() <= 1 || self.turn >= self.max_turns
    }
}

/// The generated board size of `seed`.
fn generate_size(seed: u64) -> (usize, usize) {
    use rand_core::RngCore;
    let mut rng = crate::rng::stream(seed, "claim/board");
    let w = SIDES[(rng.next_u32() % SIDES.len() as u32) as usize];
    let h = SIDES[(rng.next_u32() % SIDES.len() as u32) as usize];
    (w, h)
}

impl Game for Claim {
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
        json!({"width": self.board.width, "height": self.board.height, "max_turns": self.max_turns})
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
        let moved = self.move_bots(&actions);
        self.complete_captures(&moved);
        self.cut_off_land_and_bots();
        self.release_over_cap();
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
        h.update(b"ludus/claim/state/v1\0");
        h.update((self.board.width as u64).to_le_bytes());
        h.update((self.board.height as u64).to_le_bytes());
        h.update(self.max_turns.to_le_bytes());
        h.update(self.turn.to_le_bytes());
        grid::hash_owners(&mut h, &self.owner);
        for b in &self.bots {
            h.update((b.position as u64).to_le_bytes());
            h.update((b.home as u64).to_le_bytes());
            grid::hash_opt(&mut h, b.came_from);
            grid::hash_opt(&mut h, b.capture_target);
            h.update(b.dwell_remaining.to_le_bytes());
            h.update(b.out_on.map_or(u32::MAX, |t| t).to_le_bytes());
        }
        h.finalize().into()
    }

    /// Per seat: cells owned.
    fn scores(&self) -> Vec<f64> {
        (0..PLAYERS).map(|s| self.owned_count(s) as f64).collect()
    }
}
