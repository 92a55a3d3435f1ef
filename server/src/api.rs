//! The JSON API: each handler parses its request, calls a view
//! ([`crate::views`]) or a command ([`crate::commands`]) on the store, and
//! answers JSON; every error has the shape of [`crate::error::ErrorBody`].
//! The OpenAPI document is generated from these handlers and the types of
//! [`crate::dto`] ([`ApiDoc`]) and served at `/api/openapi.json`. The
//! routes are in `routes`.

use crate::auth::Account;
use crate::challenges::{self, NewChallenge, SprtBounds};
use crate::dto::{
    BotMatch, BotView, CandidateQuery, GameSummary, HeadToHead, LeaderboardPage, MatchSummary, Me,
    Page, PageQuery, RatingHistory, RatingPoint, RowRecord, SeasonLink, SeasonQuery, SeatedBot,
    UploadQuery, Uploaded, VersionView, WasmBody,
};
use crate::error::ErrorBody;
use crate::extract::{Path, Query};
use crate::rate_limit::ClientAddress;
use crate::session::Viewer;
use crate::{commands, error::ApiError, replays, state::AppState, views};
use axum::body::Body;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::http::StatusCode;
use axum::response::Response;
use axum::Extension;
use axum::Json;
use ludus_leaderboard::report::{Leaderboard, MatchLine, Results, Row};
use std::time::Duration;
use utoipa::OpenApi;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Ludus",
        description = "Upload bots, follow the continuous ladders, re-run any rated match.\n\n\
            Seeds and ids are 64-bit integers, sent as strings of their decimal digits: \
            a JSON number above 2^53 is rounded by every reader that reads numbers as \
            doubles (JavaScript's `JSON.parse` among them), and a match re-plays only from \
            its exact seed. Every other integer of the answers described here is a \
            number below 2^32. A replay (`/api/matches/{id}/replay`) is the replay file \
            format instead, whose `seed` is a JSON number: read it with a parser that keeps \
            64-bit integers, or take the seed from `/api/matches/{id}`."
    ),
    modifiers(&EveryRoute),
    paths(
        me,
        games,
        leaderboard,
        bot,
        bot_ratings,
        upload,
        retire,
        match_info,
        replay,
        metrics,
        challenges::promote,
        challenges::create,
        challenges::get,
        challenges::stop
    ),
    components(schemas(
        ErrorBody,
        Me,
        GameSummary,
        Leaderboard,
        LeaderboardPage,
        SeasonLink,
        RatingHistory,
        Row,
        Results,
        MatchLine,
        BotView,
        VersionView,
        RatingPoint,
        MatchSummary,
        BotMatch,
        SeatedBot,
        RowRecord,
        HeadToHead,
        Uploaded,
        NewChallenge,
        SprtBounds,
        ludus_leaderboard::challenge::ChallengeStatus,
        ludus_leaderboard::challenge::ChallengeBot,
        ludus_leaderboard::challenge::ChallengeMatch,
        ludus_leaderboard::challenge::ChallengeState,
        ludus_leaderboard::challenge::Verdict,
        ludus_leaderboard::challenge::Estimate,
        ludus_leaderboard::challenge::SprtStatus,
        ludus_leaderboard::challenge::SeatBot,
        ludus_leaderboard::challenge::GameOutcome,
        ludus_leaderboard::challenge::Test,
        ludus_leaderboard::sprt::SprtConfig
    ))
)]
pub struct ApiDoc;

/// What the document says of every route: the bearer scheme the routes
/// name, and the errors any request may meet (a malformed request, a body
/// too large or too slow, the rate limit, the server itself).
struct EveryRoute;

impl utoipa::Modify for EveryRoute {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
        doc.components
            .get_or_insert_with(Default::default)
            .add_security_scheme(
                "bearer",
                SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
            );
        let error = |what: &str| {
            ResponseBuilder::new()
                .description(what)
                .content(
                    "application/json",
                    ContentBuilder::new()
                        .schema(Some(Ref::from_schema_name("ErrorBody")))
                        .build(),
                )
                .build()
        };
        // A game parameter is one of the games Ludus hosts.
        let game = utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .enum_values(Some(ludus_engine::games().iter().map(|g| g.id)))
            .build();
        for item in doc.paths.paths.values_mut() {
            for op in [item.get.as_mut(), item.post.as_mut()]
                .into_iter()
                .flatten()
            {
                for p in op.parameters.iter_mut().flatten() {
                    if p.name == "game" {
                        p.schema = Some(game.clone().into());
                    }
                }
                for (code, what) in [
                    ("400", "the request is malformed (its path, query or body)"),
                    ("405", "the route does not take this method"),
                    ("408", "the request or its body took too long"),
                    ("413", "the body is larger than the route takes"),
                    ("429", "too many requests from this address or account"),
                    (
                        "500",
                        "the server failed; its log has the details under the request id",
                    ),
                    ("503", "the database is out of reach for now"),
                ] {
                    op.responses
                        .responses
                        .entry(code.into())
                        .or_insert_with(|| error(what).into());
                }
            }
        }
    }
}

