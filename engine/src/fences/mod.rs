//! Fences: two players, Blue (0) and Red (1), draw straight edges between
//! the points of a grid and score the exact area their own edges enclose.
//! The rules are in `docs/games/fences.md`. The game is a series of moves
//! (Blue 1, then 2 a turn each way, the very last turn 1: 120 moves in 61
//! turns); each call to `step` is one move:
//!
//! 1. read the answers: the player to move answers `MOVE x1 y1 x2 y2`, the
//!    other `WAIT`; a late, missing or illegal move is passed;
//! 2. draw the edge from one of the mover's nodes;
//! 3. break the opponent edge it touched, if any (bare nodes disappear);
//! 4. enclose: each player's regions, from its edges as they now are;
//!
//! then, when the move ends a turn, both players score their enclosed area,
//! and a player to move with no legal move loses. After the last move the
//! higher score wins.
//!
//! Submodules: [`geometry`] (exact points, crossings, faces and areas),
//! `answer` (reading answers), `rules` (the phases), `observation`.

mod answer;
pub mod geometry;
mod observation;
mod rules;

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

pub use answer::{kind, parse_answer, Answer};
pub use geometry::{Area, Face, Fine, Point, Segment, REACH};
pub use rules::{Checked, Illegal, LegalMove};

use crate::game_info::GameInfo;
use crate::sight::Sight;
use crate::{grid, EngineError, Game, Outcome, Rejection, Seat};

/// The registry entry.
pub const INFO: GameInfo = GameInfo {
    id: "fences",
    rules_version: 2,
    seats: &[2],
    max_seed: u64::MAX,
    score_unit: "points",
    progress_unit: None,
    unreadable: &[kind::UNPARSEABLE],
    summary: "Two players draw edges on a grid of points and score the exact area they enclose.",
    new: |config, seed, players| Ok(Box::new(Fences::from_config(config, seed, players)?)),
    answer_bytes: 1 << 10,
    sight: Sight::Full,
};

/// Seats: Blue and Red.
pub const PLAYERS: usize = 2;
pub const BLUE: Seat = 0;
pub const RED: Seat = 1;
/// The rule book's board, in points: 17 × 11 (19 × 13 is the other).
pub const WIDTH: i32 = 17;
pub const HEIGHT: i32 = 11;
/// Moves in a game: 60 each.
pub const MAX_TURNS: u32 = 120;
/// The length of each starting edge, in columns.
pub const START_LENGTH: i32 = 3;

/// A seat's colour, as the observation and the outcome name it.
pub fn color(seat: Seat) -> &'static str {
    if seat == BLUE {
        "blue"
    } else {
        "red"
    }
}

/// An edge on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edge {
    /// Ids count up from 0 (Blue's starting edge), 1 (Red's), and are never reused.
    pub id: u32,
    pub seg: Segment,
    pub owner: Seat,
    /// The move that drew it, from 1; 0 for the starting edges.
    pub turn: u32,
}

/// A game of fences.
#[derive(Debug, Clone)]
pub struct Fences {
    width: i32,
    height: i32,
    max_turns: u32,
    /// Moves played.
    turn: u32,
    /// The edges on the board, by id.
    edges: Vec<Edge>,
    next_id: u32,
    /// Per seat, exact.
    scores: [Area; PLAYERS],
    /// The player who had no legal move on its turn.
    lost: Option<Seat>,
    /// Per seat, from the edges: what [`Fences::enclose`] last found.
    faces: [Vec<Face>; PLAYERS],
    /// Per seat, the ids of the edges `faces` was found from.
    enclosed: [Vec<u32>; PLAYERS],
}

impl Fences {
    /// Sets up a game from its config: `null`, or an object with the
    /// optional fields `width` and `height` (points; default 17 × 11, the
    /// rule book's other board is 19 × 13; width 8 to 40, height odd, 3 to
    /// 39) and `max_turns` (moves in the game, even, 2 to 1000; default
    /// 120). The game has no randomness: the seed changes nothing.
    pub fn from_config(config: &Value, _seed: u64, players: usize) -> Result<Self, EngineError> {
        crate::game_info::check_players(&INFO, players)?;
        let fields = grid::config_fields(INFO.id, config, &["width", "height", "max_turns"])?;
        let get = |k: &str, r| match fields {
            None => Ok(None),
            Some(f) => grid::config_u64(INFO.id, f, k, r),
        };
        let width = get("width", 8..=40)?.map_or(WIDTH, |v| v as i32);
        let height = get("height", 3..=39)?.map_or(HEIGHT, |v| v as i32);
        let max_turns = get("max_turns", 2..=1000)?.map_or(MAX_TURNS, |v| v as u32);
        let refuse = |reason: String| EngineError::Config {
            game: INFO.id,
            reason,
        };
        if height.rem_euclid(2) == 0 {
            return Err(refuse(format!(
                "`height` is {height}; it must be odd, so that the board has a middle row"
            )));
        }
        if !max_turns.is_multiple_of(2) {
            return Err(refuse(format!(
                "`max_turns` is {max_turns}; it must be even, so that both players get as many moves"
            )));
        }
        Ok(Self::new(width, height, max_turns))
    }

    /// The starting position: each player's edge of length 3 on the middle
    /// row, touching its side (Blue left, Red right).
    pub fn new(width: i32, height: i32, max_turns: u32) -> Self {
        let mut g = Self::empty(width, height, max_turns);
        let mid = height / 2;
        g.add_edge(BLUE, (0, mid), (START_LENGTH, mid), 0);
        g.add_edge(RED, (width - 1 - START_LENGTH, mid), (width - 1, mid), 0);
        g.enclose();
        g
    }

