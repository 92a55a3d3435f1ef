//! Kaggle agent files on the Ludus side: built into bots as `ludus
//! build-bot` builds them, in one sandbox per process; and the agents the
//! tests and benchmarks play.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use anyhow::{Context, Result};
use ludus_host::build::kaggle::{build_kaggle, KaggleGame};
use ludus_host::build::submission::Submission;
use ludus_host::{BotModule, Sandbox, SandboxOptions};

/// A sandbox whose compiled bots are cached in the workspace's target.
pub fn sandbox() -> &'static Sandbox {
    static SANDBOX: OnceLock<Sandbox> = OnceLock::new();
    SANDBOX.get_or_init(|| {
        Sandbox::with_options(SandboxOptions {
            cache_dir: Some(ludus_testkit::workspace_root().join("target/module-cache")),
            ..SandboxOptions::default()
        })
        .expect("sandbox")
    })
}

/// `fidelity/kaggle/`: our Kaggle agents.
pub fn agents_dir() -> PathBuf {
    ludus_testkit::workspace_root().join("fidelity/kaggle")
}

/// The Kore starter bot as kaggle-environments ships it (in the venv).
pub fn kore_starter() -> Result<PathBuf> {
    Ok(crate::kaggle_environments_dir()?.join("envs/kore_fleets/starter_bots/python/main.py"))
}

/// Builds a submission (a `main.py`, a folder or a `.tar.gz`) as `ludus
/// build-bot` does, the game detected from its imports, and loads it.
pub fn build_agent(path: &Path) -> Result<(Arc<BotModule>, KaggleGame)> {
    ludus_testkit::ensure_python().map_err(anyhow::Error::msg)?;
    let submission = Submission::read(path)?;
    let (wasm, game) = build_kaggle(&submission, None, &ludus_testkit::tools_dir())
        .with_context(|| format!("building {}", path.display()))?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok((sandbox().load_file_named(&name, &wasm)?, game))
}

/// The path upstream runs for a submission: a folder's `main.py`.
pub fn main_py(path: &Path) -> PathBuf {
    if path.is_dir() {
        path.join("main.py")
    } else {
        path.to_path_buf()
    }
}
