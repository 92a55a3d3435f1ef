//! Reading a seat's answer: JSON text of the dict a Kaggle agent returns,
//! `{shipyard uid: "SPAWN_n" | "LAUNCH_n_PLAN"}`, read value by value as
//! upstream's `ShipyardAction.from_str` reads it, including where it raises.

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
    match read_order(&raw.to_lossy()) {
        Ok(Some(order)) => Reading::Order(order),
        Ok(None) => Reading::Nothing,
        Err(why) => Reading::Raises(why),
    }
}

/// The order of a string value, or why upstream raises on it.
fn read_order(raw: &str) -> Result<Option<Order>, String> {
    if raw.starts_with("SPAWN") {
        let [_, n] = split_parts(raw)?;
        let n = ship_count(n)?;
        if n.negative {
            return Err("a negative number of ships (upstream: AssertionError)".into());
        }
        return Ok(Some(Order::Spawn(n)));
    }
    if raw.starts_with("LAUNCH") {
        let [_, n, plan] = split_parts(raw)?;
        let n = ship_count(n)?;
        if n.negative || n.is_zero() {
            return Err("a launch needs at least 1 ship (upstream: AssertionError)".into());
        }
        return match upper_plan(plan) {
            Some(p) if p.starts_with(['N', 'E', 'S', 'W']) => {
                Ok(Some(Order::Launch(n.magnitude, p)))
            }
            _ => Err(format!(
                "flight plan {} must start with one of NESW and hold only NESWC0-9 \
                 (upstream: AssertionError)",
                shorten(&format!("{plan:?}"))
            )),
        };
    }
    Ok(None)
}

/// `raw.split("_")` when it gives exactly `N` parts, as upstream unpacks
/// it; otherwise upstream's ValueError.
fn split_parts<const N: usize>(raw: &str) -> Result<[&str; N], String> {
    let mut parts = [""; N];
    let mut count = 0;
    for part in raw.split('_') {
        if let Some(slot) = parts.get_mut(count) {
            *slot = part;
        }
        count += 1;
    }
    if count == N {
        Ok(parts)
    } else {
        Err(format!(
            "{} splits into {count} parts at `_`, not {N} (upstream: ValueError)",
            shorten(&format!("{raw:?}"))
        ))
    }
}

/// `int(ship_str.split(".")[0])`, or why upstream raises.
fn ship_count(text: &str) -> Result<PyInt, String> {
    py_int(text.split('.').next().unwrap_or("")).ok_or_else(|| {
        format!(
            "{} is not an int (upstream raises)",
            shorten(&format!("{text:?}"))
        )
    })
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
