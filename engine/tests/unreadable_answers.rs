//! Every game tells two refusals apart, as its `GameInfo::unreadable` states:
//! an answer it cannot read as its own at all (a validation match fails the
//! bot), and one illegal move inside a readable answer (a warning). Generated
//! from the registry: a new game is covered once it is registered.

use ludus_engine::{games, new_game, Game, GameInfo, Rejection};
use serde_json::Value;

/// Texts no game reads as its answer.
const NOT_ANSWERS: [&str; 4] = ["", "not an answer", "{", "\u{1F980}"];

fn game(info: &GameInfo, players: usize) -> Box<dyn Game> {
    new_game(info.id, &Value::Null, 0, players).expect("the game builds")
}

/// Seat 0's observation, parsed.
fn observation(g: &dyn Game) -> Value {
    let mut text = String::new();
    g.observation(0, &mut text);
    serde_json::from_str(&text).expect("observations are JSON")
}

/// Plays one turn in which seat 0 answers `answer` and the others nothing;
/// returns seat 0's refusals.
fn refusals_of(g: &mut dyn Game, answer: &str) -> Vec<Rejection> {
    let mut answers: Vec<Option<&str>> = vec![None; g.players()];
    answers[0] = Some(answer);
    g.step(&answers)
        .into_iter()
        .filter(|r| r.seat == 0)
        .collect()
}

/// The first key of seat 0's entry `index` of a Kaggle observation's
/// `players` (Kore: 1 for shipyards; Halite: 2 for ships).
fn own_uid(obs: &Value, index: usize) -> String {
    let me = obs["observation"]["player"].as_u64().unwrap() as usize;
    let assets = obs["observation"]["players"][me][index]
        .as_object()
        .unwrap();
    assets
        .keys()
        .next()
        .expect("seat 0 starts with one")
        .clone()
}

/// A readable answer of the game with one illegal move in it, made for the
/// game's first state.
fn readable_answer_with_an_illegal_move(id: &str, obs: &Value) -> String {
    match id {
        "planet-wars" => {
            r#"{"moves":[{"origin":"no-such-planet","destination":"x","ship_count":1}]}"#.into()
        }
        "kore" => r#"{"no-such-shipyard":"SPAWN_1"}"#.into(),
        "halite" => r#"{"no-such-ship":"NORTH"}"#.into(),
        // Seat 0 (Blue) moves first; no node of its is off the board.
        "fences" => "MOVE -1 -1 -1 -3".into(),
        // A garrison far beyond any reserve; in a setup turn, the wrong phase.
        "conquest" => "GARRISON 1000000".into(),
        // Ships are numbered 1 to 4 and NPCs 5 and 6: there is no ship 9.
        "pirates" => "atk-9".into(),
        "claim" | "loops" | "shields" => {
            let legal: Vec<&str> = obs["legal_actions"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap())
                .collect();
            // The game's own words only: another grid game's word is not
            // this game's answer at all.
            let own: &[&str] = match id {
                "claim" => &["RETREAT", "NORTH", "EAST", "SOUTH", "WEST"],
                "shields" => &["SHIELD", "NORTH", "EAST", "SOUTH", "WEST"],
                _ => &["NORTH", "EAST", "SOUTH", "WEST"],
            };
            let action = own
                .iter()
                .find(|a| !legal.contains(a))
                .expect("some action of the game is not legal now");
            action.to_string()
        }
        other => panic!(
            "no readable answer with an illegal move for `{other}`: add one to \
             readable_answer_with_an_illegal_move in this file"
        ),
    }
}

#[test]
fn text_that_is_no_answer_at_all_is_refused_with_a_kind_the_game_declares_unreadable() {
    for info in games() {
        assert!(
            !info.unreadable.is_empty(),
            "{}: no unreadable kinds",
            info.id
        );
        for &players in info.seats {
            for text in NOT_ANSWERS {
                let mut g = game(info, players);
                let refused = refusals_of(g.as_mut(), text);
                assert!(
                    refused.iter().any(|r| info.is_unreadable(&r.kind)),
                    "{} with {players} seats: {text:?} gave {refused:?}, none of kinds {:?}",
                    info.id,
                    info.unreadable
                );
            }
        }
    }
}

#[test]
fn an_illegal_move_inside_a_readable_answer_is_refused_with_a_kind_that_is_not_unreadable() {
    for info in games() {
        for &players in info.seats {
            let mut g = game(info, players);
            let answer = readable_answer_with_an_illegal_move(info.id, &observation(g.as_ref()));
            let refused = refusals_of(g.as_mut(), &answer);
            assert!(
                !refused.is_empty(),
                "{} with {players} seats: {answer} was not refused at all",
                info.id
            );
            for r in &refused {
                assert!(
                    !info.is_unreadable(&r.kind),
                    "{} with {players} seats: {answer} was refused as unreadable: {r:?}",
                    info.id
                );
            }
        }
    }
}

#[test]
fn kore_declares_unreadable_each_way_it_cannot_read_an_answer() {
    let info = ludus_engine::registry::info("kore").unwrap();
    let kind_of = |answer: &dyn Fn(&Value) -> String| {
        let mut g = game(info, 2);
        let answer = answer(&observation(g.as_ref()));
        let refused = refusals_of(g.as_mut(), &answer);
        assert_eq!(refused.len(), 1, "{answer}: {refused:?}");
        refused[0].kind.clone()
    };
    let not_json = kind_of(&|_| "{".into());
    let not_an_object = kind_of(&|_| "[]".into());
    // Upstream's reader raises on a spawn of "x" ships: the seat is out.
    let agent_error = kind_of(&|obs| format!(r#"{{"{}":"SPAWN_x"}}"#, own_uid(obs, 1)));
    assert_eq!(
        info.unreadable,
        [not_json.as_str(), &not_an_object, &agent_error],
        "the kinds Kore gives the answers it cannot read are the kinds it declares"
    );
}

#[test]
fn halite_declares_an_action_outside_its_language_unreadable() {
    let info = ludus_engine::registry::info("halite").unwrap();
    let mut g = game(info, 2);
    let ship = own_uid(&observation(g.as_ref()), 2);
    let refused = refusals_of(g.as_mut(), &format!(r#"{{"{ship}":"JUMP"}}"#));
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert!(info.is_unreadable(&refused[0].kind), "{refused:?}");
    assert_eq!(g.statuses()[0], "INVALID", "the seat is out, as in Kaggle");
}
