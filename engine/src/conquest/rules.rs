//! The turn, rule by rule, in the rule book's order:
//!
//! 0. [choose capitals](Conquest::choose_capitals) (rule 2: the choose
//!    mode's setup turn, instead of 2 to 12)
//! 1. [read the orders](Conquest::read_orders) (rules 3 and 14: illegal
//!    is `WAIT`)
//! 2. [time out silent teams](Conquest::time_out_silent_teams) (rule 14)
//! 3. [allocate and garrison](Conquest::allocate_and_garrison) (rule 9)
//! 4. [start buildings and relocations](Conquest::start_works) (rules 10
//!    and 12)
//! 5. [fire weapons](Conquest::fire_weapons) (rule 11)
//! 6. [move robots](Conquest::move_robots) (rules 3, 6 and 14: claims,
//!    attacks, sieges, collisions)
//! 7. [send defenders](Conquest::send_defenders) (rule 4)
//! 8. [decide battles](Conquest::decide_battles) (rules 4, 5 and 6)
//! 9. [cut off robots](Conquest::cut_off_robots) (rule 7)
//! 10. [finish claims, buildings and relocations](Conquest::finish_works)
//!     (rules 3, 10 and 12)
//! 11. [collect income](Conquest::collect_income) (rule 8)
//! 12. [score points](Conquest::score_points) (rule 15)
//! 13. [count a quiet turn](Conquest::count_quiet_turn) (rule 15)
//! 14. [end the turn](Conquest::end_turn): clocks tick, every team
//!     remembers what it sees (rule 13)
//!
//! and [the outcome](Conquest::final_outcome) (rule 15). A team goes out
//! through [`Conquest::eliminate`].

use super::answers::{kind, parse_answer};
use super::legal::Act;
use super::{Building, Conquest, Income, OutCause, Task};
use super::{BuildingKind, GOLD_INCOME, RELOCATE_COST, RELOCATE_EVERY, RELOCATE_TURNS};
use super::{SILENT_TURNS_OUT, SOLDIER_INCOME};
use crate::grid::{self, resolve_moves, Contest, MoveResult, PLAYERS};
use crate::{Outcome, Rejection, Seat};

/// The longest piece of an answer quoted back in a refusal, in bytes.
const MAX_QUOTE: usize = 60;

/// `text`, cut to [`MAX_QUOTE`] bytes with `...` when longer.
fn shorten(text: &str) -> String {
    if text.len() <= MAX_QUOTE {
        return text.to_string();
    }
    let mut end = MAX_QUOTE;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &text[..end])
}

impl Conquest {
    /// Rules 3 and 14: every team's answer, read and checked against the
    /// state the team saw. Illegal or unreadable is `WAIT` with a refusal;
    /// an empty answer, or none, is `WAIT` and counts toward the timeout
    /// (not on the setup turn), any other answer resets it.
    #[doc(hidden)]
    pub fn read_orders(&mut self, answers: &[Option<&str>]) -> ([Act; PLAYERS], Vec<Rejection>) {
        let mut acts: [Act; PLAYERS] = std::array::from_fn(|_| Act::Wait);
        let mut rejections = Vec::new();
        let setup = self.in_setup();
        for (seat, act) in acts.iter_mut().enumerate() {
            if !self.teams[seat].alive() {
                continue;
            }
            let raw = answers.get(seat).copied().flatten();
            let Some(raw) = raw.filter(|r| !r.trim().is_empty()) else {
                if !setup {
                    self.teams[seat].silent += 1;
                }
                // A blank answer is silence, and also what a bot that
                // could not read its observation sends: refused as
                // unreadable, so a validation match tells it apart.
                if raw.is_some() {
                    rejections.push(Rejection {
                        seat,
                        kind: kind::UNPARSEABLE.into(),
                        reason: "a blank answer: played as WAIT, and counts toward the timeout"
                            .into(),
                    });
                }
                continue;
            };
            self.teams[seat].silent = 0;
            let then = if setup {
                "played as WAIT; your capital stays in the corner"
            } else {
                "played as WAIT"
            };
            match parse_answer(raw) {
                Err(reason) => rejections.push(Rejection {
                    seat,
                    kind: kind::UNPARSEABLE.into(),
                    reason: format!("{reason}; {then}"),
                }),
                Ok(order) => match self.check_order(seat, &order) {
                    Ok(a) => *act = a,
                    Err((k, why)) => rejections.push(Rejection {
                        seat,
                        kind: k.into(),
                        reason: format!("{}: {why}; {then}", shorten(&order.text())),
                    }),
                },
            }
        }
        (acts, rejections)
    }

