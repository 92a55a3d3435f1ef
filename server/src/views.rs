//! The queries behind the pages and the API's reads: each takes the store
//! (reads only) and answers in the API's types. Their cost grows with what
//! they show (the bots of a game, the matches of a bot), never with the
//! length of a ladder's schedule: they go through the store's indexes.

use crate::dto::{
    BotMatch, BotView, GameSummary, HeadToHead, LeaderboardPage, MatchSummary, Page, RatingHistory,
    RatingPoint, RowRecord, SeasonLink, SeatedBot, VersionView,
};
use crate::error::ApiError;
use ludus_leaderboard::ratings::System;
use ludus_leaderboard::report;
use ludus_leaderboard::schedule::ScheduledMatch;
use ludus_leaderboard::seated;
use ludus_leaderboard::store::{LadderRecord, MatchResult, Store};
use ludus_leaderboard::Error;
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

/// A page of a game's board ([`report::game_board`]: the open season's, or
/// the one `season` names, 404 if none): its rows paged, and the rated
/// results of the page's rows alone.
pub fn leaderboard(
    store: &Store,
    game: &str,
    page: Page,
    season: Option<&str>,
) -> Result<LeaderboardPage, ApiError> {
    // An unknown game is a 404 (game_board's error for it would be a 500).
    known_game(game)?;
    let shown = report::game_board(store, game, season).map_err(|e| match e {
        e @ Error::NoSeason { .. } => ApiError::NotFound(e.to_string()),
        e => e.into(),
    })?;
    let mut board = shown.board;
    let total = board.rows.len() as u32;
    board.rows = board
        .rows
        .into_iter()
        .skip(page.offset() as usize)
        .take(page.size as usize)
        .collect();
    let records = records(store, &board)?;
    Ok(LeaderboardPage {
        board,
        page: page.number,
        per_page: page.size,
        total,
        needs: shown.needs,
        season: shown.season.map(|s| s.name),
        open: shown.open,
        paused: shown.paused,
        seasons: shown
            .seasons
            .into_iter()
            .map(|s| SeasonLink {
                open: s.is_open(),
                name: s.name,
            })
            .collect(),
        records,
    })
}

/// The rated results of each row of `board` (a page of it), in its order:
/// read for these rows' bots alone, and not at all before any is rated.
fn records(store: &Store, board: &report::Leaderboard) -> Result<Vec<RowRecord>, ApiError> {
    let mut out = vec![RowRecord::default(); board.rows.len()];
    let Some(ladder) = board
        .ladder
        .filter(|_| board.rows.iter().any(|r| r.games > 0))
    else {
        return Ok(out);
    };
    let record = store.ladders().get(ladder)?;
    let position = |r: &report::Row| {
        record
            .bots
            .iter()
            .position(|b| b.name == r.bot && b.version == r.version)
    };
    let positions: Vec<usize> = board.rows.iter().filter_map(position).collect();
    let counted = store.seats().records_of(ladder, &positions)?;
    for (row, out) in board.rows.iter().zip(&mut out) {
        let Some(p) = position(row) else { continue };
        if let Some(&(_, rated, wins, draws)) = counted.iter().find(|c| c.0 == p) {
            *out = RowRecord {
                wins,
                draws,
                losses: rated - wins - draws,
                win_rate: (rated > 0).then(|| 100.0 * f64::from(wins) / f64::from(rated)),
            };
        }
    }
    Ok(out)
}

