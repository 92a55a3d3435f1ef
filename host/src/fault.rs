//! Faults: everything a bot can do wrong, as data. A fault never crashes the
//! host; it is recorded in the replay with the turn and the reason.

use serde::{Deserialize, Serialize};
use std::fmt;

/// What went wrong, in a few fixed kinds that callers can branch on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    /// The bot used up its fuel (an endless loop, or too slow).
    OutOfFuel,
    /// The bot tried to grow its memory (or tables) past the cap.
    MemoryCap,
    /// The bot overflowed its wasm stack (e.g. unbounded recursion).
    StackOverflow,
    /// Any other wasm trap: `unreachable` (a Rust panic), out-of-bounds access, ...
    Trap,
    /// The bot called `proc_exit`.
    Exit,
    /// `ludus_alloc` returned a region outside the bot's memory.
    BadAllocPointer,
    /// `act` returned a region outside the bot's memory.
    BadAnswerPointer,
    /// The answer is longer than the limit.
    AnswerTooLarge,
    /// The answer is not UTF-8.
    BadUtf8,
    /// The module could not be instantiated for this match (e.g. its initial
    /// memory is over the cap).
    Instantiate,
}

impl FaultKind {
    pub fn as_str(self) -> &'static str {
        match self {
            FaultKind::OutOfFuel => "out_of_fuel",
            FaultKind::MemoryCap => "memory_cap",
            FaultKind::StackOverflow => "stack_overflow",
            FaultKind::Trap => "trap",
            FaultKind::Exit => "exit",
            FaultKind::BadAllocPointer => "bad_alloc_pointer",
            FaultKind::BadAnswerPointer => "bad_answer_pointer",
            FaultKind::AnswerTooLarge => "answer_too_large",
            FaultKind::BadUtf8 => "bad_utf8",
            FaultKind::Instantiate => "instantiate",
        }
    }

    /// The budget the bot exhausted, for the faults that spend one of its
    /// limits (fuel, memory, stack) before they show; `None` for the others,
    /// which show at once.
    pub fn budget(self) -> Option<&'static str> {
        match self {
            FaultKind::OutOfFuel => Some("fuel"),
            FaultKind::MemoryCap => Some("memory"),
            FaultKind::StackOverflow => Some("stack"),
            FaultKind::Trap
            | FaultKind::Exit
            | FaultKind::BadAllocPointer
            | FaultKind::BadAnswerPointer
            | FaultKind::AnswerTooLarge
            | FaultKind::BadUtf8
            | FaultKind::Instantiate => None,
        }
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One fault of one seat on one turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fault {
    pub kind: FaultKind,
    /// What happened, in words a bot author can act on.
    pub message: String,
}

impl Fault {
    pub fn new(kind: FaultKind, message: impl Into<String>) -> Self {
        Fault {
            kind,
            message: message.into(),
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.message)
    }
}
