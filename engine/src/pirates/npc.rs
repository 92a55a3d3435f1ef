//! The two NPCs. After every fourth seat's move, each NPC still in the game
//! acts once, NPC 5 before NPC 6:
//!
//! 1. [it chooses whom to chase](Pirates::npc_choose_target): the ship it
//!    chases while that ship is within its sight, else the nearest ship it
//!    sees;
//! 2. it [fires](Pirates::npc_fire) at that ship when in range, or
//!    [sails one field towards it](Pirates::npc_chase); with no ship to
//!    chase it [returns to its ring](Pirates::npc_return) by the shortest
//!    way, or [circles](Pirates::npc_circle) on it, clockwise.
//!
//! NPCs sail only on open water: never onto an island, a vortex or a ship.

use std::collections::VecDeque;

use super::hex::{Dir, FIELDS};
use super::{Hex, Pirates, Terrain, ATTACK_RANGE, NPC_CANNONS, NPC_SIGHT, PLAYERS};
use crate::Seat;

impl Pirates {
    /// Each NPC still in the game acts once, unless the game ends first.
    pub fn npcs_act(&mut self) {
        for k in 0..self.npcs.len() {
            if self.afloat() <= 1 {
                return;
            }
            if !self.npcs[k].alive {
                continue;
            }
            self.npcs[k].fired_at = None;
            self.npc_choose_target(k);
            let npc = &self.npcs[k];
            match npc.target {
                Some(s) if npc.pos.distance(self.ships[s].pos) <= ATTACK_RANGE => {
                    self.npc_fire(k, s)
                }
                Some(s) => self.npc_chase(k, s),
                None if npc.pos.length() != self.map.npc_ring => self.npc_return(k),
                None => self.npc_circle(k),
            }
        }
    }

    /// Keeps the ship it chases while that ship is afloat and within its
    /// sight (4 fields); otherwise the ship escaped, and it takes the
    /// nearest ship it sees (the one with less health on a tie, then the
    /// lower seat), or none.
    pub fn npc_choose_target(&mut self, k: usize) {
        let at = self.npcs[k].pos;
        let seen = |s: Seat| {
            let ship = &self.ships[s];
            ship.alive() && ship.pos.distance(at) <= NPC_SIGHT
        };
        let target = self.npcs[k].target.filter(|&s| seen(s)).or_else(|| {
            (0..PLAYERS)
                .filter(|&s| seen(s))
                .min_by_key(|&s| (self.ships[s].pos.distance(at), self.ships[s].health, s))
        });
        self.npcs[k].target = target;
    }

    /// Fires at the ship of `seat`: it loses 50 health. Nobody gets gold
    /// for a ship an NPC sinks.
    pub fn npc_fire(&mut self, k: usize, seat: Seat) {
        self.damage_ship(seat, NPC_CANNONS, None);
        self.npcs[k].fired_at = Some(seat);
    }

    /// One field along a shortest way to a field within range of the ship
    /// of `seat`.
    pub fn npc_chase(&mut self, k: usize, seat: Seat) {
        let prey = self.ships[seat].pos;
        self.npc_sail_towards(k, |h| h.distance(prey) <= ATTACK_RANGE);
    }

    /// One field along a shortest way back to its ring.
    pub fn npc_return(&mut self, k: usize) {
        let ring = self.map.npc_ring;
        self.npc_sail_towards(k, |h| h.length() == ring);
    }

    /// One field clockwise round its ring; it waits while a ship is there.
    pub fn npc_circle(&mut self, k: usize) {
        let at = self.npcs[k].pos;
        let Some(i) = self.ring.iter().position(|&h| h == at) else {
            return;
        };
        let next = self.ring[(i + 1) % self.ring.len()];
        if !self.occupied(next) {
            self.npcs[k].pos = next;
        }
    }

    /// Moves NPC `k` one field along a shortest way (over open water
    /// without ships) to a field where `goal` holds; it stays where it is
    /// when it is there already or no way leads there. Of equal ways, the
    /// first step in the order `nw`, `ne`, `e`, `se`, `sw`, `w`.
    fn npc_sail_towards(&mut self, k: usize, goal: impl Fn(Hex) -> bool) {
        let from = self.npcs[k].pos;
        if goal(from) {
            return;
        }
        let open = |h: Hex| self.terrain(h) == Terrain::Water && !self.occupied(h);
        let mut first: Vec<Option<Dir>> = vec![None; FIELDS];
        let mut queue = VecDeque::new();
        for d in Dir::ALL {
            let n = from.step(d);
            if n.on_sea() && open(n) && first[n.index()].is_none() {
                first[n.index()] = Some(d);
                queue.push_back(n);
            }
        }
        while let Some(h) = queue.pop_front() {
            let step = first[h.index()];
            if goal(h) {
                if let Some(d) = step {
                    self.npcs[k].pos = from.step(d);
                }
                return;
            }
            for n in h.neighbours() {
                if n != from && first[n.index()].is_none() && open(n) {
                    first[n.index()] = step;
                    queue.push_back(n);
                }
            }
        }
    }
}
