//! The turn, phase by phase, in upstream's order (`Board.next` in
//! `helpers.py`, then the interpreter in `kore_fleets.py`), as
//! `docs/games/kore.md` numbers it:
//!
//! 0. [read the answers](Kore::read_orders)
//!
//! then for each player in turn, as upstream runs them:
//!
//! 1. [spawning and launching](Kore::spawn_and_launch)
//! 2. [flight plans and conversion](Kore::follow_flight_plans)
//! 3. [moving](Kore::move_fleets)
//! 4. [allied fleets coalesce](Kore::coalesce_allied_fleets)
//!
//! then over the whole board:
//!
//! 5. [fleet collisions](Kore::resolve_fleet_collisions)
//! 6. [fleet–shipyard collisions](Kore::resolve_shipyard_collisions)
//! 7. [deposits](Kore::deposit_at_own_shipyards)
//! 8. [adjacent damage](Kore::damage_adjacent_fleets)
//! 9. [mining](Kore::mine_kore)
//! 10. [regeneration](Kore::regenerate_kore)
//! 11. [the end of the step](Kore::end_turn)
//!
//! Float sums follow upstream's order: fleets and shipyards are visited
//! player by player, each player's in the order they were made. Every phase
//! is public but hidden from the docs, so that a test can run it alone on a
//! hand-made position.

use super::actions::{kind, read_answer, read_value, Answer, Order, Reading};
use super::{Dir, Fleet, Kore, Shipyard, Status, Uid};
use crate::kaggle::pynum::{round3, Num};
use crate::kaggle::Refusals;
use crate::{Rejection, Seat};

/// Turns controlled at which a shipyard's spawn cap rises by one:
/// the running sums of i² + 1 for i = 1..9.
const SPAWN_VALUES: [i64; 9] = [2, 7, 17, 34, 60, 97, 147, 212, 294];

/// The most ships a shipyard may spawn in one turn after controlling it
/// for `turns` turns (1 to 10).
pub fn max_spawn(turns: i64) -> u64 {
    SPAWN_VALUES
        .iter()
        .position(|&t| turns < t)
        .map_or(10, |i| i as u64 + 1)
}

/// The longest flight plan `ships` ships may fly: floor(2 ln ships) + 1.
pub fn max_flight_plan_len(ships: u64) -> usize {
    ((2.0 * (ships as f64).ln()).floor() + 1.0) as usize
}

/// The share of a cell's kore a fleet mines: min(ln ships / 20, 0.99).
pub fn collection_rate(ships: i64) -> f64 {
    ((ships as f64).ln() / 20.0).min(0.99)
}

/// `str(int(digits) - 1)` for a run of decimal digits (no sign), exactly,
/// whatever its length; `None` when the result is 0 or less.
fn decrement_digits(digits: &str) -> Option<String> {
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() || digits == "1" {
        return None;
    }
    let mut bytes = digits.as_bytes().to_vec();
    let mut i = bytes.len();
    while i > 0 {
        i -= 1;
        if bytes[i] == b'0' {
            bytes[i] = b'9';
        } else {
            bytes[i] -= 1;
            break;
        }
    }
    let start = bytes.iter().position(|&b| b != b'0').unwrap_or(bytes.len());
    Some(String::from_utf8_lossy(&bytes[start..]).into_owned())
}

impl Kore {
    fn add_shipyard(&mut self, owner: Seat, pos: usize, ships: i64, turns_controlled: i64) {
        let uid = self.new_uids.next(self.step);
        self.shipyards
            .push(Shipyard::new(uid, owner, pos, ships, turns_controlled));
        self.shipyard_at.set(pos, self.shipyards.len() - 1);
        // Upstream zeroes the cell under every shipyard it places.
        self.cells[pos] = Num::Int(0);
    }

    fn delete_fleet(&mut self, i: usize) {
        let f = &mut self.fleets[i];
        f.alive = false;
        if self.fleet_at.get(f.pos) == Some(i) {
            self.fleet_at.clear(f.pos);
        }
    }

    fn neighbour(&self, pos: usize, dir: Dir) -> usize {
        dir.step(pos, self.config.size)
    }