    /// For tests and tools: a board with no edges at all.
    #[doc(hidden)]
    pub fn empty(width: i32, height: i32, max_turns: u32) -> Self {
        Fences {
            width,
            height,
            max_turns,
            turn: 0,
            edges: Vec::new(),
            next_id: 0,
            scores: [Area::ZERO; PLAYERS],
            lost: None,
            faces: [Vec::new(), Vec::new()],
            enclosed: [Vec::new(), Vec::new()],
        }
    }

    /// For tests and tools: adds an edge of `owner` drawn by move `turn`
    /// (0: a starting edge), bypassing the rules, and returns its id. Call
    /// [`Fences::enclose`] after editing.
    #[doc(hidden)]
    pub fn add_edge(&mut self, owner: Seat, a: (i32, i32), b: (i32, i32), turn: u32) -> u32 {
        let id = self.next_id;
        self.next_id += 1;
        self.edges.push(Edge {
            id,
            seg: Segment::new(Point::new(a.0, a.1), Point::new(b.0, b.1)),
            owner,
            turn,
        });
        id
    }

    /// For tests and tools: sets the number of moves played.
    #[doc(hidden)]
    pub fn set_turn(&mut self, turn: u32) {
        self.turn = turn;
    }

    /// For tests and tools: sets a player's score.
    #[doc(hidden)]
    pub fn set_score(&mut self, seat: Seat, score: Area) {
        self.scores[seat] = score;
    }

    pub fn width(&self) -> i32 {
        self.width
    }

    pub fn height(&self) -> i32 {
        self.height
    }

    pub fn max_turns(&self) -> u32 {
        self.max_turns
    }

    /// The edges on the board, by id.
    pub fn edges(&self) -> &[Edge] {
        &self.edges
    }

    pub fn edge(&self, id: u32) -> Option<&Edge> {
        self.edges.iter().find(|e| e.id == id)
    }

    /// A player's edges.
    pub fn edges_of(&self, seat: Seat) -> impl Iterator<Item = &Edge> + '_ {
        self.edges.iter().filter(move |e| e.owner == seat)
    }

    /// A player's nodes (the ends of its edges), in `(x, y)` order.
    pub fn nodes(&self, seat: Seat) -> Vec<Point> {
        let mut nodes: Vec<Point> = self
            .edges_of(seat)
            .flat_map(|e| [e.seg.a, e.seg.b])
            .collect();
        nodes.sort_unstable_by_key(|p| (p.x, p.y));
        nodes.dedup();
        nodes
    }

    /// A player's enclosed regions, as last enclosed.
    pub fn regions(&self, seat: Seat) -> &[Face] {
        &self.faces[seat]
    }

    /// A player's enclosed area now.
    pub fn area(&self, seat: Seat) -> Area {
        self.faces[seat].iter().map(|f| f.area).sum()
    }

    /// A player's exact score.
    pub fn score(&self, seat: Seat) -> Area {
        self.scores[seat]
    }

    /// The player who lost by having no legal move on its turn.
    pub fn lost(&self) -> Option<Seat> {
        self.lost
    }

    /// Whether `p` is on the board.
    pub fn on_board(&self, x: i64, y: i64) -> bool {
        (0..i64::from(self.width)).contains(&x) && (0..i64::from(self.height)).contains(&y)
    }

    fn is_over(&self) -> bool {
        self.lost.is_some() || self.turn >= self.max_turns
    }

    /// Turns ("rounds") in the game: 61 for 120 moves.
    pub fn rounds(&self) -> u32 {
        round_of(self.max_turns - 1) + 1
    }
}

/// The turn (counted from 0) that move `m` (counted from 0) belongs to:
/// move 0 is turn 0, then two moves a turn.
pub fn round_of(m: u32) -> u32 {
    m.div_ceil(2)
}

/// Who plays move `m`: Blue in even turns, Red in odd ones.
pub fn mover_of(m: u32) -> Seat {
    (round_of(m) % 2) as Seat
}

impl Game for Fences {
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
        json!({"width": self.width, "height": self.height, "max_turns": self.max_turns})
    }

    fn observation(&self, seat: Seat, out: &mut String) {
        self.write_observation(seat, out);
    }

    /// One move in the rule book's order. Stepping a finished game does nothing.
    fn step(&mut self, answers: &[Option<&str>]) -> Vec<Rejection> {
        if self.is_over() {
            return Vec::new();
        }
        let mover = self.to_move();
        let (checked, rejections) = self.read_answers(answers);
        if let Some(m) = checked {
            self.draw_edge(mover, m.seg);
            if let Some(id) = m.breaks {
                self.break_edge(id);
            }
            self.enclose();
        }
        let ends_turn = self.ends_turn(self.turn);
        self.turn += 1;
        if ends_turn {
            self.score_turn();
        }
        self.check_stuck();
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
        h.update(b"ludus/fences/state/v1\0");
        h.update(self.width.to_le_bytes());
        h.update(self.height.to_le_bytes());
        h.update(self.max_turns.to_le_bytes());
        h.update(self.turn.to_le_bytes());
        h.update(self.next_id.to_le_bytes());
        h.update((self.edges.len() as u64).to_le_bytes());
        for e in &self.edges {
            h.update(e.id.to_le_bytes());
            for v in [e.seg.a.x, e.seg.a.y, e.seg.b.x, e.seg.b.y] {
                h.update(v.to_le_bytes());
            }
            h.update([e.owner as u8]);
            h.update(e.turn.to_le_bytes());
        }
        for s in &self.scores {
            h.update(s.0.to_le_bytes());
        }
        grid::hash_seat(&mut h, self.lost);
        h.finalize().into()
    }

    /// Per seat: the score so far, the nearest double to the exact value.
    fn scores(&self) -> Vec<f64> {
        self.scores.iter().map(|s| s.to_f64()).collect()
    }
}
