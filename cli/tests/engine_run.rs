//! `ludus engine run`: a game driven by a file of actions, no bots.

mod common;
use common::*;

fn lines(o: &std::process::Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("every line is JSON"))
        .collect()
}

#[test]
fn engine_run_prints_the_initial_state_and_one_line_per_step() {
    let dir = tempfile::tempdir().unwrap();
    let actions = "[{\"moves\":[]}, null]\n\n[null, \"not json\"]\n[null, null]\n";
    std::fs::write(dir.path().join("actions.jsonl"), actions).unwrap();
    let args = [
        "engine",
        "run",
        "--game",
        "planet-wars",
        "--seed",
        "4",
        "--actions",
        "actions.jsonl",
    ];
    let o = ludus(&args, dir.path());
    assert!(o.status.success(), "{}", text(&o));
    let states = lines(&o);
    let steps: Vec<u64> = states.iter().map(|s| s["step"].as_u64().unwrap()).collect();
    assert_eq!(steps, vec![0, 1, 2, 3], "blank lines are skipped");
    for s in &states {
        assert!(s["observation"]["planets"]
            .as_array()
            .is_some_and(|p| !p.is_empty()));
        assert_eq!(s["statuses"], serde_json::json!(["ACTIVE", "ACTIVE"]));
        assert_eq!(s["rewards"].as_array().unwrap().len(), 2);
    }
    let again = ludus(&args, dir.path());
    assert_eq!(
        o.stdout, again.stdout,
        "the same seed and actions print the same bytes"
    );
    let other = ludus(
        &[
            "engine",
            "run",
            "--game",
            "planet-wars",
            "--seed",
            "5",
            "--actions",
            "actions.jsonl",
        ],
        dir.path(),
    );
    assert_ne!(o.stdout, other.stdout, "the seed decides the map");
}

#[test]
fn engine_run_names_the_file_and_line_of_a_bad_actions_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.jsonl"), "[null, null]\n[null]\n").unwrap();
    let o = ludus(
        &[
            "engine",
            "run",
            "--game",
            "planet-wars",
            "--players",
            "2",
            "--actions",
            "a.jsonl",
        ],
        dir.path(),
    );
    assert!(!o.status.success());
    let t = text(&o);
    assert!(
        t.contains("a.jsonl line 2") && t.contains("1 entries for 2 seats"),
        "{t}"
    );
    assert_eq!(
        lines(&o).len(),
        2,
        "the states before the bad line are printed"
    );
}

#[test]
fn engine_run_reads_actions_from_standard_input() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let mut child = ludus_cmd(
        &[
            "engine",
            "run",
            "--game",
            "planet-wars",
            "--players",
            "3",
            "--actions",
            "-",
        ],
        dir.path(),
    )
    .stdin(std::process::Stdio::piped())
    .stdout(std::process::Stdio::piped())
    .spawn()
    .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"[null,null,null]\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    let states = lines(&o);
    assert_eq!(states.len(), 2);
    assert_eq!(states[1]["statuses"].as_array().unwrap().len(), 3);
}
