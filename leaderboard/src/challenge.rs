//! Challenges: "is this version better?" answered by the server's workers.
//! The owner of a bot asks for unrated matches of one of its versions (a
//! candidate, typically) against chosen opponents: a fixed number of games,
//! or game pairs until a pentanomial SPRT decides ([`crate::sprt`], as
//! `ludus match-up` plays it). A challenge is a ladder of kind `challenge`
//! ([`crate::store::CHALLENGE_KIND`]): its bots are the tested version
//! (position 0) and the opponents, its seed the challenge's; it is never
//! rated and never on a leaderboard.
//!
//! Pair `k` is two games on the seed [`matchup::pair_seed`]`(game, seed,
//! k)` with the tested bot A and the opponent B = opponent `k mod n` in
//! swapped seats ([`pair_tables`]). The scheduler appends pairs a few at a
//! time ([`top_up`]) and reads the results in schedule order: the verdict
//! is the SPRT's at the first complete pair, in pair order, where it
//! decides, so neither the workers' number nor their timing changes it,
//! and a challenge re-run from its seed plays the same games to the same
//! verdict. Pairs scheduled past that point are not counted; those nobody
//! is playing yet are recorded as not played.
//!
//! Quotas ([`ChallengeLimits`]): challenges at once and games a day per
//! account, games per challenge. A candidate version ([`promote`]) is
//! stored but not entered in its game's ladder until its owner promotes it.

use crate::continuous::{self, PACE_WINDOW};
use crate::error::Error;
use crate::matchup;
use crate::ratings::Outcome;
use crate::report::{self, Listed};
use crate::schedule::ScheduledMatch;
use crate::sprt::{self, Hypothesis, Sprt, SprtConfig, SprtError};
use crate::store::{
    day_of, BotRecord, ChallengeRow, MatchResult, Needs, NewChallenge, NewLadder, QuotaSpent,
    Store, StoreError, CHALLENGE_KIND, NOT_PLAYED,
};
use ludus_engine::registry::GameInfo;
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
    /// play the same games ([`fresh_seed`] for a new one).
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
    #[error("`{bot}` is not yours{}: a challenge tests a bot of its owner's", owner.as_ref().map(|o| format!(" (its owner is {o})")).unwrap_or_default())]
    NotOwner { bot: String, owner: Option<String> },
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

impl From<ludus_engine::EngineError> for ChallengeError {
    fn from(e: ludus_engine::EngineError) -> Self {
        ChallengeError::Leaderboard(e.into())
    }
}

/// A challenge's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Verdict {
    /// The SPRT accepted H1: at least `elo1` stronger.
    #[serde(rename = "stronger")]
    Stronger,
    /// The SPRT accepted H0: at most `elo0` stronger.
    #[serde(rename = "not stronger")]
    NotStronger,
    /// No verdict: a fixed count played, the maximum reached undecided, or
    /// stopped.
    #[serde(rename = "none")]
    None,
}

