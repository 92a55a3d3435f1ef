//! What a seat sees before each move: the rule book's state, written
//! straight into the caller's reused `String`. Nothing is hidden. Exact
//! values (scores, areas) are written twice: as the nearest double, for
//! arithmetic, and as a fraction in lowest terms (`"27/8"`), for exactness.

use std::fmt::Write;

use super::geometry::{Area, Fine, Point, REACH};
use super::{color, round_of, Fences, PLAYERS};
use crate::Seat;

impl Fences {
    pub(crate) fn write_observation(&self, seat: Seat, out: &mut String) {
        out.clear();
        let over = self.is_over();
        let mover = self.to_move();
        let your_turn = !over && seat == mover;
        let moves_left = if over {
            0
        } else if self.ends_turn(self.turn) {
            1
        } else {
            2
        };
        let round = (round_of(self.turn) + 1).min(self.rounds());
        let _ = write!(
            out,
            "{{\"turn\":{},\"turns\":{},\"round\":{round},\"rounds\":{},\"your_turn\":{your_turn},\
             \"to_move\":{mover},\"moves_left\":{moves_left},\"width\":{},\"height\":{},\"reach\":{REACH}",
            self.turn,
            self.max_turns,
            self.rounds(),
            self.width,
            self.height,
        );
        out.push_str(",\"self\":");
        self.write_player(out, seat);
        out.push_str(",\"opponent\":");
        self.write_player(out, 1 - seat);
        out.push_str(",\"edges\":[");
        for (i, e) in self.edges.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(out, "{{\"id\":{},\"a\":", e.id);
            write_point(out, e.seg.a);
            out.push_str(",\"b\":");
            write_point(out, e.seg.b);
            let _ = write!(
                out,
                ",\"owner\":{},\"turn\":{},\"protected\":{}}}",
                e.owner,
                e.turn,
                self.is_protected(e)
            );
        }
        out.push_str("],\"regions\":[");
        let mut first = true;
        for owner in 0..PLAYERS {
            for f in &self.faces[owner] {
                if !first {
                    out.push(',');
                }
                first = false;
                let _ = write!(out, "{{\"owner\":{owner},");
                write_area(out, "area", f.area);
                out.push_str(",\"outline\":[");
                for (i, &p) in f.outline.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_fine(out, p);
                }
                out.push_str("],\"edges\":[");
                for (i, id) in f.edges.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    let _ = write!(out, "{id}");
                }
                out.push_str("]}");
            }
        }
        out.push_str("],\"legal_moves\":[");
        let legal = if your_turn {
            self.legal_moves(seat)
        } else {
            Vec::new()
        };
        for (i, m) in legal.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let (a, b) = (m.seg.a, m.seg.b);
            let breaks = m.breaks.map_or(-1, i64::from);
            let _ = write!(
                out,
                "[{},{},{},{},{breaks},{}]",
                a.x, a.y, b.x, b.y, m.closes
            );
        }
        out.push_str("],\"legal_actions\":[");
        if !your_turn {
            out.push_str("\"WAIT\"");
        }
        for (i, m) in legal.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let (a, b) = (m.seg.a, m.seg.b);
            let _ = write!(out, "\"MOVE {} {} {} {}\"", a.x, a.y, b.x, b.y);
        }
        out.push_str("]}");
    }

    fn write_player(&self, out: &mut String, seat: Seat) {
        let _ = write!(out, "{{\"id\":{seat},\"color\":\"{}\",", color(seat));
        write_area(out, "score", self.scores[seat]);
        out.push(',');
        write_area(out, "area", self.area(seat));
        out.push_str(",\"nodes\":[");
        for (i, p) in self.nodes(seat).into_iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            write_point(out, p);
        }
        out.push_str("]}");
    }
}

fn write_point(out: &mut String, p: Point) {
    let _ = write!(out, "[{},{}]", p.x, p.y);
}

/// A point of an outline, as doubles (`[1.5,2.0]`).
fn write_fine(out: &mut String, p: Fine) {
    let (x, y) = p.to_f64();
    let _ = write!(out, "[{x:?},{y:?}]");
}

/// `"key":1.5,"key_exact":"3/2"`.
fn write_area(out: &mut String, key: &str, a: Area) {
    let _ = write!(
        out,
        "\"{key}\":{:?},\"{key}_exact\":\"{}\"",
        a.to_f64(),
        a.exact_text()
    );
}
