//! Serving a match's replay, as JSON or as the viewer's page. A replay is
//! found over a pooled connection (a few small reads and its gzip), then
//! decoded, stripped of the logs its visitor may not see, and rendered once
//! the connection is given back, on a blocking thread, no more at once than [`RENDERS_AT_ONCE`];
//! one that decodes to more than [`MAX_REPLAY_BYTES`] is not served here.
//! What is rendered is kept (bounded in bytes) and named by an ETag, so a
//! popular match is rendered once and a browser that has it gets a 304.
//! An answer that shows a bot's logs to its owner is never kept by a cache.
//!
//! A replay its ladder did not store is regenerated: the match is played
//! again on a blocking thread, over a connection of the pool (held by no
//! request meanwhile), and checked against the sha256 its result
//! records ([`ludus_leaderboard::replays`]). No more regenerations run at
//! once than the server's `regenerations_at_once`; a request that waits
//! for one longer than [`REGENERATION_WAIT`] is told to come back. The
//! replays regenerated are kept, bounded in bytes (`replay_cache_bytes`).

use crate::error::ApiError;
use crate::views;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use ludus_host::{Replay, Sandbox};
use ludus_leaderboard::store::{Account, Store};
use std::io::Read;
use std::sync::Arc;
use tokio::sync::Semaphore;

/// Replays decoded or rendered at once.
pub const RENDERS_AT_ONCE: usize = 2;

/// The largest replay (its JSON) served: a larger one is exported with
/// `ludus replay export` instead.
pub const MAX_REPLAY_BYTES: u64 = 32 << 20;

/// Bytes of rendered answers kept.
const KEPT_BYTES: u64 = 64 << 20;

/// How long a request waits for a regeneration to start.
pub const REGENERATION_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// How a replay is served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The replay format of `docs/replay.md`.
    Json,
    /// The viewer's page.
    Page,
}

/// A stored replay as found, not yet decoded.
pub struct Found {
    match_id: String,
    /// `None` where the ladder did not store it: it is regenerated.
    gz: Option<Arc<Vec<u8>>>,
    /// Per seat: whether the visitor sees its bot's logs (it owns the bot).
    shown: Vec<bool>,
    /// Per seat: its bot's name, and its name and version, as the ladder's
    /// schedule seated it ([`views::FoundMatch`]).
    names: Vec<String>,
    labels: Vec<String>,
    /// The game, for the page's navigation.
    game: String,
}

/// The replay of match `id` and what `viewer` may see of it.
pub fn find(store: &Store, id: &str, viewer: Option<&Account>) -> Result<Found, ApiError> {
    let found = views::find_match(store, id)?;
    let match_id = found.summary.match_id;
    let gz = store.results().replay(&match_id)?.map(Arc::new);
    let mut shown = Vec::with_capacity(found.seats.len());
    for name in &found.seats {
        let owner = store.accounts().ownership(name)?.map(|o| o.account);
        shown.push(viewer.is_some_and(|v| owner == Some(v.id)));
    }
    Ok(Found {
        match_id,
        gz,
        shown,
        names: found.seats,
        labels: found.summary.seats,
        game: found.record.game,
    })
}

impl Found {
    /// Whether the answer shows a bot's logs, and so depends on who asks.
    pub fn private(&self) -> bool {
        self.shown.iter().any(|&s| s)
    }

    /// The ETag of the answer of `kind`: the same for the same match, seats
    /// shown, kind and Ludus.
    fn etag(&self, kind: Kind) -> String {
        let shown: String = self
            .shown
            .iter()
            .map(|&s| if s { '1' } else { '0' })
            .collect();
        let key = format!(
            "{}/{}/{shown}/{kind:?}",
            env!("CARGO_PKG_VERSION"),
            self.match_id
        );
        format!("\"{}\"", &ludus_host::sha256_hex(key.as_bytes())[..32])
    }

    /// The replay, with only the logs the visitor may see.
    fn decode(&self) -> Result<Replay, ApiError> {
        let mut json = Vec::new();
        let gz = self.gz.as_ref().ok_or_else(|| {
            ApiError::Internal(format!("replay {}: not regenerated", self.match_id))
        })?;
        flate2::read::GzDecoder::new(&gz[..])
            .take(MAX_REPLAY_BYTES + 1)
            .read_to_end(&mut json)
            .map_err(|e| ApiError::Internal(format!("replay {}: {e}", self.match_id)))?;
        if json.len() as u64 > MAX_REPLAY_BYTES {
            return Err(ApiError::TooLarge(format!(
                "this match's replay is over {} MiB, too large to show here; `ludus replay export {}` writes it to a file",
                MAX_REPLAY_BYTES >> 20,
                ludus_host::short_id(&self.match_id)
            )));
        }
        let mut replay = Replay::from_bytes(&json)
            .map_err(|e| ApiError::Internal(format!("replay {}: {e}", self.match_id)))?;
        ludus_leaderboard::seated::rename(&mut replay, &self.names);
        for turn in &mut replay.turns {
            for (seat, t) in turn.seats.iter_mut().enumerate() {
                if !self.shown.get(seat).copied().unwrap_or(false) {
                    t.log.clear();
                    t.log_dropped = 0;
                }
            }
        }
        Ok(replay)
    }

    fn render(&self, kind: Kind) -> Result<Vec<u8>, ApiError> {
        let replay = self.decode()?;
        Ok(match kind {
            Kind::Json => replay.to_bytes(false),
            Kind::Page => {
                // The site's navigation above the player: the same for
                // every visitor, so the ETag still names the answer.
                let nav = crate::templates::match_nav(&self.game, &self.names, &self.labels);
                ludus_viewer::framed_replay_page(
                    &replay,
                    &self.labels,
                    ludus_viewer::Embed::Auto,
                    nav,
                )
                .0
                .into_bytes()
            }
        })
    }
}

