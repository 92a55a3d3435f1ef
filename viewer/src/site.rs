//! The leaderboard page and the site around it: the table, each bot's
//! matches, and a replay page for every match.

use crate::page::{html_page, replay_page, Embed};
use ludus_host::{short_id, Replay};
use ludus_leaderboard::report::{Leaderboard, MatchLine};
use maud::{html, Markup};
use std::path::{Path, PathBuf};

/// Where a match's files go, relative to the leaderboard page.
pub fn replay_page_link(match_id: &str) -> String {
    format!("replays/{match_id}.html")
}

/// Where a match's replay file goes, relative to the leaderboard page.
pub fn replay_file_link(match_id: &str) -> String {
    format!("replays/{match_id}.json")
}

/// The leaderboard page: the table, then each bot's matches, then every
/// match; each match links to its replay page and its replay file.
pub fn leaderboard_page(lb: &Leaderboard) -> String {
    let title = lb.title();
    html_page(
        &title,
        html! {
            body class="board-page" {
                main class="leaderboard" {
                    h1 { (title) }
                    p { "Rated by " (lb.rating_system) "." }
                    table class="ranking" {
                        caption { "Leaderboard" }
                        thead {
                            tr {
                                @for (i, h) in lb.headers().iter().enumerate() {
                                    th class=[(i == 1).then_some("l")] { (h) }
                                }
                            }
                        }
                        tbody {
                            @for r in &lb.rows {
                                tr {
                                    td { (r.rank) }
                                    td class="l" {
                                        a href={ "#bot-" (anchor(&r.bot)) } { (r.bot) " v" (r.version) }
                                        " "
                                        code title={ "sha256 " (r.sha256) } { (short_id(&r.sha256)) }
                                    }
                                    // The cells every leaderboard shows, after rank and bot.
                                    @for cell in &r.cells()[2..] {
                                        td { (cell) }
                                    }
                                }
                            }
                        }
                    }
                    p class="legend" { (lb.legend()) }
                    @for r in &lb.rows {
                        @let mine: Vec<&MatchLine> = lb
                            .matches
                            .iter()
                            .filter(|m| m.seats.contains(&r.bot))
                            .collect();
                        section class="bot-matches" id={ "bot-" (anchor(&r.bot)) } {
                            h2 { (r.bot) " v" (r.version) ": " (mine.len()) " matches" }
                            (match_table(&mine, Some(&r.bot)))
                        }
                    }
                    section {
                        h2 { "Every match" }
                        (match_table(&lb.matches.iter().collect::<Vec<_>>(), None))
                    }
                }
            }
        },
    )
}

/// A table of `matches`; with `bot`, its name in bold and a column of its
/// places.
fn match_table(matches: &[&MatchLine], bot: Option<&str>) -> Markup {
    html! {
        table class="matches" {
            thead {
                tr {
                    th { "#" }
                    th { "seed" }
                    th class="l" { "seats (place)" }
                    @if bot.is_some() {
                        th { "place" }
                    }
                    th { "turns" }
                    th class="l" { "result" }
                    th class="l" { "watch" }
                }
            }
            tbody {
                @for m in matches {
                    tr {
                        td { (m.index) }
                        td { (m.seed) }
                        td class="l" {
                            @for (i, seat) in m.seats.iter().enumerate() {
                                @if i > 0 { " vs " }
                                @if Some(seat.as_str()) == bot { b { (seat) } } @else { (seat) }
                                @if let Some(place) = m.placements.get(i) { " (" (place) ")" }
                            }
                        }
                        @if let Some(bot) = bot {
                            @let places: Vec<String> = m
                                .seats
                                .iter()
                                .zip(&m.placements)
                                .filter(|(s, _)| s.as_str() == bot)
                                .map(|(_, p)| p.to_string())
                                .collect();
                            td { (places.join(", ")) }
                        }
                        td { (m.turns) }
                        td class="l" { (m.reason) }
                        td class="l" {
                            a href=(replay_page_link(&m.match_id)) { "replay " (short_id(&m.match_id)) }
                            " "
                            a class="raw" href=(replay_file_link(&m.match_id)) { "json" }
                        }
                    }
                }
            }
        }
    }
}

/// An HTML id from a bot name (names may hold anything).
fn anchor(name: &str) -> String {
    name.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("_{b:02x}")
            }
        })
        .collect()
}

