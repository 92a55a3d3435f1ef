//! A game's page of rules: its rules page of `docs/games/`, embedded when
//! the server is built and rendered from Markdown (raw HTML in it is shown
//! as text, never passed through), and how to start a bot for it in Rust,
//! Python and C, build it, check it and upload it.

use super::{layout, url_part, Frame};
use axum::response::Html;
use ludus_engine::registry::GameInfo;
use maud::{html, Markup, PreEscaped};
use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// Every game's rules page, by game id: `docs/games/<game>.md` (the table
/// is written by the build script).
const RULES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/rules.rs"));

/// The Markdown of `game`'s rules page, if it has one.
pub fn rules_markdown(game: &str) -> Option<&'static str> {
    RULES.iter().find(|r| r.0 == game).map(|r| r.1)
}

/// How a bot for a game starts: the SDK's module and types, the example
/// bots, the Python sample.
struct Start {
    game: &'static str,
    /// The SDK's module (`ludus_sdk::<module>`), also the examples' folder.
    module: &'static str,
    observation: &'static str,
    action: &'static str,
    /// The example bots' names (`example-bots/examples/<name>.rs`).
    examples: &'static [&'static str],
    /// The rule book's sample bot in Python (`example-bots/python/`), or
    /// for the Kaggle games none: a Kaggle agent builds unchanged.
    python: Option<&'static str>,
    /// A bot in C (`example-bots/c/`).
    c: Option<&'static str>,
}

const STARTS: &[Start] = &[
    Start {
        game: "planet-wars",
        module: "planet_wars",
        observation: "Observation",
        action: "Moves",
        examples: &[
            "planet_wars_idle",
            "planet_wars_random",
            "planet_wars_expander",
        ],
        python: Some("planet_wars.py"),
        c: Some("planet_wars.c"),
    },
    Start {
        game: "kore",
        module: "kore",
        observation: "Observation",
        action: "Actions",
        examples: &["kore_idle", "kore_random", "kore_miner"],
        python: None,
        c: None,
    },
    Start {
        game: "halite",
        module: "halite",
        observation: "Turn",
        action: "Actions",
        examples: &["halite_idle", "halite_random", "halite_collector"],
        python: None,
        c: None,
    },
    Start {
        game: "claim",
        module: "claim",
        observation: "Observation",
        action: "Action",
        examples: &["claim_sample", "claim_strategy"],
        python: Some("claim.py"),
        c: None,
    },
    Start {
        game: "loops",
        module: "loops",
        observation: "Observation",
        action: "Action",
        examples: &["loops_sample", "loops_strategy"],
        python: Some("loops.py"),
        c: None,
    },
    Start {
        game: "shields",
        module: "shields",
        observation: "Observation",
        action: "Action",
        examples: &["shields_sample", "shields_strategy"],
        python: Some("shields.py"),
        c: None,
    },
    Start {
        game: "conquest",
        module: "conquest",
        observation: "Observation",
        action: "Action",
        examples: &["conquest_sample", "conquest_strategy"],
        python: Some("conquest.py"),
        c: None,
    },
    Start {
        game: "pirates",
        module: "pirates",
        observation: "Observation",
        action: "Action",
        examples: &["pirates_sample", "pirates_random", "pirates_strategy"],
        python: Some("pirates.py"),
        c: None,
    },
    Start {
        game: "fences",
        module: "fences",
        observation: "Observation",
        action: "Action",
        examples: &["fences_sample", "fences_strategy"],
        python: Some("fences.py"),
        c: None,
    },
];

