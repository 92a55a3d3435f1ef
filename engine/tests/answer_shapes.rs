//! Every game reads exactly the answers its page (`docs/games/<game>.md`)
//! documents. Its documented answers are read and played; every other JSON
//! shape (null, a number, a string, a boolean, an array, an array of
//! arrays or of the documented answer, an object without the documented
//! key or with it of the wrong type) and text that is not JSON is refused as
//! an answer the game cannot read, with a reason that names what the game
//! expected and what came instead. Where a page documents another shape as
//! read (Halite: what is not an object binds no action, as in Kaggle), the
//! test holds the game to that. Generated from the registry: a new game must
//! say here how it is answered.

use ludus_engine::{games, new_game, Game, GameInfo, Rejection};
use serde_json::Value;

/// Shapes no game answers in, with the words of which a refusal must
/// contain one to name what came.
const WRONG_SHAPES: &[(&str, &[&str])] = &[
    ("null", &["JSON null", "got null", "is null"]),
    ("0", &["a JSON number", "the number 0", "is a number"]),
    ("-1.5", &["a JSON number", "the number -1.5", "is a number"]),
    ("true", &["a JSON boolean", "the boolean true", "is true"]),
    (
        "false",
        &["a JSON boolean", "the boolean false", "is false"],
    ),
    (
        "\"no such answer\"",
        &[
            "is a string",
            "the string \"no such answer\"",
            "\"no such answer\" is not",
        ],
    ),
    ("[]", &["a JSON array", "an array", "a list"]),
    ("[1, 2]", &["a JSON array", "an array", "a list"]),
    ("[\"EAST\"]", &["a JSON array", "an array", "a list"]),
    ("[[]]", &["a JSON array", "an array", "a list"]),
    ("[{}]", &["a JSON array", "an array", "a list"]),
    ("{", &["not JSON", "\"{\" is not"]),
    ("not an answer", &["not JSON", "\"not an answer\" is not"]),
];

/// How a game is answered, as its page documents it, for seat 0 in the
/// game's first state.
struct Spec {
    /// Words of which every refusal of a wrongly shaped answer contains one:
    /// what the game expected.
    expected: &'static [&'static str],
    /// Answers the page documents: read with no refusal at all.
    documented: Vec<String>,
    /// An answer the page documents as doing nothing (no moves, `STAY`,
    /// `WAIT`): a refused answer leaves the game as this one does, so
    /// nothing of a wrongly shaped answer is played. `None` where a refusal
    /// itself counts (Pirates: an illegal move).
    nothing: Option<String>,
    /// Shapes of [`WRONG_SHAPES`] or others that the page documents as
    /// read (Halite: anything but an object binds no action): no refusal.
    read: Vec<String>,
    /// The game's own wrong shapes: the documented answer wrapped in an
    /// array, its key missing or of the wrong type. Each with what the
    /// refusal must say was expected and came, and whether the game then
    /// stands as after [`Spec::nothing`] (not where the seat is put out).
    wrong: Vec<Wrong>,
}

struct Wrong {
    answer: String,
    expected: &'static [&'static str],
    got: &'static [&'static str],
    does_nothing: bool,
}

fn wrong(
    answer: impl Into<String>,
    expected: &'static [&'static str],
    got: &'static [&'static str],
) -> Wrong {
    Wrong {
        answer: answer.into(),
        expected,
        got,
        does_nothing: true,
    }
}

/// `s` as a JSON string.
fn json(s: &str) -> String {
    Value::from(s).to_string()
}

fn observation(g: &dyn Game) -> Value {
    let mut text = String::new();
    g.observation(0, &mut text);
    serde_json::from_str(&text).expect("observations are JSON")
}

/// Seat 0's entry `index` of a Kaggle observation's `players` (Kore: 1
/// for shipyards; Halite: 2 for ships): its first uid.
fn own_uid(obs: &Value, index: usize) -> String {
    let me = obs["observation"]["player"].as_u64().unwrap() as usize;
    obs["observation"]["players"][me][index]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .expect("seat 0 starts with one")
        .clone()
}

fn legal(obs: &Value, key: &str) -> Vec<String> {
    obs[key]
        .as_array()
        .unwrap_or_else(|| panic!("no `{key}` in {obs}"))
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect()
}

/// Each legal word bare, lower-cased and as a JSON string.
fn words_every_way(words: &[String]) -> Vec<String> {
    words
        .iter()
        .take(6)
        .flat_map(|w| [w.clone(), w.to_ascii_lowercase(), json(w)])
        .collect()
}

