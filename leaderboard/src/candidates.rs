//! A candidate version's promotion: a version uploaded as a candidate is
//! stored but plays only its owner's challenges until its owner enters it
//! in its game's ladder.

use crate::challenge::{unknown, ChallengeError};
use crate::owners::{self, Act};
use crate::store::Store;

/// Enters `account`'s candidate `bot` v`version` in its game's ladder: the
/// next top-up of the game's continuous ladder seats it (when it is the
/// name's latest version not a candidate).
pub fn promote(store: &Store, account: i64, bot: &str, version: u32) -> Result<(), ChallengeError> {
    let b = store.bots().get(bot, Some(version)).map_err(unknown)?;
    owners::require_owner(store, account, &b.name, Act::Promote)?;
    if !store.bots().promote(&b.name, version)? {
        return Err(ChallengeError::NotACandidate {
            bot: b.name,
            version,
        });
    }
    Ok(())
}
