//! The house: an account that owns the bots a server stocks itself with
//! (`ludus serve --house DIR`), so that every game has opponents from its
//! first upload. [`stock`] plays every bot of the folder's validation match
//! for every game, as an upload plays it for its own, and stores each bot
//! under the house for every game it passes, as an upload is stored
//! ([`crate::submit::store_for`]). The operator retires a house bot, or a
//! bot the operator stored, as any bot ([`crate::owners::retire_any`]).
//!
//! Nobody signs in as the house: its token hash is [`NO_TOKEN`], which no
//! sha256 is.

use crate::clock;
use crate::error::Error;
use crate::store::{Account, Store};
use crate::submit::{self, is_valid_name, NewVersion};
use ludus_host::check;
use ludus_host::{Limits, Sandbox};
use rayon::prelude::*;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// The house account's name.
pub const HOUSE: &str = "house";

/// The house account's token hash: not 64 hex digits, so no token's
/// sha256 is ever equal to it.
pub const NO_TOKEN: &str = "-";

/// Whether `account` is the house's: its name, and the token hash no
/// token has.
pub fn is_house(account: &Account) -> bool {
    account.name.eq_ignore_ascii_case(HOUSE) && account.token_sha256 == NO_TOKEN
}

/// The house account's id: found, or created the first time.
pub fn account(store: &Store) -> Result<i64, Error> {
    for _ in 0..2 {
        if let Some(a) = store.accounts().named(HOUSE)? {
            if a.token_sha256 != NO_TOKEN {
                return Err(Error::HouseTaken {
                    db: store.location().to_string(),
                    name: a.name,
                });
            }
            return Ok(a.id);
        }
        if let Some(id) = store
            .accounts()
            .add(HOUSE, NO_TOKEN, false, &clock::now_rfc3339())?
        {
            tracing::info!(account = id, "house account created");
            return Ok(id);
        }
        // Another process added it meanwhile: read it again.
    }
    Err(Error::HouseTaken {
        db: store.location().to_string(),
        name: HOUSE.into(),
    })
}

/// The name of the house bot from the file `file_stem`.wasm for `game`:
/// the stem, or `stem-game` when the same file plays several games
/// (`plays`, the games it passed).
pub fn bot_name(file_stem: &str, game: &str, plays: &[&str]) -> String {
    if plays.len() > 1 {
        format!("{file_stem}-{game}")
    } else {
        file_stem.to_string()
    }
}

/// The bot names the house owns (retired ones included).
pub fn bots(store: &Store) -> Result<BTreeSet<String>, Error> {
    match store.accounts().named(HOUSE)? {
        Some(a) if a.token_sha256 == NO_TOKEN => Ok(store.accounts().owned_by(a.id)?),
        _ => Ok(BTreeSet::new()),
    }
}

/// What [`stock`] did with a folder.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stock {
    /// The `.wasm` files of the folder.
    pub files: usize,
    /// Validation matches (a file for a game) passed, and failed.
    pub passed: usize,
    pub failed: usize,
    /// Bots stored now, as a new version of their name.
    pub stored: Vec<String>,
    /// Bots the house had already: these bytes are their latest version.
    pub known: Vec<String>,
    /// Names the house could not take, and why.
    pub skipped: Vec<(String, String)>,
    /// Files that play no game, and why not (the first game's refusal, or
    /// why they do not load).
    pub unplayable: Vec<(PathBuf, String)>,
    /// Stopped before storing anything: the server is stopping.
    pub stopped: bool,
}

/// A file of the folder, read.
struct HouseFile {
    path: PathBuf,
    stem: String,
    wasm: Vec<u8>,
}

/// The `.wasm` files of `dir`, read, in name order.
fn read_folder(dir: &Path) -> Result<Vec<HouseFile>, Error> {
    let folder = |e: std::io::Error| Error::HouseFolder {
        path: dir.to_path_buf(),
        reason: e.to_string(),
    };
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(folder)? {
        let path = entry.map_err(folder)?.path();
        if path.extension().is_some_and(|e| e == "wasm") && !path.is_dir() {
            paths.push(path);
        }
    }
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let wasm = std::fs::read(&path).map_err(|e| Error::HouseFile {
                path: path.clone(),
                reason: e.to_string(),
            })?;
            let stem = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            Ok(HouseFile { path, stem, wasm })
        })
        .collect()
}

