//! `ludus`: run WebAssembly bots in deterministic game tournaments.
//!
//! Thin glue: parsing arguments and printing. Everything it does lives in
//! `ludus-engine`, `ludus-host`, `ludus-leaderboard` and `ludus-viewer`.

mod league;

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use league::*;
use ludus_host::{Limits, Replay, Sandbox};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Parser)]
#[command(
    name = "ludus",
    version,
    about = "Deterministic tournaments for WebAssembly game bots"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the games Ludus hosts.
    Games,
    /// Check that a .wasm file is a bot Ludus can run: imports, exports,
    /// compilation, and one real turn within the limits.
    Check {
        /// The bot's .wasm file.
        bot: PathBuf,
        /// The game to play the trial turn of.
        #[arg(long, default_value = "planet-wars")]
        game: String,
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// Build a bot from source: a Python file (`def act(state)`, standard
    /// library only) into a WebAssembly component with componentize-py, or a
    /// C file into a core module with clang and wasi-libc.
    BuildBot {
        /// The bot's source: bot.py or bot.c.
        source: PathBuf,
        /// Where to write the .wasm.
        #[arg(short, long)]
        out: PathBuf,
    },
    /// Play one match and write its replay.
    Play {
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
    },
    /// Work with replays.
    Replay {
        #[command(subcommand)]
        command: ReplayCommand,
    },
    /// Check a bot and store it under a name: identical bytes again are a
    /// no-op, new bytes are a new version (older versions keep their results).
    Submit {
        bot: PathBuf,
        #[arg(long)]
        name: String,
        #[arg(long)]
        game: String,
        #[command(flatten)]
        db: DbArg,
    },
    /// List the stored bots.
    Bots {
        #[command(flatten)]
        db: DbArg,
    },
    /// Ladders: play every stored bot of a game against the others and rate them.
    Ladder {
        #[command(subcommand)]
        command: LadderCommand,
    },
    /// Print a ladder's leaderboard.
    Leaderboard {
        /// The ladder (default: the latest, of --game if given).
        #[arg(long)]
        ladder: Option<i64>,
        #[arg(long)]
        game: Option<String>,
        #[arg(long, default_value = "table")]
        format: ludus_leaderboard::report::Format,
        /// Write here instead of stdout. For html: a directory, receiving
        /// index.html, and every match's replay and replay page in replays/.
        #[arg(long)]
        out: Option<PathBuf>,
        #[command(flatten)]
        db: DbArg,
    },
    /// Drive a game engine directly, without bots.
    Engine {
        #[command(subcommand)]
        command: EngineCommand,
    },
    /// Head-to-head: seat-swapped game pairs on fresh seeds until a
    /// pentanomial SPRT decides whether A is stronger than B.
    MatchUp {
        a: PathBuf,
        b: PathBuf,
        #[arg(long)]
        game: String,
        /// SPRT bounds in logistic Elo, and error rates.
        #[arg(long, default_value = "elo0=0,elo1=10,alpha=0.05,beta=0.05")]
        sprt: String,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Stop undecided after this many pairs.
        #[arg(long, default_value_t = 20_000)]
        max_pairs: u64,
        /// Threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        #[command(flatten)]
        limits: LimitArgs,
    },
}

#[derive(Args)]
pub(crate) struct DbArg {
    /// The Ludus database (SQLite).
    #[arg(long, default_value = "ludus.db")]
    pub(crate) db: PathBuf,
}

