//! `ludus`: run WebAssembly bots in deterministic game tournaments.
//!
//! Thin glue: parsing arguments and printing. Everything it does lives in
//! `ludus-engine`, `ludus-host`, `ludus-leaderboard` and `ludus-viewer`.
//! This file lists the commands; each command's arguments, and what runs
//! it, are in its module.

mod args;
mod build;
mod challenge;
mod check;
mod columns;
mod engine;
mod findings;
#[cfg(test)]
mod help;
mod integrity;
mod league;
mod logs;
mod matches;
mod operator;
mod replays;
mod season;
mod serve;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "ludus",
    version,
    about = "Deterministic tournaments for WebAssembly game bots"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// How log lines are written to stderr (LUDUS_LOG sets which): text
    /// for people, json for a log collector (one JSON object a line).
    #[arg(
        long,
        global = true,
        value_enum,
        env = "LUDUS_LOG_FORMAT",
        default_value = "text"
    )]
    log_format: logs::LogFormat,
}

#[derive(Subcommand)]
enum Command {
    /// List the games Ludus hosts.
    Games,
    /// Check that a .wasm file is a bot Ludus can run (imports, exports,
    /// compilation) and that it plays the game: a validation match of 30
    /// turns against copies of itself at every seat count the game allows.
    /// Without --game, tries every game and says which ones it plays.
    Check(check::CheckArgs),
    /// Build a bot from source: a Python file (`def act(state)`, standard
    /// library only) or a Kaggle Kore/Halite agent into a WebAssembly
    /// component with componentize-py, or a C file into a core module with
    /// clang and wasi-libc.
    BuildBot(build::BuildBotArgs),
    /// Play one match and write its replay.
    Play(matches::PlayArgs),
    /// Work with replays.
    Replay {
        #[command(subcommand)]
        command: matches::ReplayCommand,
    },
    /// The replays ladders store: `keep` stores those their policy left out.
    Replays {
        #[command(subcommand)]
        command: replays::ReplaysCommand,
    },
    /// Validate a bot for a game, as `check --game` does, and store it under a
    /// name: identical bytes again are a no-op, new bytes are a new version
    /// (older versions keep their results).
    ///
    /// With --server, upload it to a `ludus serve` instead, which validates
    /// and stores it in the same way (--token: your API token).
    Submit(check::SubmitArgs),
    /// Ask a server for a challenge: unrated matches of one of your bots
    /// against chosen opponents, a fixed number of games (--games) or
    /// seat-swapped pairs until an SPRT decides whether it is stronger
    /// (--sprt). Prints the challenge's id and page; with --wait, follows
    /// it and ends with `verdict: stronger`, `verdict: not stronger` or
    /// `verdict: none`.
    Challenge(challenge::ChallengeArgs),
    /// Serve the platform: accounts, uploads, continuous ladders for every
    /// game, live leaderboards, bot and match pages, the JSON API. Stops
    /// cleanly on SIGTERM or Ctrl-C.
    Serve(serve::ServeArgs),
    /// Copy a SQLite database, live, to a new file: a consistent copy even
    /// while a server or ladder writes to it (SQLite's online backup; the
    /// database file cannot simply be copied while it is written, its WAL
    /// holds the latest pages). PostgreSQL is backed up with `pg_dump`.
    Backup(serve::BackupArgs),
    /// Retire a bot for the operator, as `ludus bot retire` does (the
    /// older name of that command, kept for scripts).
    #[command(hide = true)]
    Retire(operator::RetireArgs),
    /// Accounts of the server.
    User {
        #[command(subcommand)]
        command: operator::UserCommand,
    },
    /// A bot, for the server's operator.
    Bot {
        #[command(subcommand)]
        command: operator::BotCommand,
    },
    /// List the stored bots: the latest version of each, its owner and
    /// whether it is retired.
    Bots(operator::BotsArgs),
    /// Ladders: play every stored bot of a game against the others and rate them.
    Ladder {
        #[command(subcommand)]
        command: league::LadderCommand,
    },
    /// Seasons of a server's continuous ladders: start a new one (new
    /// config, new Ludus version, fresh ratings), list them.
    Season {
        #[command(subcommand)]
        command: season::SeasonCommand,
    },
    /// List a ladder's matches: index, seed, seats, result and match id.
    Matches(matches::MatchesArgs),
    /// Print a ladder's leaderboard.
    Leaderboard(league::LeaderboardArgs),
    /// Play the scheduled matches of a database, beside any other workers
    /// and `ladder run`s on it: claim matches under a lease, play them,
    /// commit each result with its replay. Stops when its ladder is done
    /// (with --ladder or --until-idle); otherwise waits for new ladders.
    Worker(league::WorkerArgs),
    /// Drive a game engine directly, without bots.
    Engine {
        #[command(subcommand)]
        command: engine::EngineCommand,
    },
    /// Head-to-head: seat-swapped game pairs on fresh seeds until a
    /// pentanomial SPRT decides whether A is stronger than B.
    MatchUp(league::MatchUpArgs),
}

fn main() {
    quiet_on_closed_pipe();
    let cli = Cli::parse();
    logs::init(cli.log_format);
    let result = match cli.command {
        Command::Games => engine::games(),
        Command::Check(args) => args.run(),
        Command::BuildBot(args) => args.run(),
        Command::Play(args) => args.run(),
        Command::Replay { command } => command.run(),
        Command::Replays { command } => command.run(),
        Command::Submit(args) => args.run(),
        Command::Challenge(args) => args.run(),
        Command::Serve(args) => args.run(),
        Command::Backup(args) => args.run(),
        Command::Retire(args) => args.run(),
        Command::User { command } => command.run(),
        Command::Bot { command } => command.run(),
        Command::Bots(args) => args.run(),
        Command::Ladder { command } => command.run(),
        Command::Season { command } => command.run(),
        Command::Matches(args) => args.run(),
        Command::Leaderboard(args) => args.run(),
        Command::Worker(args) => args.run(),
        Command::Engine { command } => command.run(),
        Command::MatchUp(args) => args.run(),
    };
    if let Err(e) = result {
        eprintln!("error: {}", one_line(&e));
        std::process::exit(1);
    }
}

/// A closed pipe (`ludus play ... | head`) ends the program quietly, as it
/// does any Unix tool, instead of a panic in `println!`: SIGPIPE goes back
/// to its default, which the Rust runtime sets to ignore. Sockets are not
/// concerned: the standard library sends on them without the signal
/// (`MSG_NOSIGNAL`, or `SO_NOSIGPIPE` on macOS), so a client that hangs up
/// on `ludus serve` is still an error of that one connection.
fn quiet_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in `main`, before any thread is spawned;
    // SIG_DFL is a valid disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// The error and its causes on one line, each said once: a cause whose
/// text is already in the line (a message that quotes its source) is left
/// out, and line breaks inside a message become spaces.
fn one_line(e: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in e.chain() {
        let text = cause
            .to_string()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if text.is_empty() || line.contains(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::one_line;

    #[test]
    fn an_error_prints_on_one_line_with_each_cause_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "gone (os error 2)");
        let quoted = anyhow::Error::new(io)
            .context("cannot read m.json: gone (os error 2)")
            .context("cannot verify m.json");
        assert_eq!(
            one_line(&quoted),
            "cannot verify m.json: cannot read m.json: gone (os error 2)"
        );
        let dump = anyhow::anyhow!("expected=[\n    0x0,\n    0x61,\n] actual").context("bad");
        assert_eq!(one_line(&dump), "bad: expected=[ 0x0, 0x61, ] actual");
    }
}
