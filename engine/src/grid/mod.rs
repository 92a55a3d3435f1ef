//! What the four-bot grid games (`claim`, `loops`, `shields`) share: board
//! geometry, the action strings, reading answers (late, missing or illegal is
//! `STAY`), simultaneous moves with closed cells and the priority token,
//! seat-symmetric board helpers, and pieces of the JSON state.
//!
//! Seats sit round the board clockwise from the top-left corner: seat 0 at
//! `[0, 0]`, seat 1 top-right, seat 2 bottom-right, seat 3 bottom-left.
//! Coordinates are `[x, y]` with `[0, 0]` top-left; `y` grows southwards.

mod moves;
pub mod observe;
mod symmetry;

pub use moves::{resolve_moves, Contest, MoveResult};
pub use observe::{
    write_cell, write_cells, write_grid, write_legal, write_opt_cell, write_owner_grid,
};
pub use symmetry::{corner, from_frame_dir, mirror, mirror_quadrant, to_frame};

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::{EngineError, Rejection, Seat};

/// Every grid game has four seats.
pub const PLAYERS: usize = 4;

/// The kinds of [`Rejection`] the grid games record. A refused answer is
/// played as `STAY`.
pub mod kind {
    /// The answer is not one of the game's action strings.
    pub const UNPARSEABLE: &str = "unparseable";
    /// The answer is an action string that is not in this turn's `legal_actions`.
    pub const ILLEGAL: &str = "illegal";
}

/// A board of `width` × `height` cells, numbered row by row: cell `i` is
/// `[i % width, i / width]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Board {
    pub width: usize,
    pub height: usize,
}

/// A compass direction. `North` is towards `y = 0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dir {
    North,
    East,
    South,
    West,
}

impl Dir {
    /// The four directions in the rule book's order.
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];

    /// The step in `(dx, dy)`.
    pub fn delta(self) -> (i64, i64) {
        match self {
            Dir::North => (0, -1),
            Dir::East => (1, 0),
            Dir::South => (0, 1),
            Dir::West => (-1, 0),
        }
    }
}

impl Board {
    pub fn new(width: usize, height: usize) -> Self {
        Board { width, height }
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.width * self.height
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The cell at `[x, y]`; the caller keeps it on the board.
    pub fn index(&self, x: usize, y: usize) -> usize {
        y * self.width + x
    }

    /// `[x, y]` of cell `i`.
    pub fn xy(&self, i: usize) -> (usize, usize) {
        (i % self.width, i / self.width)
    }

    /// The cell one step from `i` towards `dir`, if it is on the board.
    pub fn step(&self, i: usize, dir: Dir) -> Option<usize> {
        let (x, y) = self.xy(i);
        let (dx, dy) = dir.delta();
        let nx = x as i64 + dx;
        let ny = y as i64 + dy;
        if nx < 0 || ny < 0 || nx >= self.width as i64 || ny >= self.height as i64 {
            None
        } else {
            Some(self.index(nx as usize, ny as usize))
        }
    }

    /// The on-board neighbours of `i`, in the order north, east, south, west.
    pub fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        Dir::ALL.into_iter().filter_map(move |d| self.step(i, d))
    }

    /// Whether `i` is on the board's border.
    pub fn on_border(&self, i: usize) -> bool {
        let (x, y) = self.xy(i);
        x == 0 || y == 0 || x + 1 == self.width || y + 1 == self.height
    }
}

/// An action a bot may answer. Each game allows a subset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    Move(Dir),
    Stay,
    /// `claim`: back to the cell the capture started from.
    Retreat,
    /// `shields`: shield your cells this turn.
    Shield,
}

impl Action {
    /// The action's string, as bots send it and `legal_actions` lists it.
    pub fn name(self) -> &'static str {
        match self {
            Action::Move(Dir::North) => "NORTH",
            Action::Move(Dir::East) => "EAST",
            Action::Move(Dir::South) => "SOUTH",
            Action::Move(Dir::West) => "WEST",
            Action::Stay => "STAY",
            Action::Retreat => "RETREAT",
            Action::Shield => "SHIELD",
        }
    }

    /// Order of `legal_actions`: the rule book's (moves, `STAY`, then the rest).
    fn order(self) -> u8 {
        match self {
            Action::Move(Dir::North) => 0,
            Action::Move(Dir::East) => 1,
            Action::Move(Dir::South) => 2,
            Action::Move(Dir::West) => 3,
            Action::Stay => 4,
            Action::Retreat => 5,
            Action::Shield => 6,
        }
    }
}

/// Sorts actions into the order `legal_actions` lists them.
pub fn sort_actions(actions: &mut [Action]) {
    actions.sort_by_key(|a| a.order());
}

