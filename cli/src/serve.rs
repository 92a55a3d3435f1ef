//! The server's commands: `serve` (with its argument groups), `backup`,
//! `user add`, `submit --server` (through the server's API client) and
//! `ladder recompute`.

use crate::args::{DbArg, KeepReplaysArg};
use anyhow::{bail, Context, Result};
use clap::Args;
use ludus_host::numbers::fixed;
use ludus_leaderboard::ratings;
use ludus_leaderboard::store::{Location, Store};
use ludus_server::client::{self, ClientError};
use ludus_server::dto::UploadQuery;
use ludus_server::ServerConfig;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct ServeArgs {
    #[command(flatten)]
    db: DbArg,
    /// The address and port to serve on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: std::net::SocketAddr,
    /// Matches played at once in this process (default: the cores); 0
    /// for none, when `ludus worker`s elsewhere play on PostgreSQL.
    #[arg(long)]
    workers: Option<usize>,
    /// Requests a second allowed per address and per token, in bursts
    /// of four times as many.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..))]
    rate_limit: u32,
    /// The game config of GAME's continuous ladder, as `ludus ladder run
    /// --config` takes it (e.g. `planet-wars='{"max_turns": 100}'` for
    /// shorter matches); repeat for other games. It is set when the
    /// game's first season starts, and a season keeps it; the next
    /// takes its own (`ludus season new --config`).
    #[arg(long, value_name = "GAME=JSON", value_parser = parse_game_config)]
    game_config: Vec<(String, serde_json::Value)>,
    #[command(flatten)]
    limits: ServeLimits,
    #[command(flatten)]
    scheduling: ServeScheduling,
    #[command(flatten)]
    accounts: ServeAccounts,
}

/// What a connection and a request to `ludus serve` may take
/// (`docs/security.md`).
#[derive(Args)]
struct ServeLimits {
    /// Connections open at once; further ones wait to be accepted.
    #[arg(long, default_value_t = 1024)]
    max_connections: usize,
    /// How long a request's headers may take to arrive before the
    /// connection is closed.
    #[arg(long, default_value = "10s", value_parser = humantime::parse_duration)]
    header_timeout: std::time::Duration,
    /// How long a request's body (an upload) may take to arrive.
    #[arg(long, default_value = "60s", value_parser = humantime::parse_duration)]
    body_timeout: std::time::Duration,
    /// How long a whole request may take, an upload's validation included.
    #[arg(long, default_value = "120s", value_parser = humantime::parse_duration)]
    request_timeout: std::time::Duration,
    /// Uploads received or validated at once, in all (two at most from one
    /// address).
    #[arg(long, default_value_t = 8)]
    uploads_at_once: usize,
    /// A proxy (an address or a CIDR block, e.g. 10.0.0.0/8) whose
    /// X-Forwarded-For header names the client; repeat for several. Without
    /// it the header is ignored, as anyone can send it.
    #[arg(long, value_name = "CIDR", value_parser = parse_cidr)]
    trusted_proxy: Vec<ipnet::IpNet>,
    /// A network (an address or a CIDR block) whose clients may read
    /// `GET /metrics`; repeat for several. Default: loopback only (every
    /// other client is refused, 403).
    #[arg(long, value_name = "CIDR", value_parser = parse_cidr)]
    metrics_from: Vec<ipnet::IpNet>,
    /// Connections to the database that requests share: a request waits
    /// for a free one (10 s at most, then 503). Each `ludus serve` on one
    /// PostgreSQL opens up to this many, beside its scheduler's and its
    /// worker's.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..))]
    db_connections: u32,
}

/// Who has an account on `ludus serve`, and how browsers sign in
/// (`docs/server.md`, "Accounts, sign-up and sessions").
#[derive(Args)]
struct ServeAccounts {
    /// Who may make an account on the pages: `closed` (the operator makes
    /// them, `ludus user add`), `invite` (with a one-time code of `ludus
    /// user invite`) or `open` (anyone).
    #[arg(long, value_name = "MODE", default_value = "closed")]
    signup: ludus_server::Signup,
    /// The address people reach the server at, e.g. https://ludus.example.org:
    /// forms are taken only from its origin, and with https the cookies
    /// are Secure. Without it, the origin is the request's Host.
    #[arg(long, value_name = "URL")]
    public_url: Option<url::Url>,
    /// How long a browser stays signed in.
    #[arg(long, value_name = "DURATION", default_value = "14days", value_parser = humantime::parse_duration)]
    session_lifetime: std::time::Duration,
}

