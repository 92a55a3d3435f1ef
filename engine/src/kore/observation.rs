//! Upstream's observation, written by hand so that keys and uids come in
//! upstream's order and every number keeps its int or float type. The
//! shape around these fields, and its key order, is
//! [`crate::kaggle::write_observation`].

use super::Kore;

impl Kore {
    /// `[kore of each cell]`.
    pub(super) fn write_kore(&self, out: &mut String) {
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
    pub(super) fn write_players(&self, out: &mut String) {
        let mut digits = itoa::Buffer::new();
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
                out.push('"');
                s.uid.write(out);
                out.push_str("\":[");
                out.push_str(digits.format(s.pos));
                out.push(',');
                out.push_str(digits.format(s.ships));
                out.push(',');
                out.push_str(digits.format(s.turns_controlled));
                out.push(']');
            }
            out.push_str("},{");
            let mut first = true;
            for f in self.fleets.iter().filter(|f| f.owner == seat) {
                if !first {
                    out.push(',');
                }
                first = false;
                out.push('"');
                f.uid.write(out);
                out.push_str("\":[");
                out.push_str(digits.format(f.pos));
                out.push(',');
                f.kore.write_json(out);
                out.push(',');
                out.push_str(digits.format(f.ships));
                out.push(',');
                out.push_str(digits.format(f.dir.index()));
                // The plan holds only NESWC0-9: nothing to escape.
                out.push_str(",\"");
                out.push_str(&f.plan);
                out.push_str("\"]");
            }
            out.push_str("}]");
        }
        out.push(']');
    }
}
