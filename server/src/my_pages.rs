//! A signed-in person's own pages: uploading a bot from a form (`/upload`,
//! the API's upload by another road: [`commands::upload_with`]) and their
//! bots, API tokens and challenges (`/account`), with the forms that change
//! them. Each handler takes a [`Session`] (a visitor not signed in is sent
//! to sign in) and every form is checked ([`Session::check`]) before
//! anything changes: its origin and the session's CSRF token.

use crate::commands;
use crate::dto::UploadQuery;
use crate::error::ApiError;
use crate::extract::Form;
use crate::rate_limit::ClientAddress;
use crate::session::Session;
use crate::state::AppState;
use crate::templates::CSRF_FIELD;
use crate::templates::{
    self, field, AccountPage, Frame, MyBot, MyVersion, Standing, UploadOutcome, UploadPage,
};
use axum::extract::multipart::{Field, Multipart, MultipartRejection};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use ludus_leaderboard::challenge;
use ludus_leaderboard::continuous;
use ludus_leaderboard::report;
use ludus_leaderboard::store::Store;
use serde::Deserialize;

pub async fn upload_form(_session: Session, frame: Frame) -> Response {
    templates::upload(&frame, &UploadPage::default()).into_response()
}

/// Takes the upload form: its fields, then the file, read through the
/// same rules as the API's upload.
pub async fn upload(
    State(state): State<AppState>,
    session: Session,
    frame: Frame,
    Extension(address): Extension<ClientAddress>,
    headers: HeaderMap,
    multipart: Result<Multipart, MultipartRejection>,
) -> Response {
    let mut form = UploadPage::default();
    let refused = |form: UploadPage, error: ApiError| {
        let status = error.status();
        let form = UploadPage {
            outcome: Some(UploadOutcome::Refused(error.into())),
            ..form
        };
        (status, templates::upload(&frame, &form)).into_response()
    };
    let mut multipart = match multipart {
        Ok(m) => m,
        Err(e) => return refused(form, ApiError::Rejected(e.status(), e.body_text())),
    };
    let mut csrf = String::new();
    let file = loop {
        let field = match multipart.next_field().await {
            Ok(Some(f)) => f,
            Ok(None) => break None,
            Err(e) => return refused(form, ApiError::Rejected(e.status(), e.body_text())),
        };
        let name = field.name().unwrap_or("").to_string();
        if name == field::FILE {
            break Some(field);
        }
        let value = match text(field).await {
            Ok(v) => v,
            Err(e) => return refused(form, e),
        };
        match name.as_str() {
            CSRF_FIELD => csrf = value,
            field::GAME => form.game = value,
            field::NAME => form.name = value.trim().to_string(),
            field::CANDIDATE => form.candidate = !value.is_empty(),
            _ => {}
        }
    };
    if let Err(e) = session.check(&headers, &state, &csrf) {
        return refused(form, e);
    }
    let Some(file) = file else {
        return refused(
            form,
            ApiError::BadRequest("choose the bot's .wasm file to upload".into()),
        );
    };
    let query = UploadQuery {
        name: form.name.clone(),
        game: form.game.clone(),
    };
    let candidate = form.candidate;
    let upload = commands::Upload {
        account: session.account,
        address,
        query,
        candidate,
    };
    let done = commands::upload_with(&state, upload, |limit| read_file(file, limit)).await;
    let (status, outcome) = match done {
        Ok(stored) => (StatusCode::OK, UploadOutcome::Stored(stored, candidate)),
        Err(refusal) => (refusal.error.status(), UploadOutcome::Refused(refusal)),
    };
    form.outcome = Some(outcome);
    (status, templates::upload(&frame, &form)).into_response()
}

/// Longest text field of the upload form taken.
const TEXT_FIELD: usize = 1024;

/// A text field of the form, up to [`TEXT_FIELD`] bytes.
async fn text(mut field: Field<'_>) -> Result<String, ApiError> {
    let mut bytes = Vec::new();
    while let Some(chunk) = field.chunk().await.map_err(multipart_error)? {
        bytes.extend_from_slice(&chunk);
        if bytes.len() > TEXT_FIELD {
            return Err(ApiError::BadRequest(format!(
                "a field of the form is longer than {TEXT_FIELD} bytes"
            )));
        }
    }
    String::from_utf8(bytes)
        .map_err(|_| ApiError::BadRequest("a field of the form is not UTF-8 text".into()))
}

