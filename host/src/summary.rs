//! What happened in a match, seat by seat, in a few numbers and words: the
//! place, the final score (and, where the game's running score counts
//! something else, that too: Planet Wars' ships), refusals and faults.
//! `ludus play` and `ludus replay show` print it; it reads only the replay,
//! so a foreign or unfinished replay summarises too.

use crate::replay::{Refusal, Replay};
use std::collections::BTreeMap;

/// One seat's part of the match.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatSummary {
    pub seat: usize,
    pub name: String,
    /// `None` when the match has no outcome (aborted).
    pub place: Option<u32>,
    /// The outcome's score, in the game's unit ([`Summary::score_unit`]);
    /// of an unfinished match, the last turn's running score where that is
    /// in the same unit (no [`Summary::progress_unit`]), else `None`.
    pub score: Option<f64>,
    /// The last turn's running score, where the game's counts something
    /// other than its score (in [`Summary::progress_unit`]: Planet Wars'
    /// ships at the end); `None` for the other games.
    pub progress: Option<f64>,
    /// Parts of answers the game refused, over the match.
    pub refused: usize,
    /// Those refusals by kind, in the order the kinds were first refused.
    pub refusals: Vec<(String, usize)>,
    /// The first refusal: its turn and the refusal, with its reason.
    pub first_refusal: Option<(u32, Refusal)>,
    /// The turns with a refusal, in order.
    pub refusal_turns: Vec<u32>,
    /// Turns with a fault, by fault kind.
    pub faults: BTreeMap<String, usize>,
    /// The turn from which the seat was out of the match (too many faults in a row).
    pub out_from: Option<u32>,
    /// The first fault: its turn and its message.
    pub first_fault: Option<(u32, String)>,
    /// The turns with a fault, in order.
    pub fault_turns: Vec<u32>,
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

    /// `none`, or `12× no_such_planet, 1× not_enough_ships`.
    pub fn refusals_text(&self) -> String {
        if self.refusals.is_empty() {
            return "none".into();
        }
        self.refusals
            .iter()
            .map(|(kind, n)| format!("{n}× {kind}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Turn numbers in order as ranges: `1–10, 12, 15–20`.
pub fn turn_ranges(turns: &[u32]) -> String {
    let mut ranges: Vec<(u32, u32)> = Vec::new();
    for &t in turns {
        match ranges.last_mut() {
            Some((_, end)) if t == *end + 1 => *end = t,
            Some((_, end)) if t == *end => {}
            _ => ranges.push((t, t)),
        }
    }
    ranges
        .iter()
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}–{b}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A match in brief.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// What the game's score counts, as tables head it (`share`, `kore`,
    /// ...), or `score` for a game this Ludus does not host.
    pub score_unit: &'static str,
    /// What the running score counts where it is not the score (Planet
    /// Wars: `ships`), heading [`SeatSummary::progress`]; `None` otherwise.
    pub progress_unit: Option<&'static str>,
    pub seats: Vec<SeatSummary>,
    /// Why the match ended, or that it was aborted or is unfinished.
    pub result: String,
}

impl Replay {
    /// The match in brief.
    pub fn summary(&self) -> Summary {
        let info = ludus_engine::registry::info(&self.game).ok();
        let progress_unit = info.and_then(|g| g.progress_unit);
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
                let mut fault_turns = Vec::new();
                let mut refused = 0;
                let mut refusals: Vec<(String, usize)> = Vec::new();
                let mut first_refusal = None;
                let mut refusal_turns = Vec::new();
                let mut out_from = None;
                for (turn, s) in turns {
                    refused += s.refused.len();
                    for r in &s.refused {
                        match refusals.iter_mut().find(|(kind, _)| *kind == r.kind) {
                            Some((_, n)) => *n += 1,
                            None => refusals.push((r.kind.clone(), 1)),
                        }
                        first_refusal.get_or_insert_with(|| (turn, r.clone()));
                    }
                    if !s.refused.is_empty() {
                        refusal_turns.push(turn);
                    }
                    if let Some(f) = &s.fault {
                        *faults.entry(f.kind.to_string()).or_default() += 1;
                        first_fault.get_or_insert_with(|| (turn, f.to_string()));
                        fault_turns.push(turn);
                    }
                    if s.out && out_from.is_none() {
                        out_from = Some(turn);
                    }
                }
                let running = last_scores.and_then(|s| s.get(seat).copied());
                let (place, score) = match &self.outcome {
                    Some(o) => (o.placements.get(seat).copied(), o.scores.get(seat).copied()),
                    None if progress_unit.is_none() => (None, running),
                    None => (None, None),
                };
                SeatSummary {
                    seat,
                    name: info.name.clone(),
                    place,
                    score,
                    progress: progress_unit.and(running),
                    refused,
                    refusals,
                    first_refusal,
                    refusal_turns,
                    faults,
                    out_from,
                    first_fault,
                    fault_turns,
                }
            })
            .collect();
        let result = match (&self.outcome, &self.aborted) {
            (_, Some(why)) => format!("aborted, not scored: {why}"),
            (Some(o), None) => o.reason.clone(),
            (None, None) => "unfinished".into(),
        };
        Summary {
            score_unit: info.map_or("score", |g| g.score_unit),
            progress_unit,
            seats,
            result,
        }
    }
}

/// Where to look first in a match: the earliest turn with a fault or a
/// refusal, and the first seat with one there (a fault before a refusal).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Finding {
    pub turn: u32,
    pub seat: usize,
    /// A fault, else a refusal.
    pub fault: bool,
}

impl Summary {
    /// The first fault or refusal of the match, if there is one.
    pub fn first_finding(&self) -> Option<Finding> {
        self.seats
            .iter()
            .flat_map(|s| {
                let fault = s.first_fault.as_ref().map(|(turn, _)| Finding {
                    turn: *turn,
                    seat: s.seat,
                    fault: true,
                });
                let refusal = s.first_refusal.as_ref().map(|(turn, _)| Finding {
                    turn: *turn,
                    seat: s.seat,
                    fault: false,
                });
                fault.into_iter().chain(refusal)
            })
            .min_by_key(|f| (f.turn, !f.fault, f.seat))
    }
}

#[cfg(test)]
mod tests {
    use super::turn_ranges;

    #[test]
    fn turns_in_a_row_read_as_ranges() {
        assert_eq!(turn_ranges(&[]), "");
        assert_eq!(turn_ranges(&[4]), "4");
        assert_eq!(turn_ranges(&[1, 2, 3, 5, 7, 8]), "1–3, 5, 7–8");
    }
}
