//! Self-contained HTML pages: the template, styles and scripts of `assets/`
//! with the document embedded. No network, no build step.

use crate::document::Document;
use base64::Engine as _;
use ludus_host::Replay;

/// The page template; `{{title}}`, `{{style}}`, `{{data}}` and `{{scripts}}` are filled in.
const TEMPLATE: &str = include_str!("../assets/viewer.html");
const STYLE: &str = include_str!("../assets/viewer.css");
/// The player: loading, controls, charts, logs and the fallback renderer.
const CORE: &str = include_str!("../assets/viewer.js");
/// Drawing helpers shared by the grid games' renderers.
const GRID: &str = include_str!("../assets/grid.js");

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
    let doc = Document::new(replay);
    let title = format!(
        "{}: {} (seed {})",
        replay.game,
        replay
            .seats
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>()
            .join(" vs "),
        replay.seed
    );
    (page(&title, &doc.to_json(), embed), doc.notes)
}

/// A viewer page with no document: it waits for a file to be dropped on it.
pub fn empty_page() -> String {
    fill(
        "Ludus replay viewer",
        r#"<script type="application/json" id="ludus-data" data-encoding="none"></script>"#,
    )
}

fn page(title: &str, json: &str, embed: Embed) -> String {
    let gzip = match embed {
        Embed::Auto => json.len() > AUTO_JSON_LIMIT,
        Embed::Json => false,
        Embed::Gzip => true,
    };
    let data = if gzip {
        format!(
            r#"<script type="application/octet-stream" id="ludus-data" data-encoding="gzip-base64">{}</script>"#,
            base64::engine::general_purpose::STANDARD.encode(ludus_host::gzip_best(json.as_bytes()))
        )
    } else {
        format!(
            r#"<script type="application/json" id="ludus-data" data-encoding="json">{}</script>"#,
            script_safe_json(json)
        )
    };
    fill(title, &data)
}

fn fill(title: &str, data: &str) -> String {
    let mut scripts = String::new();
    for (name, source) in [("viewer.js", CORE), ("grid.js", GRID)]
        .into_iter()
        .chain(RENDERERS.iter().copied())
    {
        scripts.push_str(&format!(
            "<script data-module=\"{name}\">\n{source}\n</script>\n"
        ));
    }
    let title = escape_html(title);
    // One pass over the template, so nothing filled in (a bot's name in the
    // title, say) is ever taken for a slot.
    let mut out = String::with_capacity(TEMPLATE.len() + data.len() + scripts.len() + STYLE.len());
    let mut rest = TEMPLATE;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start..];
        let slot = ["title", "style", "data", "scripts"]
            .into_iter()
            .find(|s| after[2..].starts_with(s) && after[2 + s.len()..].starts_with("}}"));
        match slot {
            Some(s) => {
                out.push_str(match s {
                    "title" => title.as_str(),
                    "style" => STYLE,
                    "data" => data,
                    _ => scripts.as_str(),
                });
                rest = &after[s.len() + 4..];
            }
            None => {
                out.push_str("{{");
                rest = &after[2..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// JSON that can sit inside a `<script>` element: `<` only ever appears in
/// JSON strings, where `\u003c` means the same, so neither `</script>` nor
/// `<!--` can reach the HTML parser.
pub fn script_safe_json(json: &str) -> String {
    json.replace('<', "\\u003c")
}

pub fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
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

    #[test]
    fn a_title_that_looks_like_a_slot_stays_text() {
        let page = fill("{{data}} & {{scripts}}", "DATA");
        assert_eq!(page.matches("DATA").count(), 1);
        assert!(page.contains("<title>{{data}} &amp; {{scripts}}"));
    }

    #[test]
    fn the_template_has_every_slot() {
        for slot in ["{{title}}", "{{style}}", "{{data}}", "{{scripts}}"] {
            assert!(TEMPLATE.contains(slot), "{slot}");
        }
    }
}
