//! Battles (rules 4 to 6): who fights, how a battle is decided, and what
//! becomes of the winner and the loser.
//!
//! A battle is decided by Lanchester's square law: each side's strength is
//! its soldiers times its multiplier (the attacker ×1; the defender ×1.6 on
//! its capital and ×1.4 next to its defense post, both together ×2.24);
//! the stronger side wins (the defender on a tie) and keeps
//! `√(W² − L²)` of its strength, the loser loses every soldier it sent.

use super::{BuildingKind, Conquest, OutCause, Task, CAPITAL_DEFENSE_PERCENT, CAPITAL_POINTS};
use super::{DEFENSE_SENT_PERCENT, POST_DEFENSE_PERCENT};
use crate::grid::PLAYERS;
use crate::Seat;

/// How a battle ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    pub attacker_wins: bool,
    /// The winner's soldiers left (fractions of a soldier are lost).
    pub survivors: u64,
}

/// Decides a battle between `attack` soldiers at strength ×1 and `defense`
/// soldiers at `percent` / 100, by the square law; a tie goes to the
/// defender. Exact: integers throughout.
pub fn decide(attack: u64, defense: u64, percent: u64) -> Verdict {
    let a = u128::from(attack) * 100;
    let d = u128::from(defense) * u128::from(percent);
    if a > d {
        Verdict {
            attacker_wins: true,
            survivors: (square_law(a, d) / 100) as u64,
        }
    } else {
        Verdict {
            attacker_wins: false,
            survivors: (square_law(d, a) / u128::from(percent)) as u64,
        }
    }
}

/// `√(w² − l²)` rounded down, for `w ≥ l`. Strengths beyond 2^63 (far past
/// any army a game reaches) are scaled down first so the squares fit.
fn square_law(w: u128, l: u128) -> u128 {
    let shift = (128 - w.leading_zeros()).saturating_sub(63);
    let (w, l) = (w >> shift, l >> shift);
    (w * w - l * l).isqrt() << shift
}

impl Conquest {
    /// The defender's multiplier on `cell`, in percent: ×1.6 on its capital,
    /// ×1.4 on a cell next to (or with) one of its finished defense posts.
    pub fn defense_percent(&self, cell: usize, defender: Seat) -> u64 {
        self.defense_percent_seen(cell, defender, |_| true)
    }

    /// [`Conquest::defense_percent`] counting only the posts on cells for
    /// which `seen` holds: the multiplier as a team that sees those cells
    /// can tell it.
    pub(crate) fn defense_percent_seen(
        &self,
        cell: usize,
        defender: Seat,
        seen: impl Fn(usize) -> bool,
    ) -> u64 {
        let mut percent = 100;
        if self.teams[defender].capital == cell {
            percent = percent * CAPITAL_DEFENSE_PERCENT / 100;
        }
        let post = |c: usize| {
            seen(c)
                && self.owner[c] == Some(defender)
                && self.building[c].is_some_and(|b| b.ready && b.kind == BuildingKind::Post)
        };
        if post(cell) || self.board.neighbours(cell).any(post) {
            percent = percent * POST_DEFENSE_PERCENT / 100;
        }
        percent
    }

    /// Rule 4: every team sends 65% of its free defense to the attacks that
    /// began against it this turn, split evenly over them, and its reserve
    /// to its battles in their second turn, split evenly over them.
    /// Fractions of a soldier stay home.
    #[doc(hidden)]
    pub fn send_defenders(&mut self) {
        for d in 0..PLAYERS {
            let new: Vec<usize> = (0..self.battles.len())
                .filter(|&i| self.battles[i].defender == d && self.battles[i].started == self.turn)
                .collect();
            if !new.is_empty() {
                let n = new.len() as u64;
                let share = self.teams[d].defense * DEFENSE_SENT_PERCENT / (100 * n);
                for &i in &new {
                    self.battles[i].defense += share;
                }
                self.teams[d].defense -= share * n;
            }
            let second: Vec<usize> = (0..self.battles.len())
                .filter(|&i| {
                    self.battles[i].defender == d && self.battles[i].started + 1 == self.turn
                })
                .collect();
            if !second.is_empty() {
                let n = second.len() as u64;
                let share = self.teams[d].reserve / n;
                for &i in &second {
                    self.battles[i].reserve += share;
                }
                self.teams[d].reserve -= share * n;
            }
        }
    }

