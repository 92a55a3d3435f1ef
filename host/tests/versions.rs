//! Versions the workspace states: the wasmtime version that goes into every
//! match id (`WASMTIME_VERSION`) must be the one really built, the one
//! `Cargo.lock` resolved; the workspace's `rust-version` must be a
//! toolchain that builds every locked dependency.

use ludus_host::WASMTIME_VERSION;

const WASMTIME_CRATES: [&str; 3] = ["wasmtime", "wasmtime-wasi", "wasmtime-wasi-io"];

fn workspace_file(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every `(name, version)` of `Cargo.lock`'s `[[package]]` entries.
fn locked_packages() -> Vec<(String, String)> {
    let lock = workspace_file("Cargo.lock");
    let field = |block: &str, key: &str| {
        block.lines().find_map(|l| {
            l.strip_prefix(key)?
                .strip_prefix(" = \"")?
                .strip_suffix('"')
                .map(str::to_string)
        })
    };
    lock.split("[[package]]")
        .skip(1)
        .filter_map(|block| Some((field(block, "name")?, field(block, "version")?)))
        .collect()
}

#[test]
fn the_match_id_wasmtime_version_is_the_locked_one() {
    let locked = locked_packages();
    for name in WASMTIME_CRATES {
        let versions: Vec<&str> = locked
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .collect();
        assert_eq!(
            versions,
            [WASMTIME_VERSION],
            "{name} in Cargo.lock against WASMTIME_VERSION in host/src/sandbox.rs"
        );
    }
}

#[test]
fn the_workspace_pins_wasmtime_to_exactly_that_version() {
    let manifest = workspace_file("Cargo.toml");
    for name in WASMTIME_CRATES {
        let line = manifest
            .lines()
            .find(|l| l.starts_with(&format!("{name} = ")))
            .unwrap_or_else(|| panic!("{name} is a workspace dependency"));
        assert!(
            line.contains(&format!("\"={WASMTIME_VERSION}\"")),
            "{line} pins ={WASMTIME_VERSION}"
        );
    }
}

/// `1.95` or `1.95.0` as comparable numbers.
fn version_numbers(v: &str) -> Vec<u64> {
    let mut n: Vec<u64> = v.split('.').map(|p| p.parse().unwrap()).collect();
    n.resize(3, 0);
    n
}

#[test]
fn the_workspace_rust_version_builds_every_dependency() {
    let manifest = workspace_file("Cargo.toml");
    let ours = manifest
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = \""))
        .and_then(|l| l.strip_suffix('"'))
        .expect("the workspace states a rust-version");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        // Not `--offline`: metadata reads the manifests of every platform's
        // dependencies, which a fresh checkout has not downloaded.
        .args(["metadata", "--format-version", "1", "--locked"])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let newer: Vec<String> = metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| {
            let needs = p["rust_version"].as_str()?;
            (version_numbers(needs) > version_numbers(ours))
                .then(|| format!("{} {} needs {needs}", p["name"], p["version"]))
        })
        .collect();
    assert!(
        newer.is_empty(),
        "rust-version {ours} is too old: {newer:?}"
    );
}