/// The longest piece of a bad answer quoted back in a rejection, in bytes.
const MAX_QUOTE: usize = 40;

/// Every action word of the grid games, in the order `legal_actions` lists
/// them; each game answers with a part of it.
pub const ALL_ACTIONS: [Action; 7] = [
    Action::Move(Dir::North),
    Action::Move(Dir::East),
    Action::Move(Dir::South),
    Action::Move(Dir::West),
    Action::Stay,
    Action::Retreat,
    Action::Shield,
];

/// Parses a raw answer: one action string (`NORTH`, `EAST`, `SOUTH`, `WEST`,
/// `STAY`, `RETREAT`, `SHIELD`, or `N`, `E`, `S`, `W`) in any case, bare or
/// as a JSON string (`"EAST"`, as the SDK sends it), surrounding whitespace
/// ignored.
pub fn parse_action(raw: &str) -> Result<Action, String> {
    parse_word(raw, &ALL_ACTIONS)
}

/// Parses a raw answer as [`parse_action`] does, taking only the action
/// words of `words` (a game's own): any other answer, another grid game's
/// word included, is refused with the words the game takes.
pub fn parse_word(raw: &str, words: &[Action]) -> Result<Action, String> {
    let expected = || {
        let names: Vec<&str> = words.iter().map(|a| a.name()).collect();
        format!(
            "answer one of {} (N, E, S, W for the moves), bare or as a JSON string",
            names.join(", ")
        )
    };
    let word = answer_word(raw).map_err(|e| format!("{e}; {}", expected()))?;
    let action = match word.to_ascii_uppercase().as_str() {
        "NORTH" | "N" => Some(Action::Move(Dir::North)),
        "EAST" | "E" => Some(Action::Move(Dir::East)),
        "SOUTH" | "S" => Some(Action::Move(Dir::South)),
        "WEST" | "W" => Some(Action::Move(Dir::West)),
        "STAY" => Some(Action::Stay),
        "RETREAT" => Some(Action::Retreat),
        "SHIELD" => Some(Action::Shield),
        _ => None,
    };
    match action {
        Some(a) if words.contains(&a) => Ok(a),
        _ => Err(format!(
            "{}; {}",
            not_a(raw, &word, "an action"),
            expected()
        )),
    }
}

/// The word of a raw answer given bare or as a JSON string (`"EAST"`, as
/// the SDK sends it), surrounding whitespace trimmed; an answer that opens
/// a JSON string and is not one is refused with the reason.
pub(crate) fn answer_word(raw: &str) -> Result<std::borrow::Cow<'_, str>, String> {
    let trimmed = raw.trim();
    if !trimmed.starts_with('"') {
        return Ok(trimmed.into());
    }
    match serde_json::from_str::<Value>(trimmed) {
        Ok(Value::String(s)) => Ok(s.trim().to_string().into()),
        _ => Err(format!("{} is not a valid JSON string", quote(trimmed))),
    }
}

/// What JSON a raw text answer is when it is JSON but not a string, for a
/// refusal that says what came: `a JSON array` for `[1, 2]`. `None` for a
/// JSON string and for text that is not JSON (a word, say).
pub(crate) fn json_kind(raw: &str) -> Option<&'static str> {
    let trimmed = raw.trim();
    let kind = match trimmed.as_bytes().first()? {
        b'n' => "JSON null",
        b't' | b'f' => "a JSON boolean",
        b'[' => "a JSON array",
        b'{' => "a JSON object",
        b'-' | b'0'..=b'9' => "a JSON number",
        _ => return None,
    };
    serde_json::from_str::<serde::de::IgnoredAny>(trimmed)
        .ok()
        .map(|_| kind)
}

/// `"WALK" is not an action`, or, for an answer that is JSON other than a
/// string, `"[1]" is a JSON array, not an action`: what came, quoted
/// (`text`: the answer's word or text), and what it is not.
pub(crate) fn not_a(raw: &str, text: &str, what: &str) -> String {
    match json_kind(raw) {
        Some(kind) => format!("{} is {kind}, not {what}", quote(text)),
        None => format!("{} is not {what}", quote(text)),
    }
}

/// `s` in quotes, shortened to [`MAX_QUOTE`] bytes.
pub(crate) fn quote(s: &str) -> String {
    if s.len() <= MAX_QUOTE {
        return format!("{s:?}");
    }
    let mut end = MAX_QUOTE;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{:?}...", &s[..end])
}

