//! Python numbers, as the Kaggle reference engines (Kore, Halite) compute
//! with them.
//!
//! The references mix Python `int` and `float` in one board (Halite's
//! regeneration cap `min(x, 500)` returns the int 500, and a Kore cell starts
//! as an int and turns float when it regenerates), and print them
//! differently (`500` against `500.0`). [`Num`] keeps that flag and applies
//! Python's rules: int op int is an int, anything with a float is a float,
//! true division is a float, comparisons between the two are exact,
//! `min`/`max` return the first argument on ties, `int()` truncates, and
//! `round(x, 3)` is the exact decimal round-half-even of the binary value.
//! Both games' fidelity tests (`fidelity/tests/`) guard this module.

use std::cmp::Ordering;
use std::fmt::Write;

/// A Python `int` or `float`.
///
/// Ints are `i64`: the config bounds keep every quantity of a game far below
/// 2^53, so ints convert to floats exactly and the saturating arithmetic
/// below never saturates in practice.
#[derive(Debug, Clone, Copy)]
pub enum Num {
    Int(i64),
    Float(f64),
}

impl Default for Num {
    fn default() -> Self {
        Num::Int(0)
    }
}

impl PartialEq for Num {
    /// Python `==`: `5 == 5.0`.
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.partial_cmp(other) == Some(Ordering::Equal)
    }
}

impl PartialOrd for Num {
    /// Python's exact comparison of ints and floats (NaN is unordered).
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        match (*self, *other) {
            (Num::Int(a), Num::Int(b)) => Some(a.cmp(&b)),
            (Num::Float(a), Num::Float(b)) => a.partial_cmp(&b),
            (Num::Int(a), Num::Float(b)) => cmp_int_float(a, b),
            (Num::Float(a), Num::Int(b)) => cmp_int_float(b, a).map(Ordering::reverse),
        }
    }
}

/// `i` compared with `f`, exactly (no rounding of `i` to a float).
#[inline]
fn cmp_int_float(i: i64, f: f64) -> Option<Ordering> {
    // Every int up to 2^53 in size is a float exactly: compare as floats.
    if i.unsigned_abs() <= 1 << 53 {
        return (i as f64).partial_cmp(&f);
    }
    if f.is_nan() {
        return None;
    }
    // 2^63 as a float: every i64 is below it, and at or above -2^63.
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    if f >= TWO_63 {
        return Some(Ordering::Less);
    }
    if f < -TWO_63 {
        return Some(Ordering::Greater);
    }
    let whole = f.trunc();
    match i.cmp(&(whole as i64)) {
        Ordering::Equal => 0.0f64.partial_cmp(&(f - whole)),
        other => Some(other),
    }
}

impl std::ops::Add for Num {
    type Output = Num;
    /// `a + b`.
    #[inline]
    fn add(self, other: Num) -> Num {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => Num::Int(a.saturating_add(b)),
            _ => Num::Float(self.to_f64() + other.to_f64()),
        }
    }
}

impl std::ops::Sub for Num {
    type Output = Num;
    /// `a - b`.
    #[inline]
    fn sub(self, other: Num) -> Num {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => Num::Int(a.saturating_sub(b)),
            _ => Num::Float(self.to_f64() - other.to_f64()),
        }
    }
}

impl std::ops::Mul for Num {
    type Output = Num;
    /// `a * b`.
    #[inline]
    fn mul(self, other: Num) -> Num {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => Num::Int(a.saturating_mul(b)),
            _ => Num::Float(self.to_f64() * other.to_f64()),
        }
    }
}

impl std::ops::Div for Num {
    type Output = Num;
    /// `a / b`: Python's true division is always a float; for ints below
    /// 2^53 it is the correctly rounded quotient, as here.
    #[inline]
    fn div(self, other: Num) -> Num {
        Num::Float(self.to_f64() / other.to_f64())
    }
}

impl Num {
    pub const ZERO: Num = Num::Int(0);

    /// Python's comparison as an `Ordering`, for sorting (NaN, which the
    /// games never make, counts as equal).
    pub fn cmp_num(self, other: Num) -> Ordering {
        self.partial_cmp(&other).unwrap_or(Ordering::Equal)
    }