fn spec(info: &GameInfo, obs: &Value) -> Spec {
    match info.id {
        "planet-wars" => {
            let planets = obs["planets"].as_array().unwrap();
            let mine = planets.iter().find(|p| p["owner"] == 1).unwrap();
            let other = planets.iter().find(|p| p["owner"] != 1).unwrap();
            let a_move = serde_json::json!({"origin": mine["name"], "destination": other["name"],
                                            "ship_count": 1})
            .to_string();
            let moves = format!("{{\"moves\":[{a_move}]}}");
            const EXPECTED: &[&str] = &["expected a JSON object with a `moves` array"];
            Spec {
                expected: EXPECTED,
                documented: vec![
                    moves.clone(),
                    "{\"moves\":[]}".into(),
                    format!("{{\"note\":1,\"moves\":[{a_move}]}}"),
                ],
                nothing: Some("{\"moves\":[]}".into()),
                read: vec![],
                wrong: vec![
                    wrong(format!("[{moves}]"), EXPECTED, &["got an array"]),
                    wrong(format!("[[{a_move}]]"), EXPECTED, &["got an array"]),
                    wrong(format!("[{a_move}]"), EXPECTED, &["got an array"]),
                    wrong("{}", EXPECTED, &["got an object without `moves`"]),
                    wrong(
                        format!("{{\"move\":[{a_move}]}}"),
                        EXPECTED,
                        &["got an object without `moves`"],
                    ),
                    wrong(
                        "{\"moves\":5}",
                        EXPECTED,
                        &["got an object whose `moves` is the number 5"],
                    ),
                    wrong(
                        format!("{{\"moves\":{a_move}}}"),
                        EXPECTED,
                        &["got an object whose `moves` is an object"],
                    ),
                    wrong(
                        "{\"moves\":null}",
                        EXPECTED,
                        &["got an object whose `moves` is null"],
                    ),
                    wrong(
                        format!("{{\"moves\":{}}}", json(&format!("[{a_move}]"))),
                        EXPECTED,
                        &["got an object whose `moves` is the string"],
                    ),
                    wrong(
                        format!("{{\"moves\":[{a_move}],\"moves\":[{a_move}]}}"),
                        EXPECTED,
                        &["got an object with `moves` twice"],
                    ),
                ],
            }
        }
        "kore" => {
            let yard = own_uid(obs, 1);
            const EXPECTED: &[&str] = &["JSON object"];
            const STRING: &[&str] = &["not a string"];
            Spec {
                expected: EXPECTED,
                documented: vec![
                    format!("{{{}:\"SPAWN_1\"}}", json(&yard)),
                    "{}".into(),
                    // Falsy values and other strings are no order.
                    format!("{{{}:null}}", json(&yard)),
                    format!("{{{}:[]}}", json(&yard)),
                    format!("{{{}:\"spawn_1\"}}", json(&yard)),
                ],
                nothing: Some("{}".into()),
                read: vec![],
                wrong: vec![
                    wrong(
                        format!("[{{{}:\"SPAWN_1\"}}]", json(&yard)),
                        EXPECTED,
                        &["a list"],
                    ),
                    // Upstream raises on these: the seat is out.
                    Wrong {
                        answer: format!("{{{}:5}}", json(&yard)),
                        expected: STRING,
                        got: &["a number"],
                        does_nothing: false,
                    },
                    Wrong {
                        answer: format!("{{{}:[\"SPAWN_1\"]}}", json(&yard)),
                        expected: STRING,
                        got: &["a list"],
                        does_nothing: false,
                    },
                    Wrong {
                        answer: format!("{{{}:true}}", json(&yard)),
                        expected: STRING,
                        got: &["true"],
                        does_nothing: false,
                    },
                ],
            }
        }
        "halite" => {
            let ship = own_uid(obs, 2);
            const EXPECTED: &[&str] = &["not one of NORTH, EAST, SOUTH, WEST, CONVERT, SPAWN"];
            let invalid = |value: &str, got: &'static [&'static str]| Wrong {
                answer: format!("{{{}:{value}}}", json(&ship)),
                expected: EXPECTED,
                got,
                does_nothing: false,
            };
            Spec {
                expected: &["JSON object"],
                documented: vec![format!("{{{}:\"NORTH\"}}", json(&ship)), "{}".into()],
                nothing: Some("{}".into()),
                // "anything that is not an object (a string, a list, a
                // number, `null`) becomes `{}`: valid, no actions"
                read: WRONG_SHAPES
                    .iter()
                    .map(|(s, _)| s.to_string())
                    .filter(|s| *s != "{" && *s != "not an answer")
                    .chain([format!("[{{{}:\"NORTH\"}}]", json(&ship))])
                    .collect(),
                wrong: vec![
                    invalid("5", &["is a number"]),
                    invalid("null", &["is null"]),
                    invalid("\"north\"", &["the string \"north\""]),
                    invalid("[\"NORTH\"]", &["is a list"]),
                ],
            }
        }
        "claim" | "loops" | "shields" => {
            let own = legal(obs, "legal_actions");
            const EXPECTED: &[&str] = &["answer one of NORTH, EAST, SOUTH, WEST, STAY"];
            let others: &[&str] = match info.id {
                "claim" => &["SHIELD"],
                "loops" => &["RETREAT", "SHIELD"],
                _ => &["RETREAT"],
            };
            let mut wrongs = vec![
                wrong("{}", EXPECTED, &["a JSON object"]),
                wrong("{\"action\": \"STAY\"}", EXPECTED, &["a JSON object"]),
                wrong("[\"STAY\"]", EXPECTED, &["a JSON array"]),
                wrong("STAY STAY", EXPECTED, &["\"STAY STAY\""]),
            ];
            // Another grid game's word is not this game's answer at all.
            for w in others {
                wrongs.push(wrong(*w, EXPECTED, &["is not an action"]));
            }
            Spec {
                expected: EXPECTED,
                documented: words_every_way(&own),
                nothing: Some("STAY".into()),
                read: vec![],
                wrong: wrongs,
            }
        }
        "conquest" => {
            const EXPECTED: &[&str] = &[
                "answer one of NORTH, EAST, SOUTH, WEST, WAIT",
                "a JSON answer is an object with a \"kind\" string",
            ];
            Spec {
                expected: EXPECTED,
                documented: words_every_way(&legal(obs, "legal_actions"))
                    .into_iter()
                    .chain(["{\"kind\": \"wait\"}".to_string()])
                    .collect(),
                nothing: Some("WAIT".into()),
                read: vec![],
                wrong: vec![
                    wrong("{}", EXPECTED, &["got no \"kind\""]),
                    wrong("{\"action\": \"WAIT\"}", EXPECTED, &["got no \"kind\""]),
                    wrong("{\"kind\": 5}", EXPECTED, &["got \"kind\": 5"]),
                    wrong(
                        "{\"kind\": [\"wait\"]}",
                        EXPECTED,
                        &["got \"kind\": [\"wait\"]"],
                    ),
                    wrong(
                        "{\"kind\": \"move\"}",
                        &["needs \"direction\""],
                        &["got no \"direction\""],
                    ),
                    wrong(
                        "{\"kind\": \"move\", \"direction\": 5}",
                        &["needs \"direction\""],
                        &["got \"direction\": 5"],
                    ),
                    wrong(
                        "{\"kind\": \"teleport\"}",
                        &["the kinds are move"],
                        &["\"teleport\""],
                    ),
                    wrong("[\"WAIT\"]", EXPECTED, &["a JSON array"]),
                ],
            }
        }
        "pirates" => {
            const EXPECTED: &[&str] = &["answer one of nw, ne, e, se, sw, w"];
            Spec {
                expected: EXPECTED,
                documented: words_every_way(&legal(obs, "legalActions")),
                nothing: None,
                read: vec![],
                wrong: vec![
                    wrong("{\"action\": \"nw\"}", EXPECTED, &["a JSON object"]),
                    wrong("[\"nw\"]", EXPECTED, &["a JSON array"]),
                    wrong("stay", EXPECTED, &["\"stay\""]),
                ],
            }
        }
        "fences" => {
            const EXPECTED: &[&str] = &["answer WAIT, or MOVE x1 y1 x2 y2"];
            Spec {
                expected: EXPECTED,
                documented: words_every_way(&legal(obs, "legal_actions")),
                // The mover's WAIT passes its move (refused as `waited`).
                nothing: Some("WAIT".into()),
                read: vec![],
                wrong: vec![
                    wrong("[1, 2, 3, 4]", EXPECTED, &["a JSON array"]),
                    wrong("{\"move\": [1, 2, 3, 4]}", EXPECTED, &["a JSON object"]),
                    wrong("MOVE 1 2 3", EXPECTED, &["\"MOVE 1 2 3\""]),
                ],
            }
        }
        other => panic!(
            "how is `{other}` answered? Say here what its page documents: its answers, \
             what its refusals say it expected, and its own wrong shapes"
        ),
    }
}

