//! The board (rules 1 and 2): its size, the mirrored walls, the quarters,
//! and where capitals start; the config that sets them, and the setup a
//! replay stores.

use rand_core::RngCore;
use serde_json::{json, Value};

use super::{INFO, MAX_TURNS, QUIET_TURNS, SIDE};
use crate::grid::{self, corner, flood, mirror, Board, PLAYERS};
use crate::{EngineError, Seat};

/// Where capitals start (rule 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CapitalMode {
    /// One random spot mirrored into all four quarters (the default).
    Mirrored,
    /// The four corners.
    Corners,
    /// Each team picks a cell of its quarter on a setup turn 0; no pick, or
    /// a bad one, keeps the corner.
    Choose,
}

impl CapitalMode {
    pub fn name(self) -> &'static str {
        match self {
            CapitalMode::Mirrored => "mirrored",
            CapitalMode::Corners => "corners",
            CapitalMode::Choose => "choose",
        }
    }

    fn from_name(name: &str) -> Option<Self> {
        [
            CapitalMode::Mirrored,
            CapitalMode::Corners,
            CapitalMode::Choose,
        ]
        .into_iter()
        .find(|m| m.name() == name)
    }
}

/// Everything that, with the seed, determines a game: what a replay stores
/// as its setup, and what a config may give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    pub width: usize,
    pub height: usize,
    /// Wall cells, ascending.
    pub walls: Vec<usize>,
    pub capitals: CapitalMode,
    /// The capitals' spot in seat 0's quarter, mirrored into the others
    /// (used by [`CapitalMode::Mirrored`]).
    pub spot: usize,
    /// Play turns (the setup turn not counted).
    pub max_turns: u32,
    /// Turns in a row with nothing happening that end the game.
    pub quiet_turns: u32,
}

/// The quarter `cell` lies in, as the seat whose quarter it is: 0 top-left,
/// 1 top-right, 2 bottom-right, 3 bottom-left.
pub fn quarter_of(board: Board, cell: usize) -> Seat {
    let (x, y) = board.xy(cell);
    let east = x >= board.width / 2;
    let south = y >= board.height / 2;
    match (east, south) {
        (false, false) => 0,
        (true, false) => 1,
        (true, true) => 2,
        (false, true) => 3,
    }
}

fn config_error(reason: impl Into<String>) -> EngineError {
    EngineError::Config {
        game: INFO.id,
        reason: reason.into(),
    }
}

/// The config's fields.
const FIELDS: [&str; 7] = [
    "width",
    "height",
    "walls",
    "capitals",
    "capital",
    "max_turns",
    "quiet_turns",
];

impl Setup {
    pub fn board(&self) -> Board {
        Board::new(self.width, self.height)
    }

    /// Reads a config: `null`, or an object with the optional fields
    /// `width` and `height` (even, 8 to 32, together; default 12), `walls`
    /// (a list of `[x, y]`; default: drawn from the seed), `capitals`
    /// (`"mirrored"`, `"corners"` or `"choose"`), `capital` (the mirrored
    /// spot, `[x, y]` in the top-left quarter; default: drawn from the
    /// seed), `max_turns` (default 300) and `quiet_turns` (default 30).
    pub fn from_config(config: &Value, seed: u64) -> Result<Self, EngineError> {
        let fields = grid::config_fields(INFO.id, config, &FIELDS)?;
        let get = |k: &str, r| match fields {
            None => Ok(None),
            Some(f) => grid::config_u64(INFO.id, f, k, r),
        };
        let field = |k: &str| fields.and_then(|f| f.get(k));
        let (width, height) =
            match (get("width", 8..=32)?, get("height", 8..=32)?) {
                (Some(w), Some(h)) if w % 2 == 0 && h % 2 == 0 => (w as usize, h as usize),
                (None, None) => (SIDE, SIDE),
                (Some(_), Some(_)) => return Err(config_error(
                    "`width` and `height` must be even, so that the board has four equal quarters",
                )),
                _ => return Err(config_error("give both `width` and `height`, or neither")),
            };
        let board = Board::new(width, height);
        let capitals = match field("capitals") {
            None => CapitalMode::Mirrored,
            Some(v) => v.as_str().and_then(CapitalMode::from_name).ok_or_else(|| {
                config_error(format!(
                    "`capitals` is {v}; it must be \"mirrored\", \"corners\" or \"choose\""
                ))
            })?,
        };
        let spot = match field("capital") {
            None => None,
            Some(v) => {
                let cells = grid::config_cells(INFO.id, board, "capital", &json!([v]))?;
                let spot = cells[0];
                if !spot_cells(board).contains(&spot) {
                    let (x, y) = board.xy(spot);
                    return Err(config_error(format!(
                        "`capital` [{x}, {y}] must be in the top-left quarter, at least one cell \
                         in from the edge and the centre lines"
                    )));
                }
                Some(spot)
            }
        };
        let walls = match field("walls") {
            None => None,
            Some(v) => Some(grid::config_cells(INFO.id, board, "walls", v)?),
        };
        let max_turns = get("max_turns", 1..=100_000)?.map_or(MAX_TURNS, |v| v as u32);
        let quiet_turns = get("quiet_turns", 1..=100_000)?.map_or(QUIET_TURNS, |v| v as u32);
        let (spot, walls) = generate(board, seed, spot, walls);
        let setup = Setup {
            width,
            height,
            walls,
            capitals,
            spot,
            max_turns,
            quiet_turns,
        };
        setup.check().map_err(config_error)?;
        Ok(setup)
    }

