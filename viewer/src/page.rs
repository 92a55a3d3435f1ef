//! Self-contained HTML pages: the page's markup, written here with maud
//! (which escapes every value it is given), with the styles and scripts of
//! `assets/` and the document embedded. No network, no build step.

use crate::document::Document;
use base64::Engine as _;
use ludus_host::Replay;
use maud::{html, Markup, PreEscaped, DOCTYPE};

/// The styles of every page.
const STYLE: &str = include_str!("../assets/viewer.css");
/// The player: loading, controls, charts, logs and the fallback renderer.
const CORE: &str = include_str!("../assets/viewer.js");
/// Drawing helpers shared by the grid games' renderers.
const GRID: &str = include_str!("../assets/grid.js");

/// What starts the player once every script is in.
const BOOT: &str = "Ludus.boot();";

/// Every game renderer, by file: `assets/games/<game>.js`, each registering
/// itself with `Ludus.register`. To add a game's renderer, add its file here.
pub const RENDERERS: &[(&str, &str)] = &[
    (
        "planet-wars",
        include_str!("../assets/games/planet-wars.js"),
    ),
    ("kore", include_str!("../assets/games/kore.js")),
    ("halite", include_str!("../assets/games/halite.js")),
    ("claim", include_str!("../assets/games/claim.js")),
    ("loops", include_str!("../assets/games/loops.js")),
    ("shields", include_str!("../assets/games/shields.js")),
    ("conquest", include_str!("../assets/games/conquest.js")),
    ("pirates", include_str!("../assets/games/pirates.js")),
    ("fences", include_str!("../assets/games/fences.js")),
];

/// How the document goes into the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Embed {
    /// JSON up to [`AUTO_JSON_LIMIT`] bytes, gzip beyond.
    #[default]
    Auto,
    /// Readable JSON (`<` escaped, so no `</script>` can end the block).
    Json,
    /// gzip, base64: long matches repeat themselves and shrink ten-fold or more.
    Gzip,
}

/// The largest document [`Embed::Auto`] embeds as plain JSON.
pub const AUTO_JSON_LIMIT: usize = 1 << 20;

/// The page watching `replay`, and the notes of its document (e.g. why the
/// board cannot be drawn), for the caller to pass on.
pub fn replay_page(replay: &Replay, embed: Embed) -> (String, Vec<String>) {
    named_replay_page(replay, &[], embed)
}

/// [`replay_page`], each seat named `seat_names[seat]` (e.g. `carol v2`,
/// as a ladder's schedule seated it) rather than by the replay's names.
pub fn named_replay_page(
    replay: &Replay,
    seat_names: &[String],
    embed: Embed,
) -> (String, Vec<String>) {
    framed_replay_page(replay, seat_names, embed, html! {})
}

/// [`named_replay_page`] with `header` above the player: a site's own
/// navigation, rendered (and escaped) by the site, which links the page to
/// the rest of it. The player's scripts and styles are the same.
pub fn framed_replay_page(
    replay: &Replay,
    seat_names: &[String],
    embed: Embed,
    header: Markup,
) -> (String, Vec<String>) {
    let doc = Document::new(replay).with_seat_names(seat_names);
    let title = format!(
        "{}: {} (seed {})",
        replay.game,
        (0..replay.seats.len())
            .map(|seat| doc.seat_name(seat))
            .collect::<Vec<_>>()
            .join(" vs "),
        replay.seed
    );
    (page(&title, &doc.to_json(), embed, header), doc.notes)
}

/// A viewer page with no document: it waits for a file to be dropped on it.
pub fn empty_page() -> String {
    shell(
        "Ludus replay viewer",
        html! {},
        html! { script type="application/json" id="ludus-data" data-encoding="none" {} },
    )
}

fn page(title: &str, json: &str, embed: Embed, header: Markup) -> String {
    let gzip = match embed {
        Embed::Auto => json.len() > AUTO_JSON_LIMIT,
        Embed::Json => false,
        Embed::Gzip => true,
    };
    // A script's text is not HTML-escaped (the browser would not unescape
    // it): base64 has no `<`, and the JSON is made safe for it.
    let data = if gzip {
        let base64 = base64::engine::general_purpose::STANDARD
            .encode(ludus_host::gzip_best(json.as_bytes()));
        html! {
            script type="application/octet-stream" id="ludus-data" data-encoding="gzip-base64" {
                (PreEscaped(base64))
            }
        }
    } else {
        html! {
            script type="application/json" id="ludus-data" data-encoding="json" {
                (PreEscaped(script_safe_json(json)))
            }
        }
    };
    shell(title, header, data)
}

/// The text of every script the pages run, each in its own `<script>`
/// element, exactly: a content security policy can allow these by their
/// hashes and nothing else. (The embedded document is data, never run.)
pub fn inline_scripts() -> Vec<&'static str> {
    [CORE, GRID]
        .into_iter()
        .chain(RENDERERS.iter().map(|r| r.1))
        .chain([BOOT])
        .collect()
}

/// The text of the pages' one `<style>` element, exactly.
pub fn inline_style() -> &'static str {
    STYLE
}

