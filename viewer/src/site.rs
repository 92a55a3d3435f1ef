//! The leaderboard page and the site around it: the table, each bot's
//! matches, and a replay page for every match.

use crate::page::{escape_html, replay_page, Embed};
use ludus_host::{short_id, Replay};
use ludus_leaderboard::report::{Leaderboard, MatchLine};
use std::fmt::Write;
use std::path::{Path, PathBuf};

const STYLE: &str = include_str!("../assets/viewer.css");

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
    let mut out = String::new();
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>{t}</title>\n<style>\n{STYLE}\n</style></head>\n<body class=\"board-page\">\n<main class=\"leaderboard\">\n\
<h1>{t}</h1>\n<p>Rated by {r}.</p>\n",
        t = escape_html(&title),
        r = escape_html(&lb.rating_system)
    );
    out.push_str("<table class=\"ranking\"><caption>Leaderboard</caption><thead><tr>");
    for (i, h) in lb.headers().iter().enumerate() {
        let class = if i == 1 { " class=\"l\"" } else { "" };
        let _ = write!(out, "<th{class}>{}</th>", escape_html(h));
    }
    out.push_str("</tr></thead><tbody>\n");
    for r in &lb.rows {
        let cells = r.cells();
        let _ = write!(
            out,
            "<tr><td>{}</td><td class=\"l\"><a href=\"#bot-{}\">{} v{}</a> <code title=\"sha256 {}\">{}</code></td>",
            r.rank,
            anchor(&r.bot),
            escape_html(&r.bot),
            r.version,
            escape_html(&r.sha256),
            escape_html(short_id(&r.sha256)),
        );
        for c in &cells[2..] {
            let _ = write!(out, "<td>{}</td>", escape_html(c));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table>\n");
    let _ = writeln!(out, "<p class=\"legend\">{}</p>", escape_html(&lb.legend()));

    for r in &lb.rows {
        let mine: Vec<&MatchLine> = lb
            .matches
            .iter()
            .filter(|m| m.seats.iter().any(|s| s == &r.bot))
            .collect();
        let _ = writeln!(
            out,
            "<section class=\"bot-matches\" id=\"bot-{}\"><h2>{} v{}: {} matches</h2>",
            anchor(&r.bot),
            escape_html(&r.bot),
            r.version,
            mine.len()
        );
        out.push_str(&match_table(&mine, Some(&r.bot)));
        out.push_str("</section>\n");
    }
    out.push_str("<section><h2>Every match</h2>\n");
    out.push_str(&match_table(&lb.matches.iter().collect::<Vec<_>>(), None));
    out.push_str("</section>\n</main>\n</body></html>\n");
    out
}

fn match_table(matches: &[&MatchLine], bot: Option<&str>) -> String {
    let mut out = String::from(
        "<table class=\"matches\"><thead><tr><th>#</th><th>seed</th><th class=\"l\">seats (place)</th>",
    );
    if bot.is_some() {
        out.push_str("<th>place</th>");
    }
    out.push_str(
        "<th>turns</th><th class=\"l\">result</th><th class=\"l\">watch</th></tr></thead><tbody>\n",
    );
    for m in matches {
        let seats = m
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let name = if Some(s.as_str()) == bot {
                    format!("<b>{}</b>", escape_html(s))
                } else {
                    escape_html(s)
                };
                match m.placements.get(i) {
                    Some(p) => format!("{name} ({p})"),
                    None => name,
                }
            })
            .collect::<Vec<_>>()
            .join(" vs ");
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{}</td><td class=\"l\">{seats}</td>",
            m.index, m.seed
        );
        if let Some(bot) = bot {
            let places: Vec<String> = m
                .seats
                .iter()
                .zip(&m.placements)
                .filter(|(s, _)| s.as_str() == bot)
                .map(|(_, p)| p.to_string())
                .collect();
            let _ = write!(out, "<td>{}</td>", places.join(", "));
        }
        let _ = writeln!(
            out,
            "<td>{}</td><td class=\"l\">{}</td><td class=\"l\"><a href=\"{}\">replay {}</a> \
<a class=\"raw\" href=\"{}\">json</a></td></tr>",
            m.turns,
            escape_html(&m.reason),
            escape_html(&replay_page_link(&m.match_id)),
            escape_html(short_id(&m.match_id)),
            escape_html(&replay_file_link(&m.match_id))
        );
    }
    out.push_str("</tbody></table>\n");
    out
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
