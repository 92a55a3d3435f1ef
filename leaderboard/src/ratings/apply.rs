//! Ratings of stored ladders: applied in schedule order over the finished
//! prefix, so that neither the thread count nor the number of workers ever
//! changes a number, and recomputed from the stored results alone to check
//! the stored ones.

use super::elo::{EloConfig, EloLadder};
use super::history::{elo_history_from, rated_seats, EloHistory};
use super::{bradley_terry, elo, games_of, weng_lin, GameResult, System};
use crate::error::Error;
use crate::store::{BotRecord, LadderRecord, RatedSeat, RatingRow, Store, CHALLENGE_KIND};

/// The rated games of a ladder's matches before `end`, in schedule order,
/// with their indices (aborted and void matches are not rated): what
/// ratings are applied from, and recomputed from.
pub fn rated_games_before(
    store: &Store,
    ladder: i64,
    end: u32,
) -> Result<Vec<(u32, GameResult)>, Error> {
    Ok(games_of(&store.results().rated_before(ladder, end)?))
}

/// Applies the ratings of the ladder's finished prefix: the matches before
/// the first one without a result, all of them, in schedule order. One
/// process at a time does it, under the ladder's rating lock, so the
/// ratings never depend on how many workers there were or which finished
/// first. Returns the end of the rated prefix. A challenge's ladder is
/// never rated: only the end of its finished prefix is returned.
pub fn apply(store: &Store, ladder: i64) -> Result<u32, Error> {
    apply_with(store, ladder, Fit::Now)
}

/// Whether [`apply_with`] fits the slower systems too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    /// Elo, and Bradley-Terry or Weng-Lin over every rated match.
    Now,
    /// Elo alone: its cost is that of the matches rated now.
    Later,
}

/// [`apply`], the slower systems fitted or not. Elo goes on from the
/// stored ratings over the matches rated now alone (a sequential update:
/// the same numbers as from the start, which `ladder recompute` checks);
/// Bradley-Terry and Weng-Lin read every rated match of the ladder, so a
/// worker fits them on a schedule of its own (`worker::pace`).
pub fn apply_with(store: &Store, ladder: i64, fit: Fit) -> Result<u32, Error> {
    let end = store.with_rating_lock(ladder, |store| apply_locked(store, ladder, Fit::Later))?;
    if fit == Fit::Now {
        // The fit, whose cost grows with the ladder, outside the lock's
        // transaction: a process frozen while it fits holds no lock.
        let record = store.ladders().get(ladder)?;
        if record.kind != CHALLENGE_KIND {
            let (system, rows) =
                fit_slower_systems_of(store, ladder, record.players, record.bots.len(), end)?;
            store.with_rating_lock(ladder, |store| {
                // A later rating's fit saves its own.
                if store.ladders().get(ladder)?.rated_through == end {
                    store.ratings().save(ladder, system.key(), &rows)?;
                }
                Ok::<_, Error>(())
            })?;
        }
    }
    Ok(end)
}

/// [`apply_with`] inside a transaction that holds the ladder's rating lock
/// already ([`Store::with_rating_lock`]): for a caller that changes what
/// the ratings start from in the same transaction (`integrity::repair`).
pub(crate) fn apply_locked(store: &Store, ladder: i64, fit: Fit) -> Result<u32, Error> {
    let record = store.ladders().get(ladder)?;
    let end = store.queue().finished_prefix(ladder)?;
    // A challenge's matches are never rated.
    if record.kind == CHALLENGE_KIND {
        return Ok(end);
    }
    let n = record.bots.len();
    let mut from = record.rated_through.min(end);
    // Set back by a verification: the stored Elo is past `from`, so it
    // is applied from the start again (rare, and as before).
    if from > 0 && store.ratings().applied_from(ladder, from)? {
        from = 0;
    }
    if from < end || end == 0 {
        let elo = resumed_elo(store, ladder, n, from)?;
        let rated_so_far = match from {
            0 => vec![0; n],
            _ => {
                let mut counts = store.ratings().rated_counts(ladder)?;
                counts.resize(n, 0);
                counts
            }
        };
        let stored = store.results().rated_between(ladder, from, end)?;
        let rated = games_of(&stored);
        // Elo one match at a time, keeping each seat's rating after the
        // matches rated now, with its place and faults, for the bots' pages.
        let history = elo_history_from(elo, rated_so_far, &rated, from)?;
        let seats = rated_seats(&history.after, &stored);
        save_elo(store, ladder, &history, (from, end), &seats)?;
    }
    if fit == Fit::Now {
        fit_slower_systems(store, ladder, record.players, n, end)?;
    }
    Ok(end)
}

/// Stores an Elo history of the ladder's matches from `span.0` to `span.1`:
/// each bot's rating after them, each seat's of those matches (`seats`;
/// any stored past them are cleared) and each bot's count of rated
/// matches; the rated prefix then ends at `span.1` (or, for a history that
/// stops short of the schedule's end, at `span.0`, from which it is applied
/// again: `integrity::repair`).
pub(crate) fn save_elo(
    store: &Store,
    ladder: i64,
    history: &EloHistory,
    span: (u32, u32),
    seats: &[RatedSeat],
) -> Result<(), Error> {
    let rows: Vec<_> = history
        .ratings
        .iter()
        .enumerate()
        .map(|(i, &r)| (i, r, 0.0))
        .collect();
    let ratings = store.ratings();
    ratings.save(ladder, System::Elo.key(), &rows)?;
    ratings.save_elo_history(ladder, span, seats, &history.rated)?;
    let through = match span.1 {
        u32::MAX => span.0,
        end => end,
    };
    ratings.set_rated_through(ladder, through)?;
    Ok(())
}

