//! Challenges on the server: an owner asks for unrated matches of one of
//! its bot's versions against chosen opponents, a fixed count or an SPRT
//! ([`ludus_leaderboard::challenge`] checks, stores and scores them; the
//! scheduler tops them up, the workers play them). Here: the API's
//! routes (create, read, stop; promoting a candidate), the challenge's
//! page with the owner's forms, and the refusals said as the API's errors.

use crate::auth::Account;
use crate::dto::{BotView, Page};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Form, Path};
use crate::session::Session;
use crate::templates::{self, ChallengePage, Frame, PAGE_REFRESH_SECONDS};
use crate::{state::AppState, views};
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use ludus_leaderboard::candidates;
use ludus_leaderboard::challenge::{
    self, BotRef, ChallengeError, ChallengeId, ChallengeRequest, ChallengeState, ChallengeStatus,
    Opponents, Test,
};
use ludus_leaderboard::clock;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

pub use ludus_leaderboard::sprt::SprtBounds;

/// A challenge to create: the tested bot (one of yours), whom it plays
/// (`vs` or `top`), and until what (`games` or `sprt`).
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewChallenge {
    /// Your bot's name, or `name:version`.
    pub bot: String,
    /// The version tested (default: the bot's latest, a candidate
    /// included).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u32>,
    /// The opponents, each `name` (its version in the ladder) or
    /// `name:version`; another version of your bot may be one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vs: Option<Vec<String>>,
    /// Or the first N of the game's leaderboard now, your bot left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top: Option<u32>,
    /// A fixed number of games (no verdict)...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games: Option<u32>,
    /// ...or game pairs until this SPRT decides (`{}` for `ludus
    /// match-up`'s bounds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtBounds>,
    /// The most games an SPRT plays undecided (default: the server's
    /// maximum).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_games: Option<u32>,
    /// The challenge's seed, decimal digits (a 64-bit integer); the same
    /// seed, bots and test play the same games. Default: a fresh one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
}

impl NewChallenge {
    /// The library's request, or what is wrong with this one.
    pub fn request(&self) -> Result<ChallengeRequest, ApiError> {
        let bad = |m: &str| ApiError::BadRequest(m.into());
        let mut bot: BotRef = self.bot.parse().map_err(|e: String| bad(&e))?;
        if let Some(v) = self.version {
            if bot.version.is_some_and(|w| w != v) {
                return Err(bad("`bot` names one version and `version` another"));
            }
            bot.version = Some(v);
        }
        let opponents = match (&self.vs, self.top) {
            (Some(vs), None) => Opponents::Listed(
                vs.iter()
                    .map(|s| s.parse::<BotRef>())
                    .collect::<Result<_, _>>()
                    .map_err(|e| bad(&e))?,
            ),
            (None, Some(n)) => Opponents::Top(n),
            _ => return Err(bad(
                "name the opponents with `vs` (a list of bots) or `top` (a number), one of the two",
            )),
        };
        let test = match (self.games, self.sprt) {
            (Some(games), None) => Test::Games { games },
            (None, Some(bounds)) => Test::Sprt(bounds.config()),
            _ => return Err(bad("say what the challenge plays: `games` (a number) or `sprt` (its bounds, `{}` for the defaults), one of the two")),
        };
        let seed = match &self.seed {
            None => challenge::fresh_seed(),
            Some(s) => s.parse().map_err(|_| {
                bad("`seed` is a 64-bit integer written as a string of decimal digits")
            })?,
        };
        Ok(ChallengeRequest {
            bot,
            opponents,
            test,
            max_games: self.max_games,
            seed,
        })
    }
}

/// A challenge's id in a path.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct ChallengePath {
    /// The challenge's id, as its creation answered it.
    #[param(value_type = String, pattern = "^[0-9]{1,18}$")]
    pub id: ChallengeId,
}

/// A library's refusal as the API's error: 404 for what does not exist,
/// 403 for what is not yours, 429 for a spent quota, 409 for a challenge
/// that ended or a version that is no candidate, 422 for opponents a
/// challenge cannot play, 400 for a request out of bounds.
pub fn api_error(e: ChallengeError) -> ApiError {
    use ChallengeError as C;
    match e {
        C::Store(e) => e.into(),
        C::Leaderboard(e) => e.into(),
        e @ (C::UnknownBot(_) | C::UnknownVersion { .. } | C::UnknownChallenge(_)) => {
            ApiError::NotFound(e.to_string())
        }
        C::NotOwner(e) => e.into(),
        e @ C::NotYours { .. } => ApiError::Forbidden(e.to_string()),
        e @ (C::AtOnce { .. } | C::GamesToday { .. }) => ApiError::TooMany(e.to_string()),
        e @ (C::Ended { .. } | C::NotACandidate { .. }) => ApiError::Conflict(e.to_string()),
        e @ (C::Retired { .. }
        | C::OtherGame { .. }
        | C::NotEntered { .. }
        | C::Candidate { .. }
        | C::SameVersion { .. }
        | C::NoOpponents(_)
        | C::Seats { .. }) => ApiError::Refused(e.to_string()),
        e @ (C::TooManyGames { .. } | C::TooFewGames { .. } | C::Sprt(_)) => {
            ApiError::BadRequest(e.to_string())
        }
    }
}

