//! Bit-exact ports of the Python random number generators that the board
//! generators of `kaggle-environments` 1.33.2 rely on.
//!
//! Kore 2022 (`envs/kore_fleets/kore_fleets.py`) and Halite IV
//! (`envs/halite/halite.py`) build their boards in `populate_board`, which
//! seeds both `np.random.seed(randomSeed)` and `random.seed(randomSeed)` and
//! then calls:
//!
//! * `random.randint(a, b)`: [`PyRandom::randint`];
//! * `np.random.gumbel(loc, scale, size)`: [`NumpyRandomState::gumbel`], once
//!   per element in C order;
//! * `np.random.binomial(1, 0.5, size)`: [`NumpyRandomState::binomial`], once
//!   per element in C order.
//!
//! Both libraries use the 32-bit Mersenne Twister ([`Mt19937`]) but seed it
//! differently: CPython's `random.seed(n)` feeds the 32-bit words of `|n|` to
//! `init_by_array`, numpy's legacy `RandomState(n)` calls `init_genrand(n)`.
//! The other methods here (`random`, `getrandbits`, `choice`, `shuffle`,
//! `uniform`, `random_sample`, `randint`) are the ones the same files or
//! their agents use, ported for completeness.
//!
//! Versions mirrored: CPython 3.11 (`Modules/_randommodule.c`,
//! `Lib/random.py`) and numpy 2.x legacy `RandomState`
//! (`numpy/random/mtrand.pyx`, `src/distributions/distributions.c`,
//! `src/mt19937/mt19937.c`). The numpy `RandomState` stream is frozen by
//! numpy's compatibility policy, so older numpy versions give the same values.
//!
//! Floating point: everything built on [`Mt19937::genrand_res53`] is exact.
//! [`NumpyRandomState::gumbel`] and [`NumpyRandomState::binomial`] call
//! `ln`/`exp`/`sqrt` from Rust's `std`, which use the platform libm as numpy
//! does. `sqrt` is correctly rounded everywhere; `ln` and `exp` are not
//! guaranteed to be, so bit-exactness of those two methods relies on the
//! platform's libm agreeing with the one numpy was built against (glibc's
//! `log` and `exp` are correctly rounded in practice). For `binomial(1, 0.5)`
//! the libm results only enter through `exp(1 * ln(0.5)) == 0.5`, which holds
//! for any faithful libm.

/// Number of 32-bit words of MT19937 state.
const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// The 32-bit Mersenne Twister, MT19937, as in Matsumoto and Nishimura's
/// reference `mt19937ar.c`, which both CPython's `_randommodule.c` and numpy's
/// `mt19937.c` copy.
#[derive(Clone)]
pub struct Mt19937 {
    state: [u32; N],
    index: usize,
}

impl std::fmt::Debug for Mt19937 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mt19937")
            .field("index", &self.index)
            .finish_non_exhaustive()
    }
}

impl Mt19937 {
    /// A generator seeded with `init_genrand(seed)` (CPython `init_genrand`,
    /// numpy `mt19937_seed`).
    pub fn new(seed: u32) -> Self {
        let mut mt = Mt19937 {
            state: [0; N],
            index: N,
        };
        mt.init_genrand(seed);
        mt
    }

    /// A generator seeded with `init_by_array(key)` (CPython `init_by_array`,
    /// numpy `mt19937_init_by_array`). An empty key is treated as `[0]`.
    pub fn from_key(key: &[u32]) -> Self {
        let mut mt = Mt19937 {
            state: [0; N],
            index: N,
        };
        mt.init_by_array(key);
        mt
    }

    /// Re-seeds from one 32-bit word: `init_genrand` of `mt19937ar.c`.
    pub fn init_genrand(&mut self, seed: u32) {
        self.state[0] = seed;
        for i in 1..N {
            let prev = self.state[i - 1];
            self.state[i] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(i as u32);
        }
        self.index = N;
    }

