//! The pages' markup, written with maud, which escapes every value it
//! writes: the layout around every page, the games, a game's live
//! leaderboard (refreshed from the API by a script of this server, which
//! writes names as text only), a bot's page with its rating chart, the
//! sign-in form and the error page.

use crate::dto::{BotView, GameSummary, LeaderboardPage};
use crate::error::ApiError;
use axum::response::Html;
use ludus_host::numbers::{count, fixed};
use ludus_leaderboard::store::SameBytes;
use maud::{html, Markup, PreEscaped, DOCTYPE};
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

pub(crate) const STYLE: &str = "body{font:15px/1.4 system-ui,sans-serif;margin:2em auto;max-width:60em;padding:0 1em;color:#222}\
table{border-collapse:collapse}td,th{padding:.25em .7em;border-bottom:1px solid #ddd;text-align:left}\
th{background:#f4f4f4}a{color:#05c}.num{text-align:right;font-variant-numeric:tabular-nums}\
nav a{margin-right:1em}svg{background:#fafafa;border:1px solid #ddd}\
.house{font-size:.75em;padding:0 .4em;margin-left:.4em;border:1px solid #999;border-radius:.6em;color:#555}";

/// What the mark of a house bot says when pointed at.
pub const HOUSE_TITLE: &str = "a bot of the server's house, so every game has opponents";

/// How many more bots `game` needs before its matches start, in a
/// sentence; `None` when it has enough. The page's script writes the same.
pub fn needs(game: &str, needs: u32, players: u32) -> Option<String> {
    (needs > 0).then(|| {
        format!(
            "{game} needs {needs} more bot{} before its matches start: a {} seats {players}.",
            if needs == 1 { "" } else { "s" },
            if players > 2 { "table" } else { "match" }
        )
    })
}

/// What a path segment keeps as it is: RFC 3986's unreserved characters.
const PATH_SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');

/// A path segment, percent-encoded: names may hold any character.
pub fn url_part(s: &str) -> String {
    utf8_percent_encode(s, PATH_SEGMENT).to_string()
}

pub fn layout(title: &str, body: Markup) -> Html<String> {
    Html(
        html! {
            (DOCTYPE)
            html lang="en" {
                head {
                    meta charset="utf-8";
                    meta name="viewport" content="width=device-width, initial-scale=1";
                    title { (title) " · Ludus" }
                    style { (PreEscaped(STYLE)) }
                }
                body {
                    nav { a href="/" { "Ludus" } a href="/signin" { "Sign in" } a href="/api/openapi.json" { "API" } }
                    h1 { (title) }
                    (body)
                }
            }
        }
        .into_string(),
    )
}

/// An error, as a page.
pub fn error(e: &ApiError) -> Html<String> {
    layout("Not available", html! { p { (e.to_string()) } })
}

/// The games, with the size of each one's ladder.
pub fn games(games: &[GameSummary]) -> Html<String> {
    layout(
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
pub fn game(page: &LeaderboardPage) -> Html<String> {
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

/// Links to the pages before and after page `number` of a list of `total`;
/// `base` may have a query of its own.
fn pager(base: &str, number: u32, per_page: u32, total: u32) -> Markup {
    let last = total.div_ceil(per_page).max(1);
    let base = match base.contains('?') {
        true => format!("{base}&"),
        false => format!("{base}?"),
    };
    html! {
        @if last > 1 {
            nav.pager {
                @if number > 1 {
                    a href={ (base) "page=" (number - 1) "&per_page=" (per_page) } { "← newer" }
                    " "
                }
                "page " (number.min(last)) " of " (last)
                @if number < last {
                    " "
                    a href={ (base) "page=" (number + 1) "&per_page=" (per_page) } { "older →" }
                }
            }
        }
    }
}

/// The rating over time as an SVG polyline, one point per rated match.
fn chart(view: &BotView) -> Markup {
    let points = &view.rating_history;
    if points.is_empty() {
        return html! { p { "No rated match yet." } };
    }
    let (w, h) = (600.0, 160.0);
    let lo = points
        .iter()
        .map(|p| p.rating)
        .fold(f64::INFINITY, f64::min)
        - 10.0;
    let hi = points
        .iter()
        .map(|p| p.rating)
        .fold(f64::NEG_INFINITY, f64::max)
        + 10.0;
    let n = points.len().max(2) - 1;
    let coords: Vec<String> = points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let x = i as f64 / n as f64 * w;
            let y = h - (p.rating - lo) / (hi - lo) * h;
            format!("{x:.1},{y:.1}")
        })
        .collect();
    html! {
        svg #rating width=(w) height=(h) viewBox={ "0 0 " (w) " " (h) } role="img" aria-label="rating over time" {
            polyline fill="none" stroke="#05c" stroke-width="2" points=(coords.join(" ")) {}
        }
        p { "Elo from " (fixed(lo, 0)) " to " (fixed(hi, 0)) " over " (count(points.len() as u64, "rated match", "rated matches")) "." }
    }
}

