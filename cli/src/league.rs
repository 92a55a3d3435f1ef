//! The commands around the bot store: the `ladder` family (run, create and
//! status here, the others in the modules of their work), worker,
//! leaderboard, match-up.

use crate::args::{DbArg, LeaseArg, LimitArgs};
use crate::{integrity, season, serve};
use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use ludus_host::numbers::{count, fixed, signed};
use ludus_host::Sandbox;
use ludus_leaderboard::ladder::{
    self, Activity, BotChoice, LadderRequest, LadderSpec, RunEvent, RunOptions,
};
use ludus_leaderboard::matchup::{self, MatchUp};
use ludus_leaderboard::report::{self, Format};
use ludus_leaderboard::sprt::{llr_gauge, Hypothesis, Sprt, SprtBounds, SprtConfig};
use ludus_leaderboard::store::{Location, Store, WorkerState};
use ludus_leaderboard::worker::{self, Progress, WorkerOptions};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Subcommand)]
pub enum LadderCommand {
    /// Pause a game's continuous ladder, on a running server too: nothing
    /// new is scheduled (the matches waiting are played) until resumed.
    Pause {
        /// The game (see `ludus games`).
        game: String,
        #[command(flatten)]
        db: DbArg,
    },
    /// Resume a paused game: the scheduler plays it again.
    Resume {
        /// The game (see `ludus games`).
        game: String,
        #[command(flatten)]
        db: DbArg,
    },
    /// Recompute a ladder's Elo ratings from its stored schedule and results
    /// alone, and check that they are the stored ones.
    Recompute {
        /// The ladder (default: the continuous ladder of --game, or the latest).
        #[arg(long)]
        ladder: Option<i64>,
        /// The game whose continuous ladder to recompute, when --ladder is
        /// not given.
        #[arg(long)]
        game: Option<String>,
        #[command(flatten)]
        db: DbArg,
    },
    /// Check the database's invariants, read-only in one snapshot (a live
    /// database too): schedules, done matches and results, the rated
    /// prefix, each rated match's Elo, the stored ratings against their
    /// recomputation, the bots' counters, challenges' verdicts (and with
    /// --bytes every bot's wasm against its sha256). Prints each with its
    /// figures and `ok` or its violations, and a verdict; exits 0 when
    /// every invariant holds, 1 when one does not.
    Check(integrity::LadderCheckArgs),
    /// Re-rate each ladder whose ratings do not hold (matches skipped by
    /// rating, a wrong Elo, a rated prefix past the finished one) from its
    /// last consistent point, under its rating lock; prints what it did.
    Repair(integrity::LadderRepairArgs),
    /// Play (or resume, or join) a ladder: its schedule is stored, then
    /// every match without a result is played, in parallel, and committed as
    /// soon as it finishes. Other `ladder run`s and `ludus worker`s on the
    /// same database share the work.
    Run(LadderArgs),
    /// Store a ladder's schedule without playing it, and print its id, for
    /// `ludus worker`s to play.
    Create(LadderArgs),
    /// Where a ladder stands: matches done, leased and pending, live
    /// workers, rate and ETA, integrity events.
    Status {
        #[command(flatten)]
        shown: ShownLadder,
        /// Every ladder of the database, a line each, and the live workers.
        #[arg(long, conflicts_with_all = ["ladder", "game", "season"])]
        all: bool,
        #[command(flatten)]
        db: DbArg,
    },
}

impl LadderCommand {
    pub fn run(self) -> Result<()> {
        match self {
            LadderCommand::Run(args) => ladder_run(args),
            LadderCommand::Create(args) => ladder_create(args),
            LadderCommand::Status { all: true, db, .. } => every_ladder_status(&db.db),
            LadderCommand::Status {
                shown,
                db,
                all: false,
            } => ladder_status(&shown, &db.db),
            LadderCommand::Pause { game, db } => season::pause(&game, &db.db),
            LadderCommand::Resume { game, db } => season::resume(&game, &db.db),
            LadderCommand::Recompute { ladder, game, db } => {
                serve::recompute(ladder, game.as_deref(), &db.db)
            }
            LadderCommand::Check(args) => args.run(),
            LadderCommand::Repair(args) => args.run(),
        }
    }
}