impl Verdict {
    /// As stored and printed: `stronger`, `not stronger`, `none`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Stronger => "stronger",
            Verdict::NotStronger => "not stronger",
            Verdict::None => "none",
        }
    }

    fn parse(s: &str) -> Verdict {
        match s {
            "stronger" => Verdict::Stronger,
            "not stronger" => Verdict::NotStronger,
            _ => Verdict::None,
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a challenge is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum ChallengeState {
    /// Being scheduled and played.
    Running,
    /// The SPRT decided: `stronger` or `not stronger`.
    Decided,
    /// Its fixed count played, or its maximum reached undecided.
    Finished,
    /// Stopped by its owner.
    Stopped,
}

/// Why a challenge its owner stopped ended.
pub const STOPPED: &str = "stopped by its owner";

/// Pairs waiting to be played per challenge, at least (when it has that
/// many left) and at most. Enough that the workers always find some (a
/// challenge whose queue a claim empties loses its turn until the next
/// top-up, and so its share of the workers), few enough that little runs
/// past its decision: the pairs nobody is playing when it decides are
/// recorded as not played, and given back to the day's games.
pub const FEWEST_PENDING_PAIRS: u32 = 2;
pub const MOST_PENDING_PAIRS: u32 = 64;

/// A seed for a new challenge, from the operating system's randomness:
/// stored with the challenge, which re-runs from it.
pub fn fresh_seed() -> u64 {
    use std::hash::BuildHasher;
    std::collections::hash_map::RandomState::new().hash_one(0x4C55_4455u64)
}

/// One game of a pair: the ladder positions in seat order (0 the tested
/// bot, 1.. the opponents), and the seats of the tested bot and of the
/// opponent it is measured against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    pub seats: Vec<usize>,
    pub tested: usize,
    pub opponent: usize,
}

/// The two games of pair `k` for a game of `players` seats and
/// `opponents` opponents. The opponent is B = opponent `k mod opponents`;
/// the tested bot A sits in seat `2k mod players` and B in the next seat
/// in the first game, and they swap seats in the second (two seats: [A, B]
/// then [B, A], as `ludus match-up` plays). The other seats of a larger
/// table take the opponents after B in turn (B again when there are too
/// few), the same in both games.
pub fn pair_tables(k: u64, players: usize, opponents: usize) -> [Table; 2] {
    let opponents = opponents.max(1) as u64;
    let b = 1 + (k % opponents) as usize;
    let a_seat = ((2 * k) % players as u64) as usize;
    let b_seat = (a_seat + 1) % players;
    let mut first = vec![0; players];
    for j in 0..players.saturating_sub(2) {
        first[(a_seat + 2 + j) % players] = 1 + ((k + 1 + j as u64) % opponents) as usize;
    }
    first[a_seat] = 0;
    first[b_seat] = b;
    let mut second = first.clone();
    second.swap(a_seat, b_seat);
    [
        Table {
            seats: first,
            tested: a_seat,
            opponent: b_seat,
        },
        Table {
            seats: second,
            tested: b_seat,
            opponent: a_seat,
        },
    ]
}

/// The scheduled match at `index` of a challenge: game `index mod 2` of
/// pair `index / 2`, on the pair's seed.
pub fn scheduled(
    index: u32,
    players: usize,
    opponents: usize,
    seed: u64,
    game: &GameInfo,
) -> ScheduledMatch {
    let k = u64::from(index / 2);
    let table = &pair_tables(k, players, opponents)[(index % 2) as usize];
    ScheduledMatch {
        index,
        group: index / 2,
        seed: matchup::pair_seed(game, seed, k),
        seats: table.seats.clone(),
    }
}

/// The tested bot's outcome in one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum GameOutcome {
    Win,
    Draw,
    Loss,
    /// Aborted, void, or not played: not counted.
    Void,
}

/// The tested bot's outcome in the game with `result`, at `table`.
fn outcome(result: &MatchResult, table: &Table) -> GameOutcome {
    let places = &result.placements;
    if result.aborted.is_some() || places.len() <= table.tested.max(table.opponent) {
        return GameOutcome::Void;
    }
    match Outcome::from_placements(places[table.tested], places[table.opponent]) {
        Outcome::Win => GameOutcome::Win,
        Outcome::Draw => GameOutcome::Draw,
        Outcome::Loss => GameOutcome::Loss,
    }
}

fn as_outcome(o: GameOutcome) -> Option<Outcome> {
    match o {
        GameOutcome::Win => Some(Outcome::Win),
        GameOutcome::Draw => Some(Outcome::Draw),
        GameOutcome::Loss => Some(Outcome::Loss),
        GameOutcome::Void => None,
    }
}

/// What a challenge's finished results say, read in schedule order.
#[derive(Debug, Clone, PartialEq)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
    /// Pentanomial counts of the complete pairs without a void game.
    counts: [u64; 5],
    /// The SPRT's decision, at the first pair where it decided.
    decision: Option<Hypothesis>,
    /// The matches counted: those before this index.
    counted: u32,
    /// Each counted game's outcome for the tested bot.
    outcomes: Vec<GameOutcome>,
}

