//! The steps every task takes: cargo in the workspace, a command announced
//! and run, the example bots built.

use std::process::Command;

pub fn cargo() -> Command {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.current_dir(ludus_testkit::workspace_root());
    c
}

pub fn run(what: &str, cmd: &mut Command) -> Result<(), String> {
    eprintln!("xtask: {what}");
    let status = cmd.status().map_err(|e| format!("{what}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})"))
    }
}

pub fn build_bots() -> Result<std::path::PathBuf, String> {
    eprintln!(
        "xtask: building the example bots for {}",
        ludus_testkit::BOT_TARGET
    );
    ludus_testkit::build_bots()
}
