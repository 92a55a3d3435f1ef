//! The server's commands: `serve`, `user add`, `submit --server` (through
//! the server's API client) and `ladder recompute`.

use anyhow::{bail, Context, Result};
use ludus_host::numbers::fixed;
use ludus_leaderboard::ratings;
use ludus_leaderboard::store::{Location, Store};
use ludus_server::client::{self, ClientError};
use ludus_server::dto::UploadQuery;
use ludus_server::ServerConfig;
use std::net::SocketAddr;
use std::path::Path;

#[allow(clippy::too_many_arguments)] // each a group of its flags
pub fn serve(
    db: &Location,
    listen: SocketAddr,
    workers: Option<usize>,
    rate_limit: u32,
    game_configs: Vec<(String, serde_json::Value)>,
    limits: crate::args::ServeLimits,
    scheduling: crate::args::ServeScheduling,
    accounts: crate::args::ServeAccounts,
) -> Result<()> {
    let mut config = ServerConfig::new(db.clone());
    config.signup = accounts.signup;
    config.public_url = accounts.public_url;
    config.session_lifetime = accounts.session_lifetime;
    config.listen = listen;
    config.continuous.game_configs = game_configs.into_iter().collect();
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
        let store = Store::connect(db)?;
        for game in &scheduling.pause {
            ludus_leaderboard::season::pause(&store, game)?;
        }
    }
    ludus_server::run(config)
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

/// `ludus backup`: a consistent copy of a live SQLite database.
pub fn backup(out: &Path, db: &Location) -> Result<()> {
    let store = Store::connect_existing(db)?;
    store.backup(out)?;
    println!(
        "wrote {}, a copy of {db} as it was at one moment; open it with --db {}",
        out.display(),
        out.display()
    );
    Ok(())
}
