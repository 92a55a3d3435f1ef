//! Reading a seat's answer: JSON text of the dict a Kaggle agent returns,
//! `{shipyard uid: "SPAWN_n" | "LAUNCH_n_PLAN"}`, read value by value as
//! upstream's `ShipyardAction.from_str` reads it, including where it raises.

use std::borrow::Cow;

use super::pystr::{py_int, upper_plan, PyInt};
use crate::kaggle::pyjson::{self, PyStr, PyValue};
use crate::kaggle::shorten;
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
    /// More refusals than are recorded one by one in a turn.
    pub use crate::kaggle::MORE_REFUSALS;
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
pub fn read_value(value: &PyValue<'_>) -> Reading {
    if !value.truthy() {
        return Reading::Nothing;
    }
    let PyValue::Str(raw) = value else {
        return Reading::Raises(format!(
            "the action is {}, not a string (upstream: AttributeError)",
            value.kind()
        ));
    };
    // A lone surrogate fails every check a U+FFFD fails: it is neither a
    // digit, a space, `_` nor a plan letter.
    let raw: Cow<'_, str> = raw.to_lossy();
    let raw = raw.as_ref();
    if raw.starts_with("SPAWN") {
        let parts: Vec<&str> = raw.split('_').collect();
        if parts.len() != 2 {
            return Reading::Raises(format!(
                "{} splits into {} parts at `_`, not 2 (upstream: ValueError)",
                shorten(&format!("{raw:?}")),
                parts.len()
            ));
        }
        let Some(n) = ship_count(parts[1]) else {
            return Reading::Raises(format!(
                "{} is not an int (upstream raises)",
                shorten(&format!("{:?}", parts[1]))
            ));
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
                "{} splits into {} parts at `_`, not 3 (upstream: ValueError)",
                shorten(&format!("{raw:?}")),
                parts.len()
            ));
        }
        let Some(n) = ship_count(parts[1]) else {
            return Reading::Raises(format!(
                "{} is not an int (upstream raises)",
                shorten(&format!("{:?}", parts[1]))
            ));
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
                    "flight plan {} must start with one of NESW and hold only NESWC0-9 \
                     (upstream: AssertionError)",
                    shorten(&format!("{:?}", parts[2]))
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
pub enum Answer<'a> {
    /// The dict's entries: one per distinct key, in the order given.
    Entries(Vec<(PyStr<'a>, PyValue<'a>)>),
    /// No orders.
    Empty,
}

/// Reads a seat's raw answer text; refusals are added to `rejections`.
pub fn read_answer<'a>(seat: Seat, raw: &'a str, rejections: &mut Vec<Rejection>) -> Answer<'a> {
    match pyjson::loads(raw) {
        Ok(pyjson::Answer::Dict(entries)) => Answer::Entries(entries),
        Ok(pyjson::Answer::Other(value)) => {
            rejections.push(Rejection {
                seat,
                kind: kind::NOT_AN_OBJECT.into(),
                reason: format!(
                    "the answer is {}, not a JSON object {{shipyard uid: action}}: no action",
                    value.kind()
                ),
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