    /// Phase 0, before the turn: every active seat's answer, read as
    /// upstream reads it, into one order per shipyard (indexed like
    /// [`Kore::shipyards`]). A seat whose answer would raise in upstream's
    /// interpreter is marked ERROR and its answer dropped, as upstream does
    /// for an agent that raised.
    #[doc(hidden)]
    pub fn read_orders(
        &mut self,
        answers: &[Option<&str>],
        rejections: &mut Vec<Rejection>,
    ) -> Vec<Option<Order>> {
        let mut orders: Vec<Option<Order>> = vec![None; self.shipyards.len()];
        for seat in 0..self.players {
            if !self.seats.is_active(seat) {
                continue;
            }
            let Some(raw) = answers.get(seat).copied().flatten() else {
                continue;
            };
            let Answer::Entries(entries) = read_answer(seat, raw, rejections) else {
                continue;
            };
            // The entries naming a uid, by uid: a dict's keys are distinct,
            // and only one text names each uid.
            let mut by_uid: Vec<(Uid, usize)> = entries
                .iter()
                .enumerate()
                .filter_map(|(k, (key, _))| Some((Uid::parse(key.as_str()?)?, k)))
                .collect();
            by_uid.sort_unstable();
            let mut raised = None;
            let mut used = vec![false; entries.len()];
            for (i, s) in self.shipyards.iter().enumerate() {
                if s.owner != seat {
                    continue;
                }
                let Ok(found) = by_uid.binary_search_by(|(uid, _)| uid.cmp(&s.uid)) else {
                    continue;
                };
                let k = by_uid[found].1;
                used[k] = true;
                match read_value(&entries[k].1) {
                    Reading::Nothing => {}
                    Reading::Order(order) => {
                        if let Order::Spawn(n) = &order {
                            // `spawn_cost * n` with a float cost: float(n) overflows.
                            if !n.is_zero() && n.float_overflows && !self.config.spawn_cost.is_int()
                            {
                                raised.get_or_insert_with(|| {
                                    format!(
                                        "{}: too many ships to multiply by the float spawnCost \
                                         (upstream: OverflowError)",
                                        s.uid
                                    )
                                });
                            }
                        }
                        orders[i] = Some(order);
                    }
                    Reading::Raises(why) => {
                        raised.get_or_insert_with(|| format!("{}: {why}", s.uid));
                    }
                }
            }
            let mut refusals = Refusals::new(rejections, seat);
            for (k, (key, _)) in entries.iter().enumerate() {
                if !used[k] {
                    refusals.push(kind::UNKNOWN_UID, || {
                        format!("{} is not one of your shipyards; ignored", key.describe())
                    });
                }
            }
            drop(refusals);
            if let Some(why) = raised {
                self.seats.disqualify(seat, Status::Error);
                for (i, s) in self.shipyards.iter().enumerate() {
                    if s.owner == seat {
                        orders[i] = None;
                    }
                }
                rejections.push(Rejection {
                    seat,
                    kind: kind::AGENT_ERROR.into(),
                    reason: format!(
                        "{why}; the reference engine fails on this answer, so the seat is out \
                         of the game (ERROR) and its fleets and shipyards are removed"
                    ),
                });
            }
        }
        orders
    }

    /// Phase 1, for one seat: each of its shipyards, in order, spawns (if its
    /// kore and its spawn cap allow) or launches a fleet on the shipyard's
    /// cell, the plan cut to the fleet's maximum length; then every
    /// shipyard of the seat has been controlled one turn longer. `orders`
    /// is indexed like [`Kore::shipyards`] (what [`Kore::read_orders`] gives).
    #[doc(hidden)]
    pub fn spawn_and_launch(
        &mut self,
        seat: Seat,
        orders: &[Option<Order>],
        rejections: &mut Vec<Rejection>,
    ) {
        let mut refusals = Refusals::new(rejections, seat);
        for (i, order) in orders.iter().enumerate() {
            let Some(order) = order else { continue };
            if self.shipyards[i].owner != seat || !self.shipyards[i].alive {
                continue;
            }
            match order {
                Order::Spawn(n) => self.spawn(i, n.magnitude, &mut refusals),
                Order::Launch(n, plan) => self.launch(i, *n, plan, &mut refusals),
            }
        }
        for s in &mut self.shipyards {
            if s.owner == seat && s.alive {
                s.turns_controlled += 1;
            }
        }
    }

