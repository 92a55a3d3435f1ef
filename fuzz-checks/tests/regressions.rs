//! Every input a fuzz target ever failed on (`fuzz/regressions/TARGET/`),
//! and every seed input (`fuzz/seeds/TARGET/`), run through the target's
//! check in the normal test suite, without cargo-fuzz.

use std::path::{Path, PathBuf};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("fuzz-checks/ sits in the workspace")
        .join("fuzz")
}

/// Runs every file of `fuzz/KIND/TARGET/` through TARGET's check; returns
/// how many there were.
fn run_inputs(kind: &str) -> usize {
    let mut count = 0;
    for (target, check) in ludus_fuzz_checks::TARGETS {
        let dir = fuzz_dir().join(kind).join(target);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
        files.sort();
        for file in files {
            let data = std::fs::read(&file).unwrap();
            let outcome = std::panic::catch_unwind(|| check(&data));
            assert!(outcome.is_ok(), "{target} fails on {}", file.display());
            count += 1;
        }
    }
    count
}

#[test]
fn every_input_a_fuzz_target_failed_on_passes() {
    // The folder is tracked even while no target has failed yet, so that a
    // moved folder fails here instead of passing with nothing run.
    assert!(
        fuzz_dir().join("regressions").is_dir(),
        "fuzz/regressions/ is where the inputs targets failed on are kept"
    );
    run_inputs("regressions");
}

#[test]
fn every_seed_input_passes() {
    assert!(run_inputs("seeds") > 0, "the seed inputs are found");
}

#[test]
fn every_check_is_a_fuzz_target_and_every_fuzz_target_a_check() {
    let mut files: Vec<String> = std::fs::read_dir(fuzz_dir().join("fuzz_targets"))
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            path.file_stem().unwrap().to_string_lossy().into_owned()
        })
        .collect();
    files.sort();
    let mut checks: Vec<String> = ludus_fuzz_checks::TARGETS
        .iter()
        .map(|(name, _)| name.to_string())
        .collect();
    checks.sort();
    assert_eq!(files, checks);
    let manifest = std::fs::read_to_string(fuzz_dir().join("Cargo.toml")).unwrap();
    for name in &checks {
        assert!(
            manifest.contains(&format!("path = \"fuzz_targets/{name}.rs\"")),
            "fuzz/Cargo.toml declares the target {name}"
        );
    }
}
