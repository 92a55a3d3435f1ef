//! Shared by the host's tests: one sandbox per test binary, bots by name.
#![allow(dead_code)]

use ludus_host::{BotModule, Limits, MatchSpec, Replay, Sandbox, SandboxOptions};
use std::path::Path;
use std::sync::{Arc, OnceLock};

pub fn sandbox() -> &'static Sandbox {
    static SANDBOX: OnceLock<Sandbox> = OnceLock::new();
    SANDBOX.get_or_init(|| {
        let cache = ludus_testkit::workspace_root().join("target/module-cache");
        Sandbox::with_options(SandboxOptions {
            cache_dir: Some(cache),
            ..SandboxOptions::default()
        })
        .expect("sandbox")
    })
}

/// A built Rust bot (example or hostile) by name.
pub fn bot(name: &str) -> Arc<BotModule> {
    sandbox()
        .load_file(&ludus_testkit::bot(name))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Bytes of a WAT bot of the hostile corpus in `tests/hostile/`.
pub fn wat_bytes(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/hostile")
        .join(format!("{name}.wat"));
    wat::parse_file(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A WAT bot of the hostile corpus, loaded.
pub fn wat_bot(name: &str) -> Arc<BotModule> {
    sandbox()
        .load(name, &wat_bytes(name))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// A short Planet Wars match.
pub fn planet_wars(bots: Vec<Arc<BotModule>>, seed: u64, max_turns: u32, limits: Limits) -> Replay {
    ludus_host::play(&MatchSpec {
        game: "planet-wars".into(),
        config: serde_json::json!({ "max_turns": max_turns }),
        seed,
        limits,
        bots,
    })
    .expect("the match is played")
}

/// Resident memory of this process in KiB (Linux), to check the host stays bounded.
pub fn rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
