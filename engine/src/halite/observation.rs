//! What a seat sees: the reference's observation, written by hand so that
//! dict entries and numbers come out exactly as upstream has them. The shape
//! around these fields, and its key order, is
//! [`crate::kaggle::write_observation`].

use super::Halite;
use crate::kaggle::AsciiWriter;

impl Halite {
    /// `"halite":[...],"players":[[bank,{yard uid: cell},{ship uid:
    /// [cell, cargo]}], ...]`, the same for every seat.
    pub(super) fn write_board(&self, out: &mut String) {
        let mut w = AsciiWriter::new(out);
        w.text("\"halite\":[");
        for (i, h) in self.halite.iter().enumerate() {
            if i > 0 {
                w.byte(b',');
            }
            w.num(*h);
        }
        w.text("],\"players\":[");
        for seat in 0..self.players {
            if seat > 0 {
                w.byte(b',');
            }
            w.byte(b'[');
            w.num(self.banks[seat]);
            w.text(",{");
            let mut first = true;
            for y in self.shipyards.iter().filter(|y| y.owner == seat) {
                if !first {
                    w.byte(b',');
                }
                first = false;
                w.byte(b'"');
                y.uid.write(&mut w);
                w.text("\":");
                w.uint(y.pos as u64);
            }
            w.text("},{");
            first = true;
            for s in self.ships.iter().filter(|s| s.owner == seat) {
                if !first {
                    w.byte(b',');
                }
                first = false;
                w.byte(b'"');
                s.uid.write(&mut w);
                w.text("\":[");
                w.uint(s.pos as u64);
                w.byte(b',');
                w.num(s.halite);
                w.byte(b']');
            }
            w.text("}]");
        }
        w.byte(b']');
    }
}
