//! Reading a seat's answer: JSON text of the dict a Kaggle agent returns,
//! `{shipyard uid: "SPAWN_n" | "LAUNCH_n_PLAN"}`, read value by value as
//! upstream's `ShipyardAction.from_str` reads it, including where it raises.

use super::pyparse::{parse_object, py_int, upper_plan, JsonValue, PyInt};
use crate::{Rejection, Seat};

/// Rejection kinds.
pub mod kind {
    /// Not JSON: the seat takes no action this turn.
    pub const NOT_JSON: &str = "not_json";
    /// JSON but not an object: no action (upstream's schema default).
    pub const NOT_AN_OBJECT: &str = "not_an_object";
    /// A key that is not one of the seat's shipyards: ignored.
    pub const UNKNOWN_UID: &str = "unknown_uid";
    /// A value upstream's interpreter raises on: the seat is out (ERROR).
    pub const AGENT_ERROR: &str = "agent_error";
    /// A spawn the shipyard cannot make (kore or its spawn cap): ignored.
    pub const SPAWN_REFUSED: &str = "spawn_refused";
    /// A launch of more ships than the shipyard has: ignored.
    pub const LAUNCH_REFUSED: &str = "launch_refused";
}

/// One shipyard's order, as upstream's `ShipyardAction`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Order {
    Spawn(PyInt),
    /// Ships (≥ 1, saturated at `u64::MAX`) and the upper-cased plan, which
    /// starts with one of `NESW` and holds only `NESWC0-9`.
    Launch(u64, String),
}

/// How upstream reads one value of the answer dict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reading {
    /// No order (`None`): falsy values and strings that start with neither
    /// `SPAWN` nor `LAUNCH`.
    Nothing,
    Order(Order),
    /// Upstream raises (the message says why).
    Raises(String),
}

/// `ShipyardAction.from_str(raw)` of upstream's `helpers.py`.
pub fn read_value(value: &JsonValue) -> Reading {
    let raw = match value {
        JsonValue::Falsy => return Reading::Nothing,
        JsonValue::Truthy => {
            return Reading::Raises("the action is not a string (upstream: AttributeError)".into())
        }
        JsonValue::Str(s) => s.as_str(),
    };
    if raw.starts_with("SPAWN") {
        let parts: Vec<&str> = raw.split('_').collect();
        if parts.len() != 2 {
            return Reading::Raises(format!(
                "{raw:?} splits into {} parts at `_`, not 2 (upstream: ValueError)",
                parts.len()
            ));
        }
        let Some(n) = ship_count(parts[1]) else {
            return Reading::Raises(format!("{:?} is not an int (upstream raises)", parts[1]));
        };
        if n.negative {
            return Reading::Raises("a negative number of ships (upstream: AssertionError)".into());
        }
        return Reading::Order(Order::Spawn(n));
    }
    if raw.starts_with("LAUNCH") {
        let parts: Vec<&str> = raw.split('_').collect();
        if parts.len() != 3 {
            return Reading::Raises(format!(
                "{raw:?} splits into {} parts at `_`, not 3 (upstream: ValueError)",
                parts.len()
            ));
        }
        let Some(n) = ship_count(parts[1]) else {
            return Reading::Raises(format!("{:?} is not an int (upstream raises)", parts[1]));
        };
        if n.negative || n.is_zero() {
            return Reading::Raises(
                "a launch needs at least 1 ship (upstream: AssertionError)".into(),
            );
        }
        let plan = match upper_plan(parts[2]) {
            Some(p) if p.starts_with(['N', 'E', 'S', 'W']) => p,
            _ => {
                return Reading::Raises(format!(
                    "flight plan {:?} must start with one of NESW and hold only NESWC0-9 \
                     (upstream: AssertionError)",
                    parts[2]
                ))
            }
        };
        return Reading::Order(Order::Launch(n.magnitude, plan));
    }
    Reading::Nothing
}

/// `int(ship_str.split(".")[0])`.
fn ship_count(text: &str) -> Option<PyInt> {
    py_int(text.split('.').next().unwrap_or(""))
}

/// A seat's answer, read.
pub enum Answer {
    /// Entries in the order given (duplicates resolved).
    Entries(Vec<(String, JsonValue)>),
    /// No orders.
    Empty,
}

/// Reads a seat's raw answer text; refusals are added to `rejections`.
pub fn read_answer(seat: Seat, raw: &str, rejections: &mut Vec<Rejection>) -> Answer {
    match parse_object(raw) {
        Ok(Some(entries)) => Answer::Entries(entries),
        Ok(None) => {
            rejections.push(Rejection {
                seat,
                kind: kind::NOT_AN_OBJECT.into(),
                reason: "the answer must be a JSON object {shipyard uid: action}; \
                         anything else is no action"
                    .into(),
            });
            Answer::Empty
        }
        Err(e) => {
            rejections.push(Rejection {
                seat,
                kind: kind::NOT_JSON.into(),
                reason: format!(
                    "the answer is not JSON ({e}); it counts as no action. Send a JSON object \
                     such as {{\"0-1\": \"SPAWN_1\"}}"
                ),
            });
            Answer::Empty
        }
    }
}
