//! Numbers as Python has them: the reference keeps ints and floats apart
//! (a cell starts with int kore and turns float when it regenerates), and
//! observations must show which is which. [`Num`] carries that flag through
//! Python's mixed arithmetic; [`round3`] is Python's `round(x, 3)` and
//! [`write_py_float`] its `repr`.

use std::cmp::Ordering;
use std::fmt::Write;

/// A Python `int` or `float`. Ints stay far below 2^53 in this game, so every
/// int converts to a float exactly, as Python's mixed arithmetic does.
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
    fn eq(&self, other: &Self) -> bool {
        self.cmp_num(*other) == Ordering::Equal
    }
}

impl Num {
    pub const ZERO: Num = Num::Int(0);

    /// The value as a float (Python's `float(x)`).
    pub fn f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, Num::Float(_))
    }

    /// `self + other`: int if both are ints.
    #[allow(clippy::should_implement_trait)]
    pub fn add(self, other: Num) -> Num {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => Num::Int(a.saturating_add(b)),
            _ => Num::Float(self.f64() + other.f64()),
        }
    }

    /// `self - other`: int if both are ints.
    #[allow(clippy::should_implement_trait)]
    pub fn sub(self, other: Num) -> Num {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => Num::Int(a.saturating_sub(b)),
            _ => Num::Float(self.f64() - other.f64()),
        }
    }

    /// `self * other`: int if both are ints.
    #[allow(clippy::should_implement_trait)]
    pub fn mul(self, other: Num) -> Num {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => Num::Int(a.saturating_mul(b)),
            _ => Num::Float(self.f64() * other.f64()),
        }
    }

    /// `self / other`: Python's true division is always a float; for ints
    /// below 2^53 it is the correctly rounded quotient, as here.
    #[allow(clippy::should_implement_trait)]
    pub fn div(self, other: Num) -> Num {
        Num::Float(self.f64() / other.f64())
    }

    /// Python's comparison of two numbers (exact for ints below 2^53).
    pub fn cmp_num(self, other: Num) -> Ordering {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => a.cmp(&b),
            _ => self
                .f64()
                .partial_cmp(&other.f64())
                .unwrap_or(Ordering::Equal),
        }
    }

    pub fn gt(self, other: Num) -> bool {
        self.cmp_num(other) == Ordering::Greater
    }

    pub fn ge(self, other: Num) -> bool {
        self.cmp_num(other) != Ordering::Less
    }

    pub fn lt(self, other: Num) -> bool {
        self.cmp_num(other) == Ordering::Less
    }

    /// `round(self, 3)`: an int stays the same int, a float is rounded as
    /// [`round3`] does.
    pub fn round3(self) -> Num {
        match self {
            Num::Int(_) => self,
            Num::Float(f) => Num::Float(round3(f)),
        }
    }

    /// Writes the number as Python's `json.dumps` does: ints as ints, floats
    /// as their `repr`.
    pub fn write_json(self, out: &mut String) {
        match self {
            Num::Int(i) => {
                let _ = write!(out, "{i}");
            }
            Num::Float(f) => write_py_float(f, out),
        }
    }

    /// The JSON value, for callers that want `serde_json`.
    pub fn to_json(self) -> serde_json::Value {
        match self {
            Num::Int(i) => serde_json::Value::from(i),
            Num::Float(f) => serde_json::Value::from(f),
        }
    }
}

/// Python's `round(x, 3)`: the exact binary value of `x` rounded to three
/// decimals, ties to even, then the nearest double to that decimal. (Scaling
/// by 1000 in floating point is wrong: `round(9.5625, 3)` is 9.562.)
///
/// `x = m · 2^e` exactly, so `1000 x = 1000 m · 2^e` is split into quotient
/// and remainder with integers; the rounded count of thousandths `q` is
/// below 2^53 for any |x| < 9e12, and then `q / 1000.0` is the correctly
/// rounded double of the decimal, as Python's `strtod` gives.
pub fn round3(x: f64) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    let bits = x.to_bits();
    let negative = bits >> 63 == 1;
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1u64 << 52) - 1);
    let (m, e) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1u64 << 52), biased - 1075)
    };
    if e >= 0 {
        // Already an integer.
        return x;
    }
    let shift = (-e) as u32;
    let scaled = u128::from(m) * 1000;
    let q = if shift >= 127 {
        // 1000 m < 2^63 is far below half of 2^shift.
        0
    } else {
        let q = scaled >> shift;
        let remainder = scaled & ((1u128 << shift) - 1);
        let half = 1u128 << (shift - 1);
        if remainder > half || (remainder == half && q & 1 == 1) {
            q + 1
        } else {
            q
        }
    };
    if q >= 1u128 << 53 {
        return round3_by_text(x);
    }
    let y = q as f64 / 1000.0;
    if negative {
        -y
    } else {
        y
    }
}

