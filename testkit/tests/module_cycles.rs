//! No crate of the workspace has files that import each other, directly or
//! through others: a cycle makes modules that can only be read, tested and
//! moved together, so each module's dependencies must go one way.
//!
//! Imports are read from the text, not resolved by the compiler: a path
//! `crate::a::b` names the file `a/b.rs` (or `a/b/mod.rs`), else `a.rs`;
//! `super::x` the sibling `x`; `use crate::{a, b}` each of `a` and `b`. The
//! crate root, on which every module depends, is never counted. Comments,
//! and a `#[cfg(test)] mod tests` with what follows it, are left out: tests
//! may reach anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module by its path from the crate root: `["build", "kaggle"]`; the root is empty.
type Module = Vec<String>;

#[test]
fn no_crate_of_the_workspace_has_a_module_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let mut crates = workspace_members(&manifest);
    assert!(
        crates.iter().any(|m| m == "engine"),
        "no members read from the workspace's Cargo.toml: {crates:?}"
    );
    // The fuzz targets are a workspace of their own.
    crates.push("fuzz".to_string());
    let mut report = String::new();
    for member in &crates {
        let src = root.join(member).join("src");
        if !src.is_dir() {
            continue;
        }
        for cycle in cycles(&src) {
            report.push_str(&format!("module cycle in {member}/src:\n"));
            for (file, imports) in cycle {
                let name = |f: &Path| f.strip_prefix(root).unwrap_or(f).display().to_string();
                let imports: Vec<String> = imports.iter().map(|f| name(f)).collect();
                report.push_str(&format!(
                    "  {} imports {}\n",
                    name(&file),
                    imports.join(", ")
                ));
            }
        }
    }
    assert!(report.is_empty(), "\n{report}");
}

/// The `members` of the `[workspace]` table of a Cargo.toml.
fn workspace_members(manifest: &str) -> Vec<String> {
    let manifest = format!("\n{manifest}");
    let workspace = manifest
        .split("\n[")
        .find(|table| table.starts_with("workspace]"))
        .expect("a [workspace] table");
    let at = workspace
        .lines()
        .position(|line| {
            line.strip_prefix("members")
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        })
        .expect("a members list");
    let list: Vec<&str> = workspace.lines().skip(at).collect();
    let list = list.join("\n");
    let (_, list) = list.split_once('[').expect("a members list");
    let (list, _) = list.split_once(']').expect("a members list");
    list.lines()
        .map(|line| line.split('#').next().unwrap())
        .flat_map(|line| line.split(','))
        .map(|item| item.trim().trim_matches('"'))
        .filter(|item| !item.is_empty())
        .map(str::to_string)
        .collect()
}

/// Every cycle among the files of the crate whose sources are `src`: each
/// file of it with the files of the same cycle it imports.
fn cycles(src: &Path) -> Vec<Vec<(PathBuf, Vec<PathBuf>)>> {
    let modules = module_files(src);
    let edges: BTreeMap<Module, BTreeSet<Module>> = modules
        .iter()
        .map(|(module, files)| {
            let imports = files
                .iter()
                .flat_map(|file| {
                    let text = std::fs::read_to_string(file).unwrap();
                    imports(module, &code(&text), &modules)
                })
                .collect();
            (module.clone(), imports)
        })
        .collect();
    strongly_connected(&edges)
        .into_iter()
        .filter(|component| component.len() > 1)
        .map(|component| {
            let mut files = Vec::new();
            for module in &component {
                let imported: Vec<PathBuf> = edges[module]
                    .iter()
                    .filter(|m| component.contains(*m))
                    .flat_map(|m| modules[m].clone())
                    .collect();
                for file in &modules[module] {
                    files.push((file.clone(), imported.clone()));
                }
            }
            files
        })
        .collect()
}

/// The `.rs` files under `src` by the module they hold.
fn module_files(src: &Path) -> BTreeMap<Module, Vec<PathBuf>> {
    let mut modules: BTreeMap<Module, Vec<PathBuf>> = BTreeMap::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix(src).unwrap().with_extension("");
                let mut module: Module = relative
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                if is_mod_file(&path) {
                    module.pop();
                }
                modules.entry(module).or_default().push(path);
            }
        }
    }
    for files in modules.values_mut() {
        files.sort();
    }
    modules
}

