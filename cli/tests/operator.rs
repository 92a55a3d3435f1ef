//! The operator's commands with real processes: accounts listed, one
//! removed while `ludus serve` plays (its token refused, its bots retired,
//! their results kept and shown), a lost token replaced and revoked, any
//! bot retired by name, the bots listed with their owners, identical bytes
//! from two accounts found; named tokens listed with their last use and
//! revoked, an invitation used to sign up once, a password set, an account
//! disabled and enabled; and a four-seat ladder's matches listed in full.

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

    // bob lost his token: a new one is added, and the lost one revoked.
    let o = ludus(&["user", "token", "bob", "--db", "ludus.db"], dir);
    assert!(o.status.success(), "{}", text(&o));
    let fresh = String::from_utf8(o.stdout.clone())
        .unwrap()
        .trim()
        .to_string();
    assert!(fresh.starts_with("ludus_") && fresh != bob, "{fresh}");
    assert!(text(&o).contains("shown only once"), "{}", text(&o));
    let tokens = ok(dir, &["user", "tokens", "bob", "--db", "ludus.db"]);
    let first = line(
        &tokens,
        tokens
            .lines()
            .nth(1)
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap(),
    );
    assert!(
        first.contains(" first ") && first.ends_with(" -"),
        "{tokens}"
    );
    let id = first.split_whitespace().next().unwrap();
    ok(dir, &["user", "revoke", "bob", id, "--db", "ludus.db"]);
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
    for command in [
        "add", "list", "remove", "token", "tokens", "revoke", "invite", "password", "disable",
        "enable",
    ] {
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

/// A request to a server: its status, headers and body; redirects are not
/// followed.
fn request(
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, ureq::http::HeaderMap, String) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .build()
        .into();
    let mut req = ureq::http::Request::builder().method(method).uri(url);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let res = agent
        .run(req.body(body.as_bytes().to_vec()).unwrap())
        .unwrap();
    let (status, headers) = (res.status().as_u16(), res.headers().clone());
    (
        status,
        headers,
        res.into_body().read_to_string().unwrap_or_default(),
    )
}

/// Posts a sign-up or sign-in form to `server` as a browser would, from
/// the server's own origin with the form's cookie: the status and body.
fn post_form(server: &Serving, path: &str, form: &str) -> (u16, String) {
    let (_, headers, _) = request("GET", &format!("{}/signin", server.url), &[], "");
    let set = headers["set-cookie"].to_str().unwrap();
    let cookie = set.split(';').next().unwrap();
    let csrf = cookie.trim_start_matches("ludus_csrf=");
    let (status, _, body) = request(
        "POST",
        &format!("{}{path}", server.url),
        &[
            ("Origin", &server.url),
            ("Cookie", cookie),
            ("Content-Type", "application/x-www-form-urlencoded"),
        ],
        &format!("{form}&csrf={csrf}"),
    );
    (status, body)
}

/// `ludus args` with `input` on its standard input, which must succeed.
fn ok_with_input(dir: &Path, args: &[&str], input: &str) -> String {
    use std::io::Write;
    let mut child = ludus_cmd(args, dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "ludus {args:?}: {}", text(&o));
    text(&o)
}

#[test]
fn tokens_invitations_passwords_and_disabling_through_the_binary() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let first = add_user(dir, "alice", false);
    let o = ludus(
        &[
            "user", "token", "alice", "--name", "laptop", "--db", "ludus.db",
        ],
        dir,
    );
    assert!(o.status.success(), "{}", text(&o));
    let laptop = String::from_utf8(o.stdout).unwrap().trim().to_string();
    let tokens = ok(dir, &["user", "tokens", "alice", "--db", "ludus.db"]);
    assert!(tokens.starts_with("    id name"), "{tokens}");
    let row = line(
        &tokens,
        tokens
            .lines()
            .nth(2)
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap(),
    );
    assert!(
        row.contains(" laptop ") && row.contains(" never "),
        "{tokens}"
    );
    let laptop_id = row.split_whitespace().next().unwrap().to_string();

    let server = serve(dir, &["--db", "ludus.db", "--signup", "invite"]);
    let me = |token: &str| {
        request(
            "GET",
            &format!("{}/api/me", server.url),
            &[("Authorization", &format!("Bearer {token}"))],
            "",
        )
        .0
    };
    assert_eq!((me(&first), me(&laptop)), (200, 200));
    let tokens = ok(dir, &["user", "tokens", "alice", "--db", "ludus.db"]);
    assert!(
        !line(&tokens, &laptop_id).contains(" never "),
        "its use is recorded: {tokens}"
    );
    // Revoked: refused at once; the other token stays.
    let out = ok(
        dir,
        &["user", "revoke", "alice", &laptop_id, "--db", "ludus.db"],
    );
    assert!(out.contains("revoked the API token"), "{out}");
    assert_eq!((me(&first), me(&laptop)), (200, 401));
    let o = ludus(
        &["user", "revoke", "alice", &laptop_id, "--db", "ludus.db"],
        dir,
    );
    assert!(
        !o.status.success() && text(&o).contains("no API token"),
        "{}",
        text(&o)
    );

    // An invitation signs one person up.
    let o = ludus(
        &["user", "invite", "--expires-in", "1h", "--db", "ludus.db"],
        dir,
    );
    assert!(o.status.success(), "{}", text(&o));
    let code = String::from_utf8(o.stdout).unwrap().trim().to_string();
    let form = |name: &str| {
        format!("name={name}&password=tidy+violet+kettle+drum&password2=tidy+violet+kettle+drum&invite={code}")
    };
    assert_eq!(post_form(&server, "/signup", &form("carol")).0, 303);
    let (status, body) = post_form(&server, "/signup", &form("dave"));
    assert!(
        status == 422 && body.contains("used already"),
        "{status} {body}"
    );

    // A password set by the operator, read from standard input.
    let sign_in = || {
        post_form(
            &server,
            "/signin",
            "name=alice&password=a+long+enough+passphrase",
        )
        .0
    };
    assert_eq!(sign_in(), 401);
    ok_with_input(
        dir,
        &["user", "password", "alice", "--db", "ludus.db"],
        "a long enough passphrase\n",
    );
    assert_eq!(sign_in(), 303);

    // Disabled: tokens and password refused, and listed so; enabled again.
    let out = ok(dir, &["user", "disable", "alice", "--db", "ludus.db"]);
    assert!(out.contains("disabled the account alice"), "{out}");
    assert_eq!((me(&first), sign_in()), (401, 401));
    let users = ok(dir, &["user", "list", "--db", "ludus.db"]);
    assert!(
        users.lines().next().unwrap().contains(" disabled "),
        "{users}"
    );
    assert!(
        line(&users, "alice").matches('Z').count() == 2,
        "created and disabled: {users}"
    );
    ok(dir, &["user", "enable", "alice", "--db", "ludus.db"]);
    assert_eq!((me(&first), sign_in()), (200, 303));
    let users = ok(dir, &["user", "list", "--db", "ludus.db"]);
    assert!(line(&users, "carol").contains(" no "), "{users}");
}
