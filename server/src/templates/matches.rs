//! The site's navigation above a match's replay viewer: home, the game's
//! leaderboard and rules, and each seat's bot linked to its page. The
//! viewer's page is otherwise its own ([`ludus_viewer::framed_replay_page`]).

use super::url_part;
use maud::{html, Markup};

/// The navigation of a match of `game` whose seats' bots are `names` (empty
/// where a seat's bot is unknown), each shown as its label (`name vN`).
pub fn match_nav(game: &str, names: &[String], labels: &[String]) -> Markup {
    let game_page = format!("/games/{}", url_part(game));
    html! {
        nav.site aria-label="site" {
            a href="/" { "Ludus" }
            a href=(game_page) { "← " (game) " leaderboard" }
            a href={ (game_page) "/rules" } { (game) " rules" }
            span.seats {
                "Seats: "
                @for (seat, label) in labels.iter().enumerate() {
                    @if seat > 0 { " vs " }
                    @match names.get(seat).filter(|n| !n.is_empty()) {
                        Some(name) => { a href={ "/bots/" (url_part(name)) } { (label) } }
                        None => { (label) }
                    }
                }
            }
        }
    }
}
