//! Upstream's observation, written by hand so that keys and uids come in
//! upstream's order and every number keeps its int or float type.
//!
//! What an agent receives is `env.state[seat].observation` with the shared
//! fields (`kore`, `players`, `step`) copied in from seat 0. Key order follows
//! how upstream builds each dict: seat 0's is rebuilt by the interpreter after
//! every step (`kore, players, player, step, remainingOverageTime`), but
//! comes from the schema defaults at step 0 (`remainingOverageTime, step,
//! player, kore, players`); the other seats' always come from the schema
//! defaults with the shared fields appended (`remainingOverageTime, player,
//! step, kore, players`).

use std::fmt::Write;

use super::{Kore, REMAINING_OVERAGE_TIME};
use crate::Seat;

impl Kore {
    pub(crate) fn write_reference_observation(&self, seat: Seat, out: &mut String) {
        let step = self.step;
        if seat == 0 && step > 0 {
            out.push_str("{\"kore\":");
            self.write_kore(out);
            out.push_str(",\"players\":");
            self.write_players(out);
            let _ = write!(
                out,
                ",\"player\":0,\"step\":{step},\"remainingOverageTime\":{REMAINING_OVERAGE_TIME}}}"
            );
        } else if seat == 0 {
            let _ = write!(
                out,
                "{{\"remainingOverageTime\":{REMAINING_OVERAGE_TIME},\"step\":{step},\"player\":0,\"kore\":"
            );
            self.write_kore(out);
            out.push_str(",\"players\":");
            self.write_players(out);
            out.push('}');
        } else {
            let _ = write!(
                out,
                "{{\"remainingOverageTime\":{REMAINING_OVERAGE_TIME},\"player\":{seat},\"step\":{step},\"kore\":"
            );
            self.write_kore(out);
            out.push_str(",\"players\":");
            self.write_players(out);
            out.push('}');
        }
    }

    fn write_kore(&self, out: &mut String) {
        out.push('[');
        for (i, k) in self.cells.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            k.write_json(out);
        }
        out.push(']');
    }

    /// `[[kore, {uid: [pos, ships, turns]}, {uid: [pos, kore, ships, dir, plan]}], ...]`
    fn write_players(&self, out: &mut String) {
        out.push('[');
        for seat in 0..self.players {
            if seat > 0 {
                out.push(',');
            }
            out.push('[');
            self.kore[seat].write_json(out);
            out.push_str(",{");
            let mut first = true;
            for s in self.shipyards.iter().filter(|s| s.owner == seat) {
                if !first {
                    out.push(',');
                }
                first = false;
                let _ = write!(
                    out,
                    "\"{}\":[{},{},{}]",
                    s.uid, s.pos, s.ships, s.turns_controlled
                );
            }
            out.push_str("},{");
            let mut first = true;
            for f in self.fleets.iter().filter(|f| f.owner == seat) {
                if !first {
                    out.push(',');
                }
                first = false;
                let _ = write!(out, "\"{}\":[{},", f.uid, f.pos);
                f.kore.write_json(out);
                // The plan holds only NESWC0-9: nothing to escape.
                let _ = write!(out, ",{},{},\"{}\"]", f.ships, f.dir.index(), f.plan);
            }
            out.push_str("}]");
        }
        out.push(']');
    }
}