/// Reads every seat's answer into an action, one of the game's `words`. A
/// seat that is not `active` (out of the game, or driven by the rules this
/// turn) plays `STAY` and its answer is ignored. No answer is `STAY`; an
/// answer that is none of `words`, or an action not in `legal(seat)`, is
/// `STAY` plus a rejection.
pub fn read_answers(
    answers: &[Option<&str>],
    words: &[Action],
    active: impl Fn(Seat) -> bool,
    legal: impl Fn(Seat) -> Vec<Action>,
) -> ([Action; PLAYERS], Vec<Rejection>) {
    let mut actions = [Action::Stay; PLAYERS];
    let mut rejections = Vec::new();
    for (seat, action) in actions.iter_mut().enumerate() {
        if !active(seat) {
            continue;
        }
        let Some(raw) = answers.get(seat).copied().flatten() else {
            continue;
        };
        match parse_word(raw, words) {
            Err(reason) => rejections.push(Rejection {
                seat,
                kind: kind::UNPARSEABLE.into(),
                reason: format!("{reason}; played as STAY"),
            }),
            Ok(a) => {
                let legal = legal(seat);
                if legal.contains(&a) {
                    *action = a;
                } else {
                    let names: Vec<&str> = legal.iter().map(|a| a.name()).collect();
                    rejections.push(Rejection {
                        seat,
                        kind: kind::ILLEGAL.into(),
                        reason: format!(
                            "{} is not legal now (legal_actions: {}); played as STAY",
                            a.name(),
                            names.join(", ")
                        ),
                    });
                }
            }
        }
    }
    (actions, rejections)
}

/// Who holds the priority token in turn `turn` (counted from 0): seat 0
/// first, then one seat further every turn.
pub fn priority_seat(turn: u32) -> Seat {
    turn as usize % PLAYERS
}

/// Seats in priority order for a turn: the token holder first, then round
/// the table.
pub fn priority_order(priority: Seat) -> [Seat; PLAYERS] {
    std::array::from_fn(|k| (priority + k) % PLAYERS)
}

/// Placements from per-seat keys, higher is better; equal keys share a place.
/// The end at the turn limit of a game scored in points: most points wins,
/// equal points share a place, and a tie for first is a draw.
pub fn points_outcome(points: &[u64], max_turns: u32) -> crate::Outcome {
    let placements = placements_by(points);
    let first: Vec<String> = (0..points.len())
        .filter(|&s| placements[s] == 1)
        .map(|s| s.to_string())
        .collect();
    let reason = if first.len() == 1 {
        format!(
            "turn limit ({max_turns}) reached: seat {} has the most points",
            first[0]
        )
    } else {
        format!(
            "turn limit ({max_turns}) reached: a draw between seats {} on points",
            first.join(", ")
        )
    };
    crate::Outcome {
        scores: points.iter().map(|&s| s as f64).collect(),
        placements,
        reason,
    }
}

pub fn placements_by<K: PartialOrd>(keys: &[K]) -> Vec<u32> {
    keys.iter()
        .map(|k| 1 + keys.iter().filter(|o| *o > k).count() as u32)
        .collect()
}

/// Reads an optional whole number from a config object.
pub(crate) fn config_u64(
    game: &'static str,
    fields: &serde_json::Map<String, Value>,
    key: &str,
    range: std::ops::RangeInclusive<u64>,
) -> Result<Option<u64>, EngineError> {
    match fields.get(key) {
        None => Ok(None),
        Some(v) => v
            .as_u64()
            .filter(|n| range.contains(n))
            .map(Some)
            .ok_or_else(|| EngineError::Config {
                game,
                reason: format!(
                    "`{key}` is {v}; it must be a whole number from {} to {}",
                    range.start(),
                    range.end()
                ),
            }),
    }
}

