//! What each fuzz target asserts, beyond "no panic", of one parser of bot or
//! file input. The cargo-fuzz targets in `fuzz/fuzz_targets/` call these
//! functions, and so do the regression tests (`tests/regressions.rs`), which
//! replay every input a target ever failed on in the normal test suite.
//!
//! A check panics when the property fails: libFuzzer records the input as a
//! crash, a test fails.

use ludus_engine::halite::actions::{parse_answer, Answer};
use ludus_engine::kaggle::pyjson::{self, PyStr, PyValue};
use ludus_engine::registry::{self, GameInfo};
use ludus_host::Replay;
use ludus_sdk::FromJson;
use serde_json::Value;

/// A check of one input: panics when a property fails.
pub type Check = fn(&[u8]);

/// Every fuzz target by name (its file in `fuzz/fuzz_targets/`), with its check.
pub const TARGETS: &[(&str, Check)] = &[
    ("game_answers", game_answers),
    ("game_config", game_config),
    ("kaggle_answer_json", kaggle_answer_json),
    ("halite_answer", halite_answer),
    ("sdk_halite_turn", sdk_halite_turn),
    ("replay", replay),
];

/// Turns a fuzz input plays at most: enough to reach every phase, few enough
/// to keep an execution fast.
const MAX_TURNS: usize = 40;

/// The seed every fuzzed game is set up with.
const SEED: u64 = 7;

/// The game and seat count an input's first line names (`kore 4`), and the
/// rest. Any other first line picks a game from the registry by its bytes,
/// so the fuzzer reaches every game, and a game is fuzzed the day it is
/// registered; seeds and regressions name theirs, so they keep meaning the
/// same game when games are added.
fn pick_game(data: &[u8]) -> Option<(&'static GameInfo, usize, &[u8])> {
    let end = data.iter().position(|&b| b == b'\n')?;
    let (header, rest) = (&data[..end], &data[end + 1..]);
    let games = registry::games();
    let named = std::str::from_utf8(header).ok().and_then(|h| {
        let (id, seats) = h.split_once(' ')?;
        let info = games.iter().find(|g| g.id == id)?;
        let players = seats.parse().ok().filter(|&p| info.allows(p))?;
        Some((info, players))
    });
    let (info, players) = named.unwrap_or_else(|| {
        let sum = header.iter().map(|&b| usize::from(b)).sum::<usize>();
        let info = &games[sum % games.len()];
        (info, info.seats[header.len() % info.seats.len()])
    });
    Some((info, players, rest))
}

/// Every registered game's answer reader and rules, fed hostile answers.
///
/// Input: the game line (see [`pick_game`]), then answers, one a line, seat
/// after seat and turn after turn; an empty line is a seat that gave no
/// answer. See [`play_twins`] for what is asserted; the twin is a second
/// game set up the same way: the answer readers are deterministic.
pub fn game_answers(data: &[u8]) {
    let Some((info, players, rest)) = pick_game(data) else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let lines = answer_lines(&text);
    let new = || {
        ludus_engine::new_game(info.id, &Value::Null, SEED, players)
            .unwrap_or_else(|e| panic!("{} with {players} seats sets up: {e}", info.id))
    };
    play_twins(info, players, new(), new(), lines.chunks(players));
}

/// Answers, one a line; an empty line is a seat that gave no answer.
fn answer_lines(text: &str) -> Vec<Option<&str>> {
    text.split('\n')
        .map(|l| (!l.is_empty()).then_some(l))
        .collect()
}