/// The file field's bytes, up to `limit`.
async fn read_file(mut field: Field<'_>, limit: usize) -> Result<Vec<u8>, ApiError> {
    let mut bytes = Vec::new();
    while let Some(chunk) = field.chunk().await.map_err(multipart_error)? {
        if bytes.len() + chunk.len() > limit {
            return Err(ApiError::TooLarge(format!(
                "the bot is larger than the upload limit of {limit} bytes"
            )));
        }
        bytes.extend_from_slice(&chunk);
    }
    if bytes.is_empty() {
        return Err(ApiError::BadRequest(
            "the file is empty: choose the bot's .wasm file".into(),
        ));
    }
    Ok(bytes)
}

fn multipart_error(e: axum::extract::multipart::MultipartError) -> ApiError {
    match e.status() {
        StatusCode::PAYLOAD_TOO_LARGE => {
            ApiError::TooLarge("the form is larger than this server takes".into())
        }
        s if s.is_server_error() => {
            ApiError::Timeout("the form's bytes did not arrive in time; send them faster".into())
        }
        s => ApiError::Rejected(s, format!("the form is not right: {}", e.body_text())),
    }
}

pub async fn account(State(state): State<AppState>, session: Session, frame: Frame) -> Response {
    let placement = state.config().continuous.placement;
    let (id, name) = (session.account.id, session.account.name.clone());
    let page = state
        .with_store(move |s| account_page(s, id, &name, placement))
        .await;
    match page {
        Ok(p) => templates::account_home(&frame, &p).into_response(),
        Err(e) => templates::error_response(e),
    }
}

/// The page of the account `id`; `placement` is the continuous ladders'
/// opponents in a new version's placement series.
pub fn account_page(
    store: &Store,
    id: i64,
    name: &str,
    placement: usize,
) -> Result<AccountPage, ApiError> {
    let owned = store.accounts().owned_by(id)?;
    let retired = store.accounts().retired()?;
    let mut bots = Vec::new();
    // Each game's board read once, for all the account's bots of it.
    let mut boards: std::collections::BTreeMap<String, Option<Board>> = Default::default();
    for bot in owned {
        let records = store.bots().versions(&bot)?;
        let Some(last) = records.last() else {
            continue;
        };
        let candidates = store.bots().candidates(&bot)?;
        let versions: Vec<MyVersion> = records
            .iter()
            .map(|v| MyVersion {
                version: v.version,
                sha256: v.sha256.clone(),
                submitted_at: v.submitted_at.clone(),
                candidate: candidates.contains(&v.version),
            })
            .collect();
        let entered = versions
            .iter()
            .rev()
            .find(|v| !v.candidate)
            .map(|v| v.version);
        let game = last.game.clone();
        if !boards.contains_key(&game) {
            boards.insert(game.clone(), board(store, &game, placement)?);
        }
        let mut mine = MyBot {
            retired: retired.contains(&bot),
            name: bot,
            game: game.clone(),
            versions,
            entered,
            standing: None,
            rated: 0,
            fault_turns: 0,
            placement: None,
        };
        if let (Some(b), Some(version)) = (&boards[&game], entered) {
            fill_standing(store, b, &mut mine, version)?;
        }
        bots.push(mine);
    }
    let tokens = store
        .accounts()
        .tokens(id)?
        .into_iter()
        .filter(|t| t.revoked_at.is_none())
        .collect();
    let challenges = challenge::list(store, id).map_err(crate::challenges::api_error)?;
    Ok(AccountPage {
        account: name.into(),
        bots,
        tokens,
        new_token: None,
        challenges,
    })
}

/// A game's open season: its ladder, its board and the matches of a new
/// version's placement series in its field.
struct Board {
    ladder: i64,
    board: report::Leaderboard,
    series: u32,
}

/// `game`'s [`Board`]; `placement` is the continuous ladders' opponents
/// in a new version's placement series.
fn board(store: &Store, game: &str, placement: usize) -> Result<Option<Board>, ApiError> {
    let Some(ladder) = store.ladders().continuous(game)? else {
        return Ok(None);
    };
    let field = continuous::field(store, game)?;
    let board = report::current_standings(store, ladder, &field)?;
    let players = ludus_engine::registry::info(game)
        .map_err(|e| ApiError::Internal(e.to_string()))?
        .fewest_seats();
    Ok(Some(Board {
        ladder,
        board,
        series: field.placement_len(players, placement) as u32,
    }))
}

