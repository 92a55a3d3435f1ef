//! Finding what re-running a match needs: its replay, from a file or from
//! the store by match id; and each seat's bot, by the sha256 its replay
//! records, in the places a user keeps bots, in this order: the `.wasm`
//! files of the given folders, the bot store, the module cache (compiled
//! bots, by the sha256 of their `.wasm`).

use crate::store::{Location, Store, StoreError};
use ludus_host::replay::SeatInfo;
use ludus_host::{short_id, BotModule, LoadError, Replay, ReplayError, Sandbox};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Where to look for bots.
#[derive(Debug, Clone, Copy)]
pub struct Places<'a> {
    /// Folders of `.wasm` files.
    pub dirs: &'a [PathBuf],
    /// The bot store.
    pub store: Option<&'a Store>,
}

/// Where a bot was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    File(PathBuf),
    Store(Location),
    Cache,
}

impl std::fmt::Display for Found {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Found::File(p) => write!(f, "{}", p.display()),
            Found::Store(db) => write!(f, "the bot store {db}"),
            Found::Cache => f.write_str("the module cache"),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum LookupError {
    #[error("seat {seat}: bot `{name}` (sha256 {}) is not in {looked}{hint}; pass --bots DIR with its .wasm, or --db with the database it was submitted to", short_id(sha256))]
    NotFound {
        seat: usize,
        name: String,
        sha256: String,
        /// Every place looked, in order.
        looked: String,
        /// A file with the bot's name but other bytes, if there is one.
        hint: String,
    },
    #[error("seat {seat}: {source}")]
    Load { seat: usize, source: LoadError },
    #[error(transparent)]
    Replay(#[from] ReplayError),
    #[error(
        "the stored replay of match {} is unreadable: {reason}",
        short_id(match_id)
    )]
    StoredReplay { match_id: String, reason: String },
    #[error("`{arg}` is neither a replay file nor the id of a stored match ({why})")]
    NoReplay { arg: String, why: String },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Regenerate(#[from] Box<crate::replays::ReplayError>),
}

/// Where a replay came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplaySource {
    File(PathBuf),
    /// A match stored in this database.
    Stored(Location),
}

impl std::fmt::Display for ReplaySource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplaySource::File(p) => write!(f, "{}", p.display()),
            ReplaySource::Stored(db) => write!(f, "{db}"),
        }
    }
}

/// The replay of the stored match whose id starts with `prefix`: the
/// stored one, or the match played again with `sandbox` and checked
/// ([`crate::replays`]).
pub fn stored_replay(
    store: &Store,
    prefix: &str,
    sandbox: &Sandbox,
) -> Result<Replay, LookupError> {
    let match_id = store.results().find_match(prefix)?;
    Ok(crate::replays::of_match(store, sandbox, &match_id)
        .map_err(Box::new)?
        .0)
}

/// The stored replay of the match with this full id; `None` when the store
/// has none (a void match has no replay).
pub fn replay_of(store: &Store, match_id: &str) -> Result<Option<Replay>, LookupError> {
    let Some(bytes) = store.results().replay(match_id)? else {
        return Ok(None);
    };
    Replay::from_bytes(&bytes)
        .map(Some)
        .map_err(|e| LookupError::StoredReplay {
            match_id: match_id.into(),
            reason: e.to_string(),
        })
}

/// The replay `arg` names: a replay file when one is there, else the
/// stored match whose id starts with `arg`.
pub fn open_replay(
    arg: &str,
    store: Option<&Store>,
    sandbox: &Sandbox,
) -> Result<(Replay, ReplaySource), LookupError> {
    let path = Path::new(arg);
    if path.exists() {
        return Ok((Replay::load(path)?, ReplaySource::File(path.to_path_buf())));
    }
    let Some(store) = store else {
        return Err(LookupError::NoReplay {
            arg: arg.into(),
            why: "there is no such file, and no database to look the id up in: no ludus.db here; pass --db".into(),
        });
    };
    match stored_replay(store, arg, sandbox) {
        Err(LookupError::Store(StoreError::UnknownMatch { .. })) => Err(LookupError::NoReplay {
            arg: arg.into(),
            why: format!(
                "there is no such file, and no match in {} has an id starting with it; `ludus matches` lists them",
                store.location()
            ),
        }),
        other => Ok((other?, ReplaySource::Stored(store.location().clone()))),
    }
}

