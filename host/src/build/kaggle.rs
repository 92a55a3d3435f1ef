//! Kaggle agents as bots: a Kore 2022 or Halite IV submission, unchanged.
//!
//! The agent runs inside the component as kaggle-environments runs it
//! (`host/python/ludus_kaggle_main.py` says how, and what differs). Its
//! helpers (`Board`, `ShipyardAction`, ...) are the modules of the very
//! kaggle-environments release Ludus's engines match, downloaded from PyPI
//! once (the wheel's sha256 pinned) and bundled under their import paths,
//! inside package modules of our own (`host/python/kaggle_environments/`):
//! the package's real `__init__` registers every environment, which needs
//! numpy.

pub use super::kaggle_game::KaggleGame;
use super::scan::{self, Carries, FileScan, Scan};
use super::submission::{Modules, Submission};
use super::{
    cache_key, componentize, install_componentize_py, run, tempdir, BuildError, OnStep, Step,
    PYTHON_TURN, WIT,
};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The kaggle-environments release the Kore and Halite engines reproduce.
pub const KAGGLE_ENVIRONMENTS_VERSION: &str = "1.33.2";

/// sha256 of `kaggle_environments-1.33.2-py3-none-any.whl` on PyPI.
const WHEEL_SHA256: &str = "72b5aa61f66432950dec3e527a55d7f580f0fc2a49e7f85f168df0746727bccc";

/// The wrapper: the component's `act` around the agent.
pub const KAGGLE_WRAPPER: &str = include_str!("../../python/ludus_kaggle_main.py");

/// Our own package modules around the helpers, by path in the bot.
const PACKAGE_MODULES: &[(&str, &str)] = &[
    (
        "kaggle_environments/__init__.py",
        include_str!("../../python/kaggle_environments/__init__.py"),
    ),
    (
        "kaggle_environments/envs/__init__.py",
        include_str!("../../python/kaggle_environments/envs/__init__.py"),
    ),
    (
        "kaggle_environments/envs/kore_fleets/__init__.py",
        include_str!("../../python/kaggle_environments/envs/kore_fleets/__init__.py"),
    ),
    (
        "kaggle_environments/envs/halite/__init__.py",
        include_str!("../../python/kaggle_environments/envs/halite/__init__.py"),
    ),
];

/// The game a submission's imports of kaggle-environments' helpers show,
/// if they show exactly one.
pub fn detect_game<'a>(
    files: impl IntoIterator<Item = &'a FileScan>,
) -> Result<Option<KaggleGame>, Vec<KaggleGame>> {
    let mut found = BTreeSet::new();
    for scan in files {
        for imp in &scan.imports {
            for game in KaggleGame::ALL {
                let pkg = format!("kaggle_environments.envs.{}", game.env_name());
                if imp.module == pkg || imp.module.starts_with(&format!("{pkg}.")) {
                    found.insert(game.game_id());
                }
            }
        }
    }
    let games: Vec<KaggleGame> = found.iter().map(|g| g.parse().unwrap()).collect();
    match games.len() {
        0 => Ok(None),
        1 => Ok(Some(games[0])),
        _ => Err(games),
    }
}

/// The files `main.py` reaches through its imports of the submission's own
/// modules (and theirs), `main.py` first, then by path. Files nothing
/// imports are left out: they are neither checked nor bundled.
pub fn reachable(scan: &Scan, modules: &Modules) -> Vec<String> {
    let mut seen = BTreeSet::from(["main.py".to_string()]);
    let mut todo = vec!["main.py".to_string()];
    while let Some(file) = todo.pop() {
        let Some(fs) = scan.files.get(&file) else {
            continue;
        };
        for imp in &fs.imports {
            let Some(base) = absolute_module(&file, imp) else {
                continue;
            };
            if imp.stdlib && imp.level == 0 {
                continue;
            }
            let mut names: Vec<String> = Vec::new();
            // Every package on the way in runs its `__init__`.
            let parts: Vec<&str> = base.split('.').filter(|p| !p.is_empty()).collect();
            for i in 1..=parts.len() {
                names.push(parts[..i].join("."));
            }
            for n in imp.names.iter().flatten() {
                names.push(if base.is_empty() {
                    n.clone()
                } else {
                    format!("{base}.{n}")
                });
            }
            for name in names {
                if let Some(f) = modules.file(&name) {
                    if seen.insert(f.clone()) {
                        todo.push(f.clone());
                    }
                }
            }
        }
    }
    seen.remove("main.py");
    std::iter::once("main.py".to_string()).chain(seen).collect()
}

