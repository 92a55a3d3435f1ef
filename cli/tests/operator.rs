//! The operator's commands with real processes: accounts listed, one
//! removed while `ludus serve` plays (its token refused, its bots retired,
//! their results kept and shown), a lost token replaced, any bot retired
//! by name, the bots listed with their owners, identical bytes from two
//! accounts found; and a four-seat ladder's matches listed in full.

mod common;

use common::*;
use serde_json::Value;
use std::path::Path;
use std::time::{Duration, Instant};

/// Runs `ludus args` in `dir`, which must succeed; its stdout and stderr.
fn ok(dir: &Path, args: &[&str]) -> String {
    let o = ludus(args, dir);
    assert!(o.status.success(), "ludus {args:?}: {}", text(&o));
    text(&o)
}

/// Adds the account `name` (with `--operator` if `operator`) and returns
/// its token, which is stdout's only line.
fn add_user(dir: &Path, name: &str, operator: bool) -> String {
    let mut args = vec!["user", "add", name, "--db", "ludus.db"];
    if operator {
        args.push("--operator");
    }
    let o = ludus(&args, dir);
    assert!(o.status.success(), "{}", text(&o));
    String::from_utf8(o.stdout).unwrap().trim().to_string()
}

fn bot_view(server: &Serving, name: &str) -> Value {
    get_json(&format!("{}/api/bots/{name}", server.url))
}

fn on_board(server: &Serving, name: &str) -> bool {
    get_json(&format!(
        "{}/api/games/planet-wars/leaderboard?per_page=100",
        server.url
    ))["rows"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["bot"] == name)
}

/// The line of `listing` that starts with `first`, the first word.
fn line<'a>(listing: &'a str, first: &str) -> &'a str {
    listing
        .lines()
        .find(|l| l.split_whitespace().next() == Some(first))
        .unwrap_or_else(|| panic!("no line of {first} in:\n{listing}"))
}