/// Tallies `results` (the finished prefix of the schedule, in order) for
/// a table of `players` seats and `opponents` opponents, stopping at the
/// pair where `sprt` decides.
fn tally(results: &[MatchResult], players: usize, opponents: usize, sprt: Option<&Sprt>) -> Tally {
    let mut t = Tally {
        wins: 0,
        draws: 0,
        losses: 0,
        counts: [0; 5],
        decision: None,
        counted: 0,
        outcomes: Vec::new(),
    };
    let mut test = sprt.cloned();
    for pair in results.chunks(2) {
        let k = u64::from(pair[0].index / 2);
        let tables = pair_tables(k, players, opponents);
        let games: Vec<GameOutcome> = pair
            .iter()
            .map(|r| outcome(r, &tables[(r.index % 2) as usize]))
            .collect();
        for &g in &games {
            match g {
                GameOutcome::Win => t.wins += 1,
                GameOutcome::Draw => t.draws += 1,
                GameOutcome::Loss => t.losses += 1,
                GameOutcome::Void => {}
            }
        }
        t.outcomes.extend(&games);
        t.counted = pair.last().map_or(0, |r| r.index + 1);
        if let [Some(first), Some(second)] =
            [games[0], *games.get(1).unwrap_or(&GameOutcome::Void)].map(as_outcome)
        {
            let half_points = (2.0 * (first.score() + second.score())) as usize;
            t.counts[half_points] += 1;
            if let Some(test) = test.as_mut() {
                test.add_pair(first, second);
                if let Some(h) = test.decision() {
                    t.decision = Some(h);
                    break;
                }
            }
        }
    }
    t
}

/// The results of ladder `ladder`'s finished prefix, in schedule order.
fn finished(store: &Store, ladder: i64) -> Result<Vec<MatchResult>, StoreError> {
    let end = store.queue().finished_prefix(ladder)?;
    store.results().before(ladder, end)
}

/// A challenge's test, as stored.
fn test_of(row: &ChallengeRow) -> Result<Test, Error> {
    serde_json::from_str(&row.test).map_err(|e| Error::StoredLadder {
        ladder: row.ladder,
        reason: format!("challenge {} has a test that cannot be read: {e}", row.id),
    })
}

