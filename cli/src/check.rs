//! The commands that judge a bot before it plays for real: `check` (does it
//! run, and which games does it play?) and `submit` (store it for a game it
//! plays). Both print the validation report of `ludus_host::check`.

use crate::args::{DbArg, LimitArgs};
use crate::columns::clip;
use crate::findings::ReplayArg;
use anyhow::{bail, Context, Result};
use ludus_host::check::{Validation, VALIDATION_SEED};
use ludus_host::{BotKind, BotModule, Limits, Sandbox};
use ludus_leaderboard::store::{Location, Store};
use ludus_leaderboard::submit::{self, SubmitError};
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(clap::Args)]
pub struct CheckArgs {
    /// The bot's .wasm file.
    bot: PathBuf,
    /// The game to validate the bot for (default: every game).
    #[arg(long)]
    game: Option<String>,
    /// Fail (exit 1) when the game refused any of the bot's moves, as
    /// on a fault: without it, refused moves are warnings.
    #[arg(long)]
    strict: bool,
    #[command(flatten)]
    limits: LimitArgs,
}

impl CheckArgs {
    pub fn run(self) -> Result<()> {
        check(
            &self.bot,
            self.game.as_deref(),
            self.strict,
            &self.limits.limits(),
        )
    }
}

#[derive(clap::Args)]
pub struct SubmitArgs {
    /// The bot's .wasm file (`ludus build-bot` makes one from source).
    bot: PathBuf,
    /// The name to store it under: a new name is a new bot, a name
    /// already stored takes these bytes as its next version.
    #[arg(long)]
    name: String,
    /// The game it plays (see `ludus games`); it must pass that game's
    /// validation match.
    #[arg(long)]
    game: String,
    #[command(flatten)]
    db: DbArg,
    /// A server's URL, e.g. http://127.0.0.1:8080.
    #[arg(long, requires = "token")]
    server: Option<String>,
    /// Your API token on that server (`ludus user add` made it).
    #[arg(long, env = "LUDUS_TOKEN", hide_env_values = true)]
    token: Option<String>,
    /// With --server: store it as a candidate, not entered in its
    /// game's ladder until you promote it (it plays only your
    /// challenges meanwhile).
    #[arg(long, requires = "server")]
    candidate: bool,
}

impl SubmitArgs {
    /// `ludus submit`: into the database, or with `--server` to a server.
    pub fn run(self) -> Result<()> {
        match (self.server, self.token) {
            (Some(server), Some(token)) => crate::serve::submit_remote(
                &self.bot,
                &self.name,
                &self.game,
                &server,
                &token,
                self.candidate,
            ),
            _ => submit(&self.bot, &self.name, &self.game, &self.db.db),
        }
    }
}

/// `strict`: refused moves fail the check, as faults do.
fn check(path: &Path, game: Option<&str>, strict: bool, limits: &Limits) -> Result<()> {
    if let Some(game) = game {
        ludus_engine::registry::info(game)?;
    }
    let sandbox = Sandbox::new()?;
    let bot = sandbox
        .load_file(path)
        .with_context(|| format!("{} is not a bot Ludus can run", path.display()))?;
    print_bot(&bot, path);
    if let Some(game) = game {
        let report = ludus_host::check::check(&bot, Some(game), limits, |_| {})?;
        let v = &report.games[0];
        print_validation(v, limits);
        return match v.why_failed() {
            None => verdict(path, &bot, v, strict, limits),
            Some(why) => bail!(
                "{} does not play {game}: {why}{}",
                path.display(),
                see_whole(v, &bot, limits)?
            ),
        };
    }
    let report = ludus_host::check::check(&bot, None, limits, print_summary)?;
    let plays: Vec<&str> = report
        .games
        .iter()
        .filter(|v| v.passed() && !(strict && v.warnings() > 0))
        .map(|v| v.game)
        .collect();
    match plays[..] {
        [] => match report.games.iter().find(|v| v.passed()) {
            // Only --strict leaves it out: it plays with refused moves.
            Some(v) => {
                println!();
                print_validation(v, limits);
                verdict(path, &bot, v, strict, limits)
            }
            None => {
                let first = print_failures_once(&report.games, limits);
                let see = match first {
                    Some(v) => see_whole(v, &bot, limits)?,
                    None => String::new(),
                };
                bail!(
                    "{} plays none of the games{see}; to see only the game it is written for, check it with `--game GAME` (`ludus games` lists them)",
                    path.display()
                )
            }
        },
        [one] => {
            println!();
            let v = report.game(one).expect("it played");
            print_validation(v, limits);
            verdict(path, &bot, v, strict, limits)
        }
        ref several => {
            println!(
                "verdict  {} plays {}: say which with --game (`ludus check {} --game {}`)",
                bot.name,
                and_list(several),
                path.display(),
                several[0]
            );
            Ok(())
        }
    }
}

