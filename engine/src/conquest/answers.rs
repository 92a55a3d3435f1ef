//! Reading a team's answer (rule 3 and "Actions"): one action string as
//! the rule book lists them (`EAST`, `BUILD MINE`, `ALLOCATE 0.5 0.35 0.15`,
//! `MIRV 1 2 3 4 5 6`, ...), bare or as a JSON string, or the JSON form
//! (`{"kind": "move", "direction": "E"}`). The reader is total: any text
//! gives an [`Order`] or a reason why it is not one. Whether the order is
//! allowed now is decided apart ([`super::legal`]).

use serde_json::{Map, Value};

use super::{BuildingKind, Weapon};
use crate::grid::{json_kind, quote, Dir};

/// The kinds of refusal. A refused answer is played as `WAIT`.
pub mod kind {
    /// The answer is not one of the game's actions at all.
    pub const UNPARSEABLE: &str = "unparseable";
    /// The robot is claiming, fighting, building or relocating: only `WAIT`.
    pub const BUSY: &str = "busy";
    /// A move off the board, into a wall, onto a robot or into a battle.
    pub const CANNOT_MOVE: &str = "cannot_move";
    /// Not enough gold for the building, weapon or relocation.
    pub const NOT_ENOUGH_GOLD: &str = "not_enough_gold";
    /// The weapon, or `RELOCATE`, is not ready again yet.
    pub const COOLING_DOWN: &str = "cooling_down";
    /// A target or capital pick that is not allowed (not a visible enemy
    /// cell in range, a capital, twice the same cell, outside the quarter).
    pub const BAD_TARGET: &str = "bad_target";
    /// Any other rule: `ALLOCATE` off the capital, `BUILD` where there is a
    /// building, `GARRISON` more than the reserve, the wrong phase, ...
    pub const ILLEGAL: &str = "illegal";
}

/// A cell `(x, y)` as an answer names it, before it is checked against the
/// board (so it may be negative or far off).
pub type Target = (i64, i64);

/// A readable answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Order {
    Wait,
    Move(Dir),
    Build(BuildingKind),
    /// Shares of attack, defense and reserve (divided by their sum).
    Allocate([f64; 3]),
    Garrison(i64),
    Withdraw(i64),
    /// No targets: bare, the game aims.
    Fire(Weapon, Vec<Target>),
    Relocate,
    Capital(Target),
}

impl Order {
    /// The answer string of this order, as `legal_actions` lists it.
    pub fn text(&self) -> String {
        let targets = |t: &[Target]| {
            t.iter()
                .map(|(x, y)| format!(" {x} {y}"))
                .collect::<String>()
        };
        match self {
            Order::Wait => "WAIT".into(),
            Order::Move(d) => dir_word(*d).into(),
            Order::Build(k) => format!("BUILD {}", k.word()),
            Order::Allocate([a, d, r]) => format!("ALLOCATE {a} {d} {r}"),
            Order::Garrison(n) => format!("GARRISON {n}"),
            Order::Withdraw(n) => format!("WITHDRAW {n}"),
            Order::Fire(w, t) => format!("{}{}", w.word(), targets(t)),
            Order::Relocate => "RELOCATE".into(),
            Order::Capital((x, y)) => format!("CAPITAL {x} {y}"),
        }
    }
}

pub(crate) fn dir_word(d: Dir) -> &'static str {
    match d {
        Dir::North => "NORTH",
        Dir::East => "EAST",
        Dir::South => "SOUTH",
        Dir::West => "WEST",
    }
}

fn dir_from(word: &str) -> Option<Dir> {
    Some(match word.to_ascii_uppercase().as_str() {
        "NORTH" | "N" => Dir::North,
        "EAST" | "E" => Dir::East,
        "SOUTH" | "S" => Dir::South,
        "WEST" | "W" => Dir::West,
        _ => return None,
    })
}

fn building_from(word: &str) -> Option<BuildingKind> {
    let word = word.to_ascii_uppercase();
    BuildingKind::ALL.into_iter().find(|k| k.word() == word)
}

fn weapon_from(word: &str) -> Option<Weapon> {
    let word = word.to_ascii_uppercase();
    let word = if word == "H-BOMB" { "HBOMB" } else { &word };
    Weapon::ALL.into_iter().find(|w| w.word() == word)
}