    /// Rule 2, the choose mode's setup turn: each team that picked a cell of
    /// `capital_choices` moves its capital and robot there; the others keep
    /// the corner.
    #[doc(hidden)]
    pub fn choose_capitals(&mut self, acts: &[Act; PLAYERS]) {
        for (seat, act) in acts.iter().enumerate() {
            if let Act::Capital(cell) = *act {
                let team = &mut self.teams[seat];
                self.owner[team.capital] = None;
                self.owner[cell] = Some(seat);
                team.capital = cell;
                team.position = cell;
            }
        }
    }

    /// Rule 14: a team that sent nothing 5 turns running is out.
    #[doc(hidden)]
    pub fn time_out_silent_teams(&mut self) {
        for seat in 0..PLAYERS {
            let t = &self.teams[seat];
            if t.alive() && t.silent >= SILENT_TURNS_OUT {
                self.eliminate(seat, OutCause::Silent);
            }
        }
    }

    /// Rule 9: `ALLOCATE` shares all attack, free defense and reserve
    /// soldiers out by the given shares (rounded down; the reserve gets
    /// what is left); `GARRISON` parks reserve soldiers on the robot's
    /// cell; `WITHDRAW` takes them back to the reserve.
    #[doc(hidden)]
    pub fn allocate_and_garrison(&mut self, acts: &[Act; PLAYERS]) {
        for (seat, act) in acts.iter().enumerate() {
            let team = &mut self.teams[seat];
            if !team.alive() {
                continue;
            }
            match *act {
                Act::Allocate(shares) => {
                    let pool = u128::from(team.attack + team.defense + team.reserve);
                    let sum: u128 = shares.iter().map(|&s| u128::from(s)).sum();
                    let part = |s: u64| (pool * u128::from(s) / sum) as u64;
                    team.attack = part(shares[0]);
                    team.defense = part(shares[1]);
                    team.reserve = pool as u64 - team.attack - team.defense;
                }
                Act::Garrison(n) => {
                    team.reserve -= n;
                    self.garrison[team.position] += n;
                }
                Act::Withdraw(n) => {
                    self.garrison[team.position] -= n;
                    team.reserve += n;
                }
                _ => {}
            }
        }
    }

    /// Rules 10 and 12: `BUILD` pays and lays the building on the robot's
    /// cell, locking the robot for the building's turns (this one
    /// included); `RELOCATE` pays and locks the robot for 3 turns, and
    /// starts the 60 turns before the next.
    #[doc(hidden)]
    pub fn start_works(&mut self, acts: &[Act; PLAYERS]) {
        for (seat, act) in acts.iter().enumerate() {
            let turn = self.turn;
            let team = &mut self.teams[seat];
            if !team.alive() {
                continue;
            }
            match *act {
                Act::Build(kind) => {
                    team.gold -= kind.cost();
                    team.task = Task::Building {
                        kind,
                        done_on: turn + kind.turns() - 1,
                    };
                    self.building[team.position] = Some(Building { kind, ready: false });
                    self.happened = true;
                }
                Act::Relocate => {
                    team.gold -= RELOCATE_COST;
                    team.relocate_cooldown = RELOCATE_EVERY;
                    team.task = Task::Relocating {
                        done_on: turn + RELOCATE_TURNS - 1,
                    };
                    self.happened = true;
                }
                _ => {}
            }
        }
    }

    /// Rules 3, 6 and 14: robots move all at once. Two robots into one
    /// cell, swaps, and steps onto a robot are blocked (the robot stays);
    /// so is a step into a cell where a battle is being fought (only a
    /// team in that battle is refused it: the others may not see it).
    /// Into its own land a robot just moves; into neutral land it starts a
    /// claim; into enemy land it starts a battle there. A robot stepping
    /// toward a capital with its team's robot on it lays siege from where
    /// it stands (two sieges of one capital block each other, and a
    /// capital already besieged blocks a new siege).
    #[doc(hidden)]
    pub fn move_robots(&mut self, acts: &[Act; PLAYERS]) {
        let turn = self.turn;
        let fought: Vec<usize> = self.battles.iter().map(|b| b.cell).collect();
        let positions: [Option<usize>; PLAYERS] =
            std::array::from_fn(|s| self.teams[s].alive().then_some(self.teams[s].position));
        // A robot blocked by a battle stays where it is, which keeps its
        // cell closed to the others, as any blocked robot does.
        let targets: [Option<usize>; PLAYERS] = std::array::from_fn(|s| match acts[s] {
            Act::Move { to } if !fought.contains(&to) => Some(to),
            _ => None,
        });
        let moved = resolve_moves(&positions, &targets, &self.owner, Contest::Nobody, 0);
        for seat in 0..PLAYERS {
            let (Some(to), MoveResult::Moved) = (targets[seat], moved[seat]) else {
                continue;
            };
            let from = self.teams[seat].position;
            self.teams[seat].position = to;
            match self.owner[to] {
                Some(o) if o == seat => {}
                None => {
                    self.teams[seat].task = Task::Claiming {
                        from,
                        done_on: turn + 1,
                    };
                }
                Some(defender) => self.start_battle(seat, defender, to, from, false),
            }
        }
        let sieges: [Option<usize>; PLAYERS] = std::array::from_fn(|s| match acts[s] {
            Act::Siege { target } if self.teams[s].alive() => Some(target),
            _ => None,
        });
        for seat in 0..PLAYERS {
            let Some(target) = sieges[seat] else { continue };
            if fought.contains(&target) {
                continue;
            }
            let rivals = sieges.iter().filter(|t| **t == Some(target)).count();
            let Some(defender) = self.capital_of(target) else {
                continue;
            };
            if rivals == 1 {
                let at = self.teams[seat].position;
                self.start_battle(seat, defender, target, at, true);
            }
        }
    }