#[test]
fn the_operator_lists_removes_and_retires_and_sees_identical_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let teacher = add_user(dir, "teacher", true);
    let alice = add_user(dir, "alice", false);
    let bob = add_user(dir, "bob", false);
    assert!(teacher.starts_with("ludus_") && alice.starts_with("ludus_"));
    let mut server = serve(
        dir,
        &[
            "--db",
            "ludus.db",
            "--workers",
            "1",
            "--game-config",
            r#"planet-wars={"max_turns": 30}"#,
        ],
    );
    for (token, file, name) in [
        (&alice, "planet_wars_expander", "alpha"),
        (&bob, "planet_wars_random", "beta"),
        // bob's copy of alice's bytes.
        (&bob, "planet_wars_expander", "copy"),
    ] {
        let o = upload(dir, &server.url, token, file, name);
        assert!(o.status.success(), "{}", text(&o));
    }
    // An operator's stored bot: no owner.
    ok(
        dir,
        &[
            "submit",
            &bot("planet_wars_idle"),
            "--name",
            "stored",
            "--game",
            "planet-wars",
            "--db",
            "ludus.db",
        ],
    );

    // alpha plays some matches before alice goes.
    let start = Instant::now();
    while bot_view(&server, "alpha")["rated_matches"]
        .as_u64()
        .unwrap()
        < 2
    {
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "alpha had no rated match in five minutes"
        );
        std::thread::sleep(Duration::from_millis(300));
    }

    let users = ok(dir, &["user", "list", "--db", "ludus.db"]);
    assert!(users.starts_with("account "), "{users}");
    let l = line(&users, "alice");
    assert!(l.contains(" no ") && l.ends_with(" alpha"), "{l}");
    assert!(line(&users, "teacher").contains(" yes "), "{users}");
    assert!(line(&users, "bob").ends_with(" beta, copy"), "{users}");

    let bots = ok(dir, &["bots", "--db", "ludus.db"]);
    let header = bots.lines().next().unwrap();
    assert!(
        header.contains(" owner ") && header.contains(" retired "),
        "{bots}"
    );
    let alpha = line(&bots, "alpha");
    assert!(
        alpha.contains(" alice ") && alpha.contains(" no "),
        "{bots}"
    );
    assert!(line(&bots, "stored").contains(" - "), "{bots}");

    let same = ok(dir, &["bots", "--duplicates", "--db", "ludus.db"]);
    assert!(
        same.contains(": the same bytes from alice, bob\n  alpha v1 (alice)\n  copy v1 (bob)\n"),
        "{same}"
    );
    assert!(!same.contains("beta") && !same.contains("stored"), "{same}");

    // alice is removed: her token is refused, her bot leaves the board and
    // keeps its matches.
    let played = bot_view(&server, "alpha")["matches"].as_u64().unwrap();
    let removed = ok(dir, &["user", "remove", "alice", "--db", "ludus.db"]);
    assert!(
        removed.contains("removed the account alice")
            && removed.contains("retired its bots alpha:"),
        "{removed}"
    );
    let o = upload(dir, &server.url, &alice, "planet_wars_expander", "alpha");
    assert!(!o.status.success());
    assert!(
        text(&o).contains("this account was removed by the server's operator"),
        "{}",
        text(&o)
    );
    let view = bot_view(&server, "alpha");
    assert_eq!(view["retired"], true, "{view}");
    assert_eq!(view["owner"], "alice", "{view}");
    assert!(view["matches"].as_u64().unwrap() >= played, "{view}");
    assert!(!view["recent"].as_array().unwrap().is_empty(), "{view}");
    assert!(!on_board(&server, "alpha"));
    let users = ok(dir, &["user", "list", "--db", "ludus.db"]);
    let l = line(&users, "alice");
    assert!(l.contains("Z ") && l.ends_with(" alpha (retired)"), "{l}");
    let again = ok(dir, &["user", "remove", "alice", "--db", "ludus.db"]);
    assert!(again.contains("removed already"), "{again}");
    let o = ludus(&["user", "remove", "nobody", "--db", "ludus.db"], dir);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("no account named `nobody`"),
        "{}",
        text(&o)
    );

    // bob lost his token: a new one replaces it.
    let o = ludus(&["user", "token", "bob", "--db", "ludus.db"], dir);
    assert!(o.status.success(), "{}", text(&o));
    let fresh = String::from_utf8(o.stdout.clone())
        .unwrap()
        .trim()
        .to_string();
    assert!(fresh.starts_with("ludus_") && fresh != bob, "{fresh}");
    assert!(text(&o).contains("shown only once"), "{}", text(&o));
    let o = upload(dir, &server.url, &bob, "planet_wars_random", "beta2");
    assert!(!o.status.success());
    assert!(text(&o).contains("ludus user token NAME"), "{}", text(&o));
    let o = upload(dir, &server.url, &fresh, "planet_wars_random", "beta2");
    assert!(o.status.success(), "{}", text(&o));
    let o = ludus(&["user", "token", "alice", "--db", "ludus.db"], dir);
    assert!(!o.status.success());
    assert!(text(&o).contains("was removed"), "{}", text(&o));

    // The operator retires bob's bot by name, and the one nobody owned.
    assert!(on_board(&server, "beta"));
    let out = ok(dir, &["bot", "retire", "beta", "--db", "ludus.db"]);
    assert!(out.contains("retired beta, a bot of bob"), "{out}");
    assert_eq!(bot_view(&server, "beta")["retired"], true);
    let out = ok(dir, &["bot", "retire", "beta", "--db", "ludus.db"]);
    assert!(out.contains("retired already"), "{out}");
    // The older name of the command does the same.
    let out = ok(dir, &["retire", "stored", "--db", "ludus.db"]);
    assert!(out.contains("the house account owns it now"), "{out}");
    let o = ludus(&["bot", "retire", "nobody", "--db", "ludus.db"], dir);
    assert!(!o.status.success());
    assert!(text(&o).contains("no bot named `nobody`"), "{}", text(&o));
    let start = Instant::now();
    while on_board(&server, "beta") || on_board(&server, "stored") {
        assert!(start.elapsed() < Duration::from_secs(30), "still listed");
        std::thread::sleep(Duration::from_millis(200));
    }
    let bots = ok(dir, &["bots", "--db", "ludus.db"]);
    assert!(line(&bots, "beta").contains(" bob "), "{bots}");
    assert!(line(&bots, "beta").contains(" yes "), "{bots}");
    assert!(line(&bots, "stored").contains(" house "), "{bots}");
    assert!(line(&bots, "copy").contains(" no "), "{bots}");
    let status = server.stop().expect("the server stops");
    assert!(status.success(), "ludus serve ended with {status}");
}

#[test]
fn the_help_documents_bot_retire_and_keeps_the_older_retire_out_of_it() {
    let dir = tempfile::tempdir().unwrap();
    let help = ok(dir.path(), &["--help"]);
    assert!(help.contains("\n  bot "), "{help}");
    assert!(!help.contains("\n  retire "), "{help}");
    let user = ok(dir.path(), &["user", "--help"]);
    for command in ["add", "list", "remove", "token"] {
        assert!(user.contains(&format!("\n  {command} ")), "{user}");
    }
}

#[test]
fn matches_lists_every_seat_of_a_four_seat_table() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let names = [
        "claim_sample_the_first",
        "claim_sample_the_second",
        "claim_strategy_the_third",
        "claim_strategy_the_fourth",
    ];
    for name in names {
        let file = &name[..name.rfind("_the_").unwrap()];
        submit_game(d, "ludus.db", file, name, "claim");
    }
    ok(
        d,
        &[
            "ladder",
            "run",
            "--game",
            "claim",
            "--players",
            "4",
            "--config",
            r#"{"max_turns": 20}"#,
        ],
    );
    let out = ok(d, &["matches"]);
    let rows: Vec<&str> = out.lines().skip(2).collect();
    assert_eq!(
        rows.len(),
        4,
        "one table, in each rotation of its seats:\n{out}"
    );
    for row in rows {
        assert!(!row.contains('…'), "a seat list is cut: {row}");
        for name in names {
            assert!(row.contains(&format!("{name} (")), "{name} missing: {row}");
        }
        assert_eq!(row.matches(" vs ").count(), 3, "{row}");
    }
}
