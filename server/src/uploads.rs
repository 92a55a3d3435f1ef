//! Who may upload what, and how often: the rules an upload passes before
//! its body is read and its bot validated.
//!
//! - [`NAME_RULE`]: a name is plain ASCII, so two names cannot look alike
//!   in another script, and names are one name whatever their case;
//! - a name belongs to the account that first uploaded it; a name the
//!   operator stored a bot under (`ludus submit --db`) belongs to no
//!   account, and no upload can take it;
//! - an account makes at most its daily quota of uploads in any 24 hours,
//!   refused ones included, counted before validation so that refused bots
//!   cannot keep the validation slots busy.

use crate::error::ApiError;
use ludus_leaderboard::clock;
use ludus_leaderboard::store::{Account, Store};
use ludus_leaderboard::submit;

pub use ludus_leaderboard::submit::{is_valid_name, NAME_LIMIT, NAME_RULE};

/// Refuses a name no bot may have, and a game Ludus does not host.
pub fn check_request(name: &str, game: &str) -> Result<(), ApiError> {
    if !is_valid_name(name) {
        return Err(ApiError::BadRequest(format!(
            "`{}` is not a bot name: {NAME_RULE}",
            name.escape_debug()
        )));
    }
    ludus_engine::registry::info(game).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    Ok(())
}

/// Refuses unless the name is free or `account` owns it
/// ([`submit::may_claim`]; the refusal is worded there).
pub fn owned_by(store: &Store, name: &str, account: &Account) -> Result<(), ApiError> {
    Ok(submit::may_claim(store, account.id, name)??)
}

/// Counts an upload attempt of `account` toward its quota of `daily`
/// uploads in 24 hours, or refuses it when the quota is spent.
pub fn count_attempt(store: &Store, account: &Account, daily: u32) -> Result<(), ApiError> {
    let now = clock::now_unix();
    if !store
        .accounts()
        .count_upload(account.id, now, now - 24 * 3600, daily)?
    {
        return Err(ApiError::TooMany(format!(
            "{} has made {daily} uploads in the last 24 hours, refused ones included, the most allowed; try again later",
            account.name
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::is_valid_name;

    #[test]
    fn names_are_plain_ascii_and_begin_with_a_letter_or_a_digit() {
        for ok in ["alice", "Bot-2.0", "a", "x_y", &"n".repeat(64)] {
            assert!(is_valid_name(ok), "{ok}");
        }
        for refused in [
            "",
            ".",
            "..",
            "../../etc/passwd",
            " alice",
            "alice\u{202e}",
            "al\u{200b}ice",
            "аlice", // a Cyrillic а
            "-x",
            "a b",
            "<script>",
            &"n".repeat(65),
        ] {
            assert!(!is_valid_name(refused), "{refused:?}");
        }
    }
}
