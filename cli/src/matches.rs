//! The commands around single matches: play, replay verify/show/html/export,
//! and the list of a ladder's matches.

use crate::args::{game_config, DbArg, LimitArgs, OptionalDbArg};
use crate::columns::clip;
use crate::findings::{self, ReplayArg};
use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use ludus_host::numbers::rounded;
use ludus_host::{short_id, Replay, Sandbox};
use ludus_leaderboard::lookup::{self, Places, ReplaySource};
use ludus_leaderboard::store::{Location, Store};
use ludus_leaderboard::{report, seated};
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct PlayArgs {
    /// The game (see `ludus games`).
    #[arg(long)]
    game: String,
    /// The match seed: the same seed and bots give the same match, byte for byte.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// A map file in the game's own JSON shape (Planet Wars: {"planets": [...]}).
    #[arg(long)]
    map: Option<PathBuf>,
    /// The game's config as JSON (e.g. '{"max_turns": 200}'); --map is merged into it.
    #[arg(long)]
    config: Option<String>,
    /// Where to write the replay (gzip when it ends in .gz).
    /// Default: replays/<game>-<seed>-<match id>.json
    #[arg(long)]
    out: Option<PathBuf>,
    #[command(flatten)]
    limits: LimitArgs,
    /// One .wasm per seat, in seat order.
    #[arg(required = true, num_args = 1..)]
    bots: Vec<PathBuf>,
}

#[derive(Subcommand)]
pub enum ReplayCommand {
    /// Re-run a match from its bots and compare every turn; names the first
    /// turn that differs. Each bot is looked up by sha256 in the --bots
    /// folders, then the bot store, then the module cache.
    Verify {
        /// A replay file, or the id (or a unique prefix) of a match stored in the database.
        replay: String,
        /// Folders of .wasm files to look for the bots in. Default: the
        /// replay's folder and the current one.
        #[arg(long)]
        bots: Vec<PathBuf>,
        #[command(flatten)]
        db: OptionalDbArg,
    },
    /// Write a page that plays the replay in a browser: one self-contained
    /// HTML file (no network), the board drawn turn by turn.
    Html {
        /// A replay file, or the id (or a unique prefix) of a stored match.
        replay: String,
        /// The page to write.
        #[arg(short, long)]
        out: PathBuf,
        /// How the match goes into the page: json, gzip (base64), or auto
        /// (gzip when the JSON is over 1 MiB).
        #[arg(long, default_value = "auto")]
        embed: EmbedArg,
        #[command(flatten)]
        db: OptionalDbArg,
    },
    /// Print what happened in a replay: the match in brief, the turns with
    /// faults and refusals, and the command that shows the first in full.
    Show {
        /// A replay file, or the id (or a unique prefix) of a stored match.
        replay: String,
        /// Print this turn in full: every seat's fuel, answer, fault,
        /// refusals and log, whole; the scores and state hash after it.
        #[arg(long)]
        turn: Option<u32>,
        /// With --turn: only this seat (0 is the first).
        #[arg(long, requires = "turn")]
        seat: Option<usize>,
        #[command(flatten)]
        db: OptionalDbArg,
    },
    /// Write the replay of a match stored in the database to a file.
    Export {
        /// The match id, or a unique prefix of it (`ludus matches` lists them).
        #[arg(name = "MATCH")]
        match_id: String,
        /// The file to write (gzip when it ends in .gz).
        #[arg(short, long)]
        out: PathBuf,
        #[command(flatten)]
        db: OptionalDbArg,
    },
}

impl ReplayCommand {
    pub fn run(self) -> Result<()> {
        match self {
            ReplayCommand::Verify { replay, bots, db } => verify(&replay, bots, &db),
            ReplayCommand::Show {
                replay,
                turn,
                seat,
                db,
            } => show(&replay, turn, seat, &db),
            ReplayCommand::Html {
                replay,
                out,
                embed,
                db,
            } => replay_html(&replay, &out, embed, &db),
            ReplayCommand::Export { match_id, out, db } => export(&match_id, &out, &db),
        }
    }
}

