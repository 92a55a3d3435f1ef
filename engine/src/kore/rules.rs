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

/// Positions `0..n` of a list of fleet indices, grouped by fleet in the
/// order each fleet first comes (a Python dict's order), in list order
/// within a group, each as (the group's first position, the position);
/// `first` is a scratch of one `usize::MAX` per fleet.
fn in_order_of_first(
    first: &mut [usize],
    fleets: impl Iterator<Item = usize>,
) -> Vec<(usize, usize)> {
    let mut order: Vec<(usize, usize)> = fleets
        .enumerate()
        .map(|(k, fleet)| {
            if first[fleet] == usize::MAX {
                first[fleet] = k;
            }
            (first[fleet], k)
        })
        .collect();
    order.sort_unstable();
    order
}

/// The step of a plan once conversion is ruled out: `C`s are skipped, then
/// a letter turns the fleet (the new direction is returned) or the number
/// the plan starts with counts down by one. In place: a plan is at most a
/// few dozen characters and changes every turn for every fleet.
fn next_heading(plan: &mut String) -> Option<Dir> {
    let mut bytes = std::mem::take(plan).into_bytes();
    let skip = bytes.iter().take_while(|&&b| b == b'C').count();
    bytes.drain(..skip);
    let mut turn = None;
    if let Some(&first) = bytes.first() {
        turn = Dir::from_char(first);
        if turn.is_some() {
            bytes.remove(0);
        } else {
            count_down(&mut bytes);
        }
    }
    *plan =
        String::from_utf8(bytes).expect("only ASCII letters and digits were taken out or changed");
    turn
}