/// The ladder `ladder status` and `leaderboard` show: by id, a game's
/// latest, or a season of a game.
#[derive(Args)]
pub struct ShownLadder {
    /// The ladder (default: the latest, of --game if given).
    #[arg(long)]
    ladder: Option<i64>,
    /// The game whose latest ladder to show, when --ladder is not given.
    #[arg(long)]
    game: Option<String>,
    /// The season of --game to show (as `ludus season list` names it).
    #[arg(long, requires = "game", conflicts_with = "ladder")]
    season: Option<String>,
}

impl ShownLadder {
    /// Its id in `store`.
    fn id(&self, store: &Store) -> Result<i64> {
        Ok(ladder::pick_season(
            store,
            self.ladder,
            self.game.as_deref(),
            self.season.as_deref(),
        )?)
    }
}

#[derive(Args)]
pub struct LadderArgs {
    /// The game (see `ludus games`); the ladder is of its stored bots.
    #[arg(long)]
    game: String,
    /// Rounds: in each, every pairing (every table, with more seats) plays
    /// on a seed of its own, once in each rotation of its seats.
    #[arg(long, default_value_t = 1)]
    rounds: u32,
    /// The seed each match's seed derives from: the same seed, bots and
    /// options give the same schedule.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Seats per match (default: the game's fewest).
    #[arg(long)]
    players: Option<usize>,
    /// Play this bot against the field instead of a round robin.
    #[arg(long)]
    gauntlet: Option<String>,
    /// Only these bots (comma-separated names; default: every stored bot of the game).
    #[arg(long, value_delimiter = ',')]
    bots: Vec<String>,
    /// The game's config as JSON.
    #[arg(long)]
    config: Option<String>,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    lease: LeaseArg,
    #[command(flatten)]
    keep: crate::args::KeepReplaysArg,
    #[command(flatten)]
    db: DbArg,
}