/// The absolute module an import in `file` names (relative imports resolved
/// against the file's package); `None` when it would leave the submission.
fn absolute_module(file: &str, imp: &scan::Import) -> Option<String> {
    if imp.level == 0 {
        return Some(imp.module.clone());
    }
    let mut package: Vec<&str> = file.trim_end_matches(".py").split('/').collect();
    package.pop(); // the module itself (or `__init__`)
    for _ in 1..imp.level {
        package.pop()?;
    }
    if !imp.module.is_empty() {
        package.push(&imp.module);
    }
    Some(package.join("."))
}

/// Downloads the kaggle-environments wheel (once, its sha256 checked) and
/// keeps only the helper modules, under `tools_dir`; returns the folder
/// that holds `kaggle_environments/`.
pub fn helpers_dir(interpreter: &Path, tools_dir: &Path) -> Result<PathBuf, BuildError> {
    download_helpers(interpreter, tools_dir, &OnStep::default())
}

/// [`helpers_dir`], announcing the download to `on_step`.
fn download_helpers(
    interpreter: &Path,
    tools_dir: &Path,
    on_step: &OnStep,
) -> Result<PathBuf, BuildError> {
    let dir = tools_dir.join(format!(
        "kaggle-environments-{KAGGLE_ENVIRONMENTS_VERSION}-helpers"
    ));
    if dir.join("kaggle_environments").exists() {
        return Ok(dir);
    }
    on_step.report(Step::DownloadKaggleHelpers);
    let tmp = tempdir(tools_dir)?;
    let result = (|| {
        let requirements = tmp.join("requirements.txt");
        std::fs::write(
            &requirements,
            format!(
                "kaggle-environments=={KAGGLE_ENVIRONMENTS_VERSION} --hash=sha256:{WHEEL_SHA256}\n"
            ),
        )?;
        run(
            Command::new(interpreter)
                .args([
                    "-m",
                    "pip",
                    "download",
                    "--quiet",
                    "--disable-pip-version-check",
                ])
                .args(["--no-deps", "--only-binary=:all:", "--require-hashes", "-r"])
                .arg(&requirements)
                .arg("-d")
                .arg(tmp.join("wheel")),
            &format!("pip download kaggle-environments=={KAGGLE_ENVIRONMENTS_VERSION}"),
        )?;
        let wheel = tmp.join("wheel").join(format!(
            "kaggle_environments-{KAGGLE_ENVIRONMENTS_VERSION}-py3-none-any.whl"
        ));
        let out = tmp.join("helpers");
        run(
            Command::new(interpreter)
                .arg(super::write_build_script(&tmp)?)
                .arg("extract-helpers")
                .arg(&wheel)
                .arg(&out),
            "extracting the helpers from the kaggle-environments wheel",
        )?;
        // Built aside and renamed into place: concurrent builds never see half of it.
        if let Err(e) = std::fs::rename(&out, &dir) {
            if !dir.join("kaggle_environments").exists() {
                return Err(e.into());
            }
        }
        Ok(())
    })();
    let _ = std::fs::remove_dir_all(&tmp);
    result.map(|()| dir)
}

/// Everything that goes into one Kaggle agent's bot besides the fixed
/// wrapper: the submission's sources and how to import them, and the
/// imports to make at build time.
#[derive(Debug, serde::Serialize)]
struct Manifest<'a> {
    sources: BTreeMap<&'a str, &'a str>,
    modules: BTreeMap<&'a str, &'a str>,
    packages: BTreeMap<&'a str, Option<&'a str>>,
    imports: Vec<scan::Preimport>,
}

/// What a scanned submission builds into, before anything is built: the
/// game and the generated module with everything the wrapper needs.
pub struct Plan {
    pub game: KaggleGame,
    /// `ludus_kaggle_submission.py`.
    pub submission_module: String,
}