/// Creates a challenge of one of your bots, within your quotas (challenges
/// at once, games a day) and the server's maximum of games a challenge;
/// the server's workers play it at the share of their time its operator
/// gives challenges, unrated. Its matches are scheduled some pairs at a
/// time, each pair the same seed in both seat orders.
#[utoipa::path(post, path = "/api/challenges",
    request_body(content = NewChallenge, content_type = "application/json"),
    security(("bearer" = [])),
    responses((status = 201, body = ChallengeStatus, description = "the challenge, as it starts"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "the tested bot is not yours"),
        (status = 404, body = ErrorBody, description = "no such bot or version"),
        (status = 422, body = ErrorBody, description = "an opponent is retired, of another game, another account's candidate, or the tested version itself"),
        (status = 429, body = ErrorBody, description = "your challenges at once or games of the day are spent")))]
pub async fn create(
    State(state): State<AppState>,
    Account(account): Account,
    body: Bytes,
) -> Result<(StatusCode, Json<ChallengeStatus>), ApiError> {
    let asked: NewChallenge = serde_json::from_slice(&body)
        .map_err(|e| ApiError::BadRequest(format!("the body is not a challenge: {e}")))?;
    let request = asked.request()?;
    let limits = state.config().challenges;
    let status = state
        .with_store(move |s| {
            let id = challenge::create(s, account.id, &request, &limits, clock::now_unix())
                .map_err(api_error)?;
            tracing::info!(challenge = id, account = %account.name, bot = %request.bot, "challenge created");
            challenge::status(s, id).map_err(api_error)
        })
        .await?;
    state.results_arrived();
    Ok((StatusCode::CREATED, Json(status)))
}

/// Where a challenge stands: games played, wins, draws and losses, the
/// score and the Elo difference with their 95% intervals, the SPRT's
/// log-likelihood ratio against its bounds and its verdict once it has
/// one, and every match (a played one's id opens `/matches/{id}`).
#[utoipa::path(get, path = "/api/challenges/{id}", params(ChallengePath),
    responses((status = 200, body = ChallengeStatus), (status = 404, body = ErrorBody)))]
pub async fn get(
    State(state): State<AppState>,
    Path(path): Path<ChallengePath>,
) -> Result<Json<ChallengeStatus>, ApiError> {
    Ok(Json(
        state
            .with_store(move |s| challenge::status(s, path.id).map_err(api_error))
            .await?,
    ))
}

/// Stops one of your challenges: verdict `none`; its matches not in play
/// are not played.
#[utoipa::path(post, path = "/api/challenges/{id}/stop", params(ChallengePath),
    security(("bearer" = [])),
    responses((status = 200, body = ChallengeStatus), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "the challenge has ended already")))]
pub async fn stop(
    State(state): State<AppState>,
    Account(account): Account,
    Path(path): Path<ChallengePath>,
) -> Result<Json<ChallengeStatus>, ApiError> {
    Ok(Json(
        state
            .with_store(move |s| stop_as(s, &account, path.id))
            .await?,
    ))
}

fn stop_as(
    s: &ludus_leaderboard::store::Store,
    account: &ludus_leaderboard::store::Account,
    id: ChallengeId,
) -> Result<ChallengeStatus, ApiError> {
    challenge::stop(s, account.id, id, clock::now_unix()).map_err(api_error)?;
    tracing::info!(challenge = id, account = %account.name, "challenge stopped");
    challenge::status(s, id).map_err(api_error)
}

/// A version of a bot in a path.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct VersionPath {
    /// The bot's name.
    pub name: String,
    /// The version.
    pub version: u32,
}

/// Promotes a candidate version of your bot: it enters its game's ladder
/// (the ladder's next top-up seats it, as a new version's would be).
#[utoipa::path(post, path = "/api/bots/{name}/versions/{version}/promote", params(VersionPath),
    security(("bearer" = [])),
    responses((status = 200, body = BotView), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "the version is not a candidate")))]
pub async fn promote(
    State(state): State<AppState>,
    Account(account): Account,
    Path(path): Path<VersionPath>,
) -> Result<Json<BotView>, ApiError> {
    let view = state
        .with_store(move |s| {
            promote_as(s, &account, &path.name, path.version)?;
            views::bot(s, &path.name, Page::default())
        })
        .await?;
    state.wake_scheduler();
    Ok(Json(view))
}