    fn start_battle(
        &mut self,
        attacker: Seat,
        defender: Seat,
        cell: usize,
        from: usize,
        siege: bool,
    ) {
        self.teams[attacker].task = if siege {
            Task::Sieging { target: cell }
        } else {
            Task::Fighting { from }
        };
        self.battles.push(super::Battle {
            cell,
            attacker,
            defender,
            from,
            siege,
            started: self.turn,
            defense: 0,
            reserve: 0,
        });
        self.happened = true;
    }

    /// Rule 7: a robot must stay joined to its capital through its own
    /// land: the cell it stands on, or while claiming or fighting the cell
    /// it stepped from. A robot no longer joined is out, this same turn.
    #[doc(hidden)]
    pub fn cut_off_robots(&mut self) {
        let cut: Vec<Seat> = (0..PLAYERS)
            .filter(|&s| {
                let t = &self.teams[s];
                let anchor = match t.task {
                    Task::Claiming { from, .. } | Task::Fighting { from } => from,
                    _ => t.position,
                };
                t.alive() && !self.joined(s)[anchor]
            })
            .collect();
        for seat in cut {
            self.eliminate(seat, OutCause::CutOff);
        }
    }

    /// Rules 3, 10 and 12: claims, buildings and relocations due this turn
    /// finish: a claimed cell is the team's, a building works, a relocated
    /// capital is where the robot stands (the old cell is a former capital).
    #[doc(hidden)]
    pub fn finish_works(&mut self) {
        let turn = self.turn;
        for seat in 0..PLAYERS {
            let team = &mut self.teams[seat];
            if !team.alive() {
                continue;
            }
            let pos = team.position;
            match team.task {
                Task::Claiming { done_on, .. } if done_on == turn => {
                    self.owner[pos] = Some(seat);
                }
                Task::Building { done_on, .. } if done_on == turn => {
                    if let Some(b) = &mut self.building[pos] {
                        b.ready = true;
                    }
                }
                Task::Relocating { done_on } if done_on == turn => {
                    self.former_capital[team.capital] = true;
                    team.capital = pos;
                }
                _ => continue,
            }
            team.task = Task::Idle;
            self.happened = true;
        }
    }

    /// What `seat` earns in a turn, in hundredths of soldiers and of gold.
    /// Only land joined to the capital counts: its cells, its finished
    /// barracks and mines, and each quarter whose every free cell is in it.
    pub fn income(&self, seat: Seat) -> (u64, u64) {
        self.income_of(&self.joined(seat))
    }

    /// [`Conquest::income`] of a team whose land joined to its capital is
    /// `joined`.
    pub(crate) fn income_of(&self, joined: &[bool]) -> (u64, u64) {
        let cells = joined.iter().filter(|&&j| j).count() as u64;
        let count = |kind: BuildingKind| {
            (0..self.board.len())
                .filter(|&c| joined[c] && self.building[c] == Some(Building { kind, ready: true }))
                .count() as u64
        };
        let quarters = (0..PLAYERS)
            .filter(|&q| {
                (0..self.board.len()).all(|c| self.region[c] != q || self.wall[c] || joined[c])
            })
            .count() as u64;
        let earn = |i: Income, buildings: u64| {
            i.base + i.per_cell * cells + i.per_building * buildings + i.per_quarter * quarters
        };
        (
            earn(SOLDIER_INCOME, count(BuildingKind::Barracks)),
            earn(GOLD_INCOME, count(BuildingKind::Mine)),
        )
    }

