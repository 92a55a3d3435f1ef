//! Who may do what to a bot. Its owner, the account that first uploaded
//! its name, retires it or one of its versions, promotes a candidate
//! (`crate::candidates`) and challenges with it: [`require_owner`] is the
//! one check, and [`OwnerError::NotOwner`] its one refusal. The operator
//! may retire any bot ([`retire_any`]): a house bot, or one no account owns
//! (which the house adopts first, so that it has an owner to be retired
//! by), through [`retire_house_bot`].

use crate::error::Error;
use crate::house;
use crate::store::{Ownership, Store, StoreError};

/// What an account asks to do to a bot; its refusal says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Act {
    /// Retire the bot, or one of its versions.
    Retire,
    /// Challenge other bots with one of its versions.
    Challenge,
    /// Enter a candidate version in its game's ladder.
    Promote,
}

/// Why an account may not do what it asked to a bot.
#[derive(Debug, thiserror::Error)]
pub enum OwnerError {
    /// No account owns the name: no such bot, or one the operator stored.
    /// Only a retirement says so; a challenge or a promotion has found
    /// the bot before it asks whose it is.
    #[error("no bot named `{0}`")]
    Unowned(String),
    /// Another account owns the bot (`owner`), or none does (a challenge
    /// or a promotion only).
    #[error("{}", not_owner(bot, owner.as_deref(), *act))]
    NotOwner {
        bot: String,
        owner: Option<String>,
        act: Act,
    },
    /// The version to retire is not in its ladder.
    #[error("`{bot}` has no version {version} in its ladder (a candidate, or no such version)")]
    NotEntered { bot: String, version: u32 },
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The refusal of `act` on `bot` to an account that does not own it (a
/// retirement of a name nobody owns is [`OwnerError::Unowned`]). A
/// challenge and a promotion are refused alike: a candidate is promoted
/// from its challenge's page.
fn not_owner(bot: &str, owner: Option<&str>, act: Act) -> String {
    match (act, owner) {
        (Act::Retire, Some(owner)) => {
            format!("the bot `{bot}` belongs to {owner}; only its owner can retire it")
        }
        (_, owner) => format!(
            "`{bot}` is not yours{}: a challenge tests a bot of its owner's",
            owner
                .map(|o| format!(" (its owner is {o})"))
                .unwrap_or_default()
        ),
    }
}

/// The bot `bot`'s ownership, when `account` owns it (retired or not);
/// otherwise why `account` may not `act` on it.
pub fn require_owner(
    store: &Store,
    account: i64,
    bot: &str,
    act: Act,
) -> Result<Ownership, OwnerError> {
    match (store.accounts().ownership(bot)?, act) {
        (Some(o), _) if o.account == account => Ok(o),
        (None, Act::Retire) => Err(OwnerError::Unowned(bot.into())),
        (other, act) => Err(OwnerError::NotOwner {
            bot: bot.into(),
            owner: other.map(|o| o.owner),
            act,
        }),
    }
}

/// Retires `account`'s bot `bot`: it is scheduled no more; its results
/// stay. Its owner only.
pub fn retire(store: &Store, account: i64, bot: &str) -> Result<(), OwnerError> {
    require_owner(store, account, bot, Act::Retire)?;
    store.accounts().retire(bot)?;
    Ok(())
}

/// Retires version `version` of `account`'s bot `bot` (withdraws it): it
/// leaves its game's ladder, which plays the bot's latest version before
/// it that is not a candidate (none: the bot leaves the ladder until a
/// version is promoted); its results stay, and it stays stored as a
/// candidate its owner can promote again. Its owner only.
pub fn retire_version(
    store: &Store,
    account: i64,
    bot: &str,
    version: u32,
) -> Result<(), OwnerError> {
    require_owner(store, account, bot, Act::Retire)?;
    if !store.bots().withdraw(bot, version)? {
        return Err(OwnerError::NotEntered {
            bot: bot.into(),
            version,
        });
    }
    Ok(())
}

/// What the operator's retirement of a bot did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RetiredBot {
    /// The bot of this account, retired now.
    Owned(String),
    /// A house bot, retired now.
    House,
    /// A bot the operator stored, which no account owned: the house
    /// adopted it, then retired it.
    Adopted,
    /// Retired already.
    Already,
}

/// Retires the bot `name` for the operator, whoever owns it: it is
/// scheduled no more and leaves the continuous ladder's board; its
/// matches and ratings stay. A bot no account owns (stored with `ludus
/// submit --db`) is adopted by the house first, as [`retire_house_bot`]
/// does, so that it has an owner to be retired by.
pub fn retire_any(store: &Store, name: &str) -> Result<RetiredBot, Error> {
    match store.accounts().ownership(name)? {
        Some(o) if o.retired => Ok(RetiredBot::Already),
        Some(o) if !house::bots(store)?.contains(name) => {
            store.accounts().retire(name)?;
            tracing::info!(bot = name, owner = %o.owner, "retired by the operator");
            Ok(RetiredBot::Owned(o.owner))
        }
        _ => retire_house_bot(store, name),
    }
}

/// Retires the bot `name` for the operator: a house bot, or a bot the
/// operator stored that no account owns (the house adopts it first, so
/// that it has an owner to be retired by). A bot of another account is
/// its owner's to retire. Never [`RetiredBot::Owned`].
pub fn retire_house_bot(store: &Store, name: &str) -> Result<RetiredBot, Error> {
    let house = house::account(store)?;
    let adopted = match store.accounts().ownership(name)? {
        Some(o) if o.account != house => {
            return Err(Error::NotTheHouse {
                bot: name.into(),
                owner: o.owner,
            })
        }
        Some(o) if o.retired => return Ok(RetiredBot::Already),
        Some(_) => false,
        None => {
            // Unknown names get the store's own error.
            store.bots().get(name, None)?;
            if !store.accounts().adopt(name, house)? {
                return Err(Error::from(StoreError::UnknownBot(name.into())));
            }
            true
        }
    };
    store.accounts().retire(name)?;
    tracing::info!(bot = name, "retired by the operator");
    Ok(if adopted {
        RetiredBot::Adopted
    } else {
        RetiredBot::House
    })
}
