//! The JSON API. Every answer is JSON; every error has the shape of
//! [`crate::error::ErrorBody`]. The OpenAPI document is generated from these
//! handlers and types ([`ApiDoc`]) and served at `/api/openapi.json`.

use crate::auth;
use crate::error::ErrorBody;
use crate::{ApiError, AppState};
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use ludus_host::Replay;
use ludus_leaderboard::ladder::ELO;
use ludus_leaderboard::ratings::elo::EloConfig;
use ludus_leaderboard::schedule::ScheduledMatch;
use ludus_leaderboard::store::platform::continuous_key;
use ludus_leaderboard::store::{LadderRecord, MatchResult, Store};
use ludus_leaderboard::submit::{self, SubmitError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::{IntoParams, OpenApi, ToSchema};

/// The routes of the API but the upload (which has its own body limit).
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/openapi.json", get(openapi))
        .route("/api/me", get(me))
        .route("/api/games", get(games))
        .route("/api/games/{game}/leaderboard", get(leaderboard))
        .route("/api/bots/{name}", get(bot))
        .route("/api/bots/{name}/retire", post(retire))
        .route("/api/matches/{id}", get(match_info))
        .route("/api/matches/{id}/replay", get(replay))
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Ludus",
        description = "Upload bots, follow the continuous ladders, re-run any rated match."
    ),
    paths(me, games, leaderboard, bot, upload, retire, match_info, replay),
    components(schemas(
        ErrorBody,
        Me,
        GameSummary,
        Leaderboard,
        LeaderboardRow,
        BotView,
        VersionView,
        RatingPoint,
        MatchSummary,
        HeadToHead,
        Uploaded
    ))
)]
pub struct ApiDoc;

async fn openapi() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}

/// The signed-in account.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Me {
    pub id: i64,
    pub name: String,
}

/// The account of the bearer token.
#[utoipa::path(get, path = "/api/me", responses(
    (status = 200, body = Me), (status = 401, body = ErrorBody)))]
async fn me(State(state): State<AppState>, headers: HeaderMap) -> Result<Json<Me>, ApiError> {
    let a = state
        .with_store(move |s| auth::required(s, &headers))
        .await?;
    Ok(Json(Me {
        id: a.id,
        name: a.name,
    }))
}

/// A game and its continuous ladder.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct GameSummary {
    pub id: String,
    pub summary: String,
    /// Seats per match.
    pub seats: Vec<usize>,
    /// Bots in its ladder (every version that joined).
    pub bots: usize,
    /// Matches rated so far.
    pub rated: u32,
}

/// Every game, with the size of its ladder.
#[utoipa::path(get, path = "/api/games", responses((status = 200, body = [GameSummary])))]
async fn games(State(state): State<AppState>) -> Result<Json<Vec<GameSummary>>, ApiError> {
    Ok(Json(state.with_store(game_list).await?))
}

pub fn game_list(store: &mut Store) -> Result<Vec<GameSummary>, ApiError> {
    let mut out = Vec::new();
    for g in ludus_engine::games() {
        let (bots, rated) = match store.find_continuous_ladder(g.id)? {
            Some(id) => {
                let l = store.ladder(id)?;
                (l.bots.len(), l.rated_through)
            }
            None => (0, 0),
        };
        out.push(GameSummary {
            id: g.id.into(),
            summary: g.summary.into(),
            seats: g.seats.to_vec(),
            bots,
            rated,
        });
    }
    Ok(out)
}

/// A game's live leaderboard.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Leaderboard {
    pub game: String,
    pub ladder: Option<i64>,
    /// Matches scheduled so far, and those rated (a prefix of the schedule).
    pub scheduled: u32,
    pub rated: u32,
    pub rows: Vec<LeaderboardRow>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct LeaderboardRow {
    pub rank: usize,
    pub name: String,
    pub version: u32,
    pub owner: Option<String>,
    /// Elo, in schedule order over the rated prefix.
    pub rating: f64,
    /// Rated matches of this version.
    pub matches: u32,
}

fn known_game(game: &str) -> Result<&'static ludus_engine::registry::GameInfo, ApiError> {
    ludus_engine::registry::info(game).map_err(|e| ApiError::NotFound(e.to_string()))
}

