//! The `ludus` binary is glue: it parses arguments, calls the library
//! function of each command (the same one the tests and the server call)
//! and prints. A command whose logic lived in `cli/` would run a path no
//! library test runs; this test fails when `cli/src` starts doing work of
//! its own: reading or writing the store through its handles, running
//! ratings, stepping a game, speaking HTTP or running an async runtime.

use std::path::{Path, PathBuf};

/// What `cli/src` must not do, and where that work belongs.
const FORBIDDEN: &[(&str, &str)] = &[
    (
        ".queue()",
        "the queue is worked by ludus_leaderboard::worker and ::ladder",
    ),
    (
        ".ladders()",
        "ladders are read and made by ludus_leaderboard::ladder",
    ),
    (
        ".results()",
        "results are read by ludus_leaderboard::report and ::lookup",
    ),
    (
        ".bots()",
        "bots are listed by ludus_leaderboard::report and stored by ::submit",
    ),
    (
        ".ratings()",
        "ratings are applied and recomputed by ludus_leaderboard::ratings",
    ),
    (".accounts()", "accounts are made by ludus_server::auth"),
    ("rusqlite", "the database is the store's"),
    ("postgres::", "the database is the store's"),
    (
        "elo_ratings",
        "ratings are computed by ludus_leaderboard::ratings",
    ),
    (
        "bradley_terry::",
        "ratings are computed by ludus_leaderboard::ratings",
    ),
    (
        "weng_lin::",
        "ratings are computed by ludus_leaderboard::ratings",
    ),
    (
        ".step(",
        "games are played by ludus_host and ludus_engine::reference",
    ),
    (
        "ureq::",
        "the server's API is spoken by ludus_server::client",
    ),
    (
        "tokio::",
        "the server runs its own runtime (ludus_server::run)",
    ),
];

fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// Where `text` uses a forbidden pattern, outside comments: (line, pattern, why).
fn offences(text: &str) -> Vec<(usize, &'static str, &'static str)> {
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        for &(pattern, why) in FORBIDDEN {
            if code.contains(pattern) {
                found.push((i + 1, pattern, why));
            }
        }
    }
    found
}

#[test]
fn the_cli_only_parses_calls_the_libraries_and_prints() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = sources(&src);
    assert!(files.len() >= 4, "the CLI's sources: {files:?}");
    let mut report = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (line, pattern, why) in offences(&text) {
            report.push(format!("{}:{line}: `{pattern}`: {why}", file.display()));
        }
    }
    assert!(
        report.is_empty(),
        "the CLI does work of its own; move it into the library:\n{}",
        report.join("\n")
    );
}

#[test]
fn the_check_finds_store_queries_and_game_loops_but_not_comments() {
    let text = "let n = store.queue().remaining(id)?;\n\
                // store.ladders() is read by the library\n\
                for a in actions { game.step(&a); }\n";
    let found: Vec<(usize, &str)> = offences(text).iter().map(|o| (o.0, o.1)).collect();
    assert_eq!(found, [(1, ".queue()"), (3, ".step(")]);
}
