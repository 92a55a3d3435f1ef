//! The matrix: every command of the `ludus` binary, for every game in the
//! registry and every seat count it allows, with the game's example bots
//! (`<game id with _>_*.wasm`), on short matches. A game is covered the day
//! it is registered: the rows are made from `ludus_engine::games()`, and a
//! game's turn limit is found by trying its config (`max_turns`, or the
//! Kaggle games' `episodeSteps`).
//!
//! Each row is a test named `<game>/<seats>-seats`; run one game's rows with
//! a filter, e.g. `cargo test -p ludus-cli --test matrix -- kore`.
//!
//! A row runs, in a scratch folder: `play` twice (identical bytes) on a seed
//! beyond the Kaggle games' range, `replay verify|show|html`, `engine run`,
//! `submit`, `ladder run` on 1 and 2 threads (identical leaderboards; a
//! table ladder at more than two seats), `leaderboard` in every format,
//! `matches`, `replay export` and `replay verify` of a stored match by its
//! id (from a ladder that stored every replay, and from one that stored
//! none, whose replay is regenerated: the same bytes), and for two seats a `match-up` run to a decision. The row of a
//! game's fewest seats also opens the replay page in headless Chromium and
//! plays it to the end with no console error, and starts two seasons of
//! the game with its short config (`season new`, `season list`).

mod common;

use common::*;
use ludus_engine::GameInfo;
use ludus_testkit::cdp::Browser;
use serde_json::{json, Value};
use std::path::Path;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// Turns in a match: enough for the first moves of every game, few enough
/// that a row takes seconds.
const TURNS: u32 = 12;
/// Beyond 2^32: Kore and Halite reduce it into their generators' range.
const SEED: &str = "13302247461581951591";

fn main() {
    let args = libtest_mimic::Arguments::from_args();
    let trials = ludus_engine::games()
        .iter()
        .flat_map(|game| {
            game.seats.iter().map(move |&seats| {
                libtest_mimic::Trial::test(format!("{}/{seats}-seats", game.id), move || {
                    row(game, seats);
                    Ok(())
                })
            })
        })
        .collect();
    let conclusion = libtest_mimic::run(&args, trials);
    // Chromium goes with the last page, not with the process.
    drop(browser().take());
    conclusion.exit();
}

/// One browser for every page, one page at a time.
fn browser() -> MutexGuard<'static, Option<Browser>> {
    static BROWSER: Mutex<Option<Browser>> = Mutex::new(None);
    BROWSER.lock().unwrap_or_else(|e| e.into_inner())
}

/// The game's config for a match of [`TURNS`] turns.
fn short_config(game: &GameInfo, seats: usize) -> Value {
    for key in ["max_turns", "episodeSteps"] {
        let config = json!({ key: TURNS });
        if ludus_engine::new_game(game.id, &config, 0, seats).is_ok() {
            return config;
        }
    }
    panic!(
        "{}'s config takes neither `max_turns` nor `episodeSteps`: give it a way to shorten a match, as docs/games/*.md describe",
        game.id
    );
}

/// Runs `ludus args` in `dir` and returns its output, failing the row with
/// the command and its output when it fails.
fn ok(dir: &Path, args: &[&str]) -> String {
    let o = ludus(args, dir);
    let t = text(&o);
    assert!(o.status.success(), "ludus {} failed:\n{t}", args.join(" "));
    t
}

