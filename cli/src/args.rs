//! Argument groups that several commands share (the database, a worker's
//! lease, a ladder's replay policy, a seat's limits, `ludus serve`'s
//! limits, accounts and scheduling), the parsers of their values, and a
//! game's `--config`.

use anyhow::Result;
use clap::Args;
use ludus_host::Limits;
use ludus_leaderboard::store::Location;
use std::path::PathBuf;

#[derive(Args)]
pub(crate) struct DbArg {
    /// The Ludus database: a SQLite file, or a PostgreSQL database
    /// (postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE).
    #[arg(
        long,
        env = "LUDUS_DB",
        hide_env_values = true,
        default_value = "ludus.db"
    )]
    pub(crate) db: Location,
}

/// What a connection and a request to `ludus serve` may take
/// (`docs/security.md`).
#[derive(Args)]
pub(crate) struct ServeLimits {
    /// Connections open at once; further ones wait to be accepted.
    #[arg(long, default_value_t = 1024)]
    pub(crate) max_connections: usize,
    /// How long a request's headers may take to arrive before the
    /// connection is closed.
    #[arg(long, default_value = "10s", value_parser = humantime::parse_duration)]
    pub(crate) header_timeout: std::time::Duration,
    /// How long a request's body (an upload) may take to arrive.
    #[arg(long, default_value = "60s", value_parser = humantime::parse_duration)]
    pub(crate) body_timeout: std::time::Duration,
    /// How long a whole request may take, an upload's validation included.
    #[arg(long, default_value = "120s", value_parser = humantime::parse_duration)]
    pub(crate) request_timeout: std::time::Duration,
    /// Uploads received or validated at once, in all (two at most from one
    /// address).
    #[arg(long, default_value_t = 8)]
    pub(crate) uploads_at_once: usize,
    /// A proxy (an address or a CIDR block, e.g. 10.0.0.0/8) whose
    /// X-Forwarded-For header names the client; repeat for several. Without
    /// it the header is ignored, as anyone can send it.
    #[arg(long, value_name = "CIDR", value_parser = parse_cidr)]
    pub(crate) trusted_proxy: Vec<ipnet::IpNet>,
    /// A network (an address or a CIDR block) whose clients may read
    /// `GET /metrics`; repeat for several. Default: loopback only (every
    /// other client is refused, 403).
    #[arg(long, value_name = "CIDR", value_parser = parse_cidr)]
    pub(crate) metrics_from: Vec<ipnet::IpNet>,
    /// Connections to the database that requests share: a request waits
    /// for a free one (10 s at most, then 503). Each `ludus serve` on one
    /// PostgreSQL opens up to this many, beside its scheduler's and its
    /// worker's.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) db_connections: u32,
}

/// Who has an account on `ludus serve`, and how browsers sign in
/// (`docs/server.md`, "Accounts, sign-up and sessions").
#[derive(Args)]
pub(crate) struct ServeAccounts {
    /// Who may make an account on the pages: `closed` (the operator makes
    /// them, `ludus user add`), `invite` (with a one-time code of `ludus
    /// user invite`) or `open` (anyone).
    #[arg(long, value_name = "MODE", default_value = "closed")]
    pub(crate) signup: ludus_server::Signup,
    /// The address people reach the server at, e.g. https://ludus.example.org:
    /// forms are taken only from its origin, and with https the cookies
    /// are Secure. Without it, the origin is the request's Host.
    #[arg(long, value_name = "URL")]
    pub(crate) public_url: Option<url::Url>,
    /// How long a browser stays signed in.
    #[arg(long, value_name = "DURATION", default_value = "14days", value_parser = humantime::parse_duration)]
    pub(crate) session_lifetime: std::time::Duration,
}

