//! Answers: parsing a seat's raw answer and checking each move against the
//! state, with a rejection a bot author can act on for every refusal.

use std::fmt;

use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;

use super::map::short_name;
use super::PlanetWars;
use crate::{Rejection, Seat};

/// Moves examined per seat per turn; the rest of a longer answer is dropped
/// with one `too_many_moves` rejection.
pub const MAX_MOVES_PER_TURN: usize = 1000;

/// The longest parser message quoted in an `unparseable` rejection, in bytes.
const MAX_DETAIL: usize = 200;

/// The kinds of [`Rejection`] Planet Wars records.
pub mod kind {
    /// The answer is not JSON, or not an object with a `moves` array: no moves this turn.
    pub const UNPARSEABLE: &str = "unparseable";
    /// A move is not an object with `origin`, `destination` (strings) and
    /// `ship_count` (a whole number ≥ 0).
    pub const MALFORMED_MOVE: &str = "malformed_move";
    /// A move names a planet that does not exist.
    pub const UNKNOWN_PLANET: &str = "unknown_planet";
    /// A move's origin is not the seat's planet.
    pub const NOT_YOUR_PLANET: &str = "not_your_planet";
    /// A move sends no ships.
    pub const ZERO_SHIPS: &str = "zero_ships";
    /// A move's origin and destination are the same planet.
    pub const SAME_ORIGIN_DESTINATION: &str = "same_origin_destination";
    /// A move sends more ships than its origin can spare (one must stay).
    pub const TOO_MANY_SHIPS: &str = "too_many_ships";
    /// The answer has more than [`super::MAX_MOVES_PER_TURN`] moves; the rest were dropped.
    pub const TOO_MANY_MOVES: &str = "too_many_moves";
}

/// The moves of a parsed answer: the first [`MAX_MOVES_PER_TURN`] as JSON,
/// and how many there were in all (the rest are skipped without being built).
#[derive(Debug)]
pub(crate) struct AnswerMoves {
    pub examined: Vec<Value>,
    pub total: usize,
}

/// A JSON value read where the answer needs one shape: that shape, or what
/// came instead, in words for the refusal.
enum Read<T> {
    Shape(T),
    Other(String),
}

/// The refusal's words for JSON values other than the shape a visitor
/// reads: scalars described with their value, arrays and objects skipped
/// to their end (so that the text after them is still checked as JSON).
macro_rules! describe_other_values {
    () => {
        fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Ok(Read::Other("null".into()))
        }
        fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Self::Value, E> {
            Ok(Read::Other(format!("the boolean {v}")))
        }
        fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Self::Value, E> {
            Ok(Read::Other(format!("the number {v}")))
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Self::Value, E> {
            Ok(Read::Other(format!("the number {v}")))
        }
        fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Self::Value, E> {
            Ok(Read::Other(format!("the number {v:?}")))
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(Read::Other(format!("the string {}", short_name(v))))
        }
    };
}

/// The value of `moves`: an array, of which the first
/// [`MAX_MOVES_PER_TURN`] moves are kept and the rest only counted.
struct MovesValue;

impl<'de> Visitor<'de> for MovesValue {
    type Value = Read<AnswerMoves>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array of moves")
    }
    describe_other_values!();
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut examined = Vec::new();
        let mut total = 0;
        loop {
            let more = if examined.len() < MAX_MOVES_PER_TURN {
                match seq.next_element::<Value>()? {
                    Some(v) => {
                        examined.push(v);
                        true
                    }
                    None => false,
                }
            } else {
                seq.next_element::<IgnoredAny>()?.is_some()
            };
            if !more {
                return Ok(Read::Shape(AnswerMoves { examined, total }));
            }
            total += 1;
        }
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Read::Other("an object".into()))
    }
}

impl<'de> Deserialize<'de> for Read<AnswerMoves> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(MovesValue)
    }
}

/// Whether an object's key is `moves` (escapes decoded, as JSON means them).
struct IsMoves(bool);

impl<'de> Deserialize<'de> for IsMoves {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = IsMoves;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<IsMoves, E> {
                Ok(IsMoves(v == "moves"))
            }
        }
        d.deserialize_str(KeyVisitor)
    }
}

/// The whole answer: only an object with a `moves` array is one. Any other
/// JSON value is read to its end and named, so that the refusal says what
/// came (a derived reader would also take `[[...]]` as a one-field struct).
struct AnswerValue;

impl<'de> Visitor<'de> for AnswerValue {
    type Value = Read<AnswerMoves>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(EXPECTED)
    }
    describe_other_values!();
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Read::Other("an array".into()))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut moves = None;
        let mut twice = false;
        while let Some(IsMoves(is_moves)) = map.next_key()? {
            if !is_moves || moves.is_some() {
                twice |= is_moves;
                map.next_value::<IgnoredAny>()?;
            } else {
                moves = Some(map.next_value::<Read<AnswerMoves>>()?);
            }
        }
        Ok(match moves {
            _ if twice => Read::Other("an object with `moves` twice".into()),
            None => Read::Other("an object without `moves`".into()),
            Some(Read::Other(what)) => Read::Other(format!("an object whose `moves` is {what}")),
            Some(shape) => shape,
        })
    }
}

