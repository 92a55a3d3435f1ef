//! Claim: what a bot sees ([`Observation`]) and answers ([`Action`]).
//!
//! Four bots start on the corners (their homes). Moving through your own
//! cells is free; stepping into any other cell starts a capture: stay one
//! more turn and it's yours (an enemy home takes two). While capturing only
//! STAY or RETREAT. Stay connected to home through your own cells: land cut
//! off turns neutral, and a bot cut off, or without its home, is out. 35
//! cells at most: a 36th releases one of your outer cells. Last bot
//! standing wins; after 300 turns, the most cells.
//!
//! ```
//! use ludus_sdk::claim::{Action, Observation};
//!
//! /// The rule book's sample bot.
//! fn act(obs: &Observation) -> Action {
//!     if obs.me.capture_target.is_some() {
//!         return Action::Stay; // finish the capture
//!     }
//!     if obs.is_legal(Action::East) { Action::East } else { Action::Stay }
//! }
//! ```

use serde::{Deserialize, Serialize};

pub use crate::grid::{distance, neighbours, owner_at, Action, Pos};

/// What a bot sees at the start of a turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    /// Turns played so far.
    pub turn: u32,
    pub turns_remaining: u32,
    pub width: usize,
    pub height: usize,
    /// Cells a bot may hold (35).
    pub cell_cap: usize,
    /// `owner[y][x]`: -1 neutral, else the owner's id.
    pub owner: Vec<Vec<i32>>,
    /// You.
    #[serde(rename = "self")]
    pub me: Bot,
    /// Every bot, by id (you included), with `alive`.
    pub bots: Vec<Bot>,
    /// Who wins a tie for a cell this turn (after the cell's owner).
    pub priority_seat: usize,
    /// What you may answer now.
    pub legal_actions: Vec<Action>,
}

impl crate::FromJson for Observation {}

/// A bot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bot {
    pub id: usize,
    pub position: Pos,
    pub home: Pos,
    /// The cell being captured (where the bot stands), if capturing.
    pub capture_target: Option<Pos>,
    /// Turns of staying still needed to finish the capture.
    pub dwell_remaining: u32,
    pub owned_count: usize,
    /// Still in the game (only in `bots`, not in `self`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alive: Option<bool>,
}

impl Bot {
    /// In the game (`self` always is while it gets turns).
    pub fn is_alive(&self) -> bool {
        self.alive.unwrap_or(true)
    }
}

impl Observation {
    /// The owner of `p`, `None` for neutral.
    pub fn owner(&self, p: Pos) -> Option<usize> {
        owner_at(&self.owner, p)
    }

    /// Whether `p` is yours.
    pub fn is_mine(&self, p: Pos) -> bool {
        self.owner(p) == Some(self.me.id)
    }

    pub fn is_legal(&self, a: Action) -> bool {
        self.legal_actions.contains(&a)
    }

    /// The on-board neighbours of `p`.
    pub fn neighbours(&self, p: Pos) -> impl Iterator<Item = Pos> {
        neighbours(p, self.width, self.height)
    }

    /// Whether a living bot stands on `p`.
    pub fn occupied(&self, p: Pos) -> bool {
        self.bots.iter().any(|b| b.is_alive() && b.position == p)
    }
}
