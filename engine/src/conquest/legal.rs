//! What a team may do now: each readable [`Order`] checked against the
//! state into an [`Act`] the turn carries out, or refused with a kind and a
//! reason; and `legal_actions`, built by the same check, so it lists
//! exactly what the game accepts.

use super::answers::{kind, Order, Target};
use super::{BuildingKind, Conquest, Task, Weapon, RELOCATE_COST};
use crate::grid::{flood, Dir};
use crate::Seat;

/// An order the rules allow, with its cells checked and a bare weapon aimed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Act {
    Wait,
    /// Step into `to` (own land, neutral land or an enemy cell).
    Move {
        to: usize,
    },
    /// Lay siege to the capital `target` from where the robot stands.
    Siege {
        target: usize,
    },
    Build(BuildingKind),
    /// Shares of attack, defense and reserve in millionths (sum > 0).
    Allocate([u64; 3]),
    Garrison(u64),
    Withdraw(u64),
    Fire {
        weapon: Weapon,
        targets: Vec<usize>,
    },
    Relocate,
    Capital(usize),
}

/// A refusal: its kind and why.
pub type Refusal = (&'static str, String);

/// The `ALLOCATE` that `legal_actions` lists: back to the starting split.
pub const ALLOCATE_EXAMPLE: [f64; 3] = [0.5, 0.35, 0.15];

/// What the checks of one team's orders need, worked out once: the cells
/// it sees, its land joined to its capital, and the cells its weapons may
/// strike if in range, with their distance from its robot.
pub(crate) struct SeatView {
    pub visible: Vec<bool>,
    pub joined: Vec<bool>,
    pub targets: Vec<(usize, usize)>,
}

impl Conquest {
    /// `(x, y)` as a cell of the board, if it is on it.
    pub(crate) fn cell_of(&self, (x, y): Target) -> Option<usize> {
        let (w, h) = (self.board.width as i64, self.board.height as i64);
        ((0..w).contains(&x) && (0..h).contains(&y))
            .then(|| self.board.index(x as usize, y as usize))
    }

    /// `seat`'s land joined to its capital through its own cells.
    pub fn joined(&self, seat: Seat) -> Vec<bool> {
        let capital = self.teams[seat].capital;
        flood(self.board, &[capital], |c| self.owner[c] == Some(seat))
    }

    pub(crate) fn seat_view(&self, seat: Seat) -> SeatView {
        let visible = self.visible(seat);
        let pos = self.teams[seat].position;
        let targets = (0..self.board.len())
            .filter(|&c| self.strike_problem(seat, c, &visible).is_none())
            .map(|c| (c, manhattan(self.board, pos, c)))
            .collect();
        SeatView {
            joined: self.joined(seat),
            visible,
            targets,
        }
    }

    /// Checks `order` for `seat` against the state at the start of the turn.
    pub fn check_order(&self, seat: Seat, order: &Order) -> Result<Act, Refusal> {
        self.check_order_in(seat, order, &self.seat_view(seat))
    }

    fn check_order_in(&self, seat: Seat, order: &Order, view: &SeatView) -> Result<Act, Refusal> {
        let team = &self.teams[seat];
        if !team.alive() {
            return Err((kind::ILLEGAL, "your team is out of the game".into()));
        }
        if self.in_setup() {
            return match order {
                Order::Wait => Ok(Act::Wait),
                Order::Capital(t) => match self.cell_of(*t) {
                    Some(c) if self.setup.capital_choices(seat).contains(&c) => Ok(Act::Capital(c)),
                    _ => Err((
                        kind::BAD_TARGET,
                        format!(
                            "[{}, {}] is not in capital_choices (your quarter, one cell in from \
                             the edge and the centre lines, no wall); your capital stays in the \
                             corner",
                            t.0, t.1
                        ),
                    )),
                },
                _ => Err((
                    kind::ILLEGAL,
                    "the setup turn takes only CAPITAL x y (one of capital_choices) or WAIT".into(),
                )),
            };
        }
        let pos = team.position;
        let gold = |cost: u64| {
            if team.gold >= cost {
                Ok(())
            } else {
                Err((
                    kind::NOT_ENOUGH_GOLD,
                    format!("it costs {cost} gold and you have {}", team.gold),
                ))
            }
        };
        match order {
            Order::Wait => Ok(Act::Wait),
            Order::Capital(_) => Err((
                kind::ILLEGAL,
                "CAPITAL is only for the setup turn when capitals are chosen".into(),
            )),
            _ if team.busy() => Err((kind::BUSY, self.busy_reason(seat))),
            Order::Move(d) => self.check_move(seat, *d),
            Order::Build(k) => {
                if !view.joined[pos] {
                    return Err((
                        kind::ILLEGAL,
                        "build on a cell joined to your capital".into(),
                    ));
                }
                if let Some(b) = self.building[pos] {
                    return Err((
                        kind::ILLEGAL,
                        format!("this cell already has a {}", b.kind.name()),
                    ));
                }
                gold(k.cost())?;
                Ok(Act::Build(*k))
            }
            Order::Allocate(shares) => {
                if pos != team.capital {
                    return Err((kind::ILLEGAL, "ALLOCATE only on your capital".into()));
                }
                if shares.iter().any(|s| *s < 0.0) || shares.iter().all(|s| *s == 0.0) {
                    return Err((
                        kind::ILLEGAL,
                        "ALLOCATE takes shares of 0 or more, not all 0".into(),
                    ));
                }
                // Millionths; a share too large saturates, and the others
                // then round to nothing beside it.
                Ok(Act::Allocate(shares.map(|s| (s * 1e6).round() as u64)))
            }
            Order::Garrison(n) => match u64::try_from(*n) {
                Ok(n) if n > 0 && n <= team.reserve => Ok(Act::Garrison(n)),
                _ => Err((
                    kind::ILLEGAL,
                    format!("GARRISON takes 1 to {} (your reserve)", team.reserve),
                )),
            },
            Order::Withdraw(n) => match u64::try_from(*n) {
                Ok(n) if n > 0 && n <= self.garrison[pos] => Ok(Act::Withdraw(n)),
                _ => Err((
                    kind::ILLEGAL,
                    format!(
                        "WITHDRAW takes 1 to {} (the soldiers parked where you stand)",
                        self.garrison[pos]
                    ),
                )),
            },
            Order::Relocate => {
                if pos == team.capital {
                    return Err((kind::ILLEGAL, "you are on your capital already".into()));
                }
                if self.building[pos].is_some() {
                    return Err((
                        kind::ILLEGAL,
                        "a capital cannot move onto a building".into(),
                    ));
                }
                if !view.joined[pos] {
                    return Err((
                        kind::ILLEGAL,
                        "relocate to a cell joined to your capital".into(),
                    ));
                }
                if team.relocate_cooldown > 0 {
                    return Err((
                        kind::COOLING_DOWN,
                        format!(
                            "RELOCATE is ready again in {} turns",
                            team.relocate_cooldown
                        ),
                    ));
                }
                gold(RELOCATE_COST)?;
                Ok(Act::Relocate)
            }
            Order::Fire(w, targets) => {
                let spec = w.spec();
                let wait = team.cooldown[w.index()];
                if wait > 0 {
                    return Err((
                        kind::COOLING_DOWN,
                        format!("{} is ready again in {wait} turns", w.word()),
                    ));
                }
                gold(spec.cost)?;
                let targets = if targets.is_empty() {
                    let aimed = self.aim_in(seat, *w, view);
                    if aimed.is_empty() {
                        return Err((
                            kind::BAD_TARGET,
                            format!("no enemy cell you see is in range of your {}", w.name()),
                        ));
                    }
                    aimed
                } else {
                    self.check_targets(seat, *w, targets, view)?
                };
                Ok(Act::Fire {
                    weapon: *w,
                    targets,
                })
            }
        }
    }

    fn busy_reason(&self, seat: Seat) -> String {
        let team = &self.teams[seat];
        let what = team.task.name().unwrap_or("busy");
        let left = match team.task {
            Task::Claiming { done_on, .. }
            | Task::Building { done_on, .. }
            | Task::Relocating { done_on } => {
                format!(
                    " for {} more turns",
                    (done_on + 1).saturating_sub(self.turn)
                )
            }
            _ => String::new(),
        };
        format!("your robot is {what}{left}; it may only WAIT")
    }

    fn check_move(&self, seat: Seat, d: Dir) -> Result<Act, Refusal> {
        let pos = self.teams[seat].position;
        let refuse = |why: &str| Err((kind::CANNOT_MOVE, why.to_string()));
        let Some(to) = self.board.step(pos, d) else {
            return refuse("that is off the board");
        };
        if self.wall[to] {
            return refuse("that cell is a wall");
        }
        // Only a battle the team is in: any other it may not see, and
        // refusing the move would tell it of the battle. Such a move is
        // blocked when robots move.
        if self
            .battle_at(to)
            .is_some_and(|b| b.attacker == seat || b.defender == seat)
        {
            return refuse("a battle you are in is being fought on that cell");
        }
        match self.robot_at(to) {
            // A robot sitting on its own capital: siege from next door.
            Some(r) if self.teams[r].capital == to => Ok(Act::Siege { target: to }),
            Some(_) => refuse("a robot stands on that cell"),
            None => Ok(Act::Move { to }),
        }
    }

    /// Why `seat` may not strike `cell` with any weapon now, if it may not:
    /// a target is an enemy cell it sees, never a capital or a former one.
    fn strike_problem(&self, seat: Seat, cell: usize, visible: &[bool]) -> Option<TargetProblem> {
        if !visible[cell] {
            Some(TargetProblem::NotSeen)
        } else if !matches!(self.owner[cell], Some(o) if o != seat) {
            Some(TargetProblem::NotEnemy)
        } else if self.is_capital(cell) || self.former_capital[cell] {
            Some(TargetProblem::Capital)
        } else {
            None
        }
    }

    /// Why `seat` may not strike `cell` with `weapon` now: as
    /// [`Conquest::strike_problem`], or out of the weapon's range of its robot.
    fn target_problem(
        &self,
        seat: Seat,
        weapon: Weapon,
        cell: usize,
        visible: &[bool],
    ) -> Option<TargetProblem> {
        let range = weapon.spec().range as usize;
        let dist = manhattan(self.board, self.teams[seat].position, cell);
        self.strike_problem(seat, cell, visible)
            .or((dist > range).then_some(TargetProblem::OutOfRange { dist, range }))
    }

    /// The cells `seat` may strike with `weapon` now, row by row.
    pub fn weapon_targets(&self, seat: Seat, weapon: Weapon) -> Vec<usize> {
        self.weapon_targets_in(weapon, &self.seat_view(seat))
    }

    pub(crate) fn weapon_targets_in(&self, weapon: Weapon, view: &SeatView) -> Vec<usize> {
        let range = weapon.spec().range as usize;
        view.targets
            .iter()
            .filter(|t| t.1 <= range)
            .map(|t| t.0)
            .collect()
    }

    fn check_targets(
        &self,
        seat: Seat,
        w: Weapon,
        targets: &[Target],
        view: &SeatView,
    ) -> Result<Vec<usize>, Refusal> {
        let most = w.spec().targets;
        if targets.len() > most {
            return Err((
                kind::BAD_TARGET,
                format!("{} takes at most {most} targets", w.word()),
            ));
        }
        let mut cells = Vec::with_capacity(targets.len());
        for &t in targets {
            let Some(c) = self.cell_of(t) else {
                return Err((
                    kind::BAD_TARGET,
                    format!("[{}, {}] is off the board", t.0, t.1),
                ));
            };
            if let Some(why) = self.target_problem(seat, w, c, &view.visible) {
                return Err((
                    kind::BAD_TARGET,
                    format!("[{}, {}]: {}", t.0, t.1, why.describe()),
                ));
            }
            if cells.contains(&c) {
                return Err((
                    kind::BAD_TARGET,
                    format!("[{}, {}] is named twice; targets must differ", t.0, t.1),
                ));
            }
            cells.push(c);
        }
        Ok(cells)
    }

    /// What `seat` may answer now, each a complete answer the game accepts.
    /// Every move, building, relocation, bare weapon and weapon target is
    /// listed; `ALLOCATE`, `GARRISON`, `WITHDRAW` and `MIRV` once each, with
    /// an example of their numbers (any shares; 1 to the number listed; up
    /// to three of the listed `MIRV` targets are accepted as well).
    pub fn legal_actions(&self, seat: Seat) -> Vec<String> {
        self.legal_actions_in(seat, &self.seat_view(seat))
    }

    pub(crate) fn legal_actions_in(&self, seat: Seat, view: &SeatView) -> Vec<String> {
        let team = &self.teams[seat];
        if !team.alive() {
            return Vec::new();
        }
        let b = self.board;
        let mut orders: Vec<Order> = Vec::new();
        if self.in_setup() {
            for c in self.setup.capital_choices(seat) {
                let (x, y) = b.xy(c);
                orders.push(Order::Capital((x as i64, y as i64)));
            }
            orders.push(Order::Wait);
        } else if team.busy() {
            orders.push(Order::Wait);
        } else {
            orders.extend(Dir::ALL.map(Order::Move));
            orders.push(Order::Wait);
            orders.extend(BuildingKind::ALL.map(Order::Build));
            orders.push(Order::Allocate(ALLOCATE_EXAMPLE));
            orders.push(Order::Garrison(team.reserve as i64));
            orders.push(Order::Withdraw(self.garrison[team.position] as i64));
            orders.push(Order::Relocate);
            orders.extend(Weapon::ALL.map(|w| Order::Fire(w, Vec::new())));
            for w in Weapon::ALL {
                if team.cooldown[w.index()] > 0 || team.gold < w.spec().cost {
                    continue;
                }
                for c in self.weapon_targets_in(w, view) {
                    let (x, y) = b.xy(c);
                    orders.push(Order::Fire(w, vec![(x as i64, y as i64)]));
                }
            }
        }
        orders
            .into_iter()
            .filter(|o| self.check_order_in(seat, o, view).is_ok())
            .map(|o| o.text())
            .collect()
    }
}

/// Why a cell is not a target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TargetProblem {
    NotSeen,
    NotEnemy,
    Capital,
    OutOfRange { dist: usize, range: usize },
}

impl TargetProblem {
    fn describe(self) -> String {
        match self {
            TargetProblem::NotSeen => "you do not see it now".into(),
            TargetProblem::NotEnemy => "it is not an enemy cell".into(),
            TargetProblem::Capital => {
                "weapons never touch a capital, or a cell that was one".into()
            }
            TargetProblem::OutOfRange { dist, range } => {
                format!("it is {dist} steps from your robot; the range is {range}")
            }
        }
    }
}

/// Steps between two cells, walls aside.
pub(crate) fn manhattan(board: crate::grid::Board, a: usize, b: usize) -> usize {
    let (ax, ay) = board.xy(a);
    let (bx, by) = board.xy(b);
    ax.abs_diff(bx) + ay.abs_diff(by)
}