/// What `ludus serve` plays, and how much of it (`docs/server.md`).
#[derive(Args)]
struct ServeScheduling {
    /// A folder of bots (`.wasm`) stored under the `house` account for
    /// every game each one plays (its validation match tells which), so
    /// that every game has opponents from the start, e.g.
    /// target/bots/examples.
    #[arg(long, value_name = "DIR", value_parser = parse_folder)]
    house: Option<PathBuf>,
    /// Matches scheduled per hour for each game, at most (spread over the
    /// hour: a minute gets a sixtieth of it); without it the workers are
    /// kept busy. A new version's placement series is played regardless.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    max_matches_per_hour: Option<u32>,
    /// Which replays the continuous ladders store (a ladder created
    /// earlier keeps its own unless this is given).
    #[command(flatten)]
    keep: KeepReplaysArg,
    /// Pause GAME's continuous ladder as the server starts (repeat for
    /// others): it schedules nothing new until `ludus ladder resume GAME`.
    #[arg(long, value_name = "GAME")]
    pause: Vec<String>,
    /// Matches played again at once to regenerate replays their ladders
    /// did not store; a request waits 10 s at most for its turn.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    regenerations_at_once: u32,
    /// Megabytes of regenerated replays (gzip) kept in memory, so that a
    /// match opened again is not played again.
    #[arg(long, value_name = "MB", default_value_t = 64)]
    replay_cache_mb: u64,
    /// The share of the workers' time (0 to 1) challenges take when the
    /// ladders have work too (they take it all when the ladders have
    /// none); written to the database, so every `ludus worker` on it
    /// follows it. Default: as set before, else 0.25.
    #[arg(long, value_name = "SHARE", value_parser = parse_share)]
    challenge_share: Option<f64>,
    /// Challenges running at once per account.
    #[arg(long, value_name = "N", default_value_t = ludus_leaderboard::challenge::ChallengeLimits::default().at_once)]
    challenges_at_once: u32,
    /// Games an account's challenges schedule a day (UTC), together.
    #[arg(long, value_name = "N", default_value_t = ludus_leaderboard::challenge::ChallengeLimits::default().games_a_day)]
    challenge_games_a_day: u32,
    /// Games one challenge plays at most (an SPRT undecided by then ends
    /// with no verdict).
    #[arg(long, value_name = "N", default_value_t = ludus_leaderboard::challenge::ChallengeLimits::default().max_games)]
    challenge_max_games: u32,
}

/// A share of the time, 0 to 1.
fn parse_share(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!(
            "`{s}` is not a share: give a number from 0 to 1 (0.25 for a quarter)"
        )),
    }
}

/// A folder that exists.
fn parse_folder(s: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(s);
    if path.is_dir() {
        Ok(path)
    } else {
        Err(format!(
            "`{s}` is not a folder; give the folder that holds the bots' .wasm files"
        ))
    }
}

