//! What a seat sees: the rule book's state, written straight into the
//! caller's reused `String`. Ids are seats; nothing is hidden.

use std::fmt::Write;

use super::{Claim, CELL_CAP};
use crate::grid::{
    priority_seat, write_cell, write_legal, write_opt_cell, write_owner_grid, PLAYERS,
};
use crate::Seat;

impl Claim {
    pub(crate) fn write_observation(&self, seat: Seat, out: &mut String) {
        out.clear();
        let b = self.board;
        let _ = write!(
            out,
            "{{\"turn\":{},\"turns_remaining\":{},\"width\":{},\"height\":{},\"cell_cap\":{},\"owner\":",
            self.turn,
            self.max_turns.saturating_sub(self.turn),
            b.width,
            b.height,
            CELL_CAP
        );
        write_owner_grid(out, b, &self.owner);
        out.push_str(",\"self\":");
        self.write_bot(out, seat, false);
        out.push_str(",\"bots\":[");
        for s in 0..PLAYERS {
            if s > 0 {
                out.push(',');
            }
            self.write_bot(out, s, true);
        }
        let _ = write!(
            out,
            "],\"priority_seat\":{},\"legal_actions\":",
            priority_seat(self.turn)
        );
        write_legal(out, &self.legal_actions(seat));
        out.push('}');
    }

    fn write_bot(&self, out: &mut String, seat: Seat, with_alive: bool) {
        let b = self.board;
        let bot = &self.bots[seat];
        let _ = write!(out, "{{\"id\":{seat},\"position\":");
        write_cell(out, b, bot.position);
        out.push_str(",\"home\":");
        write_cell(out, b, bot.home);
        out.push_str(",\"capture_target\":");
        write_opt_cell(out, b, bot.capture_target);
        let _ = write!(
            out,
            ",\"dwell_remaining\":{},\"owned_count\":{}",
            bot.dwell_remaining,
            self.owned_count(seat)
        );
        if with_alive {
            let _ = write!(out, ",\"alive\":{}", bot.alive());
        }
        out.push('}');
    }
}