fn threads(t: Option<usize>) -> usize {
    t.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The ladder `args` describe, of the bots in `store`.
fn ladder_spec(args: &LadderArgs, store: &Store) -> Result<LadderSpec> {
    let request = LadderRequest {
        game: args.game.clone(),
        bots: BotChoice {
            names: args.bots.clone(),
            gauntlet: args.gauntlet.clone(),
        },
        players: args.players,
        rounds: args.rounds,
        seed: args.seed,
        config: crate::args::game_config(&args.game, args.config.as_deref())?,
        limits: args.limits.limits(),
    };
    Ok(LadderSpec::from_request(store, &request)?)
}

fn ladder_create(args: LadderArgs) -> Result<()> {
    let store = Store::connect(&args.db.db)?;
    let spec = ladder_spec(&args, &store)?;
    let id = ladder::create_keeping(&store, &spec, args.keep.keep_replays)?;
    let status = ladder::status(&store, Some(id), None)?.status;
    println!(
        "ladder {id}: {} {}, {} ({} done); play it with `ludus ladder run` with the same options, or `ludus worker --ladder {id}` on any machine that reaches {}",
        spec.game,
        spec.kind.label(),
        count(status.total as u64, "match", "matches"),
        status.done,
        args.db.db
    );
    Ok(())
}

fn ladder_run(args: LadderArgs) -> Result<()> {
    let store = Store::connect(&args.db.db)?;
    let spec = ladder_spec(&args, &store)?;
    let options = RunOptions {
        threads: threads(args.threads),
        lease: args.lease.lease,
        stop: Some(stop_on_signal()?),
        keep_replays: args.keep.keep_replays,
    };
    let sandbox = Sandbox::new()?;
    let mut reporter = Reporter::new();
    let ran = ladder::run(&store, &sandbox, &spec, &options, |event| match event {
        RunEvent::Started {
            ladder,
            done,
            total,
            other_workers,
        } => {
            let left = total - done;
            if left > 0 && other_workers > 0 {
                eprintln!(
                    "joining ladder {ladder}: {done} of {total} matches already played, {left} to go, {other_workers} other worker(s) playing it"
                );
            } else if done > 0 && left > 0 {
                eprintln!("resuming: {done} of {total} matches already played, {left} to go");
            }
        }
        RunEvent::Progress(p) => reporter.update(&p),
    });
    reporter.finish();
    let ran = ran?;
    if ran.worker.played < ran.left as usize {
        eprintln!(
            "played {} of the {} matches here; other workers played the rest",
            ran.worker.played, ran.left
        );
    }
    let lb = report::leaderboard(&store, ran.ladder)?;
    print!("{}", lb.render(Format::Table).unwrap_or_default());
    Ok(())
}

#[derive(Args)]
pub struct WorkerArgs {
    /// Matches played at once (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Play only this ladder, and stop when it is done.
    #[arg(long)]
    ladder: Option<i64>,
    /// Stop when no ladder has matches left, instead of waiting for new ones.
    #[arg(long)]
    until_idle: bool,
    #[command(flatten)]
    lease: LeaseArg,
    #[command(flatten)]
    db: DbArg,
}

impl WorkerArgs {
    /// `ludus worker`: plays scheduled matches until stopped, or until its
    /// ladder (or every ladder, with `--until-idle`) is done.
    pub fn run(self) -> Result<()> {
        let store = Store::connect(&self.db.db)?;
        let options = WorkerOptions {
            ladder: self.ladder,
            lease: self.lease.lease,
            until_idle: self.until_idle,
            stop: Some(stop_on_signal()?),
            ..WorkerOptions::new(threads(self.threads))
        };
        let sandbox = Sandbox::new()?;
        let mut reporter = Reporter::new();
        let summary = worker::work(&store, &sandbox, &options, |p| reporter.update(p))?;
        reporter.finish();
        let mut line = format!(
            "worker {} stops: it played {}",
            summary.worker,
            count(summary.played as u64, "match", "matches")
        );
        if summary.duplicates > 0 {
            line.push_str(&format!(
                ", {} of which another worker had already played the same",
                summary.duplicates
            ));
        }
        if summary.integrity_events > 0 {
            line.push_str(&format!(
                "; {} of its results differed from the kept ones (see `ludus ladder status`)",
                summary.integrity_events
            ));
        }
        for (ladder, reason) in &summary.refused {
            line.push_str(&format!("; it could not play ladder {ladder}: {reason}"));
        }
        eprintln!("{line}");
        Ok(())
    }
}

/// A flag set by SIGTERM or Ctrl-C, which a thread of its own waits for:
/// the worker then releases its matches instead of dying with them leased.
fn stop_on_signal() -> Result<Arc<AtomicBool>> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let stop = Arc::new(AtomicBool::new(false));
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])
        .context("cannot handle SIGTERM and Ctrl-C")?;
    let flag = stop.clone();
    std::thread::spawn(move || {
        for _ in signals.forever() {
            if !flag.swap(true, Ordering::Relaxed) {
                eprintln!("stopping: the matches in play go back to the queue");
            }
        }
    });
    Ok(stop)
}

/// Progress on a terminal as a bar per ladder, otherwise as a log line
/// every few seconds and at the end.
struct Reporter {
    bars: BTreeMap<i64, ProgressBar>,
    terminal: bool,
    last_line: BTreeMap<i64, (Instant, usize)>,
    started: Instant,
}

impl Reporter {
    fn new() -> Reporter {
        Reporter {
            bars: BTreeMap::new(),
            terminal: std::io::stderr().is_terminal(),
            last_line: BTreeMap::new(),
            started: Instant::now(),
        }
    }

