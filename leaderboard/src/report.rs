//! The leaderboard of a ladder, and its renderings: a terminal table, JSON,
//! CSV, Markdown and a static HTML page with links to every match's replay.

use crate::ladder::{LadderError, BRADLEY_TERRY, ELO, WENG_LIN};
use crate::store::Store;
use serde::Serialize;
use std::fmt::Write;

/// One bot's line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    pub rank: u32,
    pub bot: String,
    pub version: u32,
    pub sha256: String,
    /// The ranking rating: Bradley–Terry (Elo scale, mean 0) for two seats,
    /// Weng–Lin μ − 3σ for more.
    pub rating: f64,
    /// ± half-width of the 95% interval (Bradley–Terry), or 3σ (Weng–Lin).
    pub interval: f64,
    /// The running Elo, applied in schedule order.
    pub elo: f64,
    pub games: u32,
    /// First place alone.
    pub wins: u32,
    /// First place shared.
    pub draws: u32,
    pub losses: u32,
    /// Mean final score per game, in the game's own unit
    /// ([`Leaderboard::score_unit`]: ships, kore, halite, cells, points).
    pub score: f64,
    /// The share of result points won, in percent, 0 to 100 for every
    /// game: see [`result_points`].
    pub score_pct: f64,
    /// Turns with a fault, over all games.
    pub faults: u32,
}

/// One match, for the HTML page.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchLine {
    pub index: u32,
    pub seed: u64,
    pub seats: Vec<String>,
    pub placements: Vec<u32>,
    pub turns: u32,
    pub reason: String,
    pub match_id: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Leaderboard {
    pub ladder: i64,
    pub game: String,
    pub kind: String,
    pub players: u32,
    pub rounds: u32,
    pub seed: u64,
    /// Matches with a result / in the schedule.
    pub played: usize,
    pub scheduled: usize,
    pub rating_system: String,
    /// What the game's score counts, heading [`Row::score`].
    pub score_unit: String,
    pub rows: Vec<Row>,
    pub matches: Vec<MatchLine>,
}

/// The result points of `seat` in a match that ended in `placements`: the
/// share of its opponents it finished ahead of, a tie counting half. With
/// two seats that is 1 for a win, ½ for a draw and 0 for a loss; with four,
/// a lone first place is 1, a lone second ⅔, and four seats tied ½ each.
pub fn result_points(placements: &[u32], seat: usize) -> f64 {
    let Some(&mine) = placements.get(seat) else {
        return 0.0;
    };
    let opponents = placements.len().saturating_sub(1);
    if opponents == 0 {
        return 0.0;
    }
    let points: f64 = placements
        .iter()
        .enumerate()
        .filter(|&(other, _)| other != seat)
        .map(|(_, &theirs)| match mine.cmp(&theirs) {
            std::cmp::Ordering::Less => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Greater => 0.0,
        })
        .sum();
    points / opponents as f64
}

