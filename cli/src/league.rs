//! The commands around the bot store: bots, ladder run, leaderboard, match-up.

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use ludus_host::{Limits, Sandbox};
use ludus_leaderboard::ladder::{self, LadderSpec};
use ludus_leaderboard::matchup::{self, MatchUp};
use ludus_leaderboard::report::{self, Format};
use ludus_leaderboard::schedule::Kind;
use ludus_leaderboard::sprt::{Hypothesis, SprtConfig};
use ludus_leaderboard::store::Store;
use std::path::{Path, PathBuf};

fn open(db: &Path) -> Result<Store> {
    Ok(Store::open(db)?)
}

pub fn list_bots(db: &Path) -> Result<()> {
    let store = Store::open_existing(db)?;
    println!(
        "{:<24} {:>7} {:<12} {:<14} submitted",
        "bot", "version", "game", "sha256"
    );
    for game in ludus_engine::games() {
        for b in store.latest_bots(game.id)? {
            println!(
                "{:<24} {:>7} {:<12} {:<14} {}",
                b.name,
                b.version,
                b.game,
                ludus_host::short_id(&b.sha256),
                b.submitted_at
            );
        }
    }
    Ok(())
}

#[derive(clap::Args)]
pub struct LadderArgs {
    #[arg(long)]
    game: String,
    #[arg(long, default_value_t = 1)]
    rounds: u32,
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
    limits: crate::LimitArgs,
    #[command(flatten)]
    db: crate::DbArg,
}

fn threads(t: Option<usize>) -> usize {
    t.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

pub fn ladder_run(args: LadderArgs) -> Result<()> {
    let info = ludus_engine::registry::info(&args.game)?;
    let db = &args.db.db;
    let mut store = open(db)?;
    let mut bots = store.latest_bots(&args.game)?;
    if !args.bots.is_empty() {
        bots = args
            .bots
            .iter()
            .map(|name| {
                let b = store.bot(name, None)?;
                if b.game != args.game {
                    bail!("bot `{name}` is a {} bot, not a {} one", b.game, args.game);
                }
                Ok(b)
            })
            .collect::<Result<_>>()?;
    }
    if bots.is_empty() {
        bail!(
            "no {} bots in {}; add some with `ludus submit BOT.wasm --name NAME --game {}`",
            args.game,
            db.display(),
            args.game
        );
    }
    let kind = match &args.gauntlet {
        None => Kind::RoundRobin,
        Some(name) => Kind::Gauntlet {
            challenger: bots.iter().position(|b| &b.name == name).with_context(|| {
                format!("the gauntlet bot `{name}` is not among the ladder's bots")
            })?,
        },
    };
    let config = crate::game_config(&args.game, args.config.as_deref())?;
    let spec = LadderSpec {
        game: args.game.clone(),
        kind,
        players: args.players.unwrap_or(info.fewest_seats()),
        rounds: args.rounds,
        seed: args.seed,
        config,
        limits: args.limits.limits(),
        bots,
    };
    let threads = threads(args.threads);
    let sandbox = Sandbox::new()?;
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} matches  {per_sec}  elapsed {elapsed}  ETA {eta}",
        )
        .expect("a valid template"),
    );
    let mut announced = false;
    let id = ladder::run(&mut store, &sandbox, &spec, threads, |p| {
        if !announced {
            announced = true;
            bar.set_length(p.total as u64);
            bar.set_position(p.done as u64);
            bar.reset_eta();
            if p.resumed > 0 {
                bar.suspend(|| {
                    eprintln!(
                        "resuming: {} of {} matches already played, {} to go",
                        p.resumed,
                        p.total,
                        p.total - p.resumed
                    )
                });
            }
        }
        bar.set_position(p.done as u64);
    })?;
    bar.finish_and_clear();
    let lb = report::leaderboard(&store, id)?;
    print!("{}", lb.render(Format::Table).unwrap_or_default());
    Ok(())
}