fn row(game: &'static GameInfo, seats: usize) {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let names = ludus_testkit::example_bots(game.id);
    assert!(
        !names.is_empty(),
        "{} has no example bots: add example-bots/examples/{}_*.rs",
        game.id,
        game.id.replace('-', "_")
    );
    let config = short_config(game, seats).to_string();
    let seat_bots: Vec<String> = (0..seats).map(|i| bot(&names[i % names.len()])).collect();
    let seat_refs: Vec<&str> = seat_bots.iter().map(String::as_str).collect();

    // play, twice: the same bytes.
    for out in ["a.json", "b.json"] {
        let mut args = vec![
            "play", "--game", game.id, "--seed", SEED, "--config", &config, "--out", out,
        ];
        args.extend(&seat_refs);
        let t = ok(dir, &args);
        assert!(t.contains(&format!("seed {SEED}")), "{t}");
    }
    let a = std::fs::read(dir.join("a.json")).unwrap();
    assert_eq!(
        a,
        std::fs::read(dir.join("b.json")).unwrap(),
        "the same match twice"
    );
    let replay = ludus_host::Replay::from_bytes(&a).unwrap();
    assert!(replay.turns.len() <= TURNS as usize && replay.outcome.is_some());
    assert_eq!(replay.seats.len(), seats);

    // replay verify, show, html.
    let t = ok(dir, &["replay", "verify", "a.json", "--bots", &bots_dir()]);
    assert!(t.contains("re-ran identically"), "{t}");
    let t = ok(dir, &["replay", "show", "a.json"]);
    assert!(t.contains("result") && t.contains(game.score_unit), "{t}");
    ok(dir, &["replay", "show", "a.json", "--turn", "1"]);
    let t = ok(dir, &["replay", "html", "a.json", "-o", "a.html"]);
    assert!(t.contains("wrote a.html"), "{t}");
    if seats == game.fewest_seats() {
        watch_page(&dir.join("a.html"), &replay);
    }

    // engine run: one state line per step, the initial one first.
    let nulls = serde_json::to_string(&vec![Value::Null; seats]).unwrap();
    std::fs::write(dir.join("actions.jsonl"), format!("{nulls}\n{nulls}\n")).unwrap();
    let players = seats.to_string();
    let t = ok(
        dir,
        &[
            "engine",
            "run",
            "--game",
            game.id,
            "--seed",
            SEED,
            "--players",
            &players,
            "--actions",
            "actions.jsonl",
        ],
    );
    let states: Vec<Value> = t
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(states.len(), 3, "{t}");
    assert!(states.iter().all(|s| s.get("observation").is_some()), "{t}");

    ladders(game, seats, dir, &names, &config);
    if seats == 2 {
        match_up(game, dir, &names, &config);
    }
    if seats == game.fewest_seats() {
        seasons(game, dir, &config);
    }
}

/// A server's seasons of the game: two started with its short config,
/// the first closed by the second (no match is played).
fn seasons(game: &GameInfo, dir: &Path, config: &str) {
    for _ in 0..2 {
        let t = ok(
            dir,
            &[
                "season", "new", "--game", game.id, "--config", config, "--db", "one.db",
            ],
        );
        assert!(t.contains("opened season"), "{t}");
    }
    let t = ok(
        dir,
        &["season", "list", "--game", game.id, "--db", "one.db"],
    );
    let states: Vec<&str> = t
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().last().unwrap_or(""))
        .collect();
    assert!(
        t.contains("season 1")
            && t.contains("season 2")
            && states.len() == 2
            && states[1] == "open",
        "{t}"
    );
}