fn sprt_of(test: &Test) -> Result<Option<Sprt>, SprtError> {
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

fn unknown(e: StoreError) -> ChallengeError {
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
/// [`top_up`] schedules. `now` is unix seconds (its UTC day counts the
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
    match store.accounts().ownership(&tested.name)? {
        Some(o) if o.account != account => {
            return Err(ChallengeError::NotOwner {
                bot: tested.name,
                owner: Some(o.owner),
            })
        }
        None => {
            return Err(ChallengeError::NotOwner {
                bot: tested.name,
                owner: None,
            })
        }
        Some(o) if o.retired => return Err(ChallengeError::Retired { bot: tested.name }),
        Some(_) => {}
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

/// Enters `account`'s candidate `bot` v`version` in its game's ladder: the
/// next top-up of the game's continuous ladder seats it (when it is the
/// name's latest version not a candidate).
pub fn promote(store: &Store, account: i64, bot: &str, version: u32) -> Result<(), ChallengeError> {
    let b = store.bots().get(bot, Some(version)).map_err(unknown)?;
    match store.accounts().ownership(&b.name)? {
        Some(o) if o.account == account => {}
        other => {
            return Err(ChallengeError::NotOwner {
                bot: b.name,
                owner: other.map(|o| o.owner),
            })
        }
    }
    if !store.bots().promote(&b.name, version)? {
        return Err(ChallengeError::NotACandidate {
            bot: b.name,
            version,
        });
    }
    Ok(())
}

/// What one [`top_up`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TopUp {
    /// Matches appended to challenges' schedules.
    pub scheduled: u32,
    /// Challenges that ended, with their verdicts.
    pub ended: Vec<(ChallengeId, Verdict)>,
}

/// Keeps every running challenge going, as a server's scheduler does after
/// results arrive: reads its finished results in schedule order; ends it
/// when its SPRT decided (`stronger` for H1, `not stronger` for H0), its
/// fixed count is played, or its maximum reached undecided (`none`); and
/// otherwise appends pairs so that some wait, as a continuous ladder keeps
/// its queue ([`continuous::waiting_target`]): two a live worker thread,
/// or two seconds of play at its pace of the last five, whichever is more
/// ([`FEWEST_PENDING_PAIRS`] to [`MOST_PENDING_PAIRS`]), within its count
/// and its account's games of the day (the UTC day of `now`, unix
/// seconds; a spent day schedules nothing until the next).
pub fn top_up(store: &Store, limits: &ChallengeLimits, now: i64) -> Result<TopUp, Error> {
    let mut done = TopUp::default();
    for row in store.challenges().active()? {
        keep_going(store, &row, limits, now, &mut done)?;
    }
    Ok(done)
}

fn keep_going(
    store: &Store,
    row: &ChallengeRow,
    limits: &ChallengeLimits,
    now: i64,
    done: &mut TopUp,
) -> Result<(), Error> {
    let test = test_of(row)?;
    let sprt = sprt_of(&test).map_err(|e| Error::StoredLadder {
        ladder: row.ladder,
        reason: e.to_string(),
    })?;
    let record = store.ladders().get(row.ladder)?;
    let players = record.players as usize;
    let opponents = record.bots.len().saturating_sub(1);
    let results = finished(store, row.ladder)?;
    let t = tally(&results, players, opponents, sprt.as_ref());
    let end = |verdict: Verdict, reason: String, done: &mut TopUp| -> Result<(), Error> {
        if store
            .challenges()
            .end(row.id, verdict.as_str(), &reason, now)?
        {
            tracing::info!(challenge = row.id, %verdict, "{reason}");
            done.ended.push((row.id, verdict));
        }
        Ok(())
    };
    if let Some(h) = t.decision {
        let pairs = t.counted.div_ceil(2);
        return match h {
            Hypothesis::H1 => end(
                Verdict::Stronger,
                format!("the SPRT accepted H1 after {pairs} pairs"),
                done,
            ),
            Hypothesis::H0 => end(
                Verdict::NotStronger,
                format!("the SPRT accepted H0 after {pairs} pairs"),
                done,
            ),
        };
    }
    let played = results.len() as u32;
    if played >= row.max_games {
        let reason = match test {
            Test::Games { games } => format!("played its {games} games"),
            Test::Sprt(_) => format!("reached its maximum of {} games undecided", row.max_games),
        };
        return end(Verdict::None, reason, done);
    }
    let scheduled = store.ladders().schedule_len(row.ladder)?;
    let queue = store.queue().demand(row.ladder, PACE_WINDOW, false)?;
    let target = continuous::waiting_target(&queue, 2 * FEWEST_PENDING_PAIRS)
        .div_ceil(2)
        .clamp(FEWEST_PENDING_PAIRS, MOST_PENDING_PAIRS);
    let wanted = target.saturating_sub(queue.waiting.div_ceil(2)) * 2;
    let day = day_of(now);
    let today = store.challenges().usage(row.account, day)?;
    let left_today = limits.games_a_day.saturating_sub(today);
    let mut games = wanted.min(row.max_games.saturating_sub(scheduled));
    if games > left_today {
        // Whole pairs only: a day's last odd game waits for the next day.
        games = left_today - left_today % 2;
    }
    if games == 0 {
        return Ok(());
    }
    let info = ludus_engine::registry::info(&record.game)?;
    let new: Vec<ScheduledMatch> = (scheduled..scheduled + games)
        .map(|index| self::scheduled(index, players, opponents, record.seed, info))
        .collect();
    if store.challenges().schedule(row, &new, day)? {
        done.scheduled += games;
    }
    Ok(())
}

/// A bot of a challenge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChallengeBot {
    pub name: String,
    pub version: u32,
    pub sha256: String,
}

/// A value and its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Estimate {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

/// The SPRT of a challenge where it stands (or where it decided).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SprtStatus {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    /// The log-likelihood ratio of H1 against H0.
    pub llr: f64,
    /// H0 is accepted at or below it.
    pub lower: f64,
    /// H1 is accepted at or above it.
    pub upper: f64,
}

