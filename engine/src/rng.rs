//! Seeded random streams. Every random choice in Ludus draws from a stream
//! named by its purpose and seeded from the match seed, so adding a new use
//! of randomness never shifts an existing one.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use sha2::{Digest, Sha256};

/// A ChaCha8 stream for `purpose` under `seed` (e.g. `stream(seed, "planet-wars/map")`).
pub fn stream(seed: u64, purpose: &str) -> ChaCha8Rng {
    ChaCha8Rng::from_seed(derive(seed, purpose))
}

/// 32 bytes derived from `seed` and `purpose` by sha256.
pub fn derive(seed: u64, purpose: &str) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"ludus-rng-v1\0");
    h.update(seed.to_le_bytes());
    h.update(purpose.as_bytes());
    h.finalize().into()
}

/// A u64 seed derived from a parent seed and a label (for child seeds such as a
/// ladder's match seeds).
pub fn derive_seed(seed: u64, label: &str) -> u64 {
    let b = derive(seed, label);
    u64::from_le_bytes(b[..8].try_into().expect("8 bytes"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::RngCore;

    #[test]
    fn same_seed_same_stream_and_purposes_differ() {
        let a: Vec<u32> = (0..4).map(|_| stream(7, "x").next_u32()).collect();
        let mut s = stream(7, "x");
        let b: Vec<u32> = (0..4).map(|_| s.next_u32()).collect();
        assert_eq!(a[0], b[0]);
        assert_ne!(stream(7, "x").next_u64(), stream(7, "y").next_u64());
        assert_ne!(stream(7, "x").next_u64(), stream(8, "x").next_u64());
    }
}
