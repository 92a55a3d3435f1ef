//! Cranelift's incremental compilation cache, kept in memory for the life of
//! the process and shared by every sandbox.
//!
//! Every Python bot is a component of about 20 MB, nearly all of it the same
//! CPython interpreter; only the heap snapshot holding the bot's own code
//! differs. With this cache the interpreter's functions are compiled once per
//! process, and each further Python bot compiles in a fraction of the time.
//! Cranelift keys each entry by the function's whole input (its code, the
//! fuel and epoch instrumentation, the settings), so a hit yields exactly
//! what compiling would: it changes compile time, nothing else.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use wasmtime::CacheStore;

/// Entries stop being added past this many bytes (about ten distinct
/// interpreters' worth); what is cached stays usable.
const MAX_BYTES: usize = 512 << 20;

#[derive(Debug, Default)]
pub(crate) struct FunctionCache {
    entries: Mutex<Entries>,
}

#[derive(Debug, Default)]
struct Entries {
    map: HashMap<Vec<u8>, Arc<[u8]>>,
    bytes: usize,
}

impl FunctionCache {
    /// The process's cache.
    pub(crate) fn shared() -> Arc<FunctionCache> {
        static SHARED: OnceLock<Arc<FunctionCache>> = OnceLock::new();
        SHARED.get_or_init(Default::default).clone()
    }
}

impl CacheStore for FunctionCache {
    fn get(&self, key: &[u8]) -> Option<Cow<'_, [u8]>> {
        let entries = self.entries.lock().ok()?;
        // Copied out: the lock cannot be held across the caller's use.
        entries.map.get(key).map(|v| Cow::Owned(v.to_vec()))
    }

    fn insert(&self, key: &[u8], value: Vec<u8>) -> bool {
        let Ok(mut entries) = self.entries.lock() else {
            return false;
        };
        let size = key.len() + value.len();
        if entries.bytes + size > MAX_BYTES {
            return false;
        }
        entries.bytes += size;
        entries.map.insert(key.to_vec(), value.into());
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_come_back_and_the_size_is_bounded() {
        let cache = FunctionCache::default();
        assert!(cache.get(b"k").is_none());
        assert!(cache.insert(b"k", vec![1, 2, 3]));
        assert_eq!(cache.get(b"k").as_deref(), Some(&[1u8, 2, 3][..]));
        assert!(!cache.insert(b"big", vec![0; MAX_BYTES]));
        assert!(cache.get(b"big").is_none());
        assert_eq!(cache.get(b"k").as_deref(), Some(&[1u8, 2, 3][..]));
    }
}
