//! The `ludus` command line, end to end, as a user runs it.

mod common;

use common::*;
use std::path::PathBuf;

#[test]
fn games_lists_planet_wars_with_its_rules_version() {
    let dir = tempfile::tempdir().unwrap();
    let o = ludus(&["games"], dir.path());
    assert!(o.status.success());
    assert!(
        text(&o).contains("planet-wars     v1  2, 3 or 4  ships"),
        "{}",
        text(&o)
    );
}

#[test]
fn check_without_a_game_finds_the_one_an_example_bot_plays() {
    let dir = tempfile::tempdir().unwrap();
    let o = ludus(&["check", &bot("planet_wars_expander")], dir.path());
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("sha256"), "{t}");
    assert!(t.contains("planet-wars  plays it: 30 turns"), "{t}");
    assert!(
        t.contains("kore         no: 2 seats, turn 1, seat 0: "),
        "{t}"
    );
    assert!(
        t.contains("verdict  OK: planet_wars_expander plays planet-wars"),
        "{t}"
    );
}

#[test]
fn check_of_a_bot_for_another_game_fails_with_its_log_and_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let o = ludus(
        &["check", &bot("kore_miner"), "--game", "claim"],
        dir.path(),
    );
    let t = text(&o);
    assert!(!o.status.success(), "{t}");
    assert!(
        t.contains("failed   turn 1, seat 0: the game cannot read the answer (unparseable)"),
        "{t}"
    );
    assert!(t.contains("(seats 1, 2, 3 likewise)"), "{t}");
    assert!(
        t.contains("log      ludus-sdk: could not read this turn's observation"),
        "{t}"
    );
    assert!(
        t.contains("to do    answer as docs/games/claim.md says"),
        "{t}"
    );
    assert!(
        t.contains("kore_miner.wasm does not play claim: 4 seats, turn 1"),
        "{t}"
    );
}

#[test]
fn check_fails_a_looping_bot_naming_the_fault_once_for_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let o = ludus(
        &[
            "check",
            "--first-turn-fuel",
            "10000000",
            &bot("loop_in_act"),
        ],
        dir.path(),
    );
    let t = text(&o);
    assert!(!o.status.success());
    assert!(t.contains("failed   turn 1, seat 0: out_of_fuel"), "{t}");
    assert!(t.contains("to do    do less on a turn"), "{t}");
    // Shown in full for the first game of the registry, named for the rest.
    let others: Vec<&str> = ludus_engine::games()[1..].iter().map(|g| g.id).collect();
    let (last, init) = others.split_last().unwrap();
    let also = format!(
        "also     {} and {last} failed the same way",
        init.join(", ")
    );
    assert!(t.contains(&also), "{t}");
    assert!(
        t.contains("loop_in_act.wasm plays none of the games"),
        "{t}"
    );
}

#[test]
fn check_of_a_bot_that_plays_two_games_asks_which_with_game() {
    let dir = tempfile::tempdir().unwrap();
    let wat = ludus_testkit::workspace_root().join("host/tests/hostile/illegal_moves.wat");
    std::fs::write(dir.path().join("mover.wasm"), wat::parse_file(wat).unwrap()).unwrap();
    let o = ludus(&["check", "mover.wasm"], dir.path());
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("verdict  mover plays planet-wars and kore: say which with --game"),
        "{t}"
    );
    let o = ludus(
        &["check", "mover.wasm", "--game", "planet-wars"],
        dir.path(),
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("warning  the game refused 90× unknown_planet; first on turn 1, seat 0"),
        "{t}"
    );
    assert!(t.contains("verdict  OK: mover plays planet-wars"), "{t}");
}

#[test]
fn check_refuses_a_forbidden_import_naming_it_and_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let wasm = wat::parse_str(
        r#"(module (import "env" "launch_missiles" (func))
             (memory (export "memory") 1)
             (func (export "ludus_alloc") (param i32) (result i32) (i32.const 0))
             (func (export "act") (param i32 i32) (result i64) (i64.const 0)))"#,
    )
    .unwrap();
    let path = dir.path().join("missiles.wasm");
    std::fs::write(&path, wasm).unwrap();
    let o = ludus(&["check", "missiles.wasm"], dir.path());
    let t = text(&o);
    assert!(!o.status.success());
    assert!(
        t.contains("missiles.wasm") && t.contains("env::launch_missiles"),
        "{t}"
    );
}

#[test]
fn play_twice_writes_byte_identical_replays_and_verify_accepts_them() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (bot("planet_wars_expander"), bot("planet_wars_random"));
    for out in ["one.json", "two.json"] {
        let o = ludus(
            &[
                "play",
                "--game",
                "planet-wars",
                "--seed",
                "4",
                "--out",
                out,
                &a,
                &b,
            ],
            dir.path(),
        );
        let t = text(&o);
        assert!(o.status.success(), "{t}");
        assert!(
            t.contains("planet_wars_expander") && t.contains(&format!("replay   {out}")),
            "{t}"
        );
    }
    let one = std::fs::read(dir.path().join("one.json")).unwrap();
    assert_eq!(one, std::fs::read(dir.path().join("two.json")).unwrap());

    let o = ludus(
        &["replay", "verify", "one.json", "--bots", &bots_dir()],
        dir.path(),
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("re-ran identically"));

    let o = ludus(&["replay", "show", "one.json", "--turn", "3"], dir.path());
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("seat 1 (planet_wars_random)"),
        "{}",
        text(&o)
    );
}