/// The leaderboard of a game: the latest version of every bot not retired.
#[utoipa::path(get, path = "/api/games/{game}/leaderboard",
    params(("game" = String, Path, description = "a game id, as `ludus games` lists")),
    responses((status = 200, body = Leaderboard), (status = 404, body = ErrorBody)))]
async fn leaderboard(
    State(state): State<AppState>,
    Path(game): Path<String>,
) -> Result<Json<Leaderboard>, ApiError> {
    known_game(&game)?;
    Ok(Json(
        state.with_store(move |s| leaderboard_of(s, &game)).await?,
    ))
}

/// The continuous ladder of `game`, if it exists: its record with its bots
/// (not its schedule).
fn continuous_record(store: &Store, game: &str) -> Result<Option<LadderRecord>, ApiError> {
    match store.find_continuous_ladder(game)? {
        Some(id) => Ok(Some(store.ladder(id)?)),
        None => Ok(None),
    }
}

/// The leaderboard from the stored ratings and counts: bounded by the
/// number of bots, whatever the length of the schedule.
pub fn leaderboard_of(store: &mut Store, game: &str) -> Result<Leaderboard, ApiError> {
    let Some(record) = continuous_record(store, game)? else {
        return Ok(Leaderboard {
            game: game.into(),
            ladder: None,
            scheduled: 0,
            rated: 0,
            rows: Vec::new(),
        });
    };
    let ratings = store.ratings(record.id, ELO)?;
    let counts = store.rated_matches(record.id)?;
    let retired = store.retired_bots()?;
    let latest: BTreeMap<String, u32> = store
        .latest_bots(game)?
        .into_iter()
        .map(|b| (b.name, b.version))
        .collect();
    let mut rows = Vec::new();
    for (position, b) in record.bots.iter().enumerate() {
        if latest.get(&b.name) != Some(&b.version) || retired.contains(&b.name) {
            continue;
        }
        rows.push(LeaderboardRow {
            rank: 0,
            name: b.name.clone(),
            version: b.version,
            owner: store.ownership(&b.name)?.map(|o| o.owner),
            rating: ratings
                .iter()
                .find(|r| r.0 == position)
                .map_or(EloConfig::default().initial, |r| r.1),
            matches: counts.get(position).copied().unwrap_or(0),
        });
    }
    rows.sort_by(|a, b| b.rating.total_cmp(&a.rating).then(a.name.cmp(&b.name)));
    for (i, r) in rows.iter_mut().enumerate() {
        r.rank = i + 1;
    }
    Ok(Leaderboard {
        game: game.into(),
        ladder: Some(record.id),
        scheduled: store.schedule_end(record.id)?,
        rated: record.rated_through,
        rows,
    })
}

