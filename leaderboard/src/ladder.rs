//! Ladders: what a ladder is ([`LadderSpec`]), which stored bots it takes
//! ([`select`]), creating its stored schedule ([`create`]), and playing it
//! ([`run`]: create or resume, then work its queue as one worker of
//! [`crate::worker`] beside any others); where it stands ([`status`]).
//! Ratings are applied by [`crate::ratings::apply`] as the worker goes.
//!
//! `ludus ladder create`, `ladder run` and `ladder status` are these
//! functions; the tests call the same ones.

use crate::error::Error;
use crate::retention::KeepReplays;
use crate::schedule::{schedule, Kind};
use crate::store::{
    BotRecord, IntegrityEvent, LadderRecord, LadderStatus, Needs, NewLadder, Store, StoreError,
};
use crate::worker::{self, Progress, Summary, WorkerOptions};
use ludus_host::{Limits, Sandbox};
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// What a ladder is: changing any of it makes another ladder.
#[derive(Debug, Clone)]
pub struct LadderSpec {
    pub game: String,
    pub kind: Kind,
    /// Seats per match.
    pub players: usize,
    pub rounds: u32,
    pub seed: u64,
    pub config: serde_json::Value,
    pub limits: Limits,
    /// The bots, in ladder position order.
    pub bots: Vec<BotRecord>,
}

/// A ladder as a command asks for it: a game, which of its stored bots,
/// the rest as given or the game's defaults.
#[derive(Debug, Clone)]
pub struct LadderRequest {
    pub game: String,
    pub bots: BotChoice,
    /// Seats per match (default: the game's fewest).
    pub players: Option<usize>,
    pub rounds: u32,
    pub seed: u64,
    pub config: serde_json::Value,
    pub limits: Limits,
}

impl LadderSpec {
    /// The ladder `request` asks for, of the bots in `store`.
    pub fn from_request(store: &Store, request: &LadderRequest) -> Result<LadderSpec, Error> {
        let info = ludus_engine::registry::info(&request.game)?;
        let (bots, kind) = select(store, &request.game, &request.bots)?;
        Ok(LadderSpec {
            game: request.game.clone(),
            kind,
            players: request.players.unwrap_or(info.fewest_seats()),
            rounds: request.rounds,
            seed: request.seed,
            config: request.config.clone(),
            limits: request.limits.clone(),
            bots,
        })
    }
}

/// Which stored bots a ladder takes, and how they meet.
#[derive(Debug, Clone, Default)]
pub struct BotChoice {
    /// Only these bots (their latest versions), in this order; empty: the
    /// latest version of every stored bot of the game, by name.
    pub names: Vec<String>,
    /// This bot against the field instead of a round robin.
    pub gauntlet: Option<String>,
}

/// The bots of `game` that `choice` names, and the kind of ladder they
/// play: the spec's `bots` and `kind`.
pub fn select(
    store: &Store,
    game: &str,
    choice: &BotChoice,
) -> Result<(Vec<BotRecord>, Kind), Error> {
    let bots = if choice.names.is_empty() {
        store.bots().latest(game)?
    } else {
        choice
            .names
            .iter()
            .map(|name| {
                // The version the game's ladder enters: never a candidate.
                let b = match store.bots().entered(name)? {
                    Some(b) => b,
                    None => store.bots().get(name, None)?,
                };
                if b.game != game {
                    return Err(StoreError::WrongGame {
                        name: name.clone(),
                        has: b.game,
                        wanted: game.into(),
                    }
                    .into());
                }
                Ok(b)
            })
            .collect::<Result<_, Error>>()?
    };
    if bots.is_empty() {
        return Err(Error::NoBots {
            game: game.into(),
            db: store.location().to_string(),
        });
    }
    let kind = match &choice.gauntlet {
        None => Kind::RoundRobin,
        Some(name) => Kind::Gauntlet {
            challenger: bots
                .iter()
                .position(|b| &b.name == name)
                .ok_or_else(|| Error::NotAChallenger(name.clone()))?,
        },
    };
    Ok((bots, kind))
}

/// The identity of a ladder: sha256 of everything that determines its matches.
pub fn ladder_key(spec: &LadderSpec) -> String {
    #[derive(Serialize)]
    struct Key<'a> {
        game: &'a str,
        kind: &'a Kind,
        players: usize,
        rounds: u32,
        seed: u64,
        config: &'a serde_json::Value,
        limits: &'a Limits,
        bots: Vec<&'a str>,
    }
    let mut limits = spec.limits.clone();
    limits.backstop_ms = 0;
    let key = Key {
        game: &spec.game,
        kind: &spec.kind,
        players: spec.players,
        rounds: spec.rounds,
        seed: spec.seed,
        config: &spec.config,
        limits: &limits,
        bots: spec.bots.iter().map(|b| b.sha256.as_str()).collect(),
    };
    ludus_host::sha256_hex(&serde_json::to_vec(&key).expect("key serialises"))
}

