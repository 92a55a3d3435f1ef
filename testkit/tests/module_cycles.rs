//! No crate of the workspace has files that import each other, directly or
//! through others: a cycle makes modules that can only be read, tested and
//! moved together, so each module's dependencies must go one way.
//!
//! Imports are read from the text, not resolved by the compiler, and each
//! imported name is read to the file that defines it: `crate::a::B`, `super::B`,
//! `self::B` and a bare `child::B` (a child module the file declares) name
//! the deepest module file on their path, `a/b.rs` (or `a/b/mod.rs`) before
//! `a.rs`, and a name a module re-exports (`pub use x::B`) is followed to
//! the file that defines it. A re-export alone is not a use. The crate root
//! is a module like any other: a root that uses a module which uses the
//! root is a cycle. One use is not counted: a file's use of the folder
//! module it is part of (`a/b.rs` of `a/mod.rs`, but never of the crate
//! root), as a module split into files is read as one. Comments, strings,
//! and a `#[cfg(test)] mod tests` with what follows it, are left out: tests
//! may reach anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module by its path from the crate root: `["build", "kaggle"]`; the root is empty.
type Module = Vec<String>;

/// The workspace's folder.
fn workspace() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

#[test]
fn no_crate_of_the_workspace_has_a_module_cycle() {
    let root = workspace();
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

/// The edges from the leaderboard's store up, out of `store/`, are exactly
/// those ARCHITECTURE.md lists in its sentence on them, each written as
/// `` `store::legacy` → `ratings::history` `` (the root is `crate`).
#[test]
fn the_leaderboard_store_depends_upward_only_as_architecture_md_says() {
    let root = workspace();
    let architecture = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let marker = "edges from the store up";
    let at = architecture
        .find(marker)
        .unwrap_or_else(|| panic!("ARCHITECTURE.md has no sentence starting {marker:?}"));
    let paragraph = architecture[at..].split("\n\n").next().unwrap();
    let said: BTreeSet<(String, String)> = arrows(paragraph).into_iter().collect();
    assert!(!said.is_empty(), "no edges read from {paragraph:?}");

    let krate = Crate::read(&root.join("leaderboard/src"));
    let name = |m: &Module| match m.is_empty() {
        true => "crate".to_string(),
        false => m.join("::"),
    };
    let found: BTreeSet<(String, String)> = krate
        .edges()
        .iter()
        .filter(|(from, _)| from.first().is_some_and(|m| m == "store"))
        .flat_map(|(from, to)| {
            to.iter()
                .filter(|m| m.first().is_none_or(|m| m != "store"))
                .map(|to| (name(from), name(to)))
        })
        .collect();
    assert_eq!(
        found, said,
        "the store's edges up (left) are not those ARCHITECTURE.md lists (right)"
    );
}

/// Each `` `a` → `b` `` of `text`, as `(a, b)`.
fn arrows(text: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find('→') {
        let before = rest[..at].trim_end();
        let after = rest[at + '→'.len_utf8()..].trim_start();
        let from = before
            .strip_suffix('`')
            .and_then(|b| b.rsplit_once('`'))
            .map(|(_, name)| name);
        let to = after
            .strip_prefix('`')
            .and_then(|a| a.split_once('`'))
            .map(|(name, _)| name);
        if let (Some(from), Some(to)) = (from, to) {
            found.push((from.to_string(), to.to_string()));
        }
        rest = &rest[at + '→'.len_utf8()..];
    }
    found
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
    let krate = Crate::read(src);
    let edges = krate.edges();
    strongly_connected(&edges)
        .into_iter()
        .filter(|component| component.len() > 1)
        .map(|component| {
            let mut files = Vec::new();
            for module in &component {
                let imported: Vec<PathBuf> = edges[module]
                    .iter()
                    .filter(|m| component.contains(*m))
                    .flat_map(|m| krate.files[m].clone())
                    .collect();
                for file in &krate.files[module] {
                    files.push((file.clone(), imported.clone()));
                }
            }
            files
        })
        .collect()
}

/// A crate's files, read.
struct Crate {
    /// The `.rs` files by the module they hold.
    files: BTreeMap<Module, Vec<PathBuf>>,
    /// Each module's code: its files without tests, comments and strings.
    code: BTreeMap<Module, String>,
    /// What each module re-exports (`pub use`): the name, and the path as written.
    reexports: BTreeMap<Module, BTreeMap<String, String>>,
}

impl Crate {
    fn read(src: &Path) -> Crate {
        let files = module_files(src);
        let code: BTreeMap<Module, String> = files
            .iter()
            .map(|(module, files)| {
                let texts: Vec<String> = files
                    .iter()
                    .map(|file| code(&std::fs::read_to_string(file).unwrap()))
                    .collect();
                (module.clone(), texts.join("\n"))
            })
            .collect();
        let reexports = code
            .iter()
            .map(|(module, code)| {
                let names = uses(code)
                    .into_iter()
                    .filter(|(public, _)| *public)
                    .map(|(_, path)| {
                        let name = path.rsplit("::").next().unwrap().to_string();
                        (name, path)
                    })
                    .collect();
                (module.clone(), names)
            })
            .collect();
        Crate {
            files,
            code,
            reexports,
        }
    }

    /// The modules other than itself whose items each module uses.
    fn edges(&self) -> BTreeMap<Module, BTreeSet<Module>> {
        self.code
            .iter()
            .map(|(module, code)| {
                let kids = children(code);
                // A re-export is a facade, not a use.
                let mut refs: Vec<String> = uses(code)
                    .into_iter()
                    .filter(|(public, _)| !public)
                    .map(|(_, path)| path)
                    .collect();
                for path in paths(&without_uses(code)) {
                    let first = path.split("::").next().unwrap();
                    if matches!(first, "crate" | "super" | "self") || kids.contains(first) {
                        refs.push(path);
                    }
                }
                let imports = refs
                    .iter()
                    .filter_map(|path| self.absolute(module, &kids, path))
                    .map(|path| self.defining(&path, 0))
                    .filter(|defining| defining != module && !is_part_of(module, defining))
                    .collect();
                (module.clone(), imports)
            })
            .collect()
    }

    /// A path as written in `module` (whose child modules are `kids`), as a
    /// path from the crate root, or `None` if it leaves the crate.
    fn absolute(&self, module: &Module, kids: &BTreeSet<String>, path: &str) -> Option<Module> {
        let segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
        let (mut base, mut rest) = match *segments.first()? {
            "crate" => (Vec::new(), &segments[1..]),
            "self" => (module.clone(), &segments[1..]),
            "super" => (module.clone(), &segments[..]),
            first if kids.contains(first) => (module.clone(), &segments[..]),
            _ => return None,
        };
        while rest.first() == Some(&"super") {
            base.pop();
            rest = &rest[1..];
        }
        base.extend(
            rest.iter()
                .filter(|s| **s != "self" && **s != "*")
                .map(|s| s.to_string()),
        );
        Some(base)
    }

    /// The module whose file defines the item at `path` from the crate root,
    /// following re-exports.
    fn defining(&self, path: &[String], depth: usize) -> Module {
        let mut module: Module = Vec::new();
        for (i, name) in path.iter().enumerate() {
            let mut child = module.clone();
            child.push(name.clone());
            if self.files.contains_key(&child) {
                module = child;
                continue;
            }
            let reexport = self.reexports.get(&module).and_then(|r| r.get(name));
            if let (Some(reexport), true) = (reexport, depth < 8) {
                let kids = children(&self.code[&module]);
                if let Some(mut target) = self.absolute(&module, &kids, reexport) {
                    target.extend(path[i + 1..].iter().cloned());
                    return self.defining(&target, depth + 1);
                }
            }
            return module;
        }
        module
    }
}

/// Whether `module` is one of the files that `ancestor`, a folder module
/// other than the crate root, is split into (`a/b.rs`, `a/b/c.rs` of
/// `a/mod.rs`): a part may use what the whole defines, so that use is not
/// counted. What the folder module uses of its parts is, as is every use of
/// the crate root: a part that also reaches its folder module through
/// another module is a cycle.
fn is_part_of(module: &Module, ancestor: &Module) -> bool {
    !ancestor.is_empty() && module.len() > ancestor.len() && module.starts_with(ancestor)
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
/// it), without comments, and with every string literal emptied.
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
    let chars: Vec<char> = text[..end].chars().collect();
    let mut out = String::with_capacity(end);
    let mut i = 0;
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    while i < chars.len() {
        let c = chars[i];
        let word_before = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && at(i + 1) == '/') {
                i += 1;
            }
            i += 2;
            out.push(' ');
        } else if c == '"' || (c == 'r' && !word_before && matches!(at(i + 1), '"' | '#')) {
            // A string, or a raw string `r#"..."#`, emptied.
            let raw = c == 'r';
            let mut hashes = 0;
            i += 1;
            if raw {
                while at(i) == '#' {
                    hashes += 1;
                    i += 1;
                }
                if at(i) != '"' {
                    // `r#ident`, a raw identifier.
                    out.push('r');
                    out.extend(std::iter::repeat_n('#', hashes));
                    continue;
                }
                i += 1;
            }
            while i < chars.len() {
                if !raw && chars[i] == '\\' {
                    i += 2;
                } else if chars[i] == '"' && (0..hashes).all(|h| at(i + 1 + h) == '#') {
                    i += 1 + hashes;
                    break;
                } else {
                    i += 1;
                }
            }
            out.push_str("\"\"");
        } else if c == '\'' && at(i + 1) == '\\' {
            // A char literal with an escape: `'\''`, `'\u{..}'`.
            i += 3;
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else if c == '\'' && at(i + 2) == '\'' {
            i += 3;
            out.push_str("' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Each `use` declaration of `code`: whether it is public (`pub` or
/// `pub(...)`, a re-export), and each path it names, without spaces, a
/// group `a::{b, c::d}` spelled out as `a::b` and `a::c::d`.
fn uses(code: &str) -> Vec<(bool, String)> {
    use_declarations(code)
        .into_iter()
        .flat_map(|(_, public, tree)| {
            expand(&tree)
                .into_iter()
                .map(move |path| (public, path.split_whitespace().collect::<String>()))
        })
        .collect()
}

/// `code` with every `use` declaration blanked.
fn without_uses(code: &str) -> String {
    let mut out = code.to_string();
    for (span, _, _) in use_declarations(code) {
        out.replace_range(span.clone(), &" ".repeat(span.len()));
    }
    out
}

/// Each `use` declaration of `code`: where it lies (with its `pub`),
/// whether it is public, and its tree.
fn use_declarations(code: &str) -> Vec<(std::ops::Range<usize>, bool, String)> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("use") {
        let start = from + at;
        from = start + 3;
        let before_ok = code[..start]
            .chars()
            .next_back()
            .is_none_or(|c| !is_word(c));
        let after = &code[start + 3..];
        if !before_ok || !after.starts_with(char::is_whitespace) {
            continue;
        }
        let Some(len) = after.find(';') else { break };
        let tree = after[..len].trim().to_string();
        let end = start + 3 + len + 1;
        // `pub`, or `pub(crate)`, `pub(super)`, `pub(in a::b)`, just before.
        let before = code[..start].trim_end();
        let visibility = if before.ends_with(')') {
            before.rfind('(').and_then(|open| {
                let head = code[..open].trim_end();
                head.strip_suffix("pub").map(|_| head.len() - 3)
            })
        } else {
            before.strip_suffix("pub").map(|_| before.len() - 3)
        }
        .filter(|&p| code[..p].chars().next_back().is_none_or(|c| !is_word(c)));
        found.push((visibility.unwrap_or(start)..end, visibility.is_some(), tree));
        from = end;
    }
    found
}

/// `a::{b, c::{d, e}}` as `a::b`, `a::c::d`, `a::c::e`; `a as b` as `a`.
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let (Some(open), true) = (tree.find('{'), tree.ends_with('}')) else {
        let path = match tree.rsplit_once(" as ") {
            Some((path, _)) => path.trim(),
            None => tree,
        };
        return vec![path.to_string()];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.len() - 1];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .flat_map(|p| expand(&format!("{prefix}{p}")))
        .collect()
}

/// The modules `code` declares in files of their own (`mod name;`).
fn children(code: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("mod") {
        let start = from + at;
        from = start + 3;
        let before_ok = code[..start]
            .chars()
            .next_back()
            .is_none_or(|c| !is_word(c));
        let after = &code[start + 3..];
        if !before_ok || !after.starts_with(char::is_whitespace) {
            continue;
        }
        let after = after.trim_start();
        let len = after.find(|c: char| !is_word(c)).unwrap_or(after.len());
        if len > 0 && after[len..].trim_start().starts_with(';') {
            found.insert(after[..len].to_string());
        }
    }
    found
}

/// Every path of two names or more (`a::b::C`) in `code` that starts a word.
fn paths(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = code;
    let mut previous = '\0';
    while let Some(c) = rest.chars().next() {
        if is_word(c) && !is_word(previous) {
            let mut len = 0;
            let mut names = 0;
            loop {
                let name = rest[len..]
                    .find(|c: char| !is_word(c))
                    .unwrap_or(rest.len() - len);
                if name == 0 {
                    break;
                }
                len += name;
                names += 1;
                let next = &rest[len..];
                if next.starts_with("::") && next[2..].starts_with(is_word) {
                    len += 2;
                } else {
                    break;
                }
            }
            if names > 1 {
                found.push(rest[..len].to_string());
            }
            previous = rest[..len].chars().next_back().unwrap();
            rest = &rest[len..];
        } else {
            previous = c;
            rest = &rest[c.len_utf8()..];
        }
    }
    found
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

#[test]
fn a_name_is_read_to_the_file_that_defines_it_through_re_exports() {
    let found = cycles_of(&[
        ("lib.rs", "mod a;\nmod store;\n"),
        (
            "a.rs",
            "pub struct Policy;\nfn f(s: &crate::store::Store) {}\n",
        ),
        ("store/mod.rs", "mod records;\npub use records::Store;\n"),
        (
            "store/records.rs",
            "use crate::a::Policy;\npub struct Store;\n",
        ),
    ]);
    assert_eq!(found, vec![vec!["a.rs", "store/records.rs"]]);
}

#[test]
fn a_re_export_alone_is_not_a_use() {
    let found = cycles_of(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        ("a.rs", "pub use crate::b::Thing;\npub struct Other;\n"),
        ("b.rs", "pub struct Thing;\nfn f(o: crate::a::Other) {}\n"),
    ]);
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn a_root_that_uses_a_module_which_uses_the_root_is_a_cycle() {
    let found = cycles_of(&[
        ("lib.rs", "mod a;\npub struct Error;\nfn f() { a::g() }\n"),
        ("a.rs", "pub fn g() -> crate::Error { todo!() }\n"),
    ]);
    assert_eq!(found, vec![vec!["a.rs", "lib.rs"]]);
}

#[test]
fn a_bare_path_to_a_child_module_is_a_use_and_strings_are_not() {
    let found = cycles_of(&[
        ("lib.rs", "mod a;\nmod c;\n"),
        ("a/mod.rs", "mod b;\nfn f() { b::g() }\n"),
        (
            "a/b.rs",
            "pub fn g() { let _ = \"crate::a::f()\"; crate::c::h() }\n",
        ),
        ("c.rs", "pub fn h() { crate::a::f() }\n"),
    ]);
    assert_eq!(found, vec![vec!["a/b.rs", "a/mod.rs", "c.rs"]]);
}

#[test]
fn a_part_may_use_its_folder_module_but_not_the_root() {
    let found = cycles_of(&[
        ("lib.rs", "mod a;\npub struct Root;\n"),
        ("a/mod.rs", "mod b;\npub struct State;\nfn f() { b::g() }\n"),
        ("a/b.rs", "use super::State;\npub fn g() {}\n"),
    ]);
    assert!(found.is_empty(), "{found:?}");
    let found = cycles_of(&[
        ("lib.rs", "mod a;\npub struct Root;\nfn f() { a::g() }\n"),
        ("a.rs", "pub fn g() -> crate::Root { crate::Root }\n"),
    ]);
    assert_eq!(found, vec![vec!["a.rs", "lib.rs"]]);
}
