//! The turn, rule by rule, in the rule book's order:
//!
//! 1. [read the answers](Shields::read_actions) (rules 2 and 5: frozen bots STAY)
//! 2. [move the bots](Shields::move_bots) (rule 2)
//! 3. [raise shields](Shields::raise_shields) (rule 5: before any take, since
//!    a shielder's cells cannot be taken that turn)
//! 4. [take and upgrade](Shields::take_and_upgrade) (rules 3 and 4)
//! 5. [score cells](Shields::score_cells) (rule 6)
//! 6. [count down](Shields::count_down) freezes and shield cooldowns (rule 5)
//!
//! and [the outcome](Shields::final_outcome) (rule 7).
//!
//! Every phase is public but hidden from the docs, so that a test can run
//! it alone on a hand-made position.

use super::{Shields, FREEZE_TURNS, LONG_STAY, RAID_FACTOR, SHIELD_COOLDOWN};
use crate::grid::{
    self, priority_seat, resolve_moves, sort_actions, Action, Contest, Dir, MoveResult, PLAYERS,
};
use crate::{Outcome, Rejection, Seat};

/// Shields' action words (the page's "What a bot answers").
const WORDS: [Action; 6] = [
    Action::Move(Dir::North),
    Action::Move(Dir::East),
    Action::Move(Dir::South),
    Action::Move(Dir::West),
    Action::Stay,
    Action::Shield,
];

impl Shields {
    fn occupied(&self, cell: usize) -> bool {
        self.bots.iter().any(|b| b.position == cell)
    }

