//! Seasons and pauses of a server's continuous ladders, for the operator.
//!
//! A game's continuous ladder is its open season. [`start`] closes it (its
//! results, ratings and pages stay, under its name) and opens the next one:
//! fresh ratings, the config given or the old season's, and the versions of
//! the Ludus that starts it, which is how a server moves to a new Ludus
//! (workers play only ladders of their own versions). The scheduler's next
//! top-up ([`crate::continuous::top_up`]) seats every listed bot in it. A
//! closed season is never scheduled again; the matches it had waiting are
//! played to the end by the workers, so its last standings rate every
//! match it scheduled.
//!
//! A paused game ([`pause`]) schedules nothing new, not even a new bot's
//! placement series, until [`resume`]; the matches already waiting are
//! played. The pause is kept in the database, so it holds for every server
//! and scheduler on it, across restarts.

use crate::continuous::ContinuousConfig;
use crate::error::Error;
use crate::store::{ContinuousLadder, LadderRecord, Needs, SeasonRow, Store};
use ludus_engine::registry::GameInfo;
use ludus_engine::rng::derive_seed;
use serde::Serialize;

/// The name of a game's first season, made before seasons had names.
pub const FIRST: &str = "season 1";

/// A season of a game: one of its continuous ladders.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Season {
    pub ladder: i64,
    pub name: String,
    /// When it was closed (seconds since the Unix epoch); `None` for the
    /// open season.
    pub closed_at: Option<i64>,
}

impl Season {
    fn of(row: SeasonRow) -> Season {
        Season {
            ladder: row.ladder,
            name: row.name.unwrap_or_else(|| FIRST.into()),
            closed_at: row.closed_at,
        }
    }

    pub fn is_open(&self) -> bool {
        self.closed_at.is_none()
    }
}

/// Every season of `game`, oldest first.
pub fn seasons(store: &Store, game: &str) -> Result<Vec<Season>, Error> {
    ludus_engine::registry::info(game)?;
    Ok(store
        .ladders()
        .seasons(game)?
        .into_iter()
        .map(Season::of)
        .collect())
}

/// The season of ladder `ladder`, if it is a continuous ladder.
pub fn of_ladder(store: &Store, ladder: i64) -> Result<Option<Season>, Error> {
    Ok(store.ladders().season_of(ladder)?.map(Season::of))
}

/// The season of `game` named `name`, or the open one when `name` is
/// `None` (`None` when the game has none yet). An unknown name is an
/// error that lists the game's seasons.
pub fn find(store: &Store, game: &str, name: Option<&str>) -> Result<Option<Season>, Error> {
    pick(&seasons(store, game)?, game, name)
}

/// [`find`] among `all`, the seasons of `game` already read.
pub fn pick(all: &[Season], game: &str, name: Option<&str>) -> Result<Option<Season>, Error> {
    let Some(name) = name else {
        return Ok(all.iter().find(|s| s.is_open()).cloned());
    };
    match all.iter().find(|s| s.name == name) {
        Some(s) => Ok(Some(s.clone())),
        None => Err(Error::NoSeason {
            game: game.into(),
            name: name.into(),
            seasons: names(all),
        }),
    }
}

fn names(all: &[Season]) -> String {
    if all.is_empty() {
        return "none yet".into();
    }
    all.iter()
        .map(|s| format!("`{}`", s.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What [`start`] did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Started {
    pub game: String,
    /// The season it closed; `None` when the game had none.
    pub closed: Option<Season>,
    pub opened: Season,
    pub config: serde_json::Value,
    pub needs: Needs,
    /// Whether the game is paused: the new season waits for a resume.
    pub paused: bool,
}

/// Closes the open season of `game`, if any, and opens the next, named
/// `name` or `season N` (N: its place among the game's seasons), with
/// game config `config` or the closed season's (the game's defaults for
/// a first season). The new season keeps the closed one's limits and
/// replay policy, takes a seed of its own derived from the old one's, and
/// needs this build's versions.
pub fn start(
    store: &Store,
    game: &str,
    config: Option<serde_json::Value>,
    name: Option<&str>,
) -> Result<Started, Error> {
    let info: &GameInfo = ludus_engine::registry::info(game)?;
    if let Some(config) = &config {
        // Refused here, with the engine's reason, not at the first match.
        ludus_engine::new_game(game, config, 0, info.fewest_seats())?;
    }
    let all = seasons(store, game)?;
    let open: Option<LadderRecord> = match all.iter().find(|s| s.is_open()) {
        Some(s) => Some(store.ladders().get(s.ladder)?),
        None => None,
    };
    let name = match name {
        Some(n) if n.trim().is_empty() => {
            return Err(Error::SeasonName {
                game: game.into(),
                name: n.into(),
                reason: "a season's name cannot be empty".into(),
            })
        }
        Some(n) => n.trim().to_string(),
        None => format!("season {}", all.len() + 1),
    };
    if all.iter().any(|s| s.name == name) {
        return Err(Error::SeasonName {
            game: game.into(),
            name,
            reason: format!(
                "{game} has a season of that name already (its seasons: {}); give another with --name",
                names(&all)
            ),
        });
    }
    let defaults = ContinuousConfig::default();
    let config = config
        .or_else(|| open.as_ref().map(|o| o.config.clone()))
        .unwrap_or(serde_json::Value::Null);
    let limits = match &open {
        Some(o) => o.limits.clone(),
        None => serde_json::to_value(&defaults.limits).expect("limits serialise"),
    };
    // Fresh matches: the same bots in a new season meet on other seeds.
    let seed = match &open {
        Some(o) => derive_seed(o.seed, &format!("season/{name}")),
        None => defaults.seed,
    };
    let needs = Needs::of_this_build(info.rules_version);
    let next = ContinuousLadder {
        game,
        players: info.fewest_seats() as u32,
        seed,
        config: &config,
        limits: &limits,
        needs: &needs,
        keep_replays: open.as_ref().map(|o| o.keep_replays).unwrap_or_default(),
    };
    let closing = all
        .iter()
        .find(|s| s.is_open())
        .map_or(FIRST.to_string(), |s| s.name.clone());
    let now = crate::clock::now_unix();
    let (closed, opened) = store.ladders().start_season(&next, &name, &closing, now)?;
    Ok(Started {
        game: game.into(),
        closed: closed.map(|ladder| Season {
            ladder,
            name: closing,
            closed_at: Some(now),
        }),
        opened: Season {
            ladder: opened,
            name,
            closed_at: None,
        },
        config,
        needs,
        paused: store.ladders().paused(game)?.is_some(),
    })
}

/// Pauses `game`: its open season schedules nothing new until [`resume`].
/// `false` when it was paused already.
pub fn pause(store: &Store, game: &str) -> Result<bool, Error> {
    ludus_engine::registry::info(game)?;
    Ok(store.ladders().pause(game, crate::clock::now_unix())?)
}

/// Resumes `game`; `false` when it was not paused.
pub fn resume(store: &Store, game: &str) -> Result<bool, Error> {
    ludus_engine::registry::info(game)?;
    Ok(store.ladders().resume(game)?)
}

/// Whether `game` is paused.
pub fn paused(store: &Store, game: &str) -> Result<bool, Error> {
    Ok(store.ladders().paused(game)?.is_some())
}
