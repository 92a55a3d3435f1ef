//! What happened in a match, seat by seat, in a few numbers and words: the
//! place, the final score, refusals and faults. `ludus play` and
//! `ludus replay show` print it; it reads only the replay, so a foreign or
//! unfinished replay summarises too.

use crate::replay::Replay;
use std::collections::BTreeMap;

/// One seat's part of the match.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatSummary {
    pub seat: usize,
    pub name: String,
    /// `None` when the match has no outcome (aborted).
    pub place: Option<u32>,
    /// The outcome's score, or the last turn's running score of an
    /// unfinished match; in the game's unit ([`Summary::score_unit`]).
    pub score: Option<f64>,
    /// Parts of answers the game refused, over the match.
    pub refused: usize,
    /// Turns with a fault, by fault kind.
    pub faults: BTreeMap<String, usize>,
    /// The turn from which the seat was out of the match (too many faults in a row).
    pub out_from: Option<u32>,
    /// The first fault: its turn and its message.
    pub first_fault: Option<(u32, String)>,
}

impl SeatSummary {
    /// `none`, or `3× out_of_fuel, 1× trap (out from turn 12)`.
    pub fn faults_text(&self) -> String {
        let mut text = if self.faults.is_empty() {
            "none".to_string()
        } else {
            self.faults
                .iter()
                .map(|(kind, n)| format!("{n}× {kind}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if let Some(t) = self.out_from {
            text.push_str(&format!(" (out from turn {t})"));
        }
        text
    }
}

/// A match in brief.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// What the game's score counts (`ships`, `kore`, ...), or `score` for
    /// a game this Ludus does not host.
    pub score_unit: &'static str,
    pub seats: Vec<SeatSummary>,
    /// Why the match ended, or that it was aborted or is unfinished.
    pub result: String,
}

impl Replay {
    /// The match in brief.
    pub fn summary(&self) -> Summary {
        let last_scores = self.turns.last().map(|t| &t.scores);
        let seats = self
            .seats
            .iter()
            .enumerate()
            .map(|(seat, info)| {
                let turns = self
                    .turns
                    .iter()
                    .filter_map(|t| Some((t.turn, t.seats.get(seat)?)));
                let mut faults = BTreeMap::new();
                let mut first_fault = None;
                let mut refused = 0;
                let mut out_from = None;
                for (turn, s) in turns {
                    refused += s.refused.len();
                    if let Some(f) = &s.fault {
                        *faults.entry(f.kind.to_string()).or_default() += 1;
                        first_fault.get_or_insert_with(|| (turn, f.to_string()));
                    }
                    if s.out && out_from.is_none() {
                        out_from = Some(turn);
                    }
                }
                let (place, score) = match &self.outcome {
                    Some(o) => (o.placements.get(seat).copied(), o.scores.get(seat).copied()),
                    None => (None, last_scores.and_then(|s| s.get(seat).copied())),
                };
                SeatSummary {
                    seat,
                    name: info.name.clone(),
                    place,
                    score,
                    refused,
                    faults,
                    out_from,
                    first_fault,
                }
            })
            .collect();
        let result = match (&self.outcome, &self.aborted) {
            (_, Some(why)) => format!("aborted, not scored: {why}"),
            (Some(o), None) => o.reason.clone(),
            (None, None) => "unfinished".into(),
        };
        Summary {
            score_unit: ludus_engine::registry::info(&self.game).map_or("score", |g| g.score_unit),
            seats,
            result,
        }
    }
}