/// Promotes `account`'s candidate `name` version `version`: it enters
/// its game's ladder at the scheduler's next top-up.
pub fn promote_as(
    s: &ludus_leaderboard::store::Store,
    account: &ludus_leaderboard::store::Account,
    name: &str,
    version: u32,
) -> Result<(), ApiError> {
    candidates::promote(s, account.id, name, version).map_err(api_error)?;
    tracing::info!(bot = %name, version, account = %account.name, "candidate promoted");
    Ok(())
}

/// A challenge's page: its figures, its LLR between its bounds, its
/// matches; reloaded every [`PAGE_REFRESH_SECONDS`] while it runs.
pub async fn page(
    State(state): State<AppState>,
    frame: Frame,
    Path(path): Path<ChallengePath>,
) -> Response {
    let viewer = frame.account.clone();
    let found = state
        .with_store(move |s| {
            let status = challenge::status(s, path.id).map_err(api_error)?;
            let candidate = s
                .bots()
                .candidates(&status.bot.name)?
                .contains(&status.bot.version);
            Ok(ChallengePage {
                owner: viewer.as_deref() == Some(status.owner.as_str()),
                candidate,
                status,
            })
        })
        .await;
    match found {
        Ok(p) => {
            let running = p.status.state == ChallengeState::Running;
            let mut answer = templates::challenge(&frame, &p).into_response();
            if running {
                answer
                    .headers_mut()
                    .insert(header::REFRESH, HeaderValue::from(PAGE_REFRESH_SECONDS));
            }
            answer
        }
        Err(e) => templates::error_response(e),
    }
}

/// A form of a challenge's page: only its session's token.
#[derive(Debug, Deserialize)]
pub struct OwnerForm {
    csrf: String,
}

/// Promotes the challenge's tested version, from its page; back to it.
pub async fn promote_form(
    State(state): State<AppState>,
    session: Session,
    headers: HeaderMap,
    Path(path): Path<ChallengePath>,
    Form(form): Form<OwnerForm>,
) -> Response {
    let account = session.account.clone();
    let back = format!("/challenges/{}", path.id);
    session
        .apply_form(&state, &headers, &form.csrf, &back, move |s| {
            let status = challenge::status(s, path.id).map_err(api_error)?;
            promote_as(s, &account, &status.bot.name, status.bot.version)
        })
        .await
}

/// Stops the challenge, from its page; back to it.
pub async fn stop_form(
    State(state): State<AppState>,
    session: Session,
    headers: HeaderMap,
    Path(path): Path<ChallengePath>,
    Form(form): Form<OwnerForm>,
) -> Response {
    let account = session.account.clone();
    let back = format!("/challenges/{}", path.id);
    session
        .apply_form(&state, &headers, &form.csrf, &back, move |s| {
            stop_as(s, &account, path.id).map(|_| ())
        })
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asked(json: &str) -> Result<ChallengeRequest, ApiError> {
        serde_json::from_str::<NewChallenge>(json)
            .unwrap()
            .request()
    }

    #[test]
    fn a_request_names_its_opponents_and_its_test_once_each() {
        let r = asked(r#"{"bot": "mine:3", "vs": ["a", "b:2"], "sprt": {"elo1": 5}, "seed": "18446744073709551615"}"#).unwrap();
        assert_eq!(r.bot.version, Some(3));
        assert_eq!(
            r.opponents,
            Opponents::Listed(vec!["a".parse().unwrap(), "b:2".parse().unwrap()])
        );
        assert_eq!(r.seed, u64::MAX);
        match r.test {
            Test::Sprt(c) => assert_eq!((c.elo0, c.elo1, c.alpha), (0.0, 5.0, 0.05)),
            t => panic!("{t:?}"),
        }
        let r = asked(r#"{"bot": "mine", "version": 2, "top": 3, "games": 10}"#).unwrap();
        assert_eq!((r.bot.version, r.opponents), (Some(2), Opponents::Top(3)));
        for wrong in [
            r#"{"bot": "mine", "games": 10}"#,
            r#"{"bot": "mine", "vs": ["a"], "top": 2, "games": 10}"#,
            r#"{"bot": "mine", "vs": ["a"]}"#,
            r#"{"bot": "mine", "vs": ["a"], "games": 2, "sprt": {}}"#,
            r#"{"bot": "mine", "vs": ["a"], "games": 2, "seed": "-1"}"#,
            r#"{"bot": "mine:2", "version": 3, "vs": ["a"], "games": 2}"#,
        ] {
            assert!(
                matches!(asked(wrong), Err(ApiError::BadRequest(_))),
                "{wrong}"
            );
        }
        assert!(serde_json::from_str::<NewChallenge>(r#"{"bot": "m", "elo1": 3}"#).is_err());
    }
}