    /// `float(x)` (ints round to the nearest float, as Python's do).
    #[inline]
    pub fn to_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }

    /// `min(a, b)`: `b` only if it is strictly smaller, so a tie keeps `a`
    /// and its int/float kind.
    pub fn py_min(a: Num, b: Num) -> Num {
        if b < a {
            b
        } else {
            a
        }
    }

    /// `max(a, b)`: `b` only if it is strictly larger.
    pub fn py_max(a: Num, b: Num) -> Num {
        if b > a {
            b
        } else {
            a
        }
    }

    /// `int(x)`: truncation towards zero (saturating where Python would
    /// overflow, which the config bounds rule out).
    pub fn int(self) -> Num {
        match self {
            Num::Int(_) => self,
            Num::Float(f) => Num::Int(f.trunc() as i64),
        }
    }

    /// `round(x, 3)`: an int is returned unchanged; a float is rounded to
    /// three decimals, half to even, on its exact binary value, and the
    /// decimal result read back as the nearest float (CPython's
    /// `double_round`).
    #[inline]
    pub fn round3(self) -> Num {
        match self {
            Num::Int(_) => self,
            Num::Float(f) => Num::Float(round3(f)),
        }
    }

    /// Whether this is a Python `int`.
    pub fn is_int(self) -> bool {
        matches!(self, Num::Int(_))
    }

    /// Appends the number as Python's `json.dumps` writes it (`repr`).
    pub fn write_json(self, out: &mut String) {
        AsciiWriter::new(out).num(self);
    }

    /// The number as a JSON value, ints and floats kept apart.
    pub fn to_json_value(self) -> serde_json::Value {
        match self {
            Num::Int(i) => serde_json::Value::from(i),
            Num::Float(f) => serde_json::Value::from(f),
        }
    }

    /// A canonical byte encoding: kind, then the value's bits.
    pub fn hash_bytes(self) -> [u8; 9] {
        let mut b = [0u8; 9];
        match self {
            Num::Int(i) => b[1..].copy_from_slice(&i.to_le_bytes()),
            Num::Float(f) => {
                b[0] = 1;
                b[1..].copy_from_slice(&f.to_bits().to_le_bytes());
            }
        }
        b
    }
}

/// Python's `round(x, 3)` for a float.
///
/// For `0 <= x < 2^53 / 1000` (every halite and kore value) the decimal digits are
/// computed exactly in integers: with `x = m * 2^e`, `x * 1000` is
/// `m * 1000 * 2^e`, which fits a `u64`, so the half-even rounding to an
/// integer `n` is exact, and `n / 1000` (both exact floats) is the correctly
/// rounded division, i.e. the float nearest the decimal. Other values take
/// the slow path through decimal formatting, which rounds half to even on the
/// exact value too.
#[inline]
pub fn round3(x: f64) -> f64 {
    match thousandths(x) {
        // n < 2^53: through i64, the one-instruction conversion.
        Some(n) => n as i64 as f64 / 1000.0,
        None => round3_slow(x),
    }
}

/// `round(x * 1000)` half to even on the exact value of `x`, for
/// `0 <= x < 2^53 / 1000`.
#[inline]
fn thousandths(x: f64) -> Option<u64> {
    const LIMIT: f64 = 9_007_199_254_740.0; // below 2^53 / 1000
    if !(0.0..LIMIT).contains(&x) || x.is_sign_negative() {
        return None;
    }
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    let (m, e) = if biased == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), biased - 1075)
    };
    let scaled = m * 1000; // < 2^63
    let n = if e >= 0 {
        scaled << e // x is an integer below 2^53 / 1000: exact
    } else if e <= -64 {
        0 // below 2^63 / 2^64 = 0.5
    } else {
        let shift = (-e) as u32;
        let q = scaled >> shift;
        let rem = scaled & ((1u64 << shift) - 1);
        let half = 1u64 << (shift - 1);
        if rem > half || (rem == half && q & 1 == 1) {
            q + 1
        } else {
            q
        }
    };
    Some(n)
}

/// `round(x, 3)` by formatting with three decimals (exact, half to even) and
/// reading the text back (correctly rounded).
fn round3_slow(x: f64) -> f64 {
    if !x.is_finite() {
        return x;
    }
    format!("{x:.3}").parse().unwrap_or(x)
}

/// Appends Python's `repr(x)`: the shortest digits that read back to `x`,
/// positional between 1e-4 and 1e16 with at least one decimal (`500.0`),
/// else scientific with a signed two-digit exponent (`1e-05`, `1e+16`).
pub fn write_float_repr(x: f64, out: &mut String) {
    AsciiWriter::new(out).float(x);
}

/// The bytes an [`AsciiWriter`] gathers before appending them.
const BLOCK: usize = 512;

/// JSON text of numbers and ASCII punctuation, composed a block at a time
/// on the stack and appended to a `String` with one UTF-8 check per block
/// rather than one per number: an observation writes hundreds of numbers.
/// What is left is appended when the writer is dropped.
pub struct AsciiWriter<'a> {
    out: &'a mut String,
    block: [u8; BLOCK],
    len: usize,
}

impl<'a> AsciiWriter<'a> {
    pub fn new(out: &'a mut String) -> Self {
        AsciiWriter {
            out,
            block: [0; BLOCK],
            len: 0,
        }
    }