/// A match of a challenge, for the page that links its replay.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChallengeMatch {
    /// Its index in the challenge's schedule (its ladder's).
    pub index: u32,
    /// Its pair: the two games of a pair share a seed.
    pub pair: u32,
    #[serde(with = "crate::exact")]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub seed: u64,
    /// Each seat's bot, `name` and `version`.
    pub seats: Vec<SeatBot>,
    /// The tested bot's seat.
    #[cfg_attr(feature = "openapi", schema(value_type = u32))]
    pub tested_seat: usize,
    /// Set once played (empty for a void match).
    pub match_id: Option<String>,
    /// The tested bot's outcome, once finished.
    pub outcome: Option<GameOutcome>,
    /// Counted in the statistics: before the SPRT's decision.
    pub counted: bool,
}

/// A seat's bot in a challenge's match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SeatBot {
    pub name: String,
    pub version: u32,
}

/// Where a challenge stands: what was asked, what the games say, and every
/// match.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChallengeStatus {
    #[serde(with = "crate::exact")]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub id: ChallengeId,
    /// The owner's account name.
    pub owner: String,
    pub game: String,
    /// The ladder its matches are in.
    #[serde(with = "crate::exact")]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub ladder: i64,
    /// The tested version.
    pub bot: ChallengeBot,
    pub opponents: Vec<ChallengeBot>,
    pub test: Test,
    #[serde(with = "crate::exact")]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub seed: u64,
    pub max_games: u32,
    /// Unix seconds.
    #[cfg_attr(feature = "openapi", schema(value_type = u32))]
    pub created_at: i64,
    pub state: ChallengeState,
    pub verdict: Option<Verdict>,
    #[cfg_attr(feature = "openapi", schema(value_type = Option<u32>))]
    pub ended_at: Option<i64>,
    pub ended_reason: Option<String>,
    /// Matches scheduled, and finished (void ones included).
    pub scheduled: u32,
    pub finished: u32,
    /// The tested bot's games counted (before the decision), by outcome.
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Complete pairs counted, and their pentanomial counts (pairs in
    /// which the tested bot scored 0, ½, 1, 1½, 2 points).
    #[cfg_attr(feature = "openapi", schema(value_type = u32))]
    pub pairs: u64,
    #[cfg_attr(feature = "openapi", schema(value_type = [u32; 5]))]
    pub pentanomial: [u64; 5],
    /// The tested bot's mean score per game, over the counted pairs.
    pub score: Option<Estimate>,
    /// The Elo difference (logistic) the score means.
    pub elo: Option<Estimate>,
    /// The likelihood that the tested bot is the stronger.
    pub los: Option<f64>,
    /// The SPRT, for a challenge that runs one.
    pub sprt: Option<SprtStatus>,
    pub matches: Vec<ChallengeMatch>,
}

fn state_of(row: &ChallengeRow) -> (ChallengeState, Option<Verdict>) {
    match (&row.verdict, &row.ended_reason) {
        (None, _) => (ChallengeState::Running, None),
        (Some(v), reason) => {
            let verdict = Verdict::parse(v);
            let state = match verdict {
                Verdict::Stronger | Verdict::NotStronger => ChallengeState::Decided,
                Verdict::None if reason.as_deref() == Some(STOPPED) => ChallengeState::Stopped,
                Verdict::None => ChallengeState::Finished,
            };
            (state, Some(verdict))
        }
    }
}

fn challenge_bot(b: &BotRecord) -> ChallengeBot {
    ChallengeBot {
        name: b.name.clone(),
        version: b.version,
        sha256: b.sha256.clone(),
    }
}