pub fn leaderboard(
    ladder: Option<i64>,
    game: Option<&str>,
    format: Format,
    out: Option<PathBuf>,
    db: &Path,
) -> Result<()> {
    let store = Store::open_existing(db)?;
    let id = store.pick_ladder(ladder, game)?;
    let lb = report::leaderboard(&store, id)?;
    let Some(text) = lb.render(format) else {
        return html_leaderboard(&store, &lb, out);
    };
    match out {
        Some(path) => std::fs::write(&path, text)
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => print!("{text}"),
    }
    Ok(())
}

/// The leaderboard as the viewer's page: with `out`, a site with every
/// match's replay page; without, the page alone on stdout.
fn html_leaderboard(store: &Store, lb: &report::Leaderboard, out: Option<PathBuf>) -> Result<()> {
    let Some(dir) = out else {
        print!("{}", ludus_viewer::leaderboard_page(lb));
        return Ok(());
    };
    let site = ludus_viewer::write_site(&dir, lb, |id| {
        store
            .replay(id)
            .map_err(|e| e.to_string())?
            .map(|gz| ludus_host::Replay::from_bytes(&gz).map_err(|e| e.to_string()))
            .transpose()
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

fn parse_sprt(text: &str) -> Result<SprtConfig> {
    let mut c = SprtConfig::default();
    for part in text.split(',').filter(|p| !p.is_empty()) {
        let (k, v) = part
            .split_once('=')
            .with_context(|| format!("--sprt: `{part}` is not key=value"))?;
        let v: f64 = v
            .trim()
            .parse()
            .with_context(|| format!("--sprt: `{v}` is not a number"))?;
        match k.trim() {
            "elo0" => c.elo0 = v,
            "elo1" => c.elo1 = v,
            "alpha" => c.alpha = v,
            "beta" => c.beta = v,
            other => bail!("--sprt: unknown key `{other}` (use elo0, elo1, alpha, beta)"),
        }
    }
    c.validate()?;
    Ok(c)
}

/// What `ludus match-up` is given.
pub struct MatchUpArgs<'a> {
    pub a: &'a Path,
    pub b: &'a Path,
    pub game: &'a str,
    pub sprt: &'a str,
    pub seed: u64,
    pub max_pairs: u64,
    pub config: Option<&'a str>,
    pub threads: Option<usize>,
    pub limits: Limits,
}

pub fn match_up(args: MatchUpArgs) -> Result<()> {
    let config = parse_sprt(args.sprt)?;
    let game_config = crate::game_config(args.game, args.config)?;
    ludus_engine::new_game(args.game, &game_config, args.seed, 2)?;
    let sandbox = Sandbox::new()?;
    let load = |p: &Path| {
        sandbox
            .load_file(p)
            .with_context(|| format!("cannot use {} as a bot", p.display()))
    };
    let m = MatchUp {
        game: args.game.to_string(),
        config: game_config,
        limits: args.limits,
        seed: args.seed,
        a: load(args.a)?,
        b: load(args.b)?,
        sprt: config,
        max_pairs: args.max_pairs,
    };
    let (lo, hi) = config.bounds();
    println!(
        "{} vs {}: SPRT elo0={} elo1={} alpha={} beta={}, LLR bounds [{lo:.2}, {hi:.2}]",
        m.a.name, m.b.name, config.elo0, config.elo1, config.alpha, config.beta
    );
    let result = matchup::run(&m, threads(args.threads), |s| {
        let est = s.estimate();
        let (elo, err, los) = est.map_or((0.0, 0.0, 0.5), |e| (e.elo, e.ci95, e.los));
        println!(
            "pairs {:>5}  LLR {:>6.2} [{lo:.2}, {hi:.2}]  Elo {:>+7.1} ± {:>5.1}  LOS {:>5.1}%  pentanomial {:?}",
            s.pairs(),
            s.llr(),
            elo,
            err,
            100.0 * los,
            s.counts()
        );
    })?;
    match result.decision() {
        Some(Hypothesis::H1) => println!(
            "H1 accepted: {} is stronger than {} by at least {} Elo",
            m.a.name, m.b.name, config.elo1
        ),
        Some(Hypothesis::H0) => println!(
            "H0 accepted: {} is not stronger than {} by {} Elo",
            m.a.name, m.b.name, config.elo1
        ),
        None => println!("undecided after {} pairs", result.pairs()),
    }
    Ok(())
}
