//! Elo over a ladder's rated matches in schedule order, keeping every
//! seat's rating after each match: the history the bots' pages draw, and
//! each bot's count of rated matches.

use super::elo::EloLadder;
use super::{rated_seat_of, GameResult, RatingError};
use crate::store::{RatedGame, RatedSeat};
use std::collections::{BTreeMap, BTreeSet};

/// Elo over a ladder's rated matches, in schedule order.
#[derive(Debug, Clone, PartialEq)]
pub struct EloHistory {
    /// Every bot's rating after the last match, by position.
    pub ratings: Vec<f64>,
    /// Per rated match from the first index asked for on: its index and
    /// each seat's rating after it.
    pub after: Vec<(u32, Vec<f64>)>,
    /// Every bot's number of rated matches, by position.
    pub rated: Vec<u32>,
}

/// Elo of `bots` bots over `rated` (index, game) in schedule order, applied
/// one at a time as [`super::elo::elo_ratings`] does, keeping each
/// seat's rating after every match with an index of `from` or more.
pub fn elo_history(
    bots: usize,
    rated: &[(u32, GameResult)],
    from: u32,
) -> Result<EloHistory, RatingError> {
    let elo = EloLadder::new(bots, Default::default())?;
    elo_history_from(elo, vec![0; bots], rated, from)
}

/// [`elo_history`] going on from `elo` (the ratings after the matches
/// before `rated`'s) and each bot's count of rated matches so far: Elo is
/// a sequential update, so this gives the same numbers, to the bit, as
/// applying every match from the start.
pub fn elo_history_from(
    mut elo: EloLadder,
    rated_so_far: Vec<u32>,
    rated: &[(u32, GameResult)],
    from: u32,
) -> Result<EloHistory, RatingError> {
    let mut history = EloHistory {
        ratings: Vec::new(),
        after: Vec::new(),
        rated: rated_so_far,
    };
    for (index, game) in rated {
        elo.apply(game)?;
        let mut seen = BTreeSet::new();
        for &p in &game.bots {
            // A bot seated twice plays one match.
            if seen.insert(p) {
                history.rated[p] += 1;
            }
        }
        if *index >= from {
            history
                .after
                .push((*index, game.bots.iter().map(|&p| elo.rating(p)).collect()));
        }
    }
    history.ratings = elo.ratings().to_vec();
    Ok(history)
}

/// The seats of the rated matches in `after` (each match's index and the
/// Elo after it of each seat of the game it rated), with their places and
/// faults from `games`. A bot seated several times was rated once
/// ([`crate::ratings::GameResult::of_seats`]): each of its seats gets its
/// Elo after the match, and keeps its own place and faults.
pub fn rated_seats(after: &[(u32, Vec<f64>)], games: &[RatedGame]) -> Vec<RatedSeat> {
    let by_index: BTreeMap<u32, &RatedGame> = games.iter().map(|g| (g.index, g)).collect();
    after
        .iter()
        .flat_map(|(index, elos)| {
            let game = by_index.get(index);
            // The seat of the rated game each seat's bot is rated in.
            let rated = match game {
                Some(g) => rated_seat_of(&g.seats),
                None => (0..elos.len()).collect(),
            };
            rated.into_iter().enumerate().filter_map(move |(seat, r)| {
                Some(RatedSeat {
                    index: *index,
                    seat,
                    elo: *elos.get(r)?,
                    place: game
                        .and_then(|g| g.placements.get(seat))
                        .copied()
                        .unwrap_or(0),
                    faults: game.and_then(|g| g.faults.get(seat)).copied().unwrap_or(0),
                })
            })
        })
        .collect()
}