/// Replaces the run of digits `plan` starts with by `str(int(run) - 1)`,
/// exactly whatever its length, or removes it when that is 0 or less.
fn count_down(plan: &mut Vec<u8>) {
    let end = plan
        .iter()
        .position(|b| !b.is_ascii_digit())
        .unwrap_or(plan.len());
    let run = &mut plan[..end];
    // Subtract one with a borrow: the last non-zero digit loses one, the
    // zeros after it become nines.
    if let Some(last) = run.iter().rposition(|&b| b != b'0') {
        run[last] -= 1;
        run[last + 1..].fill(b'9');
    }
    // An all-zero run (0 - 1 < 0, or 1 - 1 = 0) goes; otherwise only its
    // leading zeros do.
    let zeros = run.iter().take_while(|&&b| b == b'0').count();
    plan.drain(..zeros);
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
        // Every shipyard by uid, for the answers' keys.
        let mut by_uid: Vec<(Uid, usize)> = self
            .shipyards
            .iter()
            .enumerate()
            .map(|(i, s)| (s.uid, i))
            .collect();
        by_uid.sort_unstable();
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
            // The first shipyard, in upstream's order, whose order raises.
            let mut raised: Option<(usize, String)> = None;
            let mut refusals = Refusals::new(rejections, seat);
            for (key, value) in &entries {
                let yard = key
                    .as_str()
                    .and_then(Uid::parse)
                    .and_then(|uid| by_uid.binary_search_by(|(u, _)| u.cmp(&uid)).ok())
                    .map(|k| by_uid[k].1)
                    .filter(|&i| self.shipyards[i].owner == seat);
                let Some(i) = yard else {
                    refusals.push(kind::UNKNOWN_UID, || {
                        format!("{} is not one of your shipyards; ignored", key.describe())
                    });
                    continue;
                };
                let uid = self.shipyards[i].uid;
                let why = match read_value(value) {
                    Reading::Nothing => None,
                    Reading::Order(order) => {
                        let overflows = match &order {
                            // `spawn_cost * n` with a float cost: float(n) overflows.
                            Order::Spawn(n) => {
                                !n.is_zero()
                                    && n.float_overflows
                                    && !self.config.spawn_cost.is_int()
                            }
                            Order::Launch(..) => false,
                        };
                        orders[i] = Some(order);
                        overflows.then(|| {
                            format!(
                                "{uid}: too many ships to multiply by the float spawnCost \
                                 (upstream: OverflowError)"
                            )
                        })
                    }
                    Reading::Raises(why) => Some(format!("{uid}: {why}")),
                };
                if let Some(why) = why {
                    if raised.as_ref().is_none_or(|(first, _)| i < *first) {
                        raised = Some((i, why));
                    }
                }
            }
            drop(refusals);
            if let Some((_, why)) = raised {
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
        // Python's plan[:max], by characters.
        let plan = match plan.char_indices().nth(max_flight_plan_len(n)) {
            Some((cut, _)) => &plan[..cut],
            None => plan,
        };
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
            if let Some(dir) = next_heading(&mut f.plan) {
                f.dir = dir;
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
        // The seat's fleets by cell, each cell's in board order.
        let mut by_cell: Vec<(usize, usize)> = Vec::with_capacity(self.fleets.len());
        by_cell.extend(
            self.fleets
                .iter()
                .enumerate()
                .filter(|(_, f)| f.owner == seat && f.alive)
                .map(|(i, f)| (f.pos, i)),
        );
        by_cell.sort_unstable();
        for group in by_cell.chunk_by_mut(|a, b| a.0 == b.0) {
            if group.len() < 2 {
                continue;
            }
            // Upstream: sort(key=(ships, kore, -direction), reverse=True), stable.
            group.sort_by(|&(_, a), &(_, b)| {
                let (fa, fb) = (&self.fleets[a], &self.fleets[b]);
                fb.ships
                    .cmp(&fa.ships)
                    .then(fb.kore.cmp_num(fa.kore))
                    .then(fa.dir.index().cmp(&fb.dir.index()))
            });
            let keep = group[0].1;
            for &(_, other) in &group[1..] {
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
        // Each cell's first fleet; the cells where more come, in the order
        // of their first fleet, as upstream groups them (which orders the
        // sums into a shipyard owner's kore).
        self.fleet_at.clear_all();
        let mut crowded: Vec<(usize, usize)> = Vec::new();
        for (i, f) in self.fleets.iter().enumerate() {
            if !f.alive {
                continue;
            }
            match self.fleet_at.get(f.pos) {
                None => self.fleet_at.set(f.pos, i),
                Some(first) if !crowded.contains(&(first, f.pos)) => crowded.push((first, f.pos)),
                Some(_) => {}
            }
        }
        crowded.sort_unstable();
        for (_, pos) in crowded {
            let group: Vec<usize> = (0..self.fleets.len())
                .filter(|&i| self.fleets[i].alive && self.fleets[i].pos == pos)
                .collect();
            let most = group
                .iter()
                .map(|&i| self.fleets[i].ships)
                .max()
                .unwrap_or(0);
            let mut largest = group.iter().filter(|&&i| self.fleets[i].ships == most);
            match (largest.next(), largest.next()) {
                (Some(&winner), None) => {
                    self.fleet_at.set(pos, winner);
                    let losers = group.iter().copied().filter(|&i| i != winner);
                    let second = losers
                        .clone()
                        .map(|i| self.fleets[i].ships)
                        .max()
                        .unwrap_or(0);
                    self.fleets[winner].ships -= second;
                    for i in losers {
                        self.fleets[i].alive = false;
                        let kore = self.fleets[i].kore;
                        let w = &mut self.fleets[winner];
                        w.kore = w.kore + kore;
                    }
                }
                _ => {
                    self.fleet_at.clear(pos);
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
        // (victim, attacker, damage) in the order upstream fills its dict of
        // dicts: attackers in board order, directions N, E, S, W. A victim
        // meets an attacker from one side only.
        let mut hits: Vec<(usize, usize, i64)> = Vec::new();
        for (a, fa) in self.fleets.iter().enumerate() {
            if !fa.alive {
                continue;
            }
            for dir in Dir::ALL {
                if let Some(v) = self.fleet_at.get(self.neighbour(fa.pos, dir)) {
                    if self.fleets[v].owner != fa.owner {
                        hits.push((v, a, fa.ships));
                    }
                }
            }
        }
        if hits.is_empty() {
            return;
        }
        // Victims in the order of their first hit, each one's attackers in
        // order (upstream iterates its dict so).
        let mut first = vec![usize::MAX; self.fleets.len()];
        let order = in_order_of_first(&mut first, hits.iter().map(|h| h.0));
        // (attacker, cell, kore) of the kore killed victims leave their
        // attackers, in upstream's order.
        let mut shares: Vec<(usize, usize, Num)> = Vec::new();
        for victim_hits in order.chunk_by(|a, b| a.0 == b.0) {
            let v = hits[victim_hits[0].1].0;
            let damage: i64 = victim_hits.iter().map(|&(_, k)| hits[k].2).sum();
            let victim = &self.fleets[v];
            if damage >= victim.ships {
                let pos = victim.pos;
                let half = victim.kore / Num::Int(2);
                self.cells[pos] = self.cells[pos] + half;
                for &(_, k) in victim_hits {
                    let (_, a, dmg) = hits[k];
                    shares.push((a, pos, half * Num::Int(dmg) / Num::Int(damage)));
                }
                self.delete_fleet(v);
            } else {
                self.fleets[v].ships -= damage;
            }
        }
        // Per attacker, in the order of its first share: a survivor takes
        // the sum (Python's sum() starts from the int 0), a dead attacker's
        // shares drop on the victims' cells.
        first.fill(usize::MAX);
        let by_attacker = in_order_of_first(&mut first, shares.iter().map(|s| s.0));
        for attacker_shares in by_attacker.chunk_by(|a, b| a.0 == b.0) {
            let a = shares[attacker_shares[0].1].0;
            if self.fleets[a].alive {
                let total = attacker_shares
                    .iter()
                    .fold(Num::Int(0), |acc, &(_, k)| acc + shares[k].2);
                let f = &mut self.fleets[a];
                f.kore = f.kore + total;
            } else {
                for &(_, k) in attacker_shares {
                    let (_, cell, kore) = shares[k];
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
        let taken = self
            .fleet_at
            .taken_cells()
            .zip(self.shipyard_at.taken_cells());
        for (cell, (fleet, shipyard)) in self.cells.iter_mut().zip(taken) {
            if fleet || shipyard {
                continue;
            }
            // round(0.0 × factor, 3) is the float 0.0 again; many cells
            // hold it (an int 0 still turns into it).
            if matches!(cell, Num::Float(f) if f.to_bits() == 0) {
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
        // Upstream rebuilds its board player by player every turn (stable
        // sorts, only needed when a seat made something after a later
        // seat's assets).
        if !self.fleets.is_sorted_by_key(|f| f.owner) {
            self.fleets.sort_by_key(|f| f.owner);
        }
        if !self.shipyards.is_sorted_by_key(|s| s.owner) {
            self.shipyards.sort_by_key(|s| s.owner);
        }
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
        let next = |plan: &str| {
            let mut plan = plan.to_string();
            let turn = next_heading(&mut plan);
            (turn, plan)
        };
        let counted = |plan: &str| next(plan).1;
        assert_eq!(counted("10E"), "9E");
        assert_eq!(counted("2"), "1");
        assert_eq!(counted("1N"), "N");
        assert_eq!(counted("0"), "");
        assert_eq!(counted("00S"), "S");
        assert_eq!(counted("05"), "4");
        assert_eq!(counted("C10"), "9");
        assert_eq!(
            counted("100000000000000000000000W"),
            "99999999999999999999999W"
        );
        assert_eq!(next("CCS3"), (Some(Dir::South), "3".to_string()));
        assert_eq!(next(""), (None, String::new()));
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