    /// Appends what the block holds.
    pub fn flush(&mut self) {
        if self.len > 0 {
            let text = std::str::from_utf8(&self.block[..self.len]).expect("only ASCII is written");
            self.out.push_str(text);
            self.len = 0;
        }
    }

    /// `n` (at most a block) free bytes, to be written in full, then counted.
    #[inline]
    fn room(&mut self, n: usize) -> &mut [u8] {
        if self.len + n > BLOCK {
            self.flush();
        }
        let start = self.len;
        self.len += n;
        &mut self.block[start..start + n]
    }

    /// One ASCII byte.
    #[inline]
    pub fn byte(&mut self, b: u8) {
        debug_assert!(b.is_ascii());
        self.room(1)[0] = b;
    }

    /// Text: gathered if short and ASCII, else appended as it is.
    #[inline]
    pub fn text(&mut self, s: &str) {
        if s.len() <= BLOCK / 4 && s.is_ascii() {
            self.room(s.len()).copy_from_slice(s.as_bytes());
        } else {
            self.flush();
            self.out.push_str(s);
        }
    }

    /// A whole number without sign.
    #[inline]
    pub fn uint(&mut self, mut n: u64) {
        let digits = n.checked_ilog10().map_or(1, |d| d as usize + 1);
        for d in self.room(digits).iter_mut().rev() {
            *d = b'0' + (n % 10) as u8;
            n /= 10;
        }
    }

    /// A whole number as Python writes an int.
    #[inline]
    pub fn int(&mut self, i: i64) {
        if i < 0 {
            self.byte(b'-');
        }
        self.uint(i.unsigned_abs());
    }

    /// A float as Python's `repr`.
    #[inline]
    pub fn float(&mut self, x: f64) {
        // Fast path for the values regeneration makes, x = round(x, 3) below
        // 2^43: decimals with at most three decimals are more than an ulp
        // apart there, so the shortest digits that read back to x are those
        // of n/1000.
        match thousandths(x).filter(|&n| n < 1 << 43 && n as f64 / 1000.0 == x) {
            Some(n) => {
                self.uint(n / 1000);
                // The decimals without trailing zeros, at least one.
                let frac = n % 1000;
                let (digits, len) = match (frac % 10, frac % 100) {
                    (0, 0) => (frac / 100, 1),
                    (0, _) => (frac / 10, 2),
                    _ => (frac, 3),
                };
                self.byte(b'.');
                let mut rest = digits;
                for d in self.room(len).iter_mut().rev() {
                    *d = b'0' + (rest % 10) as u8;
                    rest /= 10;
                }
            }
            None => {
                self.flush();
                write_float_slow(x, self.out);
            }
        }
    }

    /// A Python number as `json.dumps` writes it.
    #[inline]
    pub fn num(&mut self, n: Num) {
        match n {
            Num::Int(i) => self.int(i),
            Num::Float(f) => self.float(f),
        }
    }

    /// A list of Python numbers, `[1,2.5]`.
    pub fn nums(&mut self, list: &[Num]) {
        self.byte(b'[');
        for (k, n) in list.iter().enumerate() {
            if k > 0 {
                self.byte(b',');
            }
            self.num(*n);
        }
        self.byte(b']');
    }
}

impl Drop for AsciiWriter<'_> {
    fn drop(&mut self) {
        self.flush();
    }
}

/// `repr(x)` for the floats off the fast path: NaN and the infinities as
/// Python's `json.dumps` writes them, any other through the shortest digits.
#[cold]
fn write_float_slow(x: f64, out: &mut String) {
    if x.is_nan() {
        out.push_str("NaN");
    } else if x.is_infinite() {
        out.push_str(if x > 0.0 { "Infinity" } else { "-Infinity" });
    } else {
        write_float_debug(x, out);
    }
}