    /// Rule 8: every team still in earns its income: new soldiers to its
    /// reserve and gold, whole ones; the fractions are kept for later turns.
    #[doc(hidden)]
    pub fn collect_income(&mut self) {
        for seat in 0..PLAYERS {
            if !self.teams[seat].alive() {
                continue;
            }
            let (soldiers, gold) = self.income(seat);
            let t = &mut self.teams[seat];
            t.soldier_cents += soldiers;
            t.reserve += t.soldier_cents / 100;
            t.soldier_cents %= 100;
            t.gold_cents += gold;
            t.gold += t.gold_cents / 100;
            t.gold_cents %= 100;
        }
    }

    /// Rule 15: every team still in scores a point per cell it owns.
    #[doc(hidden)]
    pub fn score_points(&mut self) {
        for seat in 0..PLAYERS {
            if self.teams[seat].alive() {
                self.teams[seat].points += self.cell_count(seat) as u64;
            }
        }
    }

    /// Rule 15: a turn in which nothing happened (no cell changed hands, no
    /// battle began or ended, no weapon fired, no building or relocation
    /// began, ended or fell, no team went out) adds to the quiet turns;
    /// anything resets them.
    #[doc(hidden)]
    pub fn count_quiet_turn(&mut self) {
        if self.happened {
            self.quiet = 0;
        } else {
            self.quiet += 1;
        }
    }

    /// The end of every turn: cooldowns tick, the turn counter moves on,
    /// and every team remembers what it sees (rule 13).
    #[doc(hidden)]
    pub fn end_turn(&mut self) {
        for t in self.teams.iter_mut().filter(|t| t.alive()) {
            for c in &mut t.cooldown {
                *c = c.saturating_sub(1);
            }
            t.relocate_cooldown = t.relocate_cooldown.saturating_sub(1);
        }
        self.turn += 1;
        self.refresh_memory();
    }

    /// A team goes out: its robot leaves the board, all its land turns
    /// neutral (buildings and garrisons gone), its capital is a former
    /// capital. Its battles end: as attacker, the defender's soldiers go
    /// home; as defender, a besieger stops, and an attacker on the now
    /// neutral cell claims it (one more turn).
    pub fn eliminate(&mut self, seat: Seat, cause: OutCause) {
        if !self.teams[seat].alive() {
            return;
        }
        let turn = self.turn;
        self.happened = true;
        let team = &mut self.teams[seat];
        team.out = Some((turn + 1, cause));
        team.task = Task::Idle;
        self.former_capital[team.capital] = true;
        for c in 0..self.board.len() {
            if self.owner[c] == Some(seat) {
                self.owner[c] = None;
                self.building[c] = None;
                self.garrison[c] = 0;
            }
        }
        for b in std::mem::take(&mut self.battles) {
            if b.attacker == seat {
                let d = &mut self.teams[b.defender];
                d.defense += b.defense;
                d.reserve += b.reserve;
            } else if b.defender == seat {
                let a = &mut self.teams[b.attacker];
                a.task = if b.siege {
                    Task::Idle
                } else {
                    Task::Claiming {
                        from: b.from,
                        done_on: turn + 1,
                    }
                };
            } else {
                self.battles.push(b);
            }
        }
    }

    /// Rule 15: the last team alive wins; otherwise (after the turn limit,
    /// or the quiet turns) the teams still in are placed by points, above
    /// every team that is out; teams that are out are placed by the turn
    /// they went out (later is better), then by points. The score is the
    /// points.
    #[doc(hidden)]
    pub fn final_outcome(&self) -> Outcome {
        let keys: Vec<(u8, u32, u64)> = self
            .teams
            .iter()
            .map(|t| match t.out {
                None => (1, 0, t.points),
                Some((turn, _)) => (0, turn, t.points),
            })
            .collect();
        let placements = grid::placements_by(&keys);
        let scores = self.teams.iter().map(|t| t.points as f64).collect();
        let alive: Vec<Seat> = (0..PLAYERS).filter(|&s| self.teams[s].alive()).collect();
        let first: Vec<String> = (0..PLAYERS)
            .filter(|&s| placements[s] == 1)
            .map(|s| s.to_string())
            .collect();
        let ending = if self.quiet >= self.setup.quiet_turns {
            format!("{} turns with nothing happening", self.setup.quiet_turns)
        } else {
            format!("turn limit ({}) reached", self.setup.max_turns)
        };
        let reason = match alive.as_slice() {
            [w] => format!("seat {w} is the last team alive"),
            [] => format!(
                "every team is out after turn {}: a draw between seats {}",
                self.turn,
                first.join(", ")
            ),
            _ if first.len() == 1 => format!("{ending}: seat {} has the most points", first[0]),
            _ => format!(
                "{ending}: a draw between seats {} on points",
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
