//! The games and a game's live leaderboard.

use super::{layout, needs, pager, url_part, Frame, HOUSE_TITLE};
use crate::dto::{GameSummary, LeaderboardPage, RowRecord};
use axum::response::Html;
use ludus_host::numbers::fixed;
use maud::{html, Markup, PreEscaped};

/// The games, with the size of each one's ladder and where to start.
pub fn games(frame: &Frame, games: &[GameSummary]) -> Html<String> {
    layout(
        frame,
        "Games",
        html! {
            p {
                "Bots written in any language that builds WebAssembly play these games against each other. "
                "Pick a game, read its rules and how to start a bot, then "
                a href="/upload" { "upload yours" } "."
            }
            div.scroll {
                table {
                    tr { th { "game" } th { "seats" } th.num { "bots" } th.num { "rated matches" } th { "" } th { "rules" } }
                    @for g in games {
                        tr {
                            td { a href={ "/games/" (url_part(&g.id)) } { (g.id) } }
                            td { (g.seats.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", ")) }
                            td.num { (g.bots) }
                            td.num { (g.rated) }
                            td { (g.summary) }
                            td { a href={ "/games/" (url_part(&g.id)) "/rules" } { "rules, first bot" } }
                        }
                    }
                }
            }
        },
    )
}

/// Rebuilds the table from the API every two seconds, the same columns as
/// the page writes; `textContent` only, so no name can become markup.
pub(crate) const POLL: &str = r#"
(function () {
  const table = document.getElementById('board');
  const status = document.getElementById('status');
  const needs = document.getElementById('needs');
  const paused = document.getElementById('paused');
  // As the server writes numbers: never "-0".
  function fixed(value, digits) {
    const text = value.toFixed(digits);
    return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
  }
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
      const body = table.tBodies[0];
      while (body.rows.length > 0) body.deleteRow(0);
      lb.rows.forEach(function (row, i) {
        const record = (lb.records || [])[i] || {};
        const tr = body.insertRow();
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
        const rate = record.win_rate;
        for (const text of [
          fixed(row.rating, 1) + ' ± ' + fixed(row.interval, 1),
          fixed(row.elo, 0),
          String(row.games),
          rate === null || rate === undefined ? '–' : fixed(rate, 0) + '%',
        ]) {
          const cell = tr.insertCell(); cell.className = 'num'; cell.textContent = text;
        }
      });
    } catch (e) { /* the next poll tries again */ }
  }
  setInterval(refresh, 2000);
})();
"#;

/// A row's win rate as the table writes it: `62%`, or `–` before its
/// first rated match.
fn win_rate(record: Option<&RowRecord>) -> String {
    match record.and_then(|r| r.win_rate) {
        Some(rate) => format!("{}%", fixed(rate, 0)),
        None => "–".into(),
    }
}

/// What the columns of the board mean, under it.
fn legend(page: &LeaderboardPage) -> Markup {
    html! {
        p.legend {
            "rating: " (page.board.rating_system) "; Elo: the running Elo, in schedule order; "
            "matches: rated matches; win rate: matches won (first place alone) per rated match."
        }
    }
}

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
            p.links {
                a href={ (base) "/rules" } { "The rules, and how to start a bot" }
                " · "
                a href="/upload" { "Upload a bot" }
            }
            @if page.seasons.len() > 1 {
                nav #seasons aria-label="seasons" {
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
            div.scroll {
                table #board data-api={ "/api/games/" (url_part(&lb.game)) "/leaderboard?page=" (page.page) "&per_page=" (page.per_page) @if !named.is_empty() { "&" (named) } } data-house=(HOUSE_TITLE) {
                    thead {
                        tr {
                            th scope="col" { "#" } th scope="col" { "bot" } th scope="col" { "version" } th scope="col" { "owner" }
                            th.num scope="col" { "rating ±" } th.num scope="col" { "Elo" } th.num scope="col" { "matches" } th.num scope="col" { "win rate" }
                        }
                    }
                    tbody {
                        @for (i, r) in lb.rows.iter().enumerate() {
                            tr {
                                td { (r.rank) }
                                td {
                                    a href={ "/bots/" (url_part(&r.bot)) } { (r.bot) }
                                    @if r.house { span.house title=(HOUSE_TITLE) { "house" } }
                                }
                                td { "v" (r.version) }
                                td { (r.owner.as_deref().unwrap_or("")) }
                                td.num { (fixed(r.rating, 1)) " ± " (fixed(r.interval, 1)) }
                                td.num { (fixed(r.elo, 0)) }
                                td.num { (r.games) }
                                td.num { (win_rate(page.records.get(i))) }
                            }
                        }
                    }
                }
            }
            (legend(page))
            (pager(&here, page.page, page.per_page, page.total))
            script { (PreEscaped(POLL)) }
        },
    )
}
