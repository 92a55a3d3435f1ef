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
    // The table is for people: a round is one round, numbers are rounded.
    let o = ludus(&["leaderboard"], dir.path());
    let t = text(&o);
    assert!(t.contains("(2 seats, 1 round, seed 0)"), "{t}");
    assert_eq!(long_decimals(&t), Vec::<String>::new(), "{t}");
    assert!(!t.contains("-0.0"), "{t}");
    let o = ludus(&["leaderboard", "--format", "ranking"], dir.path());
    assert!(
        text(&o).contains("[possible values: table, json, csv, markdown, html]"),
        "{}",
        text(&o)
    );
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
    // One summary at the end, not a line per pair: pairs, score, Elo, and
    // the LLR against its bounds.
    let stdout = String::from_utf8_lossy(&o.stdout);
    let summaries: Vec<&str> = stdout.lines().filter(|l| l.starts_with("pairs ")).collect();
    let [summary] = summaries[..] else {
        panic!("one summary line: {stdout}")
    };
    let pairs: u64 = summary.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert!(pairs > 1, "{summary}");
    for part in [" score ", "% ", " Elo +", " LLR ", " in [-2.94, 2.94]"] {
        assert!(summary.contains(part), "`{part}` in {summary}");
    }
    assert_eq!(long_decimals(&t), Vec::<String>::new(), "{t}");
    // Without a terminal, progress is a running summary every few seconds
    // (none at all for a quick match-up), never a line per pair.
    let stderr = String::from_utf8_lossy(&o.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(
        lines.iter().all(|l| l.starts_with("pairs ")) && (lines.len() as u64) < pairs / 2,
        "{stderr}"
    );
}

/// On a terminal, `match-up` draws its progress: a gauge of the LLR between
/// H0's and H1's bounds beside the running summary, cleared at the end.
#[test]
fn match_up_draws_the_llr_between_its_bounds_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let out = on_terminal(
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
    assert!(
        out.contains("H0 [") && out.contains("] H1  pairs ") && out.contains('\u{1b}'),
        "a gauge with the running summary: {out:?}"
    );
    assert!(out.contains("H1 accepted"), "{out}");
}

#[test]
fn replays_keep_stores_what_the_policy_left_out_and_a_bad_policy_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    submit_planet_wars_examples(d, "ludus.db");
    let run = |keep: &str| {
        ludus(
            &[
                "ladder",
                "run",
                "--game",
                "planet-wars",
                "--config",
                r#"{"max_turns": 40}"#,
                "--keep-replays",
                keep,
            ],
            d,
        )
    };
    let o = run("recent:0");
    assert!(!o.status.success());
    assert!(
        text(&o).contains("`recent:0` keeps nothing; say `none`"),
        "{}",
        text(&o)
    );
    let o = run("sometimes");
    assert!(!o.status.success());
    assert!(
        text(&o).contains("expected `all`, `none`, `recent:N`, `faults`"),
        "{}",
        text(&o)
    );
    let o = run("none");
    assert!(o.status.success(), "{}", text(&o));
    let status = text(&ludus(&["ladder", "status"], d));
    assert!(
        status.contains("keeps none: 0 of the played matches' replays stored"),
        "{status}"
    );
    // As a Ludus of another version sees the database: the results stand,
    // the replays not stored are lost to it, and it says so.
    let db = rusqlite::Connection::open(d.join("ludus.db")).unwrap();
    let version: String = db
        .query_row("SELECT ludus_version FROM ladders", [], |r| r.get(0))
        .unwrap();
    db.execute("UPDATE ladders SET ludus_version = '0.0.1'", [])
        .unwrap();
    let status = text(&ludus(&["ladder", "status"], d));
    assert!(
        status.contains("6 matches have no stored replay and this Ludus cannot regenerate them"),
        "{status}"
    );
    let matches = text(&ludus(&["matches"], d));
    assert!(matches.lines().count() >= 6, "the results stand: {matches}");
    let o = ludus(&["replays", "keep"], d);
    assert!(!o.status.success());
    assert!(text(&o).contains("Ludus 0.0.1"), "{}", text(&o));
    db.execute("UPDATE ladders SET ludus_version = ?1", [&version])
        .unwrap();
    let o = ludus(&["replays", "keep"], d);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("stored 6 replays"), "{}", text(&o));
    let status = text(&ludus(&["ladder", "status"], d));
    assert!(
        status.contains("keeps none: 6 of the played matches' replays stored"),
        "{status}"
    );
    let stored: i64 = db
        .query_row("SELECT count(*) FROM replays", [], |r| r.get(0))
        .unwrap();
    assert_eq!(stored, 6);
    // Nothing left to keep: a second run stores none.
    let o = ludus(&["replays", "keep"], d);
    assert!(text(&o).contains("stored 0 replays"), "{}", text(&o));
}

