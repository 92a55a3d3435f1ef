//! Argument groups that several commands share (the database, a worker's
//! lease, a ladder's replay policy, a seat's limits) and a game's
//! `--config`.

use anyhow::Result;
use clap::Args;
use ludus_host::Limits;
use ludus_leaderboard::store::Location;

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