/// Where challenge `id` stands.
pub fn status(store: &Store, id: ChallengeId) -> Result<ChallengeStatus, ChallengeError> {
    let row = store
        .challenges()
        .get(id)?
        .ok_or(ChallengeError::UnknownChallenge(id))?;
    let test = test_of(&row)?;
    let sprt = sprt_of(&test)?;
    let record = store.ladders().get(row.ladder)?;
    let players = record.players as usize;
    let opponents = record.bots.len().saturating_sub(1);
    let prefix = finished(store, row.ladder)?;
    let t = tally(&prefix, players, opponents, sprt.as_ref());
    let all = store.results().all(row.ladder)?;
    let schedule = store.ladders().schedule(row.ladder)?;
    let owner = store
        .accounts()
        .get(row.account)?
        .map(|a| a.name)
        .unwrap_or_default();
    let (state, verdict) = state_of(&row);
    let interval = sprt::score_interval(&t.counts);
    let estimate = sprt::elo_estimate(&t.counts);
    let elo = |s: f64| sprt::logistic_elo(s.clamp(1e-3, 1.0 - 1e-3));
    let counted_sprt = sprt.map(|mut s| {
        s.add_counts(t.counts);
        s
    });
    let mut results = all.iter().peekable();
    let matches = schedule
        .iter()
        .map(|m| {
            let table =
                &pair_tables(u64::from(m.group), players, opponents)[(m.index % 2) as usize];
            while results.next_if(|r| r.index < m.index).is_some() {}
            let result = results.next_if(|r| r.index == m.index);
            ChallengeMatch {
                index: m.index,
                pair: m.group,
                seed: m.seed,
                seats: m
                    .seats
                    .iter()
                    .map(|&p| SeatBot {
                        name: record.bots[p].name.clone(),
                        version: record.bots[p].version,
                    })
                    .collect(),
                tested_seat: table.tested,
                match_id: result
                    .filter(|r| !r.match_id.is_empty())
                    .map(|r| r.match_id.clone()),
                outcome: result.map(|r| outcome(r, table)),
                counted: m.index < t.counted,
            }
        })
        .collect();
    Ok(ChallengeStatus {
        id: row.id,
        owner,
        game: row.game.clone(),
        ladder: row.ladder,
        bot: challenge_bot(&record.bots[0]),
        opponents: record.bots[1..].iter().map(challenge_bot).collect(),
        test,
        seed: record.seed,
        max_games: row.max_games,
        created_at: row.created_at,
        state,
        verdict,
        ended_at: row.ended_at,
        ended_reason: row.ended_reason.clone(),
        scheduled: schedule.len() as u32,
        finished: all
            .iter()
            .filter(|r| r.aborted.as_deref() != Some(NOT_PLAYED))
            .count() as u32,
        games: t.wins + t.draws + t.losses,
        wins: t.wins,
        draws: t.draws,
        losses: t.losses,
        pairs: t.counts.iter().sum(),
        pentanomial: t.counts,
        score: interval.map(|(value, low, high)| Estimate { value, low, high }),
        elo: match (estimate, interval) {
            (Some(e), Some((_, low, high))) => Some(Estimate {
                value: e.elo,
                low: elo(low),
                high: elo(high),
            }),
            _ => None,
        },
        los: estimate.map(|e| e.los),
        sprt: counted_sprt.map(|s| {
            let c = *s.config();
            let (lower, upper) = s.bounds();
            SprtStatus {
                elo0: c.elo0,
                elo1: c.elo1,
                alpha: c.alpha,
                beta: c.beta,
                llr: s.llr(),
                lower,
                upper,
            }
        }),
        matches,
    })
}

/// A challenge as an account's page lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChallengeSummary {
    #[serde(with = "crate::exact")]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub id: ChallengeId,
    pub game: String,
    pub bot: SeatBot,
    pub opponents: Vec<SeatBot>,
    pub test: Test,
    pub state: ChallengeState,
    pub verdict: Option<Verdict>,
    /// Matches scheduled so far, and at most.
    pub scheduled: u32,
    pub max_games: u32,
    #[cfg_attr(feature = "openapi", schema(value_type = u32))]
    pub created_at: i64,
    #[cfg_attr(feature = "openapi", schema(value_type = Option<u32>))]
    pub ended_at: Option<i64>,
}

