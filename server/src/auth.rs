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
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| anyhow::anyhow!("no randomness for a token: {e}"))?;
    let secret = hex::encode(bytes);
    let now = ludus_leaderboard::clock::now_rfc3339();
    Ok(store
        .accounts()
        .add(name, &hash(&secret), &now)?
        .map(|id| format!("ludus_{id}_{secret}")))
}

/// The account whose token this is, if it is one.
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
/// `None` for anyone not signed in (or with a token that is not valid).
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
        let account = state.with_store(move |s| verify(s, &token)).await?;
        if let Some(a) = &account {
            state.limits().account(a.id)?;
        }
        Ok(Viewer(account))
    }
}
