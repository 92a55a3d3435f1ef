//! The viewer document: states rebuilt from a replay's answers, checked
//! against the replay's hashes, and the page they go into.

use ludus_host::replay::{Refusal, SeatInfo, SeatTurn, TurnRecord};
use ludus_host::{Limits, Replay};
use ludus_viewer::{frames, named_replay_page, replay_page, Document, Embed, RebuildError};
use serde_json::{json, Value};

/// A Planet Wars replay made by driving the engine directly with
/// `answer(turn, seat)`, recorded as the host records one (no bots needed).
fn engine_replay(
    seed: u64,
    players: usize,
    max_turns: u32,
    answer: impl Fn(u32, usize) -> String,
) -> Replay {
    let config = json!({"max_turns": max_turns});
    game_replay("planet-wars", config, seed, players, answer)
}

/// A replay of `game` made as [`engine_replay`] makes one.
fn game_replay(
    game: &str,
    config: Value,
    seed: u64,
    players: usize,
    answer: impl Fn(u32, usize) -> String,
) -> Replay {
    let mut game = ludus_engine::new_game(game, &config, seed, players).unwrap();
    let mut replay = Replay {
        format: "ludus-replay".into(),
        format_version: 1,
        ludus_version: "test".into(),
        wasmtime_version: "test".into(),
        match_id: String::new(),
        game: game.id().into(),
        rules_version: game.rules_version(),
        config: config.clone(),
        setup: game.setup(),
        seed,
        limits: Limits::default(),
        seats: (0..players)
            .map(|i| SeatInfo {
                name: format!("bot{i}"),
                sha256: "00".repeat(32),
            })
            .collect(),
        initial_state_hash: hex(game.state_hash()),
        turns: Vec::new(),
        outcome: None,
        aborted: None,
    };
    while game.outcome().is_none() {
        let turn = game.turn() + 1;
        let mut seats: Vec<SeatTurn> = (0..players)
            .map(|s| SeatTurn {
                answer: Some(answer(turn, s)),
                fuel: 1000,
                ..SeatTurn::default()
            })
            .collect();
        let answers: Vec<Option<&str>> = seats.iter().map(|s| s.answer.as_deref()).collect();
        for r in game.step(&answers) {
            seats[r.seat].refused.push(Refusal {
                kind: r.kind,
                reason: r.reason,
            });
        }
        replay.turns.push(TurnRecord {
            turn,
            seats,
            scores: game.scores(),
            state_hash: hex(game.state_hash()),
        });
    }
    replay.outcome = game.outcome();
    replay.match_id = replay.compute_match_id();
    replay
}

fn hex(h: [u8; 32]) -> String {
    h.iter().map(|b| format!("{b:02x}")).collect()
}

/// Every turn, seat 0 sends half the ships of its first planet to the planet after it.
fn aggressive(turn: u32, seat: usize) -> String {
    if seat != 0 || turn % 3 != 1 {
        return r#"{"moves":[]}"#.into();
    }
    r#"{"moves":[{"origin":"P0","destination":"P1","ship_count":1}],"x":1}"#.into()
}

fn quiet(_: u32, _: usize) -> String {
    r#"{"moves":[]}"#.into()
}

#[test]
fn a_frame_per_state_with_the_replays_scores() {
    let replay = engine_replay(1, 2, 25, quiet);
    let frames = frames(&replay).unwrap();
    assert_eq!(frames.len(), replay.turns.len() + 1);
    for (i, f) in frames.iter().enumerate() {
        assert_eq!(f.turn as usize, i);
        assert_eq!(f.observations.len(), 2);
        if i > 0 {
            assert_eq!(f.scores, replay.turns[i - 1].scores);
        }
    }
    // Ships grow on owned planets every turn, so states differ.
    assert_ne!(frames[0].observations[0], frames[5].observations[0]);
}

