//! A bot's page and its rating chart.

use super::{layout, pager, url_part, Frame};
use crate::dto::BotView;
use axum::response::Html;
use ludus_host::numbers::{count, fixed};
use ludus_leaderboard::store::SameBytes;
use maud::{html, Markup};

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
pub fn bot(frame: &Frame, v: &BotView, same: &[SameBytes]) -> Html<String> {
    layout(
        frame,
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
