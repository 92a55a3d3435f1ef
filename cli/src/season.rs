//! The operator's commands of seasons and pauses: `season new`, `season
//! list`, `ladder pause`, `ladder resume` ([`ludus_leaderboard::season`]).

use crate::args::DbArg;
use anyhow::Result;
use clap::Subcommand;
use ludus_leaderboard::season;
use ludus_leaderboard::store::{Location, Store};

#[derive(Subcommand)]
pub enum SeasonCommand {
    /// Close the open season of a game (it schedules no more; the matches
    /// it has waiting are played; its results, ratings and pages stay,
    /// under its name) and open the next, which a running `ludus serve`
    /// fills with every listed bot. The new season needs this Ludus's
    /// versions: run it with the new `ludus` to upgrade.
    New {
        /// The game (see `ludus games`).
        #[arg(long)]
        game: String,
        /// The new season's game config as JSON (default: the closed
        /// season's).
        #[arg(long)]
        config: Option<String>,
        /// The new season's name (default: season N, N its place).
        #[arg(long)]
        name: Option<String>,
        #[command(flatten)]
        db: DbArg,
    },
    /// List a game's seasons, oldest first, open or closed.
    List {
        /// The game (see `ludus games`).
        #[arg(long)]
        game: String,
        #[command(flatten)]
        db: DbArg,
    },
}

impl SeasonCommand {
    pub fn run(self) -> Result<()> {
        match self {
            SeasonCommand::New {
                game,
                config,
                name,
                db,
            } => new(&game, config.as_deref(), name.as_deref(), &db.db),
            SeasonCommand::List { game, db } => list(&game, &db.db),
        }
    }
}

/// `ludus season new`: closes the open season of `game` and opens the next.
pub fn new(game: &str, config: Option<&str>, name: Option<&str>, db: &Location) -> Result<()> {
    let config = match config {
        Some(text) => Some(crate::args::game_config(game, Some(text))?),
        None => None,
    };
    let store = Store::connect_existing(db)?;
    let started = season::start(&store, game, config, name)?;
    match &started.closed {
        Some(closed) => println!(
            "closed {} of {game} (ladder {}): it schedules no more; the matches it had waiting are played, \
             and its board stays readable (`ludus leaderboard --game {game} --season '{}'`, /games/{game}?season=…)",
            closed.name, closed.ladder, closed.name
        ),
        None => println!("{game} had no season yet"),
    }
    println!(
        "opened {} of {game} (ladder {}): game config {}, needs Ludus {}, rules v{}, wasmtime {}; \
         a running `ludus serve` seats every listed bot in it at its next look",
        started.opened.name,
        started.opened.ladder,
        started.config,
        started.needs.ludus_version,
        started.needs.rules_version,
        started.needs.wasmtime_version
    );
    if started.paused {
        println!("{game} is paused: nothing is scheduled until `ludus ladder resume {game}`");
    }
    Ok(())
}

/// `ludus season list`: the seasons of `game`, oldest first.
pub fn list(game: &str, db: &Location) -> Result<()> {
    let store = Store::connect_existing(db)?;
    let all = season::seasons(&store, game)?;
    if all.is_empty() {
        println!("{game} has no season yet: `ludus serve` starts one when it has enough bots");
        return Ok(());
    }
    let paused = season::paused(&store, game)?;
    println!("{:<8} {:<24} state", "ladder", "season");
    for s in all {
        let state = match s.closed_at {
            Some(at) => format!("closed {}", ludus_leaderboard::clock::unix_rfc3339(at)),
            None if paused => "open, paused".into(),
            None => "open".into(),
        };
        println!("{:<8} {:<24} {state}", s.ladder, s.name);
    }
    Ok(())
}

/// `ludus ladder pause`.
pub fn pause(game: &str, db: &Location) -> Result<()> {
    let store = Store::connect_existing(db)?;
    if season::pause(&store, game)? {
        println!(
            "paused {game}: no new match is scheduled (the matches waiting are played) \
             until `ludus ladder resume {game}`"
        );
    } else {
        println!("{game} was paused already");
    }
    Ok(())
}

/// `ludus ladder resume`.
pub fn resume(game: &str, db: &Location) -> Result<()> {
    let store = Store::connect_existing(db)?;
    if season::resume(&store, game)? {
        println!("resumed {game}: the scheduler plays it again at its next look");
    } else {
        println!("{game} was not paused");
    }
    Ok(())
}
