//! The queries behind the pages and the API's reads: each takes the store
//! (reads only) and answers in the API's types. Their cost grows with what
//! they show (the bots of a game, the matches of a bot), never with the
//! length of a ladder's schedule: they go through the store's indexes.

use crate::dto::{BotView, GameSummary, HeadToHead, MatchSummary, RatingPoint, VersionView};
use crate::error::ApiError;
use ludus_host::Replay;
use ludus_leaderboard::ratings::System;
use ludus_leaderboard::report::{self, Leaderboard, Listed};
use ludus_leaderboard::schedule::ScheduledMatch;
use ludus_leaderboard::store::{continuous_key, Account, LadderRecord, MatchResult, Store};
use std::collections::BTreeMap;

/// The game `game`, or 404.
pub fn known_game(game: &str) -> Result<&'static ludus_engine::registry::GameInfo, ApiError> {
    ludus_engine::registry::info(game).map_err(|e| ApiError::NotFound(e.to_string()))
}

/// Every game, with the size of its ladder.
pub fn games(store: &Store) -> Result<Vec<GameSummary>, ApiError> {
    let mut out = Vec::new();
    for g in ludus_engine::games() {
        let (bots, rated) = match store.ladders().continuous(g.id)? {
            Some(id) => {
                let l = store.ladders().get(id)?;
                (l.bots.len(), l.rated_through)
            }
            None => (0, 0),
        };
        out.push(GameSummary {
            id: g.id.into(),
            summary: g.summary.into(),
            seats: g.seats.to_vec(),
            bots,
            rated,
        });
    }
    Ok(out)
}

/// The continuous ladder of `game`, if it exists: its record with its bots
/// (not its schedule).
fn continuous_record(store: &Store, game: &str) -> Result<Option<LadderRecord>, ApiError> {
    match store.ladders().continuous(game)? {
        Some(id) => Ok(Some(store.ladders().get(id)?)),
        None => Ok(None),
    }
}

/// A game's live leaderboard: the latest version of every bot not retired,
/// ranked as every leaderboard is ([`report::standings`]).
pub fn leaderboard(store: &Store, game: &str) -> Result<Leaderboard, ApiError> {
    known_game(game)?;
    match store.ladders().continuous(game)? {
        Some(id) => Ok(report::standings(store, id, Listed::Current)?),
        None => Ok(report::empty(game)),
    }
}

fn summary(record: &LadderRecord, m: &ScheduledMatch, r: Option<&MatchResult>) -> MatchSummary {
    MatchSummary {
        index: m.index,
        match_id: r.map(|r| r.match_id.clone()).unwrap_or_default(),
        game: record.game.clone(),
        seed: m.seed,
        seats: m
            .seats
            .iter()
            .map(|&p| {
                record.bots.get(p).map_or_else(
                    || format!("bot {p}"),
                    |b| format!("{} v{}", b.name, b.version),
                )
            })
            .collect(),
        placements: r.map(|r| r.placements.clone()).unwrap_or_default(),
        scores: r.map(|r| r.scores.clone()).unwrap_or_default(),
        faults: r.map(|r| r.faults.clone()).unwrap_or_default(),
        turns: r.map_or(0, |r| r.turns),
        reason: r.map(|r| r.reason.clone()).unwrap_or_default(),
        aborted: r.and_then(|r| r.aborted.clone()),
    }
}

/// How many of a bot's latest matches its page lists.
pub const RECENT: usize = 20;

