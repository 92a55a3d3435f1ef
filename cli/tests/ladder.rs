//! Ladders from the command line: submit, run, kill -9 and resume, leaderboards, match-up.

mod common;

use common::*;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

fn results(db: &Path) -> Vec<(i64, String)> {
    let c = rusqlite::Connection::open(db).unwrap();
    let mut s = c
        .prepare("SELECT idx, match_id || placements || scores || faults || turns FROM results ORDER BY idx")
        .unwrap();
    s.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(|r| r.unwrap())
        .collect()
}

#[test]
fn submit_refuses_a_bot_that_fails_its_check_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let o = ludus(
        &[
            "submit",
            &bot("panic_in_act"),
            "--name",
            "p",
            "--game",
            "planet-wars",
        ],
        dir.path(),
    );
    assert!(!o.status.success());
    assert!(
        text(&o).contains("is refused") && text(&o).contains("trap"),
        "{}",
        text(&o)
    );
    let o = ludus(&["bots"], dir.path());
    assert!(!text(&o).contains(" p "), "nothing stored: {}", text(&o));
}

/// Starts `ludus args` (a ladder run) in the background and returns once
/// it has committed `n` results.
fn start_ladder(args: &[&str], dir: &Path, n: usize) -> std::process::Child {
    let db = dir.join("ludus.db");
    let mut child = ludus_cmd(args, dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !db.exists() || results(&db).len() < n {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the ladder made no progress"
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "the ladder ended before it could be stopped"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child
}

#[test]
fn submit_refuses_a_bot_for_a_game_it_does_not_play_naming_the_game_it_plays() {
    let dir = tempfile::tempdir().unwrap();
    let o = ludus(
        &[
            "submit",
            &bot("kore_miner"),
            "--name",
            "m",
            "--game",
            "claim",
        ],
        dir.path(),
    );
    let t = text(&o);
    assert!(!o.status.success(), "{t}");
    assert!(
        t.contains("log      ludus-sdk: could not read this turn's observation"),
        "{t}"
    );
    assert!(
        t.contains("`m` is refused: it does not play claim (4 seats, turn 1, seat 0: "),
        "{t}"
    );
    assert!(
        t.contains("; it plays kore; submit it with --game kore"),
        "{t}"
    );
    let o = ludus(&["bots"], dir.path());
    assert!(!text(&o).contains(" m "), "nothing stored: {}", text(&o));
}

#[test]
fn a_ladder_killed_with_sigkill_resumes_without_losing_or_replaying_a_match() {
    let dir = tempfile::tempdir().unwrap();
    submit(dir.path(), "planet_wars_expander", "expander");
    submit(dir.path(), "planet_wars_random", "random");
    submit(dir.path(), "planet_wars_idle", "idle");
    submit(dir.path(), "planet_wars_random", "random-b");
    let db = dir.path().join("ludus.db");
    let args = [
        "ladder",
        "run",
        "--game",
        "planet-wars",
        "--rounds",
        "12",
        "--seed",
        "5",
        "--threads",
        "2",
    ];
    let total = 12 * 12;

    let mut child = start_ladder(&args, dir.path(), 10);
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = results(&db);
    assert!(
        before.len() < total,
        "killed mid-way ({} of {total})",
        before.len()
    );

    let o = ludus(&args, dir.path());
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains(&format!(
            "resuming: {} of {total} matches already played, {} to go",
            before.len(),
            total - before.len()
        )),
        "{t}"
    );
    let after = results(&db);
    assert_eq!(after.len(), total, "every match has exactly one result");
    for row in &before {
        assert!(after.contains(row), "result {} kept as it was", row.0);
    }
    assert!(t.contains("expander"), "{t}");
}

#[test]
fn leaderboard_formats_and_the_html_page_with_replays() {
    let dir = tempfile::tempdir().unwrap();
    submit(dir.path(), "planet_wars_expander", "expander");
    submit(dir.path(), "planet_wars_idle", "idle");
    let o = ludus(
        &[
            "ladder",
            "run",
            "--game",
            "planet-wars",
            "--config",
            r#"{"max_turns":100}"#,
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", text(&o));
    for (format, needle) in [
        ("table", "rank"),
        ("json", "\"rows\""),
        ("csv", "rank,bot"),
        ("markdown", "| rank |"),
    ] {
        let o = ludus(&["leaderboard", "--format", format], dir.path());
        assert!(
            o.status.success() && text(&o).contains(needle),
            "{format}: {}",
            text(&o)
        );
    }
    let o = ludus(
        &["leaderboard", "--format", "html", "--out", "site"],
        dir.path(),
    );
    assert!(o.status.success(), "{}", text(&o));
    let site = dir.path().join("site");
    let page = std::fs::read_to_string(site.join("index.html")).unwrap();
    let links: Vec<&str> = page
        .split("href=\"")
        .skip(1)
        .map(|s| s.split('"').next().unwrap())
        .collect();
    let files: std::collections::BTreeSet<&str> = links
        .iter()
        .copied()
        .filter(|l| !l.starts_with('#'))
        .collect();
    // Two matches, each with its replay and its page.
    assert_eq!(files.len(), 4, "{files:?}");
    for link in files {
        if link.ends_with(".json") {
            let replay = ludus_host::Replay::load(&site.join(link)).unwrap();
            assert_eq!(replay.game, "planet-wars");
            let html = link.replace(".json", ".html");
            let viewer = std::fs::read_to_string(site.join(&html)).unwrap();
            assert!(
                viewer.contains(&replay.match_id),
                "{html} is that match's page"
            );
        } else {
            assert!(link.ends_with(".html"), "{link}");
        }
    }
    // Each bot has its own list of matches, reached from the table.
    for anchor in links.iter().filter(|l| l.starts_with('#')) {
        assert!(
            page.contains(&format!("id=\"{}\"", &anchor[1..])),
            "{anchor}"
        );
    }
    assert!(page.contains("expander v1: 2 matches"), "{page}");
    assert!(page.contains("idle v1: 2 matches"), "{page}");
}

#[test]
fn a_corrupt_database_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("ludus.db"),
        "not a database at all, just text",
    )
    .unwrap();
    let o = ludus(&["bots"], dir.path());
    assert!(!o.status.success());
    assert!(
        text(&o).contains("ludus.db is not a SQLite database"),
        "{}",
        text(&o)
    );
}

#[test]
fn match_up_accepts_h1_for_the_stronger_bot_and_prints_llr_elo_and_los() {
    let dir = tempfile::tempdir().unwrap();
    let o = ludus(
        &[
            "match-up",
            &bot("planet_wars_expander"),
            &bot("planet_wars_idle"),
            "--game",
            "planet-wars",
            "--sprt",
            "elo0=0,elo1=50",
        ],
        dir.path(),
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("LLR") && t.contains("LOS") && t.contains("Elo"),
        "{t}"
    );
    assert!(t.contains("H1 accepted"), "{t}");
}
