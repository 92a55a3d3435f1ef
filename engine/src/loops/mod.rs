//! Loops: four bots start on protected 2×2 pads in the corners, leave their
//! land drawing a trail, and close loops to claim the trail and everything
//! it encloses. The rules are in `docs/games/loops.md`; a turn is
//!
//! 1. every bot picks NORTH, EAST, SOUTH, WEST or STAY (late, missing or
//!    illegal is STAY); the server drives the bots that were cut home;
//! 2. moves, all at once: closed cells, no swaps, the priority token;
//! 3. trails: off your land you draw one; walking back over it shortens it;
//! 4. cuts: stepping on a rival's open trail cuts it and sends it home;
//! 5. loops: back on your land, your trail and what it encloses are yours
//!    (a cell two loops claim keeps its owner; pads never change hands);
//! 6. bots that were driven home and are back on their pad play again;
//! 7. every bot scores a point per cell it owns;
//!
//! then the token moves one seat. 72 turns on 9×7, 100 on 12×8.

mod observation;
mod rules;

use rand_core::RngCore;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::game_info::GameInfo;
use crate::grid::{self, flood, mirror, mirror_quadrant, Board, PLAYERS};
use crate::sight::Sight;
use crate::{EngineError, Game, Outcome, Rejection, Seat};

/// The registry entry.
pub const INFO: GameInfo = GameInfo {
    id: "loops",
    rules_version: 2,
    seats: &[4],
    max_seed: u64::MAX,
    score_unit: "points",
    progress_unit: None,
    unreadable: &[grid::kind::UNPARSEABLE],
    summary:
        "Four bots draw trails and close loops to claim land; cut a rival's trail to send it home.",
    new: |config, seed, players| Ok(Box::new(Loops::from_config(config, seed, players)?)),
    answer_bytes: 1 << 10,
    sight: Sight::Full,
};

/// The two board sizes and their turn counts.
pub const BOARDS: [(usize, usize, u32); 2] = [(9, 7, 72), (12, 8, 100)];
/// Turns on a board of any other size (config only).
pub const OTHER_TURNS: u32 = 100;

/// One bot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoopsBot {
    pub position: usize,
    /// Its 2×2 start, row by row.
    pub pad: [usize; 4],
    /// Cells walked since leaving its land, oldest first (the last is where it stands).
    pub trail: Vec<usize>,
    /// Cut: the server drives it home to its pad.
    pub returning: bool,
    /// Points so far.
    pub score: u64,
    /// Its last move did not happen (a closed cell, or another bot won the cell).
    pub blocked: bool,
}

/// A game of loops.
#[derive(Debug, Clone)]
pub struct Loops {
    board: Board,
    max_turns: u32,
    turn: u32,
    owner: Vec<Option<Seat>>,
    wall: Vec<bool>,
    /// Whose pad each cell is.
    pad_of: Vec<Option<Seat>>,
    bots: [LoopsBot; PLAYERS],
}

fn config_error(reason: impl Into<String>) -> EngineError {
    EngineError::Config {
        game: INFO.id,
        reason: reason.into(),
    }
}

/// Seat `seat`'s 2×2 pad on `board`, row by row.
pub fn pad_cells(board: Board, seat: Seat) -> [usize; 4] {
    let mut cells = [0, 1, board.width, board.width + 1].map(|c| mirror(board, seat, c));
    cells.sort_unstable();
    cells
}

impl Loops {
    /// Sets up a game from its config: `null`, or an object with the
    /// optional fields `width` and `height` (5 to 32, together), `walls`
    /// (a list of `[x, y]`) and `max_turns`. Without a size the seed picks
    /// 9×7 or 12×8, and on half the boards mirrored walls in the middle.
    pub fn from_config(config: &Value, seed: u64, players: usize) -> Result<Self, EngineError> {
        crate::game_info::check_players(&INFO, players)?;
        let fields =
            grid::config_fields(INFO.id, config, &["width", "height", "walls", "max_turns"])?;
        let get = |k: &str, r| match fields {
            None => Ok(None),
            Some(f) => grid::config_u64(INFO.id, f, k, r),
        };
        let size = match (get("width", 5..=32)?, get("height", 5..=32)?) {
            (Some(w), Some(h)) => Some((w as usize, h as usize)),
            (None, None) => None,
            _ => return Err(config_error("give both `width` and `height`, or neither")),
        };
        let walls_given = fields.and_then(|f| f.get("walls"));
        let (board, walls) = match size {
            Some((w, h)) => {
                let board = Board::new(w, h);
                let walls = match walls_given {
                    Some(v) => grid::config_cells(INFO.id, board, "walls", v)?,
                    None => Vec::new(),
                };
                (board, walls)
            }
            None => {
                if walls_given.is_some() {
                    return Err(config_error("`walls` needs `width` and `height`"));
                }
                generate_board(seed)
            }
        };
        let default_turns = BOARDS
            .iter()
            .find(|b| (b.0, b.1) == (board.width, board.height))
            .map_or(OTHER_TURNS, |b| b.2);
        let max_turns = get("max_turns", 1..=100_000)?.map_or(default_turns, |v| v as u32);
        Self::new(board.width, board.height, &walls, max_turns)
    }