/// Builds the leaderboard of ladder `id` from the store.
pub fn leaderboard(store: &Store, id: i64) -> Result<Leaderboard, LadderError> {
    let record = store.ladder(id)?;
    let schedule = store.schedule(id)?;
    let results = store.results(id)?;
    let n = record.bots.len();
    let system = if record.players == 2 {
        BRADLEY_TERRY
    } else {
        WENG_LIN
    };
    let ranking = store.ratings(id, system)?;
    let elo = store.ratings(id, ELO)?;
    let mut rows: Vec<Row> = record
        .bots
        .iter()
        .enumerate()
        .map(|(i, b)| Row {
            rank: 0,
            bot: b.name.clone(),
            version: b.version,
            sha256: b.sha256.clone(),
            rating: ranking.get(i).map_or(0.0, |r| r.1),
            interval: ranking.get(i).map_or(0.0, |r| r.2),
            elo: elo.get(i).map_or(0.0, |r| r.1),
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            score: 0.0,
            score_pct: 0.0,
            faults: 0,
        })
        .collect();
    let mut score_sum = vec![0.0; n];
    let mut points_sum = vec![0.0; n];
    for r in results.iter().filter(|r| r.aborted.is_none()) {
        let seats = &schedule[r.index as usize].seats;
        let firsts = r.placements.iter().filter(|&&p| p == 1).count();
        for (seat, &bot) in seats.iter().enumerate() {
            let row = &mut rows[bot];
            row.games += 1;
            row.faults += r.faults.get(seat).copied().unwrap_or(0);
            match r.placements.get(seat) {
                Some(1) if firsts == 1 => row.wins += 1,
                Some(1) => row.draws += 1,
                _ => row.losses += 1,
            }
            score_sum[bot] += r.scores.get(seat).copied().unwrap_or(0.0);
            points_sum[bot] += result_points(&r.placements, seat);
        }
    }
    for (i, row) in rows.iter_mut().enumerate() {
        if row.games > 0 {
            row.score = score_sum[i] / row.games as f64;
            row.score_pct = 100.0 * points_sum[i] / row.games as f64;
        }
    }
    rows.sort_by(|a, b| {
        b.rating
            .total_cmp(&a.rating)
            .then_with(|| a.bot.cmp(&b.bot))
    });
    for (i, row) in rows.iter_mut().enumerate() {
        row.rank = i as u32 + 1;
    }
    let matches = results
        .iter()
        .map(|r| {
            let m = &schedule[r.index as usize];
            MatchLine {
                index: r.index,
                seed: m.seed,
                seats: m
                    .seats
                    .iter()
                    .map(|&b| record.bots[b].name.clone())
                    .collect(),
                placements: r.placements.clone(),
                turns: r.turns,
                reason: r.aborted.clone().unwrap_or_else(|| r.reason.clone()),
                match_id: r.match_id.clone(),
            }
        })
        .collect();
    let score_unit = ludus_engine::registry::info(&record.game)
        .map_or("score", |g| g.score_unit)
        .to_string();
    Ok(Leaderboard {
        ladder: id,
        game: record.game,
        kind: record.kind,
        players: record.players,
        rounds: record.rounds,
        seed: record.seed,
        played: results.len(),
        scheduled: schedule.len(),
        rating_system: if system == BRADLEY_TERRY {
            "Bradley–Terry (Elo scale, ± 95% interval)".into()
        } else {
            "Weng–Lin μ − 3σ (± 3σ)".into()
        },
        score_unit,
        rows,
        matches,
    })
}

/// A scheduled match of a ladder and, once played, its result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ListedMatch {
    pub index: u32,
    pub seed: u64,
    /// Bot names, in seat order.
    pub seats: Vec<String>,
    /// `None` until the match is played.
    pub played: Option<Played>,
}

/// What a played match came to.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Played {
    pub placements: Vec<u32>,
    pub turns: u32,
    /// Why it ended, or why it was aborted.
    pub reason: String,
    pub match_id: String,
}

