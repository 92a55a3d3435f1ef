//! The turn, rule by rule, in the rule book's order:
//!
//! 1. [read the answers](Loops::read_actions) (rule 2)
//! 2. [drive the cut bots home](Loops::drive_returning_bots) (rule 5)
//! 3. [move the bots](Loops::move_bots) (rule 7)
//! 4. [draw trails](Loops::draw_trails) (rule 3)
//! 5. [cut trails](Loops::cut_trails) (rules 5 and 6: cuts first)
//! 6. [close loops](Loops::close_loops) (rules 4 and 6)
//! 7. [arrive home](Loops::arrive_home) (rule 5)
//! 8. [score cells](Loops::score_cells) (rule 8)
//!
//! and [the outcome](Loops::final_outcome) (rule 8).
//!
//! Every phase is public but hidden from the docs, so that a test can run
//! it alone on a hand-made position.

use super::Loops;
use crate::grid::{
    self, distances, flood, from_frame_dir, priority_seat, resolve_moves, sort_actions, Action,
    Contest, Dir, MoveResult, PLAYERS,
};
use crate::{Outcome, Rejection, Seat};

/// Loops' action words (the page's "What a bot answers").
const WORDS: [Action; 5] = [
    Action::Move(Dir::North),
    Action::Move(Dir::East),
    Action::Move(Dir::South),
    Action::Move(Dir::West),
    Action::Stay,
];

impl Loops {
    /// Whether `seat` may step into `cell` at all: not a wall, not a rival's pad.
    fn enterable(&self, seat: Seat, cell: usize) -> bool {
        !self.wall[cell] && self.pad_of[cell].is_none_or(|p| p == seat)
    }

    fn occupied(&self, cell: usize) -> bool {
        self.bots.iter().any(|b| b.position == cell)
    }