    /// `SPAWN_n` at shipyard `i`: `n` ships for `spawnCost` each, if the
    /// player has the kore and `n` is within the spawn cap.
    fn spawn(&mut self, i: usize, n: u64, refusals: &mut Refusals<'_>) {
        if n == 0 {
            return;
        }
        let seat = self.shipyards[i].owner;
        let cap = max_spawn(self.shipyards[i].turns_controlled);
        let cost = (n <= cap).then(|| self.config.spawn_cost * Num::Int(n as i64));
        match cost {
            Some(cost) if self.kore[seat] >= cost => {
                self.kore[seat] = self.kore[seat] - cost;
                self.shipyards[i].ships += n as i64;
            }
            _ => {
                let (uid, kore) = (self.shipyards[i].uid, self.kore[seat]);
                refusals.push(kind::SPAWN_REFUSED, || {
                    format!(
                        "{uid}: cannot spawn {n} ships (spawn cap {cap}, kore {kore:?}); ignored"
                    )
                })
            }
        }
    }

    /// `LAUNCH_n_PLAN` at shipyard `i`: a fleet of `n` ships on its cell,
    /// flying the plan cut to what `n` ships may fly.
    fn launch(&mut self, i: usize, n: u64, plan: &str, refusals: &mut Refusals<'_>) {
        let s = &self.shipyards[i];
        if s.ships < 0 || (s.ships as u64) < n {
            let (uid, ships) = (s.uid, s.ships);
            refusals.push(kind::LAUNCH_REFUSED, || {
                format!("{uid}: cannot launch {n} ships from {ships}; ignored")
            });
            return;
        }
        let (seat, pos) = (s.owner, s.pos);
        self.shipyards[i].ships -= n as i64;
        let plan = &plan[..plan.len().min(max_flight_plan_len(n))];
        let dir = plan
            .bytes()
            .next()
            .and_then(Dir::from_char)
            .unwrap_or(Dir::North);
        let uid = self.new_uids.next(self.step);
        self.fleets
            .push(Fleet::new(uid, seat, pos, Num::Int(0), n as i64, dir, plan));
    }

    /// Phase 2, for one seat's fleets (those launched this turn too): drop
    /// leading zeros; a plan starting with `C` on a fleet of at least
    /// `convertCost` ships, on a cell without a shipyard, converts the fleet
    /// (its kore to the player, the cell's kore destroyed); otherwise skip
    /// `C`s, then turn on a letter or count a number down by one.
    #[doc(hidden)]
    pub fn follow_flight_plans(&mut self, seat: Seat) {
        for i in 0..self.fleets.len() {
            if self.fleets[i].owner != seat || !self.fleets[i].alive {
                continue;
            }
            let skip = self.fleets[i]
                .plan
                .bytes()
                .take_while(|&b| b == b'0')
                .count();
            self.fleets[i].plan.drain(..skip);
            let f = &self.fleets[i];
            if f.plan.starts_with('C')
                && f.ships >= self.config.convert_cost
                && !self.shipyard_at.is_taken(f.pos)
            {
                let (pos, ships, kore) = (f.pos, f.ships, f.kore);
                self.kore[seat] = self.kore[seat] + kore;
                self.fleets[i].alive = false;
                self.add_shipyard(seat, pos, ships - self.config.convert_cost, 0);
                continue;
            }
            let f = &mut self.fleets[i];
            let skip = f.plan.bytes().take_while(|&b| b == b'C').count();
            f.plan.drain(..skip);
            if let Some(&first) = f.plan.as_bytes().first() {
                if let Some(dir) = Dir::from_char(first) {
                    f.dir = dir;
                    f.plan.remove(0);
                } else {
                    let end = f
                        .plan
                        .bytes()
                        .position(|b| !b.is_ascii_digit())
                        .unwrap_or(f.plan.len());
                    let rest = f.plan.split_off(end);
                    f.plan = match decrement_digits(&f.plan) {
                        Some(left) => left + &rest,
                        None => rest,
                    };
                }
            }
        }
    }

    /// Phase 3, for one seat: each of its fleets moves one cell in its
    /// direction.
    #[doc(hidden)]
    pub fn move_fleets(&mut self, seat: Seat) {
        let size = self.config.size;
        for f in &mut self.fleets {
            if f.owner == seat && f.alive {
                f.pos = f.dir.step(f.pos, size);
            }
        }
    }