/// Seat 0 answers `answer` in the game's first state, the others nothing:
/// the state after the turn, seat 0's refusals and its status.
fn turn(info: &GameInfo, answer: &str) -> ([u8; 32], Vec<Rejection>, &'static str) {
    let players = info.fewest_seats();
    let mut g = new_game(info.id, &Value::Null, 5, players).unwrap();
    let mut answers: Vec<Option<&str>> = vec![None; players];
    answers[0] = Some(answer);
    let refused = g
        .step(&answers)
        .into_iter()
        .filter(|r| r.seat == 0)
        .collect();
    (g.state_hash(), refused, g.statuses()[0])
}

fn contains_any(text: &str, words: &[&str]) -> bool {
    let text = text.to_lowercase();
    words.iter().any(|w| text.contains(&w.to_lowercase()))
}

/// Checks that `answer` is refused as unreadable, saying what was
/// expected and what came; returns the state after it.
fn assert_refused(info: &GameInfo, answer: &str, expected: &[&str], got: &[&str]) -> [u8; 32] {
    let (state, refused, _) = turn(info, answer);
    let unreadable: Vec<&Rejection> = refused
        .iter()
        .filter(|r| info.is_unreadable(&r.kind))
        .collect();
    assert!(
        !unreadable.is_empty(),
        "{}: {answer} was not refused as unreadable: {refused:?}",
        info.id
    );
    for r in unreadable {
        assert!(
            contains_any(&r.reason, expected),
            "{}: {answer}: the reason does not say what was expected ({expected:?}): {}",
            info.id,
            r.reason
        );
        assert!(
            contains_any(&r.reason, got),
            "{}: {answer}: the reason does not say what came ({got:?}): {}",
            info.id,
            r.reason
        );
    }
    state
}

