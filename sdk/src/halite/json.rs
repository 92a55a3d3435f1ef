//! A one-pass reader for the Halite turn the host sends.
//!
//! Most of a Halite observation is the 441-number `halite` list, and reading
//! it through serde cost a bot most of its turn (about 230 000 of a random
//! bot's 280 000 fuel). This reader walks the text once and builds the
//! [`Turn`] directly. It only takes the plain shape the host writes: ASCII,
//! no escapes, no negative numbers, each field once, nothing after the value.
//! On anything else it gives up and
//! [`FromJson::from_json`](crate::FromJson::from_json) asks serde_json, so a
//! bot always gets serde_json's result: the same values to the bit, and
//! serde_json's error messages for bad input.

use super::{Configuration, Observation, Player, Ship, Shipyard, Turn};

/// Reads `json` if it has the plain shape; `None` means "ask serde_json".
pub(super) fn read_turn(json: &[u8]) -> Option<Turn> {
    let mut r = Reader {
        s: json,
        i: 0,
        depth: 0,
    };
    let mut observation = None;
    let mut configuration = None;
    r.object(|r, key| {
        match key {
            b"observation" if observation.is_none() => observation = Some(r.observation()?),
            b"configuration" if configuration.is_none() => {
                // Small, with defaults: serde reads the span the skip found.
                let start = r.i;
                r.skip_value()?;
                configuration =
                    Some(serde_json::from_slice::<Configuration>(&r.s[start..r.i]).ok()?);
            }
            b"observation" | b"configuration" => return None,
            _ => r.skip_value()?,
        }
        Some(())
    })?;
    r.ws();
    if r.i != r.s.len() {
        return None;
    }
    Some(Turn {
        observation: observation?,
        configuration: configuration?,
    })
}

struct Reader<'a> {
    s: &'a [u8],
    i: usize,
    /// Arrays and objects open around the value being skipped.
    depth: u32,
}