/// The Elo ladder as the stored ratings leave it after the matches before
/// `from`; every bot at the initial rating when `from` is 0. A bot that
/// joined after the stored ratings has none, and no rated match yet.
fn resumed_elo(store: &Store, ladder: i64, n: usize, from: u32) -> Result<EloLadder, Error> {
    let config = EloConfig::default();
    if from == 0 {
        return Ok(EloLadder::new(n, config)?);
    }
    let mut ratings = vec![config.initial; n];
    for (position, rating, _) in store.ratings().get(ladder, System::Elo.key())? {
        if let Some(r) = ratings.get_mut(position) {
            *r = rating;
        }
    }
    Ok(EloLadder::from_ratings(ratings, vec![0; n], config)?)
}

/// Bradley-Terry (two seats) or Weng-Lin (more) over every rated match
/// before `end`, saved.
fn fit_slower_systems(
    store: &Store,
    ladder: i64,
    players: u32,
    n: usize,
    end: u32,
) -> Result<(), Error> {
    let (system, rows) = fit_slower_systems_of(store, ladder, players, n, end)?;
    store.ratings().save(ladder, system.key(), &rows)?;
    Ok(())
}

/// The ratings of [`fit_slower_systems`], not saved: each bot's position,
/// rating and interval.
fn fit_slower_systems_of(
    store: &Store,
    ladder: i64,
    players: u32,
    n: usize,
    end: u32,
) -> Result<(System, Vec<RatingRow>), Error> {
    let games: Vec<GameResult> = rated_games_before(store, ladder, end)?
        .into_iter()
        .map(|(_, g)| g)
        .collect();
    Ok(match System::ranking(players) {
        System::BradleyTerry => {
            let bt = bradley_terry::fit(n, &games, Default::default())?;
            let rows = (0..n).map(|i| (i, bt.ratings[i], bt.ci95(i))).collect();
            (System::BradleyTerry, rows)
        }
        _ => {
            let mut wl = weng_lin::WengLinLadder::new(n, Default::default())?;
            wl.apply_all(&games)?;
            let rows = wl
                .ratings()
                .iter()
                .enumerate()
                .map(|(i, s)| (i, s.ordinal(), 3.0 * s.sigma))
                .collect();
            (System::WengLin, rows)
        }
    })
}

/// A ladder's Elo ratings, stored and recomputed from its stored schedule
/// and results alone.
#[derive(Debug, Clone, PartialEq)]
pub struct Recomputed {
    pub ladder: i64,
    pub game: String,
    /// The matches the ratings cover, and how many of them are rated
    /// (void and aborted ones are not).
    pub covered: u32,
    pub rated: usize,
    /// Every ladder bot, by position: the stored rating (if any) and the
    /// recomputed one.
    pub bots: Vec<(BotRecord, Option<f64>, f64)>,
}

impl Recomputed {
    /// How many stored ratings differ from the recomputed ones, bit for bit.
    pub fn differ(&self) -> usize {
        self.bots
            .iter()
            .filter(|(_, stored, computed)| {
                stored.is_some_and(|s| s.to_bits() != computed.to_bits())
            })
            .count()
    }
}

/// Recomputes the Elo ratings of a ladder from its stored schedule and
/// results alone, over the matches its stored ratings cover: `ladder`, or
/// else the continuous ladder of `game` if it has one, or else the latest
/// ladder (of `game` if given).
pub fn recompute(
    store: &Store,
    ladder: Option<i64>,
    game: Option<&str>,
) -> Result<Recomputed, Error> {
    let ladders = store.ladders();
    let ladder = match (ladder, game) {
        (None, Some(g)) => match ladders.continuous(g)? {
            Some(id) => id,
            None => ladders.pick(None, Some(g))?,
        },
        _ => ladders.pick(ladder, game)?,
    };
    // Under the rating lock: a worker that applies ratings meanwhile would
    // otherwise move the stored ratings between the reads.
    store.with_rating_lock(ladder, |store| recompute_locked(store, ladder))
}

fn recompute_locked(store: &Store, ladder: i64) -> Result<Recomputed, Error> {
    let record = store.ladders().get(ladder)?;
    if record.kind == CHALLENGE_KIND {
        return Err(Error::Unrated { ladder });
    }
    let games: Vec<_> = rated_games_before(store, ladder, record.rated_through)?
        .into_iter()
        .map(|(_, game)| game)
        .collect();
    recomputed(store, record, &games)
}

/// The ladder's stored Elo beside the Elo of `games`, its rated games
/// before its `rated_through` in schedule order, as [`recompute`] compares
/// them: what `integrity::check` compares too, from games it has read
/// already (in its own snapshot, without the rating lock).
pub(crate) fn recomputed(
    store: &Store,
    record: LadderRecord,
    games: &[GameResult],
) -> Result<Recomputed, Error> {
    let ladder = record.id;
    let computed = elo::elo_ratings(record.bots.len(), games, Default::default())?;
    let stored = store.ratings().get(ladder, System::Elo.key())?;
    Ok(Recomputed {
        ladder,
        game: record.game,
        covered: record.rated_through,
        rated: games.len(),
        bots: record
            .bots
            .into_iter()
            .enumerate()
            .map(|(p, b)| {
                (
                    b,
                    stored.iter().find(|r| r.0 == p).map(|r| r.1),
                    computed[p],
                )
            })
            .collect(),
    })
}
