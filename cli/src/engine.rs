//! `ludus games` and `ludus engine run`: the games of the registry, and a
//! game driven directly from a file of actions, without bots
//! ([`ludus_engine::reference`]).

use crate::args::game_config;
use anyhow::{Context, Result};
use clap::Subcommand;
use std::path::{Path, PathBuf};

#[derive(Subcommand)]
pub enum EngineCommand {
    /// Play a game from a file of actions, one JSON line per step: an array
    /// with one entry per seat (that seat's answer as the game takes it, or
    /// null). Prints one JSON line per state, the initial one first:
    /// {"step", "observation" (as seat 0 sees it, in the reference's shape),
    /// "rewards", "statuses"}. Stops at the end of the file or of the game.
    Run {
        /// The game (see `ludus games`).
        #[arg(long)]
        game: String,
        /// The game's seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Seats (default: the game's fewest).
        #[arg(long)]
        players: Option<usize>,
        /// The game's config as JSON.
        #[arg(long)]
        config: Option<String>,
        /// The actions file; `-` reads standard input.
        #[arg(long)]
        actions: PathBuf,
    },
}

impl EngineCommand {
    pub fn run(self) -> Result<()> {
        match self {
            EngineCommand::Run {
                game,
                seed,
                players,
                config,
                actions,
            } => engine_run(&game, seed, players, config.as_deref(), &actions),
        }
    }
}

/// `ludus games`: a line per game of the registry.
pub fn games() -> Result<()> {
    println!(
        "{:<12} {:>5}  {:<10} {:<7}  summary",
        "game", "rules", "players", "score"
    );
    for g in ludus_engine::games() {
        println!(
            "{:<12} {:>5}  {:<10} {:<7}  {}",
            g.id,
            format!("v{}", g.rules_version),
            g.seats_text(),
            g.score_unit,
            g.summary
        );
    }
    Ok(())
}

fn engine_run(
    game: &str,
    seed: u64,
    players: Option<usize>,
    config: Option<&str>,
    actions: &Path,
) -> Result<()> {
    use std::io::{BufRead, Write};
    let info = ludus_engine::registry::info(game)?;
    let players = players.unwrap_or(info.fewest_seats());
    let config = game_config(game, config)?;
    let mut g = ludus_engine::new_game(game, &config, seed, players)?;
    let input: Box<dyn BufRead> = if actions == Path::new("-") {
        Box::new(std::io::stdin().lock())
    } else {
        let file = std::fs::File::open(actions)
            .with_context(|| format!("opening the actions file {}", actions.display()))?;
        Box::new(std::io::BufReader::new(file))
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    // Blank lines are no step, yet every line keeps its number for messages.
    let steps = input.lines().enumerate().filter_map(|(i, text)| {
        match text.with_context(|| format!("reading {}", actions.display())) {
            Ok(text) if text.trim().is_empty() => None,
            read => Some(read.map(|text| (i, text))),
        }
    });
    let unplayed = ludus_engine::reference::run(
        g.as_mut(),
        steps,
        |(i, text)| {
            ludus_engine::reference::parse_actions_line(&text, players)
                .map_err(|e| anyhow::anyhow!("{} line {}: {e}", actions.display(), i + 1))
        },
        |g, refused, line| {
            for r in refused {
                tracing::info!(step = g.turn(), seat = r.seat, kind = %r.kind, "{}", r.reason);
            }
            writeln!(out, "{line}")?;
            Ok(())
        },
    )?;
    if let Some((i, _)) = unplayed {
        tracing::warn!(
            "{}: the game ended at step {}; line {} and after are not played",
            actions.display(),
            g.turn(),
            i + 1
        );
    }
    out.flush()?;
    Ok(())
}