/// Stocks the house with the bots of `dir`: every `.wasm` file (in name
/// order) plays the validation match of every game under `limits`, as an
/// upload does, on rayon's threads; for each game it passes, it is stored
/// under the house account ([`bot_name`]) unless these bytes already are
/// that name's latest version, so stocking again from the same folder
/// stores nothing (and a house bot the operator retired stays retired). A
/// name another account owns is skipped. `stop` ends the validations
/// early, storing nothing.
pub fn stock(
    store: &Store,
    sandbox: &Sandbox,
    dir: &Path,
    limits: &Limits,
    stop: &AtomicBool,
) -> Result<Stock, Error> {
    let files = read_folder(dir)?;
    let house = account(store)?;
    let games = ludus_engine::games();
    let mut done = Stock {
        files: files.len(),
        ..Stock::default()
    };
    let loaded: Vec<_> = files
        .par_iter()
        .map(|f| sandbox.load(&f.stem, &f.wasm))
        .collect();
    let pairs: Vec<(usize, usize)> = loaded
        .iter()
        .enumerate()
        .filter(|(_, bot)| bot.is_ok())
        .flat_map(|(f, _)| (0..games.len()).map(move |g| (f, g)))
        .collect();
    let validated: Vec<_> = pairs
        .par_iter()
        .map(|&(f, g)| {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let bot = loaded[f].as_ref().expect("only loaded bots are validated");
            Some((f, g, check::validate(bot, &games[g], limits)))
        })
        .collect();
    if stop.load(Ordering::Relaxed) {
        done.stopped = true;
        return Ok(done);
    }
    // Per file, the games it plays.
    let mut plays: Vec<Vec<&'static str>> = vec![Vec::new(); files.len()];
    let mut refusals: Vec<Option<String>> = vec![None; files.len()];
    for (f, g, validation) in validated.into_iter().flatten() {
        match validation {
            Ok(v) if v.passed() => {
                done.passed += 1;
                plays[f].push(games[g].id);
            }
            Ok(v) => {
                done.failed += 1;
                tracing::debug!(file = %files[f].path.display(), game = games[g].id,
                    why = v.why_failed().unwrap_or_default(), "not a house bot of this game");
                refusals[f].get_or_insert_with(|| {
                    format!("{}: {}", games[g].id, v.why_failed().unwrap_or_default())
                });
            }
            Err(e) => {
                done.failed += 1;
                tracing::warn!(file = %files[f].path.display(), game = games[g].id, error = %e,
                    "the validation match could not be played");
                refusals[f].get_or_insert_with(|| format!("{}: {e}", games[g].id));
            }
        }
    }
    let now = clock::now_rfc3339();
    let mut names = BTreeSet::new();
    for (f, file) in files.iter().enumerate() {
        let bot = match &loaded[f] {
            Ok(bot) => bot,
            Err(e) => {
                tracing::warn!(file = %file.path.display(), error = %e, "not a bot: the house leaves it");
                done.unplayable.push((file.path.clone(), e.to_string()));
                continue;
            }
        };
        if plays[f].is_empty() {
            let why = refusals[f].take().unwrap_or_default();
            tracing::warn!(file = %file.path.display(), why, "plays no game: the house leaves it");
            done.unplayable.push((file.path.clone(), why));
            continue;
        }
        for &game in &plays[f] {
            let name = bot_name(&file.stem, game, &plays[f]);
            let outcome = if !is_valid_name(&name) {
                Outcome::Skipped(crate::submit::NAME_RULE.into())
            } else if !names.insert(name.to_lowercase()) {
                Outcome::Skipped("another file of the folder gives a bot this name".into())
            } else {
                let version = NewVersion {
                    name: &name,
                    game,
                    wasm: &file.wasm,
                    sha256: &bot.sha256,
                };
                stock_one(store, house, &version, &now)?
            };
            match outcome {
                Outcome::Stored => {
                    tracing::info!(bot = %name, game, file = %file.path.display(), "house bot stored");
                    done.stored.push(name);
                }
                Outcome::Known => done.known.push(name),
                Outcome::Skipped(why) => {
                    tracing::warn!(bot = %name, game, file = %file.path.display(), why,
                        "the house cannot take this name");
                    done.skipped.push((name, why));
                }
            }
        }
    }
    Ok(done)
}

/// What became of one house bot.
enum Outcome {
    Stored,
    Known,
    Skipped(String),
}

/// Stores `version` as a house bot, unless these bytes already are the
/// latest version of the house's name (retired or not: a house bot the
/// operator retired stays retired, where storing would claim its name
/// back), or the name is not the house's to take.
fn stock_one(store: &Store, house: i64, version: &NewVersion, now: &str) -> Result<Outcome, Error> {
    let owner = store.accounts().ownership(version.name)?;
    if owner.is_some_and(|o| o.account == house) {
        let latest = store.bots().versions(version.name)?.pop();
        if latest.is_some_and(|b| b.sha256 == version.sha256 && b.game == version.game) {
            return Ok(Outcome::Known);
        }
    }
    Ok(
        match submit::store_for(store, Some(house), version, now, false)? {
            Ok(submitted) if submitted.new_version => Outcome::Stored,
            Ok(_) => Outcome::Known,
            Err(refused) => Outcome::Skipped(refused.to_string()),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::bot_name;

    #[test]
    fn a_file_that_plays_several_games_names_a_bot_for_each() {
        assert_eq!(
            bot_name("expander", "planet-wars", &["planet-wars"]),
            "expander"
        );
        assert_eq!(bot_name("grid", "claim", &["claim", "loops"]), "grid-claim");
        assert_eq!(bot_name("grid", "loops", &["claim", "loops"]), "grid-loops");
    }

    #[test]
    fn no_token_hashes_to_the_house_token() {
        // A token's hash is 64 hex digits: never the house's.
        assert_ne!(super::NO_TOKEN.len(), 64);
    }
}
