//! sha256 helpers: how bots, files and compiled-code caches are named.

use sha2::{Digest, Sha256};

/// Whether `s` is a sha256 as [`sha256_hex`] writes it: 64 lowercase hex digits.
pub fn is_sha256_hex(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// sha256 of `bytes`, hex: how bots are identified everywhere.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Feeds `Hash` into sha256, so the cache key is stable across processes
/// (std's `DefaultHasher` makes no such promise).
#[cfg(feature = "sandbox")]
pub(crate) struct Sha256Hasher(pub(crate) Sha256);

#[cfg(feature = "sandbox")]
impl std::hash::Hasher for Sha256Hasher {
    fn finish(&self) -> u64 {
        0
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
}
