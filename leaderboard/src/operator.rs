//! What an operator is shown of a server's accounts and bots, on its
//! database directly: the accounts with their bots ([`users`]), the bots
//! with their owners ([`bots`]) and the identical bytes uploaded by
//! different accounts ([`duplicates`]). What an operator changes is where
//! its rule is: removing or disabling an account in `crate::accounts`,
//! retiring any bot in `crate::owners`; issuing a token is the server's
//! (`ludus_server::auth`), which alone hashes tokens.

use crate::clock;
use crate::error::Error;
use crate::house;
use crate::report;
use crate::store::{BotRecord, SameBytes, Store};
use std::collections::BTreeMap;

/// An account, as `ludus user list` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub name: String,
    /// When it was added (RFC 3339).
    pub created_at: String,
    pub operator: bool,
    /// When it was removed (RFC 3339), if it was.
    pub removed_at: Option<String>,
    /// When it was disabled (RFC 3339), if it is.
    pub disabled_at: Option<String>,
    /// The server's own account, which holds its house bots.
    pub house: bool,
    /// The bot names it owns, by name, each with whether it is retired.
    pub bots: Vec<(String, bool)>,
}

/// Every account of the store, by name.
pub fn users(store: &Store) -> Result<Vec<User>, Error> {
    Ok(store
        .accounts()
        .list()?
        .into_iter()
        .map(|l| User {
            house: house::is_house(&l.account),
            name: l.account.name,
            created_at: l.created_at,
            operator: l.account.operator,
            removed_at: l.account.removed_at.map(clock::unix_rfc3339),
            disabled_at: l.account.disabled_at.map(clock::unix_rfc3339),
            bots: l.bots,
        })
        .collect())
}

/// A stored bot as `ludus bots` lists it: its latest version, its owner
/// (none for a bot the operator stored) and whether it is retired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedBot {
    pub bot: BotRecord,
    pub owner: Option<String>,
    pub retired: bool,
}

/// The latest version of every stored bot ([`report::bots`]), with its
/// owner and whether it is retired.
pub fn bots(store: &Store) -> Result<Vec<ListedBot>, Error> {
    let owners: BTreeMap<String, _> = store.accounts().owners()?.into_iter().collect();
    Ok(report::bots(store)?
        .into_iter()
        .map(|bot| {
            let owner = owners.get(&bot.name);
            ListedBot {
                owner: owner.map(|o| o.owner.clone()),
                retired: owner.is_some_and(|o| o.retired),
                bot,
            }
        })
        .collect())
}

/// Bytes (one sha256) that bots of different accounts have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    pub sha256: String,
    /// Every owned bot version with these bytes, by account, bot and version.
    pub versions: Vec<SameBytes>,
}

impl Duplicate {
    /// The accounts that have these bytes, each once, by name.
    pub fn owners(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.versions.iter().map(|v| v.account.as_str()).collect();
        names.dedup();
        names
    }
}

/// The groups of bot versions with identical bytes owned by different
/// accounts, by sha256: what an operator wants to know of (one account's
/// bot uploaded again by another). Bots no account owns are left out.
pub fn duplicates(store: &Store) -> Result<Vec<Duplicate>, Error> {
    let mut out: Vec<Duplicate> = Vec::new();
    for v in store.accounts().same_bytes()? {
        match out.last_mut() {
            Some(d) if d.sha256 == v.sha256 => d.versions.push(v),
            _ => out.push(Duplicate {
                sha256: v.sha256.clone(),
                versions: vec![v],
            }),
        }
    }
    Ok(out)
}

/// The bots of other accounts with the bytes of one of `name`'s versions,
/// each once, by name: what a bot's page shows an operator.
pub fn same_bytes_as(store: &Store, name: &str) -> Result<Vec<SameBytes>, Error> {
    Ok(store.accounts().same_bytes_as(name)?)
}