#[test]
fn a_game_with_fog_of_war_adds_its_whole_state_to_every_frame() {
    let replay = game_replay("conquest", json!({"max_turns": 6}), 3, 4, |turn, _| {
        if turn % 2 == 1 { "EAST" } else { "WAIT" }.into()
    });
    let frames = frames(&replay).unwrap();
    assert_eq!(frames.len(), 7);
    for f in &frames {
        let whole: Value =
            serde_json::from_str(f.spectator.as_deref().expect("a spectator view")).unwrap();
        assert_eq!(whole["teams"].as_array().unwrap().len(), 4);
        let seen: Value = serde_json::from_str(&f.observations[0]).unwrap();
        assert!(
            seen["owner"][11]
                .as_array()
                .unwrap()
                .iter()
                .all(Value::is_null),
            "seat 0 does not see the far side"
        );
        assert!(whole["owner"][11]
            .as_array()
            .unwrap()
            .iter()
            .all(Value::is_i64));
    }
    let planet_wars = engine_replay(1, 2, 5, quiet);
    let json = Document::new(&planet_wars).to_json();
    assert!(
        !json.contains("\"spectator\""),
        "games without fog have no spectator view"
    );
}

#[test]
fn each_seat_has_the_observation_its_bot_was_given() {
    let replay = engine_replay(2, 3, 10, quiet);
    let frames = frames(&replay).unwrap();
    let mut game = ludus_engine::new_game("planet-wars", &replay.setup, replay.seed, 3).unwrap();
    for (t, frame) in frames.iter().take(4).enumerate() {
        for seat in 0..3 {
            let mut text = String::new();
            game.observation(seat, &mut text);
            assert_eq!(frame.observations[seat], text, "turn {t} seat {seat}");
        }
        let answers = vec![Some(r#"{"moves":[]}"#); 3];
        game.step(&answers);
    }
    // Every bot is player 1 in its own view, so the seats' texts differ.
    assert_ne!(frames[0].observations[0], frames[0].observations[1]);
}

#[test]
fn an_edited_answer_is_found_at_its_turn() {
    let mut replay = engine_replay(3, 2, 30, quiet);
    let game = ludus_engine::new_game("planet-wars", &replay.setup, replay.seed, 2).unwrap();
    let mut obs = String::new();
    game.observation(0, &mut obs);
    let obs: Value = serde_json::from_str(&obs).unwrap();
    let mine = obs["planets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["owner"] == json!(1))
        .unwrap()["name"]
        .clone();
    let other = obs["planets"][0]["name"].clone();
    let other = if other == mine {
        obs["planets"][1]["name"].clone()
    } else {
        other
    };
    // On turn 4 seat 0 now sends a ship: the state after turn 4 no longer matches.
    replay.turns[3].seats[0].answer = Some(
        json!({"moves": [{"origin": mine, "destination": other, "ship_count": 1}]}).to_string(),
    );
    assert_eq!(
        frames(&replay),
        Err(RebuildError::Diverged {
            turn: 4,
            what: "state hash".into()
        })
    );
    let doc = Document::new(&replay);
    assert!(doc.frames.is_empty());
    assert!(doc.notes[0].contains("turn 4"), "{:?}", doc.notes);
}

#[test]
fn refusals_are_rebuilt_as_recorded() {
    let replay = engine_replay(4, 2, 12, aggressive);
    assert!(replay.turns.iter().any(|t| !t.seats[0].refused.is_empty()));
    assert!(frames(&replay).is_ok());
    let mut edited = replay.clone();
    edited.turns[0].seats[0].refused.clear();
    assert_eq!(
        frames(&edited),
        Err(RebuildError::Diverged {
            turn: 1,
            what: "refusals".into()
        })
    );
}

#[test]
fn a_game_this_ludus_lacks_still_gets_a_page_without_a_board() {
    let mut replay = engine_replay(5, 2, 5, quiet);
    replay.game = "tiddlywinks".into();
    let doc = Document::new(&replay);
    assert!(doc.frames.is_empty());
    assert!(
        doc.notes[0].contains("unknown game `tiddlywinks`"),
        "{:?}",
        doc.notes
    );
    let (html, notes) = replay_page(&replay, Embed::Json);
    assert_eq!(notes, doc.notes);
    assert!(html.contains("tiddlywinks"));

    let mut replay = engine_replay(5, 2, 5, quiet);
    replay.rules_version = 99;
    assert_eq!(
        frames(&replay),
        Err(RebuildError::RulesVersion {
            game: "planet-wars".into(),
            recorded: 99,
            current: ludus_engine::registry::info("planet-wars")
                .unwrap()
                .rules_version
        })
    );
}

/// The embedded document, read back out of a page as a browser would.
fn embedded(html: &str) -> Value {
    let start = html.find("id=\"ludus-data\"").unwrap();
    let open = start + html[start..].find('>').unwrap() + 1;
    let close = open + html[open..].find("</script>").unwrap();
    let body = &html[open..close];
    if html[start..open].contains("gzip-base64") {
        use base64::Engine as _;
        use std::io::Read;
        let gz = base64::engine::general_purpose::STANDARD
            .decode(body)
            .unwrap();
        let mut json = String::new();
        flate2::read::GzDecoder::new(&gz[..])
            .read_to_string(&mut json)
            .unwrap();
        serde_json::from_str(&json).unwrap()
    } else {
        serde_json::from_str(body).unwrap()
    }
}

#[test]
fn the_page_embeds_the_versioned_document_either_way() {
    let mut replay = engine_replay(6, 2, 20, quiet);
    // A bot's log may hold anything, markup included.
    replay.turns[2].seats[1].log = "</script><script>alert('x')</script>".into();
    let expected = serde_json::to_value(Document::new(&replay)).unwrap();
    assert_eq!(expected["format"], "ludus-viewer");
    assert_eq!(expected["format_version"], 1);
    assert_eq!(expected["replay"], serde_json::to_value(&replay).unwrap());
    let json_page = replay_page(&replay, Embed::Json).0;
    let gzip_page = replay_page(&replay, Embed::Gzip).0;
    assert_eq!(
        json_page.matches("</script>").count(),
        gzip_page.matches("</script>").count()
    );
    assert_eq!(embedded(&json_page), expected);
    assert_eq!(embedded(&gzip_page), expected);
    assert!(gzip_page.len() < json_page.len());
}

#[test]
fn auto_embeds_long_matches_compressed() {
    let short = engine_replay(7, 2, 5, quiet);
    assert!(replay_page(&short, Embed::Auto)
        .0
        .contains("data-encoding=\"json\""));
    let long = engine_replay(7, 4, 500, quiet);
    let page = replay_page(&long, Embed::Auto).0;
    assert!(page.contains("data-encoding=\"gzip-base64\""));
}

#[test]
fn a_bot_name_is_text_in_the_title() {
    let mut replay = engine_replay(8, 2, 5, quiet);
    let name = r#"<b>"Tom" & Jerry's</b>"#;
    replay.seats[0].name = name.into();
    let page = replay_page(&replay, Embed::Json).0;
    // `'` stays as it is: every attribute is quoted with `"`.
    let title = "planet-wars: &lt;b&gt;&quot;Tom&quot; &amp; Jerry's&lt;/b&gt; vs bot1 (seed 8)";
    assert!(page.contains(&format!("<title>{title}</title>")), "{page}");
    assert!(page.contains(&format!("<h1 id=\"title\">{title}</h1>")));
    assert!(!page.contains(name));
    assert_eq!(embedded(&page)["replay"]["seats"][0]["name"], name);
}

#[test]
fn a_named_page_names_each_seat_as_given_and_keeps_the_replay_as_it_is() {
    let replay = engine_replay(9, 2, 5, quiet);
    let names = ["carol v2".to_string(), "<alice> v1".to_string()];
    for embed in [Embed::Json, Embed::Gzip] {
        let page = named_replay_page(&replay, &names, embed).0;
        let title = "planet-wars: carol v2 vs &lt;alice&gt; v1 (seed 9)";
        assert!(page.contains(&format!("<title>{title}</title>")), "{page}");
        let doc = embedded(&page);
        assert_eq!(doc["seat_names"], json!(names));
        assert_eq!(doc["replay"], serde_json::to_value(&replay).unwrap());
    }
    // Not one name per seat: the replay's names, and no `seat_names`.
    let page = named_replay_page(&replay, &names[..1], Embed::Json).0;
    assert!(page.contains("<title>planet-wars: bot0 vs bot1 (seed 9)</title>"));
    assert!(embedded(&page).get("seat_names").is_none());
    assert_eq!(page, replay_page(&replay, Embed::Json).0);
}