    /// What `seat` may do now: STAY, a step to a cell on the board without
    /// a bot on it, and SHIELD when its cooldown is over. A frozen bot may
    /// only STAY.
    pub fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        let bot = &self.bots[seat];
        let mut legal = vec![Action::Stay];
        if bot.frozen > 0 {
            return legal;
        }
        for d in Dir::ALL {
            if let Some(c) = self.board.step(bot.position, d) {
                if !self.occupied(c) {
                    legal.push(Action::Move(d));
                }
            }
        }
        if bot.shield_cooldown == 0 {
            legal.push(Action::Shield);
        }
        sort_actions(&mut legal);
        legal
    }

    /// Turns of staying `seat` needs in all on `cell` to take or upgrade it:
    /// 1 for a neutral or level-1 rival cell, 3 for an upgraded rival cell,
    /// 3 to upgrade its own level-1 cell, 0 when there is nothing to do (its
    /// own upgraded cell, or a rival's home, which can never be taken).
    pub fn requirement(&self, seat: Seat, cell: usize) -> u32 {
        match self.owner[cell] {
            None => 1,
            Some(o) if o == seat && self.level[cell] >= 2 => 0,
            Some(o) if o == seat => LONG_STAY,
            Some(o) if self.bots[o].home == cell => 0,
            Some(_) if self.level[cell] >= 2 => LONG_STAY,
            Some(_) => 1,
        }
    }

    /// Turns of staying `seat` still needs to finish taking or upgrading the
    /// cell it stands on (0: nothing to finish).
    pub fn need(&self, seat: Seat) -> u32 {
        let bot = &self.bots[seat];
        self.requirement(seat, bot.position)
            .saturating_sub(bot.progress)
    }

    /// Rules 2 and 5: every seat's answer; late, missing or illegal is
    /// STAY. A frozen bot's answer is not read: it STAYs.
    #[doc(hidden)]
    pub fn read_actions(&self, answers: &[Option<&str>]) -> ([Action; PLAYERS], Vec<Rejection>) {
        grid::read_answers(
            answers,
            &WORDS,
            |s| self.bots[s].frozen == 0,
            |s| self.legal_actions(s),
        )
    }

    /// Rule 2: all bots move at once. A cell with a bot on it is closed; two
    /// bots stepping into one empty cell: the owner gets it, otherwise the
    /// priority token. Leaving a cell resets progress. Returns which bots
    /// count as staying: those that chose STAY or were blocked, unless
    /// frozen (a frozen turn is not a stay) or shielding.
    #[doc(hidden)]
    pub fn move_bots(&mut self, actions: &[Action; PLAYERS]) -> [bool; PLAYERS] {
        let targets: [Option<usize>; PLAYERS] = std::array::from_fn(|s| match actions[s] {
            Action::Move(d) => self.board.step(self.bots[s].position, d),
            _ => None,
        });
        let positions = std::array::from_fn(|s| Some(self.bots[s].position));
        let result = resolve_moves(
            &positions,
            &targets,
            &self.owner,
            Contest::OwnerThenToken,
            priority_seat(self.turn),
        );
        std::array::from_fn(|seat| {
            let bot = &mut self.bots[seat];
            match result[seat] {
                MoveResult::Moved => {
                    bot.position = targets[seat].expect("a bot that moved had a target");
                    bot.progress = 0;
                    false
                }
                MoveResult::Blocked => true,
                MoveResult::Stayed => bot.frozen == 0 && actions[seat] == Action::Stay,
            }
        })
    }

    /// Rule 5: a shielding bot catches every rival that stays this turn on
    /// one of its cells (its home included) and is not frozen already: the
    /// rival loses its progress, its stay does not count, and it is frozen
    /// for the next 2 turns. A shield that catches nobody freezes the
    /// shielder for the next 2 turns. Returns who is newly frozen.
    #[doc(hidden)]
    pub fn raise_shields(
        &mut self,
        actions: &[Action; PLAYERS],
        stayed: &mut [bool; PLAYERS],
    ) -> [bool; PLAYERS] {
        let mut freeze = [false; PLAYERS];
        let mut caught = [false; PLAYERS];
        for shielder in (0..PLAYERS).filter(|&s| actions[s] == Action::Shield) {
            let mut any = false;
            for rival in (0..PLAYERS).filter(|&r| r != shielder) {
                let r = &self.bots[rival];
                if stayed[rival] && r.frozen == 0 && self.owner[r.position] == Some(shielder) {
                    caught[rival] = true;
                    any = true;
                }
            }
            if !any {
                freeze[shielder] = true;
            }
        }
        for rival in (0..PLAYERS).filter(|&r| caught[r]) {
            self.bots[rival].progress = 0;
            stayed[rival] = false;
            freeze[rival] = true;
        }
        freeze
    }

    /// Rules 3 and 4: every bot that stayed counts a turn on its cell. At
    /// the cell's requirement, a cell that isn't its own becomes its own at
    /// level 1 (a rival's cell paying the raid bonus 8 × value × level),
    /// and its own level-1 cell is upgraded; progress starts again from 0.
    #[doc(hidden)]
    pub fn take_and_upgrade(&mut self, stayed: &[bool; PLAYERS]) {
        for seat in (0..PLAYERS).filter(|&s| stayed[s]) {
            let cell = self.bots[seat].position;
            let need = self.requirement(seat, cell);
            if need == 0 {
                continue;
            }
            self.bots[seat].progress += 1;
            if self.bots[seat].progress < need {
                continue;
            }
            self.bots[seat].progress = 0;
            match self.owner[cell] {
                Some(o) if o == seat => self.level[cell] = 2,
                previous => {
                    if previous.is_some() {
                        let bonus =
                            RAID_FACTOR * u64::from(self.value[cell]) * u64::from(self.level[cell]);
                        self.bots[seat].score += bonus;
                    }
                    self.owner[cell] = Some(seat);
                    self.level[cell] = 1;
                }
            }
        }
    }

    /// Rule 6: every bot scores the value of each cell it owns, doubled if
    /// upgraded.
    #[doc(hidden)]
    pub fn score_cells(&mut self) {
        for cell in 0..self.board.len() {
            if let Some(o) = self.owner[cell] {
                self.bots[o].score += u64::from(self.value[cell]) * u64::from(self.level[cell]);
            }
        }
    }

    /// Rule 5's clocks: freezes and cooldowns count down a turn; a bot that
    /// shielded can't SHIELD for the next 4 turns; new freezes last the
    /// next 2 turns.
    #[doc(hidden)]
    pub fn count_down(&mut self, actions: &[Action; PLAYERS], freeze: &[bool; PLAYERS]) {
        for seat in 0..PLAYERS {
            let bot = &mut self.bots[seat];
            bot.frozen = bot.frozen.saturating_sub(1);
            bot.shield_cooldown = bot.shield_cooldown.saturating_sub(1);
            bot.shielded = actions[seat] == Action::Shield;
            if bot.shielded {
                bot.shield_cooldown = SHIELD_COOLDOWN;
            }
            if freeze[seat] {
                bot.frozen = FREEZE_TURNS;
            }
        }
    }

    /// Rule 7: most points wins; equal points share a place (a tie for first
    /// is a draw). The score is the points.
    pub(crate) fn final_outcome(&self) -> Outcome {
        let scores: Vec<u64> = self.bots.iter().map(|b| b.score).collect();
        grid::points_outcome(&scores, self.max_turns)
    }
}
