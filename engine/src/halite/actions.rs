//! Reading a seat's answer the way the reference does.
//!
//! An answer is the JSON text of what a Kaggle agent returns: a dict from
//! asset uid to action name. `kaggle-environments` validates it against the
//! action schema after filling in defaults, which gives these rules:
//!
//! * anything that is not a JSON object (a string, a list, `null`, a number)
//!   becomes `{}`: valid, no actions;
//! * an object is valid when every value is one of `NORTH`, `EAST`, `SOUTH`,
//!   `WEST`, `CONVERT`, `SPAWN` (exactly, case included); one other value
//!   (a number, `null`, `"north"`, a list) makes the agent `INVALID`;
//! * keys are not checked: a key naming no asset of the seat is ignored.
//!
//! Text that is not JSON at all is what an agent returning that very
//! string would send (a Python string goes over the wire as its text), so it
//! is read as a string: valid, no actions. "JSON" here is Python's
//! `json.loads`: `NaN`, `Infinity` and `-Infinity` are accepted, lone
//! surrogate escapes too, a repeated key keeps its last value, and nesting
//! has no depth limit
//! (the scanner below keeps its own stack and never recurses).

use std::borrow::Cow;

/// An action name of the schema's enum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    North,
    East,
    South,
    West,
    Convert,
    Spawn,
}

impl Action {
    fn from_name(name: &str) -> Option<Action> {
        Some(match name {
            "NORTH" => Action::North,
            "EAST" => Action::East,
            "SOUTH" => Action::South,
            "WEST" => Action::West,
            "CONVERT" => Action::Convert,
            "SPAWN" => Action::Spawn,
            _ => return None,
        })
    }

    /// The name as the schema spells it.
    pub fn name(self) -> &'static str {
        match self {
            Action::North => "NORTH",
            Action::East => "EAST",
            Action::South => "SOUTH",
            Action::West => "WEST",
            Action::Convert => "CONVERT",
            Action::Spawn => "SPAWN",
        }
    }
}

/// A parsed answer.
#[derive(Debug, PartialEq)]
pub enum Answer<'a> {
    /// Valid: each key (decoded) with its action, one entry per distinct key
    /// (the last value given for it), in no meaningful order.
    Actions(Vec<(Key<'a>, Action)>),
    /// The schema rejects it: the key and a short description of the
    /// offending value.
    Invalid { key: String, value: String },
    /// Not JSON: where and why. The reference would see a string: no
    /// actions, still valid.
    Unparseable(String),
}

/// A decoded object key. Keys with lone surrogate escapes (legal in Python)
/// are kept as WTF-8 bytes: they can never name an asset, but stay distinct
/// from every other key.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Key<'a> {
    Text(Cow<'a, str>),
    Wtf8(Vec<u8>),
}

impl Key<'_> {
    /// The key as text, if it has no lone surrogates.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Key::Text(t) => Some(t),
            Key::Wtf8(_) => None,
        }
    }
}

/// What a value turned out to be.
enum Value<'a> {
    Str(Key<'a>),
    Other(&'static str),
}

/// Reads an answer.
pub fn parse_answer(text: &str) -> Answer<'_> {
    let mut p = Parser {
        s: text.as_bytes(),
        src: text,
        i: 0,
    };
    match p.answer() {
        Ok(a) => a,
        Err(e) => Answer::Unparseable(e),
    }
}

struct Parser<'a> {
    s: &'a [u8],
    src: &'a str,
    i: usize,
}

type Res<T> = Result<T, String>;

impl<'a> Parser<'a> {
    fn err<T>(&self, what: &str) -> Res<T> {
        Err(format!("{what} at character {}", self.i))
    }

    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.s.get(self.i) {
            self.i += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn answer(&mut self) -> Res<Answer<'a>> {
        self.ws();
        let answer = if self.peek() == Some(b'{') {
            self.top_object()?
        } else {
            self.skip_value()?;
            Answer::Actions(Vec::new())
        };
        self.ws();
        if self.i != self.s.len() {
            return self.err("extra data after the JSON value");
        }
        Ok(answer)
    }

