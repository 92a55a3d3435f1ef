//! What a seat sees: the reference's observation, written by hand so that
//! dict entries and numbers come out exactly as upstream has them. The shape
//! around these fields, and its key order, is
//! [`crate::kaggle::write_observation`].

use super::Halite;

impl Halite {
    /// `"halite":[...],"players":[[bank,{yard uid: cell},{ship uid:
    /// [cell, cargo]}], ...]`, the same for every seat.
    pub(super) fn write_board(&self, out: &mut String) {
        let mut digits = itoa::Buffer::new();
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
                out.push_str("\":");
                out.push_str(digits.format(y.pos));
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
                out.push_str("\":[");
                out.push_str(digits.format(s.pos));
                out.push(',');
                s.halite.write_json(out);
                out.push(']');
            }
            out.push_str("}]");
        }
        out.push(']');
    }
}
