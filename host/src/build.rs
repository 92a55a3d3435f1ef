//! Building bots from source (`ludus build-bot`): a Python file into a
//! component of the `ludus:bot` world with `componentize-py`, a Kaggle
//! agent (Kore or Halite, as submitted to Kaggle) likewise with
//! kaggle-environments' helpers (`kaggle`), or a C file into a core module
//! with clang and wasi-libc.
//!
//! Python builds take about 20 s and are not bit-reproducible (the
//! interpreter snapshot differs from build to build), so they are cached by
//! the sha256 of everything that goes in (the source's file name included,
//! which the bot's tracebacks show): the same source gives the same `.wasm`,
//! hence the same bot identity, on this machine.
//!
//! Before anything is built, Python's own parser reads the source
//! (`host/python/ludus_build.py`, see [`scan`]): an import a bot cannot
//! have (numpy, anything with native code) is refused naming the file and
//! line, and a file that defines `agent` and no `act` is told apart as a
//! Kaggle agent.

pub mod kaggle;
mod kaggle_game;
pub mod scan;
pub mod submission;

use kaggle::KaggleGame;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use submission::Submission;

/// The pinned `componentize-py`, installed from PyPI on first use.
pub const COMPONENTIZE_PY_VERSION: &str = "0.25.1";

/// The WIT world every component bot implements.
pub const WIT: &str = include_str!("../wit/ludus-bot.wit");

/// The wrapper module: `act(state: string) -> string` around the author's `act(state)`.
pub const PYTHON_WRAPPER: &str = include_str!("../python/ludus_bot_main.py");

/// How every wrapper runs a turn (`ludus_turn.py`): reseeding `random`
/// first, the traceback of an exception to the log.
pub const PYTHON_TURN: &str = include_str!("../python/ludus_turn.py");

/// The build-time helper: the import scan, the helpers' extraction.
pub const BUILD_SCRIPT: &str = include_str!("../python/ludus_build.py");

/// What componentize-py's output carries when the bot's own build-time
/// imports fail (see `ludus_kaggle_main.py`): the rest of that line is the
/// message for the user.
const BUILD_ERROR_MARKER: &str = "ludus-build-error: ";

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
    #[error("`{path}` is neither a Python (.py) nor a C (.c) file, nor a Kaggle submission (a folder or .tar.gz with main.py)")]
    UnknownLanguage { path: PathBuf },
    /// The source is not a bot as it stands; the message says why and what to do.
    #[error("{path}: {message}")]
    Invalid { path: PathBuf, message: String },
    #[error("{file} line {line}: SyntaxError: {message}")]
    Syntax {
        file: String,
        line: u32,
        message: String,
    },
    /// An import the bot cannot have.
    #[error("{file} line {line} imports {module}: {reason}")]
    Import {
        file: String,
        line: u32,
        module: String,
        reason: String,
    },
    /// The bot's build-time imports failed inside componentize-py.
    #[error("{0}")]
    Refused(String),
}

impl BuildError {
    fn invalid(path: &Path, message: impl Into<String>) -> Self {
        BuildError::Invalid {
            path: path.to_path_buf(),
            message: message.into(),
        }
    }
}

/// How to build: `kaggle` says the source is a Kaggle agent for that game
/// (else a `.py` file that defines `agent` and no `act` is taken for one,
/// and a folder or `.tar.gz` always is); `on_step` hears of each long step
/// as it starts.
#[derive(Debug, Clone, Default)]
pub struct BuildOptions {
    pub kaggle: Option<KaggleGame>,
    pub on_step: OnStep,
}

/// A step of a build that takes a while (seconds to minutes), announced as
/// it starts so that a person waiting knows what for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Installing componentize-py from PyPI into a virtual environment in
    /// `dir`: once per tools folder.
    InstallComponentizePy { dir: PathBuf },
    /// Downloading kaggle-environments from PyPI for its helpers: once per
    /// tools folder.
    DownloadKaggleHelpers,
    /// Running componentize-py on the bot (about 20 s; a source built
    /// before comes from the cache without it).
    Componentize,
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Step::InstallComponentizePy { dir } => write!(
                f,
                "installing componentize-py {COMPONENTIZE_PY_VERSION} from PyPI into {} (the first build only)",
                dir.display()
            ),
            Step::DownloadKaggleHelpers => write!(
                f,
                "downloading kaggle-environments {} from PyPI for its helpers (the first Kaggle build only)",
                kaggle::KAGGLE_ENVIRONMENTS_VERSION
            ),
            Step::Componentize => write!(
                f,
                "building the component with componentize-py (about 20 s; the same source again comes from the cache)"
            ),
        }
    }
}

