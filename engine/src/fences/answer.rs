//! Reading a seat's answer: `WAIT`, or `MOVE x1 y1 x2 y2`, the words in any
//! case, bare or as a JSON string (`"MOVE 3 5 3 2"`, as the SDK sends it).
//! Total: any text gives an answer or the reason it is not one.

use std::num::IntErrorKind;

use crate::grid::{not_a, quote};

/// The kinds of rejection fences records. `unparseable` answers are not
/// this game's answers at all; every other kind is a readable answer that
/// the rules refuse.
pub mod kind {
    /// Neither `WAIT` nor `MOVE x1 y1 x2 y2` with four whole numbers.
    pub const UNPARSEABLE: &str = "unparseable";
    /// A `MOVE` from the player who is not to move (ignored).
    pub const NOT_YOUR_TURN: &str = "not_your_turn";
    /// `WAIT` from the player to move: the move is passed.
    pub const WAITED: &str = "waited";
    /// `(x1, y1)` is not one of the mover's nodes.
    pub const NOT_YOUR_NODE: &str = "not_your_node";
    /// `(x2, y2)` is off the board.
    pub const OFF_BOARD: &str = "off_board";
    /// More than 3 columns or rows away, or no distance at all.
    pub const OUT_OF_REACH: &str = "out_of_reach";
    /// The end lies in the middle of one of the mover's own edges.
    pub const ENDS_ON_OWN_EDGE: &str = "ends_on_own_edge";
    /// The edge passes through one of the mover's own nodes.
    pub const THROUGH_OWN_NODE: &str = "through_own_node";
    /// The mover already has this edge.
    pub const EDGE_EXISTS: &str = "edge_exists";
    /// The edge runs along an opponent edge lengthwise.
    pub const RUNS_ALONG: &str = "runs_along";
    /// The edge touches an opponent edge placed in the opponent's latest turn.
    pub const TOUCHES_PROTECTED: &str = "touches_protected";
    /// The edge touches more than one opponent edge.
    pub const TOUCHES_TWO_EDGES: &str = "touches_two_edges";
}

/// A readable answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    Wait,
    /// `[x1, y1, x2, y2]` as written; numbers too large for an `i64` are
    /// kept as `i64::MAX` or `i64::MIN` (off the board either way).
    Move([i64; 4]),
}

/// Parses one raw answer (surrounding whitespace ignored, words in any case).
pub fn parse_answer(raw: &str) -> Result<Answer, String> {
    let trimmed = raw.trim();
    let owned;
    let text = if trimmed.starts_with('"') {
        match serde_json::from_str::<String>(trimmed) {
            Ok(s) => {
                owned = s;
                owned.trim()
            }
            Err(_) => {
                return Err(format!(
                    "{} is not a valid JSON string; answer WAIT, or MOVE x1 y1 x2 y2 with four \
                     whole numbers, bare or as a JSON string",
                    quote(trimmed)
                ))
            }
        }
    } else {
        trimmed
    };
    let words: Vec<&str> = text.split_ascii_whitespace().take(6).collect();
    let shape = "answer WAIT, or MOVE x1 y1 x2 y2 with four whole numbers";
    let keyword = words.first().map(|w| w.to_ascii_uppercase());
    match (keyword.as_deref(), words.as_slice()) {
        (Some("WAIT"), [_]) => Ok(Answer::Wait),
        (Some("MOVE"), [_, x1, y1, x2, y2]) => {
            let mut xy = [0i64; 4];
            for (v, w) in xy.iter_mut().zip([x1, y1, x2, y2]) {
                *v = whole_number(w)
                    .ok_or_else(|| format!("{} is not a whole number; {shape}", quote(w)))?;
            }
            Ok(Answer::Move(xy))
        }
        _ => Err(format!(
            "{}; {shape}, bare or as a JSON string",
            not_a(raw, text, "an answer")
        )),
    }
}

/// A whole number in decimal, saturated to the `i64` range.
fn whole_number(w: &str) -> Option<i64> {
    match w.parse::<i64>() {
        Ok(v) => Some(v),
        Err(e) => match e.kind() {
            IntErrorKind::PosOverflow => Some(i64::MAX),
            IntErrorKind::NegOverflow => Some(i64::MIN),
            _ => None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_parse_bare_or_as_json_strings_in_any_case() {
        assert_eq!(parse_answer("WAIT"), Ok(Answer::Wait));
        assert_eq!(parse_answer(" \"WAIT\" \n"), Ok(Answer::Wait));
        assert_eq!(parse_answer("MOVE 3 5 3 2"), Ok(Answer::Move([3, 5, 3, 2])));
        assert_eq!(parse_answer("wait"), Ok(Answer::Wait));
        assert_eq!(
            parse_answer("\"Move 3 5 3 2\""),
            Ok(Answer::Move([3, 5, 3, 2]))
        );
        assert_eq!(
            parse_answer("\"MOVE  -1 5\\t3 99999999999999999999\""),
            Ok(Answer::Move([-1, 5, 3, i64::MAX]))
        );
        for bad in [
            "",
            "waiting",
            "MOVE",
            "MOVE 1 2 3",
            "MOVE 1 2 3 4 5",
            "MOVE 1 2 3 4.0",
            "\"MOVE 1 2 3 4",
            "[1,2,3,4]",
            "{\"x\":1}",
            "MOVE a b c d",
            "WAIT WAIT",
        ] {
            assert!(parse_answer(bad).is_err(), "{bad:?}");
        }
        let huge = format!("MOVE {}", "9".repeat(100_000));
        assert!(parse_answer(&huge).unwrap_err().len() < 200);
    }
}