/// `title` as GitHub names its heading's anchor: lower case, letters,
/// digits, `-` and `_` kept, spaces made `-`, the rest dropped.
fn slug(title: &str) -> String {
    title
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c.to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

/// Whether a link in a rules page leads somewhere on the web or on the
/// page: the pages' other links name files of Ludus's source, not here.
fn followed(url: &str) -> bool {
    url.starts_with('#') || url.starts_with("https://") || url.starts_with("http://")
}

/// A rules page as HTML: its headings one level down (the page's own title
/// is the `h1`), each with the anchor its links use; raw HTML as text;
/// links to the source's files as their text; tables in a wrapper that
/// scrolls on a narrow screen.
pub fn render_markdown(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let events: Vec<Event> = Parser::new_ext(markdown, options).collect();
    let mut out: Vec<Event> = Vec::with_capacity(events.len());
    let mut used = std::collections::BTreeMap::<String, u32>::new();
    // Per open link or image: whether it is kept.
    let mut links: Vec<bool> = Vec::new();
    for (i, event) in events.iter().enumerate() {
        match event {
            Event::Html(text) | Event::InlineHtml(text) => out.push(Event::Text(text.clone())),
            Event::Start(Tag::Heading {
                level,
                classes,
                attrs,
                ..
            }) => {
                let mut title = String::new();
                for e in &events[i + 1..] {
                    match e {
                        Event::End(TagEnd::Heading(_)) => break,
                        Event::Text(t) | Event::Code(t) => title.push_str(t),
                        _ => {}
                    }
                }
                let base = slug(&title);
                let n = used.entry(base.clone()).or_insert(0);
                let id = match *n {
                    0 => base,
                    k => format!("{base}-{k}"),
                };
                *n += 1;
                out.push(Event::Start(Tag::Heading {
                    level: lower(*level),
                    id: Some(CowStr::from(id)),
                    classes: classes.clone(),
                    attrs: attrs.clone(),
                }));
            }
            Event::End(TagEnd::Heading(level)) => {
                out.push(Event::End(TagEnd::Heading(lower(*level))))
            }
            Event::Start(Tag::Link { dest_url, .. })
            | Event::Start(Tag::Image { dest_url, .. }) => {
                let keep = followed(dest_url);
                links.push(keep);
                if keep {
                    out.push(event.clone());
                }
            }
            Event::End(TagEnd::Link) | Event::End(TagEnd::Image) => {
                if links.pop().unwrap_or(false) {
                    out.push(event.clone());
                }
            }
            Event::Start(Tag::Table(_)) => {
                out.push(Event::Html(CowStr::from("<div class=\"scroll\">")));
                out.push(event.clone());
            }
            Event::End(TagEnd::Table) => {
                out.push(event.clone());
                out.push(Event::Html(CowStr::from("</div>")));
            }
            other => out.push(other.clone()),
        }
    }
    let mut html = String::with_capacity(markdown.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, out.into_iter());
    html
}

/// A heading one level down, `h6` at most.
fn lower(level: HeadingLevel) -> HeadingLevel {
    match level {
        HeadingLevel::H1 => HeadingLevel::H2,
        HeadingLevel::H2 => HeadingLevel::H3,
        HeadingLevel::H3 => HeadingLevel::H4,
        HeadingLevel::H4 => HeadingLevel::H5,
        HeadingLevel::H5 | HeadingLevel::H6 => HeadingLevel::H6,
    }
}

/// A block of commands or code.
fn code(text: &str) -> Markup {
    html! { pre { code { (text) } } }
}

/// How to start a bot for `game`: Rust, Python, C, then check and upload.
fn start_a_bot(game: &GameInfo) -> Markup {
    let id = game.id;
    let Some(s) = STARTS.iter().find(|s| s.game == id) else {
        return html! {};
    };
    let rust = format!(
        "use ludus_sdk::{m}::{{{o}, {a}}};\n\n\
         #[derive(Default)]\n\
         struct MyBot;\n\n\
         impl ludus_sdk::Bot for MyBot {{\n    \
             type Observation = {o};\n    \
             type Action = {a};\n\n    \
             fn act(&mut self, obs: &{o}) -> {a} {{\n        \
                 // Read this turn's observation; answer with this turn's action.\n        \
                 {a}::default()\n    \
             }}\n\
         }}\n\n\
         ludus_sdk::export_bot!(MyBot);\n",
        m = s.module,
        o = s.observation,
        a = s.action
    );
    let first = s.examples.last().copied().unwrap_or_default();
    html! {
        h2 #start { "Start a bot" }
        p {
            "A bot is a WebAssembly module (" code { "wasm32-wasip1" } ") that answers "
            code { "act(state)" } " every turn: the state is this turn's observation as JSON, "
            "the answer this turn's action, both as the rules above describe them. "
            "It runs sandboxed, with virtual clocks and seeded randomness, so a match replays exactly."
        }
        h3 #rust { "In Rust, with the SDK" }
        p {
            "Make a library crate (" code { "cargo new --lib my_bot" } ") whose "
            code { "Cargo.toml" } " has "
            code { "[lib] crate-type = [\"cdylib\"]" } " and depends on " code { "ludus-sdk" }
            " (the " code { "sdk/" } " folder of Ludus's source, e.g. "
            code { "ludus-sdk = { path = \"../ludus/sdk\" }" } "), then implement "
            code { "Bot" } " with the game's typed observation and action, "
            code { "ludus_sdk::" (s.module) } ":"
        }
        (code(&rust))
        (code(&format!("rustup target add wasm32-wasip1\ncargo build --release --target wasm32-wasip1\nludus check target/wasm32-wasip1/release/my_bot.wasm --game {id}")))
        p {
            "Bots to start from, in " code { "example-bots/src/" (s.module) "/" } ": "
            @for (k, e) in s.examples.iter().enumerate() {
                @if k > 0 { ", " }
                code { (e) }
            }
            ". Build them all from Ludus's source with "
            code { "cargo build --release --target wasm32-wasip1 -p ludus-example-bots --example " (first) }
            " (one) or " code { "--examples" } " (all): each is "
            code { "target/wasm32-wasip1/release/examples/<name>.wasm" } "."
        }
        h3 #python { "In Python" }
        @match s.python {
            Some(file) => {
                p {
                    "One file that defines " code { "def act(state)" } " (the standard library only; "
                    code { "state" } " is the parsed observation, " code { "print()" } " writes to the bot's log, "
                    "and it returns the answer). " code { "ludus build-bot" } " makes it a WebAssembly component "
                    "(it installs componentize-py the first time). The rule book's sample bot is "
                    code { "example-bots/python/" (file) } "."
                }
                (code(&format!("ludus build-bot {file} -o my_bot.wasm\nludus check my_bot.wasm --game {id}")))
            }
            None => {
                p {
                    "An agent written for Kaggle's " (id) " plays unchanged: the " code { "main.py" }
                    " whose last function is " code { "agent(obs, config)" } ", its folder, or the "
                    code { ".tar.gz" } " you submitted there, on kaggle-environments' own helpers. "
                    "A file with " code { "def act(state)" } " builds too."
                }
                (code(&format!("ludus build-bot main.py -o my_bot.wasm --kaggle {id}\nludus check my_bot.wasm --game {id}")))
            }
        }
        h3 #c { "In C" }
        p {
            "Export " code { "memory" } ", " code { "ludus_alloc(len) -> ptr" } " and "
            code { "act(ptr, len)" } " (the answer's pointer and length packed in a 64-bit integer) "
            "from a " code { "wasm32-wasip1" } " reactor; read the observation's JSON yourself. "
            code { "ludus build-bot" } " compiles a C file with clang and wasi-libc (on Debian: "
            code { "apt-get install clang lld wasi-libc libclang-rt-14-dev-wasm32" } ")."
            @if let Some(file) = s.c {
                " A complete bot to start from: " code { "example-bots/c/" (file) } "."
            } @else {
                " The Planet Wars bot in " code { "example-bots/c/planet_wars.c" }
                " shows the exports and a small JSON reader."
            }
            " " code { "docs/bot-abi.md" } " specifies the ABI, the limits and the faults."
        }
        (code(&format!("ludus build-bot my_bot.c -o my_bot.wasm\nludus check my_bot.wasm --game {id}")))
        h2 #upload { "Upload it" }
        p {
            "Signed in, " a href="/upload" { "upload the .wasm from the page" } " (choose " (id)
            " and name the bot), or from a terminal with a token of "
            a href="/account" { "your account" } ", where ADDRESS is this site's address:"
        }
        (code(&format!("ludus submit my_bot.wasm --name my-bot --game {id} --server ADDRESS --token YOUR_TOKEN")))
        p {
            "It plays a validation match first; once it passes, it joins "
            a href={ "/games/" (url_part(id)) } { "the " (id) " leaderboard" } " and plays rated matches."
        }
    }
}

/// `game`'s page: what the game is, its rules, and how to start a bot.
pub fn rules(frame: &Frame, game: &GameInfo) -> Html<String> {
    let rules = rules_markdown(game.id).map(render_markdown);
    layout(
        frame,
        &format!("{}: rules", game.id),
        html! {
            nav.links aria-label="on this page" {
                a href={ "/games/" (url_part(game.id)) } { "← " (game.id) " leaderboard" }
                a href="#rules" { "The rules" }
                a href="#start" { "Start a bot" }
                a href="#upload" { "Upload it" }
            }
            p { (game.summary) " Seats: " (game.seats_text()) "." }
            section.rules #rules {
                @match rules {
                    Some(html) => { (PreEscaped(html)) }
                    None => { p { "This game's rules page is not in this build." } }
                }
            }
            (start_a_bot(game))
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_game_has_its_rules_page_and_a_way_to_start() {
        for g in ludus_engine::games() {
            let md = rules_markdown(g.id).unwrap_or_else(|| panic!("{}: no rules page", g.id));
            assert!(md.contains(&format!("Game id `{}`", g.id)), "{}", g.id);
            let s = STARTS.iter().find(|s| s.game == g.id);
            let s = s.unwrap_or_else(|| panic!("{}: no way to start a bot", g.id));
            // The files the page names are there.
            let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
            for e in s.examples {
                let path = format!("{root}/example-bots/examples/{e}.rs");
                assert!(std::path::Path::new(&path).exists(), "{path}");
            }
            for file in s
                .python
                .map(|f| format!("python/{f}"))
                .into_iter()
                .chain(s.c.map(|f| format!("c/{f}")))
            {
                let path = format!("{root}/example-bots/{file}");
                assert!(std::path::Path::new(&path).exists(), "{path}");
            }
            let sdk = std::fs::read_to_string(format!("{root}/sdk/src/{}.rs", s.module))
                .or_else(|_| std::fs::read_to_string(format!("{root}/sdk/src/{}/mod.rs", s.module)))
                .unwrap();
            for t in [s.observation, s.action] {
                assert!(sdk.contains(t), "ludus_sdk::{}::{t}", s.module);
            }
        }
    }

    #[test]
    fn raw_html_is_text_and_links_to_source_files_are_not_followed() {
        let html = render_markdown(
            "# Title\n\n<script>alert(1)</script>\n\nSee [the rules](../../engine/src/x.rs), \
             [a section](#title), [a site](https://example.org) and [js](javascript:alert(1)) <b>bold</b>.\n\n\
             | a | b |\n|---|---|\n| 1 | 2 |\n",
        );
        assert!(
            !html.contains("<script>") && html.contains("&lt;script&gt;"),
            "{html}"
        );
        assert!(
            !html.contains("<b>") && html.contains("&lt;b&gt;"),
            "{html}"
        );
        assert!(html.contains("<h2 id=\"title\">Title</h2>"), "{html}");
        assert!(
            !html.contains("engine/src") && html.contains("the rules"),
            "{html}"
        );
        assert!(html.contains("href=\"#title\"") && html.contains("href=\"https://example.org\""));
        assert!(!html.contains("javascript:"), "{html}");
        assert!(html.contains("<div class=\"scroll\"><table>"), "{html}");
    }
}