    /// What `seat` may do now: STAY, or a step to a cell on the board that is
    /// not a wall, not a rival's pad and has no bot on it. A bot being
    /// driven home may only STAY (its answer is not used).
    pub fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        let bot = &self.bots[seat];
        let mut legal = vec![Action::Stay];
        if bot.returning {
            return legal;
        }
        for d in Dir::ALL {
            if let Some(c) = self.board.step(bot.position, d) {
                if self.enterable(seat, c) && !self.occupied(c) {
                    legal.push(Action::Move(d));
                }
            }
        }
        sort_actions(&mut legal);
        legal
    }

    /// Rule 2: every seat's answer; late, missing or illegal is STAY. The
    /// answers of bots being driven home are not read.
    #[doc(hidden)]
    pub fn read_actions(&self, answers: &[Option<&str>]) -> ([Action; PLAYERS], Vec<Rejection>) {
        grid::read_answers(
            answers,
            &WORDS,
            |s| !self.bots[s].returning,
            |s| self.legal_actions(s),
        )
    }

    /// Rule 5: the server drives every cut bot one step along a shortest
    /// path home to its pad (around walls and rivals' pads). Of several
    /// shortest steps it takes the first free one, in the order north, east,
    /// south, west of the bot's own mirrored frame.
    #[doc(hidden)]
    pub fn drive_returning_bots(&self, actions: &mut [Action; PLAYERS]) {
        for (seat, action) in actions.iter_mut().enumerate() {
            let bot = &self.bots[seat];
            if !bot.returning {
                continue;
            }
            let dist = distances(self.board, &bot.pad, |c| self.enterable(seat, c));
            let here = dist[bot.position];
            if here == 0 || here == u32::MAX {
                *action = Action::Stay;
                continue;
            }
            let closer: Vec<Dir> = Dir::ALL
                .into_iter()
                .map(|d| from_frame_dir(seat, d))
                .filter(|&d| {
                    self.board
                        .step(bot.position, d)
                        .is_some_and(|c| dist[c].checked_add(1) == Some(here))
                })
                .collect();
            let free = closer.iter().copied().find(|&d| {
                let c = self.board.step(bot.position, d).expect("on the board");
                !self.occupied(c)
            });
            *action = free
                .or(closer.first().copied())
                .map_or(Action::Stay, Action::Move);
        }
    }

    /// Rule 7: all bots move at once. A bot that stays keeps its cell (a cell
    /// with a bot on it is closed), bots can't swap, and two bots stepping
    /// into one empty cell: the token holder gets it.
    #[doc(hidden)]
    pub fn move_bots(&mut self, actions: &[Action; PLAYERS]) -> [MoveResult; PLAYERS] {
        let targets: [Option<usize>; PLAYERS] = std::array::from_fn(|s| match actions[s] {
            Action::Move(d) => self
                .board
                .step(self.bots[s].position, d)
                .filter(|&c| self.enterable(s, c)),
            _ => None,
        });
        let positions = std::array::from_fn(|s| Some(self.bots[s].position));
        let result = resolve_moves(
            &positions,
            &targets,
            &self.owner,
            Contest::Token,
            priority_seat(self.turn),
        );
        for seat in 0..PLAYERS {
            let bot = &mut self.bots[seat];
            bot.blocked = result[seat] == MoveResult::Blocked;
            if result[seat] == MoveResult::Moved {
                bot.position = targets[seat].expect("a bot that moved had a target");
            }
        }
        result
    }

    /// Rule 3: a bot that stepped off its land draws a trail behind it;
    /// stepping back onto its own trail shortens it to that cell. Bots being
    /// driven home draw nothing.
    #[doc(hidden)]
    pub fn draw_trails(&mut self, moved: &[MoveResult; PLAYERS]) {
        for (seat, &result) in moved.iter().enumerate() {
            let at = self.bots[seat].position;
            let on_land = self.owner[at] == Some(seat);
            let bot = &mut self.bots[seat];
            if result != MoveResult::Moved || bot.returning || on_land {
                continue;
            }
            match bot.trail.iter().position(|&c| c == at) {
                Some(i) => bot.trail.truncate(i + 1),
                None => bot.trail.push(at),
            }
        }
    }

    /// Rules 5 and 6: a bot (not being driven home) standing on a rival's
    /// open trail cuts it: the trail disappears and the rival is driven
    /// home. All cuts of a turn happen at once, before loops close.
    #[doc(hidden)]
    pub fn cut_trails(&mut self) {
        let mut cut = [false; PLAYERS];
        for cutter in 0..PLAYERS {
            let at = self.bots[cutter].position;
            if self.bots[cutter].returning {
                continue;
            }
            for (rival, c) in cut.iter_mut().enumerate() {
                let r = &self.bots[rival];
                if rival != cutter && r.position != at && r.trail.contains(&at) {
                    *c = true;
                }
            }
        }
        for (bot, _) in self.bots.iter_mut().zip(cut).filter(|(_, c)| *c) {
            bot.trail.clear();
            bot.returning = true;
        }
    }

    /// Rules 4 and 6: a bot with a trail that is back on its own land closes
    /// its loop: the trail and every cell it encloses with the bot's land
    /// (cells that cannot reach the board's edge without crossing them)
    /// become its own, rival land included, walls and pads never. A cell two
    /// loops claim in the same turn keeps its owner.
    #[doc(hidden)]
    pub fn close_loops(&mut self) {
        let mut claims = vec![0u8; self.board.len()];
        let mut claimer: Vec<Option<Seat>> = vec![None; self.board.len()];
        let mut closed = [false; PLAYERS];
        for (seat, closes) in closed.iter_mut().enumerate() {
            let bot = &self.bots[seat];
            if bot.returning || bot.trail.is_empty() || self.owner[bot.position] != Some(seat) {
                continue;
            }
            *closes = true;
            for c in self.loop_cells(seat) {
                claims[c] += 1;
                claimer[c] = Some(seat);
            }
        }
        for c in 0..self.board.len() {
            if claims[c] == 1 {
                self.owner[c] = claimer[c];
            }
        }
        for (bot, _) in self.bots.iter_mut().zip(closed).filter(|(_, c)| *c) {
            bot.trail.clear();
        }
    }

    /// The cells `seat`'s loop claims now: its trail and what it encloses
    /// with the bot's land, less walls and pads.
    pub fn loop_cells(&self, seat: Seat) -> Vec<usize> {
        let bot = &self.bots[seat];
        let mut barrier: Vec<bool> = self.owner.iter().map(|o| *o == Some(seat)).collect();
        for &c in &bot.trail {
            barrier[c] = true;
        }
        let edge: Vec<usize> = (0..self.board.len())
            .filter(|&c| self.board.on_border(c))
            .collect();
        let outside = flood(self.board, &edge, |c| !barrier[c]);
        (0..self.board.len())
            .filter(|&c| {
                let enclosed = !barrier[c] && !outside[c];
                (enclosed || bot.trail.contains(&c)) && !self.wall[c] && self.pad_of[c].is_none()
            })
            .collect()
    }

    /// Rule 5: a bot driven home is back, and plays again, once it stands on its pad.
    #[doc(hidden)]
    pub fn arrive_home(&mut self) {
        for bot in self.bots.iter_mut() {
            if bot.returning && bot.pad.contains(&bot.position) {
                bot.returning = false;
            }
        }
    }

    /// Rule 8: every bot scores one point per cell it owns.
    #[doc(hidden)]
    pub fn score_cells(&mut self) {
        let areas = grid::counts(&self.owner);
        for (bot, area) in self.bots.iter_mut().zip(areas) {
            bot.score += area as u64;
        }
    }

    /// Rule 8: most points wins; equal points share a place (a tie for first
    /// is a draw). The score is the points.
    pub(crate) fn final_outcome(&self) -> Outcome {
        let scores: Vec<u64> = self.bots.iter().map(|b| b.score).collect();
        grid::points_outcome(&scores, self.max_turns)
    }
}
