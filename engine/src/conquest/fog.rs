//! Fog of war (rule 13): a team sees its own land, the cell its robot
//! stands on, and every cell next to either; of everything else it knows
//! what it last saw. Observations are made only of what a team sees now
//! and what it remembers, so nothing it cannot see can change them.

use sha2::{Digest, Sha256};

use super::{Building, Conquest};
use crate::grid::PLAYERS;
use crate::Seat;

/// What a team saw of a cell, and when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sighting {
    /// The turn it was seen.
    pub turn: u32,
    pub owner: Option<Seat>,
    pub building: Option<Building>,
    /// Soldiers parked on it.
    pub garrison: u64,
    /// The team whose capital it was.
    pub capital_of: Option<Seat>,
    /// It had been a capital once.
    pub former_capital: bool,
}

impl Conquest {
    /// The cells `seat` sees now: its land, the cell its robot stands on,
    /// and every cell next to either. Nothing once it is out.
    pub fn visible(&self, seat: Seat) -> Vec<bool> {
        let mut seen = vec![false; self.board.len()];
        let team = &self.teams[seat];
        if !team.alive() {
            return seen;
        }
        let mut see_around = |c: usize| {
            seen[c] = true;
            for n in self.board.neighbours(c) {
                seen[n] = true;
            }
        };
        for c in 0..self.board.len() {
            if self.owner[c] == Some(seat) {
                see_around(c);
            }
        }
        see_around(team.position);
        seen
    }

    /// The cell as it is now.
    fn sight(&self, cell: usize) -> Sighting {
        Sighting {
            turn: self.turn,
            owner: self.owner[cell],
            building: self.building[cell],
            garrison: self.garrison[cell],
            capital_of: self.capital_of(cell),
            former_capital: self.former_capital[cell],
        }
    }

    /// What `seat` knows of `cell`: the cell as it is if `visible` (its
    /// view now), else what it last saw, `None` if never.
    pub fn sighting(&self, seat: Seat, cell: usize, visible: &[bool]) -> Option<Sighting> {
        if visible[cell] {
            Some(self.sight(cell))
        } else {
            self.memory[seat][cell]
        }
    }

    /// Every team still in remembers what it sees now. A capital seen where
    /// a team's capital was not remembered means it moved: the cell
    /// remembered as that team's capital is remembered as a former one.
    pub(crate) fn refresh_memory(&mut self) {
        for seat in 0..PLAYERS {
            if !self.teams[seat].alive() {
                continue;
            }
            let visible = self.visible(seat);
            let mut capitals_seen = [None; PLAYERS];
            for (cell, &seen) in visible.iter().enumerate() {
                if seen {
                    let s = self.sight(cell);
                    if let Some(t) = s.capital_of {
                        capitals_seen[t] = Some(cell);
                    }
                    self.memory[seat][cell] = Some(s);
                }
            }
            for (cell, m) in self.memory[seat].iter_mut().enumerate() {
                let Some(m) = m else { continue };
                if let Some(t) = m.capital_of {
                    if capitals_seen[t].is_some_and(|c| c != cell) {
                        m.capital_of = None;
                        m.former_capital = true;
                    }
                }
            }
        }
    }
}

pub(crate) fn hash_sighting(h: &mut Sha256, m: &Option<Sighting>) {
    let Some(m) = m else {
        h.update([0xff]);
        return;
    };
    h.update(m.turn.to_le_bytes());
    crate::grid::hash_seat(h, m.owner);
    match m.building {
        None => h.update([0xff]),
        Some(b) => h.update([b.kind as u8, u8::from(b.ready)]),
    }
    h.update(m.garrison.to_le_bytes());
    crate::grid::hash_seat(h, m.capital_of);
    h.update([u8::from(m.former_capital)]);
}
