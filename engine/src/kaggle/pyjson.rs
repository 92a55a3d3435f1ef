//! A seat's answer as Python's `json.loads` reads it.
//!
//! A Kaggle agent returns a Python dict; a Ludus bot sends its JSON text, and
//! both games read that text as Python 3.11's `json.loads` would: `NaN`,
//! `Infinity` and `-Infinity` are numbers, lone UTF-16 surrogate escapes are
//! kept (as [`PyStr::Utf16`]), a repeated key keeps its first place and its
//! last value, an int of more than 4300 digits is refused, and nesting deeper
//! than [`MAX_DEPTH`] is refused, as Python's recursion limit refuses it.
//! The reader keeps its own stack and never recurses, so no answer can
//! exhaust the host's stack, and it is linear in the text but for the sort
//! that merges repeated keys.
//!
//! Only what the games look at is kept: the top-level dict's keys and string
//! values in full, any other value as its kind (which gives its truthiness
//! and a word for messages).

use std::borrow::Cow;
use std::fmt;

/// The deepest nesting read, the answer itself counting as one level: what
/// Python 3.11's `json.loads` takes when called from the top of a script
/// (its recursion limit is 1000 frames, and six are already in use).
pub const MAX_DEPTH: usize = 994;

/// Python 3.11 refuses to convert an int of more than 4300 digits
/// (`sys.get_int_max_str_digits()`), so `json.loads` raises on one.
pub const MAX_INT_DIGITS: usize = 4300;

const TOO_DEEP: &str = "nesting deeper than Python's recursion limit";

/// A decoded JSON string. Python keeps lone UTF-16 surrogates, which a Rust
/// string cannot hold: a string with one is kept as its UTF-16 code units,
/// distinct from every other string and from every uid or action name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PyStr<'a> {
    Text(Cow<'a, str>),
    Utf16(Vec<u16>),
}

impl PyStr<'_> {
    /// The string, if it has no lone surrogate.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            PyStr::Text(t) => Some(t),
            PyStr::Utf16(_) => None,
        }
    }

    /// The string with each lone surrogate as U+FFFD: for rules that treat a
    /// surrogate like any other character that is neither a digit, a space
    /// nor a letter they look for.
    pub fn to_lossy(&self) -> Cow<'_, str> {
        match self {
            PyStr::Text(t) => Cow::Borrowed(t),
            PyStr::Utf16(units) => Cow::Owned(String::from_utf16_lossy(units)),
        }
    }

    pub fn is_empty(&self) -> bool {
        match self {
            PyStr::Text(t) => t.is_empty(),
            PyStr::Utf16(units) => units.is_empty(),
        }
    }

    /// The string quoted and shortened for a message.
    pub fn describe(&self) -> String {
        super::shorten(&format!("{:?}", self.to_lossy()))
    }
}

/// A JSON value as far as the games look at it.
#[derive(Debug, Clone, PartialEq)]
pub enum PyValue<'a> {
    Str(PyStr<'a>),
    Null,
    Bool(bool),
    /// A number; `zero` for `0`, `-0`, `0.0`, `1e-400` and the like.
    Number {
        zero: bool,
    },
    List {
        empty: bool,
    },
    Dict {
        empty: bool,
    },
}

impl PyValue<'_> {
    /// Python's `bool(value)`.
    pub fn truthy(&self) -> bool {
        match self {
            PyValue::Str(s) => !s.is_empty(),
            PyValue::Null => false,
            PyValue::Bool(b) => *b,
            PyValue::Number { zero } => !zero,
            PyValue::List { empty } | PyValue::Dict { empty } => !empty,
        }
    }

    /// What the value is, for messages: `a string`, `null`, `a number`, ...
    pub fn kind(&self) -> &'static str {
        match self {
            PyValue::Str(_) => "a string",
            PyValue::Null => "null",
            PyValue::Bool(true) => "true",
            PyValue::Bool(false) => "false",
            PyValue::Number { .. } => "a number",
            PyValue::List { .. } => "a list",
            PyValue::Dict { .. } => "an object",
        }
    }
}

/// An answer that is JSON.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer<'a> {
    /// An object, as a Python dict holds it: one entry per distinct key, at
    /// the place the key first came, with the last value given for it.
    Dict(Vec<(PyStr<'a>, PyValue<'a>)>),
    /// Any other JSON value.
    Other(PyValue<'a>),
}