/// A bot's page from its own matches, found through the bot index: the
/// work grows with the bot's matches, not with the ladder's.
pub fn bot(store: &Store, name: &str) -> Result<BotView, ApiError> {
    let versions = store.bots().versions(name)?;
    let Some(last) = versions.last() else {
        return Err(ApiError::NotFound(format!("no bot named `{name}`")));
    };
    let game = last.game.clone();
    let ownership = store.accounts().ownership(name)?;
    let mut view = BotView {
        name: name.into(),
        game: game.clone(),
        owner: ownership.as_ref().map(|o| o.owner.clone()),
        retired: ownership.as_ref().is_some_and(|o| o.retired),
        versions: Vec::new(),
        rating_history: Vec::new(),
        recent: Vec::new(),
        fault_turns: 0,
        head_to_head: Vec::new(),
    };
    let record = continuous_record(store, &game)?;
    let ratings = match &record {
        Some(r) => store.ratings().get(r.id, System::Elo.key())?,
        None => Vec::new(),
    };
    // Ladder position → version, for this bot's versions in the ladder.
    let mine: BTreeMap<usize, u32> = record.as_ref().map_or_else(BTreeMap::new, |r| {
        r.bots
            .iter()
            .enumerate()
            .filter(|(_, b)| b.name == name)
            .map(|(p, b)| (p, b.version))
            .collect()
    });
    for v in &versions {
        let position = mine.iter().find(|m| *m.1 == v.version).map(|m| *m.0);
        view.versions.push(VersionView {
            version: v.version,
            sha256: v.sha256.clone(),
            submitted_at: v.submitted_at.clone(),
            rating: position.and_then(|p| ratings.iter().find(|r| r.0 == p).map(|r| r.1)),
        });
    }
    let Some(record) = record else {
        return Ok(view);
    };
    let mut seated = Vec::new();
    for &p in mine.keys() {
        seated.extend(store.results().of_bot(record.id, p)?);
    }
    seated.sort_by_key(|m| (m.scheduled.index, m.seat));
    let mut h2h: BTreeMap<String, HeadToHead> = BTreeMap::new();
    for m in &seated {
        let seats = &m.scheduled.seats;
        let Some(r) = &m.result else { continue };
        view.fault_turns += r.faults.get(m.seat).copied().unwrap_or(0);
        // Rated: the Elo the ratings recorded after it.
        let Some(elo) = m.elo else { continue };
        view.rating_history.push(RatingPoint {
            index: m.scheduled.index,
            version: mine[&seats[m.seat]],
            rating: elo,
        });
        for (o, &op) in seats.iter().enumerate() {
            if mine.contains_key(&op) {
                continue;
            }
            let opponent = record
                .bots
                .get(op)
                .map_or_else(|| format!("bot {op}"), |b| b.name.clone());
            let e = h2h.entry(opponent.clone()).or_insert(HeadToHead {
                opponent,
                wins: 0,
                losses: 0,
                draws: 0,
            });
            match r.placements[m.seat].cmp(&r.placements[o]) {
                std::cmp::Ordering::Less => e.wins += 1,
                std::cmp::Ordering::Greater => e.losses += 1,
                std::cmp::Ordering::Equal => e.draws += 1,
            }
        }
    }
    let mut last_index = None;
    for m in seated.iter().rev().filter(|m| m.result.is_some()) {
        if view.recent.len() == RECENT {
            break;
        }
        // A match with two of its versions is listed once.
        if last_index != Some(m.scheduled.index) {
            last_index = Some(m.scheduled.index);
            view.recent
                .push(summary(&record, &m.scheduled, m.result.as_ref()));
        }
    }
    view.head_to_head = h2h.into_values().collect();
    Ok(view)
}

/// A match of a continuous ladder by its id (or a unique prefix of it),
/// through the results' index of match ids.
pub fn find_match(store: &Store, id: &str) -> Result<(LadderRecord, MatchSummary), ApiError> {
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(ApiError::NotFound(format!("`{id}` is not a match id")));
    }
    let full = store.results().find_match(&id.to_ascii_lowercase())?;
    for (ladder, index) in store.results().locate(&full)? {
        let record = store.ladders().get(ladder)?;
        if record.key != continuous_key(&record.game) {
            continue;
        }
        if let Some((m, r)) = store.results().at(ladder, index)? {
            let s = summary(&record, &m, r.as_ref());
            return Ok((record, s));
        }
    }
    Err(ApiError::NotFound(format!(
        "no match `{id}` in the server's ladders"
    )))
}

/// The match's replay, whose seats' logs are kept only for the owner of
/// each seat's bot (everyone sees the moves).
pub fn replay(store: &Store, id: &str, viewer: Option<&Account>) -> Result<Replay, ApiError> {
    let (_, m) = find_match(store, id)?;
    let gz = store
        .results()
        .replay(&m.match_id)?
        .ok_or_else(|| ApiError::NotFound(format!("match `{id}` has no stored replay")))?;
    let mut replay = Replay::from_bytes(&gz).map_err(|e| ApiError::Internal(e.to_string()))?;
    let mut owner_of_seat = Vec::new();
    for seat in &replay.seats {
        let owner = store.accounts().ownership(&seat.name)?.map(|o| o.account);
        owner_of_seat.push(viewer.is_some() && owner == viewer.map(|v| v.id));
    }
    for turn in &mut replay.turns {
        for (seat, t) in turn.seats.iter_mut().enumerate() {
            if !owner_of_seat.get(seat).copied().unwrap_or(false) {
                t.log.clear();
                t.log_dropped = 0;
            }
        }
    }
    Ok(replay)
}