/// The player's page around `data`, the document's script element, below
/// `header` (a site's navigation, or nothing). Its ids and classes are what
/// `assets/viewer.js` and the styles look for.
fn shell(title: &str, header: Markup, data: Markup) -> String {
    let scripts = [("viewer.js", CORE), ("grid.js", GRID)]
        .into_iter()
        .chain(RENDERERS.iter().copied());
    html_page(
        title,
        html! {
            body {
                (header)
                header class="top" {
                    h1 id="title" { (title) }
                    div id="result" class="result" aria-live="polite" {}
                    label class="open" {
                        "Open a replay… "
                        input type="file" id="open-file" accept=".json,.gz,application/json,application/gzip";
                    }
                }
                p id="notes" class="notes" hidden {}
                main class="viewer" {
                    section class="stage" {
                        div class="canvas-wrap" id="canvas-wrap" {
                            canvas id="board" aria-label="the board at the current turn" {}
                            div class="drop-hint" id="drop-hint" { "Drop a replay here (.json or .json.gz)" }
                        }
                        p id="legend" class="legend" {}
                        div class="controls" role="toolbar" aria-label="playback" {
                            button id="btn-home" title="First turn (Home)" aria-label="first turn" { "|◀" }
                            button id="btn-back" title="Back one turn (←, Shift: 10)" aria-label="back one turn" { "−1" }
                            button id="btn-play" title="Play or pause (Space)" aria-label="play" { "▶" }
                            button id="btn-fwd" title="Forward one turn (→, Shift: 10)" aria-label="forward one turn" { "+1" }
                            button id="btn-end" title="Last turn (End)" aria-label="last turn" { "▶|" }
                            input type="range" id="scrubber" min="0" max="0" value="0" step="1" aria-label="turn";
                            span class="turn-label" {
                                span id="turn" { "0" } " / " span id="last-turn" { "0" }
                            }
                            label class="speed" {
                                "speed "
                                select id="speed" title="Speed (+ and −)" {
                                    @for speed in ["0.5", "1", "2", "4", "8", "16"] {
                                        option value=(speed) selected[speed == "1"] { (speed) "×" }
                                    }
                                }
                            }
                        }
                        div id="charts" class="charts" {}
                    }
                    aside class="side" {
                        table id="scoreboard" class="scoreboard" {
                            thead {
                                tr {
                                    th {}
                                    th class="l" { "seat" }
                                    th { "score" }
                                    th { "place" }
                                    th class="l" { "this turn" }
                                    th {}
                                }
                            }
                            tbody {}
                        }
                        p id="copy-status" class="copy-status" aria-live="polite" {}
                        section class="log" {
                            h2 { "Turn log" }
                            div id="log-tabs" class="tabs" role="tablist" {}
                            div id="log-body" class="log-body" {}
                        }
                        details id="state-panel" class="state" {
                            summary { "State as seat " select id="state-seat" aria-label="The seat whose view of the state is shown" {} " saw it" }
                            pre id="state-json" {}
                        }
                        details id="match-info" class="match-info" {
                            summary { "Match" }
                            dl id="match-facts" {}
                        }
                    }
                }
                footer class="keys" {
                    b { "Keys" }
                    ": Space play/pause · ← → one turn (Shift: ten) · Home End · + − speed · \
                     click a chart to jump · "
                    code { "#t=123" }
                    " in the address opens turn 123 · drop a replay file on the page to watch it."
                }
                (data)
                @for (name, source) in scripts {
                    script data-module=(name) { (PreEscaped(source)) }
                }
                script { (PreEscaped(BOOT)) }
            }
        },
    )
}

/// A whole page: the doctype, a head with `title` and the styles, and
/// `body` (the `body` element).
pub(crate) fn html_page(title: &str, body: Markup) -> String {
    let mut page = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                style { (PreEscaped(STYLE)) }
            }
            (body)
        }
    }
    .into_string();
    // The pages have always ended in a newline, as text files do.
    page.push('\n');
    page
}

/// JSON that can sit inside a `<script>` element: `<` only ever appears in
/// JSON strings, where `\u003c` means the same, so neither `</script>` nor
/// `<!--` can reach the HTML parser.
pub fn script_safe_json(json: &str) -> String {
    json.replace('<', "\\u003c")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_in_a_script_cannot_close_it() {
        let json = serde_json::json!({"log": "</script><script>alert(1)</script><!--"}).to_string();
        let safe = script_safe_json(&json);
        assert!(!safe.to_ascii_lowercase().contains("</script"));
        assert!(!safe.contains("<!--"));
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back.to_string(), json);
    }

    #[test]
    fn no_asset_can_close_its_script_element() {
        for (name, source) in [("viewer.js", CORE), ("grid.js", GRID)]
            .into_iter()
            .chain(RENDERERS.iter().copied())
        {
            assert!(
                !source.to_ascii_lowercase().contains("</script"),
                "{name} contains </script"
            );
        }
    }

    #[test]
    fn every_renderer_file_is_in_the_page() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/games");
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".js"))
            .collect();
        files.sort();
        let mut listed: Vec<String> = RENDERERS.iter().map(|(g, _)| format!("{g}.js")).collect();
        listed.sort();
        assert_eq!(files, listed, "add assets/games/<game>.js to RENDERERS");
        for (game, source) in RENDERERS {
            assert!(
                source.contains(&format!("game: \"{game}\"")),
                "{game}.js registers itself as `{game}`"
            );
        }
    }
}