/// An address or a CIDR block.
fn parse_cidr(s: &str) -> Result<ipnet::IpNet, String> {
    s.parse::<ipnet::IpNet>()
        .or_else(|_| s.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
        .map_err(|_| format!("`{s}` is neither an address nor a CIDR block such as 10.0.0.0/8"))
}

/// `GAME=JSON`, as `ludus serve --game-config` takes it.
fn parse_game_config(s: &str) -> Result<(String, serde_json::Value), String> {
    let (game, json) = s.split_once('=').ok_or_else(|| {
        format!("`{s}` is not GAME=JSON, e.g. planet-wars='{{\"max_turns\": 100}}'")
    })?;
    let config =
        serde_json::from_str(json).map_err(|e| format!("the config of {game} is not JSON: {e}"))?;
    Ok((game.to_string(), config))
}

impl ServeArgs {
    /// `ludus serve`: the server, configured from every group of its flags.
    pub fn run(self) -> Result<()> {
        let ServeArgs {
            db: DbArg { db },
            listen,
            workers,
            rate_limit,
            game_config,
            limits,
            scheduling,
            accounts,
        } = self;
        let mut config = ServerConfig::new(db.clone());
        config.signup = accounts.signup;
        config.public_url = accounts.public_url;
        config.session_lifetime = accounts.session_lifetime;
        config.listen = listen;
        config.continuous.game_configs = game_config.into_iter().collect();
        config.rate_per_second = rate_limit;
        config.rate_burst = rate_limit.saturating_mul(4);
        if let Some(w) = workers {
            config.workers = w;
        }
        config.connections.max_connections = limits.max_connections;
        config.connections.header_timeout = limits.header_timeout;
        config.body_timeout = limits.body_timeout;
        config.request_timeout = limits.request_timeout;
        config.uploads_at_once = limits.uploads_at_once;
        if !limits.metrics_from.is_empty() {
            config.metrics_from = limits.metrics_from;
        }
        config.trusted_proxies = limits.trusted_proxy;
        config.db_connections = limits.db_connections;
        config.house = scheduling.house;
        config.continuous.max_per_hour = scheduling.max_matches_per_hour;
        config.continuous.keep_replays = scheduling.keep.keep_replays;
        config.regenerations_at_once = scheduling.regenerations_at_once as usize;
        config.replay_cache_bytes = scheduling.replay_cache_mb << 20;
        config.challenge_share = scheduling.challenge_share;
        config.challenges = ludus_leaderboard::challenge::ChallengeLimits {
            at_once: scheduling.challenges_at_once,
            games_a_day: scheduling.challenge_games_a_day,
            max_games: scheduling.challenge_max_games,
        };
        if !scheduling.pause.is_empty() {
            // In the database, where every scheduler on it reads it, until
            // `ludus ladder resume`.
            // Waiting for a database that restarts, as the server does.
            let store = ludus_server::connect_waiting(&db)?;
            for game in &scheduling.pause {
                ludus_leaderboard::season::pause(&store, game)?;
            }
        }
        ludus_server::run(config)
    }
}

pub fn user_add(name: &str, operator: bool, password: Option<&str>, db: &Location) -> Result<()> {
    let store = Store::connect(db)?;
    match ludus_server::auth::add_account_with_password(&store, name, operator, password)? {
        Some(token) => {
            println!("{token}");
            eprintln!("account {name} added to {db}; this token is shown only once: keep it (the server stores only its hash)");
            Ok(())
        }
        None => bail!("{db} already has an account named {name}; choose another name"),
    }
}

/// Uploads the bot to a server (a `candidate`: not in the ladder until
/// promoted); its answer, or its error message, is printed.
pub fn submit_remote(
    path: &Path,
    name: &str,
    game: &str,
    server: &str,
    token: &str,
    candidate: bool,
) -> Result<()> {
    let wasm = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let query = UploadQuery {
        name: name.into(),
        game: game.into(),
    };
    let uploaded = match client::upload(server, token, &query, candidate, &wasm) {
        Ok(u) => u,
        Err(e @ ClientError::Refused { .. }) => bail!("{} is {e}", path.display()),
        Err(e) => return Err(e.into()),
    };
    println!(
        "{} {} v{} ({game}, sha256 {}) on {server}: {}",
        if uploaded.new_version {
            "uploaded"
        } else {
            "unchanged:"
        },
        uploaded.name,
        uploaded.version,
        ludus_host::short_id(&uploaded.sha256),
        uploaded.validation
    );
    if uploaded.candidate {
        println!(
            "a candidate: it plays only your challenges until you promote it (`POST /api/bots/{}/versions/{}/promote`, or on its challenge's page)",
            uploaded.name, uploaded.version
        );
    }
    Ok(())
}

/// Recomputes a ladder's Elo ratings from its stored schedule and results
/// alone and compares them with the stored ones.
pub fn recompute(ladder: Option<i64>, game: Option<&str>, db: &Location) -> Result<()> {
    let store = Store::connect_existing(db)?;
    let r = ratings::recompute(&store, ladder, game)?;
    println!(
        "ladder {} ({}): Elo recomputed over its first {} matches ({} rated)",
        r.ladder, r.game, r.covered, r.rated
    );
    println!("{:<28} {:>10} {:>10}", "bot", "stored", "recomputed");
    for (b, stored, computed) in &r.bots {
        let name = format!("{} v{}", b.name, b.version);
        let s = stored.map_or("-".into(), |s| fixed(s, 3));
        println!("{name:<28} {s:>10} {:>10}", fixed(*computed, 3));
    }
    if r.differ() > 0 {
        return Err(ludus_leaderboard::Error::RatingsDiffer {
            ladder: r.ladder,
            differ: r.differ(),
        }
        .into());
    }
    println!("the stored ratings are the recomputed ones, bit for bit");
    Ok(())
}

#[derive(Args)]
pub struct BackupArgs {
    /// The copy to write (a new file).
    out: PathBuf,
    #[command(flatten)]
    db: DbArg,
}

impl BackupArgs {
    /// `ludus backup`: a consistent copy of a live SQLite database.
    pub fn run(self) -> Result<()> {
        let (out, db) = (&self.out, &self.db.db);
        let store = Store::connect_existing(db)?;
        store.backup(out)?;
        println!(
            "wrote {}, a copy of {db} as it was at one moment; open it with --db {}",
            out.display(),
            out.display()
        );
        Ok(())
    }
}
