//! Builds the example and hostile bots for `wasm32-wasip1`, once per process,
//! for the tests and the developer tasks. Installs the wasm target with
//! rustup when it is missing.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The wasm target bots are built for.
pub const BOT_TARGET: &str = "wasm32-wasip1";

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("testkit lives in the workspace")
        .to_path_buf()
}

fn cargo() -> String {
    std::env::var("CARGO")
        .ok()
        .or_else(|| option_env!("CARGO").map(str::to_string))
        .unwrap_or_else(|| "cargo".into())
}

/// Installs the wasm target when the active toolchain lacks it.
pub fn ensure_wasm_target() -> Result<(), String> {
    let sysroot = Command::new("rustc")
        .args(["--print", "sysroot"])
        .output()
        .map_err(|e| format!("cannot run rustc: {e}"))?;
    let sysroot = String::from_utf8_lossy(&sysroot.stdout).trim().to_string();
    if Path::new(&sysroot)
        .join("lib/rustlib")
        .join(BOT_TARGET)
        .exists()
    {
        return Ok(());
    }
    let status = Command::new("rustup")
        .args(["target", "add", BOT_TARGET])
        .status()
        .map_err(|e| {
            format!("the {BOT_TARGET} target is missing and rustup could not be run ({e}); install it with `rustup target add {BOT_TARGET}`")
        })?;
    if !status.success() {
        return Err(format!("`rustup target add {BOT_TARGET}` failed"));
    }
    Ok(())
}

/// Builds every example and hostile bot (release, `wasm32-wasip1`) into
/// `target/bots` and returns the directory holding the `.wasm` files.
pub fn build_bots() -> Result<PathBuf, String> {
    ensure_wasm_target()?;
    let root = workspace_root();
    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
        .join("bots");
    let status = Command::new(cargo())
        .current_dir(&root)
        .args(["build", "--quiet", "--release", "--target", BOT_TARGET])
        .args([
            "-p",
            "ludus-example-bots",
            "-p",
            "ludus-hostile-bots",
            "--examples",
        ])
        .arg("--target-dir")
        .arg(&target_dir)
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err("building the bots failed (see cargo's output above)".into());
    }
    Ok(target_dir.join(BOT_TARGET).join("release").join("examples"))
}

/// The directory of built bots; builds them on first use in this process.
///
/// # Panics
/// When the bots cannot be built: tests cannot run without them.
pub fn bots_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| build_bots().unwrap_or_else(|e| panic!("{e}")))
}

/// The path of the built bot `name` (e.g. `planet_wars_expander`, `loop_in_act`).
pub fn bot(name: &str) -> PathBuf {
    let path = bots_dir().join(format!("{name}.wasm"));
    assert!(path.exists(), "no bot {} was built", path.display());
    path
}