/// How match `r` ended for the bot at `seats` (its seats, one or more):
/// won, lost or drawn with two seats; with more, its best place of all.
pub fn result_for(r: &MatchResult, seats: &[usize]) -> String {
    if r.aborted.is_some() {
        return "aborted".into();
    }
    let Some(best) = seats
        .iter()
        .filter_map(|&s| r.placements.get(s).copied())
        .min()
    else {
        return String::new();
    };
    let shared = r
        .placements
        .iter()
        .enumerate()
        .any(|(s, &p)| p == best && !seats.contains(&s));
    let n = r.placements.len();
    match (n, best, shared) {
        (2, 1, false) => "won".into(),
        (2, 1, true) => "drawn".into(),
        (2, _, _) => "lost".into(),
        (_, _, false) => format!("{} of {n}", ordinal(best)),
        (_, _, true) => format!("{} of {n}, tied", ordinal(best)),
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, … `11th`, `21st`.
fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn summary(record: &LadderRecord, m: &ScheduledMatch, r: Option<&MatchResult>) -> MatchSummary {
    MatchSummary {
        index: m.index,
        match_id: r.map(|r| r.match_id.clone()).unwrap_or_default(),
        game: record.game.clone(),
        seed: m.seed,
        // By the schedule's positions, never by bytes: several names can
        // share a sha256.
        seats: seated::of(record, &m.seats)
            .into_iter()
            .zip(&m.seats)
            .map(|(s, p)| s.map_or_else(|| format!("bot {p}"), |s| s.label()))
            .collect(),
        placements: r.map(|r| r.placements.clone()).unwrap_or_default(),
        scores: r.map(|r| r.scores.clone()).unwrap_or_default(),
        faults: r.map(|r| r.faults.clone()).unwrap_or_default(),
        turns: r.map_or(0, |r| r.turns),
        reason: r.map(|r| r.reason.clone()).unwrap_or_default(),
        aborted: r.and_then(|r| r.aborted.clone()),
    }
}

/// How many of a bot's latest ratings its chart draws.
pub const CHART_POINTS: u32 = 500;

/// A bot's page: its versions, a page of its played matches (newest
/// first), the chart of its latest ratings, and its results against each
/// opponent counted by the database; each read bounded by a page or by
/// the number of its opponents, whatever the number of its matches.
pub fn bot(store: &Store, name: &str, page: Page) -> Result<BotView, ApiError> {
    let versions = store.bots().versions(name)?;
    let Some(last) = versions.last() else {
        return Err(ApiError::NotFound(format!("no bot named `{name}`")));
    };
    let game = last.game.clone();
    let ownership = store.accounts().ownership(name)?;
    let record = continuous_record(store, &game)?;
    let system = ranking_system(&record, &game);
    let mut view = BotView {
        name: name.into(),
        game: game.clone(),
        owner: ownership.as_ref().map(|o| o.owner.clone()),
        retired: ownership.as_ref().is_some_and(|o| o.retired),
        rating_system: system.describe().into(),
        versions: Vec::new(),
        rating_history: Vec::new(),
        recent: Vec::new(),
        fault_turns: 0,
        head_to_head: Vec::new(),
        matches: 0,
        rated_matches: 0,
        page: page.number,
        per_page: page.size,
    };
    let (ratings, ranking) = match &record {
        Some(r) => (
            store.ratings().get(r.id, System::Elo.key())?,
            store.ratings().get(r.id, system.key())?,
        ),
        None => (Vec::new(), Vec::new()),
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
        let ranked = position.and_then(|p| ranking.iter().find(|r| r.0 == p));
        view.versions.push(VersionView {
            version: v.version,
            sha256: v.sha256.clone(),
            submitted_at: v.submitted_at.clone(),
            rating: position.and_then(|p| ratings.iter().find(|r| r.0 == p).map(|r| r.1)),
            ranking: ranked.map(|r| r.1),
            interval: ranked.map(|r| r.2),
        });
    }
    let Some(record) = record else {
        return Ok(view);
    };
    let positions: Vec<usize> = mine.keys().copied().collect();
    let seats = store.seats();
    let (rated, faults) = seats.rated_seats_of(record.id, &positions)?;
    view.fault_turns = faults.min(u64::from(u32::MAX)) as u32;
    view.rated_matches = rated;
    view.matches = seats.of_bot_count(record.id, &positions)?;
    view.page = page.number;
    view.per_page = page.size;
    for m in seats.of_bot_page(record.id, &positions, page.offset(), page.size)? {
        view.recent.push(bot_match(&record, &mine, &m));
    }
    // The latest points, in schedule order.
    let mut points = seats.elo_page(record.id, &positions, 0, CHART_POINTS)?;
    points.reverse();
    let interval = elo_scale_intervals(system, &ranking);
    view.rating_history = points
        .into_iter()
        .map(|(index, position, rating)| RatingPoint {
            index,
            version: mine[&position],
            rating,
            interval: interval(position),
        })
        .collect();
    let mut h2h: BTreeMap<String, HeadToHead> = BTreeMap::new();
    for (op, wins, losses, draws) in seats.head_to_head(record.id, &positions)? {
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
        e.wins += wins;
        e.losses += losses;
        e.draws += draws;
    }
    view.head_to_head = h2h.into_values().collect();
    Ok(view)
}

/// A page of a bot's rating history, newest first.
pub fn bot_ratings(store: &Store, name: &str, page: Page) -> Result<RatingHistory, ApiError> {
    let versions = store.bots().versions(name)?;
    let Some(last) = versions.last() else {
        return Err(ApiError::NotFound(format!("no bot named `{name}`")));
    };
    let Some(record) = continuous_record(store, &last.game)? else {
        return Ok(RatingHistory {
            page: page.number,
            per_page: page.size,
            total: 0,
            points: Vec::new(),
        });
    };
    let mine: BTreeMap<usize, u32> = record
        .bots
        .iter()
        .enumerate()
        .filter(|(_, b)| b.name == name)
        .map(|(p, b)| (p, b.version))
        .collect();
    let positions: Vec<usize> = mine.keys().copied().collect();
    let seats = store.seats();
    let system = System::ranking(record.players);
    let ranking = store.ratings().get(record.id, system.key())?;
    let interval = elo_scale_intervals(system, &ranking);
    Ok(RatingHistory {
        page: page.number,
        per_page: page.size,
        total: seats.rated_seats_of(record.id, &positions)?.0,
        points: seats
            .elo_page(record.id, &positions, page.offset(), page.size)?
            .into_iter()
            .map(|(index, position, rating)| RatingPoint {
                index,
                version: mine[&position],
                rating,
                interval: interval(position),
            })
            .collect(),
    })
}

/// What ranks the leaderboard of `game`, whose ladder is `record`.
fn ranking_system(record: &Option<LadderRecord>, game: &str) -> System {
    let players = match record {
        Some(r) => r.players,
        None => known_game(game).map_or(2, |g| g.fewest_seats() as u32),
    };
    System::ranking(players)
}

/// Each ladder position's interval of the `system` rating `ranking`, in
/// Elo points: where that rating is on the Elo scale (Bradley–Terry) only.
fn elo_scale_intervals(
    system: System,
    ranking: &[ludus_leaderboard::store::RatingRow],
) -> impl Fn(usize) -> Option<f64> + '_ {
    move |position| {
        (system == System::BradleyTerry)
            .then(|| ranking.iter().find(|r| r.0 == position).map(|r| r.2))
            .flatten()
    }
}

/// A match of the bot whose versions are at `mine` (position → version),
/// from its point of view.
fn bot_match(
    record: &LadderRecord,
    mine: &BTreeMap<usize, u32>,
    m: &ludus_leaderboard::store::SeatedMatch,
) -> BotMatch {
    let r = m.result.as_ref();
    let seats = &m.scheduled.seats;
    let its: Vec<usize> = (0..seats.len())
        .filter(|&s| mine.contains_key(&seats[s]))
        .collect();
    let result = r.map_or_else(String::new, |r| result_for(r, &its));
    // Its best-placed seat, the first of them on a tie.
    let seat = its
        .iter()
        .copied()
        .min_by_key(|&s| (r.and_then(|r| r.placements.get(s).copied()), s))
        .unwrap_or(m.seat);
    let opponents = seated::of(record, seats)
        .into_iter()
        .enumerate()
        .filter(|(s, _)| !its.contains(s))
        .filter_map(|(_, b)| b)
        .map(|b| SeatedBot {
            name: b.name,
            version: b.version,
        })
        .collect();
    BotMatch {
        summary: summary(record, &m.scheduled, r),
        seat: seat as u32,
        version: mine.get(&seats[seat]).copied().unwrap_or_default(),
        result,
        opponents,
        bot_faults: r.map_or(0, |r| its.iter().filter_map(|&s| r.faults.get(s)).sum()),
    }
}

/// A match of a continuous ladder, found by its id.
pub struct FoundMatch {
    pub record: LadderRecord,
    pub summary: MatchSummary,
    /// Each seat's bot, by name, as the schedule seated it (its name and
    /// version are the summary's `seats`).
    pub seats: Vec<String>,
}

/// A match of a continuous ladder by its id (or a unique prefix of it),
/// through the results' index of match ids.
pub fn find_match(store: &Store, id: &str) -> Result<FoundMatch, ApiError> {
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(ApiError::NotFound(format!("`{id}` is not a match id")));
    }
    let full = store.results().find_match(&id.to_ascii_lowercase())?;
    for (ladder, index) in store.results().locate(&full)? {
        let record = store.ladders().get(ladder)?;
        // A server's ladders, open or closed seasons, and its challenges':
        // not `ladder run`'s.
        let kind = record.kind.as_str();
        if kind != "continuous" && kind != ludus_leaderboard::store::CHALLENGE_KIND {
            continue;
        }
        if let Some((m, r)) = store.results().at(ladder, index)? {
            let summary = summary(&record, &m, r.as_ref());
            let seats = seated::of(&record, &m.seats)
                .into_iter()
                .map(|s| s.map(|s| s.name).unwrap_or_default())
                .collect();
            return Ok(FoundMatch {
                record,
                summary,
                seats,
            });
        }
    }
    Err(ApiError::NotFound(format!(
        "no match `{id}` in the server's ladders"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ended(placements: &[u32]) -> MatchResult {
        MatchResult {
            index: 0,
            match_id: String::new(),
            placements: placements.to_vec(),
            scores: Vec::new(),
            faults: Vec::new(),
            turns: 1,
            reason: String::new(),
            aborted: None,
            replay_sha256: String::new(),
            refused: Vec::new(),
        }
    }

    #[test]
    fn a_match_ends_for_a_bot_as_its_best_seat_placed() {
        assert_eq!(result_for(&ended(&[1, 2]), &[0]), "won");
        assert_eq!(result_for(&ended(&[1, 2]), &[1]), "lost");
        assert_eq!(result_for(&ended(&[1, 1]), &[1]), "drawn");
        assert_eq!(result_for(&ended(&[3, 2, 1, 4]), &[1]), "2nd of 4");
        assert_eq!(result_for(&ended(&[1, 3, 1, 4]), &[2]), "1st of 4, tied");
        // Two seats of one bot (a house bot's copies): not tied with itself.
        assert_eq!(result_for(&ended(&[1, 1, 3, 4]), &[0, 1]), "1st of 4");
        assert_eq!(result_for(&ended(&[2, 4, 1, 3]), &[1, 3]), "3rd of 4");
        let mut aborted = ended(&[1, 2]);
        aborted.aborted = Some("host".into());
        assert_eq!(result_for(&aborted, &[0]), "aborted");
        assert_eq!(ordinal(11), "11th");
        assert_eq!(ordinal(22), "22nd");
    }
}