    /// Phase 4, for one seat: its fleets on one cell merge into the largest
    /// (most ships, then most kore, then the lower direction index), which
    /// takes their ships and kore and keeps its plan.
    #[doc(hidden)]
    pub fn coalesce_allied_fleets(&mut self, seat: Seat) {
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut group_of: Vec<(usize, usize)> = Vec::new(); // (cell, group)
        for i in 0..self.fleets.len() {
            let f = &self.fleets[i];
            if f.owner != seat || !f.alive {
                continue;
            }
            match group_of.iter().find(|(cell, _)| *cell == f.pos) {
                Some(&(_, g)) => groups[g].push(i),
                None => {
                    group_of.push((f.pos, groups.len()));
                    groups.push(vec![i]);
                }
            }
        }
        for mut group in groups {
            if group.len() < 2 {
                continue;
            }
            // Upstream: sort(key=(ships, kore, -direction), reverse=True), stable.
            group.sort_by(|&a, &b| {
                let (fa, fb) = (&self.fleets[a], &self.fleets[b]);
                fb.ships
                    .cmp(&fa.ships)
                    .then(fb.kore.cmp_num(fa.kore))
                    .then(fa.dir.index().cmp(&fb.dir.index()))
            });
            let keep = group[0];
            for &other in &group[1..] {
                let (kore, ships) = (self.fleets[other].kore, self.fleets[other].ships);
                self.fleets[other].alive = false;
                let k = &mut self.fleets[keep];
                k.kore = k.kore + kore;
                k.ships += ships;
            }
        }
    }

    /// Phase 5: fleets of different players on one cell. The one with the
    /// most ships survives, losing as many ships as the next largest had, and
    /// takes every loser's kore; on a tie for most ships all are destroyed and
    /// their kore goes to the shipyard's owner there, or onto the cell.
    #[doc(hidden)]
    pub fn resolve_fleet_collisions(&mut self) {
        self.fleet_at.clear_all();
        // Cells in the order their first fleet comes.
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut group_at: Vec<u32> = vec![0; self.cells.len()];
        for (i, f) in self.fleets.iter().enumerate() {
            if !f.alive {
                continue;
            }
            match group_at[f.pos] {
                0 => {
                    groups.push(vec![i]);
                    group_at[f.pos] = groups.len() as u32;
                }
                g => groups[g as usize - 1].push(i),
            }
        }
        for group in groups {
            let pos = self.fleets[group[0]].pos;
            if group.len() == 1 {
                self.fleet_at.set(pos, group[0]);
                continue;
            }
            let most = group
                .iter()
                .map(|&i| self.fleets[i].ships)
                .max()
                .unwrap_or(0);
            let largest: Vec<usize> = group
                .iter()
                .copied()
                .filter(|&i| self.fleets[i].ships == most)
                .collect();
            if largest.len() == 1 {
                let winner = largest[0];
                self.fleet_at.set(pos, winner);
                let second = group
                    .iter()
                    .filter(|&&i| i != winner)
                    .map(|&i| self.fleets[i].ships)
                    .max()
                    .unwrap_or(0);
                self.fleets[winner].ships -= second;
                for &i in &group {
                    if i == winner {
                        continue;
                    }
                    self.fleets[i].alive = false;
                    let kore = self.fleets[i].kore;
                    let w = &mut self.fleets[winner];
                    w.kore = w.kore + kore;
                }
            } else {
                let shipyard_owner = self.shipyard_at.get(pos).map(|s| self.shipyards[s].owner);
                for &i in &group {
                    self.fleets[i].alive = false;
                    let kore = self.fleets[i].kore;
                    match shipyard_owner {
                        Some(owner) => self.kore[owner] = self.kore[owner] + kore,
                        None => self.cells[pos] = self.cells[pos] + kore,
                    }
                }
            }
        }
    }