    fn update(&mut self, p: &Progress) {
        if self.terminal {
            let bar = self.bars.entry(p.ladder).or_insert_with(|| {
                let bar = ProgressBar::new(p.total as u64);
                bar.set_style(
                    ProgressStyle::with_template(&format!(
                        "ladder {}: {{bar:40}} {{pos}}/{{len}} matches  {{msg}}  {{per_sec}}  elapsed {{elapsed}}  ETA {{eta}}",
                        p.ladder
                    ))
                    .expect("a valid template"),
                );
                bar.set_position(p.done as u64);
                bar.reset_eta();
                bar
            });
            bar.set_length(p.total as u64);
            bar.set_message(format!("{} here", p.played_here));
            bar.set_position(p.done as u64);
            return;
        }
        let now = Instant::now();
        let (last, last_done) = self
            .last_line
            .get(&p.ladder)
            .copied()
            .unwrap_or((self.started, usize::MAX));
        let due = now.duration_since(last) >= Duration::from_secs(5) || p.done == p.total;
        if due && p.done != last_done {
            let secs = now.duration_since(self.started).as_secs_f64().max(1e-3);
            eprintln!(
                "ladder {}: {}/{} matches done, {} here ({:.1}/s here)",
                p.ladder,
                p.done,
                p.total,
                p.played_here,
                p.played_here as f64 / secs
            );
            self.last_line.insert(p.ladder, (now, p.done));
        }
    }

    fn finish(self) {
        for bar in self.bars.values() {
            bar.finish_and_clear();
        }
    }
}

/// What a ladder is doing, as `ladder status` says it.
fn activity(standing: &ladder::Standing) -> String {
    match standing.activity() {
        Activity::Closed { left: 0 } => "closed".into(),
        Activity::Closed { left } => format!("closed; its last {left} matches being played"),
        Activity::Paused { left: 0 } => "paused".into(),
        Activity::Paused { left } => format!("paused; {left} matches left to play"),
        Activity::NoWorker { continuous: true } => {
            "continuous; no live worker plays it (`ludus serve --workers N` or `ludus worker`)"
                .into()
        }
        Activity::NoWorker { continuous: false } => {
            "no live worker plays it (`ludus worker` or `ludus ladder run`)".into()
        }
        Activity::Continuous => "continuous: scheduled as the workers play".into(),
        Activity::Finished => "finished".into(),
        Activity::Playing { eta_s: Some(secs) } => format!(
            "ETA {}",
            humantime::format_duration(Duration::from_secs(secs.ceil() as u64))
        ),
        Activity::Playing { eta_s: None } => "ETA unknown".into(),
    }
}

/// `ladder status --all`: one line per ladder.
fn every_ladder_status(db: &Location) -> Result<()> {
    let store = Store::connect_existing(db)?;
    let all = ladder::every_status(&store)?;
    if all.is_empty() {
        return Err(ludus_leaderboard::store::StoreError::NoLadder {
            db: db.clone(),
            game: None,
        }
        .into());
    }
    println!(
        "{:>6}  {:<12} {:<14} {:>9} {:>7} {:>7}  what",
        "ladder", "game", "kind", "done", "leased", "pending"
    );
    for standing in &all {
        let (r, s) = (&standing.record, &standing.status);
        let kind = match &standing.season {
            Some(season) => season.name.clone(),
            None => r.kind.clone(),
        };
        println!(
            "{:>6}  {:<12} {:<14} {:>9} {:>7} {:>7}  {}",
            r.id,
            crate::columns::clip(&r.game, 12),
            crate::columns::clip(&kind, 14),
            s.done,
            s.leased,
            s.pending,
            activity(standing)
        );
    }
    let now = all.iter().map(|s| s.status.now).max().unwrap_or(0);
    // Each ladder lists its own workers and those of every ladder.
    let workers: std::collections::BTreeMap<i64, _> = all
        .iter()
        .flat_map(|s| &s.status.workers)
        .map(|w| (w.id, w))
        .collect();
    let live: Vec<_> = workers.values().filter(|w| w.is_live(now)).collect();
    println!(
        "workers   {} live ({} threads), {} in all; `ludus ladder status --ladder N` shows each",
        live.len(),
        live.iter().map(|w| w.threads).sum::<u32>(),
        workers.len()
    );
    Ok(())
}

