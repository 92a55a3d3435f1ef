//! What a seat sees: the rule book's state, written straight into the
//! caller's reused `String`. Ids are seats; nothing is hidden.

use std::fmt::Write;

use super::Loops;
use crate::grid::{priority_seat, write_cell, write_cells, write_legal, write_owner_grid, PLAYERS};
use crate::Seat;

impl Loops {
    pub(crate) fn write_observation(&self, seat: Seat, out: &mut String) {
        out.clear();
        let b = self.board;
        let _ = write!(
            out,
            "{{\"turn\":{},\"turns_remaining\":{},\"turns\":{},\"width\":{},\"height\":{},\"owner\":",
            self.turn,
            self.max_turns.saturating_sub(self.turn),
            self.max_turns,
            b.width,
            b.height
        );
        write_owner_grid(out, b, &self.owner);
        out.push_str(",\"walls\":");
        write_cells(out, b, self.walls());
        out.push_str(",\"pads\":[");
        for s in 0..PLAYERS {
            if s > 0 {
                out.push(',');
            }
            write_cells(out, b, self.bots[s].pad);
        }
        out.push_str("],\"self\":");
        self.write_bot(out, seat);
        out.push_str(",\"bots\":[");
        for s in 0..PLAYERS {
            if s > 0 {
                out.push(',');
            }
            self.write_bot(out, s);
        }
        let _ = write!(
            out,
            "],\"priority_seat\":{},\"legal_actions\":",
            priority_seat(self.turn)
        );
        write_legal(out, &self.legal_actions(seat));
        out.push('}');
    }

    fn write_bot(&self, out: &mut String, seat: Seat) {
        let b = self.board;
        let bot = &self.bots[seat];
        let _ = write!(out, "{{\"id\":{seat},\"position\":");
        write_cell(out, b, bot.position);
        out.push_str(",\"trail\":");
        write_cells(out, b, bot.trail.iter().copied());
        let _ = write!(
            out,
            ",\"returning\":{},\"area\":{},\"score\":{},\"blocked\":{}}}",
            bot.returning,
            self.area(seat),
            bot.score,
            bot.blocked
        );
    }
}
