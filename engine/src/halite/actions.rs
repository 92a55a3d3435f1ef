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
//! `json.loads` ([`crate::kaggle::pyjson`]).

use crate::kaggle::pyjson::{self, PyStr, PyValue};
use crate::kaggle::Dir;

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

    /// The direction of a move.
    pub fn direction(self) -> Option<Dir> {
        match self {
            Action::North => Some(Dir::North),
            Action::East => Some(Dir::East),
            Action::South => Some(Dir::South),
            Action::West => Some(Dir::West),
            Action::Convert | Action::Spawn => None,
        }
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
    /// (the last value given for it), in the order given.
    Actions(Vec<(PyStr<'a>, Action)>),
    /// The schema rejects it: the key and a short description of the
    /// offending value (the first such entry).
    Invalid { key: String, value: String },
    /// Not JSON: where and why. The reference would see a string: no
    /// actions, still valid.
    Unparseable(String),
}

/// Reads an answer.
pub fn parse_answer(text: &str) -> Answer<'_> {
    let entries = match pyjson::loads(text) {
        Ok(pyjson::Answer::Dict(entries)) => entries,
        Ok(pyjson::Answer::Other(_)) => return Answer::Actions(Vec::new()),
        Err(e) => return Answer::Unparseable(e.to_string()),
    };
    let mut actions = Vec::with_capacity(entries.len());
    for (key, value) in entries {
        let action = match &value {
            PyValue::Str(s) => s.as_str().and_then(Action::from_name),
            _ => None,
        };
        match action {
            Some(a) => actions.push((key, a)),
            None => {
                return Answer::Invalid {
                    key: key.describe(),
                    value: describe_value(&value),
                }
            }
        }
    }
    Answer::Actions(actions)
}

fn describe_value(value: &PyValue<'_>) -> String {
    match value {
        PyValue::Str(s) => format!("the string {}", s.describe()),
        other => other.kind().to_string(),
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
    fn nesting_deeper_than_pythons_recursion_limit_is_not_json() {
        // Python raises RecursionError: not JSON, read as a string.
        let deep = format!("{}{}", "[".repeat(200_000), "]".repeat(200_000));
        assert!(is_unparseable(&deep));
        let deep_obj = format!("{{\"a\": {}1{}}}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(is_unparseable(&deep_obj));
        let shallow_obj = format!("{{\"a\": {}1{}}}", "[".repeat(900), "]".repeat(900));
        assert!(is_invalid(&shallow_obj));
    }
}