#[derive(Subcommand)]
enum EngineCommand {
    /// Play a game from a file of actions, one JSON line per step: an array
    /// with one entry per seat (that seat's answer as the game takes it, or
    /// null). Prints one JSON line per state, the initial one first:
    /// {"step", "observation" (as seat 0 sees it, in the reference's shape),
    /// "rewards", "statuses"}. Stops at the end of the file or of the game.
    Run {
        #[arg(long)]
        game: String,
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

#[derive(Subcommand)]
enum LadderCommand {
    /// Play (or resume) a ladder: every match without a result is played, in
    /// parallel, and committed as soon as it finishes.
    Run(LadderArgs),
}

#[derive(Subcommand)]
enum ReplayCommand {
    /// Re-run a replay from its bots and compare every turn; names the first
    /// turn that differs.
    Verify {
        replay: PathBuf,
        /// Directories to look for the bots' .wasm files in (by sha256, then by
        /// name). Default: the replay's directory and the current directory.
        #[arg(long)]
        bots: Vec<PathBuf>,
    },
    /// Write a page that plays the replay in a browser: one self-contained
    /// HTML file (no network), the board drawn turn by turn.
    Html {
        replay: PathBuf,
        /// The page to write.
        #[arg(short, long)]
        out: PathBuf,
        /// How the match goes into the page: json, gzip (base64), or auto
        /// (gzip when the JSON is over 1 MiB).
        #[arg(long, default_value = "auto")]
        embed: EmbedArg,
    },
    /// Print what happened in a replay.
    Show {
        replay: PathBuf,
        /// Print this turn in full (answers, faults, logs, refusals).
        #[arg(long)]
        turn: Option<u32>,
    },
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum EmbedArg {
    Auto,
    Json,
    Gzip,
}

/// Limits for every seat; defaults translate the rule books' "2 s for the
/// first turn, 200 ms after" into fuel.
#[derive(Args)]
pub(crate) struct LimitArgs {
    /// Fuel for a bot's first turn.
    #[arg(long)]
    first_turn_fuel: Option<u64>,
    /// Fuel for every later turn.
    #[arg(long)]
    turn_fuel: Option<u64>,
    /// Memory cap per bot, in MiB.
    #[arg(long)]
    memory_mib: Option<u64>,
}

impl LimitArgs {
    pub(crate) fn limits(&self) -> Limits {
        let mut l = Limits::default();
        if let Some(f) = self.first_turn_fuel {
            l.first_turn_fuel = f;
        }
        if let Some(f) = self.turn_fuel {
            l.turn_fuel = f;
        }
        if let Some(m) = self.memory_mib {
            l.memory_bytes = m << 20;
        }
        l
    }
}

fn main() {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("LUDUS_LOG")
                .unwrap_or_else(|_| "warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Games => games(),
        Command::Check { bot, game, limits } => check(&bot, &game, &limits.limits()),
        Command::BuildBot { source, out } => build_bot(&source, &out),
        Command::Play {
            game,
            seed,
            map,
            config,
            out,
            limits,
            bots,
        } => play(&game, seed, map, config, out, limits.limits(), &bots),
        Command::Replay { command } => match command {
            ReplayCommand::Verify { replay, bots } => verify(&replay, bots),
            ReplayCommand::Show { replay, turn } => show(&replay, turn),
            ReplayCommand::Html { replay, out, embed } => replay_html(&replay, &out, embed),
        },
        Command::Submit {
            bot,
            name,
            game,
            db,
        } => submit(&bot, &name, &game, &db.db),
        Command::Bots { db } => list_bots(&db.db),
        Command::Engine {
            command:
                EngineCommand::Run {
                    game,
                    seed,
                    players,
                    config,
                    actions,
                },
        } => engine_run(&game, seed, players, config.as_deref(), &actions),
        Command::Ladder {
            command: LadderCommand::Run(args),
        } => ladder_run(args),
        Command::Leaderboard {
            ladder,
            game,
            format,
            out,
            db,
        } => leaderboard(ladder, game.as_deref(), format, out, &db.db),
        Command::MatchUp {
            a,
            b,
            game,
            sprt,
            seed,
            max_pairs,
            threads,
            limits,
        } => match_up(
            &a,
            &b,
            &game,
            &sprt,
            seed,
            max_pairs,
            threads,
            limits.limits(),
        ),
    };
    if let Err(e) = result {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

fn games() -> Result<()> {
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

fn check(path: &Path, game: &str, limits: &Limits) -> Result<()> {
    let sandbox = Sandbox::new()?;
    let report = ludus_host::check::check(&sandbox, path, game, limits)
        .with_context(|| format!("{} is not a bot Ludus can run", path.display()))?;
    println!("bot      {} ({})", report.bot, path.display());
    println!("sha256   {}", report.sha256);
    println!("kind     {}", report.kind.describe());
    match report.kind {
        ludus_host::BotKind::Core => {
            println!("imports  wasi_snapshot_preview1 only: ok");
            println!("exports  memory, ludus_alloc, act: ok");
        }
        ludus_host::BotKind::Component => {
            println!("imports  WASI preview 2 only: ok");
            println!("exports  act: func(state: string) -> string: ok");
        }
    }
    println!(
        "turn 1   of {}: {} fuel of {} ({:.2}% of the first-turn budget)",
        report.game,
        report.fuel,
        limits.first_turn_fuel,
        100.0 * report.fuel as f64 / limits.first_turn_fuel as f64
    );
    if !report.log.is_empty() {
        println!(
            "log      {}",
            report.log.trim_end().replace('\n', "\n         ")
        );
    }
    for r in &report.refused {
        println!(
            "warning  the game refused part of the answer: {}: {}",
            r.kind, r.reason
        );
    }
    match (&report.fault, &report.answer) {
        (Some(f), _) => bail!("{}: turn 1 failed: {f}", path.display()),
        (None, Some(a)) => {
            println!("answer   {}", clip(a, 200));
            println!("verdict  OK: {} can play {}", report.bot, report.game);
        }
        (None, None) => unreachable!("an answer or a fault"),
    }
    Ok(())
}

fn build_bot(source: &Path, out: &Path) -> Result<()> {
    let tools = ludus_host::build::default_tools_dir();
    ludus_host::build::build_bot(source, out, &tools)
        .with_context(|| format!("cannot build {}", source.display()))?;
    let bytes = std::fs::read(out)?;
    println!(
        "built    {} ({} bytes, sha256 {})",
        out.display(),
        bytes.len(),
        ludus_host::sandbox::sha256_hex(&bytes)
    );
    println!("next     ludus check {}", out.display());
    Ok(())
}

fn load_bots(sandbox: &Sandbox, paths: &[PathBuf]) -> Result<Vec<Arc<ludus_host::BotModule>>> {
    paths
        .iter()
        .map(|p| {
            sandbox
                .load_file(p)
                .with_context(|| format!("cannot use {} as a bot", p.display()))
        })
        .collect()
}

fn play(
    game: &str,
    seed: u64,
    map: Option<PathBuf>,
    config: Option<String>,
    out: Option<PathBuf>,
    limits: Limits,
    bot_paths: &[PathBuf],
) -> Result<()> {
    let mut config: serde_json::Value = match config {
        Some(text) => serde_json::from_str(&text).context("--config is not valid JSON")?,
        None => serde_json::Value::Null,
    };
    if let Some(map) = map {
        let text = std::fs::read_to_string(&map)
            .with_context(|| format!("cannot read map file {}", map.display()))?;
        let value: serde_json::Value = serde_json::from_str(&text)
            .with_context(|| format!("map file {} is not valid JSON", map.display()))?;
        if config.is_null() {
            config = serde_json::json!({});
        }
        let Some(obj) = config.as_object_mut() else {
            bail!("--config must be a JSON object");
        };
        obj.insert("map".into(), value);
    }
    let sandbox = Sandbox::new()?;
    let bots = load_bots(&sandbox, bot_paths)?;
    let spec = ludus_host::MatchSpec {
        game: game.to_string(),
        config,
        seed,
        limits,
        bots,
    };
    let replay = ludus_host::play(&spec)?;
    let out = out.unwrap_or_else(|| {
        PathBuf::from("replays").join(format!(
            "{}-{}-{}.json",
            replay.game,
            replay.seed,
            &replay.match_id[..12]
        ))
    });
    replay
        .save(&out)
        .with_context(|| format!("cannot write the replay to {}", out.display()))?;
    print_result(&replay);
    println!("replay   {}", out.display());
    Ok(())
}

fn print_result(replay: &Replay) {
    println!(
        "{} v{}, seed {}, {} turns, match {}",
        replay.game,
        replay.rules_version,
        replay.seed,
        replay.turns.len(),
        &replay.match_id[..12]
    );
    let faults = replay.fault_counts();
    let last_scores = replay.turns.last().map(|t| t.scores.clone());
    println!(
        "{:<5} {:<24} {:>5} {:>8} {:>7} {:>8}  faults",
        "seat", "bot", "place", "score", "ships", "refused"
    );
    for (seat, info) in replay.seats.iter().enumerate() {
        let (place, score) = match &replay.outcome {
            Some(o) => (
                o.placements[seat].to_string(),
                format!("{}", o.scores[seat]),
            ),
            None => ("-".into(), "-".into()),
        };
        let ships = last_scores
            .as_ref()
            .map(|s| format!("{}", s[seat]))
            .unwrap_or_default();
        let refused: usize = replay
            .turns
            .iter()
            .map(|t| t.seats[seat].refused.len())
            .sum();
        let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
        for t in &replay.turns {
            if let Some(f) = &t.seats[seat].fault {
                *kinds.entry(f.kind.to_string()).or_default() += 1;
            }
        }
        let out_turn = replay
            .turns
            .iter()
            .find(|t| t.seats[seat].out)
            .map(|t| t.turn);
        let mut fault_text = if faults[seat] == 0 {
            "none".to_string()
        } else {
            kinds
                .iter()
                .map(|(k, n)| format!("{n}× {k}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if let Some(t) = out_turn {
            fault_text.push_str(&format!(" (out from turn {t})"));
        }
        println!(
            "{:<5} {:<24} {:>5} {:>8} {:>7} {:>8}  {}",
            seat,
            clip(&info.name, 24),
            place,
            score,
            ships,
            refused,
            fault_text
        );
        if let Some(first) = replay.turns.iter().find_map(|t| {
            t.seats[seat]
                .fault
                .as_ref()
                .map(|f| format!("turn {}: {f}", t.turn))
        }) {
            println!("      first fault: {}", clip(&first, 160));
        }
    }
    match (&replay.outcome, &replay.aborted) {
        (_, Some(why)) => println!("result   aborted, not scored: {why}"),
        (Some(o), None) => println!("result   {}", o.reason),
        (None, None) => println!("result   unfinished"),
    }
}

fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n - 1).collect::<String>())
    }
}

/// Indexes the .wasm files of `dirs` by sha256 and by name.
fn index_bots(dirs: &[PathBuf]) -> Result<(BTreeMap<String, PathBuf>, BTreeMap<String, PathBuf>)> {
    use ludus_host::sandbox::sha256_hex;
    let mut by_sha = BTreeMap::new();
    let mut by_name = BTreeMap::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for p in paths {
            if p.extension().is_some_and(|e| e == "wasm") {
                let bytes =
                    std::fs::read(&p).with_context(|| format!("cannot read {}", p.display()))?;
                by_sha
                    .entry(sha256_hex(&bytes))
                    .or_insert_with(|| p.clone());
                if let Some(stem) = p.file_stem() {
                    by_name
                        .entry(stem.to_string_lossy().into_owned())
                        .or_insert(p.clone());
                }
            }
        }
    }
    Ok((by_sha, by_name))
}

fn verify(path: &Path, mut dirs: Vec<PathBuf>) -> Result<()> {
    let replay = Replay::load(path)?;
    if dirs.is_empty() {
        dirs.push(path.parent().map(Path::to_path_buf).unwrap_or_default());
        dirs.push(PathBuf::from("."));
    }
    let (by_sha, by_name) = index_bots(&dirs)?;
    let where_ = dirs
        .iter()
        .map(|d| d.display().to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let mut paths = Vec::new();
    for (seat, info) in replay.seats.iter().enumerate() {
        if let Some(p) = by_sha.get(&info.sha256) {
            paths.push(p.clone());
        } else if let Some(p) = by_name.get(&info.name) {
            eprintln!(
                "warning: seat {seat}: no bot with sha256 {} in {where_}; trying {} (a different build of `{}`)",
                &info.sha256[..12],
                p.display(),
                info.name
            );
            paths.push(p.clone());
        } else {
            bail!(
                "seat {seat}: bot `{}` (sha256 {}) is not in {where_}; pass --bots DIR with its .wasm",
                info.name,
                &info.sha256[..12]
            );
        }
    }
    let sandbox = Sandbox::new()?;
    // Each bot keeps its recorded name, whatever its file is called here.
    let bots = paths
        .iter()
        .zip(&replay.seats)
        .map(|(p, info)| {
            sandbox
                .load_file_named(&info.name, p)
                .with_context(|| format!("cannot use {} as a bot", p.display()))
        })
        .collect::<Result<Vec<_>>>()?;
    match ludus_host::verify(&replay, bots)? {
        None => {
            println!(
                "verified: {} turns of {} (match {}) re-ran identically",
                replay.turns.len(),
                replay.game,
                &replay.match_id[..12]
            );
            Ok(())
        }
        Some(d) => bail!("{} does not reproduce: {d}", path.display()),
    }
}

fn replay_html(path: &Path, out: &Path, embed: EmbedArg) -> Result<()> {
    let replay = Replay::load(path)?;
    let embed = match embed {
        EmbedArg::Auto => ludus_viewer::Embed::Auto,
        EmbedArg::Json => ludus_viewer::Embed::Json,
        EmbedArg::Gzip => ludus_viewer::Embed::Gzip,
    };
    let (html, notes) = ludus_viewer::replay_page(&replay, embed);
    for note in notes {
        eprintln!("warning: {}: {note}", path.display());
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

fn show(path: &Path, turn: Option<u32>) -> Result<()> {
    let replay = Replay::load(path)?;
    if let Some(t) = turn {
        let Some(rec) = replay.turns.iter().find(|r| r.turn == t) else {
            bail!(
                "{} has turns 1 to {}; there is no turn {t}",
                path.display(),
                replay.turns.len()
            );
        };
        println!("turn {t}, state {}", &rec.state_hash[..16]);
        for (seat, s) in rec.seats.iter().enumerate() {
            println!("seat {seat} ({}), fuel {}", replay.seats[seat].name, s.fuel);
            if s.out {
                println!("  out of the match");
            }
            if s.waiting {
                println!("  not its move: not called");
            }
            if let Some(a) = &s.answer {
                println!("  answer  {}", clip(a, 400));
            }
            if let Some(f) = &s.fault {
                println!("  fault   {f}");
            }
            for r in &s.refused {
                println!("  refused {}: {}", r.kind, r.reason);
            }
            if !s.log.is_empty() {
                println!(
                    "  log     {}",
                    clip(s.log.trim_end(), 400).replace('\n', "\n          ")
                );
            }
            if s.log_dropped > 0 {
                println!("  log     ({} bytes dropped over the cap)", s.log_dropped);
            }
        }
        println!("scores  {:?}", rec.scores);
        return Ok(());
    }
    for (seat, info) in replay.seats.iter().enumerate() {
        println!("seat {seat}: {} (sha256 {})", info.name, &info.sha256[..16]);
    }
    print_result(&replay);
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
    let config: serde_json::Value = match config {
        Some(text) => serde_json::from_str(text).context("--config is not JSON")?,
        None => serde_json::Value::Null,
    };
    let mut g = ludus_engine::new_game(game, &config, seed, players)?;
    let input: Box<dyn BufRead> = if actions == Path::new("-") {
        Box::new(std::io::stdin().lock())
    } else {
        let file = std::fs::File::open(actions)
            .with_context(|| format!("opening the actions file {}", actions.display()))?;
        Box::new(std::io::BufReader::new(file))
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut line = String::new();
    ludus_engine::reference::write_state_line(g.as_ref(), &mut line);
    writeln!(out, "{line}")?;
    for (i, text) in input.lines().enumerate() {
        let text = text.with_context(|| format!("reading {}", actions.display()))?;
        if text.trim().is_empty() {
            continue;
        }
        if g.outcome().is_some() {
            tracing::warn!(
                "{}: the game ended at step {}; line {} and after are not played",
                actions.display(),
                g.turn(),
                i + 1
            );
            break;
        }
        let answers = ludus_engine::reference::parse_actions_line(&text, players)
            .map_err(|e| anyhow::anyhow!("{} line {}: {e}", actions.display(), i + 1))?;
        let refs: Vec<Option<&str>> = answers.iter().map(|a| a.as_deref()).collect();
        for r in g.step(&refs) {
            tracing::info!(step = g.turn(), seat = r.seat, kind = %r.kind, "{}", r.reason);
        }
        line.clear();
        ludus_engine::reference::write_state_line(g.as_ref(), &mut line);
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    Ok(())
}