/// Refuses config fields other than `allowed`.
pub(crate) fn config_fields<'a>(
    game: &'static str,
    config: &'a Value,
    allowed: &[&str],
) -> Result<Option<&'a serde_json::Map<String, Value>>, EngineError> {
    match config {
        Value::Null => Ok(None),
        Value::Object(fields) => {
            if let Some(k) = fields.keys().find(|k| !allowed.contains(&k.as_str())) {
                return Err(EngineError::Config {
                    game,
                    reason: format!(
                        "unknown field {}; the config takes only {}",
                        quote(k),
                        allowed
                            .iter()
                            .map(|a| format!("`{a}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                });
            }
            Ok(Some(fields))
        }
        _ => Err(EngineError::Config {
            game,
            reason: "the config must be null or an object".into(),
        }),
    }
}

/// Reads a list of `[x, y]` cells on `board` from a config value.
pub(crate) fn config_cells(
    game: &'static str,
    board: Board,
    key: &str,
    v: &Value,
) -> Result<Vec<usize>, EngineError> {
    let err = |what: String| EngineError::Config {
        game,
        reason: format!("`{key}` {what}; it must be a list of [x, y] cells on the board"),
    };
    let list = v.as_array().ok_or_else(|| err("is not a list".into()))?;
    let mut cells = Vec::with_capacity(list.len());
    for item in list {
        let xy = item
            .as_array()
            .filter(|a| a.len() == 2)
            .and_then(|a| Some((a[0].as_u64()?, a[1].as_u64()?)))
            .ok_or_else(|| err(format!("has {item}")))?;
        if xy.0 >= board.width as u64 || xy.1 >= board.height as u64 {
            return Err(err(format!("has [{}, {}], off the board", xy.0, xy.1)));
        }
        cells.push(board.index(xy.0 as usize, xy.1 as usize));
    }
    cells.sort_unstable();
    cells.dedup();
    Ok(cells)
}

/// Feeds an optional seat into a state hash.
pub(crate) fn hash_seat(h: &mut Sha256, seat: Option<Seat>) {
    match seat {
        None => h.update([0xff]),
        Some(s) => h.update([s as u8]),
    }
}

/// Feeds an optional cell or count into a state hash.
pub(crate) fn hash_opt(h: &mut Sha256, v: Option<usize>) {
    h.update(v.map_or(u64::MAX, |v| v as u64).to_le_bytes());
}

/// Feeds a board's owners into a state hash.
pub(crate) fn hash_owners(h: &mut Sha256, owner: &[Option<Seat>]) {
    h.update((owner.len() as u64).to_le_bytes());
    for o in owner {
        hash_seat(h, *o);
    }
}

/// Cells each seat owns.
pub fn counts(owner: &[Option<Seat>]) -> [usize; PLAYERS] {
    let mut n = [0; PLAYERS];
    for s in owner.iter().flatten() {
        n[*s] += 1;
    }
    n
}

/// Cells connected to `start` through cells where `open` holds (4-neighbour
/// steps), `start` included if it is open.
pub fn flood(board: Board, start: &[usize], open: impl Fn(usize) -> bool) -> Vec<bool> {
    let mut seen = vec![false; board.len()];
    let mut queue: Vec<usize> = Vec::new();
    for &s in start {
        if open(s) && !seen[s] {
            seen[s] = true;
            queue.push(s);
        }
    }
    while let Some(c) = queue.pop() {
        for n in board.neighbours(c) {
            if !seen[n] && open(n) {
                seen[n] = true;
                queue.push(n);
            }
        }
    }
    seen
}

/// Breadth-first distances from `start` through cells where `open` holds;
/// `u32::MAX` where unreachable.
pub fn distances(board: Board, start: &[usize], open: impl Fn(usize) -> bool) -> Vec<u32> {
    let mut dist = vec![u32::MAX; board.len()];
    let mut queue = std::collections::VecDeque::new();
    for &s in start {
        if dist[s] == u32::MAX {
            dist[s] = 0;
            queue.push_back(s);
        }
    }
    while let Some(c) = queue.pop_front() {
        for n in board.neighbours(c) {
            if dist[n] == u32::MAX && open(n) {
                dist[n] = dist[c] + 1;
                queue.push_back(n);
            }
        }
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_parse_bare_quoted_abbreviated_and_in_any_case() {
        assert_eq!(parse_action("EAST"), Ok(Action::Move(Dir::East)));
        assert_eq!(parse_action(" \"WEST\"\n"), Ok(Action::Move(Dir::West)));
        assert_eq!(parse_action("N"), Ok(Action::Move(Dir::North)));
        assert_eq!(parse_action("SHIELD"), Ok(Action::Shield));
        assert_eq!(parse_action("east"), Ok(Action::Move(Dir::East)));
        assert_eq!(parse_action("\"Retreat\""), Ok(Action::Retreat));
        assert_eq!(parse_action("s"), Ok(Action::Move(Dir::South)));
        for bad in ["", "eastward", "\"EAST", "{\"a\":1}", "EAST EAST", "\u{0}"] {
            assert!(parse_action(bad).is_err(), "{bad:?}");
        }
        let long = "x".repeat(10_000);
        assert!(parse_action(&long).unwrap_err().len() < 200);
    }

    #[test]
    fn the_token_moves_one_seat_per_turn() {
        assert_eq!(
            (0..6).map(priority_seat).collect::<Vec<_>>(),
            vec![0, 1, 2, 3, 0, 1]
        );
        assert_eq!(priority_order(2), [2, 3, 0, 1]);
    }

    #[test]
    fn steps_stay_on_the_board() {
        let b = Board::new(3, 2);
        assert_eq!(b.step(0, Dir::North), None);
        assert_eq!(b.step(0, Dir::West), None);
        assert_eq!(b.step(0, Dir::East), Some(1));
        assert_eq!(b.step(2, Dir::East), None);
        assert_eq!(b.step(2, Dir::South), Some(5));
        assert_eq!(b.neighbours(4).collect::<Vec<_>>(), vec![1, 5, 3]);
    }
}
