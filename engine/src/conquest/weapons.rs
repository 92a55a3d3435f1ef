//! Weapons (rule 11): aiming, blasts, and the order of damage.

use rand_core::RngCore;
use sha2::{Digest, Sha256};

use super::legal::{manhattan, Act, SeatView};
use super::{Conquest, Task, Weapon};
use crate::grid::{mirror, PLAYERS};
use crate::Seat;

/// One weapon fired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Strike {
    pub team: Seat,
    pub weapon: Weapon,
    pub targets: Vec<usize>,
    /// The cells its blasts damaged, ascending.
    pub hit: Vec<usize>,
}

impl Conquest {
    /// The cells a blast of `radius` round `target` covers: the square of
    /// side `2 × radius + 1`, within the board.
    pub fn blast(&self, target: usize, radius: u32) -> impl Iterator<Item = usize> + '_ {
        let (tx, ty) = self.board.xy(target);
        let r = radius as usize;
        let (x0, y0) = (tx.saturating_sub(r), ty.saturating_sub(r));
        let (x1, y1) = (
            (tx + r).min(self.board.width - 1),
            (ty + r).min(self.board.height - 1),
        );
        (y0..=y1).flat_map(move |y| (x0..=x1).map(move |x| self.board.index(x, y)))
    }

    /// Whether `seat`'s weapons damage `cell`: a cell of another team,
    /// never a capital or a cell that was one.
    pub fn damageable(&self, seat: Seat, cell: usize) -> bool {
        matches!(self.owner[cell], Some(o) if o != seat)
            && !self.is_capital(cell)
            && !self.former_capital[cell]
    }

    /// Where a bare weapon aims: at the targets whose blasts cover the most
    /// enemy cells `seat` sees and can damage, then the nearest to its
    /// robot, then the first in its own mirrored frame, row by row; one
    /// target, or up to three distinct ones for the MIRV. Empty when there
    /// is no target.
    pub fn aim(&self, seat: Seat, weapon: Weapon) -> Vec<usize> {
        self.aim_in(seat, weapon, &self.seat_view(seat))
    }

    pub(crate) fn aim_in(&self, seat: Seat, weapon: Weapon, view: &SeatView) -> Vec<usize> {
        let spec = weapon.spec();
        let visible = &view.visible;
        let pos = self.teams[seat].position;
        let mut ranked: Vec<(usize, usize, usize, usize)> = self
            .weapon_targets_in(weapon, view)
            .into_iter()
            .map(|t| {
                let covered = self
                    .blast(t, spec.blast)
                    .filter(|&c| visible[c] && self.damageable(seat, c))
                    .count();
                let frame = mirror(self.board, seat, t);
                (
                    usize::MAX - covered,
                    manhattan(self.board, pos, t),
                    frame,
                    t,
                )
            })
            .collect();
        ranked.sort_unstable();
        ranked.into_iter().take(spec.targets).map(|r| r.3).collect()
    }

    /// Rule 11: every weapon fired this turn strikes at once. Each enemy
    /// cell in a blast takes the damage, blasts adding up. On each cell the
    /// soldiers parked there die first; what damage is left costs the
    /// cell's team that much divided by its cell count from its free
    /// defense (summed over its cells, rounded down), and an idle robot
    /// standing there as many attack soldiers; a building there falls half
    /// the time (one draw per cell from the turn's seeded stream), which
    /// ends its construction; a relocation under way there is cancelled.
    #[doc(hidden)]
    pub fn fire_weapons(&mut self, acts: &[Act; PLAYERS]) {
        let n = self.board.len();
        let mut damage = vec![0u64; n];
        for (seat, act) in acts.iter().enumerate() {
            let Act::Fire { weapon, targets } = act else {
                continue;
            };
            if !self.teams[seat].alive() {
                continue;
            }
            let spec = weapon.spec();
            let team = &mut self.teams[seat];
            team.gold -= spec.cost;
            team.cooldown[weapon.index()] = spec.cooldown;
            self.happened = true;
            let mut hit = Vec::new();
            for &t in targets {
                for c in self.blast(t, spec.blast) {
                    if self.damageable(seat, c) {
                        damage[c] += spec.damage;
                        hit.push(c);
                    }
                }
            }
            hit.sort_unstable();
            hit.dedup();
            self.strikes.push(Strike {
                team: seat,
                weapon: *weapon,
                targets: targets.clone(),
                hit,
            });
        }
        if damage.iter().all(|&d| d == 0) {
            return;
        }
        let cells: [u64; PLAYERS] = std::array::from_fn(|s| self.cell_count(s) as u64);
        let mut defense_loss = [0u64; PLAYERS];
        let mut rng = crate::rng::stream(self.seed, &format!("conquest/strikes/{}", self.turn));
        for (c, &d) in damage.iter().enumerate() {
            if d == 0 {
                continue;
            }
            let o = self.owner[c].expect("only owned cells take damage");
            let parked = self.garrison[c].min(d);
            self.garrison[c] -= parked;
            let rest = d - parked;
            defense_loss[o] += rest;
            if let Some(r) = self.robot_at(c) {
                let robot = &mut self.teams[r];
                match robot.task {
                    Task::Idle => robot.attack = robot.attack.saturating_sub(rest),
                    Task::Relocating { .. } => robot.task = Task::Idle,
                    _ => {}
                }
            }
            if self.building[c].is_some() && rng.next_u32() & 1 == 0 {
                self.building[c] = None;
                for t in &mut self.teams {
                    if t.alive() && t.position == c && matches!(t.task, Task::Building { .. }) {
                        t.task = Task::Idle;
                    }
                }
            }
        }
        for (o, loss) in defense_loss.into_iter().enumerate() {
            if loss > 0 {
                let t = &mut self.teams[o];
                t.defense = t.defense.saturating_sub(loss / cells[o]);
            }
        }
    }
}

pub(crate) fn hash_strike(h: &mut Sha256, s: &Strike) {
    h.update([s.team as u8, s.weapon as u8]);
    for list in [&s.targets, &s.hit] {
        h.update((list.len() as u64).to_le_bytes());
        for &c in list {
            h.update((c as u64).to_le_bytes());
        }
    }
}
