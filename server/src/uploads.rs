//! Who may upload what, and how often: the rules an upload passes before
//! its bot is validated. A name has 1 to [`NAME_LIMIT`] characters, none of
//! them control characters; a name belongs to the account that first
//! uploaded it; an account makes at most its daily quota of uploads in
//! any 24 hours, refused ones included, counted before validation so that
//! refused bots cannot keep the validation slots busy.

use crate::error::ApiError;
use ludus_leaderboard::clock;
use ludus_leaderboard::store::{Account, Store};

/// The most a bot name may have, in characters.
pub const NAME_LIMIT: usize = 64;

/// Refuses a name no bot may have, and a game Ludus does not host.
pub fn check_request(name: &str, game: &str) -> Result<(), ApiError> {
    if name.trim().is_empty()
        || name.chars().count() > NAME_LIMIT
        || name.chars().any(char::is_control)
    {
        return Err(ApiError::BadRequest(format!(
            "a bot name has 1 to {NAME_LIMIT} characters, none of them control characters"
        )));
    }
    ludus_engine::registry::info(game).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    Ok(())
}

/// Refuses unless the name is free or `account` owns it.
pub fn owned_by(store: &Store, name: &str, account: &Account) -> Result<(), ApiError> {
    match store.accounts().ownership(name)? {
        Some(o) if o.account != account.id => Err(ApiError::Forbidden(format!(
            "the bot `{name}` belongs to {}; choose another name",
            o.owner
        ))),
        _ => Ok(()),
    }
}

/// Counts an upload attempt of `account` toward its quota of `daily`
/// uploads in 24 hours, or refuses it when the quota is spent.
pub fn count_attempt(store: &Store, account: &Account, daily: u32) -> Result<(), ApiError> {
    let now = clock::now_unix();
    if store
        .accounts()
        .uploads_since(account.id, now - 24 * 3600)?
        >= daily
    {
        return Err(ApiError::TooMany(format!(
            "{} has made {daily} uploads in the last 24 hours, refused ones included, the most allowed; try again later",
            account.name
        )));
    }
    store.accounts().record_upload(account.id, now)?;
    Ok(())
}