    /// The answer object: keys and values, last value per key.
    fn top_object(&mut self) -> Res<Answer<'a>> {
        self.i += 1; // '{'
        let mut entries: Vec<(Key<'a>, usize, Value<'a>)> = Vec::new();
        self.ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
            return Ok(Answer::Actions(Vec::new()));
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
            let value = if self.peek() == Some(b'"') {
                Value::Str(self.string()?)
            } else {
                Value::Other(self.skip_value()?)
            };
            entries.push((key, entries.len(), value));
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    break;
                }
                _ => return self.err("expected ',' or '}'"),
            }
        }
        // The last value of each key counts, as in a Python dict.
        entries.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut out = Vec::with_capacity(entries.len());
        let mut invalid = None;
        let mut iter = entries.into_iter().peekable();
        while let Some((key, _, value)) = iter.next() {
            if iter.peek().is_some_and(|next| next.0 == key) {
                continue;
            }
            let action = match &value {
                Value::Str(s) => s.as_str().and_then(Action::from_name),
                Value::Other(_) => None,
            };
            match action {
                Some(a) => out.push((key, a)),
                None if invalid.is_none() => {
                    invalid = Some((describe_key(&key), describe_value(&value)));
                }
                None => {}
            }
        }
        Ok(match invalid {
            Some((key, value)) => Answer::Invalid { key, value },
            None => Answer::Actions(out),
        })
    }

    /// Skips any JSON value without keeping it; returns its kind.
    fn skip_value(&mut self) -> Res<&'static str> {
        // Containers still open, innermost last: true for an object.
        let mut stack: Vec<bool> = Vec::new();
        let mut kind = None;
        loop {
            self.ws();
            // A value.
            match self.peek() {
                Some(b'{') => {
                    self.i += 1;
                    kind.get_or_insert("an object");
                    self.ws();
                    if self.peek() == Some(b'}') {
                        self.i += 1;
                    } else {
                        stack.push(true);
                        self.key_colon()?;
                        continue;
                    }
                }
                Some(b'[') => {
                    self.i += 1;
                    kind.get_or_insert("a list");
                    self.ws();
                    if self.peek() == Some(b']') {
                        self.i += 1;
                    } else {
                        stack.push(false);
                        continue;
                    }
                }
                Some(b'"') => {
                    self.string()?;
                    kind.get_or_insert("a string");
                }
                Some(_) => {
                    let k = self.scalar()?;
                    kind.get_or_insert(k);
                }
                None => return self.err("expected a value"),
            }
            // After a value: close containers or go on to the next element.
            loop {
                let Some(&in_object) = stack.last() else {
                    return Ok(kind.unwrap_or("a value"));
                };
                self.ws();
                match (self.peek(), in_object) {
                    (Some(b','), true) => {
                        self.i += 1;
                        self.ws();
                        self.key_colon()?;
                        break;
                    }
                    (Some(b','), false) => {
                        self.i += 1;
                        break;
                    }
                    (Some(b'}'), true) | (Some(b']'), false) => {
                        self.i += 1;
                        stack.pop();
                    }
                    _ => return self.err("expected ',' or the end of a container"),
                }
            }
        }
    }

    /// `"key" :` inside a skipped object.
    fn key_colon(&mut self) -> Res<()> {
        if self.peek() != Some(b'"') {
            return self.err("expected a string key");
        }
        self.string()?;
        self.ws();
        if self.peek() != Some(b':') {
            return self.err("expected ':'");
        }
        self.i += 1;
        Ok(())
    }

    /// A number or a literal (`true`, `false`, `null`, `NaN`, `Infinity`,
    /// `-Infinity`); returns its kind.
    fn scalar(&mut self) -> Res<&'static str> {
        let rest = &self.s[self.i..];
        for (lit, kind) in [
            (&b"null"[..], "null"),
            (b"true", "true"),
            (b"false", "false"),
            (b"NaN", "a number"),
            (b"Infinity", "a number"),
            (b"-Infinity", "a number"),
        ] {
            if rest.starts_with(lit) {
                self.i += lit.len();
                return Ok(kind);
            }
        }
        // -?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)? : Python's NUMBER_RE; an
        // incomplete fraction or exponent ends the number where the match
        // ends, and what follows is then an error of the caller.
        let start = self.i;
        let digits = |p: &mut Self| {
            let from = p.i;
            while p.peek().is_some_and(|b| b.is_ascii_digit()) {
                p.i += 1;
            }
            p.i - from
        };
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek() {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => {
                digits(self);
            }
            _ => {
                self.i = start;
                return self.err("expected a value");
            }
        }
        if self.peek() == Some(b'.') && self.s.get(self.i + 1).is_some_and(u8::is_ascii_digit) {
            self.i += 1;
            digits(self);
        }
        if let Some(b'e' | b'E') = self.peek() {
            let save = self.i;
            self.i += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            if digits(self) == 0 {
                self.i = save;
            }
        }
        Ok("a number")
    }

    /// A string (at the opening quote), decoded. Borrowed when it has no
    /// escapes.
    fn string(&mut self) -> Res<Key<'a>> {
        self.i += 1;
        let start = self.i;
        // Fast path: no escapes.
        while let Some(b) = self.peek() {
            match b {
                b'"' => {
                    self.i += 1;
                    return Ok(Key::Text(Cow::Borrowed(&self.src[start..self.i - 1])));
                }
                b'\\' => break,
                0..=0x1f => return self.err("control character in a string"),
                _ => self.i += 1,
            }
        }
        // Slow path: decode into UTF-16 code units, then to text or WTF-8.
        let mut units: Vec<u16> = self.src[start..self.i].encode_utf16().collect();
        loop {
            let Some(b) = self.peek() else {
                return self.err("unterminated string");
            };
            match b {
                b'"' => {
                    self.i += 1;
                    return Ok(match String::from_utf16(&units) {
                        Ok(s) => Key::Text(Cow::Owned(s)),
                        Err(_) => Key::Wtf8(wtf8(&units)),
                    });
                }
                b'\\' => {
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
                                .and_then(|h| std::str::from_utf8(h).ok())
                                .filter(|h| h.bytes().all(|c| c.is_ascii_hexdigit()))
                                .and_then(|h| u16::from_str_radix(h, 16).ok());
                            match hex {
                                Some(u) => {
                                    self.i += 4;
                                    u
                                }
                                None => return self.err("invalid \\u escape"),
                            }
                        }
                        _ => return self.err("invalid escape"),
                    };
                    self.i += 2;
                    units.push(unit);
                }
                0..=0x1f => return self.err("control character in a string"),
                _ => {
                    // One UTF-8 character.
                    let ch = self.src[self.i..].chars().next().unwrap_or('\u{fffd}');
                    let mut buf = [0u16; 2];
                    units.extend_from_slice(ch.encode_utf16(&mut buf));
                    self.i += ch.len_utf8();
                }
            }
        }
    }
}

