//! Shields: what a bot sees ([`Observation`]) and answers ([`Action`]).
//!
//! Four bots on an 8×8 board of cells worth 1 to 3. Stay 1 turn on a cell
//! that isn't yours to take it (3 for an upgraded rival cell, with a raid
//! bonus of 8 × value × level); stay 3 turns on your own to upgrade it
//! (counts double). SHIELD freezes every rival staying on your cells that
//! turn for 2 turns (and you, if it catches nobody); then 4 turns of
//! cooldown. Every turn you score your cells' values. 80 turns.
//!
//! ```
//! use ludus_sdk::shields::{Action, Observation};
//!
//! /// The rule book's sample bot.
//! fn act(obs: &Observation) -> Action {
//!     if obs.me.need > 0 {
//!         return Action::Stay; // finish taking or upgrading this cell
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
    pub width: usize,
    pub height: usize,
    /// `owner[y][x]`: -1 neutral, else the owner's id.
    pub owner: Vec<Vec<i32>>,
    /// `value[y][x]`: 1 to 3.
    pub value: Vec<Vec<u8>>,
    /// `level[y][x]`: 1, or 2 once upgraded.
    pub level: Vec<Vec<u8>>,
    #[serde(rename = "self")]
    pub me: Bot,
    pub bots: Vec<Bot>,
    /// Who wins a tie for an unowned cell this turn.
    pub priority_seat: usize,
    pub legal_actions: Vec<Action>,
}

impl crate::FromJson for Observation {}

/// A bot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bot {
    pub id: usize,
    pub position: Pos,
    /// Its corner: always its own.
    pub home: Pos,
    /// Turns of staying still needed to take or upgrade the cell it is on (0: nothing to do).
    pub need: u32,
    /// Turns stayed so far towards that.
    pub progress: u32,
    /// Turns before it may SHIELD again.
    pub shield_cooldown: u32,
    /// Turns it is still frozen.
    pub frozen: u32,
    /// It shielded last turn.
    pub shielded: bool,
    pub score: u64,
}

impl Observation {
    pub fn owner(&self, p: Pos) -> Option<usize> {
        owner_at(&self.owner, p)
    }

    pub fn is_mine(&self, p: Pos) -> bool {
        self.owner(p) == Some(self.me.id)
    }

    pub fn value(&self, p: Pos) -> u8 {
        self.value[p[1]][p[0]]
    }

    pub fn level(&self, p: Pos) -> u8 {
        self.level[p[1]][p[0]]
    }

    pub fn is_legal(&self, a: Action) -> bool {
        self.legal_actions.contains(&a)
    }

    pub fn neighbours(&self, p: Pos) -> impl Iterator<Item = Pos> {
        neighbours(p, self.width, self.height)
    }

    /// Whether a bot stands on `p`.
    pub fn occupied(&self, p: Pos) -> bool {
        self.bots.iter().any(|b| b.position == p)
    }

    /// Turns of staying on `p` that bot `id` needs in all to take or
    /// upgrade it (0: nothing to gain), as the rules count them.
    pub fn requirement(&self, id: usize, p: Pos) -> u32 {
        match self.owner(p) {
            None => 1,
            Some(o) if o == id && self.level(p) >= 2 => 0,
            Some(o) if o == id => 3,
            Some(o) if self.bots.get(o).is_some_and(|b| b.home == p) => 0,
            Some(_) if self.level(p) >= 2 => 3,
            Some(_) => 1,
        }
    }
}
