//! The server's commands: `serve`, `user add`, `submit --server` (a client
//! of the server's API) and `ladder recompute`.

use anyhow::{bail, Context, Result};
use ludus_leaderboard::ladder::{rated_games_before, ELO};
use ludus_leaderboard::ratings::elo::elo_ratings;
use ludus_leaderboard::store::{Location, Store};
use ludus_server::ServerConfig;
use std::net::SocketAddr;
use std::path::Path;

pub fn serve(
    db: &Location,
    listen: SocketAddr,
    workers: Option<usize>,
    rate_limit: u32,
    game_configs: Vec<(String, serde_json::Value)>,
) -> Result<()> {
    let mut config = ServerConfig::new(db.clone());
    config.listen = listen;
    config.continuous.game_configs = game_configs.into_iter().collect();
    config.rate_per_second = rate_limit;
    config.rate_burst = rate_limit.saturating_mul(4);
    if let Some(w) = workers {
        config.workers = w;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(ludus_server::serve(config))
}

pub fn user_add(name: &str, db: &Location) -> Result<()> {
    let mut store = Store::connect(db)?;
    let now = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    match ludus_server::auth::add_user(&mut store, name, &now)? {
        Some(token) => {
            println!("{token}");
            eprintln!("account {name} added to {db}; this token is shown only once: keep it (the server stores only its hash)");
            Ok(())
        }
        None => bail!("{db} already has an account named {name}; choose another name"),
    }
}

/// Uploads the bot to a server; its answer, or its error message, is printed.
pub fn submit_remote(path: &Path, name: &str, game: &str, server: &str, token: &str) -> Result<()> {
    let wasm = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let url = format!("{}/api/bots", server.trim_end_matches('/'));
    let response = ureq::post(&url)
        .query("name", name)
        .query("game", game)
        .header("Authorization", &format!("Bearer {token}"))
        .header("Content-Type", "application/wasm")
        .config()
        .http_status_as_error(false)
        .build()
        .send(&wasm[..])
        .with_context(|| format!("cannot reach {server}; is `ludus serve` running there?"))?;
    let status = response.status();
    let body: serde_json::Value = response
        .into_body()
        .read_json()
        .with_context(|| format!("{server} answered {status} with no JSON"))?;
    if !status.is_success() {
        let message = body["error"]["message"].as_str().unwrap_or("no message");
        bail!(
            "{} is refused by {server} ({status}): {message}",
            path.display()
        );
    }
    let sha = body["sha256"].as_str().unwrap_or("");
    println!(
        "{} {} v{} ({game}, sha256 {}) on {server}: {}",
        if body["new_version"] == true {
            "uploaded"
        } else {
            "unchanged:"
        },
        body["name"].as_str().unwrap_or(name),
        body["version"],
        sha.get(..12).unwrap_or(sha),
        body["validation"].as_str().unwrap_or("")
    );
    Ok(())
}

/// Recomputes a ladder's Elo ratings from its stored schedule and results
/// alone and compares them with the stored ones.
pub fn recompute(ladder: Option<i64>, game: Option<&str>, db: &Location) -> Result<()> {
    let store = Store::connect_existing(db)?;
    let id = match (ladder, game) {
        (None, Some(g)) => match store.find_continuous_ladder(g)? {
            Some(id) => id,
            None => store.pick_ladder(None, Some(g))?,
        },
        _ => store.pick_ladder(ladder, game)?,
    };
    let record = store.ladder(id)?;
    let games: Vec<_> = rated_games_before(&store, id, record.rated_through)?
        .into_iter()
        .map(|(_, game)| game)
        .collect();
    let computed = elo_ratings(record.bots.len(), &games, Default::default())?;
    let stored = store.ratings(id, ELO)?;
    println!(
        "ladder {id} ({}): Elo recomputed over its first {} matches ({} rated)",
        record.game,
        record.rated_through,
        games.len()
    );
    println!("{:<28} {:>10} {:>10}", "bot", "stored", "recomputed");
    let mut differ = 0;
    for (p, b) in record.bots.iter().enumerate() {
        let s = stored.iter().find(|r| r.0 == p).map(|r| r.1);
        let c = computed[p];
        if s.is_some_and(|s| s.to_bits() != c.to_bits()) {
            differ += 1;
        }
        let name = format!("{} v{}", b.name, b.version);
        let s = s.map_or("-".into(), |s| format!("{s:.3}"));
        println!("{name:<28} {s:>10} {c:>10.3}");
    }
    if differ > 0 {
        bail!("{differ} stored ratings of ladder {id} differ from the recomputed ones");
    }
    println!("the stored ratings are the recomputed ones, bit for bit");
    Ok(())
}
