//! Fences: what a bot sees ([`Observation`]) and answers ([`Action`]).
//!
//! Two players, Blue (0) and Red (1), on a 17×11 grid of points (or
//! 19×13), each starting with an edge of length 3 on the middle row at its
//! side. Blue opens with 1 move, then turns alternate with 2 moves each, the
//! very last turn 1: 60 moves each. A move draws a straight edge from one of
//! your nodes to any point at most 3 columns and 3 rows away (not ending in
//! the middle of your own edge, not through your own node, not an edge you
//! have; crossing your own edges is fine). A region completely surrounded by
//! your own edges is enclosed (crossings are corners, the border is no
//! wall); at the end of every turn both players add their enclosed area to
//! their score. A new edge that touches an opponent edge breaks it (at most
//! one, never one placed in the opponent's latest turn, never along it).
//! `act` is called for both players at every move: answer [`Action::Wait`]
//! when it is not your turn.
//!
//! ```
//! use ludus_sdk::fences::{Action, Observation};
//!
//! /// The rule book's sample bot: close a region when a move can.
//! fn act(obs: &Observation) -> Action {
//!     if !obs.your_turn {
//!         return Action::Wait;
//!     }
//!     match obs.legal_moves.iter().find(|m| m.closes) {
//!         Some(m) => m.action(),
//!         None => obs.legal_actions[0],
//!     }
//! }
//! ```

use serde::{Deserialize, Serialize, Serializer};

/// A grid point, `[x, y]`, `[0, 0]` top-left.
pub type Point = [i32; 2];

/// What a bot sees before every move.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    /// Moves played so far.
    pub turn: u32,
    /// Moves in the game (120).
    pub turns: u32,
    /// The rules' turn, from 1 (61 of them).
    pub round: u32,
    pub rounds: u32,
    /// Whether you are to move now.
    pub your_turn: bool,
    /// Who is to move (0 Blue, 1 Red).
    pub to_move: usize,
    /// Moves left in this turn, this one included (0 once the game is over).
    pub moves_left: u32,
    pub width: i32,
    pub height: i32,
    /// How far an edge may go: 3 columns and 3 rows.
    pub reach: i32,
    #[serde(rename = "self")]
    pub me: Player,
    pub opponent: Player,
    /// Every edge on the board, by id.
    pub edges: Vec<Edge>,
    /// Every enclosed region, both players'.
    pub regions: Vec<Region>,
    /// Your legal moves (empty when it is not your turn).
    pub legal_moves: Vec<LegalMove>,
    /// The same moves as answers; `[WAIT]` when it is not your turn.
    pub legal_actions: Vec<Action>,
}

impl crate::FromJson for Observation {}

/// A player.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Player {
    pub id: usize,
    /// `blue` or `red`.
    pub color: String,
    /// The score so far, as the nearest double.
    pub score: f64,
    /// The exact score, `p/q` in lowest terms (or `p`).
    pub score_exact: String,
    /// The area enclosed now.
    pub area: f64,
    pub area_exact: String,
    /// The ends of its edges.
    pub nodes: Vec<Point>,
}

/// An edge.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Edge {
    pub id: u32,
    pub a: Point,
    pub b: Point,
    pub owner: usize,
    /// The move that drew it, from 1 (0 for the starting edges).
    pub turn: u32,
    /// Placed in the latest turn of the player not to move: it can't be touched now.
    pub protected: bool,
}

/// An enclosed region: a face of its owner's drawing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Region {
    pub owner: usize,
    /// Its own area (regions inside it are regions of their own).
    pub area: f64,
    pub area_exact: String,
    /// Its outer boundary; crossings of edges are corners, so points may
    /// be fractional.
    pub outline: Vec<[f64; 2]>,
    /// The ids of the edges that border it.
    pub edges: Vec<u32>,
}

/// A legal move, `[x1, y1, x2, y2, breaks, closes]` in the JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    from = "(i32, i32, i32, i32, i64, bool)",
    into = "(i32, i32, i32, i32, i64, bool)"
)]
pub struct LegalMove {
    pub from: Point,
    pub to: Point,
    /// The opponent edge it breaks, if any.
    pub breaks: Option<u32>,
    /// Whether it encloses area you did not have enclosed.
    pub closes: bool,
}

impl From<(i32, i32, i32, i32, i64, bool)> for LegalMove {
    fn from((x1, y1, x2, y2, breaks, closes): (i32, i32, i32, i32, i64, bool)) -> Self {
        LegalMove {
            from: [x1, y1],
            to: [x2, y2],
            breaks: u32::try_from(breaks).ok(),
            closes,
        }
    }
}

impl From<LegalMove> for (i32, i32, i32, i32, i64, bool) {
    fn from(m: LegalMove) -> Self {
        let breaks = m.breaks.map_or(-1, i64::from);
        (m.from[0], m.from[1], m.to[0], m.to[1], breaks, m.closes)
    }
}

impl LegalMove {
    /// The answer that plays this move.
    pub fn action(&self) -> Action {
        Action::Move {
            from: self.from,
            to: self.to,
        }
    }
}

/// An answer: `WAIT`, or `MOVE x1 y1 x2 y2`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Action {
    /// Not your turn. On your turn, it passes the move.
    #[default]
    Wait,
    /// Draw an edge from your node `from` to `to`.
    Move { from: Point, to: Point },
}

impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Action::Wait => f.write_str("WAIT"),
            Action::Move { from, to } => {
                write!(f, "MOVE {} {} {} {}", from[0], from[1], to[0], to[1])
            }
        }
    }
}

impl Serialize for Action {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Action {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        let words: Vec<&str> = text.split_ascii_whitespace().collect();
        let n = |w: &str| w.parse::<i32>().map_err(serde::de::Error::custom);
        match words.as_slice() {
            ["WAIT"] => Ok(Action::Wait),
            ["MOVE", x1, y1, x2, y2] => Ok(Action::Move {
                from: [n(x1)?, n(y1)?],
                to: [n(x2)?, n(y2)?],
            }),
            _ => Err(serde::de::Error::custom(format!(
                "{text:?} is neither WAIT nor MOVE x1 y1 x2 y2"
            ))),
        }
    }
}

impl Observation {
    /// Your id (0 Blue, 1 Red).
    pub fn my_id(&self) -> usize {
        self.me.id
    }

    /// Your edges.
    pub fn my_edges(&self) -> impl Iterator<Item = &Edge> {
        self.edges.iter().filter(|e| e.owner == self.me.id)
    }

    /// The opponent's edges.
    pub fn opponent_edges(&self) -> impl Iterator<Item = &Edge> {
        self.edges.iter().filter(|e| e.owner != self.me.id)
    }

    /// The opponent's regions bordered by edge `id`: what breaking it frees.
    pub fn regions_bordered_by(&self, id: u32) -> impl Iterator<Item = &Region> {
        self.regions.iter().filter(move |r| r.edges.contains(&id))
    }
}
