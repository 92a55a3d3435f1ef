//! A challenge's page: what was asked, where its test stands (the score
//! and the Elo difference with their intervals, the SPRT's log-likelihood
//! ratio as a bar between its bounds), every match linked to its replay,
//! and for its owner the forms that stop it and promote a candidate.

use super::{csrf_field, layout, url_part, Frame};
use axum::response::Html;
use ludus_host::numbers::{fixed, signed};
use ludus_leaderboard::challenge::{
    ChallengeBot, ChallengeState, ChallengeStatus, Estimate, GameOutcome, SprtStatus, Test,
};
use ludus_leaderboard::clock::unix_rfc3339;
use ludus_leaderboard::sprt::llr_gauge;
use maud::{html, Markup};

/// How often a running challenge's page reloads itself, in seconds.
pub const PAGE_REFRESH_SECONDS: u32 = 5;

/// What a challenge's page shows: its status, and for its owner whether
/// the tested version is still a candidate (then it offers to promote it).
#[derive(Debug, Clone)]
pub struct ChallengePage {
    pub status: ChallengeStatus,
    /// The viewer is the challenge's owner.
    pub owner: bool,
    /// The tested version is a candidate.
    pub candidate: bool,
}

/// The page of a challenge.
pub fn challenge(frame: &Frame, page: &ChallengePage) -> Html<String> {
    let s = &page.status;
    let title = format!("Challenge {}: {} v{}", s.id, s.bot.name, s.bot.version);
    layout(
        frame,
        &title,
        html! {
            p {
                (bot_link(&s.bot)) " (" (s.owner) "'s) against "
                @for (i, o) in s.opponents.iter().enumerate() {
                    @if i > 0 { ", " }
                    (bot_link(o))
                }
                " at " a href={ "/games/" (url_part(&s.game)) } { (s.game) } ", "
                @match &s.test {
                    Test::Games { games } => { (games) " games" }
                    Test::Sprt(c) => {
                        "an SPRT of elo0 " (c.elo0) " against elo1 " (c.elo1)
                        " (α " (c.alpha) ", β " (c.beta) "), " (s.max_games) " games at most"
                    }
                }
                "; seed " (s.seed) ", created " (unix_rfc3339(s.created_at)) "."
            }
            p role="status" {
                strong { (state_text(page)) }
                @if let Some(reason) = &s.ended_reason { ": " (reason) }
                @if s.state == ChallengeState::Running {
                    " (this page reloads every " (PAGE_REFRESH_SECONDS) " s)"
                }
            }
            (owner_forms(frame, page))
            table {
                tbody {
                    tr { th { "games counted" } td.num { (s.games) } }
                    tr { th { "wins / draws / losses" } td.num { (s.wins) " / " (s.draws) " / " (s.losses) } }
                    tr { th { "pairs (pentanomial 0, ½, 1, 1½, 2)" } td.num { (s.pairs) " (" (pentanomial(&s.pentanomial)) ")" } }
                    tr { th { "score, 95% interval" } td.num { (estimate(s.score.as_ref(), 100.0, "%")) } }
                    tr { th { "Elo difference, 95% interval" } td.num { (estimate(s.elo.as_ref(), 1.0, "")) } }
                    @if let Some(los) = s.los {
                        tr { th { "likelihood of superiority" } td.num { (fixed(100.0 * los, 1)) "%" } }
                    }
                    tr { th { "matches scheduled / finished" } td.num { (s.scheduled) " / " (s.finished) } }
                }
            }
            @if let Some(sprt) = &s.sprt { (llr_bar(sprt)) }
            h2 { "Matches" }
            (matches(page))
        },
    )
}

fn bot_link(b: &ChallengeBot) -> Markup {
    html! { a href={ "/bots/" (url_part(&b.name)) } { (b.name) } " v" (b.version) }
}

fn state_text(page: &ChallengePage) -> String {
    let s = &page.status;
    match (s.state, s.verdict) {
        (ChallengeState::Running, _) => "Running".into(),
        (ChallengeState::Decided, Some(v)) => format!("Verdict: {}", v.as_str()),
        (ChallengeState::Finished, _) => "Finished, no verdict".into(),
        (ChallengeState::Stopped, _) => "Stopped, no verdict".into(),
        (_, _) => "Ended".into(),
    }
}

