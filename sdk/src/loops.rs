//! Loops: what a bot sees ([`Observation`]) and answers ([`Action`]).
//!
//! Four bots start on protected 2×2 pads in the corners. Leave your land
//! and you draw a trail; walking back over it shortens it. Get back onto
//! your land and the loop closes: your trail and everything it encloses
//! become yours (rival land included, pads never; the board's border is not
//! a wall). Step on a rival's open trail and you cut it: the server drives
//! that rival home. Every turn you score a point per cell you own.
//!
//! ```
//! use ludus_sdk::loops::{Action, Observation};
//!
//! /// The rule book's sample bot.
//! fn act(obs: &Observation) -> Action {
//!     if obs.me.returning {
//!         return Action::Stay; // cut: the server drives you home
//!     }
//!     if obs.is_legal(Action::East) { Action::East } else { Action::Stay }
//! }
//! ```

use serde::{Deserialize, Serialize};

pub use crate::grid::{distance, neighbours, owner_at, Action, Pos};

/// What a bot sees at the start of a turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    pub turn: u32,
    pub turns_remaining: u32,
    /// Turns in the game (72 on 9×7, 100 on 12×8).
    pub turns: u32,
    pub width: usize,
    pub height: usize,
    /// `owner[y][x]`: -1 neutral, else the owner's id.
    pub owner: Vec<Vec<i32>>,
    /// Blocked cells.
    pub walls: Vec<Pos>,
    /// Each bot's 2×2 start, by id; nobody may enter a rival's.
    pub pads: Vec<Vec<Pos>>,
    #[serde(rename = "self")]
    pub me: Bot,
    pub bots: Vec<Bot>,
    /// Who wins a tie for a cell this turn.
    pub priority_seat: usize,
    pub legal_actions: Vec<Action>,
}

impl crate::FromJson for Observation {}

/// A bot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bot {
    pub id: usize,
    pub position: Pos,
    /// Its open trail, oldest first.
    pub trail: Vec<Pos>,
    /// Cut: the server is driving it home.
    pub returning: bool,
    /// Cells owned.
    pub area: usize,
    /// Points so far.
    pub score: u64,
    /// Its last move was blocked.
    pub blocked: bool,
}

impl Observation {
    pub fn owner(&self, p: Pos) -> Option<usize> {
        owner_at(&self.owner, p)
    }

    pub fn is_mine(&self, p: Pos) -> bool {
        self.owner(p) == Some(self.me.id)
    }

    pub fn is_wall(&self, p: Pos) -> bool {
        self.walls.contains(&p)
    }

    /// The id of the bot whose pad `p` is on, if any.
    pub fn pad_of(&self, p: Pos) -> Option<usize> {
        self.pads.iter().position(|pad| pad.contains(&p))
    }

    pub fn is_legal(&self, a: Action) -> bool {
        self.legal_actions.contains(&a)
    }

    pub fn neighbours(&self, p: Pos) -> impl Iterator<Item = Pos> {
        neighbours(p, self.width, self.height)
    }
}
