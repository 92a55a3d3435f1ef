//! What the two Kaggle ports share, Kore (`kore_fleets`) and Halite IV
//! (`halite`) of `kaggle-environments` 1.33.2: Python's numbers
//! ([`pynum`]) and random generators ([`pyrng`]), the board generator both
//! references use ([`board`]), answers read as Python's `json.loads` reads
//! them ([`pyjson`]), asset uids, the cells of a torus and which asset stands
//! on each, the seats' statuses and rewards with the end-of-step rules of the
//! references' `core.py` ([`Seats`]), the observation's shape, config
//! numbers, and refusals capped per seat and turn.
//!
//! Where the two games differ, the difference is a parameter here, or stays
//! in the game's own module.

pub mod board;
pub mod pyjson;
pub mod pynum;
pub mod pyrng;
mod seats;

use std::cell::RefCell;
use std::fmt;

use serde_json::Value;

pub use board::{populate_board, Generator};
pub use pynum::{AsciiWriter, Num};
pub use seats::{Seats, Status};

use crate::{EngineError, Rejection, Seat};

/// `remainingOverageTime` in every observation: the references' default.
/// Ludus limits time with fuel, so it never decreases.
pub const REMAINING_OVERAGE_TIME: i64 = 60;

/// An asset's uid, written `"{step}-{n}"`: the step it was made in (the
/// step whose observation first shows it) and its number within that step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Uid {
    pub step: u32,
    pub n: u32,
}

impl Uid {
    /// Reads `"{step}-{n}"` written as Python writes ints (no sign, no
    /// leading zeros); anything else names no asset.
    pub fn parse(text: &str) -> Option<Uid> {
        fn int(s: &str) -> Option<u32> {
            let canonical = !s.is_empty()
                && s.bytes().all(|b| b.is_ascii_digit())
                && (s == "0" || !s.starts_with('0'));
            canonical.then(|| s.parse().ok()).flatten()
        }
        let (step, n) = text.split_once('-')?;
        Some(Uid {
            step: int(step)?,
            n: int(n)?,
        })
    }

    /// Whether `key` is this uid's text exactly.
    pub fn matches(&self, key: &str) -> bool {
        Uid::parse(key) == Some(*self)
    }

    /// Writes the uid's text.
    pub fn write(self, w: &mut AsciiWriter<'_>) {
        w.uint(u64::from(self.step));
        w.byte(b'-');
        w.uint(u64::from(self.n));
    }
}

impl fmt::Display for Uid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.step, self.n)
    }
}

/// The uids made during one step: `"{step + 1}-{n}"`, `n` counting from 1
/// over every asset of every seat, in the order they are made.
#[derive(Debug, Clone, Default)]
pub struct NewUids {
    made: u32,
}

impl NewUids {
    /// Starts a step.
    pub fn reset(&mut self) {
        self.made = 0;
    }

    /// The next uid of the step after `step`.
    pub fn next(&mut self, step: u32) -> Uid {
        self.made += 1;
        Uid {
            step: step + 1,
            n: self.made,
        }
    }
}

/// A direction, numbered as the references' `Direction.to_index`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Dir {
    North = 0,
    East = 1,
    South = 2,
    West = 3,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];

    /// `N`, `E`, `S` or `W`.
    pub fn from_char(c: u8) -> Option<Dir> {
        match c {
            b'N' => Some(Dir::North),
            b'E' => Some(Dir::East),
            b'S' => Some(Dir::South),
            b'W' => Some(Dir::West),
            _ => None,
        }
    }

    pub fn index(self) -> i64 {
        self as i64
    }

    /// The cell one step from `pos` on a `size` × `size` board that wraps at
    /// its edges. Cells are `row * size + column`, row 0 at the top: NORTH is
    /// one row up, EAST one column right.
    pub fn step(self, pos: usize, size: usize) -> usize {
        let (row, col) = (pos / size, pos % size);
        match self {
            Dir::North => ((row + size - 1) % size) * size + col,
            Dir::South => ((row + 1) % size) * size + col,
            Dir::East => row * size + (col + 1) % size,
            Dir::West => row * size + (col + size - 1) % size,
        }
    }
}