    /// Phase 6: an enemy fleet on a shipyard. With more ships it captures the
    /// shipyard (a new one, its surplus ships aboard, one turn controlled) and
    /// its player takes the fleet's kore; otherwise the shipyard loses as many
    /// ships and its owner takes the kore.
    #[doc(hidden)]
    pub fn resolve_shipyard_collisions(&mut self) {
        for s in 0..self.shipyards.len() {
            let sy = &self.shipyards[s];
            if !sy.alive {
                continue;
            }
            let Some(f) = self.fleet_at.get(sy.pos) else {
                continue;
            };
            let fleet = &self.fleets[f];
            if fleet.owner == sy.owner {
                continue;
            }
            let (attacker, ships, kore, pos) = (fleet.owner, fleet.ships, fleet.kore, sy.pos);
            if ships > sy.ships {
                let surplus = ships - sy.ships;
                self.shipyards[s].alive = false;
                self.shipyard_at.clear(pos);
                self.add_shipyard(attacker, pos, surplus, 1);
                self.kore[attacker] = self.kore[attacker] + kore;
            } else {
                let owner = sy.owner;
                self.shipyards[s].ships -= ships;
                self.kore[owner] = self.kore[owner] + kore;
            }
            self.delete_fleet(f);
        }
    }

    /// Phase 7: a fleet on its own player's shipyard docks: ships to the
    /// shipyard, kore to the player.
    #[doc(hidden)]
    pub fn deposit_at_own_shipyards(&mut self) {
        for s in 0..self.shipyards.len() {
            let sy = &self.shipyards[s];
            if !sy.alive {
                continue;
            }
            let Some(f) = self.fleet_at.get(sy.pos) else {
                continue;
            };
            if self.fleets[f].owner != sy.owner {
                continue;
            }
            let (owner, ships, kore) = (sy.owner, self.fleets[f].ships, self.fleets[f].kore);
            self.kore[owner] = self.kore[owner] + kore;
            self.shipyards[s].ships += ships;
            self.delete_fleet(f);
        }
    }

    /// Phase 8: every fleet deals its ship count as damage to each enemy
    /// fleet orthogonally next to it (counts taken before any damage). A
    /// fleet taking at least its ship count is destroyed: half its kore
    /// drops on its cell, half goes to its attackers in proportion to their
    /// damage, or onto the cell for attackers that did not survive.
    #[doc(hidden)]
    pub fn damage_adjacent_fleets(&mut self) {
        // victim -> [(attacker, damage)], both in first-insertion order.
        let mut incoming: Vec<(usize, Vec<(usize, i64)>)> = Vec::new();
        for a in 0..self.fleets.len() {
            let fa = &self.fleets[a];
            if !fa.alive {
                continue;
            }
            for dir in Dir::ALL {
                let Some(v) = self.fleet_at.get(self.neighbour(fa.pos, dir)) else {
                    continue;
                };
                if self.fleets[v].owner == fa.owner {
                    continue;
                }
                let slot = match incoming.iter().position(|(victim, _)| *victim == v) {
                    Some(k) => k,
                    None => {
                        incoming.push((v, Vec::new()));
                        incoming.len() - 1
                    }
                };
                let attackers = &mut incoming[slot].1;
                match attackers.iter_mut().find(|(x, _)| *x == a) {
                    Some(entry) => entry.1 = fa.ships,
                    None => attackers.push((a, fa.ships)),
                }
            }
        }
        // attacker -> [(cell, kore)], in first-insertion order.
        let mut shares: Vec<(usize, Vec<(usize, Num)>)> = Vec::new();
        for (v, attackers) in &incoming {
            let damage: i64 = attackers.iter().map(|(_, d)| d).sum();
            let victim = &self.fleets[*v];
            if damage >= victim.ships {
                let pos = victim.pos;
                let half = victim.kore / Num::Int(2);
                self.cells[pos] = self.cells[pos] + half;
                for &(a, dmg) in attackers {
                    let share = half * Num::Int(dmg) / Num::Int(damage);
                    let slot = match shares.iter().position(|(x, _)| *x == a) {
                        Some(k) => k,
                        None => {
                            shares.push((a, Vec::new()));
                            shares.len() - 1
                        }
                    };
                    match shares[slot].1.iter_mut().find(|(cell, _)| *cell == pos) {
                        Some(entry) => entry.1 = share,
                        None => shares[slot].1.push((pos, share)),
                    }
                }
                self.delete_fleet(*v);
            } else {
                self.fleets[*v].ships -= damage;
            }
        }
        for (a, by_cell) in shares {
            if self.fleets[a].alive {
                // Python's sum() starts from the int 0.
                let total = by_cell
                    .iter()
                    .fold(Num::Int(0), |acc, (_, kore)| acc + *kore);
                let f = &mut self.fleets[a];
                f.kore = f.kore + total;
            } else {
                for (cell, kore) in by_cell {
                    self.cells[cell] = self.cells[cell] + kore;
                }
            }
        }
    }

