//! A bot's page: its rating chart, versions, matches from its point of
//! view, and results against each opponent.

use super::{layout, pager, url_part, Frame};
use crate::dto::{BotView, RatingPoint};
use axum::response::Html;
use ludus_host::numbers::{count, fixed};
use ludus_leaderboard::store::SameBytes;
use maud::{html, Markup};

/// The chart's size in its own units (it scales to the page's width) and
/// the margins that hold the axes' labels.
const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 260.0;
const LEFT: f64 = 58.0;
const RIGHT: f64 = 14.0;
const TOP: f64 = 22.0;
const BOTTOM: f64 = 42.0;

/// About `n` round ticks (1, 2 or 5 times a power of ten apart) from `lo`
/// to `hi`.
fn ticks(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    let span = hi - lo;
    // Also a range that is one value, or not a number.
    if span.is_nan() || span <= 1e-9 {
        return vec![lo];
    }
    let raw = span / n.max(1) as f64;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * magnitude);
    let mut out = Vec::new();
    let mut t = (lo / step).ceil() * step;
    while t <= hi + step * 1e-9 && out.len() <= 2 * n {
        out.push(t);
        t += step;
    }
    out
}

/// Where the chart's vertical lines mark a new version: (point, version).
fn version_starts(points: &[RatingPoint]) -> Vec<(usize, u32)> {
    points
        .windows(2)
        .enumerate()
        .filter(|(_, w)| w[0].version != w[1].version)
        .map(|(i, w)| (i + 1, w[1].version))
        .collect()
}

/// The band of ± each point's interval around the line, one polygon a run
/// of points that have one.
fn bands(points: &[RatingPoint], at: impl Fn(usize, f64) -> (f64, f64)) -> Vec<String> {
    let mut out = Vec::new();
    let mut run: Vec<(usize, f64, f64)> = Vec::new();
    let mut flush = |run: &mut Vec<(usize, f64, f64)>| {
        if !run.is_empty() {
            let upper = run.iter().map(|&(i, r, d)| at(i, r + d));
            let lower = run.iter().rev().map(|&(i, r, d)| at(i, r - d));
            let corners: Vec<String> = upper
                .chain(lower)
                .map(|(x, y)| format!("{x:.1},{y:.1}"))
                .collect();
            out.push(corners.join(" "));
            run.clear();
        }
    };
    for (i, p) in points.iter().enumerate() {
        let new_version = i > 0 && points[i - 1].version != p.version;
        if new_version {
            flush(&mut run);
        }
        match p.interval {
            Some(d) => run.push((i, p.rating, d)),
            None => flush(&mut run),
        }
    }
    flush(&mut run);
    out
}