/// Text that `json.loads` refuses: what was wrong, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotJson {
    pub what: &'static str,
    /// Byte offset into the answer.
    pub at: usize,
}

impl fmt::Display for NotJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.what, self.at)
    }
}

impl std::error::Error for NotJson {}

/// Reads `text` as `json.loads(text)`.
pub fn loads(text: &str) -> Result<Answer<'_>, NotJson> {
    let mut r = Reader {
        s: text.as_bytes(),
        text,
        i: 0,
    };
    r.ws();
    let answer = if r.peek() == Some(b'{') {
        Answer::Dict(r.top_dict()?)
    } else {
        Answer::Other(r.value(1)?)
    };
    r.ws();
    if r.i != r.s.len() {
        return r.err("extra data after the JSON value");
    }
    Ok(answer)
}

type Read<T> = Result<T, NotJson>;

struct Reader<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
}

impl<'a> Reader<'a> {
    fn err<T>(&self, what: &'static str) -> Read<T> {
        Err(NotJson { what, at: self.i })
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.i += 1;
        }
    }

    fn expect(&mut self, byte: u8, what: &'static str) -> Read<()> {
        if self.peek() == Some(byte) {
            self.i += 1;
            Ok(())
        } else {
            self.err(what)
        }
    }

    /// The answer object (at its `{`), keys and string values decoded.
    fn top_dict(&mut self) -> Read<Vec<(PyStr<'a>, PyValue<'a>)>> {
        self.i += 1;
        let mut entries = Vec::new();
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
            self.expect(b':', "expected ':'")?;
            self.ws();
            let value = if self.peek() == Some(b'"') {
                PyValue::Str(self.string()?)
            } else {
                self.value(2)?
            };
            entries.push((key, value));
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return Ok(python_dict(entries));
                }
                _ => return self.err("expected ',' or '}'"),
            }
        }
    }

    /// Any value, at nesting level `depth`: a string decoded, a container's
    /// contents checked but not kept.
    fn value(&mut self, depth: usize) -> Read<PyValue<'a>> {
        let dict = match self.peek() {
            Some(b'"') => return Ok(PyValue::Str(self.string()?)),
            Some(b'{') => true,
            Some(b'[') => false,
            _ => return self.scalar(),
        };
        if depth > MAX_DEPTH {
            return self.err(TOO_DEEP);
        }
        let empty = self.empty_after(if dict { b'}' } else { b']' });
        if !empty {
            self.container_contents(depth, dict)?;
        }
        Ok(if dict {
            PyValue::Dict { empty }
        } else {
            PyValue::List { empty }
        })
    }

    /// After an opening bracket: skips it, and the closing one if it comes
    /// next (an empty container).
    fn empty_after(&mut self, close: u8) -> bool {
        self.i += 1;
        self.ws();
        if self.peek() == Some(close) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    /// The contents of a non-empty container whose opening bracket was just
    /// read, at nesting level `depth`, up to its closing bracket; containers
    /// within it on a stack of our own.
    fn container_contents(&mut self, depth: usize, dict: bool) -> Read<()> {
        // The containers still open, innermost last: true for a dict.
        let mut open: Vec<bool> = vec![dict];
        if dict {
            self.key_colon()?;
        }
        loop {
            // A value.
            self.ws();
            match self.peek() {
                Some(b'{') | Some(b'[') => {
                    let is_dict = self.peek() == Some(b'{');
                    // Python counts every container, empty ones too.
                    if depth + open.len() > MAX_DEPTH {
                        return self.err(TOO_DEEP);
                    }
                    if !self.empty_after(if is_dict { b'}' } else { b']' }) {
                        open.push(is_dict);
                        if is_dict {
                            self.key_colon()?;
                        }
                        continue;
                    }
                }
                Some(b'"') => self.skip_string()?,
                _ => {
                    self.scalar()?;
                }
            }
            // After a value: the next element, or the end of containers.
            loop {
                let Some(&in_dict) = open.last() else {
                    return Ok(());
                };
                self.ws();
                match (self.peek(), in_dict) {
                    (Some(b','), _) => {
                        self.i += 1;
                        if in_dict {
                            self.key_colon()?;
                        }
                        break;
                    }
                    (Some(b'}'), true) | (Some(b']'), false) => {
                        self.i += 1;
                        open.pop();
                    }
                    _ => return self.err("expected ',' or the end of a list or object"),
                }
            }
        }
    }

    /// `"key" :` of a nested dict.
    fn key_colon(&mut self) -> Read<()> {
        self.ws();
        if self.peek() != Some(b'"') {
            return self.err("expected a string key");
        }
        self.skip_string()?;
        self.ws();
        self.expect(b':', "expected ':'")
    }

    /// A literal or a number.
    fn scalar(&mut self) -> Read<PyValue<'a>> {
        let rest = &self.s[self.i..];
        for (literal, value) in [
            (&b"null"[..], PyValue::Null),
            (b"true", PyValue::Bool(true)),
            (b"false", PyValue::Bool(false)),
            (b"NaN", PyValue::Number { zero: false }),
            (b"Infinity", PyValue::Number { zero: false }),
            (b"-Infinity", PyValue::Number { zero: false }),
        ] {
            if rest.starts_with(literal) {
                self.i += literal.len();
                return Ok(value);
            }
        }
        // Python's NUMBER_RE, -?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?: an
        // incomplete fraction or exponent ends the number where the match
        // ends, and what follows is then extra data.
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        let int_start = self.i;
        match self.peek() {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => {
                self.i = start;
                return self.err("expected a value");
            }
        }
        let int_end = self.i;
        let mut float = false;
        if self.peek() == Some(b'.') && self.s.get(self.i + 1).is_some_and(u8::is_ascii_digit) {
            float = true;
            self.i += 1;
            self.digits();
        }
        if let Some(b'e' | b'E') = self.peek() {
            let mut j = self.i + 1;
            if let Some(b'+' | b'-') = self.s.get(j) {
                j += 1;
            }
            if self.s.get(j).is_some_and(u8::is_ascii_digit) {
                float = true;
                self.i = j;
                self.digits();
            }
        }
        let zero = if float {
            // float(text); a text too long to be exact still reads back.
            self.text[start..self.i]
                .parse::<f64>()
                .is_ok_and(|v| v == 0.0)
        } else {
            if int_end - int_start > MAX_INT_DIGITS {
                self.i = start;
                return self.err("an int of more than 4300 digits");
            }
            &self.s[int_start..int_end] == b"0"
        };
        Ok(PyValue::Number { zero })
    }

    fn digits(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.i += 1;
        }
    }

    /// A string (at its opening quote), checked, not kept.
    fn skip_string(&mut self) -> Read<()> {
        self.i += 1;
        loop {
            match self.peek() {
                None => return self.err("unterminated string"),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(());
                }
                Some(b'\\') => {
                    self.escape()?;
                }
                Some(0..=0x1f) => return self.err("control character in a string"),
                Some(_) => self.i += 1,
            }
        }
    }

    /// One escape (at its backslash), as a UTF-16 code unit.
    fn escape(&mut self) -> Read<u16> {
        let unit = match self.s.get(self.i + 1) {
            Some(b'"') => u16::from(b'"'),
            Some(b'\\') => u16::from(b'\\'),
            Some(b'/') => u16::from(b'/'),
            Some(b'b') => 8,
            Some(b'f') => 12,
            Some(b'n') => u16::from(b'\n'),
            Some(b'r') => u16::from(b'\r'),
            Some(b't') => u16::from(b'\t'),
            Some(b'u') => {
                let hex = self
                    .s
                    .get(self.i + 2..self.i + 6)
                    .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u16::from_str_radix(h, 16).ok());
                match hex {
                    Some(u) => {
                        self.i += 6;
                        return Ok(u);
                    }
                    None => return self.err("invalid \\u escape"),
                }
            }
            _ => return self.err("invalid escape"),
        };
        self.i += 2;
        Ok(unit)
    }

    /// A string (at its opening quote), decoded; borrowed when it has no
    /// escapes.
    fn string(&mut self) -> Read<PyStr<'a>> {
        self.i += 1;
        let start = self.i;
        while let Some(b) = self.peek() {
            match b {
                b'"' => {
                    self.i += 1;
                    return Ok(PyStr::Text(Cow::Borrowed(&self.text[start..self.i - 1])));
                }
                b'\\' => break,
                0..=0x1f => return self.err("control character in a string"),
                _ => self.i += 1,
            }
        }
        // With escapes: UTF-16 code units, as Python's scanner pairs them.
        let mut units: Vec<u16> = self.text[start..self.i].encode_utf16().collect();
        loop {
            match self.peek() {
                None => return self.err("unterminated string"),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(match String::from_utf16(&units) {
                        Ok(s) => PyStr::Text(Cow::Owned(s)),
                        Err(_) => PyStr::Utf16(units),
                    });
                }
                Some(b'\\') => {
                    let unit = self.escape()?;
                    units.push(unit);
                }
                Some(0..=0x1f) => return self.err("control character in a string"),
                Some(_) => {
                    let run = self.i;
                    while let Some(b) = self.peek() {
                        if b == b'"' || b == b'\\' || b < 0x20 {
                            break;
                        }
                        self.i += 1;
                    }
                    units.extend(self.text[run..self.i].encode_utf16());
                }
            }
        }
    }
}