/// Creates the ladder (its bots, its schedule, what a worker needs to play
/// it), or finds it when it exists: the same spec is the same ladder, and
/// the stored schedule is what is played, so a ladder keeps meaning the
/// same matches. Returns its id. A new ladder keeps the default replays
/// ([`KeepReplays::default`]).
pub fn create(store: &Store, spec: &LadderSpec) -> Result<i64, Error> {
    create_keeping(store, spec, None)
}

/// [`create`], with which replays the ladder stores: `keep` for a new
/// ladder (the default when `None`), and for one that exists, from now on
/// when given. Which replays are stored is no part of what a ladder is.
pub fn create_keeping(
    store: &Store,
    spec: &LadderSpec,
    keep: Option<KeepReplays>,
) -> Result<i64, Error> {
    // The game, its seat count and its config, checked before anything is stored.
    let game = ludus_engine::registry::info(&spec.game)?;
    ludus_engine::new_game(&spec.game, &spec.config, 0, spec.players)?;
    let matches = schedule(
        &spec.kind,
        spec.bots.len(),
        spec.players,
        spec.rounds,
        spec.seed,
        game,
    )?;
    let limits = serde_json::to_value(&spec.limits).expect("limits serialise");
    let config = spec.config.clone();
    let needs = Needs::of_this_build(game.rules_version);
    let key = ladder_key(spec);
    let id = store.ladders().ensure(&NewLadder {
        key: &key,
        game: &spec.game,
        kind: spec.kind.label(),
        players: spec.players as u32,
        rounds: spec.rounds,
        seed: spec.seed,
        config: &config,
        limits: &limits,
        needs: &needs,
        keep_replays: keep.unwrap_or_default(),
        bots: &spec.bots,
        schedule: &matches,
    })?;
    if let Some(keep) = keep {
        if store.ladders().get(id)?.keep_replays != keep {
            store.ladders().set_keep_replays(id, keep)?;
        }
    }
    Ok(id)
}

/// How [`run`] plays: as one worker of the ladder.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Matches played at once.
    pub threads: usize,
    /// The worker's lease ([`WorkerOptions::lease`]).
    pub lease: Duration,
    /// Set from elsewhere (a signal): the run stops within a bot's turn,
    /// its matches in play go back to the queue, and it ends with
    /// [`Error::Stopped`] unless the ladder is done.
    pub stop: Option<Arc<AtomicBool>>,
    /// Which replays the ladder stores ([`create_keeping`]).
    pub keep_replays: Option<KeepReplays>,
}

impl RunOptions {
    pub fn new(threads: usize) -> RunOptions {
        RunOptions {
            threads,
            lease: worker::DEFAULT_LEASE,
            stop: None,
            keep_replays: None,
        }
    }
}

/// What [`run`] tells as it goes.
#[derive(Debug, Clone, PartialEq)]
pub enum RunEvent {
    /// Before any match: the ladder as found (its matches done by earlier
    /// runs, and the other workers playing it now).
    Started {
        ladder: i64,
        done: u32,
        total: u32,
        other_workers: usize,
    },
    /// After every commit.
    Progress(Progress),
}

/// What [`run`] did.
#[derive(Debug, Clone, PartialEq)]
pub struct Ran {
    pub ladder: i64,
    /// Matches left when it started.
    pub left: u32,
    /// What this run's worker did (other workers may have played the rest).
    pub worker: Summary,
}