/// How `replay html` puts the match into its page.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum EmbedArg {
    Auto,
    Json,
    Gzip,
}

#[derive(Args)]
pub struct MatchesArgs {
    /// The ladder (default: the latest, of --game if given).
    #[arg(long)]
    ladder: Option<i64>,
    /// The game whose latest ladder to list, when --ladder is not given.
    #[arg(long)]
    game: Option<String>,
    /// Only the matches this bot plays.
    #[arg(long)]
    bot: Option<String>,
    #[command(flatten)]
    db: DbArg,
}

impl MatchesArgs {
    pub fn run(self) -> Result<()> {
        list_matches(
            self.ladder,
            self.game.as_deref(),
            self.bot.as_deref(),
            &self.db.db,
        )
    }
}

/// The database of `--db` (or `LUDUS_DB`), or `ludus.db` when it is
/// here; `None` without either.
fn optional_store(arg: &OptionalDbArg) -> Result<Option<Store>> {
    match &arg.db {
        Some(location) => Ok(Some(Store::connect_existing(location)?)),
        None => {
            let default = Path::new("ludus.db");
            Ok(if default.is_file() {
                Some(Store::open(default)?)
            } else {
                None
            })
        }
    }
}

fn open_replay(arg: &str, db: &OptionalDbArg) -> Result<(Replay, ReplaySource, Option<Store>)> {
    let store = optional_store(db)?;
    // A stored match whose replay its ladder did not keep is played again.
    let sandbox = Sandbox::new()?;
    let (replay, source) = lookup::open_replay(arg, store.as_ref(), &sandbox)?;
    Ok((replay, source, store))
}

/// The game's config from `--config` and `--map` (merged in as `map`).
fn play_config(game: &str, config: Option<&str>, map: Option<&Path>) -> Result<serde_json::Value> {
    let mut config = game_config(game, config)?;
    if let Some(map) = map {
        let text = std::fs::read_to_string(map)
            .with_context(|| format!("cannot read map file {}", map.display()))?;
        let value: serde_json::Value = serde_json::from_str(&text)
            .with_context(|| format!("map file {} is not valid JSON", map.display()))?;
        if config.is_null() {
            config = serde_json::json!({});
        }
        let Some(obj) = config.as_object_mut() else {
            bail!("--config must be a JSON object to take --map");
        };
        obj.insert("map".into(), value);
    }
    Ok(config)
}

impl PlayArgs {
    /// `ludus play`: one match, its replay written and summed up.
    pub fn run(self) -> Result<()> {
        let PlayArgs {
            game,
            seed,
            map,
            config,
            out,
            limits,
            bots: bot_paths,
        } = self;
        let config = play_config(&game, config.as_deref(), map.as_deref())?;
        // The game, its seat count and its config before any bot file: a
        // mistyped game is named as such, not blamed on the first bot.
        ludus_engine::new_game(&game, &config, seed, bot_paths.len())?;
        let sandbox = Sandbox::new()?;
        let bots = bot_paths
            .iter()
            .map(|p| {
                sandbox
                    .load_file(p)
                    .with_context(|| format!("cannot use {} as a bot", p.display()))
            })
            .collect::<Result<Vec<_>>>()?;
        let spec = ludus_host::MatchSpec {
            game,
            config,
            seed,
            limits: limits.limits(),
            bots,
        };
        let replay = ludus_host::play(&spec)?;
        let out = out.unwrap_or_else(|| {
            PathBuf::from("replays").join(format!(
                "{}-{}-{}.json",
                replay.game,
                replay.seed,
                replay.short_id()
            ))
        });
        replay.save(&out)?;
        let summary = print_summary(&replay);
        println!("replay   {}", out.display());
        let arg = out.display().to_string();
        let db = None;
        findings::print_next(&summary, &ReplayArg { arg: &arg, db });
        Ok(())
    }
}

