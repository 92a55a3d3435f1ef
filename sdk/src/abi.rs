//! Guest side of the Ludus bot ABI v1, called by [`export_bot!`](crate::export_bot).
//! Not part of the stable API: bot authors use the macro.
//!
//! The host first calls `_initialize` once (the WASI reactor start: it runs
//! the module's static constructors). Then, for each turn:
//! 1. calls `ludus_alloc(len)` and writes the observation (UTF-8 JSON, `len`
//!    bytes) at the pointer it returns;
//! 2. calls `act(ptr, len)`, which returns where the UTF-8 JSON answer lies as
//!    `(ptr << 32) | len`; the answer stays valid until the next call.
//!
//! One module instance plays one bot for one match, single-threaded, so the
//! state below lives in thread-locals (plain statics on `wasm32`): the input
//! buffer (grown as needed, reused), the output buffer (reused) and the bot.
//!
//! A panic is explained to the host as well as logged: the panic hook writes
//! its message and place in one line that starts `ludus-fault: ` (see
//! [`fault_note`]), which the host keeps out of the log and words the fault
//! with, before the panic ends the turn in a trap.

use crate::bot::{Bot, FromJson};

/// Parses `observation`, asks `bot` and writes its answer as JSON into `out`
/// (cleared first).
///
/// An observation that does not parse (the bot was most likely built for
/// another game) is reported on stderr and answered with nothing: an empty
/// answer, which no game reads, so the game refuses it as unreadable (and
/// plays it as doing nothing), and `ludus check` names the turn. So is an
/// action that fails to serialise.
pub fn answer<B: Bot>(bot: &mut B, observation: &[u8], out: &mut Vec<u8>) {
    out.clear();
    let action = match B::Observation::from_json(observation) {
        Ok(obs) => bot.act(&obs),
        Err(e) => {
            eprintln!("ludus-sdk: could not read this turn's observation ({e}); answering nothing");
            return;
        }
    };
    if let Err(e) = serde_json::to_writer(&mut *out, &action) {
        eprintln!("ludus-sdk: could not write this turn's action ({e}); answering nothing");
        out.clear();
    }
}

/// Longest panic message sent in a fault note, in characters.
const NOTE_MESSAGE_CHARS: usize = 1000;

/// The line that tells the host why the turn ends in a fault: the panic's
/// `message` and where it happened, as JSON after `ludus-fault: ` (the
/// host reads a note only from a single write that starts with it).
pub fn fault_note(message: &str, place: Option<(&str, u32, u32)>) -> String {
    let message: String = message.chars().take(NOTE_MESSAGE_CHARS).collect();
    let mut note = serde_json::json!({"type": "panic", "message": message});
    if let Some((file, line, column)) = place {
        note["file"] = file.into();
        note["line"] = line.into();
        note["column"] = column.into();
    }
    format!("ludus-fault: {note}\n")
}

#[cfg(target_arch = "wasm32")]
mod wasm {
    use crate::abi::{answer, fault_note};
    use crate::bot::Bot;
    use std::any::Any;
    use std::cell::RefCell;
    use std::sync::atomic::{AtomicBool, Ordering};

    #[derive(Default)]
    struct Buffers {
        input: Vec<u8>,
        output: Vec<u8>,
    }

    thread_local! {
        static BUFFERS: RefCell<Buffers> = RefCell::new(Buffers::default());
        static BOT: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
    }

    /// Adds the fault note to the panic hook (once per instance: a fresh
    /// instance after a fault starts without it). The usual message still
    /// goes to the log.
    fn explain_panics() {
        static DONE: AtomicBool = AtomicBool::new(false);
        if DONE.swap(true, Ordering::Relaxed) {
            return;
        }
        let usual = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            usual(info);
            let payload = info.payload();
            let message = payload
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
                .unwrap_or("a panic without a message");
            let place = info.location().map(|l| (l.file(), l.line(), l.column()));
            let note = fault_note(message, place);
            // One write, as the host reads the note only whole.
            let _ = std::io::Write::write_all(&mut std::io::stderr(), note.as_bytes());
        }));
    }

    unsafe extern "C" {
        /// Runs the module's static constructors; synthesised by the linker.
        fn __wasm_call_ctors();
    }

    /// `_initialize()`: the reactor start, run by the host once before any
    /// other call; later calls do nothing.
    ///
    /// The linker only hands this duty to the module when something calls
    /// `__wasm_call_ctors` itself; otherwise it wraps every export so that
    /// the constructors (and destructors) run around each call.
    pub fn initialize() {
        static DONE: AtomicBool = AtomicBool::new(false);
        if !DONE.swap(true, Ordering::Relaxed) {
            // SAFETY: the linker's constructor function, run exactly once,
            // before the module does anything else.
            unsafe { __wasm_call_ctors() }
        }
    }

    /// `ludus_alloc(len)`: the input buffer, grown to at least `len` bytes.
    pub fn alloc(len: i32) -> i32 {
        let len = usize::try_from(len).unwrap_or(0);
        BUFFERS.with_borrow_mut(|b| {
            if b.input.len() < len {
                b.input.resize(len, 0);
            }
            b.input.as_mut_ptr() as usize as i32
        })
    }

    /// `act(ptr, len)`: one turn for the match's bot of type `B`.
    ///
    /// # Safety
    /// `ptr..ptr + len` must be initialised memory that nothing else uses
    /// during the call: the buffer `ludus_alloc` returned, as the ABI says.
    pub unsafe fn act<B: Bot>(ptr: i32, len: i32) -> i64 {
        explain_panics();
        let ptr = ptr as u32 as usize as *const u8;
        let len = usize::try_from(len).unwrap_or(0);
        BUFFERS.with_borrow_mut(|b| {
            let Buffers { input, output } = b;
            let observation: &[u8] = if ptr == input.as_ptr() && len <= input.len() {
                &input[..len]
            } else if len == 0 {
                &[]
            } else {
                // SAFETY: the caller promises `len` readable bytes at `ptr`.
                unsafe { std::slice::from_raw_parts(ptr, len) }
            };
            BOT.with_borrow_mut(|slot| {
                let bot = slot
                    .get_or_insert_with(|| Box::new(B::default()))
                    .downcast_mut::<B>()
                    .expect("one bot type per module");
                answer(bot, observation, output);
            });
            let packed = ((output.as_ptr() as usize as u64) << 32) | output.len() as u64;
            packed as i64
        })
    }
}

#[cfg(target_arch = "wasm32")]
pub use wasm::{act, alloc, initialize};

#[cfg(test)]
mod tests {
    use super::fault_note;

    #[test]
    fn a_fault_note_is_one_line_of_json_after_its_prefix() {
        let note = fault_note("bad \"move\"\non turn 3", Some(("src/lib.rs", 10, 5)));
        let json = note
            .strip_prefix("ludus-fault: ")
            .and_then(|n| n.strip_suffix('\n'))
            .expect("the prefix, one line");
        assert!(!json.contains('\n'));
        let v: serde_json::Value = serde_json::from_str(json).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"type": "panic", "message": "bad \"move\"\non turn 3",
                "file": "src/lib.rs", "line": 10, "column": 5})
        );
        let long = fault_note(&"é".repeat(5000), None);
        assert!(long.len() < 4096, "{} bytes", long.len());
    }
}
