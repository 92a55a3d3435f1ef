//! Kaggle agents as bots (`ludus build-bot` of a Kore or Halite
//! submission): called as kaggle-environments calls them, in every form
//! Kaggle takes, and refused at build time with the reason when they cannot
//! run. Their moves against upstream's are compared in
//! `fidelity/tests/kaggle_agents.rs`.

mod common;

use common::*;
use ludus_host::build::kaggle::{build_kaggle, KaggleGame};
use ludus_host::build::submission::Submission;
use ludus_host::build::{build_bot, BuildError, BuildOptions, Built};
use ludus_host::{BotModule, Limits, MatchSpec, Replay};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Builds run one at a time (see `polyglot.rs`).
static BUILD: Mutex<()> = Mutex::new(());

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kaggle")
}

fn tools() -> PathBuf {
    ludus_testkit::ensure_python().unwrap_or_else(|e| panic!("{e}"));
    ludus_testkit::tools_dir()
}

fn build(path: &Path, game: Option<KaggleGame>) -> Result<(PathBuf, KaggleGame), BuildError> {
    let _guard = BUILD.lock().unwrap_or_else(|e| e.into_inner());
    build_kaggle(&Submission::read(path)?, game, &tools())
}

fn load(path: &Path) -> Arc<BotModule> {
    let (wasm, _) = build(path, None).unwrap_or_else(|e| panic!("{e}"));
    sandbox().load_file(&wasm).unwrap_or_else(|e| panic!("{e}"))
}

fn play(game: &str, seed: u64, steps: u32, bots: Vec<Arc<BotModule>>) -> Replay {
    ludus_host::play(&MatchSpec {
        game: game.into(),
        config: serde_json::json!({ "episodeSteps": steps }),
        seed,
        limits: Limits::default(),
        bots,
    })
    .expect("the match is played")
}

fn probe(replay: &Replay, turn: usize, seat: usize) -> serde_json::Value {
    let s = &replay.turns[turn].seats[seat];
    let answer = s
        .answer
        .as_deref()
        .unwrap_or_else(|| panic!("turn {turn} seat {seat}: {:?}\n{}", s.fault, s.log));
    let v: serde_json::Value = serde_json::from_str(answer).unwrap();
    v["probe"].clone()
}

#[test]
fn a_kaggle_agent_is_called_as_kaggle_calls_it() {
    let bot = load(&fixtures().join("kore_probe.py"));
    let replay = play("kore", 5, 4, vec![bot.clone(), bot.clone()]);
    assert_eq!(replay.turns.len(), 3);
    let first = probe(&replay, 0, 0);
    // The last callable of the file is the agent, not the function named `agent`.
    assert_eq!(first["calls"], 1, "{first}");
    assert_eq!(probe(&replay, 2, 0)["calls"], 3);
    // obs and config by attribute and by key, as Structs.
    assert_eq!(first["player"], 0);
    assert_eq!(probe(&replay, 0, 1)["player"], 1);
    assert_eq!(first["step"], 0);
    assert_eq!(probe(&replay, 2, 1)["step"], 2);
    assert_eq!(first["size"], 21);
    assert_eq!(first["size_by_key"], 21);
    assert_eq!(first["overage"], 60);
    assert_eq!(first["struct"], serde_json::json!(["Struct", "list", true]));
    assert_eq!(first["raw_path"], "/kaggle_simulations/agent/main.py");
    // Two arguments, as many as Kaggle passes, whatever the signature takes.
    assert_eq!(first["extra"], "not passed");
    assert_eq!(
        first["shipyards"], 1,
        "the helpers' Board read the observation"
    );
    // main.py runs on the first call, in a namespace where __name__ is not
    // "__main__"; what it prints comes out after it, as upstream prints it.
    assert_eq!(
        replay.turns[0].seats[0].log,
        "top level ran, __name__ is builtins\n\n"
    );
    assert_eq!(replay.turns[1].seats[0].log, "");
    // `random` is seeded per match and seat, and the same match is the same bytes.
    assert_ne!(first["random"], probe(&replay, 0, 1)["random"]);
    let again = play("kore", 5, 4, vec![bot.clone(), bot.clone()]);
    assert_eq!(replay.to_bytes(false), again.to_bytes(false));
    let other = play("kore", 6, 2, vec![bot.clone(), bot]);
    assert_ne!(first["random"], probe(&other, 0, 0)["random"]);
}