#[test]
fn verify_fails_on_a_hand_edited_replay_naming_the_turn() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (bot("planet_wars_expander"), bot("planet_wars_idle"));
    let o = ludus(
        &[
            "play",
            "--game",
            "planet-wars",
            "--seed",
            "5",
            "--out",
            "m.json",
            &a,
            &b,
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", text(&o));
    let path = dir.path().join("m.json");
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    v["turns"][6]["seats"][1]["answer"] =
        serde_json::json!(r#"{"moves":[{"origin":"x","destination":"y","ship_count":1}]}"#);
    std::fs::write(&path, serde_json::to_vec(&v).unwrap()).unwrap();
    let o = ludus(
        &["replay", "verify", "m.json", "--bots", &bots_dir()],
        dir.path(),
    );
    let t = text(&o);
    assert!(!o.status.success());
    assert!(t.contains("does not reproduce: turn 7: seat 1"), "{t}");
}

#[test]
fn play_on_a_map_file_in_the_rule_book_shape() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("map.json"),
        r#"{"planets":[
            {"name":"home","x":-2.0,"y":0.0,"ship_count":2,"owner":1},
            {"name":"away","x":2.0,"y":0.0,"ship_count":4,"owner":2},
            {"name":"middle","x":0.0,"y":2.0,"ship_count":2,"owner":null}]}"#,
    )
    .unwrap();
    let (a, b) = (bot("planet_wars_expander"), bot("planet_wars_idle"));
    let o = ludus(
        &[
            "play",
            "--game",
            "planet-wars",
            "--map",
            "map.json",
            "--out",
            "r.json",
            &a,
            &b,
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", text(&o));
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("r.json")).unwrap()).unwrap();
    assert_eq!(v["setup"]["map"]["planets"][0]["name"], "home");
    assert_eq!(v["outcome"]["placements"], serde_json::json!([1, 2]));
}

#[test]
fn a_bad_map_file_is_a_clear_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.json"), r#"{"planets":[{"name":"a"}"#).unwrap();
    let (a, b) = (bot("planet_wars_idle"), bot("planet_wars_idle"));
    let o = ludus(
        &["play", "--game", "planet-wars", "--map", "bad.json", &a, &b],
        dir.path(),
    );
    assert!(!o.status.success());
    assert!(
        text(&o).contains("map file bad.json is not valid JSON"),
        "{}",
        text(&o)
    );
}

#[test]
fn a_missing_bot_file_is_a_clear_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let o = ludus(
        &[
            "play",
            "--game",
            "planet-wars",
            "nope.wasm",
            &bot("planet_wars_idle"),
        ],
        dir.path(),
    );
    assert!(!o.status.success());
    assert!(text(&o).contains("nope.wasm"), "{}", text(&o));
}