/// Every scheduled match of ladder `id`, in schedule order; only those
/// with bot `bot` in a seat when it is given.
pub fn list_matches(
    store: &Store,
    id: i64,
    bot: Option<&str>,
) -> Result<Vec<ListedMatch>, LadderError> {
    let record = store.ladder(id)?;
    if let Some(name) = bot {
        if !record.bots.iter().any(|b| b.name == name) {
            return Err(LadderError::NotInLadder {
                ladder: id,
                name: name.into(),
                bots: record
                    .bots
                    .iter()
                    .map(|b| b.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
    }
    Ok(store
        .matches(id)?
        .into_iter()
        .map(|(m, result)| ListedMatch {
            index: m.index,
            seed: m.seed,
            seats: m
                .seats
                .iter()
                .map(|&b| record.bots[b].name.clone())
                .collect(),
            played: result.map(|r| Played {
                placements: r.placements,
                turns: r.turns,
                reason: r.aborted.unwrap_or(r.reason),
                match_id: r.match_id,
            }),
        })
        .filter(|m| bot.is_none_or(|name| m.seats.iter().any(|s| s == name)))
        .collect())
}

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Table,
    Json,
    Csv,
    Markdown,
    Html,
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s {
            "table" => Format::Table,
            "json" => Format::Json,
            "csv" => Format::Csv,
            "markdown" | "md" => Format::Markdown,
            "html" => Format::Html,
            other => {
                return Err(format!(
                    "unknown format `{other}`; use table, json, csv, markdown or html"
                ))
            }
        })
    }
}

/// Columns of the table, CSV aside; `SCORE` is headed with the game's unit.
const COLUMNS: usize = 12;
const SCORE: usize = 9;
const HEADERS: [&str; COLUMNS] = [
    "rank", "bot", "rating", "±", "elo", "games", "wins", "draws", "losses", "score", "score %",
    "faults",
];

fn cells(r: &Row) -> [String; COLUMNS] {
    [
        r.rank.to_string(),
        format!("{} v{}", r.bot, r.version),
        format!("{:.1}", r.rating),
        format!("{:.1}", r.interval),
        format!("{:.0}", r.elo),
        r.games.to_string(),
        r.wins.to_string(),
        r.draws.to_string(),
        r.losses.to_string(),
        format!("{:.1}", r.score),
        format!("{:.1}", r.score_pct),
        r.faults.to_string(),
    ]
}

impl Leaderboard {
    /// The column headers, the score column named after the game's unit.
    pub fn headers(&self) -> [&str; COLUMNS] {
        let mut h = HEADERS;
        h[SCORE] = &self.score_unit;
        h
    }

    /// What the score columns mean, for a line under the table.
    pub fn legend(&self) -> String {
        format!(
            "{}: mean final {} per game; score %: share of result points (win 1, draw ½, loss 0; \
             with more seats, the share of opponents finished ahead of, a tie counting half)",
            self.score_unit, self.score_unit
        )
    }

    pub fn title(&self) -> String {
        format!(
            "{} {} ladder {} ({} seats, {} rounds, seed {}): {}/{} matches played",
            self.game,
            self.kind,
            self.ladder,
            self.players,
            self.rounds,
            self.seed,
            self.played,
            self.scheduled
        )
    }

    /// Renders in a text `format`; `None` for [`Format::Html`], whose page
    /// (with each match's replay page) the viewer writes.
    pub fn render(&self, format: Format) -> Option<String> {
        Some(match format {
            Format::Table => self.table(),
            Format::Json => serde_json::to_string_pretty(self).expect("serialises") + "\n",
            Format::Csv => self.csv(),
            Format::Markdown => self.markdown(),
            Format::Html => return None,
        })
    }

    fn table(&self) -> String {
        let headers = self.headers();
        let rows: Vec<[String; COLUMNS]> = self.rows.iter().map(cells).collect();
        let width = |i: usize| {
            rows.iter()
                .map(|r| r[i].chars().count())
                .chain([headers[i].chars().count()])
                .max()
                .unwrap_or(0)
        };
        let widths: Vec<usize> = (0..COLUMNS).map(width).collect();
        let mut out = format!("{}\nrated by {}\n", self.title(), self.rating_system);
        let line = |cells: &[String]| {
            cells
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    if i == 1 {
                        format!("{c:<w$}", w = widths[i])
                    } else {
                        format!("{c:>w$}", w = widths[i])
                    }
                })
                .collect::<Vec<_>>()
                .join("  ")
        };
        out.push_str(&line(&headers.map(String::from)));
        out.push('\n');
        for r in &rows {
            out.push_str(&line(r));
            out.push('\n');
        }
        out.push_str(&self.legend());
        out.push('\n');
        out
    }

    fn csv(&self) -> String {
        let mut out = format!(
            "rank,bot,version,sha256,rating,interval,elo,games,wins,draws,losses,{},score_pct,faults\n",
            csv_field(&self.score_unit)
        );
        for r in &self.rows {
            let _ = writeln!(
                out,
                "{},{},{},{},{:.3},{:.3},{:.3},{},{},{},{},{:.3},{:.3},{}",
                r.rank,
                csv_field(&r.bot),
                r.version,
                r.sha256,
                r.rating,
                r.interval,
                r.elo,
                r.games,
                r.wins,
                r.draws,
                r.losses,
                r.score,
                r.score_pct,
                r.faults
            );
        }
        out
    }

    fn markdown(&self) -> String {
        let mut out = format!(
            "## {}\n\nRated by {}.\n\n",
            self.title(),
            self.rating_system
        );
        out.push_str(&format!("| {} |\n", self.headers().join(" | ")));
        out.push_str(&format!("|{}\n", "---|".repeat(COLUMNS)));
        for r in &self.rows {
            let c = cells(r).map(|c| c.replace('|', "\\|"));
            out.push_str(&format!("| {} |\n", c.join(" | ")));
        }
        out.push_str(&format!("\n{}\n", self.legend()));
        out
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::result_points;

    #[test]
    fn result_points_are_one_for_a_win_half_for_a_draw_and_by_place_for_more_seats() {
        assert_eq!(result_points(&[1, 2], 0), 1.0);
        assert_eq!(result_points(&[1, 2], 1), 0.0);
        assert_eq!(result_points(&[1, 1], 0), 0.5);
        // Four seats: the share of opponents finished ahead of, ties half.
        assert_eq!(result_points(&[1, 2, 3, 4], 1), 2.0 / 3.0);
        assert_eq!(result_points(&[1, 1, 3, 4], 0), 2.5 / 3.0);
        assert_eq!(result_points(&[1, 1, 1, 1], 2), 0.5);
        assert_eq!(result_points(&[2, 1, 2, 4], 3), 0.0);
        // A foreign result with too few places counts nothing, never panics.
        assert_eq!(result_points(&[1], 3), 0.0);
    }
}