/// Submit, ladder run on 1 and 2 threads, leaderboards, matches, and the
/// stored matches re-run by id.
fn ladders(game: &GameInfo, seats: usize, dir: &Path, names: &[String], config: &str) {
    // A round robin of three bots for two seats, one table in every
    // rotation for more.
    let entrants = if seats == 2 { 3 } else { seats };
    for i in 0..entrants {
        let file = bot(&names[i % names.len()]);
        let name = format!("{}.{i}", names[i % names.len()]);
        ok(
            dir,
            &[
                "submit", &file, "--name", &name, "--game", game.id, "--db", "one.db",
            ],
        );
    }
    std::fs::copy(dir.join("one.db"), dir.join("two.db")).unwrap();
    let players = seats.to_string();
    let mut boards = Vec::new();
    // The second keeps no replay: every replay it serves is regenerated.
    for (db, threads, keep) in [("one.db", "1", "all"), ("two.db", "2", "none")] {
        let t = ok(
            dir,
            &[
                "ladder",
                "run",
                "--keep-replays",
                keep,
                "--game",
                game.id,
                "--players",
                &players,
                "--seed",
                "7",
                "--config",
                config,
                "--threads",
                threads,
                "--db",
                db,
            ],
        );
        assert!(
            t.contains(game.score_unit),
            "the score is headed `{}`: {t}",
            game.score_unit
        );
        boards.push(ok(dir, &["leaderboard", "--format", "json", "--db", db]));
    }
    assert_eq!(
        boards[0], boards[1],
        "1 and 2 threads, the same leaderboard"
    );
    let board: Value = serde_json::from_str(&boards[0]).unwrap();
    let matches = board["matches"].as_array().unwrap();
    assert_eq!(matches.len(), if seats == 2 { 6 } else { seats });
    assert_eq!(board["score_unit"], game.score_unit);
    for m in matches {
        // A string of its digits: a JSON number would lose those past 2^53.
        let seed: u64 = m["seed"].as_str().unwrap().parse().unwrap();
        assert!(
            seed <= game.max_seed,
            "match seed {seed} is beyond {}'s range",
            game.id
        );
    }
    for r in board["rows"].as_array().unwrap() {
        let pct = r["score_pct"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&pct), "score % {pct}");
    }

    for (format, needle) in [
        ("table", game.score_unit),
        ("csv", "rank,bot"),
        ("markdown", "| rank |"),
        ("html", "<table"),
    ] {
        let t = ok(dir, &["leaderboard", "--format", format, "--db", "one.db"]);
        assert!(t.contains(needle), "{format}: {t}");
    }
    ok(
        dir,
        &[
            "leaderboard",
            "--format",
            "html",
            "--out",
            "site",
            "--db",
            "one.db",
        ],
    );
    assert!(dir.join("site/index.html").is_file());

    // The stored matches: listed, exported, re-run by id from the store.
    let t = ok(dir, &["matches", "--db", "one.db"]);
    let id = matches[0]["match_id"].as_str().unwrap();
    let short = ludus_host::short_id(id);
    assert!(t.contains(short), "{t}");
    ok(
        dir,
        &[
            "replay",
            "export",
            short,
            "-o",
            "stored.json",
            "--db",
            "one.db",
        ],
    );
    let stored = ludus_host::Replay::load(&dir.join("stored.json")).unwrap();
    assert_eq!(stored.match_id, id);
    let t = ok(dir, &["replay", "verify", short, "--db", "one.db"]);
    assert!(
        t.contains("re-ran identically") && t.contains("the bot store"),
        "{t}"
    );
    // The ladder that kept none: the same replay, played again on request.
    let t = ok(dir, &["ladder", "status", "--db", "two.db"]);
    assert!(
        t.contains("keeps none: 0 of the played matches' replays stored"),
        "{t}"
    );
    ok(
        dir,
        &[
            "replay",
            "export",
            short,
            "-o",
            "regenerated.json",
            "--db",
            "two.db",
        ],
    );
    assert_eq!(
        std::fs::read(dir.join("regenerated.json")).unwrap(),
        std::fs::read(dir.join("stored.json")).unwrap(),
        "a regenerated replay is the stored one, byte for byte"
    );
    let t = ok(dir, &["replay", "verify", short, "--db", "two.db"]);
    assert!(t.contains("re-ran identically"), "{t}");
}

/// A match-up of the game's first example bot against its last, on a
/// generous bound: it must reach a decision.
fn match_up(game: &GameInfo, dir: &Path, names: &[String], config: &str) {
    let (a, b) = (bot(&names[0]), bot(&names[names.len() - 1]));
    let t = ok(
        dir,
        &[
            "match-up",
            &a,
            &b,
            "--game",
            game.id,
            "--config",
            config,
            "--seed",
            SEED,
            "--sprt",
            "elo0=0,elo1=200,alpha=0.1,beta=0.1",
            "--max-pairs",
            "200",
        ],
    );
    assert!(t.contains(" accepted"), "no decision: {t}");
}

/// Opens the page in Chromium, plays it to the end, and fails on any
/// console error or uncaught exception.
fn watch_page(path: &Path, replay: &ludus_host::Replay) {
    let mut guard = browser();
    let browser = guard.get_or_insert_with(Browser::launch);
    let mut page = browser.page(1000, 800, 1.0);
    page.navigate(&format!(
        "file://{}",
        path.canonicalize().unwrap().display()
    ));
    page.wait_for(
        "window.Ludus !== undefined && Ludus.ready === true",
        Duration::from_secs(30),
    );
    // The last turn, as a person gets there: the End key.
    page.press("End", "End", 35, false);
    page.wait_for(
        &format!(
            "Ludus.player.turn === {} && !Ludus.player.playing && Ludus.player.stepAnimation == null",
            replay.turns.len()
        ),
        Duration::from_secs(20),
    );
    page.eval(
        "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))",
    );
    assert!(page.errors.is_empty(), "{}: {:?}", replay.game, page.errors);
}
