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
    /// Any other wasm trap: an uncaught Python exception, a Rust panic
    /// (`unreachable`), an out-of-bounds access, ...
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

#[cfg(feature = "sandbox")]
pub(crate) use note::FaultNote;

/// Faults explained by the bots themselves (running bots only).
#[cfg(feature = "sandbox")]
mod note {
    /// A bot's own explanation of the fault that ended its turn, written just
    /// before it traps (see `FAULT_NOTE_PREFIX` in the sandbox's WASI layer): a
    /// Python wrapper's for an uncaught exception, the Rust SDK's panic hook for
    /// a panic. Every field is the bot's to fill: a note that does not read
    /// as one is ignored, and the text made of one is kept to one line of
    /// bounded length.
    #[derive(Debug, Default, serde::Deserialize)]
    #[serde(default)]
    pub(crate) struct FaultNote {
        /// The exception's type (`ZeroDivisionError`), or `panic`.
        #[serde(rename = "type")]
        kind: String,
        message: String,
        /// The author's file where it happened: for an exception, the innermost
        /// frame in the bot's own source.
        file: Option<String>,
        line: Option<u32>,
        column: Option<u32>,
        /// The function of that frame.
        function: Option<String>,
    }

    /// Longest explanation taken from a note, in characters.
    const NOTE_CHARS: usize = 400;

    impl FaultNote {
        /// The note's explanation, or `None` when `bytes` is not a note.
        pub(crate) fn explain(bytes: &[u8]) -> Option<String> {
            let note: FaultNote = serde_json::from_slice(bytes).ok()?;
            let kind = one_line(&note.kind);
            if kind.is_empty() {
                return None;
            }
            let message = one_line(&note.message);
            let file = note.file.as_deref().map(one_line).filter(|f| !f.is_empty());
            let text = if kind == "panic" {
                // As Rust itself words a panic.
                let at = match (file, note.line, note.column) {
                    (Some(f), Some(l), Some(c)) => format!(" at {f}:{l}:{c}"),
                    (Some(f), Some(l), None) => format!(" at {f}:{l}"),
                    (Some(f), None, _) => format!(" at {f}"),
                    (None, ..) => String::new(),
                };
                format!("panicked{at}: {message}")
            } else {
                // As Python words an exception, then where in the author's file.
                let mut text = if message.is_empty() {
                    kind
                } else {
                    format!("{kind}: {message}")
                };
                if let Some(f) = file {
                    text += &format!(" ({f}");
                    if let Some(l) = note.line {
                        text += &format!(" line {l}");
                    }
                    if let Some(function) = note.function.as_deref().map(one_line) {
                        text += &format!(", in {function}");
                    }
                    text.push(')');
                }
                text
            };
            Some(clip(&text, NOTE_CHARS))
        }
    }

    /// `text` on one line: every run of whitespace (line breaks included) one space.
    fn one_line(text: &str) -> String {
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    fn clip(text: &str, chars: usize) -> String {
        match text.char_indices().nth(chars) {
            Some((end, _)) => format!("{}…", &text[..end]),
            None => text.to_string(),
        }
    }

    #[cfg(test)]
    mod tests {
        use super::FaultNote;

        #[test]
        fn a_python_note_reads_as_python_words_it_then_the_authors_file_and_line() {
            let note = br#"{"type":"ZeroDivisionError","message":"division by zero","file":"my_bot.py","line":2,"function":"helper"}"#;
            assert_eq!(
                FaultNote::explain(note).as_deref(),
                Some("ZeroDivisionError: division by zero (my_bot.py line 2, in helper)")
            );
            let bare = br#"{"type":"StopIteration","message":""}"#;
            assert_eq!(FaultNote::explain(bare).as_deref(), Some("StopIteration"));
        }

        #[test]
        fn a_panic_note_reads_as_rust_words_a_panic() {
            let note = br#"{"type":"panic","message":"no planet\nleft","file":"src/lib.rs","line":10,"column":5}"#;
            assert_eq!(
                FaultNote::explain(note).as_deref(),
                Some("panicked at src/lib.rs:10:5: no planet left")
            );
        }

        #[test]
        fn anything_else_is_no_note_and_a_long_one_is_cut() {
            for junk in [&b"not json"[..], b"{}", b"[1]", br#"{"type":""}"#, b""] {
                assert_eq!(FaultNote::explain(junk), None, "{junk:?}");
            }
            let long = format!(
                r#"{{"type":"ValueError","message":"{}"}}"#,
                "x".repeat(5000)
            );
            let text = FaultNote::explain(long.as_bytes()).unwrap();
            assert_eq!(text.chars().count(), 401);
            assert!(text.ends_with('…'));
        }
    }
}
