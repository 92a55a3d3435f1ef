//! What a seat sees, in the rule book's words: its own ship, the map, the
//! flag, the other players' ships as `player1` to `player4` (only those
//! within its sight; `null` otherwise), the NPCs as `npc1` and `npc2`, and
//! its legal actions. Written straight into the caller's reused `String`.

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
    pub(crate) fn write_observation(&self, seat: Seat, out: &mut String) {
        out.clear();
        let _ = write!(
            out,
            "{{\"move\":{},\"movesLeft\":{},\"yourId\":{},\"toMove\":{},",
            self.moves,
            self.max_moves.saturating_sub(self.moves),
            seat + 1,
            self.to_move() + 1
        );
        out.push_str(&self.map_json);
        out.push_str(",\"flag\":{");
        write_at(out, self.flag);
        out.push('}');
        let me = &self.ships[seat];
        for (s, ship) in self.ships.iter().enumerate() {
            let _ = write!(out, ",\"player{}\":", s + 1);
            let seen = s == seat || (ship.alive() && ship.pos.distance(me.pos) <= SIGHT);
            if seen {
                write_ship(out, s, ship);
            } else {
                out.push_str("null");
            }
        }
        for (k, npc) in self.npcs.iter().enumerate() {
            let _ = write!(out, ",\"npc{}\":", k + 1);
            if npc.alive {
                write_npc(out, k, npc);
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
        out.push_str("],\"legalActions\":[");
        for (k, a) in self.legal_actions(seat).into_iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            let _ = write!(out, "\"{}\"", a.name());
        }
        out.push_str("]}");
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

fn write_npc(out: &mut String, k: usize, n: &Npc) {
    let _ = write!(out, "{{\"id\":{},", NPC_IDS[k]);
    write_at(out, n.pos);
    let _ = write!(
        out,
        ",\"health\":{},\"maxHealth\":{NPC_HEALTH},\"cannons\":{NPC_CANNONS},\"sight\":{NPC_SIGHT},\"chasing\":",
        n.health
    );
    write_id(out, n.target.map(|s| s as u64 + 1));
    out.push_str(",\"firedAt\":");
    write_id(out, n.fired_at.map(|s| s as u64 + 1));
    out.push('}');
}
