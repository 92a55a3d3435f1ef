//! What an account changes: uploading a bot (validated like `ludus check
//! --game`, then stored as the next version of its name by
//! [`ludus_leaderboard::submit::store_for`]) and retiring one, or one of
//! its versions ([`ludus_leaderboard::owners`], whose rule it is).

use crate::dto::{BotView, Page, Refusal, Stored, UploadQuery, Uploaded};
use crate::rate_limit::ClientAddress;
use crate::{error::ApiError, state::AppState, uploads, views};
use axum::body::Body;
use ludus_host::Limits;
use ludus_leaderboard::clock;
use ludus_leaderboard::owners;
use ludus_leaderboard::store::{Account, Store};
use ludus_leaderboard::submit::{self, SubmitError};

/// Uploads the bot in `body` as `query.name` for `account`, as
/// [`upload_with`] does: entered in its game's ladder, or a `candidate`.
pub async fn upload(
    state: &AppState,
    account: Account,
    address: ClientAddress,
    query: UploadQuery,
    candidate: bool,
    body: Body,
) -> Result<Uploaded, ApiError> {
    let upload = Upload {
        account,
        address,
        query,
        candidate,
    };
    upload_with(state, upload, |limit| read_body(body, limit))
        .await
        .map(|stored| stored.uploaded)
        .map_err(|refusal| refusal.error)
}

/// An upload asked for: by whom, from where, its name and game, and
/// whether it is a candidate.
#[derive(Debug)]
pub struct Upload {
    pub account: Account,
    pub address: ClientAddress,
    pub query: UploadQuery,
    pub candidate: bool,
}

/// Uploads a bot as `query.name` for `account`, a `candidate` or not
/// (stored, not entered in its game's ladder until promoted), whatever
/// carries its bytes (the API's body, a page's form): the upload rules
/// first ([`uploads`]), and a place among the uploads in progress (in
/// all, and from the client's address); only then does `read` read the
/// bytes, up to the upload limit it is given. The validation match runs on
/// a blocking thread, without holding the store and no more at once than
/// the server allows; the name is checked again before the bot is stored,
/// as another upload may have taken it meanwhile. Logged at info either
/// way: what was stored, or why it was refused.
pub async fn upload_with<R, F>(state: &AppState, upload: Upload, read: R) -> Result<Stored, Refusal>
where
    R: FnOnce(usize) -> F,
    F: std::future::Future<Output = Result<Vec<u8>, ApiError>>,
{
    let (name, game) = (upload.query.name.clone(), upload.query.game.clone());
    let who = upload.account.name.clone();
    let uploaded = upload_checked(state, upload, read).await;
    match &uploaded {
        // A failure of the server is logged with its detail by `error::finish`.
        Err(Refusal { error: e, .. }) if e.status().is_client_error() => tracing::info!(
            // Escaped: a refused name or game may be anything a client
            // sent, and a refusal may quote what the bot printed.
            bot = %name.escape_debug(),
            game = %game.escape_debug(),
            account = %who,
            status = e.status().as_u16(),
            code = %e.code(),
            reason = %e.to_string().escape_debug(),
            "upload refused"
        ),
        _ => {}
    }
    uploaded
}