/// `repr(x)` through Rust's shortest `Debug` digits.
fn write_float_debug(x: f64, out: &mut String) {
    // Rust's `Debug` uses the same shortest digits and switches to
    // scientific notation at the same thresholds; only the exponent is
    // written differently (`1e16` against Python's `1e+16`).
    let start = out.len();
    let _ = write!(out, "{x:?}");
    if let Some(e) = out[start..].find('e') {
        let at = start + e + 1;
        let exponent: String = out[at..].to_string();
        out.truncate(at);
        let (sign, digits) = match exponent.strip_prefix('-') {
            Some(d) => ('-', d),
            None => ('+', exponent.as_str()),
        };
        out.push(sign);
        if digits.len() < 2 {
            out.push('0');
        }
        out.push_str(digits);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 200 000 steps of a fixed LCG: (step, state).
    fn sweep(seed: u64) -> impl Iterator<Item = (u64, u64)> {
        (0..200_000u64).scan(seed, |state, i| {
            *state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            Some((i, *state))
        })
    }

    fn repr(x: f64) -> String {
        let mut s = String::new();
        write_float_repr(x, &mut s);
        s
    }

    #[test]
    fn float_repr_matches_python() {
        // Python 3.11: repr(x) for each.
        let cases = [
            (500.0, "500.0"),
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (21.42, "21.42"),
            (0.0001, "0.0001"),
            (1e-05, "1e-05"),
            (1.5e-7, "1.5e-07"),
            (9999999999999998.0, "9999999999999998.0"),
            (1e16, "1e+16"),
            (1.2345e22, "1.2345e+22"),
            (1e300, "1e+300"),
            (0.1 + 0.2, "0.30000000000000004"),
            (123.456, "123.456"),
            (38.76, "38.76"),
            (7.142857142857143e-05, "7.142857142857143e-05"),
            (1.5e16, "1.5e+16"),
            (123456.789, "123456.789"),
            (-2.5, "-2.5"),
            (1e22, "1e+22"),
            (5e-324, "5e-324"),
        ];
        for (x, want) in cases {
            assert_eq!(repr(x), want, "repr of {x:e}");
        }
    }

    #[test]
    fn fast_repr_agrees_with_the_shortest_digits() {
        for (i, state) in sweep(0x2545_f491_4f6c_dd1d) {
            let x = match i % 3 {
                0 => round3((state >> 11) as f64 / (1u64 << 53) as f64 * 600.0),
                1 => round3((state >> 20) as f64 / 7.0),
                _ => (state >> 40) as f64 / 1000.0,
            };
            let mut fast = String::new();
            write_float_repr(x, &mut fast);
            let mut slow = String::new();
            write_float_debug(x, &mut slow);
            assert_eq!(fast, slow, "x = {x:e}");
        }
    }

    #[test]
    fn round3_is_half_even_on_the_exact_value() {
        // Python 3.11: round(x, 3).
        assert_eq!(round3(0.0625), 0.062);
        assert_eq!(round3(1.0625), 1.062);
        assert_eq!(round3(0.0005), 0.001); // 0.0005 is a little above the tie
        assert_eq!(round3(2.0015), 2.002); // a little above the tie
        assert_eq!(round3(1.2345), 1.234); // a little below it
        assert_eq!(round3(3.0035), 3.003);
        assert_eq!(round3(0.0), 0.0);
        assert_eq!(round3(5e-324), 0.0);
        assert_eq!(round3(510.0), 510.0);
        assert_eq!(round3(1e15), 1e15);
        assert_eq!(round3(9.5625), 9.562);
        assert_eq!(round3(38.0 * 1.02), 38.76);
        assert_eq!(round3(-9.5625), -9.562);
        assert_eq!(round3(1e300), 1e300);
        assert_eq!(round3(1e-300), 0.0);
    }

    #[test]
    fn fast_round3_agrees_with_decimal_formatting() {
        // A fixed pseudo-random sweep over the range halite values take,
        // including values near ties.
        for (i, state) in sweep(0x9e37_79b9_7f4a_7c15) {
            let x = match i % 4 {
                0 => (state >> 11) as f64 / (1u64 << 53) as f64 * 600.0,
                1 => ((state >> 40) as f64 + 0.5) / 1000.0,
                2 => (state >> 44) as f64 / 16.0,
                _ => f64::from_bits(state >> 2) % 1e6,
            };
            if x.is_finite() && x >= 0.0 {
                assert_eq!(round3(x).to_bits(), round3_slow(x).to_bits(), "x = {x:e}");
            }
        }
    }

    #[test]
    fn python_mixed_arithmetic_and_comparison() {
        assert!((Num::Int(500) + Num::Int(1)).is_int());
        assert!(!(Num::Int(500) * Num::Float(1.02)).is_int());
        assert!(Num::Int(5) == Num::Float(5.0));
        assert!(Num::Int(9_007_199_254_740_993) > Num::Float(9_007_199_254_740_992.0));
        // min/max keep the first argument on a tie.
        assert!(!Num::py_min(Num::Float(500.0), Num::Int(500)).is_int());
        assert!(Num::py_min(Num::Float(510.0), Num::Int(500)).is_int());
        assert!(!Num::py_max(Num::Float(0.0), Num::Int(0)).is_int());
        assert!(matches!(Num::Float(-2.7).int(), Num::Int(-2)));
        // True division is a float, even of ints.
        assert!(!(Num::Int(4) / Num::Int(2)).is_int());
        assert_eq!((Num::Int(1) / Num::Int(3)).to_f64(), 1.0 / 3.0);
        assert_eq!(Num::Int(2).cmp_num(Num::Float(2.5)), Ordering::Less);
    }
}
