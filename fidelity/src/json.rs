//! JSON kept as written: object keys in order, ints apart from floats.
//!
//! `serde_json::Value` sorts object keys and would hide a difference in the
//! order of uids; this type keeps what the text says.

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// A JSON value in the order it was written.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Int(i128),
    Float(f64),
    Str(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    pub fn parse(text: &str) -> serde_json::Result<Json> {
        serde_json::from_str(text)
    }

    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

impl fmt::Display for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Json::Null => write!(f, "null"),
            Json::Bool(b) => write!(f, "{b}"),
            Json::Int(i) => write!(f, "{i} (int)"),
            Json::Float(x) => write!(f, "{x:?} (float, bits {:#018x})", x.to_bits()),
            Json::Str(s) => write!(f, "{s:?}"),
            Json::Array(items) => write!(f, "a list of {}", items.len()),
            Json::Object(members) => {
                let keys: Vec<&str> = members.iter().map(|(k, _)| k.as_str()).collect();
                write!(f, "an object with keys {keys:?}")
            }
        }
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Json;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_unit<E>(self) -> Result<Json, E> {
                Ok(Json::Null)
            }
            fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
                Ok(Json::Bool(b))
            }
            fn visit_i64<E>(self, i: i64) -> Result<Json, E> {
                Ok(Json::Int(i.into()))
            }
            fn visit_u64<E>(self, u: u64) -> Result<Json, E> {
                Ok(Json::Int(u.into()))
            }
            fn visit_f64<E>(self, x: f64) -> Result<Json, E> {
                Ok(Json::Float(x))
            }
            fn visit_str<E>(self, s: &str) -> Result<Json, E> {
                Ok(Json::Str(s.to_string()))
            }
            fn visit_string<E>(self, s: String) -> Result<Json, E> {
                Ok(Json::Str(s))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Json::Array(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
                let mut members = Vec::new();
                while let Some((k, v)) = map.next_entry()? {
                    members.push((k, v));
                }
                Ok(Json::Object(members))
            }
        }
        d.deserialize_any(V)
    }
}

/// Where two values first differ.
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    /// e.g. `observation.players[1][2]["3-1"][0]`
    pub path: String,
    pub upstream: String,
    pub ludus: String,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "field {}: upstream {}, Ludus {}",
            self.path, self.upstream, self.ludus
        )
    }
}

/// The first place where `ludus` differs from `upstream`, depth first.
/// Floats must be equal bit for bit and of the same kind as upstream's
/// (an int is not a float). Object members must come in upstream's order,
/// except the members of the top-level `observation`, whose order upstream
/// itself changes after the first step.
pub fn first_difference(upstream: &Json, ludus: &Json) -> Option<Difference> {
    let mut path = String::new();
    diff(upstream, ludus, &mut path, 0)
}

fn diff(a: &Json, b: &Json, path: &mut String, depth: usize) -> Option<Difference> {
    let here = |path: &str, a: String, b: String| {
        Some(Difference {
            path: if path.is_empty() {
                "(the line)".into()
            } else {
                path.to_string()
            },
            upstream: a,
            ludus: b,
        })
    };
    match (a, b) {
        (Json::Float(x), Json::Float(y)) => {
            if x.to_bits() == y.to_bits() {
                None
            } else {
                here(path, a.to_string(), b.to_string())
            }
        }
        (Json::Array(xs), Json::Array(ys)) => {
            for (i, (x, y)) in xs.iter().zip(ys).enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                if let Some(d) = diff(x, y, path, depth + 1) {
                    return Some(d);
                }
                path.truncate(len);
            }
            if xs.len() != ys.len() {
                return here(
                    path,
                    format!("{} items", xs.len()),
                    format!("{} items", ys.len()),
                );
            }
            None
        }
        (Json::Object(xs), Json::Object(ys)) => {
            let unordered = depth == 1 && path == "observation";
            let keys = |m: &[(String, Json)]| {
                let mut k: Vec<String> = m.iter().map(|(k, _)| k.clone()).collect();
                if unordered {
                    k.sort();
                }
                k
            };
            let (kx, ky) = (keys(xs), keys(ys));
            if kx != ky {
                return here(path, format!("keys {kx:?}"), format!("keys {ky:?}"));
            }
            for (k, x) in xs {
                let y = b.get(k).expect("same keys");
                let len = path.len();
                if path.is_empty() {
                    path.push_str(k);
                } else if k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    path.push('.');
                    path.push_str(k);
                } else {
                    path.push_str(&format!("[{k:?}]"));
                }
                if let Some(d) = diff(x, y, path, depth + 1) {
                    return Some(d);
                }
                path.truncate(len);
            }
            None
        }
        _ if a == b => None,
        _ => here(path, a.to_string(), b.to_string()),
    }
}

