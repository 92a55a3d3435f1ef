//! What a seat sees: the reference's observation, written by hand so that
//! keys, dict entries and numbers come out exactly as upstream has them.

use std::fmt::Write;

use super::{Halite, REMAINING_OVERAGE_TIME};
use crate::Seat;

impl Halite {
    /// The observation the reference hands the agent in `seat`. Its key
    /// order depends on where upstream built the dict: seat 0 sees the
    /// interpreter's order (`populate_board`'s before the first step), the
    /// other seats their default state with the shared fields appended.
    pub(crate) fn write_observation(&self, seat: Seat, out: &mut String) {
        let overage = REMAINING_OVERAGE_TIME;
        let step = self.step;
        if seat == 0 && step == 0 {
            let _ = write!(
                out,
                "{{\"remainingOverageTime\":{overage},\"step\":{step},\"player\":{seat},"
            );
            self.write_board(out);
            out.push('}');
        } else if seat == 0 {
            out.push('{');
            self.write_board(out);
            let _ = write!(
                out,
                ",\"player\":{seat},\"step\":{step},\"remainingOverageTime\":{overage}}}"
            );
        } else {
            let _ = write!(
                out,
                "{{\"remainingOverageTime\":{overage},\"player\":{seat},\"step\":{step},"
            );
            self.write_board(out);
            out.push('}');
        }
    }

    /// `"halite":[...],"players":[[bank,{yard uid: cell},{ship uid:
    /// [cell, cargo]}], ...]`, the same for every seat: written once per
    /// step and copied.
    fn write_board(&self, out: &mut String) {
        let mut cache = self.board_text.borrow_mut();
        match &*cache {
            Some((step, text)) if *step == self.step => out.push_str(text),
            _ => {
                let mut text = String::with_capacity(4096);
                self.write_board_text(&mut text);
                out.push_str(&text);
                *cache = Some((self.step, text));
            }
        }
    }

    fn write_board_text(&self, out: &mut String) {
        out.push_str("\"halite\":[");
        for (i, h) in self.halite.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            h.write_json(out);
        }
        out.push_str("],\"players\":[");
        for seat in 0..self.players {
            if seat > 0 {
                out.push(',');
            }
            out.push('[');
            self.banks[seat].write_json(out);
            out.push_str(",{");
            let mut first = true;
            for y in self.shipyards.iter().filter(|y| y.owner == seat) {
                if !first {
                    out.push(',');
                }
                first = false;
                out.push('"');
                y.uid.write(out);
                let _ = write!(out, "\":{}", y.pos);
            }
            out.push_str("},{");
            first = true;
            for s in self.ships.iter().filter(|s| s.owner == seat) {
                if !first {
                    out.push(',');
                }
                first = false;
                out.push('"');
                s.uid.write(out);
                let _ = write!(out, "\":[{},", s.pos);
                s.halite.write_json(out);
                out.push(']');
            }
            out.push_str("}]");
        }
        out.push(']');
    }
}