/// Whether `file` holds its folder's module, or the crate root.
fn is_mod_file(file: &Path) -> bool {
    let stem = file.file_stem().unwrap_or_default();
    stem == "mod" || stem == "lib" || stem == "main"
}

/// `text` without its `#[cfg(test)] mod tests { ... }` (and anything after
/// it) and without comments.
fn code(text: &str) -> String {
    let mut end = text.len();
    let mut from = 0;
    while let Some(at) = text[from..].find("#[cfg(test)]") {
        let start = from + at;
        let rest = text[start + "#[cfg(test)]".len()..].trim_start();
        let is_tests = rest
            .strip_prefix("mod")
            .filter(|r| r.starts_with(char::is_whitespace))
            .and_then(|r| r.trim_start().strip_prefix("tests"))
            .is_some_and(|r| r.trim_start().starts_with('{'));
        if is_tests {
            end = start;
            break;
        }
        from = start + 1;
    }
    text[..end]
        .lines()
        .map(|line| line.find("//").map_or(line, |at| &line[..at]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The modules of `modules` other than `module` itself that `code`, from
/// the file of `module`, imports.
fn imports(
    module: &Module,
    code: &str,
    modules: &BTreeMap<Module, Vec<PathBuf>>,
) -> BTreeSet<Module> {
    let mut found = BTreeSet::new();
    let mut add_longest = |path: &[String], shortest: usize| {
        for n in (shortest..=path.len()).rev() {
            if modules.contains_key(&path[..n]) {
                if path[..n] != module[..] {
                    found.insert(path[..n].to_vec());
                }
                break;
            }
        }
    };
    for path in paths_after(code, "crate::") {
        add_longest(&path, 1);
    }
    // `super` is the parent of the file's module: of `a/b.rs` (module
    // `a::b`) `a`, of `a/mod.rs` (module `a`) the root.
    let base = &module[..module.len().saturating_sub(1)];
    for path in paths_after(code, "super::") {
        let full: Vec<String> = base.iter().cloned().chain(path).collect();
        add_longest(&full, base.len() + 1);
    }
    for group in groups_after(code, "crate::{") {
        for item in group.split(|c: char| c == ',' || c.is_whitespace()) {
            let head = vec![item.split("::").next().unwrap().to_string()];
            if modules.contains_key(&head) && head != *module {
                found.insert(head);
            }
        }
    }
    found
}

/// The lower-case paths (`a::b`) that follow each `prefix` which starts a word.
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    after_each(code, prefix, |text| {
        let mut path = Vec::new();
        let mut rest = text;
        while let Some(len) = ident_len(rest) {
            path.push(rest[..len].to_string());
            rest = &rest[len..];
            match rest.strip_prefix("::") {
                Some(next) if ident_len(next).is_some() => rest = next,
                _ => break,
            }
        }
        if !path.is_empty() {
            paths.push(path);
        }
        text.len() - rest.len()
    });
    paths
}

/// The text between `{` and the first `}` after each `prefix` (which ends
/// in `{`) that starts a word.
fn groups_after<'a>(code: &'a str, prefix: &str) -> Vec<&'a str> {
    let mut groups = Vec::new();
    after_each(code, prefix, |text| match text.find('}') {
        Some(len) => {
            groups.push(&text[..len]);
            len + 1
        }
        None => 0,
    });
    groups
}

/// Hands `read` the text after each `prefix` that starts a word; `read`
/// returns how much of it it took, which is not searched again (so the
/// `super::x` of `super::super::x` is not read as a path of its own).
fn after_each<'a>(code: &'a str, prefix: &str, mut read: impl FnMut(&'a str) -> usize) {
    let mut from = 0;
    while let Some(at) = code[from..].find(prefix) {
        let start = from + at;
        from = start + prefix.len();
        if starts_word(code, start) {
            from += read(&code[from..]);
        }
    }
}

fn starts_word(code: &str, at: usize) -> bool {
    code[..at]
        .chars()
        .next_back()
        .is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
}

