//! How the reference reads an agent's answer: Python's `json.loads` (what a
//! Kaggle agent's dict becomes on the wire) and Python's `int()` of a string,
//! ported for exactly the distinctions the game draws from them.

/// A JSON value reduced to what the game looks at: strings in full, other
/// values only as far as Python's truthiness goes.
#[derive(Debug, Clone, PartialEq)]
pub enum JsonValue {
    /// `null`, `false`, `0`, `0.0`, `""`, `[]`, `{}`: no action.
    Falsy,
    /// A non-empty string. Lone UTF-16 surrogates (which Python keeps) are
    /// replaced by U+FFFD: both are neither digits, spaces nor plan letters.
    Str(String),
    /// Any other truthy value (number, `true`, non-empty array or object).
    Truthy,
}

/// Nesting deeper than this is refused (Python would hit its recursion limit
/// near 1000; we stop earlier to keep the stack small).
const MAX_DEPTH: usize = 400;

/// Python 3.11 refuses to convert an int of more than 4300 digits.
const MAX_INT_DIGITS: usize = 4300;

/// Parses `text` as Python's `json.loads` does. `Ok(Some(entries))` for an
/// object (duplicate keys: the last value wins, as in a dict), `Ok(None)` for
/// any other JSON value, `Err` for text Python would refuse.
pub fn parse_object(text: &str) -> Result<Option<Vec<(String, JsonValue)>>, String> {
    let mut p = Parser {
        s: text.as_bytes(),
        text,
        i: 0,
    };
    p.ws();
    let result = if p.peek() == Some(b'{') {
        Some(p.object_entries()?)
    } else {
        p.value(0)?;
        None
    };
    p.ws();
    if p.i != p.s.len() {
        return Err(format!("extra data at byte {}", p.i));
    }
    Ok(result)
}

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn err<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("{what} at byte {}", self.i))
    }

    fn object_entries(&mut self) -> Result<Vec<(String, JsonValue)>, String> {
        self.i += 1; // '{'
        let mut entries: Vec<(String, JsonValue)> = Vec::new();
        self.ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
            return Ok(entries);
        }
        loop {
            self.ws();
            if self.peek() != Some(b'"') {
                return self.err("expected a string key");
            }
            let key = self.string()?;
            self.ws();
            if self.peek() != Some(b':') {
                return self.err("expected ':'");
            }
            self.i += 1;
            self.ws();
            let value = self.value(1)?;
            match entries.iter_mut().find(|(k, _)| *k == key) {
                Some(slot) => slot.1 = value,
                None => entries.push((key, value)),
            }
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return Ok(entries);
                }
                _ => return self.err("expected ',' or '}'"),
            }
        }
    }

    fn value(&mut self, depth: usize) -> Result<JsonValue, String> {
        if depth > MAX_DEPTH {
            return self.err("nesting too deep");
        }
        match self.peek() {
            Some(b'"') => {
                let s = self.string()?;
                Ok(if s.is_empty() {
                    JsonValue::Falsy
                } else {
                    JsonValue::Str(s)
                })
            }
            Some(b'{') => {
                self.i += 1;
                self.ws();
                if self.peek() == Some(b'}') {
                    self.i += 1;
                    return Ok(JsonValue::Falsy);
                }
                loop {
                    self.ws();
                    if self.peek() != Some(b'"') {
                        return self.err("expected a string key");
                    }
                    self.string()?;
                    self.ws();
                    if self.peek() != Some(b':') {
                        return self.err("expected ':'");
                    }
                    self.i += 1;
                    self.ws();
                    self.value(depth + 1)?;
                    self.ws();
                    match self.peek() {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {
                            self.i += 1;
                            return Ok(JsonValue::Truthy);
                        }
                        _ => return self.err("expected ',' or '}'"),
                    }
                }
            }
            Some(b'[') => {
                self.i += 1;
                self.ws();
                if self.peek() == Some(b']') {
                    self.i += 1;
                    return Ok(JsonValue::Falsy);
                }
                loop {
                    self.ws();
                    self.value(depth + 1)?;
                    self.ws();
                    match self.peek() {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            return Ok(JsonValue::Truthy);
                        }
                        _ => return self.err("expected ',' or ']'"),
                    }
                }
            }
            _ => self.scalar(),
        }
    }

    fn literal(&mut self, word: &str) -> bool {
        if self.s[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            true
        } else {
            false
        }
    }

    fn scalar(&mut self) -> Result<JsonValue, String> {
        if self.literal("null") || self.literal("false") {
            return Ok(JsonValue::Falsy);
        }
        if self.literal("true") || self.literal("NaN") || self.literal("Infinity") {
            return Ok(JsonValue::Truthy);
        }
        if self.literal("-Infinity") {
            return Ok(JsonValue::Truthy);
        }
        // Python's NUMBER_RE: -?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        let int_start = self.i;
        match self.peek() {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => {
                while matches!(self.peek(), Some(b'0'..=b'9')) {
                    self.i += 1;
                }
            }
            _ => {
                self.i = start;
                return self.err("expected a value");
            }
        }
        let int_end = self.i;
        let mut is_float = false;
        if self.peek() == Some(b'.') && matches!(self.s.get(self.i + 1), Some(b'0'..=b'9')) {
            is_float = true;
            self.i += 1;
            while matches!(self.peek(), Some(b'0'..=b'9')) {
                self.i += 1;
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            let mut j = self.i + 1;
            if matches!(self.s.get(j), Some(b'+' | b'-')) {
                j += 1;
            }
            if matches!(self.s.get(j), Some(b'0'..=b'9')) {
                is_float = true;
                self.i = j;
                while matches!(self.peek(), Some(b'0'..=b'9')) {
                    self.i += 1;
                }
            }
        }
        if is_float {
            let v: f64 = self.text[start..self.i].parse().unwrap_or(1.0);
            Ok(if v == 0.0 {
                JsonValue::Falsy
            } else {
                JsonValue::Truthy
            })
        } else {
            if int_end - int_start > MAX_INT_DIGITS {
                return self.err("integer with too many digits");
            }
            Ok(if &self.s[int_start..int_end] == b"0" {
                JsonValue::Falsy
            } else {
                JsonValue::Truthy
            })
        }
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let Some(h) = self.s.get(self.i..self.i + 4) else {
            return self.err("bad \\u escape");
        };
        let mut v = 0u32;
        for &b in h {
            let d = match b {
                b'0'..=b'9' => b - b'0',
                b'a'..=b'f' => b - b'a' + 10,
                b'A'..=b'F' => b - b'A' + 10,
                _ => return self.err("bad \\u escape"),
            };
            v = v * 16 + u32::from(d);
        }
        self.i += 4;
        Ok(v)
    }

    fn string(&mut self) -> Result<String, String> {
        self.i += 1; // '"'
        let mut out = String::new();
        loop {
            let run = self.i;
            while let Some(b) = self.peek() {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.i += 1;
            }
            out.push_str(&self.text[run..self.i]);
            match self.peek() {
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    let Some(e) = self.peek() else {
                        return self.err("unterminated string");
                    };
                    self.i += 1;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let u = self.hex4()?;
                            let c = if (0xd800..0xdc00).contains(&u)
                                && self.s.get(self.i..self.i + 2) == Some(b"\\u")
                            {
                                let save = self.i;
                                self.i += 2;
                                let low = self.hex4()?;
                                if (0xdc00..0xe000).contains(&low) {
                                    char::from_u32(0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00))
                                } else {
                                    self.i = save;
                                    None
                                }
                            } else {
                                char::from_u32(u)
                            };
                            out.push(c.unwrap_or('\u{fffd}'));
                        }
                        _ => return self.err("invalid escape"),
                    }
                }
                _ => return self.err("unterminated string or control character in string"),
            }
        }
    }
}

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
    fn json_objects_keep_the_last_duplicate() {
        let o = parse_object(r#" {"a": "x", "b": [], "a": "SPAWN_1"} "#)
            .unwrap()
            .unwrap();
        assert_eq!(
            o,
            vec![
                ("a".to_string(), JsonValue::Str("SPAWN_1".into())),
                ("b".to_string(), JsonValue::Falsy)
            ]
        );
    }

    #[test]
    fn json_truthiness_is_pythons() {
        let one = |s: &str| {
            parse_object(&format!("{{\"k\": {s}}}")).unwrap().unwrap()[0]
                .1
                .clone()
        };
        for falsy in [
            "null", "false", "0", "-0", "0.0", "0e9", "1e-400", "\"\"", "[]", "{}",
        ] {
            assert_eq!(one(falsy), JsonValue::Falsy, "{falsy}");
        }
        for truthy in [
            "true",
            "1",
            "-1.5",
            "NaN",
            "-Infinity",
            "[0]",
            "{\"a\":0}",
            "1e400",
        ] {
            assert_eq!(one(truthy), JsonValue::Truthy, "{truthy}");
        }
        assert_eq!(one(r#""\ud800x""#), JsonValue::Str("\u{fffd}x".into()));
        assert_eq!(one(r#""\ud834\udd1e""#), JsonValue::Str("\u{1d11e}".into()));
    }

    #[test]
    fn json_refuses_what_python_refuses() {
        for bad in [
            "",
            "{",
            "{'a': 1}",
            "{\"a\": 01}",
            "[1,]",
            "{\"a\":1} x",
            "\"a\nb\"",
            "-",
        ] {
            assert!(parse_object(bad).is_err(), "{bad:?}");
        }
        assert_eq!(parse_object("[1, 2]").unwrap(), None);
        assert_eq!(parse_object("\"SPAWN_1\"").unwrap(), None);
        let deep = "[".repeat(1000) + &"]".repeat(1000);
        assert!(parse_object(&deep).is_err());
    }

    #[test]
    fn plan_upper_case() {
        assert_eq!(upper_plan("n5e\u{17f}c").as_deref(), Some("N5ESC"));
        assert_eq!(upper_plan("\u{df}").as_deref(), Some("SS"));
        assert_eq!(upper_plan("NX"), None);
    }
}