    /// The setup as a config that rebuilds it.
    pub fn to_json(&self) -> Value {
        let board = self.board();
        let cell = |c: usize| {
            let (x, y) = board.xy(c);
            json!([x, y])
        };
        json!({
            "width": self.width,
            "height": self.height,
            "walls": self.walls.iter().map(|&c| cell(c)).collect::<Vec<_>>(),
            "capitals": self.capitals.name(),
            "capital": cell(self.spot),
            "max_turns": self.max_turns,
            "quiet_turns": self.quiet_turns,
        })
    }

    /// Seat `seat`'s capital before any pick: the mirrored spot, or its corner.
    pub fn start_capital(&self, seat: Seat) -> usize {
        let board = self.board();
        match self.capitals {
            CapitalMode::Mirrored => mirror(board, seat, self.spot),
            CapitalMode::Corners | CapitalMode::Choose => corner(board, seat),
        }
    }

    /// The cells seat `seat` may pick on the setup turn: its quarter, at
    /// least one cell in from the edge and the centre lines, no walls; in
    /// its own mirrored frame's order, row by row.
    pub fn capital_choices(&self, seat: Seat) -> Vec<usize> {
        let board = self.board();
        let mut cells: Vec<usize> = spot_cells(board)
            .into_iter()
            .map(|c| mirror(board, seat, c))
            .filter(|c| self.walls.binary_search(c).is_err())
            .collect();
        cells.sort_unstable();
        cells
    }

    /// Refuses a setup whose walls sit on a capital's start or a corner, or
    /// cut the board in parts.
    fn check(&self) -> Result<(), String> {
        let board = self.board();
        let mut wall = vec![false; board.len()];
        for &w in &self.walls {
            wall[w] = true;
        }
        for seat in 0..PLAYERS {
            for c in [self.start_capital(seat), corner(board, seat)] {
                if wall[c] {
                    let (x, y) = board.xy(c);
                    return Err(format!(
                        "`walls` has [{x}, {y}], where a capital may start; keep the corners and \
                         the capitals free"
                    ));
                }
            }
        }
        if !all_joined(board, &wall) {
            return Err("`walls` cut the board in parts; every free cell must be reachable".into());
        }
        Ok(())
    }
}

/// The cells of seat 0's quarter at least one cell in from the edge and the
/// centre lines, row by row.
fn spot_cells(board: Board) -> Vec<usize> {
    let (qw, qh) = (board.width / 2, board.height / 2);
    let mut cells = Vec::new();
    for y in 1..qh - 1 {
        for x in 1..qw - 1 {
            cells.push(board.index(x, y));
        }
    }
    cells
}

/// Whether every cell that is not a wall is reachable from every other.
fn all_joined(board: Board, wall: &[bool]) -> bool {
    let Some(start) = (0..board.len()).find(|&c| !wall[c]) else {
        return false;
    };
    let reached = flood(board, &[start], |c| !wall[c]);
    (0..board.len()).all(|c| wall[c] || reached[c])
}

/// The capitals' spot and the walls of a board: the given ones, else drawn
/// from the seed. The spot is one of the quarter's cells in from the edges;
/// walls are drawn in seat 0's quarter and mirrored into the others: from a
/// twelfth to a sixth of the quarter's cells, never on or next to the
/// corner or the spot, never cutting the board in parts. The same seed
/// draws the same board whatever the capital mode.
pub(crate) fn generate(
    board: Board,
    seed: u64,
    spot: Option<usize>,
    walls: Option<Vec<usize>>,
) -> (usize, Vec<usize>) {
    let mut rng = crate::rng::stream(seed, "conquest/board");
    let choices = spot_cells(board);
    let drawn = choices[(rng.next_u32() % choices.len() as u32) as usize];
    let spot = spot.unwrap_or(drawn);
    if let Some(walls) = walls {
        return (spot, walls);
    }
    let (qw, qh) = (board.width / 2, board.height / 2);
    let area = (qw * qh) as u32;
    let (lo, hi) = (area / 12, area / 6);
    let count = lo + rng.next_u32() % (hi - lo + 1);
    let keep_free = |c: usize| {
        let near = |a: usize| a == c || board.neighbours(a).any(|n| n == c);
        near(0) || near(spot)
    };
    let mut candidates: Vec<usize> = (0..board.len())
        .filter(|&c| {
            let (x, y) = board.xy(c);
            x < qw && y < qh && !keep_free(c)
        })
        .collect();
    let mut wall = vec![false; board.len()];
    let mut placed = 0;
    while placed < count && !candidates.is_empty() {
        let c = candidates.swap_remove((rng.next_u32() % candidates.len() as u32) as usize);
        let images: Vec<usize> = (0..PLAYERS).map(|s| mirror(board, s, c)).collect();
        for &i in &images {
            wall[i] = true;
        }
        if all_joined(board, &wall) {
            placed += 1;
        } else {
            for &i in &images {
                wall[i] = false;
            }
        }
    }
    let walls = (0..board.len()).filter(|&c| wall[c]).collect();
    (spot, walls)
}
