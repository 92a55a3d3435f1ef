//! The reference side: a venv with `kaggle-environments`, and `upstream.py`.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{bail, Context, Result};

use crate::json::Json;

/// The reference packages, pinned: the same versions give the same games.
/// `kaggle-environments` goes in without its dependencies (most are for
/// other environments and large); the three it needs for Kore and Halite
/// are pinned beside it.
pub const PACKAGES: &[&str] = &["jsonschema==4.23.0", "requests==2.32.3", "numpy==2.1.3"];
pub const KAGGLE_ENVIRONMENTS: &str = "kaggle-environments==1.33.2";

/// One line of an upstream episode.
#[derive(Debug, Clone)]
pub struct StepLine {
    /// Per seat, the answer as Ludus receives it: the action's JSON text, or
    /// `None` where upstream got no action. Empty for the initial state.
    pub answers: Vec<Option<String>>,
    /// `{"step", "observation", "rewards", "statuses"}`.
    pub state: Json,
    /// Per seat, what the agent printed this step (Kaggle agents only;
    /// empty otherwise).
    pub logs: Vec<String>,
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the fidelity crate sits in the workspace")
        .to_path_buf()
}

fn venv_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("LUDUS_FIDELITY_VENV") {
        return dir.into();
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target"));
    target.join("fidelity").join("venv")
}

/// The venv's python, making the venv first if it is missing (about 20 s,
/// once). Safe to call from parallel tests and processes.
pub fn python() -> Result<PathBuf> {
    ludus_testkit::python_venv(
        &venv_dir(),
        &[&["--no-deps", KAGGLE_ENVIRONMENTS], PACKAGES],
    )
    .map_err(anyhow::Error::msg)
}

/// Runs `upstream.py` with `args` and parses its lines.
fn upstream(args: &[String]) -> Result<Vec<Json>> {
    let script = workspace_root().join("fidelity").join("upstream.py");
    let mut child = Command::new(python()?)
        .arg(&script)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("starting {}", script.display()))?;
    let stdout = child.stdout.take().expect("piped");
    let mut lines = Vec::new();
    for (i, line) in std::io::BufReader::new(stdout).lines().enumerate() {
        let line = line?;
        lines.push(Json::parse(&line).with_context(|| format!("upstream line {i} is not JSON"))?);
    }
    let out = child.wait_with_output()?;
    if !out.status.success() {
        bail!(
            "upstream.py {} failed ({}): {}",
            args.join(" "),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(lines)
}

/// Plays an episode of `env` upstream with the named agents (from
/// `fidelity/agents_<env>.py`, one per seat) and returns every line.
pub fn upstream_episode(
    env: &str,
    seed: u64,
    agents: &[&str],
    steps: Option<u32>,
) -> Result<Vec<StepLine>> {
    let mut args = vec![
        "episode".to_string(),
        "--env".into(),
        env.into(),
        "--seed".into(),
        seed.to_string(),
        "--players".into(),
        agents.len().to_string(),
        "--agents".into(),
        agents.join(","),
    ];
    if let Some(n) = steps {
        args.extend(["--steps".to_string(), n.to_string()]);
    }
    step_lines(upstream(&args)?)
}

/// Plays Kaggle submissions upstream, each `main.py` in `agents` through
/// kaggle-environments' own `Agent` (one per seat), and returns every line:
/// `answers` are the actions as the agents returned them, as JSON text.
pub fn upstream_kaggle_episode(
    env: &str,
    seed: u64,
    agents: &[PathBuf],
    steps: Option<u32>,
) -> Result<Vec<StepLine>> {
    let paths: Vec<String> = agents.iter().map(|p| p.display().to_string()).collect();
    if let Some(p) = paths.iter().find(|p| p.contains(',')) {
        bail!("an agent path with a comma cannot be passed to upstream.py: {p}");
    }
    let mut args = vec![
        "kaggle".to_string(),
        "--env".into(),
        env.into(),
        "--seed".into(),
        seed.to_string(),
        "--agents".into(),
        paths.join(","),
    ];
    if let Some(n) = steps {
        args.extend(["--steps".to_string(), n.to_string()]);
    }
    step_lines(upstream(&args)?)
}

/// The folder of the installed `kaggle_environments` package (where its
/// Kore starter bot lives), found without importing it.
pub fn kaggle_environments_dir() -> Result<PathBuf> {
    let out = Command::new(python()?)
        .args([
            "-c",
            "import importlib.util; \
             print(importlib.util.find_spec('kaggle_environments').submodule_search_locations[0])",
        ])
        .output()
        .context("asking the venv where kaggle_environments is")?;
    if !out.status.success() {
        bail!(
            "cannot find kaggle_environments in the venv: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(PathBuf::from(String::from_utf8(out.stdout)?.trim()))
}

/// Splits upstream's lines into answers, logs and state.
fn step_lines(lines: Vec<Json>) -> Result<Vec<StepLine>> {
    lines
        .into_iter()
        .map(|line| {
            let Json::Object(members) = line else {
                bail!("upstream line is not an object")
            };
            let mut answers = Vec::new();
            let mut logs = Vec::new();
            let mut state = Vec::new();
            for (k, v) in members {
                if k == "actions" {
                    let Json::Array(items) = v else {
                        bail!("`actions` is not a list")
                    };
                    answers = items
                        .into_iter()
                        .map(|a| match a {
                            Json::Null => None,
                            // As `ludus engine run` takes them: a string is the answer's text.
                            Json::Str(s) => Some(s),
                            // An agent that raised: its message is the answer
                            // text that makes the Ludus engine fault the same
                            // way (the agents modules raise with it).
                            Json::Object(m) if m.len() == 1 && m[0].0 == "raised" => {
                                match &m[0].1 {
                                    Json::Str(s) => Some(s.clone()),
                                    other => Some(other.to_text()),
                                }
                            }
                            other => Some(other.to_text()),
                        })
                        .collect();
                } else if k == "logs" {
                    let Json::Array(items) = v else {
                        bail!("`logs` is not a list")
                    };
                    logs = items
                        .into_iter()
                        .map(|l| match l {
                            Json::Str(s) => Ok(s),
                            other => bail!("a log is not a string: {}", other.to_text()),
                        })
                        .collect::<Result<_>>()?;
                } else {
                    state.push((k, v));
                }
            }
            Ok(StepLine {
                answers,
                state: Json::Object(state),
                logs,
            })
        })
        .collect()
}

/// The initial observation upstream gives seat 0 for each seed in `seeds`.
pub fn upstream_boards(
    env: &str,
    players: usize,
    seeds: std::ops::Range<u64>,
) -> Result<Vec<(u64, Json)>> {
    let args: Vec<String> = [
        "boards",
        "--env",
        env,
        "--players",
        &players.to_string(),
        "--from",
        &seeds.start.to_string(),
        "--to",
        &seeds.end.to_string(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    upstream(&args)?
        .into_iter()
        .map(|line| {
            let seed = match line.get("seed") {
                Some(Json::Int(s)) => *s as u64,
                _ => bail!("boards line without a seed"),
            };
            let obs = line
                .get("observation")
                .cloned()
                .context("boards line without an observation")?;
            Ok((seed, obs))
        })
        .collect()
}