    /// Phase 9: every fleet mines round(cell kore × min(ln ships / 20, 0.99), 3).
    #[doc(hidden)]
    pub fn mine_kore(&mut self) {
        for f in &mut self.fleets {
            if !f.alive {
                continue;
            }
            let cell = &mut self.cells[f.pos];
            let delta = round3(cell.to_f64() * collection_rate(f.ships).min(0.99));
            if delta > 0.0 {
                f.kore = f.kore + Num::Float(delta);
                *cell = *cell - Num::Float(delta);
            }
        }
    }

    /// Phase 10: every cell with neither fleet nor shipyard and less than
    /// `maxRegenCellKore` grows to round(kore × (1 + regenRate), 3).
    #[doc(hidden)]
    pub fn regenerate_kore(&mut self) {
        let factor = Num::Int(1) + self.config.regen_rate;
        let cap = Num::Int(self.config.max_regen_cell_kore);
        for (i, cell) in self.cells.iter_mut().enumerate() {
            if self.fleet_at.is_taken(i) || self.shipyard_at.is_taken(i) {
                continue;
            }
            if *cell < cap {
                *cell = (*cell * factor).round3();
            }
        }
    }

    /// Phase 11: the step ends. Errored seats lose everything; a seat with no
    /// shipyard and no fleet is out (reward step − episodeSteps − 1); with
    /// fewer than two seats playing the game ends (the survivor's reward is
    /// left as it was); rewards are the kore held; at the last step everyone
    /// still playing is done.
    #[doc(hidden)]
    pub fn end_turn(&mut self) {
        self.step += 1;
        self.fleets.retain(|f| f.alive);
        self.shipyards.retain(|s| s.alive);
        // Upstream rebuilds its board player by player every turn.
        self.fleets.sort_by_key(|f| f.owner);
        self.shipyards.sort_by_key(|s| s.owner);
        for seat in 0..self.players {
            let has_shipyard = self.shipyards.iter().any(|s| s.owner == seat);
            let has_fleet = self.fleets.iter().any(|f| f.owner == seat);
            if self.seats.is_active(seat) && !has_shipyard && !has_fleet {
                self.seats
                    .knock_out(seat, self.step, self.config.episode_steps);
            }
            if self.seats.status(seat) == Status::Error {
                self.kore[seat] = Num::Int(0);
                self.fleets.retain(|f| f.owner != seat);
                self.shipyards.retain(|s| s.owner != seat);
            }
        }
        self.index_cells();
        self.seats.end_if_fewer_than_two_active();
        self.seats.update_rewards(&self.kore);
        self.seats
            .end_at_step_limit(self.step, self.config.episode_steps);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_count_down_exactly() {
        assert_eq!(decrement_digits("10").as_deref(), Some("9"));
        assert_eq!(decrement_digits("2").as_deref(), Some("1"));
        assert_eq!(decrement_digits("1"), None);
        assert_eq!(decrement_digits("0"), None);
        assert_eq!(decrement_digits("00"), None);
        assert_eq!(decrement_digits("05").as_deref(), Some("4"));
        assert_eq!(
            decrement_digits("100000000000000000000000").as_deref(),
            Some("99999999999999999999999")
        );
    }

    #[test]
    fn spawn_caps_follow_turns_controlled() {
        let caps: Vec<u64> = [
            0, 1, 2, 6, 7, 16, 17, 33, 34, 59, 60, 96, 97, 146, 147, 211, 212, 293, 294, 1000,
        ]
        .iter()
        .map(|&t| max_spawn(t))
        .collect();
        assert_eq!(
            caps,
            [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10]
        );
    }

    #[test]
    fn plan_lengths() {
        let lens: Vec<usize> = [1, 2, 3, 5, 8, 13, 21, 34, 55, 91]
            .iter()
            .map(|&n| max_flight_plan_len(n))
            .collect();
        assert_eq!(lens, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    }
}