fn ladder_status(shown: &ShownLadder, db: &Location) -> Result<()> {
    let store = Store::connect_existing(db)?;
    let id = shown.id(&store)?;
    let standing = ladder::status(&store, Some(id), None)?;
    let ladder::Standing {
        record,
        status: s,
        integrity_events,
        season,
        paused,
    } = &standing;
    println!(
        "ladder {id}: {} {}, {} seats, {}; needs Ludus {}, rules v{}, wasmtime {}",
        record.game,
        record.kind,
        record.players,
        count(s.total as u64, "match", "matches"),
        record.needs.ludus_version,
        record.needs.rules_version,
        record.needs.wasmtime_version
    );
    if let Some(season) = &season {
        let state = match (season.closed_at, paused) {
            (Some(_), _) => "closed: nothing more is scheduled in it",
            (None, true) => "open, paused: nothing new is scheduled until `ludus ladder resume`",
            (None, false) => "open",
        };
        println!("season    {}, {state}", season.name);
    }
    println!(
        "matches   {} done ({} void), {} leased, {} pending",
        s.done, s.void, s.leased, s.pending
    );
    let rate = match s.rate {
        Some(r) => format!("{r:.2} matches/s over the last 5 minutes"),
        None => "no match finished in the last 5 minutes".into(),
    };
    println!("pace      {rate}; {}", activity(&standing));
    println!(
        "ratings   cover matches 0 to {} ({} of {})",
        s.rated_through.saturating_sub(1),
        s.rated_through,
        s.total
    );
    let replays = ludus_leaderboard::replays::standing(&store, id)?;
    println!(
        "replays   keeps {}: {} of the played matches' replays stored, the others regenerated on request",
        replays.keep,
        s.done.saturating_sub(s.void).saturating_sub(replays.without)
    );
    if let (n @ 1.., Some(why)) = (replays.without, &replays.cannot_regenerate) {
        println!(
            "          {n} matches have no stored replay and this Ludus cannot regenerate them ({why}); their results stand. A Ludus of the ladder's versions can store them: `ludus replays keep --ladder {id}`"
        );
    }
    if s.integrity_events > 0 || s.verifying > 0 {
        println!(
            "integrity {}, {} being verified:",
            count(s.integrity_events as u64, "event", "events"),
            count(s.verifying as u64, "match", "matches")
        );
        for e in integrity_events {
            let who = match e.worker {
                0 => "a regeneration on request gave".to_string(),
                w => format!("worker {w} sent"),
            };
            println!(
                "          match {}: {who} replay {} where {} has {}; {}",
                e.index,
                ludus_host::short_id(&e.sha256),
                e.kept_worker.map_or("the kept result".into(), |w| format!(
                    "worker {w}'s kept result"
                )),
                ludus_host::short_id(&e.kept_sha256),
                e.verdict.as_deref().unwrap_or("to be verified")
            );
        }
    }
    let live = s.workers.iter().filter(|w| w.is_live(s.now)).count();
    println!("workers   {live} live, {} in all", s.workers.len());
    if !s.workers.is_empty() {
        println!(
            "          {:>6}  {:<20} {:>8} {:>7} {:>7}  {:<12} state",
            "worker", "host", "pid", "threads", "played", "last seen"
        );
    }
    for w in &s.workers {
        let ago = Duration::from_millis((s.now - w.last_seen).max(0) as u64 / 1000 * 1000);
        let state = match w.state(s.now) {
            WorkerState::Live => "live".to_string(),
            WorkerState::Stopped => "stopped".to_string(),
            WorkerState::Crashed => format!(
                "crashed: {}",
                w.crashed.as_deref().unwrap_or("(no error recorded)")
            ),
            WorkerState::NoHeartbeat => "gone (no heartbeat)".to_string(),
            WorkerState::ProcessGone => "gone (process ended)".to_string(),
        };
        println!(
            "          {:>6}  {:<20} {:>8} {:>7} {:>7}  {:<12} {state}",
            w.id,
            crate::columns::clip(&w.host, 20),
            w.pid,
            w.threads,
            w.played,
            format!("{} ago", humantime::format_duration(ago)),
        );
    }
    Ok(())
}

#[derive(Args)]
pub struct LeaderboardArgs {
    #[command(flatten)]
    shown: ShownLadder,
    /// How to write it: a table to read, JSON or CSV for programs (full
    /// precision), Markdown, or the viewer's HTML page.
    #[arg(long, default_value = "table", value_parser = format_parser())]
    format: Format,
    /// Write here instead of stdout. For html: a directory, receiving
    /// index.html, and every match's replay and replay page in replays/.
    #[arg(long)]
    out: Option<PathBuf>,
    #[command(flatten)]
    db: DbArg,
}