/// What an answer must be, as its refusals say.
const EXPECTED: &str = "a JSON object with a `moves` array";

/// Parses a raw answer; the error says what came instead of an object with
/// a `moves` array.
pub(crate) fn parse_answer(raw: &str) -> Result<AnswerMoves, String> {
    let mut de = serde_json::Deserializer::from_str(raw);
    let read = de.deserialize_any(AnswerValue).and_then(|read| {
        de.end()?;
        Ok(read)
    });
    match read {
        Ok(Read::Shape(moves)) => Ok(moves),
        Ok(Read::Other(what)) => Err(what),
        Err(e) => Err(format!("text that is not JSON ({e})")),
    }
}

/// A well-formed move, not yet checked against the state.
#[derive(Debug, Clone, Copy)]
pub(crate) struct MoveRequest<'a> {
    pub origin: &'a str,
    pub destination: &'a str,
    pub ship_count: u64,
}

impl fmt::Display for MoveRequest<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "origin {}, destination {}, ship_count {}",
            short_name(self.origin),
            short_name(self.destination),
            self.ship_count
        )
    }
}

const MOVE_SHAPE: &str = "a move is {\"origin\": <planet name>, \"destination\": <planet name>, \
                          \"ship_count\": <whole number>}";

/// Reads move `index` of an answer, or says why it is malformed.
pub(crate) fn read_move(index: usize, v: &Value) -> Result<MoveRequest<'_>, Rejected> {
    let malformed = |what: String| Rejected {
        kind: kind::MALFORMED_MOVE,
        reason: format!("move {index} is malformed: {what}; {MOVE_SHAPE}"),
    };
    let Some(obj) = v.as_object() else {
        return Err(malformed(format!("it is {}, not an object", json_type(v))));
    };
    let name = |field: &str| -> Result<&str, Rejected> {
        match obj.get(field) {
            None => Err(malformed(format!("`{field}` is missing"))),
            Some(Value::String(s)) => Ok(s.as_str()),
            Some(other) => Err(malformed(format!(
                "`{field}` must be a planet name (a string), not {}",
                json_type(other)
            ))),
        }
    };
    let origin = name("origin")?;
    let destination = name("destination")?;
    let ship_count = match obj.get("ship_count") {
        None => return Err(malformed("`ship_count` is missing".into())),
        Some(Value::Number(n)) => match n.as_u64() {
            Some(c) => c,
            None => {
                return Err(malformed(format!(
                    "`ship_count` must be a whole number of at least 0, not {}",
                    truncate(&n.to_string(), 40)
                )))
            }
        },
        Some(other) => {
            return Err(malformed(format!(
                "`ship_count` must be a whole number, not {}",
                json_type(other)
            )))
        }
    };
    Ok(MoveRequest {
        origin,
        destination,
        ship_count,
    })
}

/// A refused move: its kind and reason (the seat is added by the caller).
#[derive(Debug)]
pub(crate) struct Rejected {
    pub kind: &'static str,
    pub reason: String,
}

impl Rejected {
    pub fn at(self, seat: Seat) -> Rejection {
        Rejection {
            seat,
            kind: self.kind.to_string(),
            reason: self.reason,
        }
    }
}

pub(crate) fn unparseable(seat: Seat, got: &str) -> Rejection {
    Rejection {
        seat,
        kind: kind::UNPARSEABLE.to_string(),
        reason: format!(
            "expected {EXPECTED}, got {}; none of its moves were made this turn",
            truncate(got, MAX_DETAIL)
        ),
    }
}

pub(crate) fn too_many_moves(seat: Seat, total: usize) -> Rejection {
    Rejection {
        seat,
        kind: kind::TOO_MANY_MOVES.to_string(),
        reason: format!(
            "the answer has {total} moves; only the first {MAX_MOVES_PER_TURN} are examined each \
             turn, so the last {} were dropped",
            total - MAX_MOVES_PER_TURN
        ),
    }
}

