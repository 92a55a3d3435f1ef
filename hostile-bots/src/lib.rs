//! Hostile bots: a corpus of modules that misbehave on purpose, built for
//! wasm32-wasip1 and played by the host's tests. Each example is one attack
//! (`turncoat` makes them all, once it is past its validation match).
//!
//! They speak bot ABI v1 by hand (not through the SDK), so they can return
//! any pointer and length they like; only `panic_in_sdk_bot` is written
//! with the SDK, to panic as an SDK bot does.

use std::cell::RefCell;

thread_local! {
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// `ludus_alloc`: a buffer of `len` bytes that lives until the next call.
pub fn alloc(len: i32) -> i32 {
    INPUT.with(|b| {
        let mut b = b.borrow_mut();
        b.clear();
        b.resize(len.max(0) as usize, 0);
        b.as_mut_ptr() as usize as i32
    })
}

/// Packs an answer region the ABI way: `(ptr << 32) | len`.
pub fn pack(ptr: u32, len: u32) -> i64 {
    (((ptr as u64) << 32) | len as u64) as i64
}

/// Packs a static answer.
pub fn answer(bytes: &'static [u8]) -> i64 {
    pack(bytes.as_ptr() as usize as u32, bytes.len() as u32)
}

/// An empty Planet Wars answer.
pub const NO_MOVES: &[u8] = br#"{"moves":[]}"#;

/// The attacks, each what `act` does (or answers) on a turn.
pub mod attack {
    use super::{answer, pack, NO_MOVES};

    /// Never answers: spins forever.
    pub fn endless_loop() -> i64 {
        let mut n = 0u64;
        loop {
            n = std::hint::black_box(n.wrapping_add(1));
        }
    }

    /// Allocates until the memory cap stops it (then Rust aborts on the
    /// failed allocation).
    pub fn memory_bomb() -> i64 {
        let mut hoard: Vec<Vec<u8>> = Vec::new();
        loop {
            hoard.push(vec![1u8; 1 << 20]);
            std::hint::black_box(&hoard);
        }
    }

    /// Panics.
    pub fn panic() -> i64 {
        if std::hint::black_box(true) {
            panic!("this bot always panics");
        }
        answer(NO_MOVES)
    }

    #[allow(unconditional_recursion)]
    fn dive(n: u64) -> u64 {
        let pad = std::hint::black_box([n; 16]);
        dive(pad[3] + 1) + pad[7]
    }

    /// Recurses without end until the wasm stack runs out.
    pub fn deep_recursion() -> i64 {
        std::hint::black_box(dive(0));
        answer(NO_MOVES)
    }

    /// Answers with a pointer far outside its memory.
    pub fn bad_answer_pointer() -> i64 {
        pack(0xffff_0000, 16)
    }

    /// Answers with a length of almost 4 GiB.
    pub fn huge_answer_length() -> i64 {
        pack(1024, 0xffff_fff0)
    }

    /// Answers with bytes that are not UTF-8.
    pub fn invalid_utf8() -> i64 {
        answer(b"{\"moves\":[\xff\xfe]}")
    }

    /// Sleeps for an hour; the host must not block on it.
    pub fn sleep_forever() -> i64 {
        std::thread::sleep(std::time::Duration::from_secs(3600));
        answer(NO_MOVES)
    }

    /// Ends the process (`proc_exit`).
    pub fn exit() -> i64 {
        std::process::exit(3)
    }
}

/// Exports `ludus_alloc` and an `act` that runs `$body` (an expression of
/// type `i64`, the packed answer).
#[macro_export]
macro_rules! hostile_bot {
    ($body:expr) => {
        #[no_mangle]
        pub extern "C" fn ludus_alloc(len: i32) -> i32 {
            $crate::alloc(len)
        }

        #[no_mangle]
        pub extern "C" fn act(_ptr: i32, _len: i32) -> i64 {
            $body
        }
    };
}
