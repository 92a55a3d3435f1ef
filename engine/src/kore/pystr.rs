//! Python's `int()` of a string and `str.upper()` of a flight plan, as
//! upstream's `ShipyardAction.from_str` applies them to an order, ported for
//! exactly the distinctions the game draws from them.

use crate::kaggle::pyjson::MAX_INT_DIGITS;

/// The result of Python's `int(text)` when it succeeds, as far as the game
/// needs it: the sign, the magnitude saturated at `u64::MAX`, and whether
/// `float(n)` would overflow (`OverflowError`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PyInt {
    pub negative: bool,
    pub magnitude: u64,
    pub float_overflows: bool,
}

impl PyInt {
    pub fn is_zero(self) -> bool {
        self.magnitude == 0
    }
}

impl From<u64> for PyInt {
    fn from(n: u64) -> Self {
        PyInt {
            negative: false,
            magnitude: n,
            float_overflows: false,
        }
    }
}

/// Python 3.11's `int(text)` in base 10: surrounding whitespace, a sign,
/// ASCII or any Unicode decimal digits, at most 4300 digits. (`_` cannot
/// occur: the caller split on it.) `None` where Python raises `ValueError`.
pub fn py_int(text: &str) -> Option<PyInt> {
    // `_PyUnicode_TransformDecimalAndSpaceToASCII`, then `PyLong_FromString`.
    let mut ascii: Vec<u8> = Vec::with_capacity(text.len());
    if text.is_ascii() {
        ascii.extend_from_slice(text.as_bytes());
    } else {
        for c in text.chars() {
            let u = c as u32;
            if u < 127 {
                ascii.push(u as u8);
            } else if is_py_space(c) {
                ascii.push(b' ');
            } else if let Some(d) = unicode_decimal(c) {
                ascii.push(b'0' + d);
            } else {
                return None;
            }
        }
    }
    let is_space = |b: u8| b == b' ' || (0x09..=0x0d).contains(&b);
    let mut i = 0;
    while i < ascii.len() && is_space(ascii[i]) {
        i += 1;
    }
    let mut negative = false;
    if i < ascii.len() && (ascii[i] == b'+' || ascii[i] == b'-') {
        negative = ascii[i] == b'-';
        i += 1;
    }
    let digits_start = i;
    while i < ascii.len() && ascii[i].is_ascii_digit() {
        i += 1;
    }
    let digits = &ascii[digits_start..i];
    while i < ascii.len() && is_space(ascii[i]) {
        i += 1;
    }
    if digits.is_empty() || i != ascii.len() || digits.len() > MAX_INT_DIGITS {
        return None;
    }
    let mut magnitude = 0u64;
    for &d in digits {
        magnitude = magnitude
            .saturating_mul(10)
            .saturating_add(u64::from(d - b'0'));
    }
    // float(n) overflows when n rounds to 2^1024 or more; Rust's correctly
    // rounded parse reports that as infinity.
    let float_overflows = std::str::from_utf8(digits)
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .is_none_or(f64::is_infinite);
    Some(PyInt {
        negative: negative && magnitude != 0,
        magnitude,
        float_overflows,
    })
}

/// `str.isspace()` of Python 3.11 (Unicode 14), outside ASCII.
fn is_py_space(c: char) -> bool {
    matches!(
        c as u32,
        0x85 | 0xa0 | 0x1680 | 0x2000..=0x200a | 0x2028 | 0x2029 | 0x202f | 0x205f | 0x3000
    )
}

/// The first code point of every run of ten Unicode decimal digits (0–9) in
/// Python 3.11's database (Unicode 14), ASCII excluded.
const DECIMAL_ZEROS: [u32; 65] = [
    0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66, 0xde6,
    0xe50, 0xed0, 0xf20, 0x1040, 0x1090, 0x17e0, 0x1810, 0x1946, 0x19d0, 0x1a80, 0x1a90, 0x1b50,
    0x1bb0, 0x1c40, 0x1c50, 0xa620, 0xa8d0, 0xa900, 0xa9d0, 0xa9f0, 0xaa50, 0xabf0, 0xff10,
    0x104a0, 0x10d30, 0x11066, 0x110f0, 0x11136, 0x111d0, 0x112f0, 0x11450, 0x114d0, 0x11650,
    0x116c0, 0x11730, 0x118e0, 0x11950, 0x11c50, 0x11d50, 0x11da0, 0x16a60, 0x16ac0, 0x16b50,
    0x1d7ce, 0x1d7d8, 0x1d7e2, 0x1d7ec, 0x1d7f6, 0x1e140, 0x1e2f0, 0x1e950, 0x1fbf0,
];

fn unicode_decimal(c: char) -> Option<u8> {
    let u = c as u32;
    let k = DECIMAL_ZEROS.partition_point(|&z| z <= u);
    if k == 0 {
        return None;
    }
    let zero = DECIMAL_ZEROS[k - 1];
    (u - zero < 10).then(|| (u - zero) as u8)
}

/// `str.upper()` for a flight plan, as far as a plan can survive it: only
/// characters whose upper case is made of `NESWC0-9` can pass the check that
/// follows, and those are the ASCII letters `n e s w c`, `ß` (to `SS`) and
/// `ſ` (to `S`). Any other character makes the result `None` (the reference
/// then fails its assertion).
pub fn upper_plan(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            'N' | 'E' | 'S' | 'W' | 'C' | '0'..='9' => out.push(c),
            'n' | 'e' | 's' | 'w' | 'c' => out.push(c.to_ascii_uppercase()),
            '\u{df}' => out.push_str("SS"),
            '\u{17f}' => out.push('S'),
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_int_accepts_what_python_accepts() {
        let v = |s: &str| py_int(s).map(|p| (p.negative, p.magnitude));
        assert_eq!(v("3"), Some((false, 3)));
        assert_eq!(v(" +12\t"), Some((false, 12)));
        assert_eq!(v("-0"), Some((false, 0)));
        assert_eq!(v("-7"), Some((true, 7)));
        assert_eq!(v("007"), Some((false, 7)));
        assert_eq!(v("\u{663}"), Some((false, 3)));
        assert_eq!(v("\u{a0}4\u{3000}"), Some((false, 4)));
        assert_eq!(v(""), None);
        assert_eq!(v(" "), None);
        assert_eq!(v("1e3"), None);
        assert_eq!(v("0x1"), None);
        assert_eq!(v("3\0"), None);
        assert_eq!(v("\u{1c}3"), None);
        assert_eq!(v("99999999999999999999999"), Some((false, u64::MAX)));
        assert!(!py_int(&"9".repeat(308)).unwrap().float_overflows);
        assert!(py_int(&"9".repeat(309)).unwrap().float_overflows);
        assert!(py_int(&"1".repeat(4301)).is_none());
    }

    #[test]
    fn plan_upper_case() {
        assert_eq!(upper_plan("n5e\u{17f}c").as_deref(), Some("N5ESC"));
        assert_eq!(upper_plan("\u{df}").as_deref(), Some("SS"));
        assert_eq!(upper_plan("NX"), None);
    }
}
