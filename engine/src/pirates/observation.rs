//! What a seat sees: its own ship, the map, the flag, the other players'
//! ships as `player1` to `player4` and the NPCs as `npc1` and `npc2` while
//! they are within its sight (the rule book's "how many fields the avatar
//! can see"; `null` otherwise), and its legal actions; and, for spectators,
//! every ship. Written straight into the caller's reused `String`.

use std::fmt::Write;

use super::hex::{Hex, RADIUS};
use super::{Map, Npc, Pirates, Ship, NPC_CANNONS, NPC_HEALTH, NPC_IDS, NPC_SIGHT, SIGHT};
use crate::Seat;

/// The map's part of an observation: `"map":{...}`, the same every move.
pub(super) fn map_json(map: &Map) -> String {
    let mut out = String::with_capacity(4096);
    let _ = write!(out, "\"map\":{{\"radius\":{RADIUS},\"islands\":");
    write_fields(&mut out, &map.islands);
    out.push_str(",\"shops\":");
    write_fields(&mut out, &map.shops);
    out.push_str(",\"flagIslands\":");
    write_fields(&mut out, &map.flag_islands);
    out.push_str(",\"vortices\":");
    write_fields(&mut out, &map.vortices);
    let _ = write!(out, ",\"npcRing\":{}}}", map.npc_ring);
    out
}

fn write_fields(out: &mut String, fields: &[Hex]) {
    out.push('[');
    for (k, h) in fields.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        let _ = write!(out, "[{},{},{}]", h.q, h.r, h.s());
    }
    out.push(']');
}

fn write_at(out: &mut String, h: Hex) {
    let _ = write!(out, "\"q\":{},\"r\":{},\"s\":{}", h.q, h.r, h.s());
}

fn write_id(out: &mut String, id: Option<u64>) {
    match id {
        None => out.push_str("null"),
        Some(id) => {
            let _ = write!(out, "{id}");
        }
    }
}

impl Pirates {
    /// Whether the ship of `seat` sees the field `at`: it is afloat and
    /// `at` is within its sight. A sunk ship sees nothing.
    pub fn sees(&self, seat: Seat, at: Hex) -> bool {
        let me = &self.ships[seat];
        me.alive() && me.pos.distance(at) <= SIGHT
    }

    /// Whether `seat` sees the ship of `other`: its own always, another
    /// while it is afloat and in sight.
    pub fn sees_ship(&self, seat: Seat, other: Seat) -> bool {
        let ship = &self.ships[other];
        other == seat || (ship.alive() && self.sees(seat, ship.pos))
    }

    /// Whether `seat` sees NPC `k`: while it is afloat and in sight.
    pub fn sees_npc(&self, seat: Seat, k: usize) -> bool {
        self.npcs[k].alive && self.sees(seat, self.npcs[k].pos)
    }

    /// `{"move":..,"movesLeft":..,` `"yourId":..,` for a seat, `"toMove":..`.
    fn write_counters(&self, out: &mut String, seat: Option<Seat>) {
        out.clear();
        let _ = write!(
            out,
            "{{\"move\":{},\"movesLeft\":{},",
            self.moves,
            self.max_moves.saturating_sub(self.moves)
        );
        if let Some(seat) = seat {
            let _ = write!(out, "\"yourId\":{},", seat + 1);
        }
        let _ = write!(out, "\"toMove\":{}", self.to_move() + 1);
    }

    pub(crate) fn write_observation(&self, seat: Seat, out: &mut String) {
        self.write_counters(out, Some(seat));
        out.push(',');
        out.push_str(&self.map_json);
        out.push_str(",\"flag\":{");
        write_at(out, self.flag);
        out.push('}');
        self.write_sea(out, |s| self.sees_ship(seat, s), |k| self.sees_npc(seat, k));
        out.push_str(",\"legalActions\":[");
        for (k, a) in self.legal_actions(seat).into_iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            let _ = write!(out, "\"{}\"", a.name());
        }
        out.push_str("]}");
    }

    /// The whole state but the map, for spectators: every ship (a sunk one
    /// with 0 health), every NPC afloat and whom it chases and fired at.
    pub(crate) fn write_spectator(&self, out: &mut String) {
        self.write_counters(out, None);
        out.push_str(",\"flag\":{");
        write_at(out, self.flag);
        out.push('}');
        self.write_sea(out, |_| true, |k| self.npcs[k].alive);
        out.push('}');
    }

    /// `player1` to `player4`, `npc1`, `npc2` (`null` where not `ship_seen`
    /// or `npc_seen`) and `eliminated`. An NPC names (`chasing`, `firedAt`)
    /// only a ship that is seen: naming another would tell where it is.
    fn write_sea(
        &self,
        out: &mut String,
        ship_seen: impl Fn(Seat) -> bool,
        npc_seen: impl Fn(usize) -> bool,
    ) {
        for (s, ship) in self.ships.iter().enumerate() {
            let _ = write!(out, ",\"player{}\":", s + 1);
            if ship_seen(s) {
                write_ship(out, s, ship);
            } else {
                out.push_str("null");
            }
        }
        let named = |s: Option<Seat>| s.filter(|&s| ship_seen(s)).map(|s| s as u64 + 1);
        for (k, npc) in self.npcs.iter().enumerate() {
            let _ = write!(out, ",\"npc{}\":", k + 1);
            if npc_seen(k) {
                write_npc(out, k, npc, named(npc.target), named(npc.fired_at));
            } else {
                out.push_str("null");
            }
        }
        out.push_str(",\"eliminated\":[");
        let out_ids = self
            .ships
            .iter()
            .enumerate()
            .filter(|(_, s)| !s.alive())
            .map(|(s, _)| s as u64 + 1)
            .chain(
                self.npcs
                    .iter()
                    .zip(NPC_IDS)
                    .filter(|(n, _)| !n.alive)
                    .map(|(_, id)| id),
            );
        for (k, id) in out_ids.enumerate() {
            if k > 0 {
                out.push(',');
            }
            let _ = write!(out, "{id}");
        }
        out.push(']');
    }
}

fn write_ship(out: &mut String, seat: Seat, s: &Ship) {
    let _ = write!(out, "{{\"id\":{},", seat + 1);
    write_at(out, s.pos);
    let _ = write!(
        out,
        ",\"health\":{},\"maxHealth\":{},\"cannons\":{},\"gold\":{},\"potNums\":{},\
         \"illegalMoves\":{},\"paralyzed\":{},\"whirlpoolDuration\":{},\"sight\":{SIGHT}}}",
        s.health,
        s.max_health,
        s.cannons,
        s.gold,
        s.potions,
        s.illegal_moves,
        s.paralyzed(),
        s.whirlpool
    );
}

/// NPC `k`, naming `chasing` and `fired_at` (ship ids) as given.
fn write_npc(out: &mut String, k: usize, n: &Npc, chasing: Option<u64>, fired_at: Option<u64>) {
    let _ = write!(out, "{{\"id\":{},", NPC_IDS[k]);
    write_at(out, n.pos);
    let _ = write!(
        out,
        ",\"health\":{},\"maxHealth\":{NPC_HEALTH},\"cannons\":{NPC_CANNONS},\"sight\":{NPC_SIGHT},\"chasing\":",
        n.health
    );
    write_id(out, chasing);
    out.push_str(",\"firedAt\":");
    write_id(out, fired_at);
    out.push('}');
}