/// Plays two games that must stay equal, turn by turn, for at most
/// [`MAX_TURNS`] turns or until the game ends. Asserts that they refuse the
/// same answers and reach the same state after every turn, that refusals
/// name a seat of the table, that there is a score per seat, that every
/// seat's observation can be written, and that an outcome places every seat.
fn play_twins<'a>(
    info: &GameInfo,
    players: usize,
    mut game: Box<dyn ludus_engine::Game>,
    mut twin: Box<dyn ludus_engine::Game>,
    turns: impl Iterator<Item = &'a [Option<&'a str>]>,
) {
    let mut observation = String::new();
    for answers in turns.take(MAX_TURNS) {
        if game.outcome().is_some() {
            break;
        }
        let mut answers = answers.to_vec();
        answers.resize(players, None);
        let refused = game.step(&answers);
        for r in &refused {
            assert!(
                r.seat < players,
                "{}: a refusal names seat {}",
                info.id,
                r.seat
            );
        }
        assert_eq!(
            twin.step(&answers),
            refused,
            "{}: the same refusals",
            info.id
        );
        assert_eq!(
            twin.state_hash(),
            game.state_hash(),
            "{}: the same answers, the same state",
            info.id
        );
        assert_eq!(
            game.scores().len(),
            players,
            "{}: a score per seat",
            info.id
        );
        for seat in 0..players {
            observation.clear();
            game.observation(seat, &mut observation);
        }
    }
    if let Some(outcome) = game.outcome() {
        assert_eq!(outcome.scores.len(), players, "{}", info.id);
        assert_eq!(outcome.placements.len(), players, "{}", info.id);
    }
}

/// Every registered game's config reader, and the games its configs make.
///
/// Input: the game line (see [`pick_game`]), the config as JSON text, then
/// answers as in [`game_answers`]. Asserts that an accepted config builds a
/// game whose `setup()`, fed back as its config, builds the same game (what
/// replays rely on), and that the two stay equal over [`MAX_TURNS`] turns of
/// those answers, then of none (see [`play_twins`]): a config the reader
/// accepts makes a game that plays.
pub fn game_config(data: &[u8]) {
    let Some((info, players, rest)) = pick_game(data) else {
        return;
    };
    let mut values = serde_json::Deserializer::from_slice(rest).into_iter::<Value>();
    let Some(Ok(config)) = values.next() else {
        return;
    };
    let text = String::from_utf8_lossy(&rest[values.byte_offset()..]);
    // The line break that ends the config starts no answer.
    let lines = answer_lines(text.strip_prefix('\n').unwrap_or(&text));
    let Ok(game) = ludus_engine::new_game(info.id, &config, SEED, players) else {
        return;
    };
    let setup = game.setup();
    let again = ludus_engine::new_game(info.id, &setup, SEED, players)
        .unwrap_or_else(|e| panic!("{}: its own setup {setup} is refused: {e}", info.id));
    assert_eq!(
        again.setup(),
        setup,
        "{}: the setup rebuilds itself",
        info.id
    );
    assert_eq!(
        again.state_hash(),
        game.state_hash(),
        "{}: the setup rebuilds the same game",
        info.id
    );
    let idle = vec![None; players];
    let turns = lines
        .chunks(players)
        .chain(std::iter::repeat_n(idle.as_slice(), MAX_TURNS));
    play_twins(info, players, game, again, turns);
}

/// A JSON value as far as Kaggle's answer reader keeps it.
fn py_reduced(v: &Value) -> PyValue<'_> {
    match v {
        Value::Null => PyValue::Null,
        Value::Bool(b) => PyValue::Bool(*b),
        Value::Number(n) => PyValue::Number {
            zero: n.as_f64() == Some(0.0),
        },
        Value::String(s) => PyValue::Str(PyStr::Text(s.as_str().into())),
        Value::Array(a) => PyValue::List {
            empty: a.is_empty(),
        },
        Value::Object(o) => PyValue::Dict {
            empty: o.is_empty(),
        },
    }
}

