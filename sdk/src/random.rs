//! Randomness for bots, reproducible per match.
//!
//! In a match (on `wasm32`) the numbers come from WASI `random_get`, which the
//! host feeds from a stream seeded per match and seat: replaying a match gives
//! the bot the same numbers, and the two seats of a match get different ones.
//! Bytes are fetched 256 at a time.
//!
//! Natively (tests, local tools) the numbers come from a splitmix64 generator
//! that starts from the fixed seed [`NATIVE_SEED`] on every thread, so native
//! tests are reproducible; [`reseed`] starts the current thread's generator
//! over from another seed.

/// The seed the native generator starts from on each thread.
pub const NATIVE_SEED: u64 = 0x4c55_4455_535f_5244; // "LUDUS_RD"

/// A uniformly random `u64`.
pub fn next_u64() -> u64 {
    let mut b = [0u8; 8];
    fill(&mut b);
    u64::from_le_bytes(b)
}

/// A uniformly random number in `0..n`, without modulo bias.
///
/// # Panics
/// If `n` is 0.
pub fn below(n: u64) -> u64 {
    assert!(
        n > 0,
        "ludus_sdk::random::below(0): the range 0..0 is empty"
    );
    // Reject the top partial block so every residue is equally likely.
    let zone = u64::MAX - (u64::MAX % n + 1) % n;
    loop {
        let x = next_u64();
        if x <= zone {
            return x % n;
        }
    }
}

/// `true` with probability `numerator / denominator` (`false` if the
/// denominator is 0).
pub fn chance(numerator: u64, denominator: u64) -> bool {
    denominator > 0 && below(denominator) < numerator
}

/// Fills `buf` with random bytes.
pub fn fill(buf: &mut [u8]) {
    imp::fill(buf)
}

/// Starts the current thread's native generator over from `seed`. Native
/// only: in a match the host seeds the stream.
#[cfg(not(target_arch = "wasm32"))]
pub fn reseed(seed: u64) {
    imp::STATE.set(seed);
}

#[cfg(target_arch = "wasm32")]
mod imp {
    use std::cell::RefCell;

    #[link(wasm_import_module = "wasi_snapshot_preview1")]
    unsafe extern "C" {
        #[link_name = "random_get"]
        fn wasi_random_get(buf: *mut u8, len: usize) -> u16;
    }

    const CHUNK: usize = 256;

    struct Pool {
        bytes: [u8; CHUNK],
        /// Bytes of `bytes` already handed out.
        used: usize,
    }

    thread_local! {
        static POOL: RefCell<Pool> = const { RefCell::new(Pool { bytes: [0; CHUNK], used: CHUNK }) };
    }

    fn refill(bytes: &mut [u8]) {
        // SAFETY: `bytes` is valid for writes of its length.
        let errno = unsafe { wasi_random_get(bytes.as_mut_ptr(), bytes.len()) };
        assert_eq!(errno, 0, "WASI random_get failed (errno {errno})");
    }

    pub fn fill(buf: &mut [u8]) {
        POOL.with_borrow_mut(|pool| {
            let mut done = 0;
            while done < buf.len() {
                if pool.used == CHUNK {
                    refill(&mut pool.bytes);
                    pool.used = 0;
                }
                let n = (buf.len() - done).min(CHUNK - pool.used);
                buf[done..done + n].copy_from_slice(&pool.bytes[pool.used..pool.used + n]);
                pool.used += n;
                done += n;
            }
        })
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod imp {
    use std::cell::Cell;

    thread_local! {
        pub static STATE: Cell<u64> = const { Cell::new(super::NATIVE_SEED) };
    }

    /// splitmix64.
    fn next() -> u64 {
        let s = STATE.get().wrapping_add(0x9e37_79b9_7f4a_7c15);
        STATE.set(s);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn fill(buf: &mut [u8]) {
        for chunk in buf.chunks_mut(8) {
            let x = next().to_le_bytes();
            chunk.copy_from_slice(&x[..chunk.len()]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn native_stream_is_reproducible() {
        reseed(NATIVE_SEED);
        let a: Vec<u64> = (0..4).map(|_| next_u64()).collect();
        reseed(NATIVE_SEED);
        let b: Vec<u64> = (0..4).map(|_| next_u64()).collect();
        assert_eq!(a, b);
        reseed(1);
        assert_ne!(next_u64(), a[0]);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        reseed(7);
        let mut seen = [false; 5];
        for _ in 0..200 {
            let x = below(5);
            assert!(x < 5);
            seen[x as usize] = true;
        }
        assert!(seen.iter().all(|s| *s));
        assert_eq!(below(1), 0);
        assert!(below(u64::MAX) < u64::MAX);
    }

    #[test]
    fn fill_fills_odd_lengths() {
        reseed(3);
        let mut buf = [0u8; 13];
        fill(&mut buf);
        assert!(buf.iter().any(|b| *b != 0));
    }
}
