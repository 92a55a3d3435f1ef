//! Answer words are read in any case, in every game that has them: each
//! legal answer of a game's first state, lower-cased and in mixed case,
//! plays exactly as the answer itself. Generated from the registry: a new
//! game says here how it is answered.

use ludus_engine::{games, new_game};
use serde_json::Value;

/// `answer` with the case of its letters flipped from the second on
/// (`MOVE 3 5 3 2` as `MoVe 3 5 3 2`, `nw` as `nW`).
fn mixed_case(answer: &str) -> String {
    answer
        .chars()
        .enumerate()
        .map(|(i, c)| match i % 2 {
            0 => c,
            _ if c.is_ascii_uppercase() => c.to_ascii_lowercase(),
            _ => c.to_ascii_uppercase(),
        })
        .collect()
}

/// Seat 0 answers `answer` in a fresh game, the other seats nothing: the
/// state after the turn, and seat 0's refusals.
fn after(id: &str, players: usize, answer: &str) -> ([u8; 32], usize) {
    let mut g = new_game(id, &Value::Null, 5, players).unwrap();
    let mut answers: Vec<Option<&str>> = vec![None; players];
    answers[0] = Some(answer);
    let refused = g.step(&answers).iter().filter(|r| r.seat == 0).count();
    (g.state_hash(), refused)
}

#[test]
fn every_game_reads_its_answer_words_in_any_case() {
    for info in games() {
        let key = match info.id {
            // JSON objects, not words: Planet Wars' keys, and Kaggle's
            // actions, which Kore and Halite read exactly as the reference
            // does (`north` is not `NORTH` there).
            "planet-wars" | "kore" | "halite" => continue,
            "pirates" => "legalActions",
            "claim" | "loops" | "shields" | "conquest" | "fences" => "legal_actions",
            other => panic!(
                "how is `{other}` answered? Name its legal actions' key here, or say why \
                 its answers are not words"
            ),
        };
        let players = info.fewest_seats();
        let g = new_game(info.id, &Value::Null, 5, players).unwrap();
        let mut text = String::new();
        g.observation(0, &mut text);
        let obs: Value = serde_json::from_str(&text).unwrap();
        let legal: Vec<&str> = obs[key]
            .as_array()
            .unwrap_or_else(|| panic!("{}: no `{key}`", info.id))
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        assert!(!legal.is_empty(), "{}: nothing legal to try", info.id);
        for answer in legal {
            let played = after(info.id, players, answer);
            assert_eq!(played.1, 0, "{}: {answer} refused", info.id);
            for variant in [answer.to_ascii_lowercase(), mixed_case(answer)] {
                assert_eq!(
                    after(info.id, players, &variant),
                    played,
                    "{}: {variant} does not play as {answer}",
                    info.id
                );
            }
        }
    }
}
