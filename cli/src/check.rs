//! The commands that judge a bot before it plays for real: `check` (does it
//! run, and which games does it play?) and `submit` (store it for a game it
//! plays). Both print the validation report of `ludus_host::check`.

use crate::clip;
use anyhow::{bail, Context, Result};
use ludus_host::check::{MatchCheck, Validation, VALIDATION_SEED};
use ludus_host::{BotKind, BotModule, Limits, Sandbox};
use ludus_leaderboard::store::{Location, Store};
use ludus_leaderboard::submit::{self, SubmitError};
use std::path::Path;

/// Log lines shown of a failing turn; the rest are counted.
const LOG_LINES: usize = 12;

pub fn check(path: &Path, game: Option<&str>, limits: &Limits) -> Result<()> {
    if let Some(game) = game {
        ludus_engine::registry::info(game)?;
    }
    let sandbox = Sandbox::new()?;
    let bot = sandbox
        .load_file(path)
        .with_context(|| format!("{} is not a bot Ludus can run", path.display()))?;
    print_bot(&bot, path);
    let name = &bot.name;
    if let Some(game) = game {
        let report = ludus_host::check::check(&bot, Some(game), limits, |_| {})?;
        let v = &report.games[0];
        print_validation(v, limits);
        return match v.why_failed() {
            None => {
                println!("verdict  OK: {name} plays {game} ({})", played(v));
                Ok(())
            }
            Some(why) => bail!("{} does not play {game}: {why}", path.display()),
        };
    }
    let report = ludus_host::check::check(&bot, None, limits, print_summary)?;
    match report.plays()[..] {
        [] => {
            print_failures_once(&report.games, limits);
            bail!("{} plays none of the games", path.display())
        }
        [one] => {
            println!();
            print_validation(report.game(one).expect("it played"), limits);
            println!("verdict  OK: {name} plays {one}");
        }
        ref several => println!(
            "verdict  {name} plays {}: say which with --game (`ludus check {} --game {}`)",
            and_list(several),
            path.display(),
            several[0]
        ),
    }
    Ok(())
}

/// The failed validations in full, once for each way they failed (a broken
/// bot usually fails every game the same way).
fn print_failures_once(games: &[Validation], limits: &Limits) {
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
    for (_, v, likewise) in groups {
        println!();
        print_validation(v, limits);
        if !likewise.is_empty() {
            println!("also     {} failed the same way", and_list(&likewise));
        }
    }
}

pub fn submit(path: &Path, name: &str, game: &str, db: &Location) -> Result<()> {
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
    let s = admitted.store(&store, &ludus_leaderboard::clock::now_rfc3339())?;
    let sha = ludus_host::short_id(&s.stored.bot.sha256);
    let (bot, version) = (&s.stored.bot.name, s.stored.bot.version);
    if s.stored.new_version {
        println!(
            "stored {bot} v{version} ({game}, sha256 {sha}) in {}: it played {}",
            db,
            played(&s.report.games[0])
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
    let warnings = match v.warnings() {
        0 => String::new(),
        n => format!(", {n} moves refused"),
    };
    format!(
        "{turns} turns against copies of itself with {} seats, seed {VALIDATION_SEED}{warnings}",
        and_list(&seats)
    )
}

/// One line per game, for `check` without `--game`.
fn print_summary(v: &Validation) {
    match v.why_failed() {
        None => println!("{:<12} plays it: {}", v.game, played(v)),
        Some(why) => println!("{:<12} no: {}", v.game, clip(&why, 160)),
    }
}

/// A game's validation in full: each match, the fuel, the warnings, and the
/// failure with the bot's log of that turn and what to do.
fn print_validation(v: &Validation, limits: &Limits) {
    let matches: Vec<String> = v.matches.iter().map(match_text).collect();
    println!("{:<8} {}", v.game, matches.join("; "));
    let first = v.matches.iter().map(|m| m.first_turn_fuel).max();
    let later = v.matches.iter().map(|m| m.turn_fuel).max();
    if let Some(first) = first.filter(|f| *f > 0) {
        let mut fuel = format!(
            "first turn at most {first} ({})",
            percent(first, limits.first_turn_fuel)
        );
        if let Some(later) = later.filter(|f| *f > 0) {
            fuel += &format!(
                ", later turns at most {later} ({})",
                percent(later, limits.turn_fuel)
            );
        }
        println!("fuel     {fuel}");
    }
    print_warnings(v);
    let Some(m) = v.failed() else { return };
    if let Some(why) = &m.aborted {
        println!("aborted  {why}");
    }
    let Some(f) = m.failures.first() else { return };
    println!("failed   turn {}, seat {}: {}", f.turn, f.seat, f.problem);
    let others: Vec<String> = m.failures[1..]
        .iter()
        .filter(|o| o.problem.to_string() == f.problem.to_string())
        .map(|o| o.seat.to_string())
        .collect();
    match others.len() {
        0 => {}
        1 => println!("         (seat {} likewise)", others[0]),
        _ => println!("         (seats {} likewise)", others.join(", ")),
    }
    for o in m.failures[1..]
        .iter()
        .filter(|o| o.problem.to_string() != f.problem.to_string())
    {
        println!("failed   turn {}, seat {}: {}", o.turn, o.seat, o.problem);
    }
    if let Some(a) = &f.answer {
        println!("answer   {}", clip(&format!("{a:?}"), 200));
    }
    print_log(&f.log);
    println!("to do    {}", f.problem.what_to_do(v.game, f.turn, limits));
}

/// `2 seats: 30 turns, ok` or `4 seats: failed on turn 3`.
fn match_text(m: &MatchCheck) -> String {
    match (m.passed(), m.failures.first()) {
        (true, _) => format!("{} seats: {} turns, ok", m.seats, m.turns),
        (false, Some(f)) => format!("{} seats: failed on turn {}", m.seats, f.turn),
        (false, None) => format!("{} seats: aborted after {} turns", m.seats, m.turns),
    }
}

fn print_warnings(v: &Validation) {
    for w in v.matches.iter().flat_map(|m| &m.warnings) {
        println!(
            "warning  the game refused {}× {}; first on turn {}, seat {}: {}",
            w.count,
            w.kind,
            w.turn,
            w.seat,
            clip(&w.reason, 160)
        );
    }
}

fn print_log(log: &str) {
    let lines: Vec<&str> = log.trim().lines().collect();
    if lines.is_empty() {
        println!("log      (nothing this turn)");
        return;
    }
    for (i, line) in lines.iter().take(LOG_LINES).enumerate() {
        let head = if i == 0 { "log" } else { "" };
        println!("{head:<8} {}", clip(line, 200));
    }
    if lines.len() > LOG_LINES {
        println!("         ({} more lines)", lines.len() - LOG_LINES);
    }
}

fn percent(fuel: u64, budget: u64) -> String {
    let p = 100.0 * fuel as f64 / budget as f64;
    if p < 0.01 {
        "under 0.01% of its budget".into()
    } else {
        format!("{p:.2}% of its budget")
    }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}