#[test]
fn every_game_reads_its_documented_answers_and_refuses_every_other_shape_saying_why() {
    for info in games() {
        let first = new_game(info.id, &Value::Null, 5, info.fewest_seats()).unwrap();
        let spec = spec(info, &observation(first.as_ref()));
        let nothing = spec.nothing.as_deref().map(|a| turn(info, a).0);

        assert!(!spec.documented.is_empty(), "{}", info.id);
        for answer in &spec.documented {
            let (state, refused, _) = turn(info, answer);
            assert!(
                refused.is_empty(),
                "{}: the documented answer {answer} was refused: {refused:?}",
                info.id
            );
            let _ = state;
        }
        for answer in &spec.read {
            let (state, refused, status) = turn(info, answer);
            assert!(
                refused.is_empty(),
                "{}: {answer}, documented as read, was refused: {refused:?}",
                info.id
            );
            assert_eq!(status, "ACTIVE", "{}: {answer}", info.id);
            if let Some(nothing) = nothing {
                assert_eq!(state, nothing, "{}: {answer} did something", info.id);
            }
        }
        for (answer, got) in WRONG_SHAPES {
            if spec.read.iter().any(|r| r == answer) {
                continue;
            }
            let state = assert_refused(info, answer, spec.expected, got);
            if let Some(nothing) = nothing {
                assert_eq!(
                    state, nothing,
                    "{}: something of {answer} was played",
                    info.id
                );
            }
        }
        for w in &spec.wrong {
            let state = assert_refused(info, &w.answer, w.expected, w.got);
            if let (Some(nothing), true) = (nothing, w.does_nothing) {
                assert_eq!(
                    state, nothing,
                    "{}: something of {} was played",
                    info.id, w.answer
                );
            }
        }
    }
}

/// The documented answer is played, and the same answer in another shape
/// is not: Planet Wars' `[[move]]` and `[{"moves": [move]}]` used to be.
#[test]
fn planet_wars_plays_its_documented_moves_and_nothing_of_an_array() {
    let info = ludus_engine::registry::info("planet-wars").unwrap();
    let first = new_game(info.id, &Value::Null, 5, 2).unwrap();
    let spec = spec(info, &observation(first.as_ref()));
    let nothing = turn(info, "{\"moves\":[]}").0;
    assert_ne!(
        turn(info, &spec.documented[0]).0,
        nothing,
        "the documented move is played"
    );
    for w in spec.wrong.iter().filter(|w| w.answer.starts_with('[')) {
        assert_eq!(turn(info, &w.answer).0, nothing, "{}", w.answer);
    }
}
