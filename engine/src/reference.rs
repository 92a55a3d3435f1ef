//! The engine's state as a line of JSON, in the reference's terms: what
//! `ludus engine run` prints and what the fidelity tests compare.

use crate::Game;

/// Writes `{"step": k, "observation": <seat 0's reference observation>,
/// "rewards": [...], "statuses": [...]}` into `out` (appended, no newline).
pub fn write_state_line(game: &dyn Game, out: &mut String) {
    out.push_str("{\"step\":");
    out.push_str(&game.turn().to_string());
    out.push_str(",\"observation\":");
    let mut observation = String::new();
    game.reference_observation(0, &mut observation);
    out.push_str(&observation);
    out.push_str(",\"rewards\":");
    out.push_str(&serde_json::Value::from(game.rewards()).to_string());
    out.push_str(",\"statuses\":");
    out.push_str(&serde_json::to_string(&game.statuses()).expect("strings encode"));
    out.push('}');
}

/// Reads one line of actions, a JSON array with one entry per seat: that
/// seat's answer as the game takes it, or `null` for none. Entries that are
/// strings for games whose answers are text are passed as is; anything else
/// is passed as its JSON text.
pub fn parse_actions_line(line: &str, players: usize) -> Result<Vec<Option<String>>, String> {
    // Raw entries keep each answer's text as written: the order of keys in an
    // action object can matter to the game.
    let items: Vec<&serde_json::value::RawValue> = serde_json::from_str(line)
        .map_err(|e| format!("expected a JSON array with one entry per seat: {e}"))?;
    if items.len() != players {
        return Err(format!(
            "{} entries for {players} seats; give one per seat (null for none)",
            items.len()
        ));
    }
    items
        .into_iter()
        .map(|item| {
            let text = item.get();
            if text == "null" {
                Ok(None)
            } else if text.starts_with('"') {
                serde_json::from_str::<String>(text)
                    .map(Some)
                    .map_err(|e| format!("bad string {text}: {e}"))
            } else {
                Ok(Some(text.to_string()))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_keep_their_key_order_and_strings_are_unquoted() {
        let seats = parse_actions_line(r#"[{"b": 1, "a": 2}, null, "UP"]"#, 3).unwrap();
        assert_eq!(
            seats,
            vec![
                Some(r#"{"b": 1, "a": 2}"#.to_string()),
                None,
                Some("UP".into())
            ]
        );
    }

    #[test]
    fn a_line_with_the_wrong_number_of_seats_is_refused() {
        let e = parse_actions_line("[null]", 2).unwrap_err();
        assert!(e.contains("1 entries for 2 seats"), "{e}");
        assert!(parse_actions_line("{}", 2).is_err());
    }
}
