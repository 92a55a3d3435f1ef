//! `cargo xtask demo` and `cargo xtask test`: the two commands of the README.
//! Each installs what it needs (the wasm32-wasip1 target), builds the example
//! bots, then runs the main job or every test; `test` ends with a short
//! fault-injection run (`cargo xtask faults` runs one as long as asked,
//! `faults/`) and a smoke run of every fuzz target (`cargo xtask fuzz` runs
//! them longer).

mod faults;
mod steps;

use std::path::Path;
use std::process::{Command, ExitCode};
use steps::{build_bots, cargo, run};

const USAGE: &str = "usage: cargo xtask <demo|test|faults|fuzz> [args]

  demo             build the example bots (into target/bots/examples too,
                   the house bots of `ludus serve --house`) and Ludus, run a ladder of them,
                   print the leaderboard, play a match and verify its replay,
                   then serve every game with the example bots as house bots
  test [ARGS...]   build the bots, run every test of the workspace (ARGS go
                   to cargo test), then a short fault run of both databases
                   (`faults --seconds 75 --db both --seed 1`) and fuzz every
                   target for a few seconds
  fuzz [SECONDS]   fuzz every target for SECONDS each (default 60)
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("demo") => demo(),
        Some("test") => test(&args[1..]),
        Some("faults") => faults::main(&args[1..]),
        Some("fuzz") => match args.get(1).map(|s| s.parse::<u64>()) {
            None => fuzz(60),
            Some(Ok(seconds)) if seconds > 0 => fuzz(seconds),
            Some(_) => Err(format!(
                "`{}` is not a number of seconds; give a whole number above 0, e.g. `cargo xtask fuzz 600`",
                args[1]
            )),
        },
        _ => {
            eprintln!("{USAGE}{}", faults::USAGE);
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

fn ludus(args: &[&str]) -> Command {
    let mut c = cargo();
    c.args(["run", "--quiet", "-p", "ludus-cli", "--"])
        .args(args);
    c
}

fn demo() -> Result<(), String> {
    let bots = build_bots()?;
    // The house bots of the README's server example.
    ludus_testkit::copy_example_bots(&bots)?;
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
    serve_house()
}

/// How long the demo's server plays.
const SERVE_SECONDS: u64 = 10;

/// The demo's server: `ludus serve --house target/bots/examples` on a
/// database of its own, every game played by the example bots as house
/// bots for a few seconds, then the continuous Claim leaderboard, whose
/// tables of four the house's two Claim bots fill with copies.
fn serve_house() -> Result<(), String> {
    use std::io::BufRead;
    let folder = ludus_testkit::example_bots_folder().display().to_string();
    let binary = ludus_testkit::target_dir().join("debug").join("ludus");
    eprintln!(
        "xtask: serving every game for {SERVE_SECONDS} s with the example bots as house bots \
         (ludus serve --house {folder} --db {SERVE_DB})"
    );
    // A fresh database each time: one left by an earlier Ludus holds
    // continuous ladders of that version, which this one's workers may not
    // play (a ladder keeps the versions that started it).
    for file in [
        SERVE_DB.to_string(),
        format!("{SERVE_DB}-wal"),
        format!("{SERVE_DB}-shm"),
    ] {
        if let Err(e) = std::fs::remove_file(&file) {
            if e.kind() != std::io::ErrorKind::NotFound {
                return Err(format!("cannot remove the demo server's {file}: {e}"));
            }
        }
    }
    let mut server = Command::new(&binary)
        .args(["serve", "--listen", "127.0.0.1:0", "--workers", "2"])
        .args(["--house", &folder, "--db", SERVE_DB])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
    let stdout = server.stdout.take().expect("piped");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            println!("{line}");
            if line.contains("house stocked") {
                let _ = tx.send(());
            }
        }
    });
    let stocked = rx.recv_timeout(std::time::Duration::from_secs(300));
    if stocked.is_ok() {
        std::thread::sleep(std::time::Duration::from_secs(SERVE_SECONDS));
    }
    // SIGTERM: the server commits what finished and stops.
    let _ = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status();
    let status = server.wait().map_err(|e| format!("ludus serve: {e}"))?;
    if stocked.is_err() || !status.success() {
        return Err(format!(
            "ludus serve did not stock its house bots ({status}); its log is above"
        ));
    }
    run(
        "the continuous Claim leaderboard of the house bots",
        Command::new(&binary).args(["leaderboard", "--game", "claim", "--db", SERVE_DB]),
    )
}

/// The demo server's database, in the workspace root.
const SERVE_DB: &str = "ludus-serve.db";

/// The demo's database, in the workspace root.
const DEMO_DB: &str = "ludus.db";