/// The verdict on a passed validation: OK, or OK with refused moves (an
/// error with `strict`), then the command that shows the first refusal.
fn verdict(
    path: &Path,
    bot: &Arc<BotModule>,
    v: &Validation,
    strict: bool,
    limits: &Limits,
) -> Result<()> {
    let (name, game) = (&bot.name, v.game);
    let refused = v.warnings();
    if refused == 0 {
        println!("verdict  OK: {name} plays {game} ({})", played(v));
        return Ok(());
    }
    let moves = if refused == 1 { "move" } else { "moves" };
    if strict {
        bail!(
            "{} plays {game}, but the game refused {refused} of its {moves}, which --strict fails{}",
            path.display(),
            see_whole(v, bot, limits)?
        );
    }
    println!(
        "verdict  OK, with {refused} refused {moves}: {name} plays {game} ({})",
        played(v)
    );
    if let Some(command) = finding_command(v, bot, limits)? {
        println!("next     {command}");
    }
    Ok(())
}

/// `; see it whole: COMMAND` for the first failure or refusal of `v`.
fn see_whole(v: &Validation, bot: &Arc<BotModule>, limits: &Limits) -> Result<String> {
    Ok(finding_command(v, bot, limits)?
        .map(|command| format!("; see that turn whole with `{command}`"))
        .unwrap_or_default())
}

/// The command that shows the first failure or refusal of `v` in full,
/// once its validation match is written where the command reads it:
/// `replays/check-GAME-Nseats-MATCH.json`, as `ludus play` writes a match.
fn finding_command(
    v: &Validation,
    bot: &Arc<BotModule>,
    limits: &Limits,
) -> Result<Option<String>> {
    let Some(finding) = v.first_finding() else {
        return Ok(None);
    };
    let replay = finding.replay(bot, limits)?;
    let path = PathBuf::from("replays").join(format!(
        "check-{}-{}seats-{}.json",
        v.game,
        finding.check.seats,
        replay.short_id()
    ));
    replay.save(&path)?;
    let arg = path.display().to_string();
    let db = None;
    Ok(Some(
        ReplayArg { arg: &arg, db }.show_command(finding.turn, finding.seat),
    ))
}

/// The failed validations in full, once for each way they failed (a broken
/// bot usually fails every game the same way); returns the first printed.
fn print_failures_once<'a>(games: &'a [Validation], limits: &Limits) -> Option<&'a Validation> {
    let mut groups: Vec<(String, &Validation, Vec<&str>)> = Vec::new();
    for v in games {
        let Some(m) = v.failed() else { continue };
        let how = match (m.failures.first(), &m.aborted) {
            (Some(f), _) => format!("{} {}", f.turn, f.problem),
            (None, why) => format!("{why:?}"),
        };
        match groups.iter_mut().find(|(h, ..)| *h == how) {
            Some((.., likewise)) => likewise.push(v.game),
            None => groups.push((how, v, Vec::new())),
        }
    }
    let first = groups.first().map(|(_, v, _)| *v);
    for (_, v, likewise) in groups {
        println!();
        print_validation(v, limits);
        if !likewise.is_empty() {
            println!("also     {} failed the same way", and_list(&likewise));
        }
    }
    first
}