/// `account`'s challenges, newest first.
pub fn list(store: &Store, account: i64) -> Result<Vec<ChallengeSummary>, ChallengeError> {
    let mut out = Vec::new();
    for row in store.challenges().of_account(account)? {
        let record = store.ladders().get(row.ladder)?;
        let seat = |b: &BotRecord| SeatBot {
            name: b.name.clone(),
            version: b.version,
        };
        let (state, verdict) = state_of(&row);
        out.push(ChallengeSummary {
            id: row.id,
            game: row.game.clone(),
            bot: seat(&record.bots[0]),
            opponents: record.bots[1..].iter().map(seat).collect(),
            test: test_of(&row)?,
            state,
            verdict,
            scheduled: store.ladders().schedule_len(row.ladder)?,
            max_games: row.max_games,
            created_at: row.created_at,
            ended_at: row.ended_at,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn two_seat_pairs_are_a_then_b_and_b_then_a_as_match_up_plays_them() {
        for k in 0..6 {
            let [first, second] = pair_tables(k, 2, 3);
            let b = 1 + (k % 3) as usize;
            assert_eq!(first.seats, vec![0, b]);
            assert_eq!((first.tested, first.opponent), (0, 1));
            assert_eq!(second.seats, vec![b, 0]);
            assert_eq!((second.tested, second.opponent), (1, 0));
        }
    }

    #[test]
    fn four_seat_pairs_seat_a_everywhere_and_fill_with_the_next_opponents() {
        let mut a_seats = BTreeSet::new();
        for k in 0..4 {
            for t in pair_tables(k, 4, 3) {
                assert_eq!(t.seats[t.tested], 0);
                assert_eq!(t.seats[t.opponent], 1 + (k % 3) as usize);
                let mut sorted = t.seats.clone();
                sorted.sort();
                assert_eq!(sorted, vec![0, 1, 2, 3], "k {k}: {:?}", t.seats);
                a_seats.insert(t.tested);
            }
        }
        assert_eq!(a_seats.len(), 4, "A sits in every seat");
        // One opponent: it takes every other seat.
        let [first, second] = pair_tables(1, 4, 1);
        assert_eq!(first.seats, vec![1, 1, 0, 1]);
        assert_eq!(second.seats, vec![1, 1, 1, 0]);
        // Two: the other one, then B again.
        let [first, _] = pair_tables(0, 4, 2);
        assert_eq!(first.seats, vec![0, 1, 2, 1]);
    }

    fn result(index: u32, placements: Vec<u32>) -> MatchResult {
        MatchResult {
            index,
            placements,
            ..MatchResult::default()
        }
    }

    #[test]
    fn the_tally_stops_at_the_pair_where_the_sprt_decides() {
        // A sits first in a pair's first game, second in its second. Pairs
        // WW, WL, WD, DL, WW, ...: a mean score of 0.7, which the SPRT
        // calls stronger soon.
        let pattern = [
            ([1, 2], [2, 1]),
            ([1, 2], [1, 2]),
            ([1, 2], [1, 1]),
            ([1, 1], [1, 2]),
            ([1, 2], [2, 1]),
        ];
        let mut results = Vec::new();
        for k in 0..200u32 {
            let (first, second) = pattern[k as usize % pattern.len()];
            results.push(result(2 * k, first.to_vec()));
            results.push(result(2 * k + 1, second.to_vec()));
        }
        let sprt = Sprt::new(SprtConfig::default()).unwrap();
        let t = tally(&results, 2, 1, Some(&sprt));
        assert_eq!(t.decision, Some(Hypothesis::H1));
        assert!(
            t.counted < 400 && t.counted.is_multiple_of(2),
            "{}",
            t.counted
        );
        let pairs = u64::from(t.counted / 2);
        assert_eq!(t.counts.iter().sum::<u64>(), pairs);
        assert_eq!(t.wins + t.draws + t.losses, t.counted);
        // One pair fewer was undecided: the first pair that decides counts.
        let shorter = tally(&results[..t.counted as usize - 2], 2, 1, Some(&sprt));
        assert_eq!(shorter.decision, None);
        // Without a test every game counts; a void game voids its pair.
        results[1].aborted = Some("void".into());
        let t = tally(&results, 2, 1, None);
        assert_eq!(t.counted, 400);
        assert_eq!(t.wins + t.draws + t.losses, 399);
        assert_eq!(t.counts.iter().sum::<u64>(), 199);
        assert_eq!(t.outcomes[1], GameOutcome::Void);
    }
}
