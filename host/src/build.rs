//! Building bots from source (`ludus build-bot`): a Python file into a
//! component of the `ludus:bot` world with `componentize-py`, or a C file
//! into a core module with clang and wasi-libc.
//!
//! Python builds take about 20 s and are not bit-reproducible (the
//! interpreter snapshot differs from build to build), so they are cached by
//! the sha256 of everything that goes in: the same source gives the same
//! `.wasm`, hence the same bot identity, on this machine.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The pinned `componentize-py`, installed from PyPI on first use.
pub const COMPONENTIZE_PY_VERSION: &str = "0.25.1";

/// The WIT world every component bot implements.
pub const WIT: &str = include_str!("../wit/ludus-bot.wit");

/// The wrapper module: `act(state: string) -> string` around the author's `act(state)`.
pub const PYTHON_WRAPPER: &str = include_str!("../python/ludus_bot_main.py");

#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("{0}")]
    Tool(String),
    #[error("`{path}` is neither a Python (.py) nor a C (.c) file")]
    UnknownLanguage { path: PathBuf },
}

/// `$LUDUS_TOOLS_DIR`, else `$XDG_CACHE_HOME/ludus/tools`, else `~/.cache/ludus/tools`.
pub fn default_tools_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("LUDUS_TOOLS_DIR") {
        return PathBuf::from(d);
    }
    std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir)
        .join("ludus")
        .join("tools")
}

/// Builds the bot at `source` (by its extension) into `out`.
pub fn build_bot(source: &Path, out: &Path, tools_dir: &Path) -> Result<(), BuildError> {
    match source.extension().and_then(|e| e.to_str()) {
        Some("py") => {
            let wasm = build_python(source, tools_dir)?;
            std::fs::copy(wasm, out)?;
            Ok(())
        }
        Some("c") => build_c(source, out),
        _ => Err(BuildError::UnknownLanguage {
            path: source.to_path_buf(),
        }),
    }
}

fn run(cmd: &mut Command, what: &str) -> Result<(), BuildError> {
    let output = cmd
        .output()
        .map_err(|e| BuildError::Tool(format!("cannot run {what}: {e}")))?;
    if output.status.success() {
        return Ok(());
    }
    Err(BuildError::Tool(format!(
        "{what} failed ({}):\n{}{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )))
}

/// The Python interpreter that hosts `componentize-py`: `$LUDUS_PYTHON`, else `python3`.
fn python() -> String {
    std::env::var("LUDUS_PYTHON").unwrap_or_else(|_| "python3".into())
}

/// Installs `componentize-py` into a virtual environment under `tools_dir`
/// (once) and returns the environment's interpreter.
pub fn componentize_py(tools_dir: &Path) -> Result<PathBuf, BuildError> {
    let venv = tools_dir.join(format!("componentize-py-{COMPONENTIZE_PY_VERSION}"));
    let interpreter = venv.join("bin").join("python");
    if interpreter.exists() {
        return Ok(interpreter);
    }
    std::fs::create_dir_all(tools_dir)?;
    // Built aside and renamed into place, so concurrent builds never see half an install.
    let tmp = tools_dir.join(format!(".venv-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    run(
        Command::new(python()).args(["-m", "venv"]).arg(&tmp),
        "python3 -m venv (install Python 3.10 or later, with venv)",
    )?;
    run(
        Command::new(tmp.join("bin").join("python"))
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
            ])
            .arg(format!("componentize-py=={COMPONENTIZE_PY_VERSION}")),
        "pip install componentize-py",
    )?;
    if let Err(e) = std::fs::rename(&tmp, &venv) {
        let _ = std::fs::remove_dir_all(&tmp);
        if !interpreter.exists() {
            return Err(e.into());
        }
    }
    Ok(interpreter)
}

/// Builds a Python bot into a component and returns the path of the cached
/// `.wasm` (under `tools_dir/python-bots`, named by the sha256 of the inputs).
pub fn build_python(source: &Path, tools_dir: &Path) -> Result<PathBuf, BuildError> {
    let code = std::fs::read(source).map_err(|e| BuildError::Read {
        path: source.to_path_buf(),
        source: e,
    })?;
    let key = {
        let mut h = Sha256::new();
        for part in [
            COMPONENTIZE_PY_VERSION.as_bytes(),
            WIT.as_bytes(),
            PYTHON_WRAPPER.as_bytes(),
            &code,
        ] {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part);
        }
        hex::encode(&h.finalize()[..16])
    };
    let cache = tools_dir.join("python-bots");
    let out = cache.join(format!("{key}.wasm"));
    if out.exists() {
        return Ok(out);
    }
    let interpreter = componentize_py(tools_dir)?;
    let work = tempdir(tools_dir)?;
    let result = (|| {
        std::fs::create_dir_all(work.join("wit"))?;
        std::fs::write(work.join("wit").join("ludus-bot.wit"), WIT)?;
        std::fs::write(work.join("ludus_bot_main.py"), PYTHON_WRAPPER)?;
        std::fs::write(work.join("ludus_user_bot.py"), &code)?;
        let wasm = work.join("bot.wasm");
        run(
            Command::new(&interpreter)
                .current_dir(&work)
                .args([
                    "-c",
                    "import sys; from componentize_py import script; \
                     sys.argv[0] = 'componentize-py'; sys.exit(script())",
                ])
                .args(["-q", "-d", "wit", "-w", "bot", "componentize"])
                .args(["-p", ".", "ludus_bot_main", "-o"])
                .arg(&wasm),
            "componentize-py",
        )?;
        std::fs::create_dir_all(&cache)?;
        std::fs::rename(&wasm, &out)?;
        Ok(())
    })();
    let _ = std::fs::remove_dir_all(&work);
    result.map(|()| out)
}

fn tempdir(parent: &Path) -> std::io::Result<PathBuf> {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = parent.join(format!(
        ".build-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// The C compiler: `$LUDUS_CC`, else `clang`.
fn cc() -> String {
    std::env::var("LUDUS_CC").unwrap_or_else(|_| "clang".into())
}

/// The clang arguments for a core-module bot (a WASI reactor exporting the ABI).
pub const C_FLAGS: &[&str] = &[
    "--target=wasm32-wasi",
    "--sysroot=/usr",
    "-O2",
    "-mexec-model=reactor",
    "-Wl,--strip-debug",
];

/// Builds a C bot into a core module with clang and wasi-libc (on Debian:
/// `apt-get install clang lld wasi-libc libclang-rt-14-dev-wasm32`).
pub fn build_c(source: &Path, out: &Path) -> Result<(), BuildError> {
    run(
        Command::new(cc())
            .args(C_FLAGS)
            .arg("-o")
            .arg(out)
            .arg(source),
        "clang (on Debian: apt-get install clang lld wasi-libc libclang-rt-14-dev-wasm32)",
    )
}