/// Per cell, the index of the one asset standing there (in the game's list
/// of ships, fleets or shipyards), or none: what the references keep as
/// `cell.ship_id`, `cell.fleet_id` and `cell.shipyard_id`.
#[derive(Debug, Clone)]
pub struct CellIndex(Vec<u32>);

impl CellIndex {
    const NONE: u32 = u32::MAX;

    /// `cells` cells with nothing on them.
    pub fn new(cells: usize) -> Self {
        CellIndex(vec![Self::NONE; cells])
    }

    /// The index of the asset on `cell`.
    pub fn get(&self, cell: usize) -> Option<usize> {
        match self.0[cell] {
            Self::NONE => None,
            i => Some(i as usize),
        }
    }

    /// Whether an asset stands on `cell`.
    pub fn is_taken(&self, cell: usize) -> bool {
        self.0[cell] != Self::NONE
    }

    /// Whether an asset stands on each cell, in cell order.
    pub fn taken_cells(&self) -> impl Iterator<Item = bool> + '_ {
        self.0.iter().map(|&i| i != Self::NONE)
    }

    pub fn set(&mut self, cell: usize, index: usize) {
        self.0[cell] = u32::try_from(index).expect("fewer assets than cells times players");
    }

    pub fn clear(&mut self, cell: usize) {
        self.0[cell] = Self::NONE;
    }

    pub fn clear_all(&mut self) {
        self.0.fill(Self::NONE);
    }
}

/// The fields every seat's observation shares (`"kore":[...],"players":[...]`
/// or Halite's), written once per step and copied for each seat: writing
/// them is most of an observation's cost.
///
/// The game forgets the text at the start of every step. A phase run alone
/// (a test) does not, so debug builds check every copy against a fresh
/// text; a game's clone starts without one.
#[derive(Debug, Default)]
pub struct BoardText(RefCell<Option<String>>);

impl Clone for BoardText {
    fn clone(&self) -> Self {
        BoardText::default()
    }
}

impl BoardText {
    /// Forgets the text: the board is about to change.
    pub fn forget(&mut self) {
        *self.0.get_mut() = None;
    }

    /// Appends the text, written by `write` if it is not held yet.
    pub fn append_to(&self, out: &mut String, write: impl Fn(&mut String)) {
        let mut held = self.0.borrow_mut();
        let text = held.get_or_insert_with(|| {
            let mut text = String::with_capacity(8 << 10);
            write(&mut text);
            text
        });
        debug_assert!(
            {
                let mut fresh = String::new();
                write(&mut fresh);
                fresh == *text
            },
            "the board changed without the step forgetting its text"
        );
        out.push_str(text);
    }
}

