//! A person's own page: their bots (versions, rank and rating, placement
//! series, faults, and the forms that retire a bot or a version and
//! promote a candidate), their API tokens and their challenges.

use super::{csrf_field, layout, url_part, Frame};
use axum::response::Html;
use ludus_host::numbers::{count, fixed};
use ludus_leaderboard::challenge::{ChallengeState, ChallengeSummary, Test};
use ludus_leaderboard::clock::unix_rfc3339;
use ludus_leaderboard::store::ApiToken;
use maud::{html, Markup};

/// A person's page: their bots, tokens and challenges.
#[derive(Debug)]
pub struct AccountPage {
    pub account: String,
    pub bots: Vec<MyBot>,
    pub tokens: Vec<ApiToken>,
    /// A token just made: its name and the token, shown this once.
    pub new_token: Option<(String, String)>,
    pub challenges: Vec<ChallengeSummary>,
}

/// One of a person's bots, as its game's open season has it.
#[derive(Debug)]
pub struct MyBot {
    pub name: String,
    pub game: String,
    pub retired: bool,
    /// Oldest first.
    pub versions: Vec<MyVersion>,
    /// The version its game's ladder plays: its latest that is not a
    /// candidate.
    pub entered: Option<u32>,
    /// Its place on its game's leaderboard, once its version is rated.
    pub standing: Option<Standing>,
    /// Rated matches of the entered version, and its turns with a fault in
    /// them.
    pub rated: u32,
    pub fault_turns: u64,
    /// Matches of a placement series, when the entered version is still
    /// playing its own: (rated, of).
    pub placement: Option<(u32, u32)>,
}

#[derive(Debug)]
pub struct MyVersion {
    pub version: u32,
    pub sha256: String,
    pub submitted_at: String,
    pub candidate: bool,
}

/// A bot's row of its game's leaderboard.
#[derive(Debug)]
pub struct Standing {
    pub rank: u32,
    pub of: u32,
    pub rating: f64,
    pub interval: f64,
    pub rating_system: String,
}

/// The account page.
pub fn account_home(frame: &Frame, page: &AccountPage) -> Html<String> {
    layout(
        frame,
        "My bots",
        html! {
            @if let Some((label, token)) = &page.new_token {
                section.new-token role="status" {
                    h2 { "Your new API token “" (label) "”" }
                    p { "Copy it now: it is shown this once, and the server keeps only its hash." }
                    pre { (token) }
                }
            }
            @if page.bots.is_empty() {
                p { "You have no bots yet. " a href="/upload" { "Upload one" } "." }
            } @else {
                p { a href="/upload" { "Upload a bot or a new version" } }
                @for bot in &page.bots { (bot_section(frame, bot)) }
            }
            (tokens(frame, page))
            @if !page.challenges.is_empty() { (challenges(&page.challenges)) }
        },
    )
}

fn bot_section(frame: &Frame, bot: &MyBot) -> Markup {
    let href = format!("/bots/{}", url_part(&bot.name));
    html! {
        section.bot {
            h2 { a href=(href) { (bot.name) } " · " (bot.game) @if bot.retired { " · retired" } }
            ul {
                @match (&bot.standing, bot.entered) {
                    (_, None) => li { "Not in its ladder: every version is a candidate." },
                    (Some(s), Some(v)) => li {
                        "v" (v) " is ranked " (s.rank) " of " (s.of) " on "
                        a href={ "/games/" (url_part(&bot.game)) } { "its leaderboard" }
                        ", rated " (fixed(s.rating, 1)) " ± " (fixed(s.interval, 1))
                        ", " (s.rating_system)
                    },
                    (None, Some(v)) => li {
                        @if bot.retired { "v" (v) " was its last in the ladder." }
                        @else { "v" (v) " is not rated yet: its ladder has not played it." }
                    },
                }
                @if let Some((rated, of)) = bot.placement {
                    li { "Playing its placement series: " (rated) " of " (of) " matches rated." }
                } @else if bot.entered.is_some() {
                    li { (count(u64::from(bot.rated), "rated match", "rated matches")) }
                }
                @if bot.entered.is_some() {
                    li {
                        "Faults: " (count(bot.fault_turns, "turn", "turns")) " with a fault in its rated matches"
                        @if bot.fault_turns > 0 { " (its matches on " a href=(href) { "its page" } " show which)" }
                    }
                }
            }
            div.scroll {
                table {
                    caption { "Versions of " (bot.name) }
                    thead { tr { th { "version" } th { "sha256" } th { "uploaded" } th { "state" } th { "action" } } }
                    tbody {
                        @for v in bot.versions.iter().rev() {
                            tr {
                                td.num { "v" (v.version) }
                                td { code { (&v.sha256[..v.sha256.len().min(12)]) } }
                                td { (v.submitted_at) }
                                td {
                                    @if v.candidate { "candidate" }
                                    @else if bot.entered == Some(v.version) && !bot.retired { "in the ladder" }
                                }
                                td {
                                    @if v.candidate {
                                        (bot_form(frame, "/account/promote", &bot.name, Some(v.version),
                                            &format!("Promote v{}", v.version)))
                                    } @else if bot.entered == Some(v.version) && !bot.retired {
                                        (bot_form(frame, "/account/retire-version", &bot.name, Some(v.version),
                                            &format!("Retire v{}", v.version)))
                                    }
                                }
                            }
                        }
                    }
                }
            }
            @if bot.entered.is_some() && !bot.retired {
                p { small {
                    "Retiring a version takes it out of the ladder, "
                    @match before_entered(bot) {
                        Some(v) => { "which plays v" (v) " again" },
                        None => "and the bot leaves it until you promote a version",
                    }
                    "; it stays stored as a candidate you can promote."
                } }
            }
            @if !bot.retired {
                (bot_form(frame, "/account/retire", &bot.name, None, &format!("Retire {}", bot.name)))
                p { small { "Retiring the bot stops its matches; its results stay." } }
            }
        }
    }
}