    /// Rules 4 to 6: battles in their second turn are decided, all on the
    /// state before any of them changes it. The winning attacker takes the
    /// cell (finished buildings with it; the garrison died) and keeps its
    /// survivors; taking a capital puts its team out and pays 300 points.
    /// The winning defender's survivors go back where they came from, in
    /// proportion. A losing attacker loses its attack soldiers and walks
    /// back to the cell it came from; if that cell is no longer its own, or
    /// a robot stands there, it is out. A besieger stays where it is.
    #[doc(hidden)]
    pub fn decide_battles(&mut self) {
        let turn = self.turn;
        let (due, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut self.battles)
            .into_iter()
            .partition(|b| b.ends_on() <= turn);
        self.battles = rest;
        if due.is_empty() {
            return;
        }
        self.happened = true;
        let verdicts: Vec<Verdict> = due
            .iter()
            .map(|b| {
                let defenders = b.defense + b.reserve + self.garrison[b.cell];
                let percent = self.defense_percent(b.cell, b.defender);
                decide(self.teams[b.attacker].attack, defenders, percent)
            })
            .collect();
        let mut captured: Vec<(Seat, Seat)> = Vec::new();
        let mut retreats = Vec::new();
        for (b, v) in due.iter().zip(&verdicts) {
            let attacker = &mut self.teams[b.attacker];
            if v.attacker_wins {
                attacker.attack = v.survivors;
                attacker.task = Task::Idle;
                self.owner[b.cell] = Some(b.attacker);
                self.garrison[b.cell] = 0;
                if self.building[b.cell].is_some_and(|bl| !bl.ready) {
                    self.building[b.cell] = None;
                }
                if self.teams[b.defender].capital == b.cell {
                    captured.push((b.defender, b.attacker));
                }
            } else {
                attacker.attack = 0;
                if b.siege {
                    attacker.task = Task::Idle;
                } else {
                    retreats.push((b.attacker, b.from));
                }
                let garrison = self.garrison[b.cell];
                let [g, r] = share_out(v.survivors, [garrison, b.reserve], b.defense);
                let d = v.survivors - g - r;
                self.garrison[b.cell] = g;
                self.teams[b.defender].defense += d;
                self.teams[b.defender].reserve += r;
            }
        }
        // Walking back is blocked by any robot standing there now, losers
        // still on their battle cells included, so the order is no matter.
        let blocked: Vec<(Seat, bool)> = retreats
            .iter()
            .map(|&(seat, from)| {
                let robot = self.robot_at(from).is_some_and(|r| r != seat);
                (seat, robot || self.owner[from] != Some(seat))
            })
            .collect();
        for (&(seat, from), &(_, blocked)) in retreats.iter().zip(&blocked) {
            if blocked {
                self.eliminate(seat, OutCause::NoRetreat);
            } else {
                self.teams[seat].position = from;
                self.teams[seat].task = Task::Idle;
            }
        }
        for (defender, by) in captured {
            self.teams[by].points += CAPITAL_POINTS;
            self.eliminate(defender, OutCause::CapitalTaken { by });
        }
    }
}

/// Survivors `left` of pools `pools` and `rest` shared out in proportion
/// (rounded down): the shares of `pools`; `rest` gets what remains.
fn share_out<const N: usize>(left: u64, pools: [u64; N], rest: u64) -> [u64; N] {
    let total = u128::from(pools.iter().sum::<u64>() + rest);
    if total == 0 {
        return [0; N];
    }
    pools.map(|p| (u128::from(p) * u128::from(left) / total) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_square_law_decides_and_a_tie_goes_to_the_defender() {
        // 500 against 300: √(500² − 300²) = 400.
        assert_eq!(
            decide(500, 300, 100),
            Verdict {
                attacker_wins: true,
                survivors: 400
            }
        );
        // 300 against 500 at ×1.6 = 800: the defender keeps √(800² − 300²) / 1.6.
        let v = decide(300, 500, 160);
        assert!(!v.attacker_wins);
        assert_eq!(v.survivors, 463);
        assert_eq!(
            decide(160, 100, 160),
            Verdict {
                attacker_wins: false,
                survivors: 0
            }
        );
        assert!(!decide(0, 0, 100).attacker_wins);
        assert!(decide(u64::MAX, u64::MAX / 3, 224).attacker_wins);
    }

    #[test]
    fn survivors_are_shared_in_proportion_rounded_down() {
        assert_eq!(share_out(50, [10, 30], 60), [5, 15]);
        assert_eq!(share_out(7, [1, 1], 1), [2, 2]);
        assert_eq!(share_out(0, [0, 0], 0), [0, 0]);
    }
}