/// Writes `{"uid":<value>,...}`, a dict of assets by uid in the order given,
/// as both references' observations list shipyards, ships and fleets.
pub fn write_assets<T>(
    w: &mut AsciiWriter<'_>,
    assets: impl Iterator<Item = (Uid, T)>,
    mut value: impl FnMut(&mut AsciiWriter<'_>, T),
) {
    w.byte(b'{');
    for (k, (uid, asset)) in assets.enumerate() {
        if k > 0 {
            w.byte(b',');
        }
        w.byte(b'"');
        uid.write(w);
        w.text("\":");
        value(w, asset);
    }
    w.byte(b'}');
}

/// Writes what a Kaggle agent in `seat` receives at `step` as its
/// `observation`, with `board` writing the fields every seat shares
/// (`"kore":[...],"players":[...]` or `"halite":[...],"players":[...]`).
///
/// The key order is the references', which depends on where upstream built
/// the dict: seat 0's is rebuilt by the interpreter after every step
/// (`<board>, player, step, remainingOverageTime`) but comes from the schema
/// defaults at step 0 (`remainingOverageTime, step, player, <board>`); the
/// other seats' always come from the schema defaults with the shared fields
/// appended (`remainingOverageTime, player, step, <board>`).
pub fn write_observation(out: &mut String, seat: Seat, step: u32, board: impl FnOnce(&mut String)) {
    let mut digits = itoa::Buffer::new();
    let overage = |out: &mut String| {
        out.push_str("\"remainingOverageTime\":");
        out.push_str(itoa::Buffer::new().format(REMAINING_OVERAGE_TIME));
    };
    out.push('{');
    if seat == 0 && step > 0 {
        board(out);
        out.push_str(",\"player\":0,\"step\":");
        out.push_str(digits.format(step));
        out.push(',');
        overage(out);
    } else if seat == 0 {
        overage(out);
        out.push_str(",\"step\":0,\"player\":0,");
        board(out);
    } else {
        overage(out);
        out.push_str(",\"player\":");
        out.push_str(digits.format(seat));
        out.push_str(",\"step\":");
        out.push_str(digits.format(step));
        out.push(',');
        board(out);
    }
    out.push('}');
}

/// Writes what a Ludus bot in `seat` receives: `{"observation": ...,
/// "configuration": ...}`, the two arguments of a Kaggle agent's
/// `agent(obs, config)`.
pub fn write_agent_view(
    out: &mut String,
    seat: Seat,
    step: u32,
    configuration: &str,
    board: impl FnOnce(&mut String),
) {
    out.push_str("{\"observation\":");
    write_observation(out, seat, step, board);
    out.push_str(",\"configuration\":");
    out.push_str(configuration);
    out.push('}');
}

/// The kind of [`Rejection`] that stands for the refusals of a seat's turn
/// beyond [`MAX_REFUSALS_PER_TURN`].
pub const MORE_REFUSALS: &str = "more_refusals";

/// Refusals recorded one by one per seat and turn; the rest are counted in
/// one [`MORE_REFUSALS`] rejection, so an answer with a million bad keys
/// cannot swell the replay.
pub const MAX_REFUSALS_PER_TURN: usize = 50;

/// Collects one seat's refusals of one turn, capped.
pub struct Refusals<'a> {
    out: &'a mut Vec<Rejection>,
    seat: Seat,
    count: usize,
}

impl<'a> Refusals<'a> {
    pub fn new(out: &'a mut Vec<Rejection>, seat: Seat) -> Self {
        Refusals {
            out,
            seat,
            count: 0,
        }
    }

    /// Records a refusal of `kind`; `reason` is only written if it is kept.
    pub fn push(&mut self, kind: &str, reason: impl FnOnce() -> String) {
        self.count += 1;
        if self.count <= MAX_REFUSALS_PER_TURN {
            self.out.push(Rejection {
                seat: self.seat,
                kind: kind.to_string(),
                reason: reason(),
            });
        }
    }
}

impl Drop for Refusals<'_> {
    fn drop(&mut self) {
        if self.count > MAX_REFUSALS_PER_TURN {
            let more = self.count - MAX_REFUSALS_PER_TURN;
            self.out.push(Rejection {
                seat: self.seat,
                kind: MORE_REFUSALS.to_string(),
                reason: format!("{more} more refusals this turn were not recorded one by one"),
            });
        }
    }
}

/// At most 60 characters, for messages that quote a bot's text.
pub fn shorten(s: &str) -> String {
    if s.chars().count() <= 60 {
        s.to_string()
    } else {
        let cut: String = s.chars().take(57).collect();
        format!("{cut}...")
    }
}

/// A config error of `game`.
pub fn config_error(game: &'static str, reason: impl Into<String>) -> EngineError {
    EngineError::Config {
        game,
        reason: reason.into(),
    }
}

