//! Elo over a ladder's rated matches in schedule order, keeping every
//! seat's rating after each match: the history the bots' pages draw, and
//! each bot's count of rated matches.

use super::elo::EloLadder;
use super::{GameResult, RatingError};
use std::collections::BTreeSet;

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
    let mut elo = EloLadder::new(bots, Default::default())?;
    let mut history = EloHistory {
        ratings: Vec::new(),
        after: Vec::new(),
        rated: vec![0; bots],
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