/// What hears of a step.
type Listener = Arc<dyn Fn(&Step) + Send + Sync>;

/// Who hears of a build's long [`Step`]s; nobody by default.
#[derive(Clone, Default)]
pub struct OnStep(Option<Listener>);

impl OnStep {
    pub fn new(f: impl Fn(&Step) + Send + Sync + 'static) -> OnStep {
        OnStep(Some(Arc::new(f)))
    }

    fn report(&self, step: Step) {
        if let Some(f) = &self.0 {
            f(&step)
        }
    }
}

impl std::fmt::Debug for OnStep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "OnStep(..)"
        } else {
            "OnStep(none)"
        })
    }
}

/// Where `ludus build-bot` writes a bot it is not told where to: the
/// source's name with `.wasm`, in the current folder (`bot.py` and
/// `agents/bot.c` give `bot.wasm`, a folder `my_agent/` or
/// `my_agent.tar.gz` gives `my_agent.wasm`).
pub fn wasm_name(source: &Path) -> PathBuf {
    // `.` and `..` have no name of their own: their folder's is used.
    let name = source
        .file_name()
        .map(PathBuf::from)
        .or_else(|| source.canonicalize().ok()?.file_name().map(PathBuf::from))
        .map_or_else(|| "bot".to_string(), |n| n.to_string_lossy().into_owned());
    let stem = if source.is_dir() {
        name.as_str()
    } else if let Some(stem) = name
        .strip_suffix(".tar.gz")
        .or_else(|| name.strip_suffix(".tgz"))
    {
        stem
    } else {
        name.rsplit_once('.')
            .filter(|(stem, _)| !stem.is_empty())
            .map_or(name.as_str(), |(stem, _)| stem)
    };
    PathBuf::from(format!("{stem}.wasm"))
}

/// What was built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Built {
    /// A `def act(state)` Python bot.
    Python,
    /// A Kaggle agent for that game.
    Kaggle(KaggleGame),
    C,
}

/// `$LUDUS_TOOLS_DIR`, else `tools` in [`crate::cache_dir`]
/// (`~/.cache/ludus/tools` on Linux), else, without a home folder, in the
/// temporary folder: a build needs its tools somewhere.
pub fn default_tools_dir() -> PathBuf {
    crate::cache_dir::cache_subdir("LUDUS_TOOLS_DIR", "tools")
        .unwrap_or_else(|| std::env::temp_dir().join("ludus").join("tools"))
}

/// Builds the bot at `source` into `out`: a `.c` file, a `.py` file (a
/// Ludus bot or a Kaggle agent), or a Kaggle submission's folder or
/// `.tar.gz`.
pub fn build_bot(
    source: &Path,
    out: &Path,
    tools_dir: &Path,
    options: &BuildOptions,
) -> Result<Built, BuildError> {
    let extension = source.extension().and_then(|e| e.to_str());
    let on_step = &options.on_step;
    if source.is_dir() || submission::is_archive(source) {
        let submission = Submission::read(source)?;
        return build_kaggle_to(&submission, options.kaggle, out, tools_dir, on_step);
    }
    match extension {
        Some("py") => {
            let interpreter = install_componentize_py(tools_dir, on_step)?;
            let submission = Submission::read(source)?;
            if options.kaggle.is_some() {
                return build_kaggle_to(&submission, options.kaggle, out, tools_dir, on_step);
            }
            let scan = kaggle::scan_submission(&interpreter, &submission, tools_dir)?;
            let main = &scan.files["main.py"];
            if main.syntax_error.is_none() && main.defines("agent") && !main.defines("act") {
                return build_kaggle_to(&submission, None, out, tools_dir, on_step);
            }
            let wasm = python_bot(source, tools_dir, on_step)?;
            std::fs::copy(wasm, out)?;
            Ok(Built::Python)
        }
        Some("c") if options.kaggle.is_none() => {
            build_c(source, out)?;
            Ok(Built::C)
        }
        Some("c") => Err(BuildError::invalid(
            source,
            "--kaggle takes a Kaggle submission: main.py, its folder or a .tar.gz",
        )),
        _ => Err(BuildError::UnknownLanguage {
            path: source.to_path_buf(),
        }),
    }
}

