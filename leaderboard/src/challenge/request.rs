//! What an owner may ask: a challenge's request, its quotas and its
//! refusals; creating a challenge (the request checked and stored) and
//! stopping one.

use super::tally::Verdict;
use crate::error::Error;
use crate::owners::{self, Act, OwnerError};
use crate::report::{self, Listed};
use crate::sprt::{Sprt, SprtConfig, SprtError};
use crate::store::{
    BotRecord, ChallengeRow, Needs, NewChallenge, NewLadder, QuotaSpent, Store, StoreError,
    CHALLENGE_KIND,
};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A challenge's id.
pub type ChallengeId = i64;

/// A bot named by a request: its name, and a version or the default one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BotRef {
    pub name: String,
    /// `None`: the tested bot's latest version (a candidate included); an
    /// opponent's latest version entered in the ladder.
    pub version: Option<u32>,
}

impl FromStr for BotRef {
    type Err = String;

    /// `NAME` or `NAME:VERSION` (`NAME:v3` too).
    fn from_str(s: &str) -> Result<Self, String> {
        match s.rsplit_once(':') {
            None => Ok(BotRef {
                name: s.into(),
                version: None,
            }),
            Some((name, v)) => {
                let digits = v.strip_prefix('v').unwrap_or(v);
                let version = digits
                    .parse()
                    .map_err(|_| format!("`{s}`: a version after `:` is a number (`{name}:3`)"))?;
                Ok(BotRef {
                    name: name.into(),
                    version: Some(version),
                })
            }
        }
    }
}

impl fmt::Display for BotRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.version {
            Some(v) => write!(f, "{}:{v}", self.name),
            None => f.write_str(&self.name),
        }
    }
}

/// Whom the tested bot plays.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Opponents {
    /// These bots (another version of the tested bot's name among them, if
    /// wanted), each of its game; listed twice, played twice as often.
    Listed(Vec<BotRef>),
    /// The first N of the game's leaderboard (its open season's standings
    /// now), the tested bot's name left out.
    Top(u32),
}

/// What a challenge plays until.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Test {
    /// This many games (pairs of games, the last one alone for an odd
    /// count); no verdict.
    Games { games: u32 },
    /// Pairs until the SPRT decides, or the challenge's maximum of games.
    Sprt(SprtConfig),
}

impl Test {
    /// An SPRT with `ludus match-up`'s bounds: elo0 0, elo1 10, α = β = 0.05.
    pub fn sprt() -> Test {
        Test::Sprt(SprtConfig::default())
    }
}

/// What the owner asks for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChallengeRequest {
    /// The tested bot, the requester's own.
    pub bot: BotRef,
    pub opponents: Opponents,
    pub test: Test,
    /// The most games an SPRT plays undecided (the limits' maximum when
    /// `None`); a fixed count's is its count.
    pub max_games: Option<u32>,
    /// Every pair's seed derives from it: the same seed, bots and test
    /// play the same games ([`fresh_seed`](super::fresh_seed) for a new one).
    pub seed: u64,
}

/// Quotas per account and per challenge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeLimits {
    /// Challenges running at once per account.
    pub at_once: u32,
    /// Games an account's challenges schedule a day (UTC days).
    pub games_a_day: u32,
    /// Games one challenge plays at most.
    pub max_games: u32,
}

impl Default for ChallengeLimits {
    fn default() -> Self {
        ChallengeLimits {
            at_once: 2,
            games_a_day: 2000,
            max_games: 2000,
        }
    }
}