/// `round(x, 3)` by formatting with three decimals (exact, half to even) and
/// parsing back: slow, kept for magnitudes the integer path does not cover.
pub fn round3_by_text(x: f64) -> f64 {
    format!("{x:.3}").parse().unwrap_or(x)
}

/// Writes `x` as Python's `repr(float)`: the shortest digits that read back
/// to `x`, in fixed notation when the decimal exponent is from -4 to 15
/// (`500.0`, `0.0001`), otherwise in exponent notation (`1e-05`, `1e+16`).
pub fn write_py_float(x: f64, out: &mut String) {
    if x.is_nan() {
        out.push_str("NaN");
        return;
    }
    if x.is_infinite() {
        out.push_str(if x > 0.0 { "Infinity" } else { "-Infinity" });
        return;
    }
    if x == 0.0 {
        out.push_str(if x.is_sign_negative() { "-0.0" } else { "0.0" });
        return;
    }
    // Rust's `{:e}` gives the shortest round-trip digits: `d.ddde-7`.
    let mut buf = [0u8; 40];
    let text = {
        let mut w = Cursor {
            buf: &mut buf,
            len: 0,
        };
        let _ = write!(w, "{:e}", x.abs());
        let len = w.len;
        &buf[..len]
    };
    let e_at = text.iter().position(|&b| b == b'e').unwrap_or(text.len());
    let mantissa = &text[..e_at];
    let exponent: i32 = std::str::from_utf8(&text[(e_at + 1).min(text.len())..])
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut digits = [0u8; 24];
    let mut n = 0;
    for &b in mantissa {
        if b.is_ascii_digit() && n < digits.len() {
            digits[n] = b;
            n += 1;
        }
    }
    let digits = &digits[..n];
    // x = 0.d1d2... × 10^decpt
    let decpt = exponent + 1;
    if x < 0.0 {
        out.push('-');
    }
    let push = |out: &mut String, bytes: &[u8]| {
        for &b in bytes {
            out.push(b as char);
        }
    };
    if decpt > -4 && decpt <= 16 {
        if decpt <= 0 {
            out.push_str("0.");
            for _ in 0..(-decpt) {
                out.push('0');
            }
            push(out, digits);
        } else if decpt as usize >= digits.len() {
            push(out, digits);
            for _ in 0..(decpt as usize - digits.len()) {
                out.push('0');
            }
            out.push_str(".0");
        } else {
            push(out, &digits[..decpt as usize]);
            out.push('.');
            push(out, &digits[decpt as usize..]);
        }
    } else {
        push(out, &digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            push(out, &digits[1..]);
        }
        let e = decpt - 1;
        let _ = write!(out, "e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs());
    }
}

/// A `fmt::Write` into a fixed buffer, so formatting a float allocates nothing.
struct Cursor<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl Write for Cursor<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        if end > self.buf.len() {
            return Err(std::fmt::Error);
        }
        self.buf[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repr(x: f64) -> String {
        let mut s = String::new();
        write_py_float(x, &mut s);
        s
    }

    #[test]
    fn repr_matches_python() {
        assert_eq!(repr(500.0), "500.0");
        assert_eq!(repr(38.76), "38.76");
        assert_eq!(repr(0.0001), "0.0001");
        assert_eq!(repr(1e-5), "1e-05");
        assert_eq!(repr(7.142857142857143e-05), "7.142857142857143e-05");
        assert_eq!(repr(1e16), "1e+16");
        assert_eq!(repr(1.5e16), "1.5e+16");
        assert_eq!(repr(9999999999999998.0), "9999999999999998.0");
        assert_eq!(repr(123456.789), "123456.789");
        assert_eq!(repr(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(repr(-2.5), "-2.5");
        assert_eq!(repr(1e22), "1e+22");
        assert_eq!(repr(5e-324), "5e-324");
    }

    #[test]
    fn round3_is_decimal_half_even() {
        assert_eq!(round3(9.5625), 9.562);
        assert_eq!(round3(0.0625), 0.062);
        assert_eq!(round3(0.0005), 0.001); // 0.0005 is slightly above half
        assert_eq!(round3(38.0 * 1.02), 38.76);
        assert_eq!(round3(2.0), 2.0);
        assert_eq!(round3(1e300), 1e300);
        assert_eq!(round3(1e-300), 0.0);
    }

    #[test]
    fn round3_agrees_with_formatting() {
        // A xorshift stream of doubles over the magnitudes kore takes.
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for i in 0..200_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let x = match i % 3 {
                0 => (s >> 11) as f64 / (1u64 << 53) as f64 * 2000.0,
                1 => ((s >> 40) as f64) / 16.0, // many exact ties
                _ => f64::from_bits(0x3f00_0000_0000_0000 + (s >> 14)),
            };
            assert_eq!(round3(x).to_bits(), round3_by_text(x).to_bits(), "{x:e}");
        }
    }
}