fn build_kaggle_to(
    submission: &Submission,
    game: Option<KaggleGame>,
    out: &Path,
    tools_dir: &Path,
    on_step: &OnStep,
) -> Result<Built, BuildError> {
    let (wasm, game) = kaggle::kaggle_bot(submission, game, tools_dir, on_step)?;
    std::fs::copy(wasm, out)?;
    Ok(Built::Kaggle(game))
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
    install_componentize_py(tools_dir, &OnStep::default())
}

/// [`componentize_py`], announcing the install to `on_step`.
fn install_componentize_py(tools_dir: &Path, on_step: &OnStep) -> Result<PathBuf, BuildError> {
    let venv = tools_dir.join(format!("componentize-py-{COMPONENTIZE_PY_VERSION}"));
    let interpreter = venv.join("bin").join("python");
    if interpreter.exists() {
        return Ok(interpreter);
    }
    on_step.report(Step::InstallComponentizePy {
        dir: tools_dir.to_path_buf(),
    });
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

/// The sha256 (first 16 bytes, hex) of `parts`, each length-prefixed.
fn cache_key(parts: &[&[u8]]) -> String {
    let mut h = Sha256::new();
    for part in parts {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part);
    }
    hex::encode(&h.finalize()[..16])
}

/// Writes the build-time helper script into `dir` and returns its path.
fn write_build_script(dir: &Path) -> std::io::Result<PathBuf> {
    let path = dir.join("ludus_build.py");
    std::fs::write(&path, BUILD_SCRIPT)?;
    Ok(path)
}

/// Runs componentize-py in `work` on the module `module` found under
/// `python_path`, writing the component to `out` (via `work`). A failure of
/// the bot's own build-time imports comes back as their one-line message.
fn componentize(
    interpreter: &Path,
    work: &Path,
    python_path: &Path,
    module: &str,
    out: &Path,
    on_step: &OnStep,
) -> Result<(), BuildError> {
    on_step.report(Step::Componentize);
    std::fs::create_dir_all(work.join("wit"))?;
    std::fs::write(work.join("wit").join("ludus-bot.wit"), WIT)?;
    let wasm = work.join("bot.wasm");
    let result = run(
        Command::new(interpreter)
            .current_dir(work)
            .args([
                "-c",
                "import sys; from componentize_py import script; \
                 sys.argv[0] = 'componentize-py'; sys.exit(script())",
            ])
            .args(["-q", "-d", "wit", "-w", "bot", "componentize", "-p"])
            .arg(python_path)
            .arg(module)
            .arg("-o")
            .arg(&wasm),
        "componentize-py",
    );
    if let Err(BuildError::Tool(output)) = &result {
        if let Some(message) = output
            .lines()
            .find_map(|l| l.split_once(BUILD_ERROR_MARKER).map(|(_, m)| m))
        {
            return Err(BuildError::Refused(message.trim().to_string()));
        }
    }
    result?;
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::rename(&wasm, out)?;
    Ok(())
}

/// Builds a Python bot into a component and returns the path of the cached
/// `.wasm` (under `tools_dir/python-bots`, named by the sha256 of the inputs).
pub fn build_python(source: &Path, tools_dir: &Path) -> Result<PathBuf, BuildError> {
    python_bot(source, tools_dir, &OnStep::default())
}

/// [`build_python`], announcing its long steps to `on_step`.
fn python_bot(source: &Path, tools_dir: &Path, on_step: &OnStep) -> Result<PathBuf, BuildError> {
    let code = std::fs::read(source).map_err(|e| BuildError::Read {
        path: source.to_path_buf(),
        source: e,
    })?;
    let wrapper = python_wrapper(&author_file_name(source));
    let key = cache_key(&[
        COMPONENTIZE_PY_VERSION.as_bytes(),
        WIT.as_bytes(),
        wrapper.as_bytes(),
        PYTHON_TURN.as_bytes(),
        &code,
    ]);
    let out = tools_dir.join("python-bots").join(format!("{key}.wasm"));
    if out.exists() {
        return Ok(out);
    }
    let interpreter = install_componentize_py(tools_dir, on_step)?;
    let work = tempdir(tools_dir)?;
    let result = (|| {
        let src = work.join("src");
        std::fs::create_dir_all(&src)?;
        std::fs::write(src.join("ludus_user_bot.py"), &code)?;
        check_python_bot(&interpreter, &work, &src, source)?;
        std::fs::write(src.join("ludus_bot_main.py"), &wrapper)?;
        std::fs::write(src.join("ludus_turn.py"), PYTHON_TURN)?;
        componentize(&interpreter, &work, &src, "ludus_bot_main", &out, on_step)
    })();
    let _ = std::fs::remove_dir_all(&work);
    result.map(|()| out)
}