async fn upload_checked<R, F>(state: &AppState, upload: Upload, read: R) -> Result<Stored, Refusal>
where
    R: FnOnce(usize) -> F,
    F: std::future::Future<Output = Result<Vec<u8>, ApiError>>,
{
    let Upload {
        account,
        address,
        query,
        candidate,
    } = upload;
    uploads::check_request(&query.name, &query.game)?;
    let _slot = state.limits().upload_slot(address)?;
    let _place = state.upload_permit()?;
    let daily = state.config().daily_uploads;
    let (name, who) = (query.name.clone(), account.clone());
    state
        .with_store(move |s| {
            uploads::owned_by(s, &name, &who)?;
            uploads::count_attempt(s, &who, daily)
        })
        .await?;
    let wasm = read(state.config().upload_limit).await?;
    let _permit = state.check_permit().await;
    let limits = state.config().continuous.limits.clone();
    let st = state.clone();
    // Its lines in the request's span, under the request's id.
    let span = tracing::Span::current();
    tokio::task::spawn_blocking(move || {
        let _request = span.enter();
        let UploadQuery { name, game, .. } = query;
        let started = std::time::Instant::now();
        let admitted = submit::admit(st.sandbox(), &name, &game, &wasm, &limits);
        let took = started.elapsed();
        st.metrics().validation(&game, admitted.is_ok(), took);
        let admitted = admitted.map_err(|e| refusal(e, &limits))?;
        let report = admitted
            .report
            .games
            .first()
            .map(|v| v.report(&limits))
            .unwrap_or_default();
        let validation = match admitted.report.games.first().map(|v| v.warnings()) {
            Some(0) | None => format!("passed its validation match of {game}"),
            Some(n) => format!("passed its validation match of {game}, with {n} warnings"),
        };
        let s = st.connection()?;
        let accepted = admitted
            .store_for(&s, Some(account.id), &clock::now_rfc3339(), candidate)
            .map_err(|e| refusal(e, &limits))?;
        let b = accepted.stored.bot;
        tracing::info!(
            bot = %b.name,
            version = b.version,
            account = %account.name,
            game = %b.game,
            new_version = accepted.stored.new_version,
            candidate,
            validation_ms = took.as_millis() as u64,
            "upload accepted"
        );
        if accepted.stored.new_version && !candidate {
            st.wake_scheduler();
        }
        Ok(Stored {
            uploaded: Uploaded {
                name: b.name,
                version: b.version,
                game: b.game,
                sha256: b.sha256,
                new_version: accepted.stored.new_version,
                candidate,
                validation,
            },
            report,
        })
    })
    .await
    .map_err(|e| ApiError::Internal(format!("the validation task failed: {e}")))?
}

/// Why a bot was not stored, with its validation's report when it failed
/// its validation match.
fn refusal(e: SubmitError, limits: &Limits) -> Refusal {
    let report = match &e {
        SubmitError::Refused { game, report } => report.game(game).map(|v| v.report(limits)),
        _ => None,
    };
    Refusal {
        error: e.into(),
        report,
    }
}

/// The body, up to `limit` bytes. A body that stops short of the limit
/// ran out of time (a client that went away gets no answer at all).
async fn read_body(body: Body, limit: usize) -> Result<Vec<u8>, ApiError> {
    match axum::body::to_bytes(body, limit).await {
        Ok(bytes) => Ok(bytes.to_vec()),
        Err(e) => {
            let mut source: Option<&(dyn std::error::Error + 'static)> = Some(&e);
            while let Some(s) = source {
                if s.is::<http_body_util::LengthLimitError>() {
                    return Err(ApiError::TooLarge(format!(
                        "the bot is larger than the upload limit of {limit} bytes"
                    )));
                }
                source = s.source();
            }
            Err(ApiError::Timeout(
                "the bot's bytes did not arrive in time; send them faster".into(),
            ))
        }
    }
}

/// Retires `name`: it is scheduled no more (its results stay). Its owner
/// only ([`owners::retire`]).
pub fn retire(store: &Store, account: &Account, name: &str) -> Result<BotView, ApiError> {
    owners::retire(store, account.id, name)?;
    tracing::info!(bot = %name, account = %account.name, "bot retired");
    views::bot(store, name, Page::default())
}

/// Retires version `version` of `name`: it leaves its game's ladder, and
/// stays stored as a candidate its owner can promote again. Its owner only
/// ([`owners::retire_version`]).
pub fn retire_version(
    store: &Store,
    account: &Account,
    name: &str,
    version: u32,
) -> Result<(), ApiError> {
    owners::retire_version(store, account.id, name, version)?;
    tracing::info!(bot = %name, version, account = %account.name, "bot version retired");
    Ok(())
}
