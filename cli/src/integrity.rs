//! `ludus ladder check` and `ludus ladder repair`: the database's
//! invariants, checked read-only and printed, and the ratings that do not
//! hold re-rated ([`ludus_leaderboard::integrity`]).

use crate::args::DbArg;
use anyhow::{bail, Result};
use clap::Args;
use ludus_leaderboard::integrity::{self, CheckOptions, Invariant, Repair, Report, Which};
use ludus_leaderboard::store::{Location, Store};
use std::io::Write;

#[derive(Args)]
pub struct LadderCheckArgs {
    #[command(flatten)]
    which: WhichLadders,
    /// Also hash every stored bot's wasm (reads every bot's bytes).
    #[arg(long)]
    bytes: bool,
    /// How to print the report.
    #[arg(long, value_enum, default_value = "text")]
    format: CheckFormat,
    #[command(flatten)]
    db: DbArg,
}

impl LadderCheckArgs {
    pub fn run(self) -> Result<()> {
        check(self.which.which()?, self.bytes, self.format, &self.db.db)
    }
}

#[derive(Args)]
pub struct LadderRepairArgs {
    #[command(flatten)]
    which: WhichLadders,
    #[command(flatten)]
    db: DbArg,
}

impl LadderRepairArgs {
    pub fn run(self) -> Result<()> {
        repair(self.which.which()?, &self.db.db)
    }
}

/// The ladders `ladder check` and `ladder repair` look at.
#[derive(Args)]
struct WhichLadders {
    /// One ladder, by id.
    #[arg(long, conflicts_with_all = ["game", "all"])]
    ladder: Option<i64>,
    /// A game's continuous ladder (its open season), or else its latest.
    #[arg(long, conflicts_with = "all")]
    game: Option<String>,
    /// Every ladder of the database (the default).
    #[arg(long)]
    all: bool,
}

/// How `ladder check` prints its report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckFormat {
    /// Every ladder's invariants with their figures and `ok` or their
    /// violations, then a one-line verdict.
    Text,
    /// One JSON object: `{"ladders":[{"ladder","game","kind","invariants":
    /// [{"name","checked","violations"}],"rating_lag"}],"violations"}`.
    Json,
}

impl WhichLadders {
    /// The ladders `--ladder`, `--game` and `--all` name: every ladder when
    /// none is given.
    fn which(self) -> Result<Which> {
        Ok(match (self.ladder, self.game, self.all) {
            (Some(id), None, false) => Which::Ladder(id),
            (None, Some(game), false) => Which::Game(game),
            (None, None, _) => Which::All,
            _ => bail!("give one of --ladder N, --game GAME and --all"),
        })
    }
}

/// `ludus ladder check`: prints the report; exits 1 when an invariant
/// does not hold (0 when every one does).
fn check(which: Which, bytes: bool, format: CheckFormat, db: &Location) -> Result<()> {
    let store = Store::connect_existing(db)?;
    let report = integrity::check(&store, &which, CheckOptions { bytes })?;
    let mut out = std::io::stdout().lock();
    match format {
        CheckFormat::Json => writeln!(out, "{}", serde_json::to_string(&report)?)?,
        CheckFormat::Text => write_text(&mut out, &report)?,
    }
    out.flush()?;
    if !report.holds() {
        // The verdict is printed: no error line besides it.
        std::process::exit(1);
    }
    Ok(())
}

fn write_invariant(out: &mut impl Write, indent: &str, i: &Invariant) -> Result<()> {
    let state = match i.violated {
        0 => "ok".to_string(),
        1 => "1 violation".to_string(),
        n => format!("{n} violations"),
    };
    let figure = format!("{} {}", i.checked, i.unit);
    writeln!(out, "{indent}{:<13} {figure:<22} {state}", i.name)?;
    for v in &i.violations {
        writeln!(out, "{indent}  {v}")?;
    }
    Ok(())
}

fn write_text(out: &mut impl Write, report: &Report) -> Result<()> {
    for l in &report.ladders {
        let season = l
            .season
            .as_deref()
            .map(|s| format!(" ({s})"))
            .unwrap_or_default();
        writeln!(
            out,
            "ladder {}: {} {}{season}, {} matches; finished prefix {}, rated through {}, rating lag {}",
            l.ladder, l.game, l.kind, l.matches, l.finished_prefix, l.rated_through, l.rating_lag
        )?;
        for i in &l.invariants {
            write_invariant(out, "  ", i)?;
        }
        for note in &l.notes {
            writeln!(out, "  note: {note}")?;
        }
    }
    if let Some(bots) = &report.bots {
        write_invariant(out, "", bots)?;
    }
    let ladders = match report.ladders.len() {
        1 => "1 ladder".to_string(),
        n => format!("{n} ladders"),
    };
    if report.holds() {
        writeln!(
            out,
            "verdict: ok, every invariant holds over {ladders} (read in {:.2} s)",
            report.seconds
        )?;
    } else {
        let mut by_name: Vec<(&str, u64)> = Vec::new();
        for i in report
            .ladders
            .iter()
            .flat_map(|l| l.invariants.iter())
            .chain(report.bots.iter())
            .filter(|i| i.violated > 0)
        {
            match by_name.iter_mut().find(|(n, _)| *n == i.name) {
                Some((_, count)) => *count += i.violated,
                None => by_name.push((i.name, i.violated)),
            }
        }
        let which: Vec<String> = by_name.iter().map(|(n, c)| format!("{n} {c}")).collect();
        writeln!(
            out,
            "verdict: VIOLATED, {} over {ladders} ({}); `ludus ladder repair` re-rates the ladders whose ratings do not hold",
            match report.violations {
                1 => "1 violation".to_string(),
                n => format!("{n} violations"),
            },
            which.join(", ")
        )?;
    }
    Ok(())
}

/// `ludus ladder repair`: re-rates the ladders whose ratings do not hold,
/// and says what it did to each.
fn repair(which: Which, db: &Location) -> Result<()> {
    let store = Store::connect_existing(db)?;
    let done = integrity::repair(&store, &which)?;
    let mut rerated = 0;
    for r in &done {
        let ladder = format!("ladder {} ({} {})", r.ladder, r.game, r.kind);
        match &r.action {
            Repair::Unrated => println!("{ladder}: a challenge's, never rated: nothing to re-rate"),
            Repair::Consistent { rated_through } => println!(
                "{ladder}: its ratings hold (over the matches before {rated_through}): left as they are"
            ),
            Repair::Rerated {
                from,
                was,
                now,
                why,
            } => {
                rerated += 1;
                println!(
                    "{ladder}: re-rated from match {from} (the ratings covered the matches before {was}, now those before {now}): {}",
                    why.join("; ")
                );
            }
        }
    }
    println!(
        "{rerated} of {} ladders re-rated; `ludus ladder check` checks them (a repair re-rates: it mends no schedule, result or count of scheduled matches)",
        done.len()
    );
    Ok(())
}
