//! `cargo xtask demo` and `cargo xtask test`: the two commands of the README.
//! Each installs what it needs (the wasm32-wasip1 target), builds the example
//! bots, then runs the main job or every test.

use std::path::Path;
use std::process::{Command, ExitCode};

const USAGE: &str = "usage: cargo xtask <demo|test> [args for cargo test...]

  demo   build the example bots and Ludus, run a ladder of them, print the
         leaderboard, play a match and verify its replay
  test   build the bots and run every test of the workspace";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("demo") => demo(),
        Some("test") => test(&args[1..]),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

fn cargo() -> Command {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.current_dir(ludus_testkit::workspace_root());
    c
}

fn run(what: &str, cmd: &mut Command) -> Result<(), String> {
    eprintln!("xtask: {what}");
    let status = cmd.status().map_err(|e| format!("{what}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})"))
    }
}

fn build_bots() -> Result<std::path::PathBuf, String> {
    eprintln!(
        "xtask: building the example bots for {}",
        ludus_testkit::BOT_TARGET
    );
    ludus_testkit::build_bots()
}

fn ludus(args: &[&str]) -> Command {
    let mut c = cargo();
    c.args(["run", "--quiet", "-p", "ludus-cli", "--"])
        .args(args);
    c
}

fn demo() -> Result<(), String> {
    let bots = build_bots()?;
    let bot = |name: &str| bots.join(format!("{name}.wasm")).display().to_string();
    run("building ludus", cargo().args(["build", "-p", "ludus-cli"]))?;
    run("listing the games", &mut ludus(&["games"]))?;
    for name in ["expander", "random", "idle"] {
        let file = bot(&format!("planet_wars_{name}"));
        run(
            &format!("submitting the example bot `{name}`"),
            &mut ludus(&[
                "submit",
                &file,
                "--name",
                name,
                "--game",
                "planet-wars",
                "--db",
                DEMO_DB,
            ]),
        )?;
    }
    run(
        "playing a Planet Wars round robin of the example bots (4 rounds)",
        &mut ludus(&[
            "ladder",
            "run",
            "--game",
            "planet-wars",
            "--rounds",
            "4",
            "--seed",
            "1",
            "--db",
            DEMO_DB,
        ]),
    )?;
    run(
        "writing the leaderboard page",
        &mut ludus(&[
            "leaderboard",
            "--format",
            "html",
            "--out",
            "site",
            "--db",
            DEMO_DB,
        ]),
    )?;
    let replay = Path::new("replays").join("demo-planet-wars.json");
    let replay = replay.display().to_string();
    run(
        "playing one match, expander against random",
        &mut ludus(&[
            "play",
            "--game",
            "planet-wars",
            "--seed",
            "1",
            "--out",
            &replay,
            &bot("planet_wars_expander"),
            &bot("planet_wars_random"),
        ]),
    )?;
    run(
        "verifying its replay",
        &mut ludus(&[
            "replay",
            "verify",
            &replay,
            "--bots",
            &bots.display().to_string(),
        ]),
    )?;
    Ok(())
}

/// The demo's database, in the workspace root.
const DEMO_DB: &str = "ludus.db";

fn test(extra: &[String]) -> Result<(), String> {
    build_bots()?;
    run(
        "running every test",
        cargo().args(["test", "--workspace"]).args(extra),
    )
}
