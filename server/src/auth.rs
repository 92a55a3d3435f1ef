//! Who asks. API tokens are `ludus_<account id>_<secret>`, named, many an
//! account, each revocable; only the sha256 of the secret is stored, and a
//! presented token is found by hashing its secret, then checked against
//! the account its id names, the hashes compared in constant time. When a
//! token was last used is recorded at most once a minute. Browsers sign in
//! with a password instead, to a session ([`crate::session`]).
//!
//! A handler says what it needs in its signature: [`Account`] (a valid
//! bearer token, or the request is refused before anything else is done),
//! [`Viewer`] (whoever it is, by bearer token or session, signed in or
//! not), [`crate::session::Session`] (a browser signed in, for the pages
//! that change something) or the page's [`crate::templates::Frame`].

use crate::{error::ApiError, state::AppState};
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::HeaderMap;
use ludus_leaderboard::store::{self, Created, NewAccount, Store};
use ludus_leaderboard::{accounts, clock};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// How long a token's last use may go unrecorded, in seconds: requests
/// within it write nothing.
pub const LAST_USED_EVERY: i64 = 60;

fn hash(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// Adds an account and returns its first API token (named `first`), which
/// is shown once and stored only as a hash. `None` when the name is taken.
pub fn add_user(store: &Store, name: &str) -> anyhow::Result<Option<String>> {
    add_account(store, name, false)
}

/// Adds an account, an operator's if `operator` (its pages show what only
/// the operator is told), and returns its token, as [`add_user`] does.
pub fn add_account(store: &Store, name: &str, operator: bool) -> anyhow::Result<Option<String>> {
    add_account_with_password(store, name, operator, None)
}

/// Adds an account as [`add_account`] does, with `password` too if given
/// (checked against the password rules, [`crate::password::weakness`]),
/// so that it also signs in on the pages.
pub fn add_account_with_password(
    store: &Store,
    name: &str,
    operator: bool,
    password: Option<&str>,
) -> anyhow::Result<Option<String>> {
    // Refused before the password is hashed, which is slow.
    if let Some(why) = accounts::name_refused(name) {
        anyhow::bail!("{why}");
    }
    let password_hash = match password {
        Some(p) => {
            if let Some(why) = crate::password::weakness(name, p) {
                anyhow::bail!("the password is refused: {why}");
            }
            Some(crate::password::hash(p)?)
        }
        None => None,
    };
    let secret = new_secret()?;
    let token_sha256 = hash(&secret);
    let new = NewAccount {
        name,
        operator,
        password_hash: password_hash.as_deref(),
        token: Some(("first", &token_sha256)),
        invite: None,
    };
    Ok(match accounts::create(store, &new)? {
        Created::Account(id) => Some(token(id, &secret)),
        _ => None,
    })
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

/// Gives the account `name` (in any case) a new API token named `label`
/// (default `cli-<n>`, n its count of tokens) and returns its id and the
/// token, which is shown once and stored only as a hash; its other tokens
/// stay as they are. Not for an account removed, nor the house's.
pub fn new_token(store: &Store, name: &str, label: Option<&str>) -> anyhow::Result<(i64, String)> {
    let account = accounts::operated(store, name)?;
    let label = match label {
        Some(l) => l.to_string(),
        None => format!("cli-{}", store.accounts().tokens(account.id)?.len() + 1),
    };
    let made = new_named_token(store, account.id, &label).map_err(|e| anyhow::anyhow!("{e}"))?;
    tracing::info!(account = %account.name, token = made.0, "new API token");
    Ok(made)
}

/// Gives the account a new API token named `label`: its id and the token,
/// shown once and stored only as a hash.
pub fn new_named_token(
    store: &Store,
    account_id: i64,
    label: &str,
) -> Result<(i64, String), ApiError> {
    let label = label.trim();
    if label.is_empty() || label.chars().count() > 64 || label.chars().any(char::is_control) {
        return Err(ApiError::BadRequest(
            "a token's name has 1 to 64 characters, none of them a control character".into(),
        ));
    }
    let secret = new_secret().map_err(|e| ApiError::Internal(e.to_string()))?;
    let id =
        store
            .accounts()
            .add_token(account_id, label, &hash(&secret), &clock::now_rfc3339())?;
    Ok((id, token(account_id, &secret)))
}

/// Revokes the account's token `token_id`: refused from the next request
/// on. `false` for a token that is not the account's or was revoked
/// already.
pub fn revoke_token(store: &Store, account_id: i64, token_id: i64) -> Result<bool, ApiError> {
    Ok(store
        .accounts()
        .revoke_token(account_id, token_id, clock::now_unix())?)
}

/// The account `name` (in any case), which must exist.
fn named(store: &Store, name: &str) -> anyhow::Result<store::Account> {
    let db = store.location();
    store.accounts().named(name)?.ok_or_else(|| {
        anyhow::anyhow!(
            "{db} has no account named `{name}`; `ludus user list --db {db}` lists them"
        )
    })
}

/// The API tokens of the account `name` (in any case), revoked ones
/// included, for the operator (`ludus user tokens`): the account, and its
/// tokens.
pub fn tokens_of(
    store: &Store,
    name: &str,
) -> anyhow::Result<(store::Account, Vec<store::ApiToken>)> {
    let account = named(store, name)?;
    let tokens = store.accounts().tokens(account.id)?;
    Ok((account, tokens))
}

/// Revokes the API token `token_id` of the account `name` (in any case)
/// for the operator (`ludus user revoke`): the account's name as stored,
/// and whether a token was revoked (not when it has no such token that
/// is not revoked already).
pub fn revoke_token_of(store: &Store, name: &str, token_id: i64) -> anyhow::Result<(String, bool)> {
    let account = named(store, name)?;
    let revoked = revoke_token(store, account.id, token_id).map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok((account.name, revoked))
}

/// Sets the password of the account `name` (in any case), for the
/// operator (`ludus user password`): checked against the password rules.
pub fn set_password(store: &Store, name: &str, password: &str) -> anyhow::Result<()> {
    let account = accounts::operated(store, name)?;
    if let Some(why) = crate::password::weakness(&account.name, password) {
        anyhow::bail!("the password is refused: {why}");
    }
    if !store
        .accounts()
        .set_password_hash(account.id, &crate::password::hash(password)?)?
    {
        anyhow::bail!("the account `{}` was removed meanwhile", account.name);
    }
    Ok(())
}

/// Makes a one-time invitation code, valid for `valid_for`: the code,
/// shown once and stored only as a hash, and when it expires (unix
/// seconds).
pub fn new_invite(store: &Store, valid_for: std::time::Duration) -> anyhow::Result<(String, i64)> {
    let code = format!("invite_{}", &new_secret()?[..32]);
    let now = clock::now_unix();
    let expires = now.saturating_add(valid_for.as_secs().min(i64::MAX as u64) as i64);
    store.accounts().add_invite(&hash(&code), now, expires)?;
    Ok((code, expires))
}

/// The sha256 (hex) of an invitation code as entered, trimmed.
pub fn invite_hash(code: &str) -> String {
    hash(code.trim())
}

/// The account whose token this is, if it is one that is not revoked;
/// [`ApiError::AccountRemoved`] or [`ApiError::AccountDisabled`] for the
/// token of an account the operator removed or disabled.
pub fn verify(store: &Store, token: &str) -> Result<Option<store::Account>, ApiError> {
    let mut parts = token.splitn(3, '_');
    let (Some("ludus"), Some(id), Some(secret)) = (parts.next(), parts.next(), parts.next()) else {
        return Ok(None);
    };
    let Ok(id) = id.parse::<i64>() else {
        return Ok(None);
    };
    let presented = hash(secret);
    let Some(found) = store.accounts().token(&presented)? else {
        return Ok(None);
    };
    let same: bool = presented
        .as_bytes()
        .ct_eq(found.token_sha256.as_bytes())
        .into();
    if !same || found.account_id != id || found.revoked_at.is_some() {
        return Ok(None);
    }
    let Some(account) = store.accounts().get(id)? else {
        return Ok(None);
    };
    accounts::may_sign_in(&account)?;
    let now = clock::now_unix();
    if found
        .last_used_at
        .is_none_or(|last| now - last >= LAST_USED_EVERY)
    {
        store.accounts().token_used(found.id, now)?;
    }
    Ok(Some(account))
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