impl<'a> Reader<'a> {
    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    #[inline(always)]
    fn ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.peek() {
            self.i += 1;
        }
    }

    /// `[ item, ... ]` into a vector with room for `capacity` items.
    fn list<T>(
        &mut self,
        capacity: usize,
        mut item: impl FnMut(&mut Self) -> Option<T>,
    ) -> Option<Vec<T>> {
        let mut items = Vec::with_capacity(capacity);
        self.array(|r| {
            items.push(item(r)?);
            Some(())
        })?;
        Some(items)
    }

    /// Skips whitespace, then takes `byte`.
    fn eat(&mut self, byte: u8) -> Option<()> {
        self.ws();
        (self.peek()? == byte).then(|| self.i += 1)
    }

    /// A string without escapes, control characters or non-ASCII bytes.
    fn string(&mut self) -> Option<&'a [u8]> {
        self.eat(b'"')?;
        let start = self.i;
        loop {
            match self.peek()? {
                b'"' => break,
                b'\\' | 0..0x20 | 0x80.. => return None,
                _ => self.i += 1,
            }
        }
        self.i += 1;
        Some(&self.s[start..self.i - 1])
    }

    /// `{ "key": value, ... }`, calling `field` with the reader on each value.
    fn object(&mut self, mut field: impl FnMut(&mut Self, &'a [u8]) -> Option<()>) -> Option<()> {
        self.sequence(b'{', b'}', |r| {
            let key = r.string()?;
            r.eat(b':')?;
            field(r, key)
        })
    }

    /// `[ value, ... ]`, calling `element` with the reader on each value.
    fn array(&mut self, element: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.sequence(b'[', b']', element)
    }

    /// `open item, item, ... close` (or just `open close`), calling `item`
    /// for each.
    fn sequence(
        &mut self,
        open: u8,
        close: u8,
        mut item: impl FnMut(&mut Self) -> Option<()>,
    ) -> Option<()> {
        self.eat(open)?;
        self.ws();
        if self.peek()? == close {
            self.i += 1;
            return Some(());
        }
        loop {
            item(self)?;
            self.ws();
            match self.peek()? {
                b',' => self.i += 1,
                b if b == close => {
                    self.i += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// Appends a run of digits to `value`; returns how many there were.
    #[inline(always)]
    fn digits(&mut self, value: &mut u64) -> u32 {
        // The position lives in a local (a register) in this hot loop.
        let (s, start) = (self.s, self.i);
        let mut i = start;
        let mut v = *value;
        while let Some(&d @ b'0'..=b'9') = s.get(i) {
            // Wraps only past 19 digits, and callers refuse more than 15.
            v = v.wrapping_mul(10).wrapping_add(u64::from(d - b'0'));
            i += 1;
        }
        *value = v;
        self.i = i;
        (i - start) as u32
    }

    /// A JSON number without a sign, as serde_json reads it into an `f64`:
    /// correctly rounded. Up to 15 digits without exponent, `digits / 10^k`
    /// has both sides exact, so the one division rounds correctly; longer
    /// numbers (sums such as `1234.5670000000002`) go to the standard
    /// library's parser, which rounds correctly too.
    #[inline(always)]
    fn number(&mut self) -> Option<f64> {
        self.ws();
        let start = self.i;
        let first = self.peek()?;
        let mut significand = 0;
        let whole = self.digits(&mut significand);
        // JSON has no leading zeros: "0" alone, or a non-zero first digit.
        if whole == 0 || (whole > 1 && first == b'0') {
            return None;
        }
        let mut scale = 0;
        if self.peek() == Some(b'.') {
            self.i += 1;
            scale = self.digits(&mut significand);
            if scale == 0 {
                return None;
            }
        }
        let mut exponent = false;
        if let Some(b'e' | b'E') = self.peek() {
            self.i += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            if self.digits(&mut 0) == 0 {
                return None;
            }
            exponent = true;
        }
        if exponent || whole + scale > 15 {
            // Only ASCII digits, '.', 'e' and signs were taken.
            let text = std::str::from_utf8(&self.s[start..self.i]).ok()?;
            // Past f64's range the standard parser gives infinity, where
            // serde_json refuses the number: leave such text to serde_json.
            return text.parse().ok().filter(|v: &f64| v.is_finite());
        }
        Some(match (significand, scale) {
            (0, _) => 0.0,
            (_, 0) => significand as f64,
            _ => significand as f64 / POW10[scale as usize],
        })
    }

    /// A JSON integer for a `usize` / `u32` field: serde refuses a fraction.
    fn integer(&mut self) -> Option<u64> {
        self.ws();
        let first = self.peek()?;
        let mut value = 0;
        let digits = self.digits(&mut value);
        if digits == 0 || digits > 15 || (digits > 1 && first == b'0') {
            return None;
        }
        match self.peek() {
            Some(b'.' | b'e' | b'E') => None,
            _ => Some(value),
        }
    }

    /// Steps over any value, checking only what the plain shape needs.
    /// Nesting deeper than serde_json's own limit (128) is left to serde_json
    /// (which refuses it), so this recursion stays shallow.
    fn skip_value(&mut self) -> Option<()> {
        self.ws();
        match self.peek()? {
            b'{' | b'[' if self.depth >= 100 => None,
            b'{' => self.nested(|r| r.object(|r, _| r.skip_value())),
            b'[' => self.nested(|r| r.array(Self::skip_value)),
            b'"' => self.string().map(drop),
            b'0'..=b'9' => self.number().map(drop),
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            _ => None,
        }
    }

    fn nested(&mut self, value: impl FnOnce(&mut Self) -> Option<()>) -> Option<()> {
        self.depth += 1;
        let read = value(self);
        self.depth -= 1;
        read
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        let end = self.i + word.len();
        (self.s.get(self.i..end)? == word).then(|| self.i = end)
    }

    fn observation(&mut self) -> Option<Observation> {
        let (mut halite, mut players, mut player, mut step, mut overage) =
            (None, None, None, None, None);
        self.object(|r, key| {
            match key {
                b"halite" if halite.is_none() => halite = Some(r.list(441, Self::number)?),
                b"players" if players.is_none() => players = Some(r.list(4, Self::player)?),
                b"player" if player.is_none() => {
                    player = Some(usize::try_from(r.integer()?).ok()?);
                }
                b"step" if step.is_none() => step = Some(u32::try_from(r.integer()?).ok()?),
                b"remainingOverageTime" if overage.is_none() => overage = Some(r.number()?),
                b"halite" | b"players" | b"player" | b"step" | b"remainingOverageTime" => {
                    return None;
                }
                _ => r.skip_value()?,
            }
            Some(())
        })?;
        Some(Observation {
            halite: halite?,
            players: players?,
            player: player?,
            step: step?,
            remaining_overage_time: overage.unwrap_or_default(),
        })
    }

    /// `[bank, {shipyard uid: cell}, {ship uid: [cell, cargo]}]`.
    fn player(&mut self) -> Option<Player> {
        self.eat(b'[')?;
        let halite = self.number()?;
        self.eat(b',')?;
        let mut shipyards = Vec::new();
        self.object(|r, uid| {
            let pos = usize::try_from(r.integer()?).ok()?;
            shipyards.push(Shipyard {
                id: uid_text(uid)?,
                pos,
            });
            Some(())
        })?;
        self.eat(b',')?;
        let mut ships = Vec::new();
        self.object(|r, uid| {
            r.eat(b'[')?;
            let pos = usize::try_from(r.integer()?).ok()?;
            r.eat(b',')?;
            let halite = r.number()?;
            r.eat(b']')?;
            ships.push(Ship {
                id: uid_text(uid)?,
                pos,
                halite,
            });
            Some(())
        })?;
        self.eat(b']')?;
        Some(Player {
            halite,
            shipyards,
            ships,
        })
    }
}

/// `string` only passes ASCII, so this never fails; no panic path either way.
fn uid_text(uid: &[u8]) -> Option<String> {
    std::str::from_utf8(uid).ok().map(str::to_owned)
}

const POW10: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FromJson;

    /// A turn whose halite list is `cells` and whose seat-0 ship carries
    /// `cargo`, in the host's shape.
    fn turn(cells: &str, cargo: &str) -> String {
        format!(
            r#"{{"observation":{{"remainingOverageTime":60,"player":0,"step":12,"halite":[{cells}],"players":[[5000,{{"3-1":4}},{{"1-1":[0,{cargo}],"2-1":[8,0]}}],[4500.5,{{}},{{}}]]}},"configuration":{{"size":3,"spawnCost":500,"agentTimeout":60}}}}"#
        )
    }

    /// The reader's value is serde_json's to the bit.
    fn read_like_serde(text: &str) -> Turn {
        let fast = read_turn(text.as_bytes()).unwrap_or_else(|| panic!("fell back on {text}"));
        let serde: Turn = serde_json::from_str(text).unwrap();
        assert_eq!(format!("{fast:?}"), format!("{serde:?}"), "{text}");
        fast
    }

    #[test]
    fn reads_the_hosts_numbers_exactly_as_serde_json() {
        let t = read_like_serde(&turn(
            "0,0.0,500,123.456,0.001,401.473,1.5e-05,2E+2,7.000",
            "1234.5670000000002",
        ));
        assert_eq!(t.observation.halite[3], 123.456);
        assert_eq!(t.observation.halite[6], 1.5e-5);
        assert_eq!(
            t.observation.players[0].ships[0].halite,
            1_234.567_000_000_000_2
        );
        assert_eq!(t.observation.players[0].shipyards[0].id, "3-1");
        assert_eq!(t.observation.players[1].halite, 4500.5);
        assert_eq!(t.configuration.size, 3);
        assert_eq!(
            t.configuration.regen_rate, 0.02,
            "a default, as serde gives"
        );
        // 15, 16 and 17 significant digits, and integers past 2^53.
        read_like_serde(&turn(
            "123456789.012345,1234567890.123456,0.30000000000000004,9007199254740993,18446744073709551616",
            "0",
        ));
        // Keys in any order, unknown keys skipped, whitespace anywhere.
        read_like_serde(
            " { \"configuration\" : {\"size\":3} , \"extra\" : [true, false, null, {\"a\": \"b\"}],\n\
             \"observation\" : { \"step\" : 0 , \"player\" : 1 , \"halite\" : [ 1 , 2 ] ,\n\
             \"players\" : [ [ 0 , { } , { } ] , [ 1 , { \"0-1\" : 2 } , { \"1-1\" : [ 2 , 3.5 ] } ] ] } } \n",
        );
    }

    /// Text outside the plain shape goes to serde_json, whose answer (value
    /// or error) is then exactly what a bot gets.
    #[test]
    fn anything_else_falls_back_to_serde_json() {
        let cases = [
            turn("-1", "0"),                                                  // a sign
            turn("01", "0"),   // a leading zero: serde refuses
            turn("1.", "0"),   // a bare point: serde refuses
            turn("1e", "0"),   // no exponent digits
            turn("null", "0"), // not a number
            turn("1,", "0"),   // a trailing comma
            turn("1", "0.5]").replace(",0.5]]", ",0.5,1]"), // a ship with 3 entries
            turn("1", "0").replace(r#""3-1""#, r#""3\u002d1""#), // an escape
            turn("1", "0").replace(r#""step":12"#, r#""step":12.0"#), // step as a float
            turn("1", "0").replace(r#""step":12"#, r#""step":12,"step":13"#), // twice
            turn("1", "0").replace(r#""player":0,"#, ""), // missing
            turn("1", "0") + "x", // trailing text
            String::from("[1]"),
            String::new(),
            // Nested past serde_json's limit in an unknown field.
            turn("1", "0").replace(
                r#""agentTimeout":60"#,
                &format!(r#""deep":{}{}"#, "[".repeat(200), "]".repeat(200)),
            ),
        ];
        for text in cases {
            assert!(read_turn(text.as_bytes()).is_none(), "took {text}");
            let ours = Turn::from_json(text.as_bytes()).map_err(|e| e.to_string());
            let serde = serde_json::from_str::<Turn>(&text).map_err(|e| e.to_string());
            assert_eq!(ours, serde, "{text}");
        }
        // The escape is valid JSON: serde reads it.
        let escaped = turn("1", "0").replace(r#""3-1""#, r#""3\u002d1""#);
        let t = Turn::from_json(escaped.as_bytes()).unwrap();
        assert_eq!(t.observation.players[0].shipyards[0].id, "3-1");
    }
}
