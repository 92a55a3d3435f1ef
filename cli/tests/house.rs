//! House bots with real processes: `ludus serve --house` on the example
//! bots' folder stocks every game with opponents, marks them on the
//! leaderboard's JSON and page, says how many more bots a game needs, and
//! `ludus retire` takes a house bot off; a restart stores nothing again.

mod common;

use common::{get_json, ludus, serve, text, Serving};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::time::{Duration, Instant};

const TITLE: &str = "a bot of the server's house, so every game has opponents";

/// Each game's id and fewest seats, from the API.
fn games(server: &Serving) -> Vec<(String, u64)> {
    get_json(&format!("{}/api/games", server.url))
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["id"].as_str().unwrap().to_string(),
                g["seats"][0].as_u64().unwrap(),
            )
        })
        .collect()
}

fn board(server: &Serving, game: &str) -> Value {
    get_json(&format!(
        "{}/api/games/{game}/leaderboard?per_page=100",
        server.url
    ))
}

/// Whether the board lists the house bot of the example bot `stem`.
fn lists(board: &Value, stem: &str, game: &str) -> bool {
    board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["bot"] == stem || r["bot"].as_str() == Some(&format!("{stem}-{game}")))
}

/// The server's line that says what the house stocked, once it is done.
fn stock_line(server: &mut Serving) -> String {
    let mut out = BufReader::new(server.child.stdout.as_mut().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    assert!(
        line.starts_with("ludus serve: house stocked from "),
        "{line}"
    );
    line
}

/// Waits until every game's board lists the house bots of its example
/// bots (the retired ones aside), which their ladders take as the
/// scheduler looks.
fn stocked(server: &Serving, retired: &[&str]) -> Vec<(String, u64, Value)> {
    let start = Instant::now();
    loop {
        let boards: Vec<_> = games(server)
            .into_iter()
            .map(|(g, seats)| {
                let b = board(server, &g);
                (g, seats, b)
            })
            .collect();
        let missing: Vec<String> = boards
            .iter()
            .flat_map(|(g, _, b)| {
                ludus_testkit::example_bots(g)
                    .into_iter()
                    .filter(|stem| !retired.contains(&stem.as_str()) && !lists(b, stem, g))
                    .collect::<Vec<_>>()
            })
            .collect();
        if missing.is_empty() {
            return boards;
        }
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "house bots missing after 5 minutes: {missing:?}"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
}

fn retire(dir: &Path, name: &str) -> std::process::Output {
    ludus(&["retire", name, "--db", "ludus.db"], dir)
}

#[test]
fn house_bots_give_every_game_opponents_and_the_operator_retires_them() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let folder = ludus_testkit::example_bots_folder().display().to_string();
    let args = [
        "--db",
        "ludus.db",
        "--house",
        &folder,
        "--workers",
        "2",
        "--game-config",
        r#"planet-wars={"max_turns": 40}"#,
    ];
    let mut server = serve(dir, &args);
    let line = stock_line(&mut server);
    let bots = ludus_testkit::example_bot_names().len();
    assert!(
        line.contains(&format!(
            ": {bots} bots stored, 0 stored already, 0 names skipped, 0 files play no game"
        )),
        "{line}"
    );

    let boards = stocked(&server, &[]);
    assert_eq!(boards.len(), ludus_engine::games().len());
    for (game, _, b) in &boards {
        let rows = b["rows"].as_array().unwrap();
        assert!(!rows.is_empty(), "{game}: {b}");
        for r in rows {
            assert_eq!(r["owner"], "house", "{game}: {r}");
            assert_eq!(r["house"], true, "{game}: {r}");
        }
        // Two bots or more, one of the house's: copies fill the tables.
        assert_eq!(b["needs"], 0, "{game}: {b}");
        let page = ureq::get(format!("{}/games/{game}", server.url))
            .call()
            .unwrap()
            .into_body()
            .read_to_string()
            .unwrap();
        assert!(
            page.contains(&format!(
                "<span class=\"house\" title=\"{TITLE}\">house</span>"
            )),
            "{game}: {page}"
        );
        assert!(page.contains("<p id=\"needs\" hidden></p>"), "{game}");
    }

    // House bots play every game: each ladder starts, the four-seat games'
    // tables filled with copies of their two or three house bots.
    let start = Instant::now();
    for (game, _, _) in &boards {
        while board(&server, game)["scheduled"].as_u64().unwrap() == 0 {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "nothing scheduled for {game}"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    // Nobody has the house's account, nor takes its bots' names.
    let o = ludus(&["user", "add", "House", "--db", "ludus.db"], dir);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("the server's own account"),
        "{}",
        text(&o)
    );

    // The operator retires a house bot; it leaves the board, its page says so.
    let o = retire(dir, "planet_wars_idle");
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("retired the house bot"), "{}", text(&o));
    assert!(!lists(
        &board(&server, "planet-wars"),
        "planet_wars_idle",
        "planet-wars"
    ));
    let view = get_json(&format!("{}/api/bots/planet_wars_idle", server.url));
    assert_eq!(view["retired"], true, "{view}");
    assert_eq!(view["owner"], "house", "{view}");
    let o = retire(dir, "planet_wars_idle");
    assert!(text(&o).contains("retired already"), "{}", text(&o));
    // Conquest's example bots are two: with one retired, a house bot alone
    // cannot fill a table, and the page says what is missing.
    let o = retire(dir, "conquest_sample");
    assert!(o.status.success(), "{}", text(&o));
    let b = board(&server, "conquest");
    assert_eq!(b["needs"], 1, "{b}");
    let page = ureq::get(format!("{}/games/conquest", server.url))
        .call()
        .unwrap()
        .into_body()
        .read_to_string()
        .unwrap();
    let sentence =
        "<p id=\"needs\">conquest needs 1 more bot before its matches start: a table seats 4.</p>";
    assert!(page.contains(sentence), "{page}");
    let o = retire(dir, "nobody");
    assert!(!o.status.success());
    assert!(text(&o).contains("no bot named `nobody`"), "{}", text(&o));

    // Started again on the same folder: nothing new, the retired bot stays
    // retired.
    server.stop();
    let mut server = serve(dir, &args);
    let line = stock_line(&mut server);
    assert!(
        line.contains(&format!(": 0 bots stored, {bots} stored already")),
        "{line}"
    );
    stocked(&server, &["planet_wars_idle", "conquest_sample"]);
    let view = get_json(&format!("{}/api/bots/planet_wars_idle", server.url));
    assert_eq!(view["retired"], true, "{view}");
    assert_eq!(view["versions"].as_array().unwrap().len(), 1, "{view}");
    assert!(!lists(
        &board(&server, "planet-wars"),
        "planet_wars_idle",
        "planet-wars"
    ));
}