/// Writes `dir`'s files into a `.tar.gz` at `out`, `main.py` at its root
/// (with `./` in front, as `tar czf x.tar.gz .` writes it).
fn tar_gz(dir: &Path, out: &Path) {
    let file = std::fs::File::create(out).unwrap();
    let mut archive = tar::Builder::new(flate2::write::GzEncoder::new(
        file,
        flate2::Compression::default(),
    ));
    archive.append_dir_all(".", dir).unwrap();
    archive.into_inner().unwrap().finish().unwrap();
}

#[test]
fn a_folder_and_its_tar_gz_build_the_same_bot_that_imports_its_own_modules() {
    let folder = fixtures().join("halite_probe");
    let (wasm, game) = build(&folder, None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(game, KaggleGame::Halite);
    let tmp = tempfile::tempdir().unwrap();
    let archive = tmp.path().join("submission.tar.gz");
    tar_gz(&folder, &archive);
    let (from_archive, _) = build(&archive, None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        std::fs::read(&wasm).unwrap(),
        std::fs::read(&from_archive).unwrap()
    );
    let bot = sandbox().load_file(&wasm).unwrap();
    let replay = play("halite", 2, 4, vec![bot.clone(), bot]);
    let seat = &replay.turns[0].seats[0];
    // The module beside main.py is imported when main.py first runs.
    assert_eq!(seat.log, "lib.moves imported\n\n");
    // `agent(obs)` is given obs only, and its answer is the action dict.
    assert_eq!(seat.answer.as_deref(), Some(r#"{"0-1":"NORTH"}"#));
    assert!(seat.refused.is_empty(), "{:?}", seat.refused);
    assert_eq!(
        replay.turns[1].seats[1].answer.as_deref(),
        Some(r#"{"0-2":"EAST"}"#)
    );
    // What JSON cannot carry: an Enum member goes as an object, which the
    // engine finds invalid as upstream does; a tuple is no action.
    let step2 = &replay.turns[2].seats;
    assert_eq!(
        step2[0].answer.as_deref(),
        Some(r#"{"0-1":{"unencodable":"ShipAction"}}"#)
    );
    assert!(
        step2[0].refused.iter().any(|r| r.kind == "invalid_action"),
        "{:?}",
        step2[0].refused
    );
    assert_eq!(step2[1].answer.as_deref(), Some("null"));
    assert!(step2[1].refused.is_empty(), "{:?}", step2[1].refused);
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    path
}

fn build_error(path: &Path, kaggle: Option<KaggleGame>) -> String {
    let out = path.with_extension("wasm");
    let _guard = BUILD.lock().unwrap_or_else(|e| e.into_inner());
    match build_bot(
        path,
        &out,
        &tools(),
        &BuildOptions {
            kaggle,
            ..BuildOptions::default()
        },
    ) {
        Ok(built) => panic!("{} built as {built:?}", path.display()),
        Err(e) => e.to_string(),
    }
}

const KORE_HELPERS: &str = "from kaggle_environments.envs.kore_fleets.helpers import Board\n";

#[test]
fn numpy_fails_at_build_time_naming_the_import() {
    let dir = tempfile::tempdir().unwrap();
    let main = write(
        dir.path(),
        "main.py",
        &format!("{KORE_HELPERS}import numpy as np\n\ndef agent(obs, config):\n    return {{}}\n"),
    );
    let e = build_error(&main, None);
    assert!(e.starts_with("main.py line 2 imports numpy: "), "{e}");
    assert!(e.contains("no native extensions"), "{e}");
    // A one-file agent is named as the author named it.
    let renamed = dir.path().join("my_agent.py");
    std::fs::copy(&main, &renamed).unwrap();
    let e = build_error(&renamed, None);
    assert!(e.starts_with("my_agent.py line 2 imports numpy: "), "{e}");
    // In a module of the submission too, named by its file.
    let folder = dir.path().join("agent");
    write(
        &folder,
        "main.py",
        &format!("{KORE_HELPERS}from tools import agent\n"),
    );
    write(
        &folder,
        "tools.py",
        "import math\nfrom scipy import optimize\n\ndef agent(obs, config):\n    return {}\n",
    );
    let e = build_error(&folder, None);
    assert!(e.starts_with("tools.py line 2 imports scipy: "), "{e}");
    // Handled where it is imported, it is no error: the import fails in the
    // bot as wherever numpy is missing (see the next test).
}

#[test]
fn a_standard_module_with_native_code_fails_at_build_time_naming_the_import() {
    let dir = tempfile::tempdir().unwrap();
    let main = write(
        dir.path(),
        "main.py",
        &format!(
            "{KORE_HELPERS}try:\n    import numpy\nexcept ImportError:\n    numpy = None\nimport ctypes\n\ndef agent(obs, config):\n    return {{}}\n"
        ),
    );
    let e = build_error(&main, None);
    assert!(
        e.starts_with("main.py line 6 imports ctypes, which cannot be loaded in a Ludus bot"),
        "{e}"
    );
    assert!(e.contains("_ctypes"), "{e}");
    assert!(e.contains("no native extensions"), "{e}");
    assert!(!e.contains('\n'), "one line: {e}");
}

#[test]
fn what_is_not_a_kaggle_agent_of_a_known_game_says_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let plain = write(
        dir.path(),
        "plain/main.py",
        "def agent(obs, config):\n    return {}\n",
    );
    let e = build_error(&plain, None);
    assert!(e.contains("--kaggle kore or --kaggle halite"), "{e}");
    let make = write(
        dir.path(),
        "make/main.py",
        "from kaggle_environments import make\n\ndef agent(obs, config):\n    return {}\n",
    );
    let e = build_error(&make, Some(KaggleGame::Kore));
    assert!(e.starts_with("main.py line 1 imports kaggle_environments: kaggle_environments.make is not in a Ludus bot"), "{e}");
    let other = write(
        dir.path(),
        "other/main.py",
        &format!("{KORE_HELPERS}\ndef agent(obs, config):\n    return {{}}\n"),
    );
    let e = build_error(&other, Some(KaggleGame::Halite));
    assert!(e.contains("--kaggle kore"), "{e}");
    let syntax = write(
        dir.path(),
        "syntax/main.py",
        "def agent(obs, config)\n    return {}\n",
    );
    let e = build_error(&syntax, Some(KaggleGame::Halite));
    assert!(e.starts_with("main.py line 1: SyntaxError: "), "{e}");
    let nothing = write(dir.path(), "nothing/main.py", "x = 1\n");
    let e = build_error(&nothing, Some(KaggleGame::Kore));
    assert!(e.contains("main.py: defines no function"), "{e}");
    let nested = dir.path().join("nested");
    write(
        &nested,
        "agent/main.py",
        "def agent(obs, config):\n    return {}\n",
    );
    let e = build_error(&nested, Some(KaggleGame::Kore));
    assert!(
        e.contains("no main.py at the top of the folder (there is agent/main.py)"),
        "{e}"
    );
    // A one-file Ludus bot has neither the helpers nor numpy.
    let bot = write(
        dir.path(),
        "bot.py",
        "import numpy\n\ndef act(state):\n    return {}\n",
    );
    let e = build_error(&bot, None);
    assert!(e.starts_with("bot.py line 1 imports numpy"), "{e}");
    let neither = write(
        dir.path(),
        "neither.py",
        "def play(state):\n    return {}\n",
    );
    let e = build_error(&neither, None);
    assert!(e.contains("defines no `act`"), "{e}");
}

#[test]
fn a_py_file_is_a_kaggle_agent_when_it_defines_agent_and_no_act() {
    let probe = fixtures().join("kore_probe.py");
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("probe.wasm");
    let _guard = BUILD.lock().unwrap_or_else(|e| e.into_inner());
    let built = build_bot(&probe, &out, &tools(), &BuildOptions::default()).unwrap();
    assert_eq!(built, Built::Kaggle(KaggleGame::Kore));
    assert!(out.is_file());
}