/// What `ludus serve` plays, and how much of it (`docs/server.md`).
#[derive(Args)]
pub(crate) struct ServeScheduling {
    /// A folder of bots (`.wasm`) stored under the `house` account for
    /// every game each one plays (its validation match tells which), so
    /// that every game has opponents from the start, e.g.
    /// target/bots/examples.
    #[arg(long, value_name = "DIR", value_parser = parse_folder)]
    pub(crate) house: Option<PathBuf>,
    /// Matches scheduled per hour for each game, at most (spread over the
    /// hour: a minute gets a sixtieth of it); without it the workers are
    /// kept busy. A new version's placement series is played regardless.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) max_matches_per_hour: Option<u32>,
    /// Which replays the continuous ladders store (a ladder created
    /// earlier keeps its own unless this is given).
    #[command(flatten)]
    pub(crate) keep: KeepReplaysArg,
    /// Pause GAME's continuous ladder as the server starts (repeat for
    /// others): it schedules nothing new until `ludus ladder resume GAME`.
    #[arg(long, value_name = "GAME")]
    pub(crate) pause: Vec<String>,
    /// Matches played again at once to regenerate replays their ladders
    /// did not store; a request waits 10 s at most for its turn.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) regenerations_at_once: u32,
    /// Megabytes of regenerated replays (gzip) kept in memory, so that a
    /// match opened again is not played again.
    #[arg(long, value_name = "MB", default_value_t = 64)]
    pub(crate) replay_cache_mb: u64,
    /// The share of the workers' time (0 to 1) challenges take when the
    /// ladders have work too (they take it all when the ladders have
    /// none); written to the database, so every `ludus worker` on it
    /// follows it. Default: as set before, else 0.25.
    #[arg(long, value_name = "SHARE", value_parser = parse_share)]
    pub(crate) challenge_share: Option<f64>,
    /// Challenges running at once per account.
    #[arg(long, value_name = "N", default_value_t = ludus_leaderboard::challenge::ChallengeLimits::default().at_once)]
    pub(crate) challenges_at_once: u32,
    /// Games an account's challenges schedule a day (UTC), together.
    #[arg(long, value_name = "N", default_value_t = ludus_leaderboard::challenge::ChallengeLimits::default().games_a_day)]
    pub(crate) challenge_games_a_day: u32,
    /// Games one challenge plays at most (an SPRT undecided by then ends
    /// with no verdict).
    #[arg(long, value_name = "N", default_value_t = ludus_leaderboard::challenge::ChallengeLimits::default().max_games)]
    pub(crate) challenge_max_games: u32,
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

/// How long a worker's claim on a match holds without renewal.
#[derive(Args)]
pub(crate) struct LeaseArg {
    /// A claim's lease: the worker sends a heartbeat that renews it five
    /// times a lease (every second by default), and is shown gone after two
    /// missed ones; when a worker dies on another machine its matches wait
    /// this long for another. The heartbeat has a thread of its own, so a
    /// worker busy compiling a large bot keeps its leases; a machine whose
    /// database answers slowly takes a longer one (e.g. 30s, 2m).
    #[arg(long, default_value = "5s", value_parser = humantime::parse_duration)]
    pub(crate) lease: std::time::Duration,
}

/// Which replays a ladder stores.
#[derive(Args)]
pub(crate) struct KeepReplaysArg {
    /// Which replays the ladder stores: all, none, recent:N (of its last N
    /// matches), faults (of every match in which a seat faulted), or both
    /// of the last, e.g. recent:1000,faults, a new ladder's default. Any
    /// other replay is regenerated on request by playing the match again.
    #[arg(long, value_name = "POLICY")]
    pub(crate) keep_replays: Option<ludus_leaderboard::retention::KeepReplays>,
}

/// The database a replay command may read stored matches and bots from.
#[derive(Args)]
pub(crate) struct OptionalDbArg {
    /// The Ludus database, a SQLite file or a postgres:// URL (default:
    /// ludus.db, when it exists).
    #[arg(long, env = "LUDUS_DB", hide_env_values = true)]
    pub(crate) db: Option<Location>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub(crate) enum EmbedArg {
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

/// A game's `--config`: `null` when not given.
pub(crate) fn game_config(game: &str, text: Option<&str>) -> Result<serde_json::Value> {
    match text {
        None => Ok(serde_json::Value::Null),
        Some(text) => serde_json::from_str(text).map_err(|e| {
            anyhow::anyhow!(
                "--config is not JSON ({e}); give an object of {game}'s options, as docs/games/{game}.md lists them"
            )
        }),
    }
}
