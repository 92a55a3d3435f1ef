//! What a challenge's finished games say: the tested bot's outcome in
//! each, the pentanomial counts of its pairs, and the SPRT's verdict,
//! read in schedule order so that the workers' timing changes nothing.

use super::pairs::{pair_tables, Table};
use crate::ratings::Outcome;
use crate::sprt::{Hypothesis, Sprt};
use crate::store::{MatchResult, Store, StoreError};
use serde::{Deserialize, Serialize};
use std::fmt;

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

    pub(super) fn parse(s: &str) -> Verdict {
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
pub(super) fn outcome(result: &MatchResult, table: &Table) -> GameOutcome {
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
pub(super) struct Tally {
    pub(super) wins: u32,
    pub(super) draws: u32,
    pub(super) losses: u32,
    /// Pentanomial counts of the complete pairs without a void game.
    pub(super) counts: [u64; 5],
    /// The SPRT's decision, at the first pair where it decided.
    pub(super) decision: Option<Hypothesis>,
    /// The matches counted: those before this index.
    pub(super) counted: u32,
    /// Each counted game's outcome for the tested bot.
    pub(super) outcomes: Vec<GameOutcome>,
}

/// Tallies `results` (the finished prefix of the schedule, in order) for
/// a table of `players` seats and `opponents` opponents, stopping at the
/// pair where `sprt` decides.
pub(super) fn tally(
    results: &[MatchResult],
    players: usize,
    opponents: usize,
    sprt: Option<&Sprt>,
) -> Tally {
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
pub(super) fn finished(store: &Store, ladder: i64) -> Result<Vec<MatchResult>, StoreError> {
    let end = store.queue().finished_prefix(ladder)?;
    store.results().before(ladder, end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sprt::SprtConfig;

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