/// The bot's rank and rating, its rated matches and faults, and whether
/// it plays its placement series: as long as its rated matches are fewer
/// than the series' ([`continuous::placement_len`]).
fn fill_standing(store: &Store, b: &Board, bot: &mut MyBot, version: u32) -> Result<(), ApiError> {
    let record = store.ladders().get(b.ladder)?;
    let Some(position) = record
        .bots
        .iter()
        .position(|r| r.name == bot.name && r.version == version)
    else {
        return Ok(());
    };
    let (rated, faults) = store.seats().rated_seats_of(b.ladder, &[position])?;
    bot.rated = rated;
    bot.fault_turns = faults;
    if !bot.retired && rated < b.series {
        bot.placement = Some((rated, b.series));
    }
    bot.standing = b
        .board
        .rows
        .iter()
        .find(|r| r.bot == bot.name && r.version == version)
        .map(|r| Standing {
            rank: r.rank,
            of: b.board.rows.len() as u32,
            rating: r.rating,
            interval: r.interval,
            rating_system: b.board.rating_system.clone(),
        });
    Ok(())
}

/// A form about one of the person's bots (or one of its versions).
#[derive(Debug, Deserialize)]
pub struct BotForm {
    csrf: String,
    bot: String,
    #[serde(default)]
    version: Option<u32>,
}

/// Retires a bot: it is scheduled no more, its results stay.
pub async fn retire(
    State(state): State<AppState>,
    session: Session,
    headers: HeaderMap,
    Form(form): Form<BotForm>,
) -> Response {
    let account = session.account.clone();
    session
        .apply_form(&state, &headers, &form.csrf, "/account", move |s| {
            commands::retire(s, &account, &form.bot).map(|_| ())
        })
        .await
}

/// Retires one version of a bot: it leaves the ladder, which plays the
/// bot's version before it again ([`commands::retire_version`]).
pub async fn retire_version(
    State(state): State<AppState>,
    session: Session,
    headers: HeaderMap,
    Form(form): Form<BotForm>,
) -> Response {
    let account = session.account.clone();
    session
        .apply_form(&state, &headers, &form.csrf, "/account", move |s| {
            let version = form
                .version
                .ok_or_else(|| ApiError::BadRequest("say which version to retire".into()))?;
            commands::retire_version(s, &account, &form.bot, version)
        })
        .await
}

/// Enters a candidate version in its game's ladder.
pub async fn promote(
    State(state): State<AppState>,
    session: Session,
    headers: HeaderMap,
    Form(form): Form<BotForm>,
) -> Response {
    let account = session.account.clone();
    session
        .apply_form(&state, &headers, &form.csrf, "/account", move |s| {
            let version = form
                .version
                .ok_or_else(|| ApiError::BadRequest("say which version to promote".into()))?;
            crate::challenges::promote_as(s, &account, &form.bot, version)
        })
        .await
}

#[derive(Debug, Deserialize)]
pub struct NewToken {
    csrf: String,
    label: String,
}

/// Makes an API token and shows it on the account page, this once.
pub async fn new_token(
    State(state): State<AppState>,
    session: Session,
    frame: Frame,
    headers: HeaderMap,
    Form(form): Form<NewToken>,
) -> Response {
    if let Err(e) = session.check(&headers, &state, &form.csrf) {
        return templates::error_response(e);
    }
    let placement = state.config().continuous.placement;
    let (id, name) = (session.account.id, session.account.name.clone());
    let page = state
        .with_store(move |s| {
            let (token_id, token) = crate::auth::new_named_token(s, id, &form.label)?;
            tracing::info!(account = %name, token = token_id, "new API token");
            let mut page = account_page(s, id, &name, placement)?;
            page.new_token = Some((form.label.trim().to_string(), token));
            Ok(page)
        })
        .await;
    match page {
        Ok(p) => templates::account_home(&frame, &p).into_response(),
        Err(e) => templates::error_response(e),
    }
}

#[derive(Debug, Deserialize)]
pub struct RevokeToken {
    csrf: String,
    token: i64,
}

/// Revokes one of the account's API tokens: refused from the next request.
pub async fn revoke_token(
    State(state): State<AppState>,
    session: Session,
    headers: HeaderMap,
    Form(form): Form<RevokeToken>,
) -> Response {
    let id = session.account.id;
    session
        .apply_form(&state, &headers, &form.csrf, "/account", move |s| {
            match crate::auth::revoke_token(s, id, form.token)? {
                true => Ok(()),
                false => Err(ApiError::NotFound(format!(
                    "you have no token {} that is not revoked",
                    form.token
                ))),
            }
        })
        .await
}
