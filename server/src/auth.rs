//! API tokens: `ludus_<account id>_<secret>`. Only the sha256 of the secret
//! is stored; a presented token is checked by hashing its secret and
//! comparing the hashes in constant time.

use crate::ApiError;
use axum::http::HeaderMap;
use ludus_leaderboard::store::platform::Account;
use ludus_leaderboard::store::Store;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// The cookie a browser keeps the token in after signing in.
pub const COOKIE: &str = "ludus_token";

fn hash(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// Adds an account and returns its token, which is shown once and stored
/// only as a hash. `None` when the name is taken.
pub fn add_user(store: &mut Store, name: &str, now: &str) -> anyhow::Result<Option<String>> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| anyhow::anyhow!("no randomness for a token: {e}"))?;
    let secret = hex::encode(bytes);
    Ok(store
        .add_account(name, &hash(&secret), now)?
        .map(|id| format!("ludus_{id}_{secret}")))
}

/// The account whose token this is, if it is one.
pub fn verify(store: &Store, token: &str) -> Result<Option<Account>, ApiError> {
    let mut parts = token.splitn(3, '_');
    let (Some("ludus"), Some(id), Some(secret)) = (parts.next(), parts.next(), parts.next()) else {
        return Ok(None);
    };
    let Ok(id) = id.parse::<i64>() else {
        return Ok(None);
    };
    let Some(account) = store.account(id)? else {
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
pub fn cookie(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|c| c.trim().strip_prefix(COOKIE)?.strip_prefix('='))
}

/// The account a request writes as: its bearer token must be valid.
pub fn required(store: &Store, headers: &HeaderMap) -> Result<Account, ApiError> {
    let token = bearer(headers).ok_or(ApiError::Unauthorized)?;
    verify(store, token)?.ok_or(ApiError::BadToken)
}

/// The account a request reads as, from its bearer token or its cookie;
/// `None` for anyone not signed in (or with a token that is not valid).
pub fn optional(store: &Store, headers: &HeaderMap) -> Result<Option<Account>, ApiError> {
    match bearer(headers).or_else(|| cookie(headers)) {
        Some(token) => verify(store, token),
        None => Ok(None),
    }
}