    /// The starting position: each bot on the corner cell of its pad, which
    /// it owns; `walls` blocked; every other cell neutral. Refused if a wall
    /// is on a pad or the free cells are not all joined up.
    pub fn new(
        width: usize,
        height: usize,
        walls: &[usize],
        max_turns: u32,
    ) -> Result<Self, EngineError> {
        let board = Board::new(width, height);
        let mut wall = vec![false; board.len()];
        for &w in walls {
            if w >= board.len() {
                return Err(config_error("a wall is off the board"));
            }
            wall[w] = true;
        }
        let mut owner = vec![None; board.len()];
        let mut pad_of = vec![None; board.len()];
        for seat in 0..PLAYERS {
            for c in pad_cells(board, seat) {
                if wall[c] {
                    let (x, y) = board.xy(c);
                    return Err(config_error(format!("the wall [{x}, {y}] is on a pad")));
                }
                owner[c] = Some(seat);
                pad_of[c] = Some(seat);
            }
        }
        let open = flood(board, &[0], |c| !wall[c]);
        if (0..board.len()).any(|c| !wall[c] && !open[c]) {
            return Err(config_error("the walls cut the board in parts"));
        }
        let bots = std::array::from_fn(|seat| LoopsBot {
            position: grid::corner(board, seat),
            pad: pad_cells(board, seat),
            trail: Vec::new(),
            returning: false,
            score: 0,
            blocked: false,
        });
        Ok(Loops {
            board,
            max_turns,
            turn: 0,
            owner,
            wall,
            pad_of,
            bots,
        })
    }

    pub fn board(&self) -> Board {
        self.board
    }

    pub fn owner(&self) -> &[Option<Seat>] {
        &self.owner
    }

    pub fn owner_at(&self, x: usize, y: usize) -> Option<Seat> {
        self.owner[self.board.index(x, y)]
    }

    pub fn is_wall(&self, cell: usize) -> bool {
        self.wall[cell]
    }

    pub fn walls(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.board.len()).filter(|&c| self.wall[c])
    }

    pub fn bot(&self, seat: Seat) -> &LoopsBot {
        &self.bots[seat]
    }

    pub fn max_turns(&self) -> u32 {
        self.max_turns
    }

    /// Cells `seat` owns.
    pub fn area(&self, seat: Seat) -> usize {
        self.owner.iter().filter(|o| **o == Some(seat)).count()
    }

    /// For tests and tools: the owners, to edit directly, bypassing the rules.
    pub fn owner_mut(&mut self) -> &mut [Option<Seat>] {
        &mut self.owner
    }

    /// For tests and tools: a bot, to edit directly, bypassing the rules.
    pub fn bot_mut(&mut self, seat: Seat) -> &mut LoopsBot {
        &mut self.bots[seat]
    }

    fn is_over(&self) -> bool {
        self.turn >= self.max_turns
    }
}

/// The generated board of `seed`: 9×7 or 12×8, and on half the boards
/// walls in the middle, mirrored into all four quarters.
pub fn generate_board(seed: u64) -> (Board, Vec<usize>) {
    let mut rng = crate::rng::stream(seed, "loops/board");
    let (w, h, _) = BOARDS[(rng.next_u32() % 2) as usize];
    let board = Board::new(w, h);
    if rng.next_u32() & 1 == 0 {
        return (board, Vec::new());
    }
    // Candidate cells of the top-left quarter, clear of the pads and the border ring.
    let qw = w.div_ceil(2);
    let qh = h.div_ceil(2);
    let candidates: Vec<(usize, usize)> =
        (2..qh).flat_map(|y| (2..qw).map(move |x| (x, y))).collect();
    loop {
        let count = 1 + (rng.next_u32() % 2) as usize + usize::from(w > 9);
        let mut picked = Vec::new();
        while picked.len() < count.min(candidates.len()) {
            let c = candidates[(rng.next_u32() as usize) % candidates.len()];
            if !picked.contains(&c) {
                picked.push(c);
            }
        }
        let wall = mirror_quadrant(board, |x, y| picked.contains(&(x, y)));
        let walls: Vec<usize> = (0..board.len()).filter(|&c| wall[c]).collect();
        let open = flood(board, &[0], |c| !wall[c]);
        if (0..board.len()).all(|c| wall[c] || open[c]) {
            return (board, walls);
        }
    }
}

impl Game for Loops {
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
        let walls: Vec<[usize; 2]> = self
            .walls()
            .map(|c| {
                let (x, y) = self.board.xy(c);
                [x, y]
            })
            .collect();
        json!({
            "width": self.board.width,
            "height": self.board.height,
            "walls": walls,
            "max_turns": self.max_turns,
        })
    }

    fn observation(&self, seat: Seat, out: &mut String) {
        self.write_observation(seat, out);
    }

    /// One turn in the rule book's order. Stepping a finished game does nothing.
    fn step(&mut self, answers: &[Option<&str>]) -> Vec<Rejection> {
        if self.is_over() {
            return Vec::new();
        }
        let (mut actions, rejections) = self.read_actions(answers);
        self.drive_returning_bots(&mut actions);
        let moved = self.move_bots(&actions);
        self.draw_trails(&moved);
        self.cut_trails();
        self.close_loops();
        self.arrive_home();
        self.score_cells();
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
        h.update(b"ludus/loops/state/v1\0");
        h.update((self.board.width as u64).to_le_bytes());
        h.update((self.board.height as u64).to_le_bytes());
        h.update(self.max_turns.to_le_bytes());
        h.update(self.turn.to_le_bytes());
        for &w in &self.wall {
            h.update([u8::from(w)]);
        }
        grid::hash_owners(&mut h, &self.owner);
        for b in &self.bots {
            h.update((b.position as u64).to_le_bytes());
            h.update((b.trail.len() as u64).to_le_bytes());
            for &c in &b.trail {
                h.update((c as u64).to_le_bytes());
            }
            h.update([u8::from(b.returning), u8::from(b.blocked)]);
            h.update(b.score.to_le_bytes());
        }
        h.finalize().into()
    }

    /// Per seat: points so far.
    fn scores(&self) -> Vec<f64> {
        self.bots.iter().map(|b| b.score as f64).collect()
    }
}