/// Checks a scanned submission and plans its bot: the game (`game`, else
/// detected from its imports), the files `main.py` reaches, their imports.
pub fn plan(
    submission: &Submission,
    scan: &Scan,
    game: Option<KaggleGame>,
) -> Result<Plan, BuildError> {
    let origin = &submission.origin;
    let modules = Modules::of(submission.files.keys());
    let files = reachable(scan, &modules);
    let scans: Vec<(&String, &FileScan)> = files
        .iter()
        .filter_map(|f| scan.files.get_key_value(f))
        .collect();
    for (file, fs) in &scans {
        if let Some(e) = &fs.syntax_error {
            return Err(BuildError::Syntax {
                file: submission.shown(file),
                line: e.line,
                message: e.message.clone(),
            });
        }
    }
    let main = &scan.files["main.py"];
    if !main.defines_callable {
        return Err(BuildError::invalid(
            origin,
            "defines no function: Kaggle calls the last callable main.py defines, usually `def agent(obs, config)`",
        ));
    }
    let game = match game {
        Some(g) => g,
        None => match detect_game(scans.iter().map(|(_, s)| *s)) {
            Ok(Some(g)) => g,
            Ok(None) => return Err(BuildError::invalid(
                origin,
                "cannot tell which game this Kaggle agent plays: it imports neither kaggle_environments.envs.kore_fleets nor kaggle_environments.envs.halite; build with --kaggle kore or --kaggle halite",
            )),
            Err(both) => return Err(BuildError::invalid(
                origin,
                format!(
                    "the agent imports the helpers of {} and {}: build with --kaggle and the game it plays",
                    both[0], both[1]
                ),
            )),
        },
    };
    let shown: Vec<String> = scans.iter().map(|(f, _)| submission.shown(f)).collect();
    let imports = scan::preimports(
        shown.iter().zip(scans.iter().map(|(_, s)| *s)),
        Carries::Kaggle {
            game,
            modules: &modules,
        },
    )?;
    let included: BTreeSet<&str> = files.iter().map(|f| f.as_str()).collect();
    let manifest = Manifest {
        sources: submission
            .files
            .iter()
            .filter(|(f, _)| included.contains(f.as_str()))
            .map(|(f, t)| (f.as_str(), t.as_str()))
            .collect(),
        modules: modules
            .modules
            .iter()
            .filter(|(_, f)| included.contains(f.as_str()))
            .map(|(m, f)| (m.as_str(), f.as_str()))
            .collect(),
        // The packages on the way to a bundled module.
        packages: modules
            .packages
            .iter()
            .map(|(p, f)| (p.as_str(), f.as_deref().filter(|f| included.contains(f))))
            .filter(|(p, init)| {
                init.is_some()
                    || modules.modules.iter().any(|(m, f)| {
                        included.contains(f.as_str()) && m.starts_with(&format!("{p}."))
                    })
            })
            .collect(),
        imports,
    };
    let json = serde_json::to_string(&manifest).expect("a manifest is JSON");
    // A JSON string literal is a Python string literal too.
    let literal = serde_json::to_string(&json).expect("a string is JSON");
    Ok(Plan {
        game,
        submission_module: format!(
            "\"\"\"The submission, written by `ludus build-bot` (see ludus_kaggle_main).\"\"\"\n\nMANIFEST = {literal}\n"
        ),
    })
}

/// Scans a submission's sources with Python's parser.
pub fn scan_submission(
    interpreter: &Path,
    submission: &Submission,
    tools_dir: &Path,
) -> Result<Scan, BuildError> {
    let work = tempdir(tools_dir)?;
    let result = (|| {
        let src = work.join("submission");
        submission.write_to(&src)?;
        let script = super::write_build_script(&work)?;
        scan::scan(interpreter, &script, &src)
    })();
    let _ = std::fs::remove_dir_all(&work);
    result
}

/// Builds a Kaggle agent into a component; returns the cached `.wasm`
/// (under `tools_dir/python-bots`, named by the sha256 of everything that
/// goes in) and the game it plays.
pub fn build_kaggle(
    submission: &Submission,
    game: Option<KaggleGame>,
    tools_dir: &Path,
) -> Result<(PathBuf, KaggleGame), BuildError> {
    kaggle_bot(submission, game, tools_dir, &OnStep::default())
}

/// [`build_kaggle`], announcing its long steps to `on_step`.
pub(super) fn kaggle_bot(
    submission: &Submission,
    game: Option<KaggleGame>,
    tools_dir: &Path,
    on_step: &OnStep,
) -> Result<(PathBuf, KaggleGame), BuildError> {
    let interpreter = install_componentize_py(tools_dir, on_step)?;
    let scan = scan_submission(&interpreter, submission, tools_dir)?;
    let plan = plan(submission, &scan, game)?;
    build_planned(&interpreter, &plan, tools_dir, on_step)
}