/// A bot's page: its versions, rating chart, recent matches, head to head;
/// and `same`, the bots of other accounts with the same bytes as one of
/// its versions, which only an operator is shown (empty for anyone else).
pub fn bot(v: &BotView, same: &[SameBytes]) -> Html<String> {
    layout(
        &format!("bot {}", v.name),
        html! {
            p {
                "Plays " a href={ "/games/" (url_part(&v.game)) } { (v.game) }
                @if let Some(o) = &v.owner { "; uploaded by " (o) }
                @if v.retired { "; retired" }
                ". Turns with a fault: " (v.fault_turns) "."
            }
            @for b in same {
                p.same {
                    "Same bytes as "
                    a href={ "/bots/" (url_part(&b.bot)) } { (b.bot) }
                    " (account " (b.account) ")."
                }
            }
            h2 { "Rating" }
            (chart(v))
            h2 { "Versions" }
            table {
                tr { th { "version" } th { "sha256" } th { "submitted" } th.num { "Elo" } }
                @for ver in &v.versions {
                    tr {
                        td { "v" (ver.version) }
                        td { code { (ver.sha256.get(..16).unwrap_or(&ver.sha256)) } }
                        td { (ver.submitted_at) }
                        td.num { (ver.rating.map(|r| fixed(r, 1)).unwrap_or_default()) }
                    }
                }
            }
            h2 { "Matches" }
            p { (v.matches) " played, " (v.rated_matches) " rated; newest first." }
            table {
                tr { th { "#" } th { "seats" } th { "placements" } th { "faults" } th { "ended" } }
                @for m in &v.recent {
                    tr {
                        td { a href={ "/matches/" (url_part(&m.match_id)) } { (m.index) } }
                        td { (m.seats.join(" vs ")) }
                        td { (m.placements.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(" / ")) }
                        td { (m.faults.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(" / ")) }
                        td { (m.aborted.as_deref().unwrap_or(&m.reason)) }
                    }
                }
            }
            (pager(&format!("/bots/{}", url_part(&v.name)), v.page, v.per_page, v.matches))
            h2 { "Head to head" }
            table {
                tr { th { "opponent" } th.num { "won" } th.num { "lost" } th.num { "drawn" } }
                @for o in &v.head_to_head {
                    tr {
                        td { a href={ "/bots/" (url_part(&o.opponent)) } { (o.opponent) } }
                        td.num { (o.wins) } td.num { (o.losses) } td.num { (o.draws) }
                    }
                }
            }
        },
    )
}

/// The sign-in form.
pub fn signin() -> Html<String> {
    layout(
        "Sign in",
        html! {
            p { "Sign in with your API token to see your bots' logs in their matches." }
            form method="post" action="/signin" {
                input type="password" name="token" placeholder="ludus_…" size="60" autocomplete="off";
                " " button type="submit" { "Sign in" }
            }
        },
    )
}
