//! What a seat sees, written straight into the caller's reused `String`.
//! The rule book lists no fields for this game; they are chosen to match
//! the other grid games (see `docs/games/shields.md`).

use std::fmt::Write;

use super::Shields;
use crate::grid::{priority_seat, write_cell, write_grid, write_legal, write_owner_grid, PLAYERS};
use crate::Seat;

impl Shields {
    pub(crate) fn write_observation(&self, seat: Seat, out: &mut String) {
        out.clear();
        let b = self.board;
        let _ = write!(
            out,
            "{{\"turn\":{},\"turns_remaining\":{},\"width\":{},\"height\":{},\"owner\":",
            self.turn,
            self.max_turns.saturating_sub(self.turn),
            b.width,
            b.height
        );
        write_owner_grid(out, b, &self.owner);
        out.push_str(",\"value\":");
        write_grid(out, b, |c| i64::from(self.value[c]));
        out.push_str(",\"level\":");
        write_grid(out, b, |c| i64::from(self.level[c]));
        out.push_str(",\"self\":");
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
        out.push_str(",\"home\":");
        write_cell(out, b, bot.home);
        let _ = write!(
            out,
            ",\"need\":{},\"progress\":{},\"shield_cooldown\":{},\"frozen\":{},\"shielded\":{},\"score\":{}}}",
            self.need(seat),
            bot.progress,
            bot.shield_cooldown,
            bot.frozen,
            bot.shielded,
            bot.score
        );
    }
}
