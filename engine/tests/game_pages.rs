//! Every registered game's page, `docs/games/<game>.md`, says what the
//! registry says: the rules version, and how tables head the score (and,
//! where the running score counts something else, how they head that).
//! Generated from the registry: a new game needs its page.

use ludus_engine::games;

/// The game's page with every run of whitespace made one space, so that a
/// phrase is found however the page wraps it.
fn page(id: &str) -> String {
    let path = format!("{}/../docs/games/{id}.md", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{id} has no page at {path}: {e}; write one"));
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every `X` in the page's `<phrase> `X``.
fn named_after(page: &str, phrase: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = page;
    while let Some(i) = rest.find(phrase) {
        rest = &rest[i + phrase.len()..];
        if let Some(name) = rest.strip_prefix('`').and_then(|r| r.split('`').next()) {
            found.push(name.to_string());
        }
    }
    found
}

#[test]
fn every_game_page_names_its_rules_version() {
    for g in games() {
        let page = page(g.id);
        let header = format!("Game id `{}`, rules version {}", g.id, g.rules_version);
        assert!(
            page.contains(&header),
            "docs/games/{}.md does not open with \"{header}\"",
            g.id
        );
    }
}

#[test]
fn every_game_page_names_the_score_as_the_registry_heads_it() {
    for g in games() {
        let page = page(g.id);
        assert_eq!(
            named_after(&page, "the score is headed "),
            [g.score_unit],
            "docs/games/{}.md must say once \"the score is headed `{}`\", as `ludus games` and \
             every table head it",
            g.id,
            g.score_unit
        );
        let progress: Vec<String> = named_after(&page, "progress score, headed ");
        assert_eq!(
            progress,
            g.progress_unit.into_iter().collect::<Vec<_>>(),
            "docs/games/{}.md: the running score's heading; the registry has {:?}",
            g.id,
            g.progress_unit
        );
    }
}
