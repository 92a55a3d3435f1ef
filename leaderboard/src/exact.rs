//! Integers that can exceed 2^53 (seeds, ids) in JSON as strings of their
//! decimal digits. JavaScript's `JSON.parse`, and many JSON tools, read
//! every number as a double, which rounds such an integer: a seed ending
//! in `…056173` would read as `…056000`, and re-playing it would play
//! another match. A field takes `#[serde(with = "exact")]` (or
//! `exact::option`); it is written as a string and read from a string or,
//! as older answers wrote it, from a number. The replay format keeps its
//! numbers (`docs/replay.md`): its readers are told to read the seed
//! exactly.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serializer};
use std::fmt::Display;
use std::str::FromStr;

/// What a field may hold when read: its digits, or a plain number.
#[derive(Deserialize)]
#[serde(untagged)]
enum Digits {
    Text(String),
    Unsigned(u64),
    Signed(i64),
}

impl Digits {
    fn parse<T: FromStr, E: serde::de::Error>(self) -> Result<T, E> {
        let text = match self {
            Digits::Text(t) => t,
            Digits::Unsigned(n) => n.to_string(),
            Digits::Signed(n) => n.to_string(),
        };
        text.parse()
            .map_err(|_| E::custom(format!("`{text}` is not an integer of this field's range")))
    }
}

pub fn serialize<T: Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}

pub fn deserialize<'de, T: FromStr, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    Digits::deserialize(d)
        .map_err(|_| D::Error::custom("expected an integer as a string of its digits"))?
        .parse()
}

/// The same for an optional field: `null` when absent.
pub mod option {
    use super::Digits;
    use serde::{Deserialize, Deserializer, Serializer};
    use std::fmt::Display;
    use std::str::FromStr;

    pub fn serialize<T: Display, S: Serializer>(
        value: &Option<T>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match value {
            Some(v) => s.collect_str(v),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, T: FromStr, D: Deserializer<'de>>(d: D) -> Result<Option<T>, D::Error> {
        Option::<Digits>::deserialize(d)?
            .map(Digits::parse)
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Match {
        #[serde(with = "super")]
        seed: u64,
        #[serde(with = "super::option")]
        ladder: Option<i64>,
    }

    #[test]
    fn a_seed_beyond_2_pow_53_is_written_as_its_digits_and_read_back_exactly() {
        let m = Match {
            seed: 15337121675167056173,
            ladder: Some(9_007_199_254_740_993),
        };
        let json = serde_json::to_string(&m).unwrap();
        assert_eq!(
            json,
            r#"{"seed":"15337121675167056173","ladder":"9007199254740993"}"#
        );
        assert_eq!(serde_json::from_str::<Match>(&json).unwrap(), m);
        // As older answers wrote them: numbers, read exactly by serde_json.
        let old = r#"{"seed":15337121675167056173,"ladder":null}"#;
        let back: Match = serde_json::from_str(old).unwrap();
        assert_eq!((back.seed, back.ladder), (15337121675167056173, None));
    }

    #[test]
    fn what_is_not_an_integer_of_the_field_is_refused() {
        for json in [
            r#"{"seed":"-1","ladder":null}"#,
            r#"{"seed":"1e3","ladder":null}"#,
            r#"{"seed":1.5,"ladder":null}"#,
            r#"{"seed":"18446744073709551616","ladder":null}"#,
        ] {
            assert!(serde_json::from_str::<Match>(json).is_err(), "{json}");
        }
    }
}
