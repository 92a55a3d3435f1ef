//! What a seat sees: the reference's observation, written by hand so that
//! dict entries and numbers come out exactly as upstream has them. The shape
//! around these fields, and its key order, is
//! [`crate::kaggle::write_observation`].

use super::Halite;
use crate::kaggle::{write_assets, AsciiWriter};

impl Halite {
    /// `"halite":[...],"players":[[bank,{yard uid: cell},{ship uid:
    /// [cell, cargo]}], ...]`, the same for every seat.
    pub(super) fn write_board(&self, out: &mut String) {
        let mut w = AsciiWriter::new(out);
        w.text("\"halite\":");
        w.nums(&self.halite);
        w.text(",\"players\":[");
        for seat in 0..self.players {
            if seat > 0 {
                w.byte(b',');
            }
            w.byte(b'[');
            w.num(self.banks[seat]);
            w.byte(b',');
            let yards = self.shipyards.iter().filter(|y| y.owner == seat);
            write_assets(&mut w, yards.map(|y| (y.uid, y)), |w, y| {
                w.uint(y.pos as u64)
            });
            w.byte(b',');
            let ships = self.ships.iter().filter(|s| s.owner == seat);
            write_assets(&mut w, ships.map(|s| (s.uid, s)), |w, s| {
                w.byte(b'[');
                w.uint(s.pos as u64);
                w.byte(b',');
                w.num(s.halite);
                w.byte(b']');
            });
            w.byte(b']');
        }
        w.byte(b']');
    }
}