/// Weighs a kept answer by its bytes.
#[derive(Clone)]
struct Bytes;

impl quick_cache::Weighter<String, Arc<Vec<u8>>> for Bytes {
    fn weight(&self, _key: &String, value: &Arc<Vec<u8>>) -> u64 {
        value.len() as u64
    }
}

/// The renders and regenerations running, and the answers and
/// regenerated replays kept.
pub struct Renders {
    /// The database's connections and the sandbox a regeneration plays with.
    pool: crate::pool::Pool,
    sandbox: Arc<Sandbox>,
    permits: Semaphore,
    kept: quick_cache::sync::Cache<String, Arc<Vec<u8>>, Bytes>,
    regenerations: Semaphore,
    /// Regenerated replays (gzip), by match id.
    regenerated: quick_cache::sync::Cache<String, Arc<Vec<u8>>, Bytes>,
}

impl Renders {
    /// `regenerations_at_once` matches played again at once at most, and
    /// `cache_bytes` of regenerated replays kept.
    pub fn new(
        pool: crate::pool::Pool,
        sandbox: Arc<Sandbox>,
        regenerations_at_once: usize,
        cache_bytes: u64,
    ) -> Renders {
        Renders {
            pool,
            sandbox,
            permits: Semaphore::new(RENDERS_AT_ONCE),
            kept: quick_cache::sync::Cache::with_weighter(1024, KEPT_BYTES, Bytes),
            regenerations: Semaphore::new(regenerations_at_once.max(1)),
            regenerated: quick_cache::sync::Cache::with_weighter(1024, cache_bytes.max(1), Bytes),
        }
    }
}

/// The replay of `found`'s match played again and checked, or as kept
/// from an earlier regeneration.
async fn regenerate(renders: &Renders, match_id: &str) -> Result<Arc<Vec<u8>>, ApiError> {
    if let Some(gz) = renders.regenerated.get(match_id) {
        return Ok(gz);
    }
    let _permit = tokio::time::timeout(REGENERATION_WAIT, renders.regenerations.acquire())
        .await
        .map_err(|_| {
            ApiError::TooMany(
                "the server is playing as many matches again as it may to regenerate their replays; try again in a few seconds".into(),
            )
        })?
        .expect("the semaphore is never closed");
    // Another request may have regenerated it while this one waited.
    if let Some(gz) = renders.regenerated.get(match_id) {
        return Ok(gz);
    }
    let (pool, sandbox, id) = (
        renders.pool.clone(),
        renders.sandbox.clone(),
        match_id.to_string(),
    );
    let gz = tokio::task::spawn_blocking(move || {
        let store = pool.get().map_err(|e| {
            tracing::warn!("no connection to the database: {e}");
            ApiError::Unavailable
        })?;
        let replay = ludus_leaderboard::replays::regenerate(&store, &sandbox, &id)
            .map_err(regeneration_error)?;
        Ok::<_, ApiError>(ludus_host::gzip(&replay.to_bytes(false)))
    })
    .await
    .map_err(|e| ApiError::Internal(format!("a regeneration failed: {e}")))??;
    let gz = Arc::new(gz);
    renders.regenerated.insert(match_id.to_string(), gz.clone());
    Ok(gz)
}

/// What a visitor is told of a replay that could not be regenerated.
fn regeneration_error(e: ludus_leaderboard::replays::ReplayError) -> ApiError {
    use ludus_leaderboard::replays::ReplayError as E;
    match e {
        E::CannotRegenerate { .. } | E::Void { .. } => {
            ApiError::Rejected(StatusCode::GONE, e.to_string())
        }
        // Shown as what it is: the recorded result and a run disagree.
        E::Differs { .. } => ApiError::Rejected(StatusCode::CONFLICT, e.to_string()),
        E::Store(e) => ApiError::from(e),
        other => ApiError::Internal(other.to_string()),
    }
}

/// The answer of `kind` for `found`, to a request with `headers`.
pub async fn serve(
    renders: &Renders,
    mut found: Found,
    kind: Kind,
    headers: &HeaderMap,
) -> Result<Response, ApiError> {
    let etag = found.etag(kind);
    let cache_control = if found.private() {
        "private, no-store"
    } else {
        "public, max-age=300"
    };
    let answer_headers = [
        (
            header::ETAG,
            HeaderValue::from_str(&etag).expect("hex in quotes"),
        ),
        (
            header::CACHE_CONTROL,
            HeaderValue::from_static(cache_control),
        ),
        (
            header::VARY,
            HeaderValue::from_static("Authorization, Cookie"),
        ),
    ];
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag));
    if fresh {
        return Ok((StatusCode::NOT_MODIFIED, answer_headers).into_response());
    }
    let body = match renders.kept.get(&etag) {
        Some(body) => body,
        None => {
            if found.gz.is_none() {
                found.gz = Some(regenerate(renders, &found.match_id).await?);
            }
            let _permit = renders
                .permits
                .acquire()
                .await
                .expect("the semaphore is never closed");
            let body = tokio::task::spawn_blocking(move || found.render(kind))
                .await
                .map_err(|e| ApiError::Internal(format!("a render failed: {e}")))??;
            let body = Arc::new(body);
            renders.kept.insert(etag.clone(), body.clone());
            body
        }
    };
    let content_type = match kind {
        Kind::Json => "application/json",
        Kind::Page => "text/html; charset=utf-8",
    };
    Ok((
        answer_headers,
        [(header::CONTENT_TYPE, HeaderValue::from_static(content_type))],
        body.as_ref().clone(),
    )
        .into_response())
}