#[test]
fn verify_without_the_bots_says_which_bot_is_missing_and_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (bot("planet_wars_idle"), bot("planet_wars_random"));
    let o = ludus(
        &[
            "play",
            "--game",
            "planet-wars",
            "--config",
            r#"{"max_turns":5}"#,
            "--out",
            "m.json",
            &a,
            &b,
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", text(&o));
    let empty = PathBuf::from(dir.path()).join("empty");
    std::fs::create_dir(&empty).unwrap();
    // A fresh module cache: the one the tests share has every example bot.
    let o = ludus_cmd(
        &["replay", "verify", "m.json", "--bots", "empty"],
        dir.path(),
    )
    .env("LUDUS_CACHE_DIR", dir.path().join("fresh-cache"))
    .output()
    .unwrap();
    let t = text(&o);
    assert!(!o.status.success());
    assert!(
        t.contains("planet_wars_idle") && t.contains("pass --bots DIR"),
        "{t}"
    );
}

#[test]
fn replay_html_writes_a_self_contained_page_of_the_match() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (bot("planet_wars_expander"), bot("planet_wars_random"));
    let o = ludus(
        &[
            "play",
            "--game",
            "planet-wars",
            "--config",
            r#"{"max_turns":20}"#,
            "--out",
            "m.json.gz",
            &a,
            &b,
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", text(&o));
    let o = ludus(
        &["replay", "html", "m.json.gz", "-o", "pages/m.html"],
        dir.path(),
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("wrote pages/m.html (20 turns of planet-wars)"),
        "{t}"
    );
    let page = std::fs::read_to_string(dir.path().join("pages/m.html")).unwrap();
    let replay = ludus_host::Replay::load(&dir.path().join("m.json.gz")).unwrap();
    assert!(page.contains(&replay.match_id));
    assert!(page.contains("data-encoding=\"json\""));
    // Nothing from the network.
    for needle in ["http://", "https://", "src=\"", "<link"] {
        assert!(!page.contains(needle), "the page refers to {needle}");
    }
}

#[test]
fn replay_html_of_a_missing_file_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let o = ludus(&["replay", "html", "gone.json", "-o", "x.html"], dir.path());
    assert!(!o.status.success());
    assert!(text(&o).contains("gone.json"), "{}", text(&o));
    assert!(!dir.path().join("x.html").exists());
}

/// `ludus build-bot` turns a rule book's `def act(state)` file and a C file
/// into bots that `ludus check` accepts, naming the kind it found, and that
/// play a match against each other.
#[test]
fn build_bot_makes_python_and_c_bots_that_check_and_play() {
    ludus_testkit::ensure_python().unwrap_or_else(|e| panic!("{e}"));
    ludus_testkit::ensure_c_toolchain().unwrap_or_else(|e| panic!("{e}"));
    let dir = tempfile::tempdir().unwrap();
    let root = ludus_testkit::workspace_root();
    let tools = ludus_testkit::tools_dir();
    let build = |source: PathBuf, out: &str| {
        let o = ludus_cmd(
            &["build-bot", source.to_str().unwrap(), "-o", out],
            dir.path(),
        )
        .env("LUDUS_TOOLS_DIR", &tools)
        .output()
        .expect("ludus runs");
        let t = text(&o);
        assert!(o.status.success(), "{t}");
        assert!(dir.path().join(out).is_file(), "{t}");
    };
    build(root.join("example-bots/python/planet_wars.py"), "py.wasm");
    build(root.join("example-bots/c/planet_wars.c"), "c.wasm");
    for (file, kind) in [
        ("py.wasm", "kind     component"),
        ("c.wasm", "kind     core module"),
    ] {
        let o = ludus(&["check", file, "--game", "planet-wars"], dir.path());
        let t = text(&o);
        assert!(o.status.success(), "{t}");
        assert!(t.contains(kind), "{t}");
        assert!(t.contains("verdict  OK"), "{t}");
    }
    let o = ludus(
        &[
            "play",
            "--game",
            "planet-wars",
            "--seed",
            "3",
            "--config",
            r#"{"max_turns": 40}"#,
            "--out",
            "match.json",
            "py.wasm",
            "c.wasm",
        ],
        dir.path(),
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("faults"), "{t}");
    let replay: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("match.json")).unwrap()).unwrap();
    let turns = replay["turns"].as_array().unwrap();
    assert!(!turns.is_empty());
    for t in turns {
        for s in t["seats"].as_array().unwrap() {
            assert!(s.get("fault").is_none_or(|f| f.is_null()), "{s}");
        }
    }
    for seat in 0..2 {
        assert!(
            turns.iter().any(|t| t["seats"][seat]["answer"]
                .as_str()
                .is_some_and(|a| a.contains("origin"))),
            "seat {seat} sent ships at least once"
        );
    }
}

/// `ludus build-bot` tells a Kaggle agent from a Ludus bot by what it
/// defines, names the game it found from the helpers it imports, and the bot
/// passes `ludus check` for that game; an agent that imports numpy is
/// refused at build time, naming the import.
#[test]
fn build_bot_takes_a_kaggle_agent_as_it_is() {
    ludus_testkit::ensure_python().unwrap_or_else(|e| panic!("{e}"));
    let dir = tempfile::tempdir().unwrap();
    let root = ludus_testkit::workspace_root();
    let tools = ludus_testkit::tools_dir();
    std::fs::copy(
        root.join("host/tests/kaggle/kore_probe.py"),
        dir.path().join("main.py"),
    )
    .unwrap();
    let build = |args: &[&str]| {
        ludus_cmd(args, dir.path())
            .env("LUDUS_TOOLS_DIR", &tools)
            .output()
            .expect("ludus runs")
    };
    let o = build(&["build-bot", "main.py", "-o", "agent.wasm"]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("kind     Kaggle agent for kore"), "{t}");
    assert!(
        t.contains("next     ludus check --game kore agent.wasm"),
        "{t}"
    );
    let o = ludus(&["check", "--game", "kore", "agent.wasm"], dir.path());
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("verdict  OK"), "{t}");

    std::fs::write(
        dir.path().join("np.py"),
        "from kaggle_environments.envs.halite.helpers import Board\nimport numpy as np\n\ndef agent(obs, config):\n    return {}\n",
    )
    .unwrap();
    let o = build(&["build-bot", "np.py", "-o", "np.wasm"]);
    let t = text(&o);
    assert!(!o.status.success());
    assert!(t.contains("np.py line 2 imports numpy"), "{t}");
    assert!(!dir.path().join("np.wasm").exists());
    let o = build(&["build-bot", "main.py", "--kaggle", "chess", "-o", "x.wasm"]);
    assert!(!o.status.success());
    assert!(text(&o).contains("kore or halite"), "{}", text(&o));
}

/// A source that is neither Python nor C is refused, naming the file.
#[test]
fn build_bot_refuses_an_unknown_language_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bot.rb"), "def act(state) end").unwrap();
    let o = ludus(&["build-bot", "bot.rb", "-o", "bot.wasm"], dir.path());
    let t = text(&o);
    assert!(!o.status.success());
    assert!(t.contains("bot.rb"), "{t}");
}
