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
        text(&o).contains("planet-wars     v2  2, 3 or 4  share"),
        "{}",
        text(&o)
    );
}

/// Planet Wars' score is the share of the opponents a seat outlasted, not
/// ships: `play` and `replay show` head it `share` and show the final ships
/// beside it, headed `ships`, as the replay's last turn counts them.
#[test]
fn play_heads_planet_wars_share_as_share_and_shows_the_final_ships() {
    let dir = tempfile::tempdir().unwrap();
    let o = ludus(
        &[
            "play",
            "--game",
            "planet-wars",
            "--seed",
            "7",
            "--out",
            "m.json",
            &bot("planet_wars_expander"),
            &bot("planet_wars_random"),
        ],
        dir.path(),
    );
    let played = text(&o);
    assert!(o.status.success(), "{played}");
    let replay: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("m.json")).unwrap()).unwrap();
    let number = |v: &serde_json::Value| v.as_f64().unwrap();
    let share: Vec<f64> = replay["outcome"]["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(number)
        .collect();
    let turns = replay["turns"].as_array().unwrap();
    let ships: Vec<f64> = turns[turns.len() - 1]["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(number)
        .collect();
    assert!(ships.iter().any(|&n| n > 1.0), "{ships:?}");
    let shown = ludus(&["replay", "show", "m.json"], dir.path());
    for t in [played, text(&shown)] {
        let header = t
            .lines()
            .find(|l| l.starts_with("seat ") && l.contains(" place "))
            .expect(&t);
        let heads: Vec<&str> = header.split_whitespace().collect();
        assert_eq!(
            heads[..5],
            ["seat", "bot", "place", "share", "ships"],
            "{t}"
        );
        for seat in 0..2 {
            let line = t
                .lines()
                .find(|l| l.starts_with(&format!("{seat} ")))
                .expect(&t);
            let cells: Vec<f64> = line
                .split_whitespace()
                .skip(3)
                .take(2)
                .map(|c| c.parse().unwrap())
                .collect();
            assert_eq!(cells, [share[seat], ships[seat]], "seat {seat}: {t}");
        }
    }
}

/// `ludus games` shows each game's rules version and heads its score as the
/// game's page says (`docs/games/<game>.md`: "the score is headed `X`"),
/// read from the output and the page, not from the registry.
#[test]
fn games_lists_every_game_with_the_score_unit_its_page_names() {
    let dir = tempfile::tempdir().unwrap();
    let o = ludus(&["games"], dir.path());
    assert!(o.status.success());
    let t = text(&o);
    for g in ludus_engine::games() {
        let path = format!("{}/../docs/games/{}.md", env!("CARGO_MANIFEST_DIR"), g.id);
        let page = std::fs::read_to_string(&path).unwrap();
        let page = page.split_whitespace().collect::<Vec<_>>().join(" ");
        let after = |phrase: &str| page.split(phrase).nth(1).unwrap_or_default().to_string();
        let unit = after("the score is headed `");
        let unit = unit.split('`').next().unwrap();
        let version: String = after("rules version ")
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        assert!(!unit.is_empty() && !version.is_empty(), "{path}");
        let line = t
            .lines()
            .find(|l| l.split_whitespace().next() == Some(g.id))
            .unwrap_or_else(|| panic!("{} is not listed: {t}", g.id));
        let rest = line[g.id.len()..].trim_start();
        let rest = rest
            .strip_prefix(&format!("v{version}"))
            .unwrap_or_else(|| panic!("{line}: the page says rules version {version}"));
        let rest = rest.trim_start().strip_prefix(&g.seats_text()).unwrap();
        assert_eq!(
            rest.split_whitespace().next(),
            Some(unit),
            "{line}: {path} heads the score `{unit}`"
        );
    }
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
    assert!(t.contains("check it with `--game GAME`"), "{t}");
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
    assert!(
        t.contains("verdict  OK, with 270 refused moves: mover plays planet-wars"),
        "{t}"
    );
}

/// A bot whose every move is refused passes `check`, but says so in its
/// verdict, and ends with the command that shows the first refusal whole;
/// `--strict` fails on it, naming the same command.
#[test]
fn check_says_ok_with_refused_moves_and_strict_fails_on_them() {
    let dir = tempfile::tempdir().unwrap();
    let wat = ludus_testkit::workspace_root().join("host/tests/hostile/illegal_moves.wat");
    std::fs::write(dir.path().join("mover.wasm"), wat::parse_file(wat).unwrap()).unwrap();
    let o = ludus(
        &["check", "mover.wasm", "--game", "planet-wars"],
        dir.path(),
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    let lines: Vec<&str> = t.lines().collect();
    let n = lines.len();
    assert_eq!(
        lines[n - 2],
        "verdict  OK, with 270 refused moves: mover plays planet-wars \
         (30 turns against copies of itself with 2, 3 and 4 seats, seed 0)",
        "{t}"
    );
    let command = lines[n - 1]
        .strip_prefix("next     ludus ")
        .unwrap_or_else(|| panic!("the last line is the command: {t}"));
    let args: Vec<&str> = command.split(' ').collect();
    assert_eq!(args[..2], ["replay", "show"], "{command}");
    assert!(
        args[2].starts_with("replays/check-planet-wars-2seats-") && args[2].ends_with(".json"),
        "{command}"
    );
    assert_eq!(args[3..], ["--turn", "1", "--seat", "0"], "{command}");
    // The command shows that seat's turn whole: its answer and the reason.
    let o = ludus(&args, dir.path());
    let shown = text(&o);
    assert!(o.status.success(), "{shown}");
    assert!(shown.starts_with("turn 1 of 30, state "), "{shown}");
    assert!(shown.contains("\nseat 0 (mover)\n"), "{shown}");
    assert!(
        !shown.contains("seat 1"),
        "only the seat asked for: {shown}"
    );
    assert!(
        shown.contains(
            r#"  answer  {"moves":[{"origin":"nowhere","destination":"elsewhere","ship_count":1}]}"#
        ),
        "{shown}"
    );
    assert!(
        shown.contains("  refused unknown_planet: move 0 (origin \"nowhere\""),
        "{shown}"
    );

    let o = ludus(
        &["check", "mover.wasm", "--game", "planet-wars", "--strict"],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        err.trim_end(),
        format!(
            "error: mover.wasm plays planet-wars, but the game refused 270 of its moves, \
             which --strict fails; see that turn whole with `ludus {command}`"
        )
    );
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
    let build = |args: &[&str], out: &str| {
        let o = ludus_cmd(args, dir.path())
            .env("LUDUS_TOOLS_DIR", &tools)
            .output()
            .expect("ludus runs");
        let t = text(&o);
        assert!(o.status.success(), "{t}");
        assert!(dir.path().join(out).is_file(), "{t}");
        assert!(t.contains(&format!("built    {out} (")), "{t}");
    };
    let python: PathBuf = root.join("example-bots/python/planet_wars.py");
    build(
        &["build-bot", python.to_str().unwrap(), "-o", "py.wasm"],
        "py.wasm",
    );
    // Without -o: the source's name with .wasm, in the current folder.
    let c: PathBuf = root.join("example-bots/c/planet_wars.c");
    build(&["build-bot", c.to_str().unwrap()], "planet_wars.wasm");
    for (file, kind) in [
        ("py.wasm", "kind     component"),
        ("planet_wars.wasm", "kind     core module"),
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
            "planet_wars.wasm",
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

/// Scores are printed as a person reads them: a Kore match whose final kore
/// is 6.7949999999999875 in the replay shows 6.79, in `play` and in
/// `replay show --turn`; the replay keeps the exact number.
#[test]
fn play_and_replay_show_print_scores_to_two_decimals() {
    let dir = tempfile::tempdir().unwrap();
    let o = ludus(
        &[
            "play",
            "--game",
            "kore",
            "--seed",
            "3",
            "--config",
            r#"{"episodeSteps": 60}"#,
            "--out",
            "m.json",
            &bot("kore_miner"),
            &bot("kore_random"),
        ],
        dir.path(),
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    let replay: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("m.json")).unwrap()).unwrap();
    let scores: Vec<f64> = replay["outcome"]["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_f64().unwrap())
        .collect();
    assert!(
        scores
            .iter()
            .any(|s| !long_decimals(&s.to_string()).is_empty()),
        "the match should end on a score with many decimals: {scores:?}"
    );
    let two_decimals = |x: f64| {
        let s = format!("{x:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    for (seat, score) in scores.iter().enumerate() {
        let line = t
            .lines()
            .find(|l| l.starts_with(&format!("{seat}     ")))
            .unwrap_or_else(|| panic!("no line for seat {seat}: {t}"));
        assert!(
            line.split_whitespace().any(|w| w == two_decimals(*score)),
            "seat {seat} scored {score}: {line}"
        );
    }
    assert_eq!(long_decimals(&t), Vec::<String>::new(), "{t}");
    let turns = replay["turns"].as_array().unwrap().len().to_string();
    let o = ludus(&["replay", "show", "m.json", "--turn", &turns], dir.path());
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    let line = t.lines().find(|l| l.starts_with("scores")).expect(&t);
    let shown: Vec<String> = scores.iter().map(|&s| two_decimals(s)).collect();
    assert_eq!(line, format!("scores  {}", shown.join(", ")));
}

/// A reader that closes its end of the pipe (`ludus games | head -1`) ends
/// `ludus` as it ends any Unix tool: by SIGPIPE, with nothing on stderr;
/// never a panic with a backtrace.
#[test]
fn a_closed_pipe_ends_ludus_quietly() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    const SIGPIPE: i32 = 13;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let quiet = |what: &str, o: &std::process::Output| {
        assert_eq!(o.status.signal(), Some(SIGPIPE), "{what}: {:?}", o.status);
        assert!(
            o.stderr.is_empty(),
            "{what}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    };
    // Closed before `ludus` writes a line: its first `println!` meets it.
    let (expander, idle) = (bot("planet_wars_expander"), bot("planet_wars_idle"));
    let play = [
        "play",
        "--game",
        "planet-wars",
        "--out",
        "m.json",
        &expander,
        &idle,
    ];
    for args in [&["games"][..], &play[..]] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let o = ludus_cmd(args, d).stdout(writer).output().unwrap();
        quiet(args[0], &o);
    }
    // A reader that takes the first line and goes, while `engine run` has
    // hundreds of lines to write.
    let actions = "[null, null]\n".repeat(300);
    std::fs::write(d.join("actions.jsonl"), actions).unwrap();
    let mut child = ludus_cmd(
        &[
            "engine",
            "run",
            "--game",
            "planet-wars",
            "--actions",
            "actions.jsonl",
        ],
        d,
    )
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("{\"step\":0"), "{first}");
    let o = child.wait_with_output().unwrap();
    quiet("engine run", &o);
}

/// `ludus build-bot` announces the tools it installs the first time, on
/// stderr: a line per step when stderr is not a terminal, a spinner when it
/// is. (pip is kept off the network: the install fails at once, after the
/// announcement.)
#[test]
fn build_bot_says_what_it_installs_the_first_time() {
    ludus_testkit::ensure_python().unwrap_or_else(|e| panic!("{e}"));
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("bot.py"), "def act(state):\n    return '{}'\n").unwrap();
    let fresh = d.join("tools");
    let o = ludus_cmd(&["build-bot", "bot.py"], d)
        .env("LUDUS_TOOLS_DIR", &fresh)
        .env("PIP_NO_INDEX", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{stderr}");
    let announced = format!(
        "installing componentize-py 0.25.1 from PyPI into {} (the first build only)",
        fresh.display()
    );
    assert_eq!(stderr.lines().next(), Some(announced.as_str()), "{stderr}");
    assert!(
        stderr.contains("pip install componentize-py failed"),
        "{stderr}"
    );
    assert!(
        !stderr.contains('\u{1b}'),
        "no terminal codes in a pipe: {stderr}"
    );
    assert!(
        o.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );

    let fresh = d.join("tools-on-terminal");
    let (ok, out) = on_terminal_with(
        &["build-bot", "bot.py"],
        d,
        &[
            ("LUDUS_TOOLS_DIR", fresh.as_os_str()),
            ("PIP_NO_INDEX", "1".as_ref()),
        ],
    );
    assert!(!ok, "{out}");
    assert!(
        out.contains("installing componentize-py 0.25.1") && out.contains('\u{1b}'),
        "a spinner on a terminal: {out:?}"
    );
    assert!(out.contains("pip install componentize-py failed"), "{out}");
}

/// `play` names each seat's first fault and first refusal with its reason,
/// and ends with the command that shows the first of them whole; `replay
/// show` lists the turns with faults and refusals and ends likewise; `--turn`
/// prints everything the turn recorded, logs whole.
#[test]
fn play_and_replay_show_say_where_to_look_and_show_a_turn_whole() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let wat = ludus_testkit::workspace_root().join("host/tests/hostile/illegal_moves.wat");
    std::fs::write(d.join("mover.wasm"), wat::parse_file(wat).unwrap()).unwrap();
    let o = ludus(
        &[
            "play",
            "--game",
            "planet-wars",
            "--config",
            r#"{"max_turns": 20}"#,
            "--out",
            "m.json",
            "mover.wasm",
            &bot("panic_in_sdk_bot"),
        ],
        d,
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains(
            "      refused 20× unknown_planet; first on turn 1: move 0 (origin \"nowhere\", \
             destination \"elsewhere\", ship_count 1): there is no planet named \"nowhere\""
        ),
        "{t}"
    );
    assert!(
        t.contains("      first fault: turn 1: trap: panicked at hostile-bots/examples/panic_in_sdk_bot.rs:"),
        "{t}"
    );
    // Both on turn 1: the fault comes first.
    assert!(
        t.ends_with("replay   m.json\nnext     ludus replay show m.json --turn 1 --seat 1\n"),
        "{t}"
    );

    let o = ludus(&["replay", "show", "m.json"], d);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.ends_with(
            "faults   seat 1 (panic_in_sdk_bot): turns 1–10\n\
             refused  seat 0 (mover): turns 1–20\n\
             next     ludus replay show m.json --turn 1 --seat 1\n"
        ),
        "{t}"
    );

    let o = ludus(
        &["replay", "show", "m.json", "--turn", "1", "--seat", "1"],
        d,
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("\nseat 1 (panic_in_sdk_bot)\n  fuel    "), "{t}");
    assert!(
        t.contains("\n  answer  none: the fault replaced it\n"),
        "{t}"
    );
    assert!(
        t.contains("\n  fault   trap: panicked at hostile-bots/examples/panic_in_sdk_bot.rs:"),
        "{t}"
    );
    assert!(t.contains("no target among"), "the log: {t}");
    assert!(!t.contains("seat 0"), "{t}");
    let o = ludus(&["replay", "show", "m.json", "--turn", "21"], d);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("m.json: the replay has turns 1 to 20; there is no turn 21"),
        "{}",
        text(&o)
    );

    // A log is printed whole, however long: the flood fills the log's cap
    // (64 KiB) on its first turn, and every byte of it is shown.
    let o = ludus(
        &[
            "play",
            "--game",
            "planet-wars",
            "--config",
            r#"{"max_turns": 3}"#,
            "--out",
            "flood.json",
            &bot("stdout_flood"),
            &bot("planet_wars_idle"),
        ],
        d,
    );
    assert!(o.status.success(), "{}", text(&o));
    let replay = ludus_host::Replay::load(&d.join("flood.json")).unwrap();
    let log = &replay.turns[0].seats[0].log;
    assert!(log.len() > 4096, "{} bytes", log.len());
    let o = ludus(&["replay", "show", "flood.json", "--turn", "1"], d);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    let mut lines = t.lines().skip_while(|l| !l.starts_with("  log     "));
    let first = lines.next().expect(&t);
    let shown: String = std::iter::once(first)
        .chain(lines.take_while(|l| l.starts_with("          ")))
        .map(|l| &l[10..])
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(shown, log.trim_end_matches('\n'), "the log, whole");
    assert!(t.contains("  log     ("), "the bytes dropped: {t}");
}

/// A Python bot's exception is reported as Python reports it: its type,
/// message, and the author's own file and line, then the traceback in the
/// log, once, naming the author's file and showing its lines; never as a
/// wasm trap or a Rust panic.
#[test]
fn a_python_bots_exception_is_reported_as_python_reports_it() {
    ludus_testkit::ensure_python().unwrap_or_else(|e| panic!("{e}"));
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("my_bot.py"),
        "def helper(state):\n    return len(state[\"planets\"]) / 0\n\n\n\
         def act(state):\n    print(\"thinking\")\n    return helper(state)\n",
    )
    .unwrap();
    let o = ludus_cmd(&["build-bot", "my_bot.py", "-o", "my_bot.wasm"], d)
        .env("LUDUS_TOOLS_DIR", ludus_testkit::tools_dir())
        .output()
        .expect("ludus runs");
    assert!(o.status.success(), "{}", text(&o));
    let o = ludus(
        &[
            "play",
            "--game",
            "planet-wars",
            "--config",
            r#"{"max_turns": 3}"#,
            "--out",
            "m.json",
            "my_bot.wasm",
            &bot("planet_wars_idle"),
        ],
        d,
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains(
            "      first fault: turn 1: trap: ZeroDivisionError: division by zero \
             (my_bot.py line 2, in helper)\n"
        ),
        "{t}"
    );
    assert!(
        t.ends_with("next     ludus replay show m.json --turn 1 --seat 0\n"),
        "{t}"
    );
    let o = ludus(
        &["replay", "show", "m.json", "--turn", "1", "--seat", "0"],
        d,
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    let log = [
        "  log     thinking",
        "          Traceback (most recent call last):",
        "            File \"my_bot.py\", line 7, in act",
        "              return helper(state)",
        "            File \"my_bot.py\", line 2, in helper",
        "              return len(state[\"planets\"]) / 0",
    ]
    .join("\n");
    assert!(t.contains(&log), "{t}");
    assert!(
        t.contains("\n          ZeroDivisionError: division by zero\nscores  "),
        "{t}"
    );
    assert_eq!(t.matches("Traceback").count(), 1, "{t}");
    for hidden in ["ludus_user_bot", "unreachable", "Rust panic", "ludus-fault"] {
        assert!(!t.contains(hidden), "{hidden}: {t}");
    }
}

#[test]
fn help_never_prints_the_secrets_the_environment_holds() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["serve", "--help"][..],
        &["worker", "--help"],
        &["submit", "--help"],
        &["replay", "show", "--help"],
    ] {
        let o = ludus_cmd(args, dir.path())
            .env("LUDUS_DB", "postgres://ludus:s3cret-pw@db.example/ludus")
            .env("LUDUS_TOKEN", "ludus_7_t0ken-secret")
            .output()
            .unwrap();
        let t = text(&o);
        assert!(o.status.success(), "{args:?}: {t}");
        assert!(t.contains("LUDUS_"), "{args:?} names its variables: {t}");
        assert!(
            !t.contains("s3cret-pw") && !t.contains("t0ken-secret"),
            "{args:?} prints a secret: {t}"
        );
    }
}

#[test]
fn a_log_that_is_not_a_terminal_has_no_colour_codes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    submit_planet_wars_examples(d, "ludus.db");
    let o = ludus(
        &[
            "ladder",
            "create",
            "--game",
            "planet-wars",
            "--config",
            r#"{"max_turns": 20}"#,
        ],
        d,
    );
    assert!(o.status.success(), "{}", text(&o));
    let o = ludus_cmd(&["worker", "--until-idle", "--threads", "1"], d)
        .env("LUDUS_LOG", "info")
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(o.status.success(), "{log}");
    assert!(log.contains("worker started"), "{log}");
    assert!(
        !log.contains('\u{1b}'),
        "colour codes in a log file: {log:?}"
    );
}