#[derive(Debug, thiserror::Error)]
pub enum SiteError {
    #[error("{0}: {1}")]
    Io(PathBuf, std::io::Error),
    #[error("match {0}: {1}")]
    Replay(String, String),
}

/// What [`write_site`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteSummary {
    pub index: PathBuf,
    /// Matches with a replay page.
    pub pages: usize,
    /// Notes about single pages (e.g. a board that cannot be drawn).
    pub notes: Vec<String>,
}

/// Writes the leaderboard site into `dir`: `index.html`, and for every
/// match `replays/<id>.json` (the replay) and `replays/<id>.html` (its page).
/// `replay` fetches a match's replay by id (`None`: none stored).
pub fn write_site(
    dir: &Path,
    lb: &Leaderboard,
    mut replay: impl FnMut(&str) -> Result<Option<Replay>, String>,
) -> Result<SiteSummary, SiteError> {
    let replays = dir.join("replays");
    std::fs::create_dir_all(&replays).map_err(|e| SiteError::Io(replays.clone(), e))?;
    let mut pages = 0;
    let mut notes = Vec::new();
    for m in &lb.matches {
        let Some(r) = replay(&m.match_id).map_err(|e| SiteError::Replay(m.match_id.clone(), e))?
        else {
            continue;
        };
        let file = dir.join(replay_file_link(&m.match_id));
        r.save(&file)
            .map_err(|e| SiteError::Replay(m.match_id.clone(), e.to_string()))?;
        let (html, page_notes) = replay_page(&r, Embed::Auto);
        let path = dir.join(replay_page_link(&m.match_id));
        std::fs::write(&path, html).map_err(|e| SiteError::Io(path.clone(), e))?;
        notes.extend(
            page_notes
                .into_iter()
                .map(|n| format!("{}: {n}", path.display())),
        );
        pages += 1;
    }
    let index = dir.join("index.html");
    std::fs::write(&index, leaderboard_page(lb)).map_err(|e| SiteError::Io(index.clone(), e))?;
    Ok(SiteSummary {
        index,
        pages,
        notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludus_leaderboard::report::{Results, Row};

    /// Two bots, `name` first, and their match.
    fn fixture(name: &str) -> Leaderboard {
        let row = |bot: &str, rank| Row {
            rank,
            bot: bot.into(),
            version: 1,
            sha256: "ab".repeat(32),
            rating: 12.34,
            interval: 5.0,
            elo: 1500.4,
            games: 1,
            owner: None,
            house: false,
            results: Some(Results {
                wins: 2 - rank,
                draws: 0,
                losses: rank - 1,
                score: 3.0,
                score_pct: 50.0,
                faults: 0,
                refused: Some(0),
            }),
        };
        Leaderboard {
            ladder: Some(1),
            game: "planet-wars".into(),
            kind: "round-robin".into(),
            players: 2,
            rounds: 1,
            seed: 7,
            played: 1,
            scheduled: 1,
            rated: 1,
            rating_system: "Elo".into(),
            score_unit: "ships".into(),
            rows: vec![row(name, 1), row("plain", 2)],
            matches: vec![MatchLine {
                index: 0,
                seed: 7,
                seats: vec![name.into(), "plain".into()],
                placements: vec![1, 2],
                turns: 10,
                reason: "<i>won</i>".into(),
                match_id: "cd".repeat(32),
            }],
        }
    }

    #[test]
    fn a_bot_name_is_text_in_the_leaderboard_page() {
        let name = r#"<b>"Tom" & Jerry's</b>"#;
        let page = leaderboard_page(&fixture(name));
        // `'` stays as it is: every attribute is quoted with `"`.
        let escaped = "&lt;b&gt;&quot;Tom&quot; &amp; Jerry's&lt;/b&gt;";
        assert!(!page.contains(name), "{page}");
        let anchor = anchor(name);
        assert!(page.contains(&format!("<a href=\"#bot-{anchor}\">{escaped} v1</a>")));
        assert!(page.contains(&format!(
            "id=\"bot-{anchor}\"><h2>{escaped} v1: 1 matches</h2>"
        )));
        assert!(page.contains(&format!("<b>{escaped}</b> (1) vs plain (2)")));
        assert!(page.contains("&lt;i&gt;won&lt;/i&gt;"));
    }
}