    /// Re-seeds from an array of 32-bit words: `init_by_array` of
    /// `mt19937ar.c`. An empty key is treated as `[0]`.
    pub fn init_by_array(&mut self, key: &[u32]) {
        let key: &[u32] = if key.is_empty() { &[0] } else { key };
        self.init_genrand(19_650_218);
        let mut i = 1usize;
        let mut j = 0usize;
        let mut k = N.max(key.len());
        while k > 0 {
            let prev = self.state[i - 1];
            self.state[i] = (self.state[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                self.state[0] = self.state[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
            k -= 1;
        }
        k = N - 1;
        while k > 0 {
            let prev = self.state[i - 1];
            self.state[i] = (self.state[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_566_083_941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                self.state[0] = self.state[N - 1];
                i = 1;
            }
            k -= 1;
        }
        self.state[0] = 0x8000_0000;
        self.index = N;
    }

    fn generate(&mut self) {
        let mag01 = |y: u32| if y & 1 == 0 { 0 } else { MATRIX_A };
        for kk in 0..N - M {
            let y = (self.state[kk] & UPPER_MASK) | (self.state[kk + 1] & LOWER_MASK);
            self.state[kk] = self.state[kk + M] ^ (y >> 1) ^ mag01(y);
        }
        for kk in N - M..N - 1 {
            let y = (self.state[kk] & UPPER_MASK) | (self.state[kk + 1] & LOWER_MASK);
            self.state[kk] = self.state[kk + M - N] ^ (y >> 1) ^ mag01(y);
        }
        let y = (self.state[N - 1] & UPPER_MASK) | (self.state[0] & LOWER_MASK);
        self.state[N - 1] = self.state[M - 1] ^ (y >> 1) ^ mag01(y);
        self.index = 0;
    }

    /// The next 32-bit output: `genrand_uint32` (CPython), `mt19937_next32`
    /// (numpy).
    pub fn genrand_u32(&mut self) -> u32 {
        if self.index >= N {
            self.generate();
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^= y >> 18;
        y
    }

    /// A double in [0, 1) with 53 random bits from two 32-bit outputs:
    /// `genrand_res53` (CPython `random_random`, numpy `mt19937_next_double`).
    pub fn genrand_res53(&mut self) -> f64 {
        let a = self.genrand_u32() >> 5;
        let b = self.genrand_u32() >> 6;
        (a as f64 * 67_108_864.0 + b as f64) / 9_007_199_254_740_992.0
    }
}

/// CPython's `random.Random`, seeded as `random.seed(n)` seeds it for an
/// integer `n`.
#[derive(Debug, Clone)]
pub struct PyRandom {
    mt: Mt19937,
}

impl PyRandom {
    /// `random.Random(n)` / `random.seed(n)` for a non-negative integer `n`
    /// (CPython `random_seed`: the 32-bit words of `|n|`, least significant
    /// first, go to `init_by_array`; `n == 0` gives the key `[0]`).
    pub fn new(seed: u128) -> Self {
        let mut key = Vec::with_capacity(4);
        let mut n = seed;
        while n != 0 {
            key.push(n as u32);
            n >>= 32;
        }
        if key.is_empty() {
            key.push(0);
        }
        PyRandom {
            mt: Mt19937::from_key(&key),
        }
    }

    /// `random.seed(n)` for any Python int, negative included (CPython seeds
    /// with the absolute value).
    pub fn from_signed(seed: i128) -> Self {
        Self::new(seed.unsigned_abs())
    }

    /// The underlying generator.
    pub fn mt(&mut self) -> &mut Mt19937 {
        &mut self.mt
    }

    /// `random.random()`: a double in [0, 1) (CPython `random_random`).
    pub fn random(&mut self) -> f64 {
        self.mt.genrand_res53()
    }

    /// `random.getrandbits(k)` for `k <= 64` (CPython
    /// `_random_Random_getrandbits_impl`: 32-bit words, least significant
    /// first, the last one keeping its top `k % 32` bits). `k == 0` returns 0
    /// without drawing.
    ///
    /// # Panics
    /// If `k > 64`.
    pub fn getrandbits(&mut self, k: u32) -> u64 {
        assert!(k <= 64, "getrandbits: at most 64 bits, not {k}");
        if k == 0 {
            return 0;
        }
        if k <= 32 {
            return u64::from(self.mt.genrand_u32() >> (32 - k));
        }
        let low = u64::from(self.mt.genrand_u32());
        let high = u64::from(self.mt.genrand_u32() >> (64 - k));
        low | (high << 32)
    }

    /// `random._randbelow(n)` (CPython 3.11 `_randbelow_with_getrandbits`):
    /// `k = n.bit_length()`, draw `getrandbits(k)` until it is below `n`.
    ///
    /// # Panics
    /// If `n == 0` (CPython raises for empty ranges before getting here).
    pub fn randbelow(&mut self, n: u64) -> u64 {
        assert!(n > 0, "randbelow: empty range");
        let k = 64 - n.leading_zeros();
        loop {
            let r = self.getrandbits(k);
            if r < n {
                return r;
            }
        }
    }

    /// `random.randrange(start, stop)` with step 1: `start + _randbelow(stop -
    /// start)`.
    ///
    /// # Panics
    /// If `stop <= start` (CPython raises `ValueError`).
    pub fn randrange(&mut self, start: i64, stop: i64) -> i64 {
        assert!(stop > start, "randrange: empty range ({start}, {stop})");
        let width = (i128::from(stop) - i128::from(start)) as u64;
        (i128::from(start) + i128::from(self.randbelow(width))) as i64
    }

    /// `random.randint(a, b)`: `randrange(a, b + 1)`, both ends included.
    ///
    /// # Panics
    /// If `b < a`.
    pub fn randint(&mut self, a: i64, b: i64) -> i64 {
        assert!(b >= a, "randint: empty range ({a}, {b})");
        let width = (i128::from(b) - i128::from(a) + 1) as u128;
        if width > u128::from(u64::MAX) {
            // Only a = i64::MIN, b = i64::MAX: 2^64 values, 65 bits in CPython.
            unimplemented!("randint over the full i64 range")
        }
        (i128::from(a) + i128::from(self.randbelow(width as u64))) as i64
    }

    /// `random.choice(seq)` for a sequence of length `len`: the index chosen,
    /// `_randbelow(len)`.
    ///
    /// # Panics
    /// If `len == 0` (CPython raises `IndexError`).
    pub fn choice(&mut self, len: usize) -> usize {
        assert!(len > 0, "choice from an empty sequence");
        self.randbelow(len as u64) as usize
    }

    /// `random.shuffle(x)` in place (CPython 3.11: for `i` in
    /// `reversed(range(1, len(x)))`, `j = _randbelow(i + 1)`, swap).
    pub fn shuffle<T>(&mut self, x: &mut [T]) {
        for i in (1..x.len()).rev() {
            let j = self.randbelow(i as u64 + 1) as usize;
            x.swap(i, j);
        }
    }

    /// `random.uniform(a, b)`: `a + (b - a) * random()`.
    pub fn uniform(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.random()
    }
}

/// numpy's legacy `np.random.RandomState`, as seeded by `RandomState(n)` or
/// `np.random.seed(n)` for an integer `0 <= n < 2**32`.
#[derive(Debug, Clone)]
pub struct NumpyRandomState {
    mt: Mt19937,
    /// The cached set-up of `binomial_t` in numpy's `RandomState`.
    binomial: Option<BinomialCache>,
}

#[derive(Debug, Clone, Copy)]
struct BinomialCache {
    n: i64,
    p: f64,
    q: f64,
    qn: f64,
    bound: i64,
}

impl NumpyRandomState {
    /// `RandomState(seed)` / `np.random.seed(seed)` for an int seed (numpy
    /// `_legacy_seeding`: `mt19937_seed(seed)`, i.e. `init_genrand`; numpy
    /// rejects ints outside `0..2**32`, which `u32` rules out).
    pub fn new(seed: u32) -> Self {
        NumpyRandomState {
            mt: Mt19937::new(seed),
            binomial: None,
        }
    }

    /// The underlying generator.
    pub fn mt(&mut self) -> &mut Mt19937 {
        &mut self.mt
    }

    /// `random_sample()` / `random()`: a double in [0, 1)
    /// (`mt19937_next_double`, the same as CPython's `random()`).
    pub fn random_sample(&mut self) -> f64 {
        self.mt.genrand_res53()
    }

    /// `randint(low, high)` with the default `dtype=int` (int64): a value in
    /// `[low, high)` (numpy `_rand_int64` with `use_masked=True`, through
    /// `random_bounded_uint64_fill`: mask = smallest all-ones value covering
    /// `high - 1 - low`; 32-bit draws when that range fits 32 bits, else
    /// 64-bit draws made of two 32-bit outputs, high word first; draws above
    /// the range are rejected).
    ///
    /// # Panics
    /// If `high <= low` (numpy raises `ValueError`).
    pub fn randint(&mut self, low: i64, high: i64) -> i64 {
        assert!(high > low, "randint: low >= high ({low}, {high})");
        let rng = (high as u64).wrapping_sub(low as u64).wrapping_sub(1);
        let off = low as u64;
        if rng == 0 {
            return low;
        }
        let value = if rng <= 0xffff_ffff {
            if rng == 0xffff_ffff {
                u64::from(self.mt.genrand_u32())
            } else {
                let mask = gen_mask(rng);
                loop {
                    let v = u64::from(self.mt.genrand_u32()) & mask;
                    if v <= rng {
                        break v;
                    }
                }
            }
        } else if rng == u64::MAX {
            self.next_u64()
        } else {
            let mask = gen_mask(rng);
            loop {
                let v = self.next_u64() & mask;
                if v <= rng {
                    break v;
                }
            }
        };
        off.wrapping_add(value) as i64
    }

    /// numpy `mt19937_next64`: two 32-bit outputs, the first one high.
    fn next_u64(&mut self) -> u64 {
        let high = u64::from(self.mt.genrand_u32());
        let low = u64::from(self.mt.genrand_u32());
        (high << 32) | low
    }

    /// `gumbel(loc, scale)`, one draw (numpy `random_gumbel`:
    /// `U = 1 - next_double`, redrawn while `U == 1`, then
    /// `loc - scale * log(-log(U))`). `np.random.gumbel(loc, scale, size)`
    /// makes one such draw per element in C order.
    ///
    /// Relies on the platform `log` being correctly rounded (see the module
    /// documentation).
    pub fn gumbel(&mut self, loc: f64, scale: f64) -> f64 {
        loop {
            let u = 1.0 - self.mt.genrand_res53();
            if u < 1.0 {
                return loc - scale * (-u.ln()).ln();
            }
        }
    }

    /// `binomial(n, p)`, one draw, for the cases numpy samples by inversion:
    /// `min(p, 1 - p) * n <= 30` (numpy `legacy_random_binomial` →
    /// `random_binomial` → `random_binomial_inversion`, including the set-up
    /// cached between calls with the same `n` and `p`).
    /// `np.random.binomial(n, p, size)` makes one such draw per element in C
    /// order. For `binomial(1, 0.5)` this is `1` if `random_sample() > 0.5`,
    /// else `0`, one double per draw.
    ///
    /// # Panics
    /// If `n < 0`, `p` is outside `[0, 1]` or NaN (numpy raises), or
    /// `min(p, 1 - p) * n > 30` (numpy's BTPE algorithm, not ported).
    pub fn binomial(&mut self, n: i64, p: f64) -> i64 {
        assert!(n >= 0, "binomial: n < 0");
        assert!((0.0..=1.0).contains(&p), "binomial: p outside [0, 1]");
        if n == 0 || p == 0.0 {
            return 0;
        }
        if p <= 0.5 {
            assert!(p * n as f64 <= 30.0, "binomial: BTPE range not ported");
            self.binomial_inversion(n, p)
        } else {
            let q = 1.0 - p;
            assert!(q * n as f64 <= 30.0, "binomial: BTPE range not ported");
            n - self.binomial_inversion(n, q)
        }
    }

    /// numpy `random_binomial_inversion`.
    fn binomial_inversion(&mut self, n: i64, p: f64) -> i64 {
        let cache = match self.binomial {
            Some(c) if c.n == n && c.p == p => c,
            _ => {
                let q = 1.0 - p;
                let qn = (n as f64 * q.ln()).exp();
                let np = n as f64 * p;
                let bound = (n as f64).min(np + 10.0 * (np * q + 1.0).sqrt()) as i64;
                let c = BinomialCache { n, p, q, qn, bound };
                self.binomial = Some(c);
                c
            }
        };
        let mut x: i64 = 0;
        let mut px = cache.qn;
        let mut u = self.mt.genrand_res53();
        while u > px {
            x += 1;
            if x > cache.bound {
                x = 0;
                px = cache.qn;
                u = self.mt.genrand_res53();
            } else {
                u -= px;
                px = ((n - x + 1) as f64 * p * px) / (x as f64 * cache.q);
            }
        }
        x
    }
}

/// Smallest all-ones bit mask covering `max` (numpy `gen_mask`).
fn gen_mask(max: u64) -> u64 {
    if max == 0 {
        0
    } else {
        u64::MAX >> max.leading_zeros()
    }
}