/// UTF-16 code units (possibly with lone surrogates) as WTF-8.
fn wtf8(units: &[u16]) -> Vec<u8> {
    let mut out = Vec::new();
    for r in char::decode_utf16(units.iter().copied()) {
        match r {
            Ok(c) => {
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
            Err(e) => {
                let u = e.unpaired_surrogate();
                out.extend_from_slice(&[
                    0xe0 | (u >> 12) as u8,
                    0x80 | ((u >> 6) & 0x3f) as u8,
                    0x80 | (u & 0x3f) as u8,
                ]);
            }
        }
    }
    out
}

fn describe_key(key: &Key<'_>) -> String {
    match key {
        Key::Text(t) => shorten(&format!("{:?}", t.as_ref())),
        Key::Wtf8(_) => "a key with a lone surrogate".to_string(),
    }
}

fn describe_value(value: &Value<'_>) -> String {
    match value {
        Value::Str(Key::Text(t)) => shorten(&format!("the string {:?}", t.as_ref())),
        Value::Str(Key::Wtf8(_)) => "a string with a lone surrogate".to_string(),
        Value::Other(kind) => (*kind).to_string(),
    }
}

/// At most 60 characters, for messages.
pub(crate) fn shorten(s: &str) -> String {
    if s.chars().count() <= 60 {
        s.to_string()
    } else {
        let cut: String = s.chars().take(57).collect();
        format!("{cut}...")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn actions(text: &str) -> Vec<(String, Action)> {
        match parse_answer(text) {
            Answer::Actions(mut a) => {
                a.sort_by(|x, y| x.0.cmp(&y.0));
                a.into_iter()
                    .map(|(k, v)| (k.as_str().unwrap_or("?").to_string(), v))
                    .collect()
            }
            other => panic!("{text}: {other:?}"),
        }
    }

    fn is_invalid(text: &str) -> bool {
        matches!(parse_answer(text), Answer::Invalid { .. })
    }

    fn is_unparseable(text: &str) -> bool {
        matches!(parse_answer(text), Answer::Unparseable(_))
    }

    #[test]
    fn a_dict_of_enum_names_binds_each_key() {
        assert_eq!(
            actions(r#" {"0-1": "NORTH", "2-1":"SPAWN"} "#),
            vec![
                ("0-1".to_string(), Action::North),
                ("2-1".to_string(), Action::Spawn)
            ]
        );
        assert_eq!(actions(r#"{"0-\u0031": "NOR\u0054H"}"#)[0].1, Action::North);
    }

    #[test]
    fn non_objects_are_valid_and_empty() {
        for text in [
            "null",
            "\"NORTH\"",
            "[1, {\"a\": [}]",
            "12.5e3",
            "-Infinity",
            "NaN",
            "true",
            "[]",
        ] {
            if text.contains("[}") {
                assert!(is_unparseable(text), "{text}");
            } else {
                assert!(actions(text).is_empty(), "{text}");
            }
        }
        assert!(actions("[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]").is_empty());
    }

    #[test]
    fn any_value_outside_the_enum_is_invalid() {
        for text in [
            r#"{"0-1": 5}"#,
            r#"{"0-1": null}"#,
            r#"{"0-1": "north"}"#,
            r#"{"0-1": ["NORTH"]}"#,
            r#"{"x": {}, "0-1": "NORTH"}"#,
            r#"{"0-1": "NORTH ", "0-2": "EAST"}"#,
        ] {
            assert!(is_invalid(text), "{text}");
        }
    }

    #[test]
    fn a_repeated_key_keeps_its_last_value() {
        assert_eq!(
            actions(r#"{"0-1": 5, "0-1": "WEST"}"#),
            vec![("0-1".to_string(), Action::West)]
        );
        assert!(is_invalid(r#"{"0-1": "WEST", "0-1": 5}"#));
        assert_eq!(
            actions(r#"{"0-1": 5, "0-\u0031": "EAST"}"#),
            vec![("0-1".to_string(), Action::East)]
        );
    }

    #[test]
    fn lone_surrogate_keys_are_distinct_keys() {
        // Python: {"\ud800": 5, "\udc00": "NORTH"} has two keys, one invalid.
        assert!(is_invalid(r#"{"\ud800": 5, "\udc00": "NORTH"}"#));
        assert_eq!(actions(r#"{"\ud800": "NORTH"}"#).len(), 1);
    }

    #[test]
    fn text_that_is_not_json_is_unparseable() {
        for text in [
            "",
            "NORTH",
            "{\"0-1\": \"NORTH\"",
            "{\"0-1\": \"NORTH\",}",
            "{'0-1': 'NORTH'}",
            "{\"a\":1} x",
            "01",
            "1.",
            "{\"a\": \"\u{1}\"}",
            "\u{feff}{}",
            "[1,]",
            "{\"a\" 1}",
            "\"\\x\"",
        ] {
            assert!(is_unparseable(text), "{text:?}");
        }
    }

    #[test]
    fn deep_nesting_does_not_recurse() {
        let deep = format!("{}{}", "[".repeat(200_000), "]".repeat(200_000));
        assert!(actions(&deep).is_empty());
        let deep_obj = format!("{{\"a\": {}1{}}}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(is_invalid(&deep_obj));
    }
}
