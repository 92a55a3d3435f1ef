//! The engine's state as a line of JSON, in the reference's terms, and a
//! game played over a sequence of answers into such lines: what `ludus
//! engine run` prints and what the fidelity tests compare.

use crate::{Game, Rejection};

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

/// Plays `game` over `steps`, one item a step: `line` gets the state line
/// (see [`write_state_line`]) of the start, then of each step with what the
/// step refused. `answers` reads an item into the step's answers, one per
/// seat (`None` for none), only once the game is known to go on, so that
/// nothing after the end is read as a step. Returns the first item left
/// unplayed because the game had ended, for the caller to warn or refuse.
pub fn run<T, A, E>(
    game: &mut dyn Game,
    steps: impl IntoIterator<Item = Result<T, E>>,
    mut answers: impl FnMut(T) -> Result<A, E>,
    mut line: impl FnMut(&dyn Game, &[Rejection], &str) -> Result<(), E>,
) -> Result<Option<T>, E>
where
    A: AsRef<[Option<String>]>,
{
    let mut text = String::new();
    write_state_line(game, &mut text);
    line(game, &[], &text)?;
    for step in steps {
        let step = step?;
        if game.outcome().is_some() {
            return Ok(Some(step));
        }
        let answers = answers(step)?;
        let refs: Vec<Option<&str>> = answers.as_ref().iter().map(|a| a.as_deref()).collect();
        let refused = game.step(&refs);
        text.clear();
        write_state_line(game, &mut text);
        line(game, &refused, &text)?;
    }
    Ok(None)
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

    fn two_turns_of_planet_wars() -> Box<dyn Game> {
        crate::new_game("planet-wars", &serde_json::json!({"max_turns": 2}), 4, 2).unwrap()
    }

    #[test]
    fn a_run_stops_at_the_end_and_hands_back_the_first_step_not_played() {
        let mut game = two_turns_of_planet_wars();
        let mut read = Vec::new();
        let mut lines = Vec::new();
        let unplayed = run(
            game.as_mut(),
            (0..5).map(Ok::<_, String>),
            |i| {
                read.push(i);
                Ok(vec![Some("not json".to_string()), None])
            },
            |game, refused, line| {
                assert!(line.starts_with(&format!("{{\"step\":{},", game.turn())));
                lines.push((game.turn(), refused.len()));
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(unplayed, Some(2));
        assert_eq!(read, vec![0, 1], "nothing after the end is read");
        assert_eq!(lines, vec![(0, 0), (1, 1), (2, 1)]);
    }

    #[test]
    fn a_run_stops_at_the_first_error() {
        let mut game = two_turns_of_planet_wars();
        let steps = [Ok(0), Err("unreadable".to_string()), Ok(2)];
        let mut lines = 0;
        let e = run(
            game.as_mut(),
            steps,
            |_| Ok([None, None]),
            |_, _, _| {
                lines += 1;
                Ok(())
            },
        )
        .unwrap_err();
        assert_eq!((e.as_str(), lines), ("unreadable", 2));
        let e = run(
            game.as_mut(),
            [Ok(0)],
            |_| Err::<[Option<String>; 2], _>("bad answers".to_string()),
            |_, _, _| Ok(()),
        )
        .unwrap_err();
        assert_eq!(e, "bad answers");
    }

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