impl Json {
    /// JSON text of the value, members in order; floats in Rust's shortest
    /// round-trip form, which parses back to the same bits.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Int(i) => out.push_str(&i.to_string()),
            Json::Float(x) => out.push_str(&format!("{x:?}")),
            Json::Str(s) => out.push_str(&serde_json::to_string(s).expect("strings encode")),
            Json::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Json::Object(members) => {
                out.push('{');
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&serde_json::to_string(k).expect("strings encode"));
                    out.push(':');
                    v.write(out);
                }
                out.push('}');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn j(s: &str) -> Json {
        Json::parse(s).unwrap()
    }

    #[test]
    fn an_int_is_not_a_float() {
        let d = first_difference(&j(r#"{"a":[1,2.0]}"#), &j(r#"{"a":[1,2]}"#)).unwrap();
        assert_eq!(d.path, "a[1]");
        assert!(
            d.upstream.contains("float") && d.ludus.contains("int"),
            "{d}"
        );
    }

    #[test]
    fn floats_compare_by_bits() {
        assert!(first_difference(&j("[0.1]"), &j("[0.1]")).is_none());
        let d = first_difference(&j("[9.562]"), &j("[9.563]")).unwrap();
        assert_eq!(d.path, "[0]");
        assert!(first_difference(&j("[0.0]"), &j("[-0.0]")).is_some());
    }

    #[test]
    fn uid_order_matters_below_the_observation() {
        let up = j(r#"{"observation":{"players":[{"1-1":5,"2-1":6}]}}"#);
        let lu = j(r#"{"observation":{"players":[{"2-1":6,"1-1":5}]}}"#);
        let d = first_difference(&up, &lu).unwrap();
        assert_eq!(d.path, "observation.players[0]");
    }

    #[test]
    fn top_level_observation_members_may_come_in_any_order() {
        let up = j(r#"{"step":1,"observation":{"step":1,"halite":[1]}}"#);
        let lu = j(r#"{"step":1,"observation":{"halite":[1],"step":1}}"#);
        assert_eq!(first_difference(&up, &lu), None);
        let lu = j(r#"{"step":1,"observation":{"halite":[2],"step":1}}"#);
        assert_eq!(
            first_difference(&up, &lu).unwrap().path,
            "observation.halite[0]"
        );
    }

    #[test]
    fn uid_keys_are_quoted_in_paths() {
        let d = first_difference(&j(r#"{"s":{"3-1":[1]}}"#), &j(r#"{"s":{"3-1":[2]}}"#)).unwrap();
        assert_eq!(d.path, r#"s["3-1"][0]"#);
    }

    #[test]
    fn text_round_trips_order_and_kinds() {
        let text = r#"{"b":[1,2.0,-0.0,1e16,0.1],"a":{"x":null,"y":"q\"x"}}"#;
        let v = j(text);
        assert_eq!(first_difference(&v, &j(&v.to_text())), None);
        assert!(
            v.to_text().starts_with(r#"{"b":[1,2.0,-0.0,"#),
            "{}",
            v.to_text()
        );
    }

    #[test]
    fn missing_items_are_named() {
        let d = first_difference(&j("[1,2,3]"), &j("[1,2]")).unwrap();
        assert_eq!(
            (d.upstream.as_str(), d.ludus.as_str()),
            ("3 items", "2 items")
        );
    }
}