/// The line of [`PYTHON_WRAPPER`] that names the author's file.
const AUTHOR_FILE_LINE: &str = "AUTHOR_FILE = \"bot.py\"\n";

/// The name the author knows their Python file by: its file name, which the
/// built bot's tracebacks and faults show (never the folders above it, which
/// are the building machine's).
fn author_file_name(source: &Path) -> String {
    source.file_name().map_or_else(
        || "bot.py".to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// [`PYTHON_WRAPPER`] for the author's file `file`.
fn python_wrapper(file: &str) -> String {
    // A JSON string is a Python string literal too.
    let literal = serde_json::to_string(file).expect("a string serialises");
    PYTHON_WRAPPER.replacen(AUTHOR_FILE_LINE, &format!("AUTHOR_FILE = {literal}\n"), 1)
}

/// The checks of a `def act(state)` bot before it is built: it parses, it
/// defines `act`, and it imports nothing a bot cannot have.
fn check_python_bot(
    interpreter: &Path,
    work: &Path,
    src: &Path,
    source: &Path,
) -> Result<(), BuildError> {
    let scan = scan::scan(interpreter, &write_build_script(work)?, src)?;
    let file = source.file_name().map_or_else(
        || source.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let bot = &scan.files["ludus_user_bot.py"];
    if let Some(e) = &bot.syntax_error {
        return Err(BuildError::Syntax {
            file,
            line: e.line,
            message: e.message.clone(),
        });
    }
    if !bot.defines("act") {
        return Err(BuildError::invalid(
            source,
            "defines no `act`: a Python bot is `def act(state)` (a Kaggle agent `def agent(obs, config)`, built with --kaggle kore or --kaggle halite)",
        ));
    }
    scan::preimports([(&file, bot)], scan::Carries::Nothing)?;
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::wasm_name;
    use std::path::{Path, PathBuf};

    #[test]
    fn the_python_wrapper_names_the_authors_file_as_a_python_string() {
        use super::{python_wrapper, AUTHOR_FILE_LINE, PYTHON_WRAPPER};
        assert_eq!(PYTHON_WRAPPER.matches(AUTHOR_FILE_LINE).count(), 1);
        let wrapper = python_wrapper("my \"odd\" bot.py");
        assert!(
            wrapper.contains("\nAUTHOR_FILE = \"my \\\"odd\\\" bot.py\"\n"),
            "{wrapper}"
        );
        assert!(!wrapper.contains(AUTHOR_FILE_LINE));
    }

    #[test]
    fn a_bot_is_written_under_its_sources_name_in_the_current_folder() {
        let named = |p: &str| wasm_name(Path::new(p));
        assert_eq!(named("bot.py"), PathBuf::from("bot.wasm"));
        assert_eq!(named("agents/alpha.c"), PathBuf::from("alpha.wasm"));
        assert_eq!(named("agents/beta.tar.gz"), PathBuf::from("beta.wasm"));
        assert_eq!(named("gamma.tgz"), PathBuf::from("gamma.wasm"));
        assert_eq!(named(".hidden"), PathBuf::from(".hidden.wasm"));
        let dir = tempfile::tempdir().unwrap();
        let agent = dir.path().join("my.agent");
        std::fs::create_dir(&agent).unwrap();
        assert_eq!(wasm_name(&agent), PathBuf::from("my.agent.wasm"));
        assert_eq!(wasm_name(&agent.join(".")), PathBuf::from("my.agent.wasm"));
        assert_eq!(
            wasm_name(&agent.join("..")),
            PathBuf::from(format!(
                "{}.wasm",
                dir.path()
                    .canonicalize()
                    .unwrap()
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
            ))
        );
    }
}