impl LeaderboardArgs {
    pub fn run(self) -> Result<()> {
        let store = Store::connect_existing(&self.db.db)?;
        let id = self.shown.id(&store)?;
        let lb = report::leaderboard(&store, id)?;
        let Some(text) = lb.render(self.format) else {
            return html_leaderboard(&store, &lb, self.out);
        };
        match self.out {
            Some(path) => std::fs::write(&path, text)
                .with_context(|| format!("cannot write {}", path.display()))?,
            None => print!("{text}"),
        }
        Ok(())
    }
}

/// The leaderboard as the viewer's page: with `out`, a site with every
/// match's replay page; without, the page alone on stdout.
fn html_leaderboard(store: &Store, lb: &report::Leaderboard, out: Option<PathBuf>) -> Result<()> {
    let Some(dir) = out else {
        print!("{}", ludus_viewer::leaderboard_page(lb));
        return Ok(());
    };
    let site = ludus_viewer::write_site(&dir, lb, |id| {
        ludus_leaderboard::lookup::replay_of(store, id).map_err(|e| e.to_string())
    })?;
    for note in &site.notes {
        eprintln!("warning: {note}");
    }
    println!(
        "wrote {} and {} replay pages in {}",
        site.index.display(),
        site.pages,
        dir.join("replays").display()
    );
    Ok(())
}

/// `leaderboard --format`: its values, each with its help, listed in
/// `--help` and in the error for any other value.
pub(crate) fn format_parser() -> impl clap::builder::TypedValueParser<Value = Format> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new([
        PossibleValue::new("table").help("aligned columns, numbers rounded"),
        PossibleValue::new("json").help("the whole leaderboard and its matches, full precision"),
        PossibleValue::new("csv").help("one row per bot with its sha256, full precision"),
        PossibleValue::new("markdown")
            .alias("md")
            .help("the table as Markdown"),
        PossibleValue::new("html")
            .help("the viewer's page; with --out DIR, with every match's replay page"),
    ])
    .map(|name| name.parse::<Format>().expect("every listed format parses"))
}

#[derive(Args)]
pub struct MatchUpArgs {
    /// The tested bot's .wasm file: is it stronger than B?
    a: PathBuf,
    /// The bot to measure A against (e.g. A's previous version).
    b: PathBuf,
    /// The game (see `ludus games`); it must allow two seats.
    #[arg(long)]
    game: String,
    /// SPRT bounds in logistic Elo, and error rates.
    #[arg(long, default_value_t = SprtConfig::default().to_string())]
    sprt: String,
    /// The seed each pair's seed derives from: the same seed, bots and
    /// options give the same pairs.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Stop undecided after this many pairs.
    #[arg(long, default_value_t = 20_000)]
    max_pairs: u64,
    /// The game's config as JSON (e.g. '{"max_turns": 200}').
    #[arg(long)]
    config: Option<String>,
    /// Threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    #[command(flatten)]
    limits: LimitArgs,
}