impl PlanetWars {
    /// Checks a well-formed move of `seat` against the current state (after
    /// construction and the seat's earlier moves this turn). `built` is every
    /// planet's ship count right after construction. Returns the origin and
    /// destination indices.
    pub(crate) fn check_move(
        &self,
        seat: Seat,
        index: usize,
        m: &MoveRequest<'_>,
        built: &[u64],
    ) -> Result<(usize, usize), Rejected> {
        let reject = |kind: &'static str, rule: String| Rejected {
            kind,
            reason: format!("move {index} ({m}): {rule}"),
        };
        let lookup = |name: &str| {
            self.planet_index(name).ok_or_else(|| {
                reject(
                    kind::UNKNOWN_PLANET,
                    format!(
                        "there is no planet named {}; use a `name` from the `planets` list",
                        short_name(name)
                    ),
                )
            })
        };
        let origin = lookup(m.origin)?;
        let destination = lookup(m.destination)?;
        let planet = self.planets[origin];
        if planet.owner != Some(seat) {
            let owner = match planet.owner {
                None => "it is neutral".to_string(),
                Some(o) => format!("its owner is player {}", self.player_number(o, seat)),
            };
            return Err(reject(
                kind::NOT_YOUR_PLANET,
                format!(
                    "the origin is not yours ({owner}); send ships only from planets whose \
                     `owner` is 1"
                ),
            ));
        }
        if m.ship_count == 0 {
            return Err(reject(
                kind::ZERO_SHIPS,
                "it sends 0 ships; send at least 1 or leave the move out".into(),
            ));
        }
        if origin == destination {
            return Err(reject(
                kind::SAME_ORIGIN_DESTINATION,
                "the origin and the destination are the same planet; a fleet must go to another \
                 planet"
                    .into(),
            ));
        }
        let have = planet.ship_count;
        if m.ship_count >= have {
            let observed = built[origin] - 1;
            let sent = built[origin] - have;
            let earlier = if sent > 0 {
                format!(", less {sent} sent by your earlier moves this turn")
            } else {
                String::new()
            };
            return Err(reject(
                kind::TOO_MANY_SHIPS,
                format!(
                    "the origin has {have} ships now (the {observed} you saw, plus 1 built this \
                     turn{earlier}) and 1 must stay, so at most {} can leave",
                    have - 1
                ),
            ));
        }
        Ok((origin, destination))
    }
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn truncate(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &s[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_longer_than_the_cap_are_counted_not_kept() {
        let moves: Vec<String> = (0..MAX_MOVES_PER_TURN + 5)
            .map(|i| format!("{{\"origin\":\"a\",\"destination\":\"b\",\"ship_count\":{i}}}"))
            .collect();
        let raw = format!("{{\"moves\":[{}]}}", moves.join(","));
        let parsed = parse_answer(&raw).unwrap();
        assert_eq!(parsed.examined.len(), MAX_MOVES_PER_TURN);
        assert_eq!(parsed.total, MAX_MOVES_PER_TURN + 5);
    }

    #[test]
    fn answers_without_a_moves_array_do_not_parse_and_say_what_came() {
        let a_move = r#"{"origin":"a","destination":"b","ship_count":1}"#;
        let in_array = format!("[{a_move}]");
        let in_arrays = format!("[[{a_move}]]");
        let one_move = format!("{{\"moves\":{a_move}}}");
        for (raw, got) in [
            ("", "text that is not JSON (EOF while parsing a value"),
            (
                "{\"moves\":[",
                "text that is not JSON (EOF while parsing a list",
            ),
            (
                "{\"moves\":[]} x",
                "text that is not JSON (trailing characters",
            ),
            ("null", "null"),
            ("true", "the boolean true"),
            ("-1.5", "the number -1.5"),
            ("7", "the number 7"),
            ("\"moves\"", "the string \"moves\""),
            ("[]", "an array"),
            (in_array.as_str(), "an array"),
            (&in_arrays, "an array"),
            ("{}", "an object without `moves`"),
            ("{\"Moves\":[]}", "an object without `moves`"),
            ("{\"moves\":3}", "an object whose `moves` is the number 3"),
            ("{\"moves\":null}", "an object whose `moves` is null"),
            ("{\"moves\":{}}", "an object whose `moves` is an object"),
            (&one_move, "an object whose `moves` is an object"),
            (
                "{\"moves\":\"[]\"}",
                "an object whose `moves` is the string \"[]\"",
            ),
            (
                "{\"moves\":[],\"moves\":[]}",
                "an object with `moves` twice",
            ),
        ] {
            let err = parse_answer(raw).expect_err(raw);
            assert!(err.starts_with(got), "{raw}: {err}");
        }
        let ok = parse_answer("{\"moves\":[], \"note\": 1}\n").unwrap();
        assert_eq!(ok.total, 0);
        let escaped = parse_answer(&format!("{{\"mo\\u0076es\":[{a_move}]}}")).unwrap();
        assert_eq!(escaped.total, 1);
    }

    #[test]
    fn unparseable_reasons_are_truncated() {
        let raw = format!("{{\"moves\": \"{}\"}}", "x".repeat(10_000));
        let err = parse_answer(&raw).unwrap_err();
        let r = unparseable(0, &err);
        assert!(r.reason.len() < 400, "{}", r.reason);
    }

    #[test]
    fn ship_count_must_be_a_non_negative_integer() {
        for bad in ["-1", "1.5", "2.0", "\"3\"", "null", "1e30"] {
            let v: Value = serde_json::from_str(&format!(
                "{{\"origin\":\"a\",\"destination\":\"b\",\"ship_count\":{bad}}}"
            ))
            .unwrap();
            let e = read_move(0, &v).unwrap_err();
            assert_eq!(e.kind, kind::MALFORMED_MOVE, "{bad}");
        }
    }
}