/// The match in brief: the header, a line per seat (with its first fault
/// and refusal), the result.
fn print_summary(replay: &Replay) -> ludus_host::Summary {
    let board_seed = ludus_engine::registry::info(&replay.game)
        .map(|g| g.game_seed(replay.seed))
        .ok()
        .filter(|&s| s != replay.seed)
        .map(|s| format!(" (board seed {s})"))
        .unwrap_or_default();
    println!(
        "{} v{}, seed {}{board_seed}, {} turns, match {}",
        replay.game,
        replay.rules_version,
        replay.seed,
        replay.turns.len(),
        replay.short_id()
    );
    let summary = replay.summary();
    // Where the running score counts something else than the score (Planet
    // Wars: the share of opponents outlasted, then the final ships), both.
    let progress_head = summary
        .progress_unit
        .map_or(String::new(), |unit| format!(" {unit:>8}"));
    println!(
        "{:<5} {:<24} {:>5} {:>10}{progress_head} {:>8}  faults",
        "seat", "bot", "place", summary.score_unit, "refused"
    );
    for s in &summary.seats {
        let place = s.place.map_or("-".into(), |p| p.to_string());
        let score = s.score.map_or("-".into(), |x| rounded(x, 2));
        let progress = summary.progress_unit.map_or(String::new(), |_| {
            format!(" {:>8}", s.progress.map_or("-".into(), |x| rounded(x, 2)))
        });
        println!(
            "{:<5} {:<24} {:>5} {:>10}{progress} {:>8}  {}",
            s.seat,
            clip(&s.name, 24),
            place,
            score,
            s.refused,
            s.faults_text()
        );
        if let Some((turn, fault)) = &s.first_fault {
            println!(
                "      first fault: {}",
                clip(&format!("turn {turn}: {fault}"), 160)
            );
        }
        findings::print_seat_refusals(s);
    }
    println!("result   {}", summary.result);
    summary
}

fn verify(arg: &str, mut dirs: Vec<PathBuf>, db: &OptionalDbArg) -> Result<()> {
    let (mut replay, source, store) = open_replay(arg, db)?;
    // Each seat as its ladder seated it, whatever bytes it shares.
    let seated = seated::scheduled_in(store.as_ref(), &replay)?;
    if let Some(s) = &seated {
        seated::rename(&mut replay, &seated::names(s));
    }
    if dirs.is_empty() {
        if let ReplaySource::File(path) = &source {
            dirs.push(path.parent().map(Path::to_path_buf).unwrap_or_default());
        }
        dirs.push(PathBuf::from("."));
    }
    let sandbox = Sandbox::new()?;
    let found = lookup::find_bots(
        &sandbox,
        &replay.seats,
        Places {
            dirs: &dirs,
            store: store.as_ref(),
        },
    )?;
    for (seat, (bot, place)) in found.iter().enumerate() {
        let name = seated
            .as_ref()
            .map_or(bot.name.clone(), |s| s[seat].label());
        println!("seat {seat}   {name} from {place}");
    }
    let bots = found.into_iter().map(|(bot, _)| bot).collect();
    match ludus_host::verify(&replay, bots)? {
        None => {
            println!(
                "verified: {} turns of {} (match {}) re-ran identically",
                replay.turns.len(),
                replay.game,
                replay.short_id()
            );
            Ok(())
        }
        Some(d) => bail!("{arg} does not reproduce: {d}"),
    }
}

fn replay_html(arg: &str, out: &Path, embed: EmbedArg, db: &OptionalDbArg) -> Result<()> {
    let (replay, _, store) = open_replay(arg, db)?;
    let names = seated::scheduled_in(store.as_ref(), &replay)?
        .map_or_else(Vec::new, |s| seated::labels(&s));
    let embed = match embed {
        EmbedArg::Auto => ludus_viewer::Embed::Auto,
        EmbedArg::Json => ludus_viewer::Embed::Json,
        EmbedArg::Gzip => ludus_viewer::Embed::Gzip,
    };
    let (html, notes) = ludus_viewer::named_replay_page(&replay, &names, embed);
    for note in notes {
        eprintln!("warning: {arg}: {note}");
    }
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    std::fs::write(out, html).with_context(|| format!("cannot write {}", out.display()))?;
    println!(
        "wrote {} ({} turns of {}); open it in a browser",
        out.display(),
        replay.turns.len(),
        replay.game
    );
    Ok(())
}