fn test(extra: &[String]) -> Result<(), String> {
    build_bots()?;
    run(
        "running every test",
        cargo().args(["test", "--workspace"]).args(extra),
    )?;
    eprintln!("xtask: a short fault-injection run of both databases (docs/faults.md)");
    faults::smoke()?;
    let targets = fuzz_targets()?;
    fuzz_each(&targets, (SMOKE_FUZZ_SECONDS / targets.len() as u64).max(5))
}

/// The fuzzing smoke run of `cargo xtask test`, all targets together: long
/// enough to catch a parser that breaks on its seeds' near neighbours.
const SMOKE_FUZZ_SECONDS: u64 = 60;

/// cargo-fuzz, pinned, installed once per target directory.
const CARGO_FUZZ_VERSION: &str = "0.13.2";

/// `cargo fuzz`, installing cargo-fuzz under the target directory first if
/// it is not there, in the `fuzz/` workspace. Targets build with the nightly
/// features of the toolchain at hand (`RUSTC_BOOTSTRAP`).
fn cargo_fuzz(args: &[&str]) -> Result<Command, String> {
    let root = ludus_testkit::tools_dir().join(format!("cargo-fuzz-{CARGO_FUZZ_VERSION}"));
    let bin = root.join("bin");
    if !bin.join("cargo-fuzz").exists() {
        run(
            &format!("installing cargo-fuzz {CARGO_FUZZ_VERSION} from crates.io"),
            cargo()
                .args(["install", "cargo-fuzz", "--locked", "--version"])
                .arg(CARGO_FUZZ_VERSION)
                .arg("--root")
                .arg(&root),
        )?;
    }
    let path = std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .map_err(|e| format!("cannot add cargo-fuzz to PATH: {e}"))?;
    let mut c = cargo();
    c.current_dir(fuzz_dir())
        .env("PATH", path)
        .env("RUSTC_BOOTSTRAP", "1")
        .arg("fuzz")
        .args(args);
    Ok(c)
}

fn fuzz_dir() -> std::path::PathBuf {
    ludus_testkit::workspace_root().join("fuzz")
}

/// The fuzz targets, as `cargo fuzz list` gives them.
fn fuzz_targets() -> Result<Vec<String>, String> {
    let out = cargo_fuzz(&["list"])?
        .output()
        .map_err(|e| format!("cargo fuzz list: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "cargo fuzz list failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let targets: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    if targets.is_empty() {
        return Err("cargo fuzz list found no fuzz target in fuzz/".into());
    }
    Ok(targets)
}

fn fuzz(seconds: u64) -> Result<(), String> {
    fuzz_each(&fuzz_targets()?, seconds)
}

/// Fuzzes each target for `seconds`, from its seed inputs (`fuzz/seeds/`),
/// the inputs it once failed on (`fuzz/regressions/`) and what earlier runs
/// found (`fuzz/corpus/`). A crash, a panic, a hang of
/// 10 s on one input or 2 GiB of memory fails the run; libFuzzer writes the
/// input to `fuzz/artifacts/TARGET/`.
fn fuzz_each(targets: &[String], seconds: u64) -> Result<(), String> {
    // No sanitizer: the code fuzzed is safe Rust, where ASan finds nothing
    // that the panics and the overflow checks (on in fuzz builds) do not.
    // The builds go under the workspace's target directory, not `fuzz/target/`.
    let target_dir = ludus_testkit::target_dir().join("fuzz");
    let flags = |c: &mut Command| {
        c.args(["--sanitizer", "none", "--target-dir"])
            .arg(&target_dir);
    };
    let mut build = cargo_fuzz(&["build"])?;
    flags(&mut build);
    run("building the fuzz targets", &mut build)?;
    for target in targets {
        let corpus = fuzz_dir().join("corpus").join(target);
        std::fs::create_dir_all(&corpus)
            .map_err(|e| format!("cannot create {}: {e}", corpus.display()))?;
        let mut cmd = cargo_fuzz(&["run"])?;
        flags(&mut cmd);
        // libFuzzer adds what it finds to the first folder only.
        cmd.arg(target).arg(&corpus);
        for kind in ["seeds", "regressions"] {
            let inputs = fuzz_dir().join(kind).join(target);
            if inputs.is_dir() {
                cmd.arg(inputs);
            }
        }
        cmd.arg("--").args([
            format!("-max_total_time={seconds}"),
            "-timeout=10".into(),
            "-rss_limit_mb=2048".into(),
        ]);
        run(&format!("fuzzing {target} for {seconds} s"), &mut cmd).map_err(|e| {
            format!(
                "{e}: the input it failed on is in {}; fix the parser, then add the input \
                 to fuzz/regressions/{target}/ (docs/fuzzing.md)",
                fuzz_dir().join("artifacts").join(target).display()
            )
        })?;
    }
    Ok(())
}
