//! Builds the example and hostile bots for `wasm32-wasip1`, once per process,
//! for the tests and the developer tasks. Installs the wasm target with
//! rustup when it is missing. [`cdp`] drives headless Chromium for the
//! tests of pages; [`postgres`] starts a throw-away PostgreSQL cluster.

pub mod cdp;
pub mod postgres;

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
    let out = target_dir().join("bots");
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
        .arg(&out)
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err("building the bots failed (see cargo's output above)".into());
    }
    Ok(out.join(BOT_TARGET).join("release").join("examples"))
}

/// The directory of built bots; builds them on first use in this process.
///
/// # Panics
/// When the bots cannot be built: tests cannot run without them.
pub fn bots_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| build_bots().unwrap_or_else(|e| panic!("{e}")))
}

/// The example bots' names: the examples of `example-bots`
/// (`planet_wars_expander`, …), sorted.
pub fn example_bot_names() -> Vec<String> {
    let dir = workspace_root().join("example-bots").join("examples");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(|e| {
                    let name = e.ok()?.file_name().to_string_lossy().into_owned();
                    name.strip_suffix(".rs").map(str::to_string)
                })
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// Copies the example bots among the bots built in `built` (what
/// [`build_bots`] returns) into `target/bots/examples`, a folder of example
/// bots only (no hostile bot), as `ludus serve --house` takes it; returns
/// it. A bot whose copy has the same bytes already is left as it is; the
/// others are written whole, then renamed into place.
pub fn copy_example_bots(built: &Path) -> Result<PathBuf, String> {
    let out = target_dir().join("bots").join("examples");
    std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    for name in example_bot_names() {
        let file = format!("{name}.wasm");
        let from = built.join(&file);
        let wasm = std::fs::read(&from)
            .map_err(|e| format!("cannot read the built bot {}: {e}", from.display()))?;
        let to = out.join(&file);
        if std::fs::read(&to).is_ok_and(|old| old == wasm) {
            continue;
        }
        let part = out.join(format!(".{file}.{}", std::process::id()));
        std::fs::write(&part, &wasm)
            .and_then(|()| std::fs::rename(&part, &to))
            .map_err(|e| format!("cannot write {}: {e}", to.display()))?;
    }
    Ok(out)
}

/// The folder of every example bot's `.wasm` and nothing else
/// (`target/bots/examples`); builds the bots on first use in this process.
///
/// # Panics
/// When the bots cannot be built or copied.
pub fn example_bots_folder() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| copy_example_bots(bots_dir()).unwrap_or_else(|e| panic!("{e}")))
}

/// The path of the built bot `name` (e.g. `planet_wars_expander`, `loop_in_act`).
pub fn bot(name: &str) -> PathBuf {
    let path = bots_dir().join(format!("{name}.wasm"));
    assert!(path.exists(), "no bot {} was built", path.display());
    path
}

/// The example bots of the game `game_id`, by name: the built bots named
/// `<game id with _ for ->_<anything>` (`planet_wars_expander`), sorted with
/// the idle ones last, so the first plays and the last may not.
pub fn example_bots(game_id: &str) -> Vec<String> {
    let prefix = format!("{}_", game_id.replace('-', "_"));
    let mut names: Vec<String> = std::fs::read_dir(bots_dir())
        .map(|entries| {
            entries
                .filter_map(|e| {
                    let name = e.ok()?.file_name().to_string_lossy().into_owned();
                    let stem = name.strip_suffix(".wasm")?;
                    // cargo also leaves `<name>-<hash>.wasm` copies there.
                    (stem.starts_with(&prefix) && !stem.contains('-')).then(|| stem.to_string())
                })
                .collect()
        })
        .unwrap_or_default();
    names.sort_by_key(|n| (n.ends_with("_idle"), n.clone()));
    names
}

/// The target directory (`$CARGO_TARGET_DIR` or `target/`).
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target"))
}

/// Where tests keep `componentize-py` and built Python bots, across runs.
pub fn tools_dir() -> PathBuf {
    target_dir().join("ludus-tools")
}