/// A bot: its versions, ratings over time, recent matches, faults, and
/// results against each opponent.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct BotView {
    pub name: String,
    pub game: String,
    pub owner: Option<String>,
    pub retired: bool,
    pub versions: Vec<VersionView>,
    /// Elo after each of its rated matches, in schedule order.
    pub rating_history: Vec<RatingPoint>,
    /// Its latest matches, newest first.
    pub recent: Vec<MatchSummary>,
    /// Turns with a fault, over all its finished matches.
    pub fault_turns: u32,
    pub head_to_head: Vec<HeadToHead>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct VersionView {
    pub version: u32,
    pub sha256: String,
    pub submitted_at: String,
    pub rating: Option<f64>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RatingPoint {
    /// The match's place in the ladder's schedule.
    pub index: u32,
    pub version: u32,
    pub rating: f64,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct MatchSummary {
    pub index: u32,
    /// Empty until the match is played.
    pub match_id: String,
    pub game: String,
    pub seed: u64,
    /// `name vN` per seat.
    pub seats: Vec<String>,
    pub placements: Vec<u32>,
    pub scores: Vec<f64>,
    /// Per seat: turns with a fault.
    pub faults: Vec<u32>,
    pub turns: u32,
    pub reason: String,
    pub aborted: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct HeadToHead {
    pub opponent: String,
    /// Matches in which this bot placed better, worse, the same.
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

fn summary(record: &LadderRecord, m: &ScheduledMatch, r: Option<&MatchResult>) -> MatchSummary {
    MatchSummary {
        index: m.index,
        match_id: r.map(|r| r.match_id.clone()).unwrap_or_default(),
        game: record.game.clone(),
        seed: m.seed,
        seats: m
            .seats
            .iter()
            .map(|&p| {
                record.bots.get(p).map_or_else(
                    || format!("bot {p}"),
                    |b| format!("{} v{}", b.name, b.version),
                )
            })
            .collect(),
        placements: r.map(|r| r.placements.clone()).unwrap_or_default(),
        scores: r.map(|r| r.scores.clone()).unwrap_or_default(),
        faults: r.map(|r| r.faults.clone()).unwrap_or_default(),
        turns: r.map_or(0, |r| r.turns),
        reason: r.map(|r| r.reason.clone()).unwrap_or_default(),
        aborted: r.and_then(|r| r.aborted.clone()),
    }
}

/// A bot's page, as data.
#[utoipa::path(get, path = "/api/bots/{name}",
    params(("name" = String, Path, description = "the bot's name")),
    responses((status = 200, body = BotView), (status = 404, body = ErrorBody)))]
async fn bot(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<BotView>, ApiError> {
    Ok(Json(state.with_store(move |s| bot_view(s, &name)).await?))
}

/// How many of a bot's latest matches its page lists.
pub const RECENT: usize = 20;

/// A bot's page from its own matches, found through the bot index: the
/// work grows with the bot's matches, not with the ladder's.
pub fn bot_view(store: &mut Store, name: &str) -> Result<BotView, ApiError> {
    let versions = store.bot_versions(name)?;
    let Some(last) = versions.last() else {
        return Err(ApiError::NotFound(format!("no bot named `{name}`")));
    };
    let game = last.game.clone();
    let ownership = store.ownership(name)?;
    let mut view = BotView {
        name: name.into(),
        game: game.clone(),
        owner: ownership.as_ref().map(|o| o.owner.clone()),
        retired: ownership.as_ref().is_some_and(|o| o.retired),
        versions: Vec::new(),
        rating_history: Vec::new(),
        recent: Vec::new(),
        fault_turns: 0,
        head_to_head: Vec::new(),
    };
    let record = continuous_record(store, &game)?;
    let ratings = match &record {
        Some(r) => store.ratings(r.id, ELO)?,
        None => Vec::new(),
    };
    // Ladder position → version, for this bot's versions in the ladder.
    let mine: BTreeMap<usize, u32> = record.as_ref().map_or_else(BTreeMap::new, |r| {
        r.bots
            .iter()
            .enumerate()
            .filter(|(_, b)| b.name == name)
            .map(|(p, b)| (p, b.version))
            .collect()
    });
    for v in &versions {
        let position = mine.iter().find(|m| *m.1 == v.version).map(|m| *m.0);
        view.versions.push(VersionView {
            version: v.version,
            sha256: v.sha256.clone(),
            submitted_at: v.submitted_at.clone(),
            rating: position.and_then(|p| ratings.iter().find(|r| r.0 == p).map(|r| r.1)),
        });
    }
    let Some(record) = record else {
        return Ok(view);
    };
    let mut seated = Vec::new();
    for &p in mine.keys() {
        seated.extend(store.bot_matches(record.id, p)?);
    }
    seated.sort_by_key(|m| (m.scheduled.index, m.seat));
    let mut h2h: BTreeMap<String, HeadToHead> = BTreeMap::new();
    for m in &seated {
        let seats = &m.scheduled.seats;
        let Some(r) = &m.result else { continue };
        view.fault_turns += r.faults.get(m.seat).copied().unwrap_or(0);
        // Rated: the Elo the ratings recorded after it.
        let Some(elo) = m.elo else { continue };
        view.rating_history.push(RatingPoint {
            index: m.scheduled.index,
            version: mine[&seats[m.seat]],
            rating: elo,
        });
        for (o, &op) in seats.iter().enumerate() {
            if mine.contains_key(&op) {
                continue;
            }
            let opponent = record
                .bots
                .get(op)
                .map_or_else(|| format!("bot {op}"), |b| b.name.clone());
            let e = h2h.entry(opponent.clone()).or_insert(HeadToHead {
                opponent,
                wins: 0,
                losses: 0,
                draws: 0,
            });
            match r.placements[m.seat].cmp(&r.placements[o]) {
                std::cmp::Ordering::Less => e.wins += 1,
                std::cmp::Ordering::Greater => e.losses += 1,
                std::cmp::Ordering::Equal => e.draws += 1,
            }
        }
    }
    let mut last_index = None;
    for m in seated.iter().rev().filter(|m| m.result.is_some()) {
        if view.recent.len() == RECENT {
            break;
        }
        // A match with two of its versions is listed once.
        if last_index != Some(m.scheduled.index) {
            last_index = Some(m.scheduled.index);
            view.recent
                .push(summary(&record, &m.scheduled, m.result.as_ref()));
        }
    }
    view.head_to_head = h2h.into_values().collect();
    Ok(view)
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct UploadQuery {
    /// The bot's name: new, or one of yours (a new version).
    pub name: String,
    /// The game it plays, as `ludus games` lists.
    pub game: String,
}

/// What an upload stored.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Uploaded {
    pub name: String,
    pub version: u32,
    pub game: String,
    pub sha256: String,
    /// `false` when these bytes already were its latest version.
    pub new_version: bool,
    /// How its validation match went, in a line.
    pub validation: String,
}

/// The most a bot name may have, in characters.
const NAME_LIMIT: usize = 64;

/// Uploads a bot (the `.wasm`, a core module or a component, as the body).
/// It plays its validation match for the game (`ludus check --game`) before
/// it is stored; a refusal says what was wrong.
#[utoipa::path(post, path = "/api/bots", params(UploadQuery),
    request_body(content = Vec<u8>, content_type = "application/wasm"),
    security(("bearer" = [])),
    responses((status = 201, body = Uploaded), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 413, description = "larger than the upload limit"),
        (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn upload(
    State(state): State<AppState>,
    Query(q): Query<UploadQuery>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<(StatusCode, Json<Uploaded>), ApiError> {
    if q.name.trim().is_empty()
        || q.name.chars().count() > NAME_LIMIT
        || q.name.chars().any(char::is_control)
    {
        return Err(ApiError::BadRequest(format!(
            "a bot name has 1 to {NAME_LIMIT} characters, none of them control characters"
        )));
    }
    known_game(&q.game).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let daily = state.config().daily_uploads;
    let name = q.name.clone();
    let account = state
        .with_store(move |s| {
            let account = auth::required(s, &headers)?;
            owned_by(s, &name, account.id)?;
            let since = now_unix() - 24 * 3600;
            if s.uploads_since(account.id, since)? >= daily {
                return Err(ApiError::TooMany(format!(
                    "{} has made {daily} uploads in the last 24 hours, refused ones included, the most allowed; try again later",
                    account.name
                )));
            }
            // Every attempt counts, refused or not, and before validation:
            // refused bots cannot keep the validation slots busy.
            s.record_upload(account.id, now_unix())?;
            Ok(account)
        })
        .await?;
    let _permit = state.check_permit().await;
    let limits = state.config().continuous.limits.clone();
    let wasm = body.to_vec();
    let (name, game) = (q.name, q.game);
    let st = state.clone();
    // Compiling and playing the validation match is CPU work: on a blocking
    // thread, and without holding the store.
    let stored = tokio::task::spawn_blocking(move || {
        let admitted =
            submit::admit(st.sandbox(), &name, &game, &wasm, &limits).map_err(|e| match e {
                SubmitError::Store(e) => e.into(),
                e => ApiError::Refused(e.to_string()),
            })?;
        let validation = match admitted.report.games.first().map(|v| v.warnings()) {
            Some(0) | None => format!("passed its validation match of {game}"),
            Some(n) => format!("passed its validation match of {game}, with {n} warnings"),
        };
        let mut s = st.lock()?;
        owned_by(&s, &name, account.id)?;
        s.take_bot_name(&name, account.id)?;
        let accepted = admitted.store(&mut s, &now_rfc3339())?;
        let b = accepted.stored.bot;
        tracing::info!(bot = %b.name, version = b.version, account = %account.name, "bot uploaded");
        Ok::<_, ApiError>(Uploaded {
            name: b.name,
            version: b.version,
            game: b.game,
            sha256: b.sha256,
            new_version: accepted.stored.new_version,
            validation,
        })
    })
    .await
    .map_err(|e| ApiError::Internal(format!("the validation task failed: {e}")))??;
    Ok((StatusCode::CREATED, Json(stored)))
}

/// Refuses unless the name is free or `account` owns it.
fn owned_by(store: &Store, name: &str, account: i64) -> Result<(), ApiError> {
    match store.ownership(name)? {
        Some(o) if o.account != account => Err(ApiError::Forbidden(format!(
            "the bot `{name}` belongs to {}; choose another name",
            o.owner
        ))),
        _ => Ok(()),
    }
}

fn now_unix() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

fn now_rfc3339() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

/// Retires a bot: it is scheduled no more (its results stay). Its owner only.
#[utoipa::path(post, path = "/api/bots/{name}/retire",
    params(("name" = String, Path, description = "the bot's name")),
    security(("bearer" = [])),
    responses((status = 200, body = BotView), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn retire(
    State(state): State<AppState>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Result<Json<BotView>, ApiError> {
    let view = state
        .with_store(move |s| {
            let account = auth::required(s, &headers)?;
            match s.ownership(&name)? {
                None => return Err(ApiError::NotFound(format!("no bot named `{name}`"))),
                Some(o) if o.account != account.id => {
                    return Err(ApiError::Forbidden(format!(
                        "the bot `{name}` belongs to {}; only its owner can retire it",
                        o.owner
                    )))
                }
                Some(_) => {}
            }
            s.retire_bot(&name)?;
            bot_view(s, &name)
        })
        .await?;
    Ok(Json(view))
}

/// A match of a continuous ladder by its id (or a unique prefix of it),
/// through the results' index of match ids.
pub fn find_match(store: &Store, id: &str) -> Result<(LadderRecord, MatchSummary), ApiError> {
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(ApiError::NotFound(format!("`{id}` is not a match id")));
    }
    let full = store.find_match(&id.to_ascii_lowercase())?;
    for (ladder, index) in store.results_of_match(&full)? {
        let record = store.ladder(ladder)?;
        if record.key != continuous_key(&record.game) {
            continue;
        }
        if let Some((m, r)) = store.scheduled_match(ladder, index)? {
            let s = summary(&record, &m, r.as_ref());
            return Ok((record, s));
        }
    }
    Err(ApiError::NotFound(format!(
        "no match `{id}` in the server's ladders"
    )))
}

/// A played match: its seats, result and seed.
#[utoipa::path(get, path = "/api/matches/{id}",
    params(("id" = String, Path, description = "the match id, or a unique prefix")),
    responses((status = 200, body = MatchSummary), (status = 404, body = ErrorBody)))]
async fn match_info(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<MatchSummary>, ApiError> {
    Ok(Json(
        state
            .with_store(move |s| find_match(s, &id).map(|m| m.1))
            .await?,
    ))
}

/// The match's replay, whose seats' logs are kept only for the owner of
/// each seat's bot (everyone sees the moves).
pub fn private_replay(store: &Store, id: &str, headers: &HeaderMap) -> Result<Replay, ApiError> {
    let (_, m) = find_match(store, id)?;
    let gz = store
        .replay(&m.match_id)?
        .ok_or_else(|| ApiError::NotFound(format!("match `{id}` has no stored replay")))?;
    let mut replay = Replay::from_bytes(&gz).map_err(|e| ApiError::Internal(e.to_string()))?;
    let viewer = auth::optional(store, headers)?;
    let mut owner_of_seat = Vec::new();
    for seat in &replay.seats {
        let owner = store.ownership(&seat.name)?.map(|o| o.account);
        owner_of_seat.push(viewer.is_some() && owner == viewer.as_ref().map(|v| v.id));
    }
    for turn in &mut replay.turns {
        for (seat, t) in turn.seats.iter_mut().enumerate() {
            if !owner_of_seat.get(seat).copied().unwrap_or(false) {
                t.log.clear();
                t.log_dropped = 0;
            }
        }
    }
    Ok(replay)
}

/// The match's replay (the replay format of `docs/replay.md`).
#[utoipa::path(get, path = "/api/matches/{id}/replay",
    params(("id" = String, Path, description = "the match id, or a unique prefix")),
    responses((status = 200, description = "the replay JSON; a seat's logs only for its bot's owner"),
        (status = 404, body = ErrorBody)))]
async fn replay(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Replay>, ApiError> {
    Ok(Json(
        state
            .with_store(move |s| private_replay(s, &id, &headers))
            .await?,
    ))
}