/// The JSON form, for messages.
const JSON_FORM: &str =
    "an object with a \"kind\" string, such as {\"kind\": \"move\", \"direction\": \"E\"}";

/// The actions, for messages.
const ACTIONS: &str = "NORTH, EAST, SOUTH, WEST, WAIT, BUILD MINE|BARRACKS|POST, ALLOCATE a d r, \
                       GARRISON n, WITHDRAW n, BOMB|MISSILE|HBOMB [x y], MIRV [x1 y1 ...], \
                       RELOCATE, CAPITAL x y";

/// Reads a raw answer. Keywords are read in any case; surrounding
/// whitespace is ignored.
pub fn parse_answer(raw: &str) -> Result<Order, String> {
    let trimmed = raw.trim();
    if trimmed.starts_with('{') {
        return match serde_json::from_str::<Value>(trimmed) {
            Ok(Value::Object(o)) => parse_object(&o),
            _ => Err(format!(
                "{} is not valid JSON; a JSON answer is {JSON_FORM}",
                quote(trimmed)
            )),
        };
    }
    if trimmed.starts_with('"') {
        return match serde_json::from_str::<Value>(trimmed) {
            Ok(Value::String(s)) => parse_text(&s),
            _ => Err(format!(
                "{} is not a valid JSON string; answer one of {ACTIONS}",
                quote(trimmed)
            )),
        };
    }
    if let Some(kind) = json_kind(trimmed) {
        return Err(format!(
            "{} is {kind}, not an action; answer one of {ACTIONS}, bare or as a JSON string, \
             or {JSON_FORM}",
            quote(trimmed)
        ));
    }
    parse_text(trimmed)
}

/// A whole number; out of the range of `i64` it is clamped (and then
/// refused as out of range by the rules, not as unreadable).
fn int(token: &str) -> Option<i64> {
    let digits = token.strip_prefix(['-', '+']).unwrap_or(token);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(token.parse::<i64>().unwrap_or(if token.starts_with('-') {
        i64::MIN
    } else {
        i64::MAX
    }))
}

/// A finite decimal number.
fn number(token: &str) -> Option<f64> {
    let ok = token
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'));
    token.parse::<f64>().ok().filter(|v| ok && v.is_finite())
}

fn parse_text(text: &str) -> Result<Order, String> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let Some((&head, args)) = tokens.split_first() else {
        return Err(format!(
            "an empty answer is not an action; answer one of {ACTIONS}"
        ));
    };
    let bad = |what: &str| Err(format!("{}: {what}", quote(text)));
    let keyword = head.to_ascii_uppercase();
    if let Some(d) = dir_from(&keyword) {
        return if args.is_empty() {
            Ok(Order::Move(d))
        } else {
            bad("a move takes nothing after the direction")
        };
    }
    if let Some(w) = weapon_from(&keyword) {
        let Some(numbers) = args.iter().map(|t| int(t)).collect::<Option<Vec<i64>>>() else {
            return bad("targets are whole numbers, `x y` for each");
        };
        if numbers.len() % 2 != 0 {
            return bad("targets come in pairs `x y`");
        }
        let targets = numbers.chunks(2).map(|p| (p[0], p[1])).collect();
        return Ok(Order::Fire(w, targets));
    }
    match (keyword.as_str(), args) {
        ("WAIT", []) => Ok(Order::Wait),
        ("RELOCATE", []) => Ok(Order::Relocate),
        ("BUILD", [what]) => match building_from(what) {
            Some(k) => Ok(Order::Build(k)),
            None => bad("BUILD takes MINE, BARRACKS or POST"),
        },
        ("ALLOCATE", [a, d, r]) => match (number(a), number(d), number(r)) {
            (Some(a), Some(d), Some(r)) => Ok(Order::Allocate([a, d, r])),
            _ => bad("ALLOCATE takes three numbers: attack, defense and reserve shares"),
        },
        ("GARRISON" | "WITHDRAW", [n]) => match int(n) {
            Some(n) if keyword == "GARRISON" => Ok(Order::Garrison(n)),
            Some(n) => Ok(Order::Withdraw(n)),
            None => bad("it takes a whole number of soldiers"),
        },
        ("CAPITAL", [x, y]) => match (int(x), int(y)) {
            (Some(x), Some(y)) => Ok(Order::Capital((x, y))),
            _ => bad("CAPITAL takes a cell, `x y`"),
        },
        ("WAIT" | "RELOCATE" | "BUILD" | "ALLOCATE" | "GARRISON" | "WITHDRAW" | "CAPITAL", _) => {
            bad("wrong number of arguments")
        }
        _ => Err(format!(
            "{} is not an action; answer one of {ACTIONS}",
            quote(text)
        )),
    }
}

