//! The pages' markup, written with maud, which escapes every value it
//! writes: here the frame around every page (its navigation says who is
//! signed in), the pager and the error page; a module a part of the site:
//! `board` (the games, a game's live leaderboard, refreshed from the API by
//! a script of this server, which writes names as text only), `bot` (a
//! bot's page with its rating chart), `account` (signing in).

mod account;
mod board;
mod bot;

pub use account::*;
pub use board::*;
pub use bot::*;

use crate::error::ApiError;
use axum::response::Html;
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

/// Who a page is rendered for: the frame's navigation names them, and a
/// form that changes something carries their session's CSRF token.
#[derive(Debug, Clone, Default)]
pub struct Frame {
    /// The account signed in, if any.
    pub account: Option<String>,
    /// The CSRF token of the session's forms.
    pub csrf: Option<String>,
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
                            Some(name) => { span.who { "Signed in as " (name) } }
                            None => { a href="/signin" { "Sign in" } }
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