/// The version the ladder would play if the one it plays were retired.
fn before_entered(bot: &MyBot) -> Option<u32> {
    let entered = bot.entered?;
    bot.versions
        .iter()
        .rev()
        .find(|v| v.version < entered && !v.candidate)
        .map(|v| v.version)
}

/// A form of one button about `bot` (and one of its versions).
fn bot_form(frame: &Frame, action: &str, bot: &str, version: Option<u32>, label: &str) -> Markup {
    html! {
        form method="post" action=(action) {
            (csrf_field(frame))
            input type="hidden" name="bot" value=(bot);
            @if let Some(v) = version { input type="hidden" name="version" value=(v); }
            button type="submit" { (label) }
        }
    }
}

fn tokens(frame: &Frame, page: &AccountPage) -> Markup {
    html! {
        section.tokens {
            h2 { "API tokens" }
            p { "A token lets a program act for you: " code { "ludus submit --server" } ", scripts with "
                code { "Authorization: Bearer TOKEN" } "." }
            @if page.tokens.is_empty() {
                p { "You have no API tokens." }
            } @else {
                div.scroll {
                    table {
                        thead { tr { th { "name" } th { "made" } th { "last used" } th { "action" } } }
                        tbody {
                            @for t in &page.tokens {
                                tr {
                                    td { (t.name) }
                                    td { (t.created_at) }
                                    td { @match t.last_used_at { Some(at) => (unix_rfc3339(at)), None => "never" } }
                                    td {
                                        form method="post" action="/account/tokens/revoke" {
                                            (csrf_field(frame))
                                            input type="hidden" name="token" value=(t.id);
                                            button type="submit" aria-label={ "Revoke the token " (t.name) } { "Revoke" }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            form method="post" action="/account/tokens" {
                (csrf_field(frame))
                label for="label" { "New token's name" }
                " "
                input #label type="text" name="label" required maxlength="64" autocomplete="off";
                " "
                button type="submit" { "Make a token" }
            }
        }
    }
}

fn challenges(list: &[ChallengeSummary]) -> Markup {
    html! {
        section.challenges {
            h2 { "My challenges" }
            div.scroll {
                table {
                    thead { tr { th { "id" } th { "game" } th { "bot" } th { "against" } th { "test" } th { "matches" } th { "state" } } }
                    tbody {
                        @for c in list {
                            tr {
                                td.num { a href={ "/challenges/" (c.id) } { (c.id) } }
                                td { (c.game) }
                                td { a href={ "/bots/" (url_part(&c.bot.name)) } { (c.bot.name) } " v" (c.bot.version) }
                                td {
                                    @for (i, o) in c.opponents.iter().enumerate() {
                                        @if i > 0 { ", " }
                                        (o.name) " v" (o.version)
                                    }
                                }
                                td { @match &c.test { Test::Games { games } => { (games) " games" }, Test::Sprt(_) => "SPRT" } }
                                td.num { (c.scheduled) " of " (c.max_games) }
                                td {
                                    @match c.state {
                                        ChallengeState::Running => "running",
                                        ChallengeState::Decided => "decided",
                                        ChallengeState::Finished => "finished",
                                        ChallengeState::Stopped => "stopped",
                                    }
                                    @if let Some(v) = c.verdict { ": " (v.as_str()) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