/// A Python virtual environment at `venv` with what `installs` put in it
/// (each the arguments of one `pip install`): made the first time, then
/// found ready (about 20 s once). Safe to call from parallel tests and
/// processes. Returns the venv's `python`.
pub fn python_venv(venv: &Path, installs: &[&[&str]]) -> Result<PathBuf, String> {
    let python = venv.join("bin").join("python");
    let ready = venv.join(".ludus-ready");
    if ready.exists() {
        return Ok(python);
    }
    ensure_python()?;
    let parent = venv.parent().ok_or("a venv has a parent folder")?;
    std::fs::create_dir_all(parent).map_err(|e| format!("creating {}: {e}", parent.display()))?;
    let lock_path = venv.with_extension("lock");
    let lock = std::fs::File::create(&lock_path)
        .map_err(|e| format!("creating {}: {e}", lock_path.display()))?;
    lock.lock()
        .map_err(|e| format!("locking {}: {e}", lock_path.display()))?;
    if ready.exists() {
        return Ok(python);
    }
    if venv.exists() {
        std::fs::remove_dir_all(venv)
            .map_err(|e| format!("removing a half-made {}: {e}", venv.display()))?;
    }
    let run = |cmd: &mut Command, what: &str| -> Result<(), String> {
        let out = cmd.output().map_err(|e| format!("{what}: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "{what} failed ({}): {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            ))
        }
    };
    run(
        Command::new("python3").args(["-m", "venv"]).arg(venv),
        "making the venv",
    )?;
    for args in installs {
        run(
            Command::new(&python)
                .args([
                    "-m",
                    "pip",
                    "install",
                    "--quiet",
                    "--disable-pip-version-check",
                ])
                .args(*args),
            &format!("pip install {}", args.join(" ")),
        )?;
    }
    std::fs::File::create(&ready).map_err(|e| format!("marking {} ready: {e}", venv.display()))?;
    Ok(python)
}

/// Installs Debian packages (as root, without prompts); used when a tool
/// the tests need is missing, so a clean machine can run them.
fn apt_install(packages: &[&str]) -> Result<(), String> {
    let apt = |args: &[&str]| -> Result<(), String> {
        let status = Command::new("apt-get")
            // Another apt (a second test binary, an operator) may hold the
            // lock for a while: wait for it rather than fail.
            .args(["-o", "DPkg::Lock::Timeout=600"])
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .stdin(std::process::Stdio::null())
            .status()
            .map_err(|e| format!("cannot run apt-get ({e}); install {packages:?} by hand"))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("`apt-get {}` failed", args.join(" ")))
        }
    };
    apt(&["update", "-q"])?;
    let mut args = vec!["install", "-y", "-q", "--no-install-recommends"];
    args.extend_from_slice(packages);
    apt(&args)
}

/// Whether clang can build a WASI reactor module with wasi-libc.
fn c_toolchain_works() -> bool {
    let dir = target_dir().join("c-toolchain-probe");
    if std::fs::create_dir_all(&dir).is_err() {
        return false;
    }
    let src = dir.join("probe.c");
    if std::fs::write(
        &src,
        "#include <stdio.h>\nint probe(void) { return puts(\"\"); }\n",
    )
    .is_err()
    {
        return false;
    }
    Command::new("clang")
        .args([
            "--target=wasm32-wasi",
            "--sysroot=/usr",
            "-O2",
            "-mexec-model=reactor",
            "-o",
        ])
        .arg(dir.join("probe.wasm"))
        .arg(&src)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Makes sure clang, lld and wasi-libc are there, installing Debian's
/// packages when they are not (once per process).
pub fn ensure_c_toolchain() -> Result<(), String> {
    static DONE: OnceLock<Result<(), String>> = OnceLock::new();
    DONE.get_or_init(|| {
        if c_toolchain_works() {
            return Ok(());
        }
        apt_install(&["clang", "lld", "wasi-libc", "libclang-rt-14-dev-wasm32"])?;
        if c_toolchain_works() {
            Ok(())
        } else {
            Err("clang cannot build for wasm32-wasi even after installing clang, lld, wasi-libc and libclang-rt-14-dev-wasm32".into())
        }
    })
    .clone()
}

/// Makes sure `python3` with `venv` is there (for `componentize-py`),
/// installing Debian's packages when it is not (once per process).
pub fn ensure_python() -> Result<(), String> {
    static DONE: OnceLock<Result<(), String>> = OnceLock::new();
    DONE.get_or_init(|| {
        let works = || {
            Command::new("python3")
                .args(["-c", "import venv, ensurepip"])
                .output()
                .is_ok_and(|o| o.status.success())
        };
        if works() {
            return Ok(());
        }
        apt_install(&["python3", "python3-venv"])?;
        if works() {
            Ok(())
        } else {
            Err(
                "python3 with venv and ensurepip is missing even after installing python3-venv"
                    .into(),
            )
        }
    })
    .clone()
}

/// Makes sure the `sqlite3` command line is there (the tests open a live
/// Ludus database with it, as operators do), installing Debian's package
/// when it is not (once per process).
pub fn ensure_sqlite3() -> Result<(), String> {
    static DONE: OnceLock<Result<(), String>> = OnceLock::new();
    DONE.get_or_init(|| {
        let works = || {
            Command::new("sqlite3")
                .arg("-version")
                .output()
                .is_ok_and(|o| o.status.success())
        };
        if works() {
            return Ok(());
        }
        apt_install(&["sqlite3"])?;
        if works() {
            Ok(())
        } else {
            Err("the sqlite3 command line is missing even after installing Debian's sqlite3".into())
        }
    })
    .clone()
}