/// What an answer object holds under `keys`, for a refusal that says what
/// came: `"direction": 5`, `no "direction"`.
fn got(o: &Map<String, Value>, keys: &[&str]) -> String {
    keys.iter()
        .map(|k| match o.get(*k) {
            None => format!("no {k:?}"),
            Some(v) => {
                let mut json = v.to_string();
                if json.len() > 40 {
                    let mut end = 40;
                    while !json.is_char_boundary(end) {
                        end -= 1;
                    }
                    json.truncate(end);
                    json.push_str("...");
                }
                format!("{k:?}: {json}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A whole number from JSON (clamped to `i64`).
fn json_int(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => n
            .as_i64()
            .or_else(|| n.as_u64().map(|_| i64::MAX))
            .filter(|_| !n.is_f64()),
        _ => None,
    }
}

fn json_cell(v: &Value) -> Option<Target> {
    match v.as_array()?.as_slice() {
        [x, y] => Some((json_int(x)?, json_int(y)?)),
        _ => None,
    }
}

fn parse_object(o: &Map<String, Value>) -> Result<Order, String> {
    let Some(kind) = o.get("kind").and_then(Value::as_str) else {
        return Err(format!(
            "a JSON answer is {JSON_FORM}; got {}",
            got(o, &["kind"])
        ));
    };
    let kind = kind.to_ascii_lowercase();
    let field = |k: &str| o.get(k).filter(|v| !v.is_null());
    let need = |what: &str, keys: &[&str]| {
        Err(format!(
            "a {kind:?} answer needs {what}; got {}",
            got(o, keys)
        ))
    };
    if let Some(w) = weapon_from(&kind) {
        let targets = if w == Weapon::Mirv {
            match field("targets") {
                None => Vec::new(),
                Some(v) => match v.as_array() {
                    Some(list) => match list.iter().map(json_cell).collect::<Option<Vec<_>>>() {
                        Some(t) => t,
                        None => return need("\"targets\": a list of [x, y] cells", &["targets"]),
                    },
                    None => return need("\"targets\": a list of [x, y] cells", &["targets"]),
                },
            }
        } else {
            match field("target") {
                None => Vec::new(),
                Some(v) => match json_cell(v) {
                    Some(t) => vec![t],
                    None => {
                        return need(
                            "\"target\": [x, y], or no target to let the game aim",
                            &["target"],
                        )
                    }
                },
            }
        };
        return Ok(Order::Fire(w, targets));
    }
    match kind.as_str() {
        "wait" => Ok(Order::Wait),
        "relocate" => Ok(Order::Relocate),
        "move" => match field("direction")
            .and_then(Value::as_str)
            .and_then(dir_from)
        {
            Some(d) => Ok(Order::Move(d)),
            None => need(
                "\"direction\": \"N\", \"E\", \"S\" or \"W\"",
                &["direction"],
            ),
        },
        "build" => match field("building")
            .and_then(Value::as_str)
            .and_then(building_from)
        {
            Some(k) => Ok(Order::Build(k)),
            None => need(
                "\"building\": \"mine\", \"barracks\" or \"post\"",
                &["building"],
            ),
        },
        "allocate" => {
            let share = |k: &str| field(k).and_then(Value::as_f64).filter(|v| v.is_finite());
            match (share("attack"), share("defense"), share("reserve")) {
                (Some(a), Some(d), Some(r)) => Ok(Order::Allocate([a, d, r])),
                _ => need(
                    "numbers \"attack\", \"defense\" and \"reserve\"",
                    &["attack", "defense", "reserve"],
                ),
            }
        }
        "garrison" | "withdraw" => match field("soldiers").and_then(json_int) {
            Some(n) if kind == "garrison" => Ok(Order::Garrison(n)),
            Some(n) => Ok(Order::Withdraw(n)),
            None => need("\"soldiers\": a whole number", &["soldiers"]),
        },
        "capital" => match field("position").and_then(json_cell) {
            Some(t) => Ok(Order::Capital(t)),
            None => need("\"position\": [x, y]", &["position"]),
        },
        _ => Err(format!(
            "{} is not a kind of action; the kinds are move, wait, build, allocate, garrison, \
             withdraw, bomb, missile, mirv, hbomb, relocate, capital",
            quote(&kind)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_answers_read_in_any_case_and_write_back_canonically() {
        for (raw, text) in [
            ("EAST", "EAST"),
            ("e", "EAST"),
            (" build   mine ", "BUILD MINE"),
            ("ALLOCATE 0.5 0.35 0.15", "ALLOCATE 0.5 0.35 0.15"),
            ("GARRISON 100", "GARRISON 100"),
            ("MIRV 1 2 3 4 5 6", "MIRV 1 2 3 4 5 6"),
            ("H-BOMB", "HBOMB"),
            ("bomb -1 99", "BOMB -1 99"),
            ("\"CAPITAL 2 3\"", "CAPITAL 2 3"),
            ("RELOCATE", "RELOCATE"),
        ] {
            assert_eq!(parse_answer(raw).unwrap().text(), text, "{raw:?}");
        }
    }

    #[test]
    fn json_answers_read_every_kind() {
        for (raw, text) in [
            (r#"{"kind": "move", "direction": "E"}"#, "EAST"),
            (r#"{"kind": "wait"}"#, "WAIT"),
            (r#"{"kind": "build", "building": "post"}"#, "BUILD POST"),
            (
                r#"{"kind": "allocate", "attack": 1, "defense": 0.5, "reserve": 0}"#,
                "ALLOCATE 1 0.5 0",
            ),
            (r#"{"kind": "withdraw", "soldiers": 7}"#, "WITHDRAW 7"),
            (r#"{"kind": "bomb", "target": [3, 4]}"#, "BOMB 3 4"),
            (r#"{"kind": "missile"}"#, "MISSILE"),
            (
                r#"{"kind": "mirv", "targets": [[1, 2], [3, 4]]}"#,
                "MIRV 1 2 3 4",
            ),
            (r#"{"kind": "capital", "position": [2, 2]}"#, "CAPITAL 2 2"),
        ] {
            assert_eq!(parse_answer(raw).unwrap().text(), text, "{raw}");
        }
    }

    #[test]
    fn garbage_is_refused_with_a_short_reason() {
        for bad in [
            "",
            "   ",
            "FLY",
            "EAST EAST",
            "BUILD CASTLE",
            "ALLOCATE 1 2",
            "ALLOCATE a b c",
            "ALLOCATE inf 0 0",
            "GARRISON 1.5",
            "BOMB 1",
            "BOMB x y",
            "MIRV 1 2 3",
            "{\"kind\": \"move\"}",
            "{\"kind\": \"teleport\"}",
            "{\"kind\": \"bomb\", \"target\": [1.5, 2]}",
            "{\"kind\": \"garrison\", \"soldiers\": 2.0}",
            "[\"EAST\"]",
            "null",
            "\"EAST",
            "{",
            "\u{0}\u{fffd}",
        ] {
            let e = parse_answer(bad).unwrap_err();
            assert!(e.len() < 400, "{bad:?}: {e}");
        }
        let long = "x".repeat(100_000);
        assert!(parse_answer(&long).unwrap_err().len() < 400);
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        assert!(parse_answer(&format!("{{\"kind\": \"mirv\", \"targets\": {deep}}}")).is_err());
    }

    #[test]
    fn numbers_out_of_range_are_read_and_left_to_the_rules() {
        assert_eq!(
            parse_answer("BOMB 99999999999999999999999 -99999999999999999999"),
            Ok(Order::Fire(Weapon::Bomb, vec![(i64::MAX, i64::MIN)]))
        );
        assert_eq!(parse_answer("GARRISON -5"), Ok(Order::Garrison(-5)));
        assert_eq!(
            parse_answer(r#"{"kind": "capital", "position": [18446744073709551615, -1]}"#),
            Ok(Order::Capital((i64::MAX, -1)))
        );
    }
}
