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
fn check_passes_an_example_bot_with_a_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let o = ludus(&["check", &bot("planet_wars_expander")], dir.path());
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("verdict  OK"), "{t}");
    assert!(t.contains("sha256"), "{t}");
}

#[test]
fn check_fails_a_looping_bot_naming_the_fault() {
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
    assert!(t.contains("turn 1 failed: out_of_fuel"), "{t}");
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
        let o = ludus(&["check", file], dir.path());
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