pub async fn openapi() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}

/// The account of the bearer token.
#[utoipa::path(get, path = "/api/me", security(("bearer" = [])), responses(
    (status = 200, body = Me), (status = 401, body = ErrorBody)))]
pub async fn me(Account(a): Account) -> Json<Me> {
    Json(Me {
        id: a.id,
        name: a.name,
    })
}

/// Every game, with the size of its ladder.
#[utoipa::path(get, path = "/api/games", responses((status = 200, body = [GameSummary])))]
pub async fn games(State(state): State<AppState>) -> Result<Json<Vec<GameSummary>>, ApiError> {
    Ok(Json(state.with_store(views::games).await?))
}

/// The leaderboard of a game: the latest version of every bot not retired,
/// ranked by the ladder's rating system (`rating_system`), with each bot's
/// Elo and rated matches; a page of it. The open season's, or the season
/// `season` names (a closed one as it ended); `seasons` lists them.
#[utoipa::path(get, path = "/api/games/{game}/leaderboard",
    params(("game" = String, Path, description = "a game id, as `ludus games` lists"), PageQuery,
        SeasonQuery),
    responses((status = 200, body = LeaderboardPage), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub async fn leaderboard(
    State(state): State<AppState>,
    Path(game): Path<String>,
    Query(page): Query<PageQuery>,
    Query(season): Query<SeasonQuery>,
) -> Result<Json<LeaderboardPage>, ApiError> {
    let page = Page::of(page)?;
    Ok(Json(
        state
            .with_store(move |s| views::leaderboard(s, &game, page, season.season.as_deref()))
            .await?,
    ))
}

/// A bot's page, as data, with a page of its played matches.
#[utoipa::path(get, path = "/api/bots/{name}",
    params(("name" = String, Path, description = "the bot's name"), PageQuery),
    responses((status = 200, body = BotView), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub async fn bot(
    State(state): State<AppState>,
    Path(name): Path<String>,
    Query(page): Query<PageQuery>,
) -> Result<Json<BotView>, ApiError> {
    let page = Page::of(page)?;
    Ok(Json(
        state
            .with_store(move |s| views::bot(s, &name, page))
            .await?,
    ))
}

/// A page of a bot's Elo after each of its rated matches, newest first.
#[utoipa::path(get, path = "/api/bots/{name}/ratings",
    params(("name" = String, Path, description = "the bot's name"), PageQuery),
    responses((status = 200, body = RatingHistory), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub async fn bot_ratings(
    State(state): State<AppState>,
    Path(name): Path<String>,
    Query(page): Query<PageQuery>,
) -> Result<Json<RatingHistory>, ApiError> {
    let page = Page::of(page)?;
    Ok(Json(
        state
            .with_store(move |s| views::bot_ratings(s, &name, page))
            .await?,
    ))
}

/// Uploads a bot (the `.wasm`, a core module or a component, as the body).
/// It plays its validation match for the game (`ludus check --game`) before
/// it is stored; a refusal says what was wrong. A candidate
/// (`candidate=true`) is stored but not entered in the ladder until
/// promoted.
#[utoipa::path(post, path = "/api/bots", params(UploadQuery, CandidateQuery),
    request_body(content(
        (WasmBody = "application/wasm"),
        (WasmBody = "application/octet-stream")
    ), description = "the bot's .wasm: a core module or a component"),
    security(("bearer" = [])),
    responses((status = 201, body = Uploaded), (status = 401, body = ErrorBody),
        (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 413, body = ErrorBody, description = "larger than the upload limit"),
        (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn upload(
    State(state): State<AppState>,
    Account(account): Account,
    Extension(address): Extension<ClientAddress>,
    Query(query): Query<UploadQuery>,
    Query(candidate): Query<CandidateQuery>,
    body: Body,
) -> Result<(StatusCode, Json<Uploaded>), ApiError> {
    let stored =
        commands::upload(&state, account, address, query, candidate.candidate, body).await?;
    Ok((StatusCode::CREATED, Json(stored)))
}

/// Retires a bot: it is scheduled no more (its results stay). Its owner only.
#[utoipa::path(post, path = "/api/bots/{name}/retire",
    params(("name" = String, Path, description = "the bot's name")),
    security(("bearer" = [])),
    responses((status = 200, body = BotView), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn retire(
    State(state): State<AppState>,
    Account(account): Account,
    Path(name): Path<String>,
) -> Result<Json<BotView>, ApiError> {
    let retired = state
        .with_store(move |s| commands::retire(s, &account, &name))
        .await?;
    state.wake_scheduler();
    Ok(Json(retired))
}

/// A played match: its seats, result and seed.
#[utoipa::path(get, path = "/api/matches/{id}",
    params(("id" = String, Path, description = "the match id, or a unique prefix")),
    responses((status = 200, body = MatchSummary), (status = 404, body = ErrorBody)))]
pub async fn match_info(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<MatchSummary>, ApiError> {
    Ok(Json(
        state
            .with_store(move |s| views::find_match(s, &id).map(|m| m.summary))
            .await?,
    ))
}

/// The match's replay (the replay format of `docs/replay.md`).
#[utoipa::path(get, path = "/api/matches/{id}/replay",
    params(("id" = String, Path, description = "the match id, or a unique prefix")),
    security((), ("bearer" = [])),
    responses((status = 200, description = "the replay JSON (`docs/replay.md`); a seat's logs only for its bot's owner. Its `seed` is a JSON number that may exceed 2^53: read it as a 64-bit integer, or take it from `/api/matches/{id}`, where it is a string"),
        (status = 304, description = "the replay as the request's If-None-Match names it"),
        (status = 404, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "the replay was not stored, and the match played again gives another replay than its result records: an integrity event, nothing served"),
        (status = 410, body = ErrorBody, description = "the replay was not stored, and this server's Ludus cannot play the match again identically (another version played it)"),
        (status = 429, body = ErrorBody, description = "the server is playing as many matches again as it may to regenerate replays not stored: try again shortly")))]
pub async fn replay(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let found = state
        .with_store(move |s| replays::find(s, &id, viewer.as_ref()))
        .await?;
    replays::serve(state.renders(), found, replays::Kind::Json, &headers).await
}

/// The server's metrics in Prometheus's text format: requests by route,
/// method and status, their latencies and the uploads' validation times
/// (counted by this process), and per game the matches finished (a
/// counter: `rate()` of it is matches per second), waiting and in play,
/// with the live workers and their threads (read from the database, so
/// every worker's matches count). Answered only to the networks of
/// `--metrics-from` (default loopback); a request through a proxy that
/// `--trusted-proxy` does not name is refused.
#[utoipa::path(get, path = "/metrics",
    responses((status = 200, content_type = "text/plain", body = String,
        description = "Prometheus's text format, version 0.0.4"),
        (status = 403, body = ErrorBody, description = "the client is not in the networks allowed to read the metrics")))]
pub async fn metrics(
    State(state): State<AppState>,
    request: axum::extract::Request,
) -> Result<Response, ApiError> {
    let peer = request
        .extensions()
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map(|c| c.0.ip());
    crate::metrics::may_scrape(
        peer,
        request.headers(),
        &state.config().trusted_proxies,
        &state.config().metrics_from,
    )?;
    // The store's families are left out (and `ludus_database_up` is 0)
    // when the database does not answer, so the server's own still arrive.
    let totals = match state.with_store(|s| Ok(s.queue().totals()?)).await {
        Ok(t) => Some(t),
        Err(e) => {
            tracing::warn!("metrics: cannot read the queue's totals: {e}");
            None
        }
    };
    let text = state.metrics().render(totals.as_ref());
    Ok(Response::builder()
        .header(
            axum::http::header::CONTENT_TYPE,
            crate::metrics::CONTENT_TYPE,
        )
        .body(Body::from(text))
        .expect("a valid answer"))
}

/// The process is up and serving: for a load balancer's liveness probe.
pub async fn healthz() -> &'static str {
    "ok\n"
}

/// The server can serve: its database answers and is at this Ludus's
/// schema. 503 otherwise, for a load balancer's readiness probe.
pub async fn readyz(State(state): State<AppState>) -> Result<&'static str, ApiError> {
    // A connection within half the answer's time, the query within the
    // rest: a database that went away is a 503 within a second, as health
    // checks expect (a proxy gives up on one after two).
    const WITHIN: Duration = Duration::from_millis(900);
    let st = state.clone();
    let asked = tokio::task::spawn_blocking(move || {
        let store = st.connection_within(WITHIN / 2)?;
        Ok::<_, ApiError>(store.schema_version()?)
    });
    let version = match tokio::time::timeout(WITHIN, asked).await {
        Ok(Ok(answer)) => answer?,
        Ok(Err(e)) => return Err(ApiError::Internal(format!("a blocking task failed: {e}"))),
        Err(_) => return Err(ApiError::Unavailable),
    };
    if version != ludus_leaderboard::store::schema::VERSION {
        return Err(ApiError::Rejected(
            StatusCode::SERVICE_UNAVAILABLE,
            "the database is at another schema than this server's; it serves again once they agree"
                .into(),
        ));
    }
    Ok("ready\n")
}
