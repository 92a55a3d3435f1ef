//! The games and a game's live leaderboard.

use super::{layout, needs, pager, url_part, Frame, HOUSE_TITLE};
use crate::dto::{GameSummary, LeaderboardPage};
use axum::response::Html;
use ludus_host::numbers::fixed;
use maud::{html, PreEscaped};

/// The games, with the size of each one's ladder.
pub fn games(frame: &Frame, games: &[GameSummary]) -> Html<String> {
    layout(
        frame,
        "Games",
        html! {
            table {
                tr { th { "game" } th { "seats" } th.num { "bots" } th.num { "rated matches" } th { "" } }
                @for g in games {
                    tr {
                        td { a href={ "/games/" (url_part(&g.id)) } { (g.id) } }
                        td { (g.seats.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", ")) }
                        td.num { (g.bots) }
                        td.num { (g.rated) }
                        td { (g.summary) }
                    }
                }
            }
        },
    )
}

/// Rebuilds the table from the API every two seconds; `textContent` only,
/// so no name can become markup.
pub(crate) const POLL: &str = r#"
(function () {
  const table = document.getElementById('board');
  const status = document.getElementById('status');
  const needs = document.getElementById('needs');
  const paused = document.getElementById('paused');
  async function refresh() {
    try {
      const r = await fetch(table.dataset.api, {headers: {'Accept': 'application/json'}});
      if (!r.ok) return;
      const lb = await r.json();
      status.textContent = lb.rated + ' of ' + lb.scheduled + ' scheduled matches rated';
      needs.hidden = lb.needs === 0;
      paused.hidden = !lb.paused;
      needs.textContent = lb.needs === 0 ? '' : lb.game + ' needs ' + lb.needs + ' more bot'
        + (lb.needs === 1 ? '' : 's') + ' before its matches start: a '
        + (lb.players > 2 ? 'table' : 'match') + ' seats ' + lb.players + '.';
      while (table.rows.length > 1) table.deleteRow(1);
      for (const row of lb.rows) {
        const tr = table.insertRow();
        tr.insertCell().textContent = row.rank;
        const a = document.createElement('a');
        a.href = '/bots/' + encodeURIComponent(row.bot);
        a.textContent = row.bot;
        const name = tr.insertCell();
        name.appendChild(a);
        if (row.house) {
          const mark = document.createElement('span');
          mark.className = 'house';
          mark.title = table.dataset.house;
          mark.textContent = 'house';
          name.appendChild(mark);
        }
        tr.insertCell().textContent = 'v' + row.version;
        tr.insertCell().textContent = row.owner || '';
        for (const [value, digits] of [[row.rating, 1], [row.interval, 1], [row.elo, 0], [row.games, 0]]) {
          const cell = tr.insertCell(); cell.className = 'num'; cell.textContent = value.toFixed(digits);
        }
      }
    } catch (e) { /* the next poll tries again */ }
  }
  setInterval(refresh, 2000);
})();
"#;

/// A game's live leaderboard, named after the system that ranks it.
pub fn game(frame: &Frame, page: &LeaderboardPage) -> Html<String> {
    let lb = &page.board;
    let base = format!("/games/{}", url_part(&lb.game));
    // A closed season's links name it; the open season's follow the game.
    let named = match (&page.season, page.open) {
        (Some(s), false) => format!("season={}", url_part(s)),
        _ => String::new(),
    };
    let here = match named.as_str() {
        "" => base.clone(),
        q => format!("{base}?{q}"),
    };
    layout(
        frame,
        &format!("{}: leaderboard", lb.game),
        html! {
            @if page.seasons.len() > 1 {
                nav #seasons {
                    "Seasons: "
                    @for s in &page.seasons {
                        @let label = if s.open { format!("{} (open)", s.name) } else { s.name.clone() };
                        @if page.season.as_deref() == Some(s.name.as_str()) {
                            strong { (label) }
                        } @else if s.open {
                            a href=(base) { (label) }
                        } @else {
                            a href={ (base) "?season=" (url_part(&s.name)) } { (label) }
                        }
                        " "
                    }
                }
            }
            @if let Some(season) = &page.season {
                p #season {
                    (season)
                    @if page.open { ", open" } @else { ", closed: its board as the season ended" }
                }
            }
            p #paused hidden[!page.paused] { "Paused by the operator: no new match is scheduled until it resumes." }
            p #status { (lb.rated) " of " (lb.scheduled) " scheduled matches rated" }
            p #needs hidden[page.needs == 0] { (needs(&lb.game, page.needs, lb.players).unwrap_or_default()) }
            p { "Ranked by " (lb.rating_system) "." }
            table #board data-api={ "/api/games/" (url_part(&lb.game)) "/leaderboard?page=" (page.page) "&per_page=" (page.per_page) @if !named.is_empty() { "&" (named) } } data-house=(HOUSE_TITLE) {
                tr { th { "#" } th { "bot" } th { "version" } th { "owner" } th.num { "rating" } th.num { "±" } th.num { "Elo" } th.num { "matches" } }
                @for r in &lb.rows {
                    tr {
                        td { (r.rank) }
                        td {
                            a href={ "/bots/" (url_part(&r.bot)) } { (r.bot) }
                            @if r.house { span.house title=(HOUSE_TITLE) { "house" } }
                        }
                        td { "v" (r.version) }
                        td { (r.owner.as_deref().unwrap_or("")) }
                        td.num { (fixed(r.rating, 1)) }
                        td.num { (fixed(r.interval, 1)) }
                        td.num { (fixed(r.elo, 0)) }
                        td.num { (r.games) }
                    }
                }
            }
            (pager(&here, page.page, page.per_page, page.total))
            script { (PreEscaped(POLL)) }
        },
    )
}
