//! Every page of `docs/` is in the README's list of the documentation and
//! in ARCHITECTURE.md's code map: a page nobody can find is not read.

use std::path::Path;

/// The pages of `docs/`, as paths from it (`server.md`, `games/kore.md`).
fn pages(docs: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for dir in [docs.to_path_buf(), docs.join("games")] {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "md") {
                out.push(
                    path.strip_prefix(docs)
                        .unwrap()
                        .to_string_lossy()
                        .into_owned(),
                );
            }
        }
    }
    out.sort();
    out
}

/// The README's list: the lines of its "Documentation" section.
fn readme_list(readme: &str) -> &str {
    let start = readme
        .find("## Documentation")
        .expect("the README has a Documentation section");
    let rest = &readme[start + 3..];
    &rest[..rest.find("\n## ").unwrap_or(rest.len())]
}

#[test]
fn every_page_of_docs_is_listed_in_the_readme_and_the_architecture() {
    let root = ludus_testkit::workspace_root();
    let pages = pages(&root.join("docs"));
    assert!(pages.len() > 10, "the docs: {pages:?}");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let list = readme_list(&readme);
    let architecture = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let unlisted: Vec<&String> = pages
        .iter()
        .filter(|p| !list.contains(&format!("docs/{p}")))
        .collect();
    assert!(
        unlisted.is_empty(),
        "pages missing from the README's Documentation list: {unlisted:?}"
    );
    // The code map names the game pages as `games/<game>.md`.
    let unmapped: Vec<&String> = pages
        .iter()
        .filter(|p| !p.starts_with("games/") && !architecture.contains(&format!("`{p}`")))
        .collect();
    assert!(
        unmapped.is_empty(),
        "pages missing from ARCHITECTURE.md's docs/ line: {unmapped:?}"
    );
}

#[test]
fn the_readme_list_ends_at_the_next_section() {
    let readme = "# x\n## Documentation\n- `docs/a.md`\n## Other\n- `docs/b.md`\n";
    let list = readme_list(readme);
    assert!(list.contains("docs/a.md") && !list.contains("docs/b.md"));
}
