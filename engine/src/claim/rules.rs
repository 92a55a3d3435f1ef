//! The turn, rule by rule, in the rule book's order:
//!
//! 1. [read the answers](Claim::read_actions) (rules 2 and 4)
//! 2. [move the bots](Claim::move_bots) (rules 3 and 7)
//! 3. [complete captures](Claim::complete_captures) (rule 3)
//! 4. [cut off land and bots](Claim::cut_off_land_and_bots) (rule 5)
//! 5. [release cells over the cap](Claim::release_over_cap) (rule 6)
//!
//! and [the outcome](Claim::final_outcome) (rule 8).
//!
//! Every phase is public but hidden from the docs, so that a test can run
//! it alone on a hand-made position.

use super::{Claim, CELL_CAP};
use crate::grid::{
    self, flood, mirror, priority_seat, resolve_moves, sort_actions, Action, Contest, Dir,
    MoveResult, PLAYERS,
};
use crate::{Outcome, Rejection, Seat};

/// Claim's action words (the page's "What a bot answers").
const WORDS: [Action; 6] = [
    Action::Move(Dir::North),
    Action::Move(Dir::East),
    Action::Move(Dir::South),
    Action::Move(Dir::West),
    Action::Stay,
    Action::Retreat,
];

impl Claim {
    /// What `seat` may do now: while capturing only STAY or RETREAT (when the
    /// cell it came from is free); otherwise STAY or a step to any cell on
    /// the board without a bot on it. Nothing once it is out.
    pub fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        let bot = &self.bots[seat];
        if !bot.alive() {
            return Vec::new();
        }
        let mut legal = vec![Action::Stay];
        if bot.capture_target.is_some() {
            if let Some(back) = bot.came_from {
                if !self.occupied(back) {
                    legal.push(Action::Retreat);
                }
            }
            return legal;
        }
        for d in Dir::ALL {
            if let Some(c) = self.board.step(bot.position, d) {
                if !self.occupied(c) {
                    legal.push(Action::Move(d));
                }
            }
        }
        sort_actions(&mut legal);
        legal
    }

    /// Whether a bot in the game stands on `cell` (it is closed this turn).
    fn occupied(&self, cell: usize) -> bool {
        self.bots.iter().any(|b| b.alive() && b.position == cell)
    }

    /// The bots' positions, `None` for those that are out.
    fn positions(&self) -> [Option<usize>; PLAYERS] {
        std::array::from_fn(|s| self.bots[s].alive().then_some(self.bots[s].position))
    }

    /// Rules 2 and 4: every seat's answer; late, missing or illegal is STAY.
    #[doc(hidden)]
    pub fn read_actions(&self, answers: &[Option<&str>]) -> ([Action; PLAYERS], Vec<Rejection>) {
        grid::read_answers(
            answers,
            &WORDS,
            |s| self.bots[s].alive(),
            |s| self.legal_actions(s),
        )
    }

    /// Rules 3 and 7: all bots move at once. A cell with a bot on it is
    /// closed; two bots stepping into one empty cell: the owner wins it,
    /// otherwise the priority token. Stepping into your own cell is free;
    /// into any other cell starts a capture (an enemy's home needs two turns
    /// of staying, any other cell one). Returns what became of each move.
    #[doc(hidden)]
    pub fn move_bots(&mut self, actions: &[Action; PLAYERS]) -> [MoveResult; PLAYERS] {
        let targets: [Option<usize>; PLAYERS] = std::array::from_fn(|s| {
            let bot = &self.bots[s];
            match actions[s] {
                Action::Move(d) => self.board.step(bot.position, d),
                Action::Retreat => bot.came_from,
                _ => None,
            }
        });
        let result = resolve_moves(
            &self.positions(),
            &targets,
            &self.owner,
            Contest::OwnerThenToken,
            priority_seat(self.turn),
        );
        for seat in 0..PLAYERS {
            if result[seat] != MoveResult::Moved {
                continue;
            }
            let to = targets[seat].expect("a bot that moved had a target");
            let from = self.bots[seat].position;
            let dwell = self.capture_dwell(seat, to);
            let bot = &mut self.bots[seat];
            bot.position = to;
            if dwell == 0 {
                bot.capture_target = None;
                bot.came_from = None;
            } else {
                bot.capture_target = Some(to);
                bot.came_from = Some(from);
            }
            bot.dwell_remaining = dwell;
        }
        result
    }

    /// Turns of staying `seat` needs to capture `cell`: 0 for its own cell,
    /// 2 for the home of a rival still in the game, 1 otherwise.
    fn capture_dwell(&self, seat: Seat, cell: usize) -> u32 {
        match self.owner[cell] {
            Some(o) if o == seat => 0,
            Some(o) if self.bots[o].home == cell && self.bots[o].alive() => 2,
            _ => 1,
        }
    }

    /// Rule 3: a capturing bot that did not move this turn (it stayed, or
    /// its RETREAT was blocked) counts one turn; at zero the cell is its own.
    #[doc(hidden)]
    pub fn complete_captures(&mut self, moved: &[MoveResult; PLAYERS]) {
        for (seat, &result) in moved.iter().enumerate() {
            let bot = &mut self.bots[seat];
            let Some(cell) = bot.capture_target else {
                continue;
            };
            if !bot.alive() || result == MoveResult::Moved {
                continue;
            }
            bot.dwell_remaining = bot.dwell_remaining.saturating_sub(1);
            if bot.dwell_remaining == 0 {
                bot.capture_target = None;
                bot.came_from = None;
                self.owner[cell] = Some(seat);
            }
        }
    }

    /// Cells of `seat` joined to its home through its own cells (empty if it
    /// no longer owns its home).
    fn connected_land(&self, seat: Seat) -> Vec<bool> {
        let home = self.bots[seat].home;
        flood(self.board, &[home], |c| self.owner[c] == Some(seat))
    }

    /// Rule 5: land cut off from its owner's home turns neutral. A bot that
    /// lost its home, or is cut off (neither its cell nor a cell next to it
    /// is land joined to its home), is out: all its land turns neutral.
    /// Decided for every bot at once.
    #[doc(hidden)]
    pub fn cut_off_land_and_bots(&mut self) {
        let joined: Vec<Vec<bool>> = (0..PLAYERS).map(|s| self.connected_land(s)).collect();
        let mut out = [false; PLAYERS];
        for seat in 0..PLAYERS {
            let bot = &self.bots[seat];
            if !bot.alive() {
                continue;
            }
            let near = std::iter::once(bot.position).chain(self.board.neighbours(bot.position));
            let touches = near.into_iter().any(|c| joined[seat][c]);
            out[seat] = self.owner[bot.home] != Some(seat) || !touches;
        }
        for (cell, owner) in self.owner.iter_mut().enumerate() {
            if let Some(o) = *owner {
                if out[o] || !joined[o][cell] {
                    *owner = None;
                }
            }
        }
        for seat in (0..PLAYERS).filter(|&s| out[s]) {
            let bot = &mut self.bots[seat];
            // Turns are counted from 1 here: this is turn `self.turn + 1`.
            bot.out_on = Some(self.turn + 1);
            bot.capture_target = None;
            bot.came_from = None;
            bot.dwell_remaining = 0;
        }
    }

    /// Rule 6: a bot holding more than 35 cells releases one of its outer
    /// cells (it turns neutral) per cell over. The cell released is, of its
    /// cells other than its home and the one it stands on whose loss cuts
    /// nothing else off, the one farthest from home through its own land;
    /// a tie goes to the first in the bot's own mirrored frame, row by row.
    /// If no such cell exists (its land is a single line from home to the
    /// bot), the cell it stands on is released.
    #[doc(hidden)]
    pub fn release_over_cap(&mut self) {
        for seat in (0..PLAYERS).filter(|&s| self.bots[s].alive()) {
            // One release per cell over the cap, counted once beforehand.
            for _ in CELL_CAP..self.owned_count(seat) {
                let cell = self.outer_cell(seat).unwrap_or(self.bots[seat].position);
                self.owner[cell] = None;
            }
        }
    }

    /// The cell [`Claim::release_over_cap`] releases for `seat`, if any
    /// qualifies.
    pub fn outer_cell(&self, seat: Seat) -> Option<usize> {
        let bot = &self.bots[seat];
        let mine = |c: usize| self.owner[c] == Some(seat);
        let dist = grid::distances(self.board, &[bot.home], mine);
        let land: Vec<usize> = (0..self.board.len()).filter(|&c| mine(c)).collect();
        let mut best: Option<(u32, usize, usize)> = None;
        for &c in &land {
            if c == bot.home || c == bot.position {
                continue;
            }
            // Its loss must cut nothing else off.
            let joined = flood(self.board, &[bot.home], |k| k != c && mine(k));
            if land.iter().any(|&k| k != c && !joined[k]) {
                continue;
            }
            let frame = mirror(self.board, seat, c);
            let better = match best {
                None => true,
                Some((d, f, _)) => dist[c] > d || (dist[c] == d && frame < f),
            };
            if better {
                best = Some((dist[c], frame, c));
            }
        }
        best.map(|(_, _, c)| c)
    }

    /// Rule 8: the last bot standing wins; after the turn limit, the bots
    /// still in are placed by cells held (equal counts share a place, a tie
    /// for first is a draw), above every bot that is out; bots that are out
    /// are placed by the turn they went out, later is better. The score is
    /// the cells held at the end (0 once out).
    pub(crate) fn final_outcome(&self) -> Outcome {
        let keys: Vec<(u8, u64)> = (0..PLAYERS)
            .map(|s| match self.bots[s].out_on {
                None => (1, self.owned_count(s) as u64),
                Some(t) => (0, u64::from(t)),
            })
            .collect();
        let placements = grid::placements_by(&keys);
        let scores = (0..PLAYERS).map(|s| self.owned_count(s) as f64).collect();
        let alive: Vec<Seat> = (0..PLAYERS).filter(|&s| self.bots[s].alive()).collect();
        let first: Vec<String> = (0..PLAYERS)
            .filter(|&s| placements[s] == 1)
            .map(|s| s.to_string())
            .collect();
        let reason = match alive.as_slice() {
            [w] if self.turn < self.max_turns || first.len() == 1 && placements[*w] == 1 => {
                format!("seat {w} is the last bot standing")
            }
            [] => format!(
                "every bot is out after turn {}: a draw between seats {}",
                self.turn,
                first.join(", ")
            ),
            _ if first.len() == 1 => format!(
                "turn limit ({}) reached: seat {} holds the most cells",
                self.max_turns, first[0]
            ),
            _ => format!(
                "turn limit ({}) reached: a draw between seats {} on cells",
                self.max_turns,
                first.join(", ")
            ),
        };
        Outcome {
            scores,
            placements,
            reason,
        }
    }
}
