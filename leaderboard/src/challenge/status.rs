//! Where a challenge stands, for its page and the API (what was asked,
//! what the games say, every match), and an account's challenges.

use super::pairs::pair_tables;
use super::request::{sprt_of, test_of, ChallengeError, ChallengeId, Test, STOPPED};
use super::tally::{finished, outcome, tally, GameOutcome, Verdict};
use crate::sprt;
use crate::store::{BotRecord, ChallengeRow, Store, NOT_PLAYED};
use serde::{Deserialize, Serialize};

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
