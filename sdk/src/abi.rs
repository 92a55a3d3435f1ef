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

use crate::{Bot, FromJson};

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

#[cfg(target_arch = "wasm32")]
mod wasm {
    use super::answer;
    use crate::Bot;
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
