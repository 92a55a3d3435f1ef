//! Every command, argument and option of `ludus` says what it is in `--help`.

use crate::Cli;
use clap::CommandFactory;

/// The commands under `cmd` (itself included), each with its path:
/// `ludus ladder run`.
fn commands(cmd: &clap::Command, path: String, out: &mut Vec<(String, clap::Command)>) {
    for sub in cmd.get_subcommands() {
        commands(sub, format!("{path} {}", sub.get_name()), out);
    }
    out.push((path, cmd.clone()));
}

#[test]
fn every_command_argument_and_option_has_a_help_line() {
    let mut cli = Cli::command();
    // Help and version flags are clap's own, and only exist once built.
    cli.build();
    let mut all = Vec::new();
    commands(&cli, "ludus".into(), &mut all);
    assert!(all.len() > 20, "the walk found only {} commands", all.len());
    let mut missing = Vec::new();
    for (path, cmd) in &all {
        let described = |h: Option<&clap::builder::StyledStr>| {
            h.is_some_and(|h| !h.to_string().trim().is_empty())
        };
        if !described(cmd.get_about()) && !described(cmd.get_long_about()) {
            missing.push(format!("{path} (the command itself)"));
        }
        for arg in cmd.get_arguments() {
            if !described(arg.get_help()) && !described(arg.get_long_help()) {
                let name = match arg.get_long() {
                    Some(long) => format!("--{long}"),
                    None => arg.get_id().to_string().to_uppercase(),
                };
                missing.push(format!("{path} {name}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "without a help line (add a doc comment):\n{}",
        missing.join("\n")
    );
}

/// `leaderboard --format` lists its values, with what each one is.
#[test]
fn leaderboard_format_lists_its_values() {
    let mut cli = Cli::command();
    cli.build();
    let board = cli
        .find_subcommand_mut("leaderboard")
        .expect("a leaderboard command");
    let help = board.render_long_help().to_string();
    for value in ["table", "json", "csv", "markdown", "html"] {
        assert!(
            help.lines()
                .any(|l| l.trim_start().starts_with(&format!("- {value}:"))),
            "`{value}` is not listed with its help in:\n{help}"
        );
    }
}