/// Creates (or finds) the ladder and plays its matches as one worker of
/// `options.threads` threads until every one is done, committing each
/// result as it finishes; other processes on the same database share the
/// work, and a run stopped at any moment resumes where it stopped.
pub fn run(
    store: &Store,
    sandbox: &Sandbox,
    spec: &LadderSpec,
    options: &RunOptions,
    mut on_event: impl FnMut(RunEvent),
) -> Result<Ran, Error> {
    let id = create_keeping(store, spec, options.keep_replays)?;
    // A killed run of this machine is not another worker playing.
    store.queue().reap_local_workers(true)?;
    let status = store.queue().status(id)?;
    on_event(RunEvent::Started {
        ladder: id,
        done: status.done,
        total: status.total,
        other_workers: status
            .workers
            .iter()
            .filter(|w| w.is_live(status.now))
            .count(),
    });
    let worker_options = WorkerOptions {
        ladder: Some(id),
        lease: options.lease,
        stop: options.stop.clone(),
        ..WorkerOptions::new(options.threads)
    };
    let summary = worker::work(store, sandbox, &worker_options, |p| {
        on_event(RunEvent::Progress(*p))
    })?;
    if options
        .stop
        .as_ref()
        .is_some_and(|s| s.load(Ordering::Relaxed))
    {
        let now = store.queue().status(id)?;
        if now.done < now.total {
            return Err(Error::Stopped {
                ladder: id,
                done: now.done,
                total: now.total,
            });
        }
    }
    Ok(Ran {
        ladder: id,
        left: status.total - status.done,
        worker: summary,
    })
}

/// Ladder `ladder` if it exists, else the most recently created one (of
/// `game` if given): the ladder a command means when it names none.
pub fn pick(store: &Store, ladder: Option<i64>, game: Option<&str>) -> Result<i64, Error> {
    Ok(store.ladders().pick(ladder, game)?)
}

/// The ladder a command means: `ladder`, or the season of `game` named
/// `season` (`--season`), or else as [`pick`].
pub fn pick_season(
    store: &Store,
    ladder: Option<i64>,
    game: Option<&str>,
    season: Option<&str>,
) -> Result<i64, Error> {
    match (ladder, game, season) {
        (None, Some(game), Some(name)) => Ok(crate::season::find(store, game, Some(name))?
            .expect("a named season is found or an error")
            .ladder),
        (None, None, Some(name)) => Err(Error::SeasonWithoutGame(name.into())),
        _ => pick(store, ladder, game),
    }
}

/// Where a ladder stands, for `ladder status`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standing {
    pub record: LadderRecord,
    pub status: LadderStatus,
    pub integrity_events: Vec<IntegrityEvent>,
    /// The season it is, for a continuous ladder.
    pub season: Option<crate::season::Season>,
    /// Its game is paused (for the open season of a continuous ladder).
    pub paused: bool,
}

/// Where every ladder of the database stands, oldest first.
pub fn every_status(store: &Store) -> Result<Vec<Standing>, Error> {
    store
        .ladders()
        .ids()?
        .into_iter()
        .map(|id| status(store, Some(id), None))
        .collect()
}

/// What a ladder is doing: a continuous ladder is never finished, it plays
/// as long as workers do.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Activity {
    /// A closed season, with the matches it still has to play.
    Closed { left: u32 },
    /// A paused game's open season, with the matches it still has to play.
    Paused { left: u32 },
    /// Matches to play and no live worker to play them.
    NoWorker { continuous: bool },
    /// An open season, played as the workers go.
    Continuous,
    /// Every match of a ladder of fixed length done.
    Finished,
    /// A ladder of fixed length being played: seconds left at the current
    /// pace, when there is a pace.
    Playing { eta_s: Option<f64> },
}

impl Standing {
    /// What the ladder is doing now.
    pub fn activity(&self) -> Activity {
        let s = &self.status;
        let live = s.workers.iter().any(|w| w.is_live(s.now));
        let left = s.leased + s.pending;
        match &self.season {
            Some(season) if season.closed_at.is_some() => Activity::Closed { left },
            Some(_) if self.paused => Activity::Paused { left },
            Some(_) if !live => Activity::NoWorker { continuous: true },
            Some(_) => Activity::Continuous,
            None if s.done == s.total => Activity::Finished,
            None if !live => Activity::NoWorker { continuous: false },
            None => Activity::Playing { eta_s: s.eta_s() },
        }
    }
}

/// Where ladder `ladder` (or the latest, of `game` if given) stands.
pub fn status(store: &Store, ladder: Option<i64>, game: Option<&str>) -> Result<Standing, Error> {
    let id = pick(store, ladder, game)?;
    let status = store.queue().status(id)?;
    let integrity_events = if status.integrity_events > 0 || status.verifying > 0 {
        store.queue().integrity_events(id)?
    } else {
        Vec::new()
    };
    let record = store.ladders().get(id)?;
    let season = crate::season::of_ladder(store, id)?;
    let paused = match &season {
        Some(s) if s.is_open() => crate::season::paused(store, &record.game)?,
        _ => false,
    };
    Ok(Standing {
        record,
        status,
        integrity_events,
        season,
        paused,
    })
}