/// Reading a game's config fields, numbers kept as the references keep
/// them: a JSON int is a Python int, a number with a point or an exponent a
/// float.
#[derive(Debug, Clone, Copy)]
pub struct ConfigReader {
    pub game: &'static str,
}

impl ConfigReader {
    pub fn error(self, reason: impl Into<String>) -> EngineError {
        config_error(self.game, reason)
    }

    /// A whole number (written without a point) from `min` to `max`.
    pub fn int(self, key: &str, value: &Value, min: i64, max: i64) -> Result<i64, EngineError> {
        value
            .as_i64()
            .filter(|n| (min..=max).contains(n))
            .ok_or_else(|| {
                self.error(format!(
                    "`{}` is {}; it must be a whole number (no decimal point) from {min} to {max}",
                    shorten(key),
                    shorten(&value.to_string())
                ))
            })
    }

    /// A number from 0 to `max`, an int staying an int.
    pub fn num(self, key: &str, value: &Value, max: f64) -> Result<Num, EngineError> {
        let n = match value {
            Value::Number(n) => match n.as_i64() {
                Some(i) => Some(Num::Int(i)),
                None if n.is_u64() => None,
                None => n.as_f64().map(Num::Float),
            },
            _ => None,
        };
        n.filter(|n| (0.0..=max).contains(&n.to_f64()))
            .ok_or_else(|| {
                self.error(format!(
                    "`{}` is {}; it must be a number from 0 to {max} (an int stays an int, \
                     as the reference keeps it)",
                    shorten(key),
                    shorten(&value.to_string())
                ))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uids_read_only_as_python_writes_them() {
        assert_eq!(Uid::parse("12-3"), Some(Uid { step: 12, n: 3 }));
        assert_eq!(Uid::parse("0-1"), Some(Uid { step: 0, n: 1 }));
        for bad in [
            "01-1",
            "1-01",
            "-1",
            "1-",
            "1-1-1",
            "+1-1",
            " 1-1",
            "1-x",
            "99999999999-1",
        ] {
            assert_eq!(Uid::parse(bad), None, "{bad}");
        }
        let mut s = String::new();
        Uid { step: 40, n: 7 }.write(&mut AsciiWriter::new(&mut s));
        assert_eq!(s, "40-7");
        assert!(Uid { step: 40, n: 7 }.matches("40-7"));
    }

    #[test]
    fn directions_wrap_round_the_torus() {
        let size = 5;
        assert_eq!(Dir::North.step(2, size), 22);
        assert_eq!(Dir::South.step(22, size), 2);
        assert_eq!(Dir::East.step(9, size), 5);
        assert_eq!(Dir::West.step(5, size), 9);
        assert_eq!(Dir::East.step(12, size), 13);
    }

    #[test]
    fn observation_keys_follow_the_seat_and_step() {
        let obs = |seat, step| {
            let mut s = String::new();
            write_observation(&mut s, seat, step, |o| o.push_str("\"b\":1"));
            s
        };
        assert_eq!(
            obs(0, 0),
            r#"{"remainingOverageTime":60,"step":0,"player":0,"b":1}"#
        );
        assert_eq!(
            obs(0, 7),
            r#"{"b":1,"player":0,"step":7,"remainingOverageTime":60}"#
        );
        assert_eq!(
            obs(3, 7),
            r#"{"remainingOverageTime":60,"player":3,"step":7,"b":1}"#
        );
    }

    #[test]
    fn refusals_beyond_the_cap_are_counted_in_one() {
        let mut out = Vec::new();
        {
            let mut r = Refusals::new(&mut out, 1);
            for _ in 0..MAX_REFUSALS_PER_TURN + 7 {
                r.push("unknown", || "x".into());
            }
        }
        assert_eq!(out.len(), MAX_REFUSALS_PER_TURN + 1);
        let last = out.last().unwrap();
        assert_eq!((last.seat, last.kind.as_str()), (1, MORE_REFUSALS));
        assert!(last.reason.starts_with("7 more"), "{}", last.reason);
    }
}
