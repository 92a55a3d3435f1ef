//! Accounts: who may have one and sign in. Making an account ([`create`],
//! the one road for `ludus user add` and the sign-up page), signing in by
//! name and password ([`sign_in`], then [`SignIn::check`]) or by token or
//! session ([`may_sign_in`]), and the operator's disable and enable
//! ([`set_disabled`]) and remove ([`remove`]: its tokens sign in no more,
//! its bots are retired, its results stay). Passwords are hashed and
//! verified by the server (Argon2id, on threads of its own), and tokens
//! made there too: the store keeps only their hashes.

use crate::clock;
use crate::error::Error;
use crate::house::{self, HOUSE, NO_TOKEN};
use crate::store::{Account, Created, NewAccount, Store, StoreError};
use crate::submit::{is_valid_name, NAME_RULE};

/// Why `name` may not be a new account's: a bot name's rules, and not the
/// house's; `None` when it may.
pub fn name_refused(name: &str) -> Option<String> {
    if !is_valid_name(name) {
        return Some(format!(
            "`{}` is not an account name: {NAME_RULE}",
            name.escape_debug()
        ));
    }
    if name.eq_ignore_ascii_case(HOUSE) {
        return Some(format!(
            "`{name}` is the name of the server's own account, which holds its house bots; choose another name"
        ));
    }
    None
}

/// Makes an account, now, as one step: its password hash and first token
/// if it has them, its invitation used up. Nothing is made when the name
/// is taken or the invitation refused ([`Created`] says which), nor for a
/// name [`name_refused`] refuses ([`Error::AccountName`]; callers ask it
/// first too, to answer before they hash a password).
pub fn create(store: &Store, new: &NewAccount) -> Result<Created, Error> {
    if let Some(why) = name_refused(new.name) {
        return Err(Error::AccountName(why));
    }
    let now = clock::now_rfc3339();
    Ok(store.accounts().create(new, &now, clock::now_unix())?)
}

/// Why an account may not sign in, whatever it signs in with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Barred {
    /// The operator removed it.
    Removed,
    /// The operator disabled it, until it is enabled again.
    Disabled,
}

/// Whether `account` may sign in (by password, token or session): not
/// once the operator removed or disabled it.
pub fn may_sign_in(account: &Account) -> Result<(), Barred> {
    match (account.removed_at, account.disabled_at) {
        (Some(_), _) => Err(Barred::Removed),
        (_, Some(_)) => Err(Barred::Disabled),
        _ => Ok(()),
    }
}

/// A sign-in by name, as the store answers it: the name's account and its
/// password's hash, if it has them. Read apart from [`SignIn::check`],
/// which verifies the password: a slow hash, that the server runs off the
/// threads that hold the store.
#[derive(Debug, Clone)]
pub struct SignIn {
    found: Option<(Account, Option<String>)>,
}

/// What became of a sign-in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignedIn {
    /// The account's id.
    Account(i64),
    /// A wrong password, an unknown name, or an account without a
    /// password: answered alike.
    Wrong,
    /// The right password of an account that may not sign in.
    Barred(Barred),
}

/// Reads what a sign-in of `name` (in any case) is decided on.
pub fn sign_in(store: &Store, name: &str) -> Result<SignIn, StoreError> {
    let Some(account) = store.accounts().named(name)? else {
        return Ok(SignIn { found: None });
    };
    let hash = store.accounts().password_hash(account.id)?;
    Ok(SignIn {
        found: Some((account, hash)),
    })
}

impl SignIn {
    /// Decides the sign-in: `verify(Some(phc))` says whether the password
    /// given is the one of that hash; `verify(None)`, for an unknown name
    /// or an account without a password, must take the time of a check,
    /// so that they answer as slowly as a wrong password.
    pub fn check(self, verify: impl FnOnce(Option<&str>) -> bool) -> SignedIn {
        let Some((account, Some(hash))) = self.found else {
            verify(None);
            return SignedIn::Wrong;
        };
        if !verify(Some(&hash)) {
            return SignedIn::Wrong;
        }
        match may_sign_in(&account) {
            Ok(()) => SignedIn::Account(account.id),
            Err(barred) => SignedIn::Barred(barred),
        }
    }
}

/// The account `name` (in any case) for the operator's commands on it:
/// not the house's, nor one removed.
pub fn operated(store: &Store, name: &str) -> Result<Account, Error> {
    let db = store.location().to_string();
    let Some(account) = store.accounts().named(name)? else {
        return Err(Error::NoAccount {
            db,
            name: name.into(),
        });
    };
    if account.token_sha256 == NO_TOKEN {
        return Err(Error::HouseSignsIn { name: account.name });
    }
    if account.removed_at.is_some() {
        return Err(Error::AccountRemoved {
            db,
            name: account.name,
        });
    }
    Ok(account)
}

/// Disables (`disabled`) or enables the account `name` for the operator:
/// disabled, its sessions end and neither sessions nor tokens sign in;
/// enabled again, its tokens that were not revoked sign in again (its
/// sessions stay ended). Its bots play on either way. The account's name
/// as stored, and whether anything changed.
pub fn set_disabled(store: &Store, name: &str, disabled: bool) -> Result<(String, bool), Error> {
    let account = operated(store, name)?;
    let changed = match disabled {
        true => store.accounts().disable(account.id, clock::now_unix())?,
        false => store.accounts().enable(account.id)?,
    };
    if changed {
        tracing::info!(account = %account.name, disabled, "account disabled or enabled by the operator");
    }
    Ok((account.name, changed))
}

/// What [`remove`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemovedUser {
    /// The account's name, as stored.
    pub name: String,
    /// Removed already: nothing changed.
    pub already: bool,
    /// The bots retired now, by name.
    pub retired: Vec<String>,
}

/// Removes the account `name` (in any case) for the operator: its tokens
/// sign in no more, and its bots are retired, so they leave the continuous
/// ladders; its bots, their versions and their results stay, and their
/// pages still show them. The house's account cannot be removed.
pub fn remove(store: &Store, name: &str) -> Result<RemovedUser, Error> {
    let account = store
        .accounts()
        .named(name)?
        .ok_or_else(|| Error::UnknownAccount {
            db: store.location().to_string(),
            name: name.into(),
        })?;
    if house::is_house(&account) {
        return Err(Error::HouseAccount { name: account.name });
    }
    let removed = store.accounts().remove(account.id, clock::now_unix())?;
    if let Some(retired) = &removed {
        tracing::info!(account = %account.name, retired = retired.len(), "account removed by the operator");
    }
    Ok(RemovedUser {
        name: account.name,
        already: removed.is_none(),
        retired: removed.unwrap_or_default(),
    })
}
