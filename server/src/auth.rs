//! Who asks. API tokens are `ludus_<account id>_<secret>`; only the sha256
//! of the secret is stored, and a presented token is checked by hashing its
//! secret and comparing the hashes in constant time.
//!
//! A handler says what it needs in its signature: [`Account`] (a valid
//! bearer token, or the request is refused before anything else is done)
//! or [`Viewer`] (whoever it is, signed in or not).

use crate::{error::ApiError, state::AppState};
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::HeaderMap;
use ludus_leaderboard::store::{self, Store};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// The cookie a browser keeps the token in after signing in.
pub const COOKIE: &str = "ludus_token";

fn hash(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// Adds an account and returns its token, which is shown once and stored
/// only as a hash. `None` when the name is taken.
pub fn add_user(store: &Store, name: &str) -> anyhow::Result<Option<String>> {
    add_account(store, name, false)
}

/// Adds an account, an operator's if `operator` (its pages show what only
/// the operator is told), and returns its token, as [`add_user`] does.
pub fn add_account(store: &Store, name: &str, operator: bool) -> anyhow::Result<Option<String>> {
    if !crate::uploads::is_valid_name(name) {
        anyhow::bail!(
            "`{}` is not an account name: {}",
            name.escape_debug(),
            crate::uploads::NAME_RULE
        );
    }
    if name.eq_ignore_ascii_case(ludus_leaderboard::house::HOUSE) {
        anyhow::bail!(
            "`{name}` is the name of the server's own account, which holds its house bots; choose another name"
        );
    }
    let secret = new_secret()?;
    let now = ludus_leaderboard::clock::now_rfc3339();
    Ok(store
        .accounts()
        .add(name, &hash(&secret), operator, &now)?
        .map(|id| token(id, &secret)))
}

/// A token's secret: 32 random bytes, in hex.
fn new_secret() -> anyhow::Result<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| anyhow::anyhow!("no randomness for a token: {e}"))?;
    Ok(hex::encode(bytes))
}

fn token(id: i64, secret: &str) -> String {
    format!("ludus_{id}_{secret}")
}

/// Gives the account `name` (in any case) a new token and returns it, for
/// its holder who lost theirs: shown once, stored only as a hash, and it
/// replaces the account's token (the old one signs in no more; an account
/// has one token). Not for an account removed, nor the house's.
pub fn new_token(store: &Store, name: &str) -> anyhow::Result<String> {
    let db = store.location();
    let Some(account) = store.accounts().named(name)? else {
        anyhow::bail!("{db} has no account named `{name}`; `ludus user list --db {db}` lists them, `ludus user add {name}` adds it");
    };
    if account.token_sha256 == ludus_leaderboard::house::NO_TOKEN {
        anyhow::bail!(
            "`{}` is the server's own account, which holds its house bots: nobody signs in to it",
            account.name
        );
    }
    let secret = new_secret()?;
    if account.removed_at.is_some()
        || !store.accounts().replace_token(account.id, &hash(&secret))?
    {
        anyhow::bail!(
            "the account `{}` was removed from {db}: its tokens sign in no more; add a new account with `ludus user add NAME`",
            account.name
        );
    }
    tracing::info!(account = %account.name, "new token issued; the previous one signs in no more");
    Ok(token(account.id, &secret))
}

/// The account whose token this is, if it is one; [`ApiError::AccountRemoved`]
/// for the token of an account the operator removed.
pub fn verify(store: &Store, token: &str) -> Result<Option<store::Account>, ApiError> {
    let mut parts = token.splitn(3, '_');
    let (Some("ludus"), Some(id), Some(secret)) = (parts.next(), parts.next(), parts.next()) else {
        return Ok(None);
    };
    let Ok(id) = id.parse::<i64>() else {
        return Ok(None);
    };
    let Some(account) = store.accounts().get(id)? else {
        return Ok(None);
    };
    let same: bool = hash(secret)
        .as_bytes()
        .ct_eq(account.token_sha256.as_bytes())
        .into();
    if same && account.removed_at.is_some() {
        return Err(ApiError::AccountRemoved);
    }
    Ok(same.then_some(account))
}

/// The bearer token of a request, if it has one.
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(axum::http::header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

/// The token of a browser signed in (its cookie), if any.
pub fn cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(cookie::Cookie::split_parse)
        .filter_map(Result::ok)
        .find(|c| c.name() == COOKIE)
        .map(|c| c.value().to_string())
}

/// The `Set-Cookie` value that signs a browser in with `token`: HttpOnly,
/// same-site only, for 30 days.
pub fn sign_in_cookie(token: &str) -> String {
    cookie::Cookie::build((COOKIE, token))
        .path("/")
        .http_only(true)
        .same_site(cookie::SameSite::Strict)
        .max_age(cookie::time::Duration::days(30))
        .build()
        .to_string()
}

/// The account of a request that writes: its bearer token must be valid.
/// Extracted before the body, so nothing is read for a request that is
/// not authorised; the request then counts against the account's rate.
#[derive(Debug, Clone)]
pub struct Account(pub store::Account);

impl FromRequestParts<AppState> for Account {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let token = bearer(&parts.headers)
            .ok_or(ApiError::Unauthorized)?
            .to_string();
        let account = state
            .with_store(move |s| verify(s, &token))
            .await?
            .ok_or(ApiError::BadToken)?;
        state.limits().account(account.id)?;
        Ok(Account(account))
    }
}

/// Who reads: the account of the bearer token or of the sign-in cookie;
/// `None` for anyone not signed in (or with a token that is not valid, or
/// of an account removed).
#[derive(Debug, Clone)]
pub struct Viewer(pub Option<store::Account>);

impl FromRequestParts<AppState> for Viewer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let Some(token) = bearer(&parts.headers)
            .map(str::to_string)
            .or_else(|| cookie(&parts.headers))
        else {
            return Ok(Viewer(None));
        };
        let account = match state.with_store(move |s| verify(s, &token)).await {
            Err(ApiError::AccountRemoved) => None,
            verified => verified?,
        };
        if let Some(a) = &account {
            state.limits().account(a.id)?;
        }
        Ok(Viewer(account))
    }
}

/// The frame of a page ([`crate::templates::Frame`]): who is signed in.
impl FromRequestParts<AppState> for crate::templates::Frame {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let Viewer(viewer) = Viewer::from_request_parts(parts, state).await?;
        Ok(crate::templates::Frame {
            account: viewer.map(|a| a.name),
            csrf: None,
        })
    }
}