/// Why a challenge (or a promotion, or a stop) was refused.
#[derive(Debug, thiserror::Error)]
pub enum ChallengeError {
    #[error("no bot named `{0}`")]
    UnknownBot(String),
    #[error("bot `{name}` has no version {version}")]
    UnknownVersion { name: String, version: u32 },
    /// The tested bot, or the promoted one, is not the account's
    /// ([`owners::require_owner`]).
    #[error(transparent)]
    NotOwner(OwnerError),
    #[error("`{bot}` is retired: it plays no more matches")]
    Retired { bot: String },
    #[error("`{bot}` plays {has}, not {wanted}: a challenge's bots all play its game")]
    OtherGame {
        bot: String,
        has: String,
        wanted: String,
    },
    #[error(
        "`{bot}` has no version entered in its ladder, only candidates: name a version (`{bot}:N`)"
    )]
    NotEntered { bot: String },
    #[error("`{bot}` v{version} is a candidate its owner has not promoted: it plays only its owner's challenges")]
    Candidate { bot: String, version: u32 },
    #[error(
        "`{bot}` v{version} is the tested version: its opponents are other versions or other bots"
    )]
    SameVersion { bot: String, version: u32 },
    #[error("no opponents: {0}")]
    NoOpponents(String),
    #[error("{game} is played with {seats} seats at least: a challenge needs two or more")]
    Seats { game: String, seats: usize },
    #[error("{asked} games asked, and a challenge plays {max} at most")]
    TooManyGames { asked: u32, max: u32 },
    #[error("{asked} games asked: a challenge plays {least} at least")]
    TooFewGames { asked: u32, least: u32 },
    #[error(
        "you run {running} challenges already, the most at once; wait for one to end, or stop one"
    )]
    AtOnce { running: u32, limit: u32 },
    #[error(
        "your challenges played their {limit} games of today already; they go on tomorrow (UTC)"
    )]
    GamesToday { games: u32, limit: u32 },
    #[error(transparent)]
    Sprt(#[from] SprtError),
    #[error("no challenge {0}")]
    UnknownChallenge(ChallengeId),
    #[error("challenge {id} is not yours")]
    NotYours { id: ChallengeId },
    #[error("challenge {id} has ended already")]
    Ended { id: ChallengeId },
    #[error("`{bot}` v{version} is not a candidate: it is entered in its ladder already")]
    NotACandidate { bot: String, version: u32 },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Leaderboard(#[from] Error),
}

impl From<OwnerError> for ChallengeError {
    fn from(e: OwnerError) -> Self {
        match e {
            OwnerError::Store(e) => ChallengeError::Store(e),
            e => ChallengeError::NotOwner(e),
        }
    }
}

impl From<ludus_engine::EngineError> for ChallengeError {
    fn from(e: ludus_engine::EngineError) -> Self {
        ChallengeError::Leaderboard(e.into())
    }
}

/// Why a challenge its owner stopped ended.
pub const STOPPED: &str = "stopped by its owner";

/// A challenge's test, as stored.
pub(super) fn test_of(row: &ChallengeRow) -> Result<Test, Error> {
    serde_json::from_str(&row.test).map_err(|e| Error::StoredLadder {
        ladder: row.ladder,
        reason: format!("challenge {} has a test that cannot be read: {e}", row.id),
    })
}

pub(super) fn sprt_of(test: &Test) -> Result<Option<Sprt>, SprtError> {
    match test {
        Test::Games { .. } => Ok(None),
        Test::Sprt(config) => Sprt::new(*config).map(Some),
    }
}

/// The tested bot's version `bot` names: the given one, or its latest (a
/// candidate included).
fn tested_version(store: &Store, bot: &BotRef) -> Result<BotRecord, ChallengeError> {
    store.bots().get(&bot.name, bot.version).map_err(unknown)
}

pub(crate) fn unknown(e: StoreError) -> ChallengeError {
    match e {
        StoreError::UnknownBot(name) => ChallengeError::UnknownBot(name),
        StoreError::UnknownVersion { name, version } => {
            ChallengeError::UnknownVersion { name, version }
        }
        e => e.into(),
    }
}

/// The opponents the request names, checked: of the game, not retired,
/// not the tested version, not another account's unpromoted candidate.
fn opponents(
    store: &Store,
    account: i64,
    tested: &BotRecord,
    asked: &Opponents,
) -> Result<Vec<BotRecord>, ChallengeError> {
    let retired = store.accounts().retired()?;
    let refs: Vec<BotRef> = match asked {
        Opponents::Listed(refs) => refs.clone(),
        Opponents::Top(n) => top(store, tested, *n)?,
    };
    if refs.is_empty() {
        return Err(ChallengeError::NoOpponents("name one or more bots".into()));
    }
    let mut out = Vec::new();
    for r in refs {
        let b = match r.version {
            Some(v) => store.bots().get(&r.name, Some(v)).map_err(unknown)?,
            None => match store.bots().entered(&r.name)? {
                Some(b) => b,
                None => {
                    store.bots().get(&r.name, None).map_err(unknown)?;
                    return Err(ChallengeError::NotEntered { bot: r.name });
                }
            },
        };
        if b.game != tested.game {
            return Err(ChallengeError::OtherGame {
                bot: b.name,
                has: b.game,
                wanted: tested.game.clone(),
            });
        }
        if retired.contains(&b.name) {
            return Err(ChallengeError::Retired { bot: b.name });
        }
        if b.name == tested.name && b.version == tested.version {
            return Err(ChallengeError::SameVersion {
                bot: b.name,
                version: b.version,
            });
        }
        let owned = store
            .accounts()
            .ownership(&b.name)?
            .is_some_and(|o| o.account == account);
        if !owned && store.bots().candidates(&b.name)?.contains(&b.version) {
            return Err(ChallengeError::Candidate {
                bot: b.name,
                version: b.version,
            });
        }
        out.push(b);
    }
    Ok(out)
}

/// The first `n` bots of the tested bot's game's leaderboard now (its open
/// season's standings), the tested bot's name left out.
fn top(store: &Store, tested: &BotRecord, n: u32) -> Result<Vec<BotRef>, ChallengeError> {
    let Some(season) = store.ladders().continuous(&tested.game)? else {
        return Err(ChallengeError::NoOpponents(format!(
            "{} has no leaderboard yet",
            tested.game
        )));
    };
    let mut rows = report::standings(store, season, Listed::Current)?.rows;
    rows.sort_by_key(|r| r.rank);
    Ok(rows
        .into_iter()
        .filter(|r| r.bot != tested.name)
        .take(n as usize)
        .map(|r| BotRef {
            name: r.bot,
            version: Some(r.version),
        })
        .collect())
}

/// Creates a challenge of `account`'s: checks the request and the quotas,
/// and stores the challenge with its ladder (the game config and limits
/// of the game's open season, or the game's defaults), whose matches
/// [`top_up`](fn@super::top_up) schedules. `now` is unix seconds (its UTC day counts the
/// games of the day).
pub fn create(
    store: &Store,
    account: i64,
    request: &ChallengeRequest,
    limits: &ChallengeLimits,
    now: i64,
) -> Result<ChallengeId, ChallengeError> {
    if let Test::Sprt(config) = &request.test {
        config.validate()?;
    }
    let tested = tested_version(store, &request.bot)?;
    if owners::require_owner(store, account, &tested.name, Act::Challenge)?.retired {
        return Err(ChallengeError::Retired { bot: tested.name });
    }
    let info = ludus_engine::registry::info(&tested.game)?;
    let players = info.fewest_seats();
    if players < 2 {
        return Err(ChallengeError::Seats {
            game: tested.game,
            seats: players,
        });
    }
    let max_games = match request.test {
        Test::Games { games } => games,
        Test::Sprt(_) => request.max_games.unwrap_or(limits.max_games),
    };
    let least = match request.test {
        Test::Games { .. } => 1,
        Test::Sprt(_) => 2,
    };
    if max_games > limits.max_games {
        return Err(ChallengeError::TooManyGames {
            asked: max_games,
            max: limits.max_games,
        });
    }
    if max_games < least {
        return Err(ChallengeError::TooFewGames {
            asked: max_games,
            least,
        });
    }
    let opponents = opponents(store, account, &tested, &request.opponents)?;
    let (config, ladder_limits) = match store.ladders().continuous(&tested.game)? {
        Some(season) => {
            let s = store.ladders().get(season)?;
            (s.config, s.limits)
        }
        None => (
            serde_json::Value::Null,
            serde_json::to_value(ludus_host::Limits::default()).expect("limits serialise"),
        ),
    };
    let mut bots = vec![tested];
    bots.extend(opponents);
    let test = serde_json::to_string(&request.test).expect("a test serialises");
    let needs = Needs::of_this_build(info.rules_version);
    let new = NewChallenge {
        account,
        test: &test,
        max_games,
        created_at: now,
        ladder: NewLadder {
            key: "",
            game: info.id,
            kind: CHALLENGE_KIND,
            players: players as u32,
            rounds: 0,
            seed: request.seed,
            config: &config,
            limits: &ladder_limits,
            needs: &needs,
            keep_replays: Default::default(),
            bots: &bots,
            schedule: &[],
        },
    };
    match store
        .challenges()
        .create(&new, limits.at_once, limits.games_a_day)?
    {
        Ok(id) => Ok(id),
        Err(QuotaSpent::AtOnce { running }) => Err(ChallengeError::AtOnce {
            running,
            limit: limits.at_once,
        }),
        Err(QuotaSpent::GamesToday { games }) => Err(ChallengeError::GamesToday {
            games,
            limit: limits.games_a_day,
        }),
    }
}

/// Stops `account`'s challenge `id` at `now` (unix seconds): verdict
/// `none`, [`STOPPED`]; its matches nobody plays yet are not played.
pub fn stop(store: &Store, account: i64, id: ChallengeId, now: i64) -> Result<(), ChallengeError> {
    let row = store
        .challenges()
        .get(id)?
        .ok_or(ChallengeError::UnknownChallenge(id))?;
    if row.account != account {
        return Err(ChallengeError::NotYours { id });
    }
    if !store
        .challenges()
        .end(id, Verdict::None.as_str(), STOPPED, now)?
    {
        return Err(ChallengeError::Ended { id });
    }
    Ok(())
}
