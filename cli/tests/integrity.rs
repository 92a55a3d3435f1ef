//! `ludus ladder check` and `ludus ladder repair` through the binary: the
//! exit codes (0 when every invariant holds, 1 when one does not, 1 with
//! an error for a database that is not there), the JSON that a
//! fault-injection harness parses, and a repair that makes the check
//! clean again.

mod common;

use common::*;
use std::path::Path;

/// `ludus ladder check ARGS --format json`: its exit code and its JSON.
fn check_json(d: &Path, args: &[&str]) -> (Option<i32>, serde_json::Value) {
    let mut all = vec!["ladder", "check", "--format", "json"];
    all.extend_from_slice(args);
    let o = ludus(&all, d);
    let json = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", text(&o)));
    (o.status.code(), json)
}

#[test]
fn ladder_check_exits_by_its_verdict_with_the_json_keys_and_repair_makes_it_clean() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let o = ludus(&["ladder", "check", "--db", "missing.db"], d);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        o.stdout.is_empty() && text(&o).contains("missing.db"),
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
            r#"{"max_turns": 40}"#,
        ],
        d,
    );
    assert!(o.status.success(), "{}", text(&o));

    let (code, json) = check_json(d, &["--all", "--bytes"]);
    assert_eq!(code, Some(0), "{json:#}");
    assert_eq!(json["violations"], 0);
    let ladder = &json["ladders"][0];
    assert_eq!(ladder["ladder"], 1);
    assert_eq!(ladder["game"], "planet-wars");
    assert_eq!(ladder["kind"], "round-robin");
    assert_eq!(ladder["rating_lag"], 0);
    let invariants = ladder["invariants"].as_array().unwrap();
    let names: Vec<&str> = invariants
        .iter()
        .map(|i| i["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "schedule",
            "done_results",
            "rated_prefix",
            "seat_elo",
            "ratings",
            "counters"
        ]
    );
    // Three bots, every pair in both seat orders: six matches.
    assert_eq!(invariants[0]["checked"], 6);
    assert!(invariants
        .iter()
        .all(|i| i["violations"].as_array().is_some_and(Vec::is_empty)));
    assert_eq!(json["bots"]["name"], "wasm");

    // The text: every invariant with its figures, then the verdict.
    let o = ludus(&["ladder", "check", "--ladder", "1"], d);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.lines()
            .any(|l| l.trim_start().starts_with("schedule") && l.ends_with("ok")),
        "{out}"
    );
    assert!(
        out.lines().last().unwrap().starts_with("verdict: ok"),
        "{out}"
    );

    // A rated match's Elo lost: found, exit 1, named.
    let c = rusqlite::Connection::open(d.join("ludus.db")).unwrap();
    c.execute("UPDATE match_seats SET elo = NULL WHERE idx = 2", [])
        .unwrap();
    drop(c);
    let (code, json) = check_json(d, &["--game", "planet-wars"]);
    assert_eq!(code, Some(1), "{json:#}");
    assert!(json["violations"].as_u64().unwrap() >= 1, "{json:#}");
    let seat_elo = &json["ladders"][0]["invariants"][3];
    assert_eq!(seat_elo["name"], "seat_elo");
    let line = seat_elo["violations"][0].as_str().unwrap();
    assert!(
        line.contains("ladder 1") && line.contains("match 2:"),
        "{line}"
    );
    let o = ludus(&["ladder", "check"], d);
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.lines().last().unwrap().starts_with("verdict: VIOLATED"),
        "{out}"
    );

    let o = ludus(&["ladder", "repair", "--ladder", "1"], d);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("ladder 1 (planet-wars round-robin): re-rated from match 2"),
        "{}",
        text(&o)
    );
    let (code, json) = check_json(d, &[]);
    assert_eq!(
        (code, &json["violations"]),
        (Some(0), &serde_json::json!(0)),
        "{json:#}"
    );
    let o = ludus(&["ladder", "recompute"], d);
    assert!(o.status.success(), "{}", text(&o));
}