/// The rating over its rated matches as an SVG chart: axes with ticks and
/// titles, the Elo after each match, the uncertainty where it is known,
/// and a line where each new version started. No script; it scales to the
/// page's width.
fn chart(view: &BotView) -> Markup {
    let points = &view.rating_history;
    if points.is_empty() {
        return html! { p { "No rated match yet." } };
    }
    // The first point's number among the bot's rated matches (the chart
    // shows the latest ones).
    let first = (view.rated_matches as usize)
        .saturating_sub(points.len())
        .saturating_add(1);
    let last = first + points.len() - 1;
    let spread = |p: &RatingPoint| p.interval.unwrap_or(0.0);
    let lo = points
        .iter()
        .map(|p| p.rating - spread(p))
        .fold(f64::INFINITY, f64::min);
    let hi = points
        .iter()
        .map(|p| p.rating + spread(p))
        .fold(f64::NEG_INFINITY, f64::max);
    let pad = ((hi - lo) * 0.08).max(5.0);
    let (lo, hi) = (lo - pad, hi + pad);
    let (plot_w, plot_h) = (WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    let x_of = |n: f64| {
        let span = (last - first).max(1) as f64;
        LEFT + (n - first as f64) / span * plot_w
    };
    let y_of = |r: f64| TOP + (hi - r) / (hi - lo) * plot_h;
    let at = |i: usize, r: f64| (x_of((first + i) as f64), y_of(r));
    let line: Vec<String> = points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let (x, y) = at(i, p.rating);
            format!("{x:.1},{y:.1}")
        })
        .collect();
    let x_ticks: Vec<f64> = ticks(first as f64, last as f64, 6)
        .into_iter()
        .filter(|t| t.fract() == 0.0)
        .collect();
    let y_ticks = ticks(lo, hi, 5);
    let starts = version_starts(points);
    let latest = points.last().expect("not empty");
    let summary = format!(
        "Elo of {} after each of its last {}: from {} to {}, now {}{}.",
        view.name,
        count(points.len() as u64, "rated match", "rated matches"),
        fixed(points.first().expect("not empty").rating, 0),
        fixed(latest.rating, 0),
        fixed(latest.rating, 0),
        match starts.as_slice() {
            [] => String::new(),
            s => format!(
                "; new versions started at rated match {}",
                s.iter()
                    .map(|&(i, v)| format!("{} (v{v})", first + i))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    );
    let bottom = TOP + plot_h;
    html! {
        figure.chart {
            svg #rating width="100%" viewBox={ "0 0 " (WIDTH) " " (HEIGHT) } role="img" aria-label=(summary) font-size="12" font-family="system-ui, sans-serif" {
                title { (summary) }
                // The grid and the y axis's ticks.
                @for t in &y_ticks {
                    @let y = y_of(*t);
                    line x1=(LEFT) x2=(WIDTH - RIGHT) y1=(format!("{y:.1}")) y2=(format!("{y:.1}")) stroke="#e4e4e4" {}
                    text.y-tick x=(LEFT - 6.0) y=(format!("{:.1}", y + 4.0)) text-anchor="end" fill="#444" { (fixed(*t, 0)) }
                }
                @for t in &x_ticks {
                    @let x = x_of(*t);
                    line x1=(format!("{x:.1}")) x2=(format!("{x:.1}")) y1=(bottom) y2=(bottom + 5.0) stroke="#444" {}
                    text.x-tick x=(format!("{x:.1}")) y=(bottom + 17.0) text-anchor="middle" fill="#444" { (*t as u64) }
                }
                line x1=(LEFT) x2=(LEFT) y1=(TOP) y2=(bottom) stroke="#444" {}
                line x1=(LEFT) x2=(WIDTH - RIGHT) y1=(bottom) y2=(bottom) stroke="#444" {}
                text.axis-title x=(LEFT + plot_w / 2.0) y=(HEIGHT - 6.0) text-anchor="middle" fill="#222" { "rated matches" }
                text.axis-title x="12" y=(TOP + plot_h / 2.0) text-anchor="middle" fill="#222" transform={ "rotate(-90 12 " (TOP + plot_h / 2.0) ")" } { "rating (Elo)" }
                @for band in bands(points, at) {
                    polygon.band points=(band) fill="#05c" fill-opacity="0.15" stroke="none" {}
                }
                @for &(i, version) in &starts {
                    @let x = (at(i, 0.0).0 + at(i - 1, 0.0).0) / 2.0;
                    g.version-mark {
                        line x1=(format!("{x:.1}")) x2=(format!("{x:.1}")) y1=(TOP) y2=(bottom) stroke="#b35900" stroke-dasharray="4 3" {}
                        text x=(format!("{:.1}", x + 3.0)) y=(TOP - 6.0) fill="#b35900" { "v" (version) }
                    }
                }
                polyline fill="none" stroke="#05c" stroke-width="2" points=(line.join(" ")) {}
            }
            figcaption { (caption(view, &starts)) }
        }
    }
}

