//! What a seat sees: the rule book's JSON, renumbered so that every seat is
//! player 1, written straight into the caller's reused `String`.

use std::fmt::Write;

use super::PlanetWars;
use crate::Seat;

impl PlanetWars {
    /// The player number `seat` sees for `owner`: itself is 1, the next seat
    /// round the table is 2, and so on.
    pub fn player_number(&self, owner: Seat, seat: Seat) -> usize {
        (owner + self.players - seat % self.players) % self.players + 1
    }

    pub(crate) fn write_observation(&self, seat: Seat, out: &mut String) {
        out.clear();
        out.push_str("{\"planets\":[");
        for (i, p) in self.planets.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            // `{"name":...,"x":...,"y":...,"ship_count":`
            out.push_str(&self.planet_json_prefix[i]);
            let _ = write!(out, "{},\"owner\":", p.ship_count);
            self.write_owner(out, p.owner, seat);
            out.push('}');
        }
        out.push_str("],\"expeditions\":[");
        for (i, e) in self.expeditions.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(
                out,
                "{{\"id\":{},\"ship_count\":{},\"origin\":{},\"destination\":{},\"owner\":",
                e.id, e.ship_count, self.name_json[e.origin], self.name_json[e.destination]
            );
            self.write_owner(out, Some(e.owner), seat);
            let _ = write!(out, ",\"turns_remaining\":{}}}", e.turns_remaining);
        }
        out.push_str("]}");
    }

    fn write_owner(&self, out: &mut String, owner: Option<Seat>, seat: Seat) {
        match owner {
            None => out.push_str("null"),
            Some(o) => {
                let _ = write!(out, "{}", self.player_number(o, seat));
            }
        }
    }
}
