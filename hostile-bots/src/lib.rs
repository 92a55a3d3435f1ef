//! Hostile bots: a corpus of modules that misbehave on purpose, built for
//! wasm32-wasip1 and played by the host's tests. Each example is one attack.
//!
//! They speak bot ABI v1 by hand (not through the SDK), so they can return
//! any pointer and length they like.

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
