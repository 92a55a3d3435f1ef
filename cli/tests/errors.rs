//! Bad invocations, as users make them: each fails with exit code 1 and one
//! line on stderr that names the file, bot, game or flag, says what is
//! wrong and what to do, and never repeats a cause.

mod common;

use common::*;

/// A scratch folder with the files the bad invocations need.
fn scene() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("folder.wasm")).unwrap();
    std::fs::write(d.join("empty.wasm"), b"").unwrap();
    std::fs::write(d.join("notes.wasm"), b"hello, I am text").unwrap();
    std::fs::write(d.join("notes.db"), b"these are my notes, not a database").unwrap();
    // A replay, and the same replay of another rules version, and cut short.
    let o = ludus(
        &[
            "play",
            "--game",
            "planet-wars",
            "--config",
            r#"{"max_turns": 5}"#,
            "--out",
            "m.json",
            &bot("planet_wars_idle"),
            &bot("planet_wars_random"),
        ],
        d,
    );
    assert!(o.status.success(), "{}", text(&o));
    let replay = std::fs::read_to_string(d.join("m.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&replay).unwrap();
    v["rules_version"] = 99.into();
    std::fs::write(d.join("future.json"), v.to_string()).unwrap();
    std::fs::write(d.join("cut.json"), &replay[..replay.len() / 2]).unwrap();
    // A database this user may only read.
    let o = ludus(
        &[
            "submit",
            &bot("planet_wars_idle"),
            "--name",
            "idle",
            "--game",
            "planet-wars",
            "--db",
            "ro.db",
        ],
        d,
    );
    assert!(o.status.success(), "{}", text(&o));
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(d.join("ro.db"), std::fs::Permissions::from_mode(0o444)).unwrap();
    dir
}

#[test]
fn bad_invocations_fail_with_one_line_naming_the_culprit_and_what_to_do() {
    let dir = scene();
    let d = dir.path();
    let idle = bot("planet_wars_idle");
    let games: Vec<&str> = ludus_engine::games().iter().map(|g| g.id).collect();
    let all_games = games.join(", ");
    let pw = |bot_file: &str| -> Vec<String> {
        ["play", "--game", "planet-wars", bot_file, &idle]
            .map(String::from)
            .to_vec()
    };
    let play_kore = |extra: &[&str]| -> Vec<String> {
        let mut args: Vec<String> = ["play", "--game", "kore"].map(String::from).to_vec();
        args.extend(extra.iter().map(|s| s.to_string()));
        args.extend([idle.clone(), idle.clone()]);
        args
    };
    let table: Vec<(&str, Vec<String>, Vec<&str>)> = vec![
        (
            "a missing file",
            pw("gone.wasm"),
            vec![
                "cannot use gone.wasm as a bot",
                "no file gone.wasm",
                "check the path",
            ],
        ),
        (
            "a folder",
            pw("folder.wasm"),
            vec!["folder.wasm is a directory", "give the .wasm file"],
        ),
        (
            "an empty file",
            pw("empty.wasm"),
            vec!["empty.wasm", "empty file", "build it again"],
        ),
        (
            "a file that is not WebAssembly",
            pw("notes.wasm"),
            vec![
                "notes.wasm",
                "is not WebAssembly",
                "the text `hell`",
                "Give the .wasm file",
            ],
        ),
        (
            "an unknown game",
            ["play", "--game", "nope", "a.wasm", "b.wasm"]
                .map(String::from)
                .to_vec(),
            vec!["unknown game `nope`", &all_games],
        ),
        (
            "a seat count the game does not allow",
            {
                let mut args = play_kore(&[]);
                args.push(idle.clone());
                args
            },
            vec!["kore is played by 2 or 4 players, not 3"],
        ),
        (
            "--config that is not JSON",
            play_kore(&["--config", "{episodeSteps: 5}"]),
            vec![
                "--config is not JSON",
                "kore's options",
                "docs/games/kore.md",
            ],
        ),
        (
            "--config with an unknown field",
            play_kore(&["--config", r#"{"turns": 5}"#]),
            vec![
                "invalid config for kore",
                "unknown field `turns`",
                "episodeSteps",
            ],
        ),
        (
            "a database that is a text file",
            ["bots", "--db", "notes.db"].map(String::from).to_vec(),
            vec!["notes.db is not a SQLite database", "--db"],
        ),
        (
            "a read-only database written to",
            [
                "submit",
                &bot("planet_wars_random"),
                "--name",
                "random",
                "--game",
                "planet-wars",
                "--db",
                "ro.db",
            ]
            .map(String::from)
            .to_vec(),
            vec!["ro.db is read-only", "chmod u+w"],
        ),
        (
            "a replay of another rules version",
            ["replay", "verify", "future.json"]
                .map(String::from)
                .to_vec(),
            vec![
                "planet-wars rules v99",
                "this Ludus plays v2",
                "use that version",
            ],
        ),
        (
            "a truncated replay",
            ["replay", "show", "cut.json"].map(String::from).to_vec(),
            vec!["cut.json is not a Ludus replay", "truncated"],
        ),
        (
            "a replay that is nowhere",
            ["replay", "verify", "0123abcd"].map(String::from).to_vec(),
            vec![
                "`0123abcd` is neither a replay file nor the id of a stored match",
                "--db",
            ],
        ),
    ];
    for (case, args, needles) in table {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = ludus(&args, d);
        let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(1), "{case}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{case}: one line: {stderr}");
        assert!(stderr.starts_with("error: "), "{case}: {stderr}");
        for needle in needles {
            assert!(
                stderr.contains(needle),
                "{case}: `{needle}` is not in {stderr}"
            );
        }
        no_cause_twice(case, &stderr);
    }
    // Reading the read-only database still works.
    let o = ludus(&["bots", "--db", "ro.db"], d);
    assert!(
        o.status.success() && text(&o).contains("idle"),
        "{}",
        text(&o)
    );
}

/// No part of the message (between `: `) comes twice.
fn no_cause_twice(case: &str, line: &str) {
    let parts: Vec<&str> = line.trim().split(": ").filter(|p| p.len() > 8).collect();
    for (i, p) in parts.iter().enumerate() {
        assert!(!parts[i + 1..].contains(p), "{case}: `{p}` twice in {line}");
    }
}

/// The bots of a replay are looked up by sha256 in the given folders, the
/// bot store and the module cache, and when they are in none the message
/// names each place.
#[test]
fn verify_names_every_place_it_looked_for_a_missing_bot() {
    let dir = scene();
    let d = dir.path();
    std::fs::create_dir(d.join("nothing")).unwrap();
    let empty_cache = d.join("empty-cache");
    let o = ludus_cmd(
        &[
            "replay", "verify", "m.json", "--bots", "nothing", "--db", "ro.db",
        ],
        d,
    )
    .env("LUDUS_CACHE_DIR", &empty_cache)
    .output()
    .unwrap();
    let t = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{t}");
    // Seat 0 (idle) is in ro.db; seat 1 (random) is nowhere.
    for needle in [
        "seat 1: bot `planet_wars_random`",
        "the .wasm files of nothing",
        "the bot store ro.db",
        &format!("the module cache {}", empty_cache.display()),
        "pass --bots DIR with its .wasm, or --db",
    ] {
        assert!(t.contains(needle), "`{needle}` is not in {t}");
    }
    // With the cache every test shares, the compiled bot is found there.
    let o = ludus(&["replay", "verify", "m.json", "--bots", "nothing"], d);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("planet_wars_random from the module cache"),
        "{t}"
    );
}