/// Loads each seat's bot, under the name its replay records. Returns them
/// in seat order with where each was found.
pub fn find_bots(
    sandbox: &Sandbox,
    seats: &[SeatInfo],
    places: Places,
) -> Result<Vec<(Arc<BotModule>, Found)>, LookupError> {
    let files = files_by_sha256(sandbox, places.dirs, seats);
    seats
        .iter()
        .enumerate()
        .map(|(seat, info)| {
            let load_err = |source| LookupError::Load { seat, source };
            if let Some(path) = files.get(&info.sha256) {
                let bot = sandbox
                    .load_file_named(&info.name, path)
                    .map_err(load_err)?;
                return Ok((bot, Found::File(path.clone())));
            }
            if let Some(store) = places.store {
                if store.bots().contains(&info.sha256)? {
                    let bot = match sandbox
                        .load_compiled(&info.name, &info.sha256)
                        .map_err(load_err)?
                    {
                        Some(bot) => bot,
                        None => sandbox
                            .load(&info.name, &store.bots().wasm(&info.sha256)?)
                            .map_err(load_err)?,
                    };
                    return Ok((bot, Found::Store(store.location().clone())));
                }
            }
            if let Some(bot) = sandbox
                .load_compiled(&info.name, &info.sha256)
                .map_err(load_err)?
            {
                return Ok((bot, Found::Cache));
            }
            Err(not_found(sandbox, places, seat, info))
        })
        .collect()
}

/// The `.wasm` files of `dirs` whose sha256 a seat records: in each folder
/// the files named after the seats' bots first, then the others by name.
/// Unreadable files are skipped: the error, if no other place has the bot,
/// names the folders looked in.
fn files_by_sha256(
    sandbox: &Sandbox,
    dirs: &[PathBuf],
    seats: &[SeatInfo],
) -> BTreeMap<String, PathBuf> {
    let mut wanted: Vec<&str> = seats.iter().map(|s| s.sha256.as_str()).collect();
    wanted.sort_unstable();
    wanted.dedup();
    let mut found = BTreeMap::new();
    for dir in dirs {
        let named = seats.iter().map(|s| dir.join(format!("{}.wasm", s.name)));
        for path in named.chain(wasm_files(dir)) {
            if wanted.is_empty() {
                return found;
            }
            let Ok(sha256) = sandbox.file_sha256(&path) else {
                continue;
            };
            if let Some(i) = wanted.iter().position(|w| *w == sha256) {
                wanted.swap_remove(i);
                found.entry(sha256).or_insert(path);
            }
        }
    }
    found
}

/// The `.wasm` files directly in `dir`, by name.
fn wasm_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "wasm") && p.is_file())
        .collect();
    paths.sort();
    paths
}

fn not_found(sandbox: &Sandbox, places: Places, seat: usize, info: &SeatInfo) -> LookupError {
    let mut looked: Vec<String> = places
        .dirs
        .iter()
        .map(|d| format!("the .wasm files of {}", display_dir(d)))
        .collect();
    looked.push(match places.store {
        Some(store) => format!("the bot store {}", store.location()),
        None => "no bot store (none given, no ludus.db here)".into(),
    });
    looked.push(match &sandbox.options().cache_dir {
        Some(dir) => format!("the module cache {}", dir.display()),
        None => "no module cache".into(),
    });
    let hint = places
        .dirs
        .iter()
        .map(|d| d.join(format!("{}.wasm", info.name)))
        .find(|p| p.is_file())
        .map(|p| {
            format!(
                " ({} has its name but other bytes: another build of it)",
                p.display()
            )
        })
        .unwrap_or_default();
    LookupError::NotFound {
        seat,
        name: info.name.clone(),
        sha256: info.sha256.clone(),
        looked: looked.join(", "),
        hint,
    }
}

fn display_dir(dir: &Path) -> String {
    if dir.as_os_str().is_empty() {
        ".".into()
    } else {
        dir.display().to_string()
    }
}