fn build_planned(
    interpreter: &Path,
    plan: &Plan,
    tools_dir: &Path,
    on_step: &OnStep,
) -> Result<(PathBuf, KaggleGame), BuildError> {
    let mut parts: Vec<&[u8]> = vec![
        b"kaggle",
        KAGGLE_ENVIRONMENTS_VERSION.as_bytes(),
        WIT.as_bytes(),
        KAGGLE_WRAPPER.as_bytes(),
        PYTHON_TURN.as_bytes(),
        plan.game.game_id().as_bytes(),
        plan.submission_module.as_bytes(),
    ];
    for (path, text) in PACKAGE_MODULES {
        parts.extend([path.as_bytes(), text.as_bytes()]);
    }
    let cache = tools_dir.join("python-bots");
    let out = cache.join(format!("{}.wasm", cache_key(&parts)));
    if out.exists() {
        return Ok((out, plan.game));
    }
    let helpers = download_helpers(interpreter, tools_dir, on_step)?;
    let work = tempdir(tools_dir)?;
    let result = (|| {
        let bundle = work.join("bundle");
        for (path, text) in PACKAGE_MODULES {
            let is_other_game = KaggleGame::ALL
                .iter()
                .any(|g| *g != plan.game && path.contains(&format!("/{}/", g.env_name())));
            if !is_other_game {
                write(&bundle.join(path), text.as_bytes())?;
            }
        }
        for helper in [
            "kaggle_environments/helpers.py".to_string(),
            format!(
                "kaggle_environments/envs/{}/helpers.py",
                plan.game.env_name()
            ),
        ] {
            write(
                &bundle.join(&helper),
                &std::fs::read(helpers.join(&helper))?,
            )?;
        }
        write(
            &bundle.join("ludus_kaggle_main.py"),
            KAGGLE_WRAPPER.as_bytes(),
        )?;
        write(&bundle.join("ludus_turn.py"), PYTHON_TURN.as_bytes())?;
        write(
            &bundle.join("ludus_kaggle_submission.py"),
            plan.submission_module.as_bytes(),
        )?;
        componentize(
            interpreter,
            &work,
            &bundle,
            "ludus_kaggle_main",
            &out,
            on_step,
        )
    })();
    let _ = std::fs::remove_dir_all(&work);
    result.map(|()| (out, plan.game))
}

fn write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(path, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file_scan(imports: &[(&str, u32, Option<&[&str]>)]) -> FileScan {
        FileScan {
            names: vec!["agent".into()],
            defines_callable: true,
            imports: imports
                .iter()
                .map(|(m, level, names)| scan::Import {
                    module: m.to_string(),
                    names: names.map(|n| n.iter().map(|s| s.to_string()).collect()),
                    level: *level,
                    line: 1,
                    optional: false,
                    stdlib: false,
                })
                .collect(),
            syntax_error: None,
        }
    }

    #[test]
    fn the_game_is_the_one_whose_helpers_the_agent_imports() {
        let kore = file_scan(&[("kaggle_environments.envs.kore_fleets.helpers", 0, Some(&[]))]);
        let halite = file_scan(&[("kaggle_environments.envs.halite", 0, Some(&["helpers"]))]);
        let neither = file_scan(&[("kaggle_environments.helpers", 0, None)]);
        assert_eq!(detect_game([&kore]), Ok(Some(KaggleGame::Kore)));
        assert_eq!(
            detect_game([&halite, &neither]),
            Ok(Some(KaggleGame::Halite))
        );
        assert_eq!(detect_game([&neither]), Ok(None));
        assert!(detect_game([&kore, &halite]).is_err());
    }

    #[test]
    fn only_files_main_py_reaches_are_bundled() {
        let files = [
            "main.py",
            "strategy.py",
            "pkg/__init__.py",
            "pkg/moves.py",
            "pkg/unused.py",
            "tools/plot.py",
        ];
        let modules = Modules::of(&files.map(String::from));
        let scan = Scan {
            files: BTreeMap::from([
                (
                    "main.py".to_string(),
                    file_scan(&[("strategy", 0, None), ("pkg", 0, Some(&["moves"]))]),
                ),
                ("strategy.py".to_string(), file_scan(&[("numpy", 0, None)])),
                ("pkg/__init__.py".to_string(), file_scan(&[])),
                (
                    "pkg/moves.py".to_string(),
                    file_scan(&[("", 1, Some(&["unused"]))]),
                ),
                ("pkg/unused.py".to_string(), file_scan(&[])),
                (
                    "tools/plot.py".to_string(),
                    file_scan(&[("matplotlib", 0, None)]),
                ),
            ]),
        };
        assert_eq!(
            reachable(&scan, &modules),
            [
                "main.py",
                "pkg/__init__.py",
                "pkg/moves.py",
                "pkg/unused.py",
                "strategy.py"
            ]
        );
    }
}
