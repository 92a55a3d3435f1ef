//! Running the `ludus` binary as a user does, in a scratch directory.
#![allow(dead_code)]

pub mod serving;

use std::path::Path;
use std::process::{Command, Output};

pub fn ludus_cmd(args: &[&str], dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ludus"));
    c.args(args)
        .current_dir(dir)
        .env(
            "LUDUS_CACHE_DIR",
            ludus_testkit::workspace_root().join("target/module-cache"),
        )
        // The database is the scratch directory's unless a test names one.
        .env_remove("LUDUS_DB");
    c
}

pub fn ludus(args: &[&str], dir: &Path) -> Output {
    ludus_cmd(args, dir).output().expect("ludus runs")
}

/// stdout and stderr together.
pub fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The path of a built bot.
pub fn bot(name: &str) -> String {
    ludus_testkit::bot(name).display().to_string()
}

pub fn bots_dir() -> String {
    ludus_testkit::bots_dir().display().to_string()
}

/// Submits the built bot `file` (e.g. `planet_wars_idle`) as `name` to the
/// Planet Wars bots of `ludus.db` in `dir`.
pub fn submit(dir: &Path, file: &str, name: &str) {
    submit_to(dir, "ludus.db", file, name)
}

/// Submits the built bot `file` as `name` to the Planet Wars bots of the
/// database `db` (a file, relative to `dir`, or a URL).
pub fn submit_to(dir: &Path, db: &str, file: &str, name: &str) {
    let o = ludus(
        &[
            "submit",
            &bot(file),
            "--name",
            name,
            "--game",
            "planet-wars",
            "--db",
            db,
        ],
        dir,
    );
    assert!(o.status.success(), "{}", text(&o));
}