/// What the chart shows, said plainly: above all, what its band is and is
/// not.
fn caption(view: &BotView, starts: &[(usize, u32)]) -> Markup {
    let banded = view.rating_history.iter().any(|p| p.interval.is_some());
    let current = view.versions.last();
    html! {
        "The line: its Elo after each rated match. "
        @if banded {
            "Shaded: ± each version's uncertainty as it stands now on the leaderboard (ranked by "
            (view.rating_system.replace(['(', ')'], "")) "), around that version's line. "
            "The history keeps the Elo after each match but no interval, so the band is "
            "today's uncertainty of each version, not what it was at the time."
        } @else if let Some(interval) = current.and_then(|v| v.interval) {
            "Its uncertainty is on the leaderboard's own scale (" (view.rating_system) "): ± "
            (fixed(interval, 1)) " now, not on Elo's, so it is not drawn here."
        }
        @if !starts.is_empty() {
            " Dashed lines: where a new version started playing."
        }
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
                " (" a href={ "/games/" (url_part(&v.game)) "/rules" } { "rules" } ")"
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
            div.scroll {
                table {
                    tr { th { "version" } th { "sha256" } th { "submitted" } th.num { "rating ±" } th.num { "Elo" } }
                    @for ver in &v.versions {
                        tr {
                            td { "v" (ver.version) }
                            td { code { (ver.sha256.get(..16).unwrap_or(&ver.sha256)) } }
                            td { (ver.submitted_at) }
                            td.num {
                                @if let (Some(r), Some(i)) = (ver.ranking, ver.interval) { (fixed(r, 1)) " ± " (fixed(i, 1)) }
                            }
                            td.num { (ver.rating.map(|r| fixed(r, 1)).unwrap_or_default()) }
                        }
                    }
                }
            }
            h2 #matches { "Matches" }
            p { (v.matches) " played, " (v.rated_matches) " rated; newest first, as " (v.name) " saw them." }
            div.scroll {
                table #bot-matches {
                    thead {
                        tr {
                            th scope="col" { "match" } th scope="col" { "result" } th scope="col" { "against" }
                            th scope="col" { "its version" } th.num scope="col" { "faults" } th.num scope="col" { "turns" } th scope="col" { "ended" }
                        }
                    }
                    tbody {
                        @for m in &v.recent {
                            tr {
                                td { a href={ "/matches/" (url_part(&m.summary.match_id)) } { "#" (m.summary.index) } }
                                td.result { (m.result) }
                                td {
                                    @for (k, o) in m.opponents.iter().enumerate() {
                                        @if k > 0 { ", " }
                                        a href={ "/bots/" (url_part(&o.name)) } { (o.name) } " v" (o.version)
                                    }
                                }
                                td { "v" (m.version) }
                                td.num { (m.bot_faults) }
                                td.num { (m.summary.turns) }
                                td { (m.summary.aborted.as_deref().unwrap_or(&m.summary.reason)) }
                            }
                        }
                    }
                }
            }
            (pager(&format!("/bots/{}", url_part(&v.name)), v.page, v.per_page, v.matches))
            h2 { "Head to head" }
            div.scroll {
                table {
                    tr { th { "opponent" } th.num { "won" } th.num { "lost" } th.num { "drawn" } }
                    @for o in &v.head_to_head {
                        tr {
                            td { a href={ "/bots/" (url_part(&o.opponent)) } { (o.opponent) } }
                            td.num { (o.wins) } td.num { (o.losses) } td.num { (o.draws) }
                        }
                    }
                }
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_inside_the_range() {
        assert_eq!(
            ticks(1482.0, 1530.0, 5),
            vec![1490.0, 1500.0, 1510.0, 1520.0, 1530.0]
        );
        assert_eq!(ticks(1.0, 9.0, 6), vec![2.0, 4.0, 6.0, 8.0]);
        assert_eq!(ticks(1.0, 1.0, 6), vec![1.0]);
    }

    #[test]
    fn a_version_starts_where_the_version_changes() {
        let p = |version| RatingPoint {
            index: 0,
            version,
            rating: 1500.0,
            interval: Some(10.0),
        };
        let points = [p(1), p(1), p(2), p(2), p(3)];
        assert_eq!(version_starts(&points), vec![(2, 2), (4, 3)]);
        // One band a version: the uncertainty of one is not drawn over another's.
        assert_eq!(bands(&points, |i, r| (i as f64, r)).len(), 3);
    }
}