fn pentanomial(counts: &[u64; 5]) -> String {
    counts
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// `value [low, high]`, times `scale`, with `unit`; a dash before any pair.
fn estimate(e: Option<&Estimate>, scale: f64, unit: &str) -> String {
    match e {
        None => "–".into(),
        Some(e) if unit.is_empty() => format!(
            "{} [{}, {}]",
            signed(e.value * scale, 1),
            signed(e.low * scale, 1),
            signed(e.high * scale, 1)
        ),
        Some(e) => format!(
            "{}{unit} [{}{unit}, {}{unit}]",
            fixed(e.value * scale, 1),
            fixed(e.low * scale, 1),
            fixed(e.high * scale, 1)
        ),
    }
}

/// The LLR as a mark on a bar from the lower bound (H0: not stronger) to
/// the upper one (H1: stronger); an SVG, whose attributes the page's
/// policy allows where inline styles are not.
fn llr_bar(s: &SprtStatus) -> Markup {
    const W: f64 = 600.0;
    let at = llr_gauge(s.llr, (s.lower, s.upper)) * W;
    let zero = llr_gauge(0.0, (s.lower, s.upper)) * W;
    html! {
        figure.chart {
            svg viewBox="0 0 620 50" role="img" aria-label={
                "LLR " (fixed(s.llr, 2)) " between " (fixed(s.lower, 2)) " and " (fixed(s.upper, 2))
            } {
                rect x="10" y="10" width=(W) height="16" fill="#eee" stroke="#999" {}
                rect x=(10.0 + zero.min(at)) y="10" width=((at - zero).abs()) height="16"
                    fill=(if s.llr >= 0.0 { "#4a4" } else { "#c44" }) {}
                line x1=(10.0 + zero) y1="6" x2=(10.0 + zero) y2="30" stroke="#555" {}
                line x1=(10.0 + at) y1="4" x2=(10.0 + at) y2="32" stroke="#000" stroke-width="3" {}
                text x="10" y="45" font-size="12" { "H0 " (fixed(s.lower, 2)) }
                text x="610" y="45" font-size="12" text-anchor="end" { (fixed(s.upper, 2)) " H1" }
            }
            figcaption {
                "The SPRT's log-likelihood ratio: " (fixed(s.llr, 2))
                ". At " (fixed(s.lower, 2)) " or below it accepts “not stronger” (at most elo0 "
                (s.elo0) "), at " (fixed(s.upper, 2)) " or above “stronger” (at least elo1 " (s.elo1) ")."
            }
        }
    }
}

/// The owner's forms: stop a running challenge, promote a candidate.
fn owner_forms(frame: &Frame, page: &ChallengePage) -> Markup {
    let s = &page.status;
    html! {
        @if page.owner && frame.csrf.is_some() {
            @if page.candidate {
                form method="post" action={ "/challenges/" (s.id) "/promote" } {
                    (csrf_field(frame))
                    button type="submit" { "Promote v" (s.bot.version) }
                    " " span.legend { "enters it in the " (s.game) " ladder" }
                }
            }
            @if s.state == ChallengeState::Running {
                form method="post" action={ "/challenges/" (s.id) "/stop" } {
                    (csrf_field(frame))
                    button type="submit" { "Stop this challenge" }
                }
            }
        }
    }
}

fn matches(page: &ChallengePage) -> Markup {
    let s = &page.status;
    html! {
        @if s.matches.is_empty() {
            p { "No match scheduled yet." }
        } @else {
            div.scroll {
                table {
                    thead { tr { th { "#" } th { "pair" } th { "seats" } th { "result for v" (s.bot.version) } th { "match" } } }
                    tbody {
                        @for m in &s.matches {
                            tr {
                                td.num { (m.index) }
                                td.num { (m.pair) }
                                td {
                                    @for (seat, b) in m.seats.iter().enumerate() {
                                        @if seat > 0 { ", " }
                                        @if seat == m.tested_seat { strong { (b.name) " v" (b.version) } }
                                        @else { (b.name) " v" (b.version) }
                                    }
                                }
                                td {
                                    @match m.outcome {
                                        None => "waiting",
                                        Some(GameOutcome::Win) => "win",
                                        Some(GameOutcome::Draw) => "draw",
                                        Some(GameOutcome::Loss) => "loss",
                                        Some(GameOutcome::Void) => "void",
                                    }
                                    @if m.outcome.is_some() && !m.counted { " (after the verdict, not counted)" }
                                }
                                td {
                                    @if let Some(id) = &m.match_id {
                                        a href={ "/matches/" (id) } { (ludus_host::short_id(id)) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