fn show(arg: &str, turn: Option<u32>, seat: Option<usize>, db: &OptionalDbArg) -> Result<()> {
    let (mut replay, source, store) = open_replay(arg, db)?;
    // Each seat as its ladder seated it (`name vN`), whatever bytes it shares.
    if let Some(s) = seated::scheduled_in(store.as_ref(), &replay)? {
        seated::rename(&mut replay, &seated::labels(&s));
    }
    let Some(t) = turn else {
        for (seat, info) in replay.seats.iter().enumerate() {
            println!(
                "seat {seat}: {} (sha256 {})",
                info.name,
                short_id(&info.sha256)
            );
        }
        let summary = print_summary(&replay);
        findings::print_turn_lists(&summary);
        let db = match source {
            // `LUDUS_DB`, or ludus.db here, finds the match again by itself.
            ReplaySource::Stored(location)
                if std::env::var_os("LUDUS_DB").is_none()
                    && location != Location::File("ludus.db".into()) =>
            {
                Some(location.to_string())
            }
            _ => None,
        };
        findings::print_next(&summary, &ReplayArg { arg, db });
        return Ok(());
    };
    findings::print_turn(&replay, t, seat).with_context(|| arg.to_string())
}

fn export(prefix: &str, out: &Path, db: &OptionalDbArg) -> Result<()> {
    let store = optional_store(db)?
        .context("no ludus.db here to export a match from; pass --db with your Ludus database")?;
    let replay = lookup::stored_replay(&store, prefix, &Sandbox::new()?)?;
    replay.save(out)?;
    println!(
        "wrote {} (match {}, {} turns of {})",
        out.display(),
        replay.short_id(),
        replay.turns.len(),
        replay.game
    );
    Ok(())
}

fn list_matches(
    ladder: Option<i64>,
    game: Option<&str>,
    bot: Option<&str>,
    db: &Location,
) -> Result<()> {
    let store = Store::connect_existing(db)?;
    let report::MatchList {
        ladder: record,
        matches,
    } = report::list_matches(&store, ladder, game, bot)?;
    let id = record.id;
    let played = matches.iter().filter(|m| m.played.is_some()).count();
    println!(
        "ladder {id}: {} {}, {} seats, seed {}; {played} of {} matches played{}",
        record.game,
        record.kind,
        record.players,
        record.seed,
        matches.len(),
        bot.map(|b| format!(" (those of {b})")).unwrap_or_default()
    );
    // Every seat in full, however many a table has: the column is as wide
    // as its longest line.
    let seats: Vec<String> = matches
        .iter()
        .map(|m| {
            let places = m.played.as_ref().map(|p| &p.placements);
            m.seats
                .iter()
                .enumerate()
                .map(|(i, name)| match places.and_then(|p| p.get(i)) {
                    Some(place) => format!("{name} ({place})"),
                    None => name.clone(),
                })
                .collect::<Vec<_>>()
                .join(" vs ")
        })
        .collect();
    let width = seats
        .iter()
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(0)
        .max(40);
    println!(
        "{:>5}  {:>20}  {:<width$} {:>5}  {:<12}  result",
        "match", "seed", "seats (place)", "turns", "id"
    );
    for (m, seats) in matches.iter().zip(&seats) {
        let (turns, match_id, result) = match &m.played {
            Some(p) => (
                p.turns.to_string(),
                short_id(&p.match_id).to_string(),
                p.reason.clone(),
            ),
            None => ("-".into(), "-".into(), "not played yet".into()),
        };
        println!(
            "{:>5}  {:>20}  {seats:<width$} {:>5}  {:<12}  {}",
            m.index,
            m.seed,
            turns,
            match_id,
            clip(&result, 80)
        );
    }
    Ok(())
}