impl MatchUpArgs {
    /// `ludus match-up`: pairs until the SPRT decides, or `--max-pairs`.
    pub fn run(self) -> Result<()> {
        let config = self.sprt.parse::<SprtBounds>().context("--sprt")?.config();
        config.validate()?;
        let game_config = crate::args::game_config(&self.game, self.config.as_deref())?;
        ludus_engine::new_game(&self.game, &game_config, self.seed, 2)?;
        let sandbox = Sandbox::new()?;
        let load = |p: &Path| {
            sandbox
                .load_file(p)
                .with_context(|| format!("cannot use {} as a bot", p.display()))
        };
        let m = MatchUp {
            game: self.game.clone(),
            config: game_config,
            limits: self.limits.limits(),
            seed: self.seed,
            a: load(&self.a)?,
            b: load(&self.b)?,
            sprt: config,
            max_pairs: self.max_pairs,
        };
        let (lo, hi) = config.bounds();
        println!(
            "{} vs {}: SPRT elo0={} elo1={} alpha={} beta={}, LLR bounds [{}, {}]",
            m.a.name,
            m.b.name,
            config.elo0,
            config.elo1,
            config.alpha,
            config.beta,
            fixed(lo, 2),
            fixed(hi, 2)
        );
        let mut progress = MatchUpProgress::new();
        let result = matchup::run(&m, threads(self.threads), |s| progress.update(s));
        progress.finish();
        let result = result?;
        println!(
            "{}  pentanomial {:?}",
            running_summary(&result),
            result.counts()
        );
        match result.decision() {
            Some(Hypothesis::H1) => println!(
                "H1 accepted: {} is stronger than {} by at least {} Elo",
                m.a.name, m.b.name, config.elo1
            ),
            Some(Hypothesis::H0) => println!(
                "H0 accepted: {} is not stronger than {} by {} Elo",
                m.a.name, m.b.name, config.elo1
            ),
            None => println!("undecided after {}", count(result.pairs(), "pair", "pairs")),
        }
        Ok(())
    }
}

/// Where a match-up stands: pairs played, the tested bot's score, the Elo
/// estimate with its 95% error and LOS, and the LLR against its bounds.
fn running_summary(s: &Sprt) -> String {
    let (lo, hi) = s.bounds();
    let (elo, err, los) = s
        .estimate()
        .map_or((0.0, 0.0, 0.5), |e| (e.elo, e.ci95, e.los));
    format!(
        "pairs {}  score {}%  Elo {} ± {}  LOS {}%  LLR {} in [{}, {}]",
        s.pairs(),
        fixed(100.0 * s.score().unwrap_or(0.5), 1),
        signed(elo, 1),
        fixed(err, 1),
        fixed(100.0 * los, 1),
        fixed(s.llr(), 2),
        fixed(lo, 2),
        fixed(hi, 2)
    )
}

/// A match-up's progress on stderr. On a terminal: a gauge of the LLR
/// between its bounds (H0 at the left end, H1 at the right) beside the
/// running summary, redrawn after every pair. Otherwise the running
/// summary every few seconds; the final one goes to stdout regardless.
struct MatchUpProgress {
    bar: Option<ProgressBar>,
    last_line: Instant,
}

/// Positions of a progress bar's gauge.
const GAUGE: u64 = 1000;

/// The template of a progress bar of an SPRT's LLR between its bounds (H0
/// at the left end, H1 at the right; [`llr_gauge`]), beside `{msg}`.
pub(crate) const LLR_BAR: &str = "H0 [{bar:24}] H1  {msg}  elapsed {elapsed}";

/// A progress bar of `template` on stderr when it is a terminal (`None`
/// otherwise), at `at` (0 to 1) of its gauge, saying `message` until its
/// first update.
pub(crate) fn progress_bar(template: &str, at: f64, message: &'static str) -> Option<ProgressBar> {
    std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new(GAUGE);
        bar.set_style(
            ProgressStyle::with_template(template)
                .expect("a valid template")
                .progress_chars("=> "),
        );
        set_gauge(&bar, at);
        bar.set_message(message);
        bar.enable_steady_tick(Duration::from_millis(500));
        bar
    })
}

/// Moves `bar` to `at` (0 to 1) of its gauge.
pub(crate) fn set_gauge(bar: &ProgressBar, at: f64) {
    bar.set_position((at * GAUGE as f64).round() as u64);
}

impl MatchUpProgress {
    fn new() -> MatchUpProgress {
        MatchUpProgress {
            bar: progress_bar(LLR_BAR, 0.5, "first pair playing"),
            last_line: Instant::now(),
        }
    }

    fn update(&mut self, s: &Sprt) {
        if let Some(bar) = &self.bar {
            set_gauge(bar, llr_gauge(s.llr(), s.bounds()));
            bar.set_message(running_summary(s));
            return;
        }
        if self.last_line.elapsed() >= Duration::from_secs(5) {
            eprintln!("{}", running_summary(s));
            self.last_line = Instant::now();
        }
    }

    fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}
