//! The pages, rendered here with maud (which escapes every value it
//! writes): games, each game's live leaderboard (polling the API, no script
//! from another host), bot pages with an SVG rating chart, match pages with
//! the replay viewer, and signing in (the token goes into an HttpOnly
//! cookie, so that a bot's owner sees its logs).

use crate::api::{self, BotView, Leaderboard};
use crate::{auth, ApiError, AppState};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::{Form, Router};
use maud::{html, Markup, PreEscaped, DOCTYPE};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(index))
        .route("/games/{game}", get(game_page))
        .route("/bots/{name}", get(bot_page))
        .route("/matches/{id}", get(match_page))
        .route("/signin", get(signin_form).post(signin))
        // Browsers ask for it on every page: no icon, and no 404 in their console.
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
}

const STYLE: &str = "body{font:15px/1.4 system-ui,sans-serif;margin:2em auto;max-width:60em;padding:0 1em;color:#222}\
table{border-collapse:collapse}td,th{padding:.25em .7em;border-bottom:1px solid #ddd;text-align:left}\
th{background:#f4f4f4}a{color:#05c}.num{text-align:right;font-variant-numeric:tabular-nums}\
nav a{margin-right:1em}svg{background:#fafafa;border:1px solid #ddd}";

/// A path segment, percent-encoded: names may hold any character.
pub fn url_part(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

fn layout(title: &str, body: Markup) -> Html<String> {
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

/// An error as a page, with the API's status.
fn error_page(e: ApiError) -> Response {
    let status = e.status();
    (
        status,
        layout("Not available", html! { p { (e.to_string()) } }),
    )
        .into_response()
}

async fn index(State(state): State<AppState>) -> Response {
    match state.with_store(api::game_list).await {
        Err(e) => error_page(e),
        Ok(games) => layout(
            "Games",
            html! {
                table {
                    tr { th { "game" } th { "seats" } th.num { "bots" } th.num { "rated matches" } th { "" } }
                    @for g in &games {
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
        .into_response(),
    }
}

/// Rebuilds the table from the API every two seconds; `textContent` only,
/// so no name can become markup.
const POLL: &str = r#"
(function () {
  const table = document.getElementById('board');
  const status = document.getElementById('status');
  async function refresh() {
    try {
      const r = await fetch(table.dataset.api, {headers: {'Accept': 'application/json'}});
      if (!r.ok) return;
      const lb = await r.json();
      status.textContent = lb.rated + ' of ' + lb.scheduled + ' scheduled matches rated';
      while (table.rows.length > 1) table.deleteRow(1);
      for (const row of lb.rows) {
        const tr = table.insertRow();
        tr.insertCell().textContent = row.rank;
        const a = document.createElement('a');
        a.href = '/bots/' + encodeURIComponent(row.name);
        a.textContent = row.name;
        tr.insertCell().appendChild(a);
        tr.insertCell().textContent = 'v' + row.version;
        tr.insertCell().textContent = row.owner || '';
        const rating = tr.insertCell(); rating.className = 'num'; rating.textContent = row.rating.toFixed(1);
        const n = tr.insertCell(); n.className = 'num'; n.textContent = row.matches;
      }
    } catch (e) { /* the next poll tries again */ }
  }
  setInterval(refresh, 2000);
})();
"#;

fn leaderboard_table(lb: &Leaderboard) -> Markup {
    html! {
        p #status { (lb.rated) " of " (lb.scheduled) " scheduled matches rated" }
        table #board data-api={ "/api/games/" (url_part(&lb.game)) "/leaderboard" } {
            tr { th { "#" } th { "bot" } th { "version" } th { "owner" } th.num { "Elo" } th.num { "matches" } }
            @for r in &lb.rows {
                tr {
                    td { (r.rank) }
                    td { a href={ "/bots/" (url_part(&r.name)) } { (r.name) } }
                    td { "v" (r.version) }
                    td { (r.owner.as_deref().unwrap_or("")) }
                    td.num { (format!("{:.1}", r.rating)) }
                    td.num { (r.matches) }
                }
            }
        }
    }
}

async fn game_page(State(state): State<AppState>, Path(game): Path<String>) -> Response {
    if let Err(e) = ludus_engine::registry::info(&game) {
        return error_page(ApiError::NotFound(e.to_string()));
    }
    let g = game.clone();
    match state.with_store(move |s| api::leaderboard_of(s, &g)).await {
        Err(e) => error_page(e),
        Ok(lb) => layout(
            &format!("{game}: leaderboard"),
            html! {
                (leaderboard_table(&lb))
                script { (PreEscaped(POLL)) }
            },
        )
        .into_response(),
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
        p { "Elo from " (format!("{lo:.0}")) " to " (format!("{hi:.0}")) " over " (points.len()) " rated matches." }
    }
}

async fn bot_page(State(state): State<AppState>, Path(name): Path<String>) -> Response {
    let n = name.clone();
    match state.with_store(move |s| api::bot_view(s, &n)).await {
        Err(e) => error_page(e),
        Ok(v) => layout(
            &format!("bot {}", v.name),
            html! {
                p {
                    "Plays " a href={ "/games/" (url_part(&v.game)) } { (v.game) }
                    @if let Some(o) = &v.owner { "; uploaded by " (o) }
                    @if v.retired { "; retired" }
                    ". Turns with a fault: " (v.fault_turns) "."
                }
                h2 { "Rating" }
                (chart(&v))
                h2 { "Versions" }
                table {
                    tr { th { "version" } th { "sha256" } th { "submitted" } th.num { "Elo" } }
                    @for ver in &v.versions {
                        tr {
                            td { "v" (ver.version) }
                            td { code { (ver.sha256.get(..16).unwrap_or(&ver.sha256)) } }
                            td { (ver.submitted_at) }
                            td.num { (ver.rating.map(|r| format!("{r:.1}")).unwrap_or_default()) }
                        }
                    }
                }
                h2 { "Recent matches" }
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
        .into_response(),
    }
}

/// The replay viewer's own page, with the seats' logs kept for their owners.
async fn match_page(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    match state
        .with_store(move |s| api::private_replay(s, &id, &headers))
        .await
    {
        Err(e) => error_page(e),
        Ok(replay) => {
            let (page, _) =
                ludus_viewer::page::replay_page(&replay, ludus_viewer::page::Embed::Auto);
            Html(page).into_response()
        }
    }
}

async fn signin_form() -> Html<String> {
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

#[derive(serde::Deserialize)]
struct SignIn {
    token: String,
}

async fn signin(State(state): State<AppState>, Form(form): Form<SignIn>) -> Response {
    let token = form.token.trim().to_string();
    let t = token.clone();
    match state.with_store(move |s| auth::verify(s, &t)).await {
        Ok(Some(_)) if token.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => (
            [(
                header::SET_COOKIE,
                format!(
                    "{}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=2592000",
                    auth::COOKIE
                ),
            )],
            Redirect::to("/"),
        )
            .into_response(),
        Ok(_) => (
            StatusCode::UNAUTHORIZED,
            layout("Sign in", html! { p { (ApiError::BadToken.to_string()) } }),
        )
            .into_response(),
        Err(e) => error_page(e),
    }
}