/// Entries in the order given, as a dict keeps them: a repeated key keeps
/// its first place and takes its last value. Past a few keys by sorting,
/// not pairwise comparison, so a hostile answer with many keys costs
/// n log n.
fn python_dict<'a>(mut entries: Vec<(PyStr<'a>, PyValue<'a>)>) -> Vec<(PyStr<'a>, PyValue<'a>)> {
    // A few keys, as answers have: pairwise, without allocating.
    if entries.len() <= 16 {
        let mut i = 1;
        while i < entries.len() {
            match entries[..i].iter().position(|e| e.0 == entries[i].0) {
                Some(first) => {
                    let (_, value) = entries.remove(i);
                    entries[first].1 = value;
                }
                None => i += 1,
            }
        }
        return entries;
    }
    let mut order: Vec<usize> = (0..entries.len()).collect();
    // Stable: equal keys stay in the order given.
    order.sort_by(|&a, &b| entries[a].0.cmp(&entries[b].0));
    let runs: Vec<(usize, usize)> = order
        .chunk_by(|&a, &b| entries[a].0 == entries[b].0)
        .map(|run| (run[0], run[run.len() - 1]))
        .collect();
    let mut keep = vec![false; entries.len()];
    for (first, last) in runs {
        if first != last {
            entries[first].1 = std::mem::replace(&mut entries[last].1, PyValue::Null);
        }
        keep[first] = true;
    }
    let mut kept = keep.into_iter();
    entries.retain(|_| kept.next().unwrap_or(false));
    entries
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dict(text: &str) -> Vec<(PyStr<'_>, PyValue<'_>)> {
        match loads(text) {
            Ok(Answer::Dict(entries)) => entries,
            other => panic!("{text:?}: {other:?}"),
        }
    }

    fn text(s: &str) -> PyStr<'_> {
        PyStr::Text(Cow::Borrowed(s))
    }

    /// Python's `bool()` of `value` as the value of a dict entry.
    fn truthy(value: &str) -> bool {
        let text = format!("{{\"k\": {value}}}");
        match loads(&text) {
            Ok(Answer::Dict(entries)) => entries[0].1.truthy(),
            other => panic!("{value}: {other:?}"),
        }
    }

    #[test]
    fn a_repeated_key_keeps_its_first_place_and_its_last_value() {
        assert_eq!(
            dict(r#" {"a": "x", "b": [], "a": "SPAWN_1", "c": 1, "b": null} "#),
            vec![
                (text("a"), PyValue::Str(text("SPAWN_1"))),
                (text("b"), PyValue::Null),
                (text("c"), PyValue::Number { zero: false }),
            ]
        );
        // The same key written two ways is one key.
        assert_eq!(dict(r#"{"0-1": 5, "0-\u0031": "EAST"}"#).len(), 1);
    }

    #[test]
    fn many_keys_merge_in_n_log_n() {
        let n = 200_000;
        let body: Vec<String> = (0..n).map(|i| format!("\"{}\":{i}", i % 1000)).collect();
        let answer = format!("{{{}}}", body.join(","));
        let entries = dict(&answer);
        assert_eq!(entries.len(), 1000);
        assert_eq!(entries[0].0, text("0"));
        assert_eq!(entries[999].0, text("999"));
    }

    #[test]
    fn truthiness_is_pythons() {
        for falsy in [
            "null", "false", "0", "-0", "0.0", "0e9", "1e-400", "\"\"", "[]", "{}", "[ ]",
        ] {
            assert!(!truthy(falsy), "{falsy}");
        }
        for value in [
            "true",
            "1",
            "-1.5",
            "NaN",
            "Infinity",
            "-Infinity",
            "[0]",
            "{\"a\":0}",
            "1e400",
            "\" \"",
        ] {
            assert!(truthy(value), "{value}");
        }
    }

    #[test]
    fn lone_surrogates_are_kept_apart_and_pairs_join() {
        let entries = dict(r#"{"\ud800": 1, "\udc00": 2, "\ud834\udd1e": 3}"#);
        assert_eq!(entries.len(), 3);
        assert_eq!(entries[0].0, PyStr::Utf16(vec![0xd800]));
        assert_eq!(entries[2].0, text("\u{1d11e}"));
        assert_eq!(entries[0].0.to_lossy(), "\u{fffd}");
        let entries = dict(r#"{"k": "\ud800x"}"#);
        match &entries[0].1 {
            PyValue::Str(s) => assert_eq!(s.to_lossy(), "\u{fffd}x"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn values_other_than_dicts_are_read_as_what_they_are() {
        assert_eq!(
            loads("[1, 2]").unwrap(),
            Answer::Other(PyValue::List { empty: false })
        );
        assert_eq!(
            loads(" 0 ").unwrap(),
            Answer::Other(PyValue::Number { zero: true })
        );
        assert!(matches!(
            loads("\"SPAWN_1\""),
            Ok(Answer::Other(PyValue::Str(_)))
        ));
        assert_eq!(loads("{}").unwrap(), Answer::Dict(Vec::new()));
    }

    #[test]
    fn text_python_refuses_is_not_json() {
        for bad in [
            "",
            " ",
            "{",
            "{'a': 1}",
            "{\"a\": 01}",
            "[1,]",
            "{\"a\":1,}",
            "{\"a\":1} x",
            "\"a\nb\"",
            "-",
            "1.",
            "NORTH",
            "\u{feff}{}",
            "{\"a\" 1}",
            "\"\\x\"",
            "\"\\u12g4\"",
            "[1 2]",
            "{\"a\": [}]}",
            "nul",
        ] {
            assert!(loads(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn ints_of_more_than_4300_digits_are_refused_as_python_3_11_refuses_them() {
        assert!(loads(&"1".repeat(4300)).is_ok());
        assert!(loads(&"1".repeat(4301)).is_err());
        assert!(loads(&format!("{{\"a\": [-{}]}}", "9".repeat(4301))).is_err());
        // A float has no such limit.
        assert!(loads(&format!("{}.5", "1".repeat(5000))).is_ok());
    }

    #[test]
    fn nesting_is_refused_past_pythons_depth_without_recursing() {
        let nested = |n: usize| "[".repeat(n) + &"]".repeat(n);
        assert!(loads(&nested(MAX_DEPTH)).is_ok());
        assert!(loads(&nested(MAX_DEPTH + 1)).is_err());
        // The answer object counts as one level.
        let in_dict = |n: usize| format!("{{\"a\": {}1{}}}", "[".repeat(n), "]".repeat(n));
        assert!(loads(&in_dict(MAX_DEPTH - 1)).is_ok());
        assert!(loads(&in_dict(MAX_DEPTH)).is_err());
        let objects = |n: usize| "{\"a\":".repeat(n) + "0" + &"}".repeat(n);
        assert!(loads(&objects(MAX_DEPTH)).is_ok());
        assert!(loads(&objects(MAX_DEPTH + 1)).is_err());
        // Far deeper than any stack would take: refused, no overflow.
        assert!(loads(&nested(1_000_000)).is_err());
        // Empty containers count as Python counts them.
        let empty_below = "[".repeat(MAX_DEPTH) + "[]" + &"]".repeat(MAX_DEPTH);
        assert!(loads(&empty_below).is_err());
    }
}