/// The length of the lower-case identifier `text` starts with, if any.
fn ident_len(text: &str) -> Option<usize> {
    let first = text.chars().next()?;
    if !(first.is_ascii_lowercase() || first == '_') {
        return None;
    }
    Some(
        text.find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'))
            .unwrap_or(text.len()),
    )
}

/// Tarjan's strongly connected components of `edges`, each sorted.
fn strongly_connected(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct Tarjan<'a> {
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        on_stack: BTreeSet<&'a Module>,
        components: Vec<Vec<Module>>,
    }
    impl<'a> Tarjan<'a> {
        fn visit(&mut self, v: &'a Module) {
            let i = self.index.len();
            self.index.insert(v, i);
            self.low.insert(v, i);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.edges.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                loop {
                    let w = self.stack.pop().unwrap();
                    self.on_stack.remove(w);
                    component.push(w.clone());
                    if w == v {
                        break;
                    }
                }
                component.sort();
                self.components.push(component);
            }
        }
    }
    let mut tarjan = Tarjan {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        components: Vec::new(),
    };
    for v in edges.keys() {
        if !tarjan.index.contains_key(v) {
            tarjan.visit(v);
        }
    }
    tarjan.components
}

/// A crate of `files` (path, text) in a temporary folder, and its cycles as
/// sorted lists of file names.
fn cycles_of(files: &[(&str, &str)]) -> Vec<Vec<String>> {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    cycles(dir.path())
        .into_iter()
        .map(|cycle| {
            let mut names: Vec<String> = cycle
                .iter()
                .map(|(file, _)| {
                    let relative = file.strip_prefix(dir.path()).unwrap();
                    relative.to_string_lossy().into_owned()
                })
                .collect();
            names.sort();
            names
        })
        .collect()
}

#[test]
fn two_files_that_import_each_other_are_a_cycle() {
    let found = cycles_of(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        ("a.rs", "use crate::b::Thing;\n"),
        ("b.rs", "pub struct Thing;\npub fn f() { super::a::g() }\n"),
    ]);
    assert_eq!(found, vec![vec!["a.rs".to_string(), "b.rs".to_string()]]);
}

#[test]
fn a_cycle_through_a_third_file_and_a_use_group_is_found() {
    let found = cycles_of(&[
        ("lib.rs", "mod a;\nmod b;\nmod c;\n"),
        ("a.rs", "use crate::{b, Root};\n"),
        ("b.rs", "fn f() { crate::c::inner::g() }\n"),
        ("c/mod.rs", "pub mod inner;\nuse crate::b;\n"),
        ("c/inner.rs", "use crate::a::Thing;\n"),
    ]);
    assert_eq!(
        found,
        vec![vec!["a.rs", "b.rs", "c/inner.rs"]],
        "c/mod.rs only imports"
    );
}

#[test]
fn imports_one_way_in_tests_or_in_comments_are_no_cycle() {
    let found = cycles_of(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        ("a.rs", "use crate::b::Thing;\n"),
        (
            "b.rs",
            "pub struct Thing; // not crate::a::X\n\
             #[cfg(test)]\nmod tests {\n    use crate::a;\n}\n",
        ),
    ]);
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn super_super_is_not_read_as_a_sibling() {
    let found = cycles_of(&[
        (
            "lib.rs",
            "mod b;
mod c;
",
        ),
        (
            "c/mod.rs",
            "mod b;
mod inner;
",
        ),
        (
            "c/inner.rs",
            "use super::super::b::Thing;
",
        ),
        (
            "c/b.rs",
            "use super::inner;
",
        ),
        (
            "b.rs",
            "pub struct Thing;
",
        ),
    ]);
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn the_members_are_read_from_the_workspace_table() {
    let manifest = "[package]\nname = \"x\"\n\n[workspace]\nresolver = \"2\"\n\
                    default-members = [\"engine\"]\nmembers = [\n    \"engine\",\n    \
                    \"host\", # the sandbox\n]\n\n[workspace.package]\nversion = \"0.1.0\"\n";
    assert_eq!(workspace_members(manifest), vec!["engine", "host"]);
}