#[test]
fn leaderboards_count_each_bots_refused_moves_beside_its_faults() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let wat = ludus_testkit::workspace_root().join("host/tests/hostile/illegal_moves.wat");
    std::fs::write(d.join("mover.wasm"), wat::parse_file(wat).unwrap()).unwrap();
    let o = ludus(
        &[
            "submit",
            "mover.wasm",
            "--name",
            "mover",
            "--game",
            "planet-wars",
        ],
        d,
    );
    assert!(o.status.success(), "{}", text(&o));
    submit(d, "planet_wars_idle", "idle");
    let o = ludus(
        &[
            "ladder",
            "run",
            "--game",
            "planet-wars",
            "--config",
            r#"{"max_turns": 30}"#,
        ],
        d,
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("refused"),
        "the table's column: {}",
        text(&o)
    );
    let board: serde_json::Value =
        serde_json::from_str(&text(&ludus(&["leaderboard", "--format", "json"], d))).unwrap();
    // What the replays record, seat by seat, recounted.
    let mut recounted = std::collections::BTreeMap::<String, u64>::new();
    for m in board["matches"].as_array().unwrap() {
        let id = m["match_id"].as_str().unwrap();
        let o = ludus(&["replay", "export", id, "-o", "m.json"], d);
        assert!(o.status.success(), "{}", text(&o));
        let replay = ludus_host::Replay::load(&d.join("m.json")).unwrap();
        for (seat, n) in replay.refusal_counts().into_iter().enumerate() {
            let name = replay.seats[seat]
                .name
                .split(' ')
                .next()
                .unwrap()
                .to_string();
            *recounted.entry(name).or_default() += n as u64;
        }
    }
    for row in board["rows"].as_array().unwrap() {
        let bot = row["bot"].as_str().unwrap();
        let refused = row["refused"]
            .as_u64()
            .unwrap_or_else(|| panic!("no refused count: {row}"));
        assert_eq!(refused, recounted[bot], "{bot}: {row}");
    }
    assert!(
        recounted["mover"] > 0 && recounted["idle"] == 0,
        "{recounted:?}"
    );
    let csv = text(&ludus(&["leaderboard", "--format", "csv"], d));
    assert!(
        csv.lines().next().unwrap().ends_with("faults,refused"),
        "{csv}"
    );
}

#[test]
fn a_backup_taken_while_a_ladder_plays_is_consistent() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    submit_planet_wars_examples(d, "ludus.db");
    let mut run = ludus_cmd(
        &[
            "ladder",
            "run",
            "--game",
            "planet-wars",
            "--rounds",
            "60",
            "--threads",
            "1",
        ],
        d,
    )
    .stdout(Stdio::null())
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    // Under way: some results in, most to come.
    let start = Instant::now();
    while results(&d.join("ludus.db")).len() < 5 {
        assert!(start.elapsed() < Duration::from_secs(120), "no progress");
        std::thread::sleep(Duration::from_millis(20));
    }
    let o = ludus(&["backup", "copy.db"], d);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("wrote copy.db"), "{}", text(&o));
    let copied = results(&d.join("copy.db")).len();
    assert!(run.wait().unwrap().success());
    assert!((5..360).contains(&copied), "{copied} results in the copy");
    // The copy is a Ludus database as it was at one moment: whole, and its
    // ratings those of its results.
    let o = ludus(&["ladder", "recompute", "--db", "copy.db"], d);
    assert!(o.status.success(), "{}", text(&o));
    let o = ludus(&["ladder", "status", "--db", "copy.db"], d);
    assert!(o.status.success(), "{}", text(&o));
    let o = ludus(&["backup", "copy.db"], d);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("a backup goes to a new file"),
        "{}",
        text(&o)
    );
}

/// `ladder status --all`: a line per ladder that says what each is doing,
/// a continuous one never "finished"; a fresh database says how ladders
/// come to be.
#[test]
fn ladder_status_all_shows_every_ladder_and_a_continuous_one_is_never_finished() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let o = ludus(&["user", "add", "op"], d);
    assert!(o.status.success(), "{}", text(&o));
    let o = ludus(&["ladder", "status", "--all"], d);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("`ludus serve` makes a game's continuous ladder"),
        "{}",
        text(&o)
    );
    submit_planet_wars_examples(d, "ludus.db");
    let o = ludus(
        &[
            "ladder",
            "run",
            "--game",
            "planet-wars",
            "--config",
            r#"{"max_turns": 20}"#,
        ],
        d,
    );
    assert!(o.status.success(), "{}", text(&o));
    let o = ludus(&["season", "new", "--game", "planet-wars"], d);
    assert!(o.status.success(), "{}", text(&o));
    let line_of = |out: &str, ladder: &str| {
        out.lines()
            .find(|l| l.split_whitespace().next() == Some(ladder))
            .unwrap_or_else(|| panic!("no line of ladder {ladder}:\n{out}"))
            .to_string()
    };
    let all = text(&ludus(&["ladder", "status", "--all"], d));
    assert!(line_of(&all, "1").ends_with("finished"), "{all}");
    let season = line_of(&all, "2");
    assert!(season.contains("season 1"), "{all}");
    assert!(
        season.contains("continuous; no live worker plays it"),
        "{all}"
    );
    assert!(all.contains("workers   0 live (0 threads)"), "{all}");
    let one = text(&ludus(&["ladder", "status", "--ladder", "2"], d));
    let pace = one.lines().find(|l| l.starts_with("pace")).unwrap();
    assert!(
        pace.ends_with("no live worker plays it (`ludus serve --workers N` or `ludus worker`)"),
        "{one}"
    );
    let o = ludus(&["ladder", "pause", "planet-wars"], d);
    assert!(o.status.success(), "{}", text(&o));
    let all = text(&ludus(&["ladder", "status", "--all"], d));
    assert!(line_of(&all, "2").ends_with("paused"), "{all}");
}
