//! Embeds every game's rules page, `docs/games/<game>.md`, in the server:
//! writes the table `templates::rules` serves them from, one `include_str!`
//! a page, so that a page added or changed is in the next build.

use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let dir = manifest
        .join("../docs/games")
        .canonicalize()
        .expect("the games' rules pages, docs/games/");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut pages: Vec<(String, PathBuf)> = std::fs::read_dir(&dir)
        .expect("docs/games/ is readable")
        .map(|e| e.expect("docs/games/ is readable").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| {
            let id = p
                .file_stem()
                .expect("a file name")
                .to_string_lossy()
                .into_owned();
            (id, p)
        })
        .collect();
    pages.sort();
    let mut table = String::from("&[\n");
    for (id, path) in &pages {
        table.push_str(&format!(
            "    ({id:?}, include_str!({:?})),\n",
            path.display().to_string()
        ));
    }
    table.push_str("]\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo")).join("rules.rs");
    std::fs::write(out, table).expect("OUT_DIR is writable");
}
