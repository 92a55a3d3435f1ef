//! The pages' markup, written with maud, which escapes every value it
//! writes: here the frame around every page (its navigation says who is
//! signed in), the pager and the error page; a module a part of the site:
//! `board` (the games, a game's live leaderboard, refreshed from the API by
//! a script of this server, which writes names as text only), `bot` (a
//! bot's page with its rating chart), `account` (signing in), `rules` (a
//! game's rules and how to start a bot), `matches` (the navigation above a
//! match's replay viewer), `upload` (uploading a bot from the page),
//! `my_bots` (a person's bots, tokens and challenges), `challenge` (a
//! challenge's figures, its SPRT and its matches).

mod account;
mod board;
mod bot;
mod challenge;
mod matches;
mod my_bots;
mod rules;
mod upload;

pub use account::*;
pub use board::*;
pub use bot::*;
pub use challenge::*;
pub use matches::*;
pub use my_bots::*;
pub use rules::*;
pub use upload::*;

use crate::error::ApiError;
use axum::response::Html;
use maud::{html, Markup, PreEscaped, DOCTYPE};
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

/// The form field that carries a form's CSRF token ([`crate::session`]).
pub const CSRF_FIELD: &str = "csrf";

pub(crate) const STYLE: &str = "body{font:15px/1.4 system-ui,sans-serif;margin:2em auto;max-width:60em;padding:0 1em;color:#222}\
table{border-collapse:collapse}td,th{padding:.25em .7em;border-bottom:1px solid #ddd;text-align:left}\
th{background:#f4f4f4}a{color:#05c}.num{text-align:right;font-variant-numeric:tabular-nums}\
nav a{margin-right:1em}nav form{display:inline}svg{background:#fafafa;border:1px solid #ddd}\
.house{font-size:.75em;padding:0 .4em;margin-left:.4em;border:1px solid #999;border-radius:.6em;color:#555}\
nav{line-height:2}td.num{white-space:nowrap}.scroll{overflow-x:auto;max-width:100%}pre{overflow-x:auto;background:#f4f4f4;padding:.6em}\
figure.chart{margin:0}figure.chart svg{width:100%;height:auto;display:block}figcaption,.legend{color:#555;font-size:.9em}\
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible,summary:focus-visible{outline:3px solid #05c;outline-offset:2px}\
img{max-width:100%}\
@media (max-width:40em){body{margin:1em auto;font-size:16px}td,th{padding:.3em .45em}h1{font-size:1.5em}}";

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

/// Who a page is rendered for: the frame's navigation names them, and a
/// form that changes something carries their session's CSRF token.
#[derive(Debug, Clone, Default)]
pub struct Frame {
    /// The account signed in, if any.
    pub account: Option<String>,
    /// The CSRF token of the session's forms (none for a reader signed in
    /// by an API token rather than a session).
    pub csrf: Option<String>,
    /// Whether people may sign up (`--signup` is not `closed`): the
    /// navigation offers it.
    pub signup_open: bool,
}

impl Frame {
    /// The frame of a visitor not signed in.
    pub fn anonymous() -> Frame {
        Frame::default()
    }
}

/// A page in the site's frame, for `frame`'s visitor.
pub fn layout(frame: &Frame, title: &str, body: Markup) -> Html<String> {
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
                    nav {
                        a href="/" { "Ludus" }
                        a href="/api/openapi.json" { "API" }
                        @match &frame.account {
                            Some(name) => {
                                a href="/account" { "My bots" }
                                a href="/upload" { "Upload" }
                                span.who { "Signed in as " (name) }
                                @if frame.csrf.is_some() {
                                    " "
                                    form method="post" action="/signout" {
                                        (csrf_field(frame))
                                        button type="submit" { "Sign out" }
                                    }
                                }
                            }
                            None => {
                                a href="/signin" { "Sign in" }
                                @if frame.signup_open { a href="/signup" { "Sign up" } }
                            }
                        }
                    }
                    h1 { (title) }
                    (body)
                }
            }
        }
        .into_string(),
    )
}

/// The hidden field that carries the session's CSRF token in a form that
/// changes something ([`crate::session::Session::check`] checks it).
pub fn csrf_field(frame: &Frame) -> Markup {
    html! {
        input type="hidden" name=(CSRF_FIELD) value=(frame.csrf.as_deref().unwrap_or(""));
    }
}

/// [`error`]'s page as the answer, with the error's status (and for the
/// log, a failure's detail).
pub fn error_response(e: ApiError) -> axum::response::Response {
    let page = error(&e);
    e.with_page(page)
}

/// An error, as a page.
pub fn error(e: &ApiError) -> Html<String> {
    layout(
        &Frame::anonymous(),
        "Not available",
        html! { p { (e.to_string()) } },
    )
}

/// Links to the pages before and after page `number` of a list of `total`;
/// `base` may have a query of its own.
pub(crate) fn pager(base: &str, number: u32, per_page: u32, total: u32) -> Markup {
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