/// The reader of Kore's and Halite's answers, Python's `json.loads`,
/// against serde_json: Python reads all that serde_json reads (and more:
/// `NaN`, lone surrogates, deeper nesting), to the same keys and values.
pub fn kaggle_answer_json(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let ours = pyjson::loads(text);
    let Ok(theirs) = serde_json::from_str::<Value>(text) else {
        return;
    };
    let ours =
        ours.unwrap_or_else(|e| panic!("serde_json reads {text:?}, json.loads refuses: {e}"));
    match (ours, &theirs) {
        (pyjson::Answer::Dict(mut ours), Value::Object(map)) => {
            ours.sort_by(|a, b| a.0.cmp(&b.0));
            let theirs: Vec<(PyStr<'_>, PyValue<'_>)> = map
                .iter()
                .map(|(k, v)| (PyStr::Text(k.as_str().into()), py_reduced(v)))
                .collect();
            // serde_json's map is ordered by key, as the sort above.
            assert_eq!(ours, theirs, "{text:?}");
        }
        (pyjson::Answer::Other(ours), theirs) => {
            assert_eq!(ours, py_reduced(theirs), "{text:?}");
        }
        (ours, _) => panic!("{text:?}: json.loads gives {ours:?}, serde_json {theirs}"),
    }
}

/// Halite's reader of answers against serde_json: on JSON that serde_json
/// reads, the same keys, each with the same action, or the refusal of a key
/// whose value is no action.
pub fn halite_answer(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let ours = parse_answer(text);
    let Ok(theirs) = serde_json::from_str::<Value>(text) else {
        return;
    };
    let Value::Object(map) = theirs else {
        assert_eq!(ours, Answer::Actions(Vec::new()), "{text:?} is no object");
        return;
    };
    let action = |v: &Value| {
        v.as_str()
            .filter(|s| {
                matches!(
                    *s,
                    "NORTH" | "EAST" | "SOUTH" | "WEST" | "CONVERT" | "SPAWN"
                )
            })
            .map(str::to_string)
    };
    match ours {
        Answer::Actions(actions) => {
            let mut ours: Vec<(String, String)> = actions
                .iter()
                .map(|(k, a)| {
                    let key = k.as_str().expect("serde_json keys have no lone surrogates");
                    (key.to_string(), a.name().to_string())
                })
                .collect();
            ours.sort();
            let mut theirs: Vec<(String, String)> = map
                .iter()
                .map(|(k, v)| {
                    let a = action(v).unwrap_or_else(|| panic!("{text:?}: {k} is no action"));
                    (k.clone(), a)
                })
                .collect();
            theirs.sort();
            assert_eq!(ours, theirs, "{text:?}");
        }
        Answer::Invalid { key, .. } => {
            // The refusal quotes the key as Rust's `{:?}`, cut to 60 characters.
            let quoted = |k: &String| {
                let q = format!("{k:?}");
                match key.strip_suffix("...") {
                    Some(cut) if q.chars().count() > 60 => q.starts_with(cut),
                    _ => q == key,
                }
            };
            assert!(
                map.iter().any(|(k, v)| quoted(k) && action(v).is_none()),
                "{text:?}: the refused key {key} has no action"
            );
        }
        Answer::Unparseable(e) => panic!("serde_json reads {text:?}, Halite does not: {e}"),
    }
}

/// The SDK's one-pass reader of a Halite turn against serde_json: the same
/// value to the bit, or an error of the same class.
pub fn sdk_halite_turn(data: &[u8]) {
    use ludus_sdk::halite::Turn;
    let ours = Turn::from_json(data);
    let theirs = serde_json::from_slice::<Turn>(data);
    match (&ours, &theirs) {
        // Debug shows -0.0 and 0.0 apart, which `==` would not.
        (Ok(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}")),
        (Err(a), Err(b)) => assert_eq!(a.classify(), b.classify(), "{a} against {b}"),
        _ => panic!("the one-pass reader gives {ours:?}, serde_json {theirs:?}"),
    }
}

/// The replay reader, on any bytes (gzip or not). Asserts that a replay it
/// accepts writes back to bytes that read as the same replay, gzip or not,
/// and that its summary (what `ludus replay show` prints) can be made.
pub fn replay(data: &[u8]) {
    let Ok(replay) = Replay::from_bytes(data) else {
        return;
    };
    for gzip in [false, true] {
        let again = Replay::from_bytes(&replay.to_bytes(gzip))
            .unwrap_or_else(|e| panic!("a replay it wrote (gzip: {gzip}) is refused: {e}"));
        assert_eq!(again, replay, "gzip: {gzip}");
    }
    let _ = replay.summary();
    let _ = replay.short_id();
}
