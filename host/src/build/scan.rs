//! What a Python bot's source imports and defines, read without running it
//! (`host/python/ludus_build.py scan`, Python's own parser), and which of
//! those imports a bot can have.
//!
//! A bot is CPython compiled to WebAssembly: it has the standard library
//! (less the modules that need an operating system), the modules built into
//! it, and whatever the build bundles, but no native extensions. So an
//! import of numpy is refused here, at build time, naming the file and
//! line; a standard module that cannot load in WebAssembly (`ctypes`) is
//! found when the build imports it, and reported the same way.

use super::kaggle_game::KaggleGame;
use super::submission::Modules;
use super::BuildError;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// The scan of every `.py` file under a folder, by relative path.
#[derive(Debug, Clone, Deserialize)]
pub struct Scan {
    pub files: BTreeMap<String, FileScan>,
}

/// One file: its top-level names, its imports, or its syntax error.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct FileScan {
    /// Names bound at the top level, in order.
    pub names: Vec<String>,
    /// Whether any top-level statement may bind a callable (a `def`, a
    /// `class`, a `from` import, an assignment of a call or lambda).
    pub defines_callable: bool,
    pub imports: Vec<Import>,
    pub syntax_error: Option<SyntaxError>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct SyntaxError {
    pub line: u32,
    pub message: String,
}

/// `import module` or `from module import names` (`level` dots before it).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Import {
    pub module: String,
    /// The names of `from ... import names` (`None` for `import module`,
    /// empty for `import *`).
    pub names: Option<Vec<String>>,
    pub level: u32,
    pub line: u32,
    /// Inside a `try` whose `except` catches a failed import.
    pub optional: bool,
    /// The top-level package is in Python's standard library.
    pub stdlib: bool,
}

impl FileScan {
    pub fn defines(&self, name: &str) -> bool {
        self.names.iter().any(|n| n == name)
    }
}