fn submit(path: &Path, name: &str, game: &str, db: &Location) -> Result<()> {
    let wasm = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let sandbox = Sandbox::new()?;
    let limits = Limits::default();
    let admitted = match submit::admit(&sandbox, name, game, &wasm, &limits) {
        Ok(a) => a,
        Err(SubmitError::Refused { game, report }) => {
            print_validation(report.game(&game).expect("validated first"), &limits);
            let hint = match report.plays()[..] {
                [] => format!("try `ludus check {}`", path.display()),
                [one, ..] => format!("submit it with --game {one}"),
            };
            let refused = SubmitError::Refused { game, report };
            bail!("{}: {refused}; {hint}", path.display())
        }
        Err(e) => return Err(e).with_context(|| format!("{} is refused", path.display())),
    };
    for v in &admitted.report.games {
        print_warnings(v);
    }
    let store = Store::connect(db)?;
    // The operator's: no account claims the name.
    let s = admitted.store_for(
        &store,
        None,
        &ludus_leaderboard::clock::now_rfc3339(),
        false,
    )?;
    let sha = ludus_host::short_id(&s.stored.bot.sha256);
    let (bot, version) = (&s.stored.bot.name, s.stored.bot.version);
    if s.stored.new_version {
        let v = &s.report.games[0];
        let refused = match v.warnings() {
            0 => String::new(),
            1 => ", with 1 refused move".into(),
            n => format!(", with {n} refused moves"),
        };
        println!(
            "stored {bot} v{version} ({game}, sha256 {sha}) in {db}: it played {}{refused}",
            played(v)
        );
    } else {
        println!("unchanged: {bot} v{version} already has these bytes (sha256 {sha})");
    }
    Ok(())
}

/// Who the bot is and what kind of WebAssembly it is.
fn print_bot(bot: &BotModule, path: &Path) {
    println!("bot      {} ({})", bot.name, path.display());
    println!("sha256   {}", bot.sha256);
    println!("kind     {}", bot.kind().describe());
    match bot.kind() {
        BotKind::Core => {
            println!("imports  wasi_snapshot_preview1 only: ok");
            println!("exports  memory, ludus_alloc, act: ok");
        }
        BotKind::Component => {
            println!("imports  WASI preview 2 only: ok");
            println!("exports  act: func(state: string) -> string: ok");
        }
    }
}

/// What a passed validation played: `30 turns with 2 and 4 seats (seed 0)`.
fn played(v: &Validation) -> String {
    let seats: Vec<String> = v.matches.iter().map(|m| m.seats.to_string()).collect();
    let seats: Vec<&str> = seats.iter().map(String::as_str).collect();
    let turns = v.matches.iter().map(|m| m.turns).max().unwrap_or(0);
    format!(
        "{turns} turns against copies of itself with {} seats, seed {VALIDATION_SEED}",
        and_list(&seats)
    )
}

/// One line per game, for `check` without `--game`.
fn print_summary(v: &Validation) {
    match (v.why_failed(), v.warnings()) {
        (None, 0) => println!("{:<12} plays it: {}", v.game, played(v)),
        (None, n) => println!(
            "{:<12} plays it, with {n} refused {}: {}",
            v.game,
            if n == 1 { "move" } else { "moves" },
            played(v)
        ),
        (Some(why), _) => println!("{:<12} no: {}", v.game, clip(&why, 160)),
    }
}

/// A game's validation in full: each match, the fuel, the warnings, and the
/// failure with the bot's log of that turn and what to do (the text a
/// server's upload page shows too).
fn print_validation(v: &Validation, limits: &Limits) {
    print!("{}", v.report(limits));
}

fn print_warnings(v: &Validation) {
    print!("{}", v.warnings_report());
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}
