//! Upstream's observation, written by hand so that keys and uids come in
//! upstream's order and every number keeps its int or float type. The
//! shape around these fields, and its key order, is
//! [`crate::kaggle::write_observation`].

use super::Kore;
use crate::kaggle::{write_assets, AsciiWriter};

impl Kore {
    /// `"kore":[...],"players":[[kore, {uid: [pos, ships, turns]},
    /// {uid: [pos, kore, ships, dir, plan]}], ...]`, what every seat's
    /// observation shares.
    pub(super) fn write_board(&self, out: &mut String) {
        let mut w = AsciiWriter::new(out);
        w.text("\"kore\":");
        w.nums(&self.cells);
        w.text(",\"players\":[");
        for seat in 0..self.players {
            if seat > 0 {
                w.byte(b',');
            }
            w.byte(b'[');
            w.num(self.kore[seat]);
            w.byte(b',');
            let shipyards = self.shipyards.iter().filter(|s| s.owner == seat);
            write_assets(&mut w, shipyards.map(|s| (s.uid, s)), |w, s| {
                w.byte(b'[');
                w.uint(s.pos as u64);
                w.byte(b',');
                w.int(s.ships);
                w.byte(b',');
                w.int(s.turns_controlled);
                w.byte(b']');
            });
            w.byte(b',');
            let fleets = self.fleets.iter().filter(|f| f.owner == seat);
            write_assets(&mut w, fleets.map(|f| (f.uid, f)), |w, f| {
                w.byte(b'[');
                w.uint(f.pos as u64);
                w.byte(b',');
                w.num(f.kore);
                w.byte(b',');
                w.int(f.ships);
                w.byte(b',');
                w.int(f.dir.index());
                // The plan holds only NESWC0-9: nothing to escape.
                w.text(",\"");
                w.text(&f.plan);
                w.text("\"]");
            });
            w.byte(b']');
        }
        w.byte(b']');
    }
}