/// Runs the scan over `root` with `python` (the interpreter that hosts
/// componentize-py).
pub fn scan(python: &Path, script: &Path, root: &Path) -> Result<Scan, BuildError> {
    let output = Command::new(python)
        .arg(script)
        .arg("scan")
        .arg(root)
        .output()
        .map_err(|e| BuildError::Tool(format!("cannot run the import scan: {e}")))?;
    if !output.status.success() {
        return Err(BuildError::Tool(format!(
            "the import scan failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        )));
    }
    serde_json::from_slice(&output.stdout)
        .map_err(|e| BuildError::Tool(format!("the import scan printed no scan: {e}")))
}

/// The kind of bot whose imports are checked: what it carries besides the
/// standard library.
#[derive(Debug, Clone, Copy)]
pub enum Carries<'a> {
    /// A `def act(state)` bot: one file, nothing else.
    Nothing,
    /// A Kaggle agent: kaggle-environments' helpers for its game, and the
    /// submission's own modules.
    Kaggle {
        game: KaggleGame,
        modules: &'a Modules,
    },
}

/// An import the build makes so that it is in the bot (componentize-py
/// snapshots the interpreter with everything imported).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Preimport {
    pub module: String,
    /// Names taken with `from`: each must be in the module or a submodule.
    pub names: Vec<String>,
    /// `main.py line 3`, for the build error if it fails.
    pub r#where: String,
    /// A failure is handled by the source (`try ... except ImportError`).
    pub optional: bool,
}

/// Packages with native code that bot authors reach for.
const NATIVE_PACKAGES: &[&str] = &[
    "numpy",
    "scipy",
    "pandas",
    "torch",
    "tensorflow",
    "keras",
    "jax",
    "sklearn",
    "numba",
    "cv2",
    "PIL",
    "lightgbm",
    "xgboost",
    "catboost",
    "cython",
    "Cython",
    "tflite_runtime",
    "onnxruntime",
];

/// The import `imp` of `file`: `Ok(None)` when nothing is to be made at
/// build time (the submission's own module), the import to make, or why
/// the bot cannot have it.
pub fn check_import(
    file: &str,
    imp: &Import,
    carries: Carries,
) -> Result<Option<Preimport>, BuildError> {
    if imp.level > 0 {
        // Relative: the submission's own package.
        return Ok(None);
    }
    let top = imp.module.split('.').next().unwrap_or("");
    let preimport = || {
        Some(Preimport {
            module: imp.module.clone(),
            names: imp.names.clone().unwrap_or_default(),
            r#where: format!("{file} line {}", imp.line),
            optional: imp.optional,
        })
    };
    // The standard library comes first on `sys.path`, before the agent's folder.
    if imp.stdlib {
        return Ok(preimport());
    }
    if let Carries::Kaggle { modules, .. } = carries {
        if modules.contains(top) {
            return Ok(None);
        }
    }
    let refuse = |reason: String| -> Result<Option<Preimport>, BuildError> {
        if imp.optional {
            // The source handles the failure: the import fails in the bot as
            // it would wherever the module is missing.
            return Ok(None);
        }
        Err(BuildError::Import {
            file: file.to_string(),
            line: imp.line,
            module: imp.module.clone(),
            reason,
        })
    };
    if top == "kaggle_environments" {
        return match carries {
            Carries::Nothing => refuse(
                "a `def act(state)` bot carries no kaggle-environments helpers; a Kaggle agent (`def agent(obs, config)`) does: build it with --kaggle kore or --kaggle halite".into(),
            ),
            Carries::Kaggle { game, .. } => match kaggle_import(game, imp) {
                Ok(()) => Ok(preimport()),
                Err(reason) => refuse(reason),
            },
        };
    }
    if NATIVE_PACKAGES.contains(&top) {
        return refuse(format!(
            "{top} has native code, and CPython in WebAssembly has no native extensions: a bot can use only pure-Python code (the standard library{})",
            match carries {
                Carries::Nothing => "",
                Carries::Kaggle { .. } => ", kaggle-environments' helpers and the submission's own modules",
            }
        ));
    }
    refuse(match carries {
        Carries::Nothing => format!(
            "{top} is not in Python's standard library, the only library a one-file bot has (a package with native code could not run anyway: CPython in WebAssembly has no native extensions)"
        ),
        Carries::Kaggle { .. } => format!(
            "{top} is neither in Python's standard library nor in the submission: copy a pure-Python package into the agent's folder and build the folder (a package with native code cannot run: CPython in WebAssembly has no native extensions)"
        ),
    })
}

/// Whether `imp` (of `kaggle_environments...`) names one of the helpers a
/// Kaggle agent for `game` carries; else why not.
fn kaggle_import(game: KaggleGame, imp: &Import) -> Result<(), String> {
    let env = game.env_name();
    let envs = "kaggle_environments.envs";
    let game_pkg = format!("{envs}.{env}");
    // For each module a Kaggle agent may import: the names it holds that
    // `from module import name` may take (None: any, checked when built).
    let allowed: &[(&str, Option<&[&str]>)] = &[
        (
            "kaggle_environments",
            Some(&["helpers", "envs", "__version__"]),
        ),
        ("kaggle_environments.helpers", None),
        (envs, Some(&[env])),
        (&game_pkg, Some(&["helpers"])),
        (&format!("{game_pkg}.helpers"), None),
    ];
    let helpers = format!("kaggle_environments.helpers and {game_pkg}.helpers");
    let other = match game {
        KaggleGame::Kore => KaggleGame::Halite,
        KaggleGame::Halite => KaggleGame::Kore,
    };
    if imp.module == format!("{envs}.{}", other.env_name())
        || imp
            .module
            .starts_with(&format!("{envs}.{}.", other.env_name()))
    {
        return Err(format!(
            "this bot is built as a {} agent, which carries {helpers}; build with --kaggle {} if it plays {}",
            game.game_id(),
            other.game_id(),
            other.game_id()
        ));
    }
    let unavailable = |what: &str| {
        format!(
            "{what} is not in a Ludus bot: it carries only kaggle-environments' helpers ({helpers}); the rest of the package runs the game, which Ludus does itself, and needs numpy"
        )
    };
    match allowed.iter().find(|(m, _)| *m == imp.module) {
        None => Err(unavailable(&imp.module)),
        Some((_, None)) => Ok(()),
        Some((m, Some(names))) => match imp
            .names
            .iter()
            .flatten()
            .find(|n| !names.contains(&n.as_str()))
        {
            Some(n) => Err(unavailable(&format!("{m}.{n}"))),
            None => Ok(()),
        },
    }
}

/// The build-time imports of `files` (in order, each module and name list
/// once; optional only if every occurrence is), or the first refused one.
pub fn preimports<'a>(
    files: impl IntoIterator<Item = (&'a String, &'a FileScan)>,
    carries: Carries,
) -> Result<Vec<Preimport>, BuildError> {
    let mut out: Vec<Preimport> = Vec::new();
    for (file, scan) in files {
        for imp in &scan.imports {
            let Some(p) = check_import(file, imp, carries)? else {
                continue;
            };
            match out
                .iter_mut()
                .find(|q| q.module == p.module && q.names == p.names)
            {
                Some(q) => q.optional &= p.optional,
                None => out.push(p),
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn import(module: &str, names: Option<&[&str]>, stdlib: bool) -> Import {
        Import {
            module: module.into(),
            names: names.map(|n| n.iter().map(|s| s.to_string()).collect()),
            level: 0,
            line: 3,
            optional: false,
            stdlib,
        }
    }

    fn kore(modules: &Modules) -> Carries<'_> {
        Carries::Kaggle {
            game: KaggleGame::Kore,
            modules,
        }
    }

    #[test]
    fn numpy_is_refused_naming_the_file_the_line_and_native_code() {
        let m = Modules::default();
        for carries in [Carries::Nothing, kore(&m)] {
            let err = check_import("main.py", &import("numpy", None, false), carries).unwrap_err();
            let text = err.to_string();
            assert!(text.starts_with("main.py line 3 imports numpy"), "{text}");
            assert!(text.contains("no native extensions"), "{text}");
        }
    }

    #[test]
    fn a_handled_failed_import_is_no_error() {
        let mut imp = import("numpy", None, false);
        imp.optional = true;
        assert_eq!(
            check_import("main.py", &imp, Carries::Nothing).unwrap(),
            None
        );
    }

    #[test]
    fn the_standard_library_is_imported_at_build_time() {
        let p = check_import(
            "main.py",
            &import("collections", Some(&["deque"]), true),
            Carries::Nothing,
        )
        .unwrap()
        .unwrap();
        assert_eq!(p.module, "collections");
        assert_eq!(p.names, ["deque"]);
        assert_eq!(p.r#where, "main.py line 3");
    }

    #[test]
    fn the_submissions_own_modules_are_not_imported_at_build_time() {
        let m = Modules::of(&["main.py".to_string(), "strategy.py".to_string()]);
        let imp = import("strategy", Some(&["plan"]), false);
        assert_eq!(check_import("main.py", &imp, kore(&m)).unwrap(), None);
        // A one-file bot has no such module.
        assert!(check_import("main.py", &imp, Carries::Nothing).is_err());
    }

    #[test]
    fn a_kaggle_agent_may_import_its_games_helpers_only() {
        let m = Modules::default();
        for ok in [
            import(
                "kaggle_environments.envs.kore_fleets.helpers",
                Some(&[]),
                false,
            ),
            import(
                "kaggle_environments.envs.kore_fleets",
                Some(&["helpers"]),
                false,
            ),
            import("kaggle_environments.helpers", Some(&["Point"]), false),
            import("kaggle_environments", Some(&["helpers"]), false),
        ] {
            assert!(
                check_import("main.py", &ok, kore(&m)).unwrap().is_some(),
                "{ok:?}"
            );
        }
        let err = |imp: Import| {
            check_import("main.py", &imp, kore(&m))
                .unwrap_err()
                .to_string()
        };
        let make = err(import("kaggle_environments", Some(&["make"]), false));
        assert!(
            make.contains("kaggle_environments.make is not in a Ludus bot"),
            "{make}"
        );
        let game = err(import(
            "kaggle_environments.envs.kore_fleets.kore_fleets",
            None,
            false,
        ));
        assert!(game.contains("needs numpy"), "{game}");
        let other = err(import(
            "kaggle_environments.envs.halite.helpers",
            Some(&[]),
            false,
        ));
        assert!(other.contains("--kaggle halite"), "{other}");
        let plain = check_import(
            "bot.py",
            &import("kaggle_environments.helpers", None, false),
            Carries::Nothing,
        )
        .unwrap_err()
        .to_string();
        assert!(plain.contains("--kaggle kore"), "{plain}");
    }

    #[test]
    fn each_import_is_made_once_and_required_if_any_occurrence_is() {
        let mut optional = import("json", None, true);
        optional.optional = true;
        let scan = FileScan {
            imports: vec![
                optional,
                import("json", None, true),
                import("math", None, true),
            ],
            ..FileScan::default()
        };
        let main = "main.py".to_string();
        let p = preimports([(&main, &scan)], Carries::Nothing).unwrap();
        assert_eq!(p.len(), 2);
        assert!(!p[0].optional);
    }
}
