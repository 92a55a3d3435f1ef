//! A Kaggle submission as Kaggle takes it: a `main.py`, a folder with
//! `main.py` at its top, or a `.tar.gz` with `main.py` at its root. Its
//! Python files are read into memory under their paths relative to
//! `main.py`'s folder; other files are left out (a bot has no file system).

use super::BuildError;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The Python source a submission may carry, in all (Kaggle's own limit on
/// a submission is 100 MB compressed).
pub const MAX_SOURCE_BYTES: u64 = 64 << 20;

/// The submission's Python files, by path relative to `main.py`'s folder
/// (`/`-separated), `main.py` among them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submission {
    /// Where it was read from, for messages.
    pub origin: PathBuf,
    pub files: BTreeMap<String, String>,
    /// The name `main.py` had, when the submission is one file of another name.
    main_name: Option<String>,
}

/// The form a submission comes in, by its path.
pub fn is_archive(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.ends_with(".tar.gz") || name.ends_with(".tgz")
}

impl Submission {
    /// Reads a `.py` file (as `main.py`), a folder or a `.tar.gz`.
    pub fn read(path: &Path) -> Result<Submission, BuildError> {
        let mut files = BTreeMap::new();
        let mut main_name = None;
        if path.is_dir() {
            let mut total = 0;
            read_dir(path, path, &mut files, &mut total)?;
        } else if is_archive(path) {
            read_archive(path, &mut files)?;
        } else {
            let bytes = std::fs::read(path).map_err(|e| BuildError::Read {
                path: path.to_path_buf(),
                source: e,
            })?;
            files.insert("main.py".to_string(), utf8(path, "", bytes)?);
            main_name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .filter(|n| n != "main.py");
        }
        if !files.contains_key("main.py") {
            return Err(BuildError::invalid(path, no_main_message(path, &files)));
        }
        Ok(Submission {
            origin: path.to_path_buf(),
            files,
            main_name,
        })
    }

    /// A file's name in messages: its path in the submission, and for a
    /// one-file submission the file's own name.
    pub fn shown(&self, rel: &str) -> String {
        match &self.main_name {
            Some(name) if rel == "main.py" => name.clone(),
            _ => rel.to_string(),
        }
    }

    /// Writes the files under `dir`.
    pub fn write_to(&self, dir: &Path) -> std::io::Result<()> {
        for (rel, text) in &self.files {
            let path = dir.join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(path, text)?;
        }
        Ok(())
    }
}

fn no_main_message(path: &Path, files: &BTreeMap<String, String>) -> String {
    let nested = files.keys().find(|f| f.ends_with("/main.py"));
    let form = if path.is_dir() { "folder" } else { "archive" };
    match nested {
        Some(n) => format!(
            "no main.py at the top of the {form} (there is {n}); Kaggle also runs only a main.py at the root: make the {form} from inside the agent's folder"
        ),
        None => format!(
            "no main.py at the top of the {form}: a Kaggle submission is a main.py whose last function is the agent"
        ),
    }
}

fn utf8(origin: &Path, rel: &str, bytes: Vec<u8>) -> Result<String, BuildError> {
    String::from_utf8(bytes).map_err(|e| {
        let file = if rel.is_empty() {
            String::new()
        } else {
            format!("{rel} ")
        };
        BuildError::invalid(
            origin,
            format!(
                "{file}is not UTF-8 (byte {}): Kaggle reads main.py as UTF-8; save it as UTF-8",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

fn add(
    origin: &Path,
    files: &mut BTreeMap<String, String>,
    total: &mut u64,
    rel: String,
    bytes: Vec<u8>,
) -> Result<(), BuildError> {
    *total += bytes.len() as u64;
    if *total > MAX_SOURCE_BYTES {
        return Err(BuildError::invalid(
            origin,
            format!(
                "more than {} MiB of Python source; a bot carries its code in memory",
                MAX_SOURCE_BYTES >> 20
            ),
        ));
    }
    let text = utf8(origin, &rel, bytes)?;
    files.insert(rel, text);
    Ok(())
}

/// Every `.py` file under `dir`, skipping hidden folders, `__pycache__` and
/// virtual environments (a folder with `pyvenv.cfg`): what an agent's
/// folder holds beside its code.
fn read_dir(
    root: &Path,
    dir: &Path,
    files: &mut BTreeMap<String, String>,
    total: &mut u64,
) -> Result<(), BuildError> {
    let read_err = |path: &Path, e| BuildError::Read {
        path: path.to_path_buf(),
        source: e,
    };
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| read_err(dir, e))?
        .collect::<Result<_, _>>()
        .map_err(|e| read_err(dir, e))?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        // Follows links to files, not to folders (no cycles).
        let kind = entry.file_type().map_err(|e| read_err(&path, e))?;
        if kind.is_dir() {
            let skipped =
                name.starts_with('.') || name == "__pycache__" || path.join("pyvenv.cfg").exists();
            if !skipped {
                read_dir(root, &path, files, total)?;
            }
        } else if name.ends_with(".py") && path.is_file() {
            let rel = path
                .strip_prefix(root)
                .expect("under the root")
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            let bytes = std::fs::read(&path).map_err(|e| read_err(&path, e))?;
            add(root, files, total, rel, bytes)?;
        }
    }
    Ok(())
}

/// The `.py` files of a gzip-compressed tar archive, read into memory (no
/// file is written, so no entry can land outside anything).
fn read_archive(path: &Path, files: &mut BTreeMap<String, String>) -> Result<(), BuildError> {
    let file = std::fs::File::open(path).map_err(|e| BuildError::Read {
        path: path.to_path_buf(),
        source: e,
    })?;
    let bad = |e: std::io::Error| {
        BuildError::invalid(path, format!("not a readable .tar.gz ({e}); make it with `tar czf submission.tar.gz main.py ...` from inside the agent's folder"))
    };
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(file));
    let mut total = 0;
    for entry in archive.entries().map_err(bad)? {
        let mut entry = entry.map_err(bad)?;
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let raw = entry.path().map_err(bad)?.into_owned();
        let Some(rel) = relative_path(&raw) else {
            continue;
        };
        if !rel.ends_with(".py") {
            continue;
        }
        let mut bytes = Vec::new();
        entry
            .by_ref()
            .take(MAX_SOURCE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(bad)?;
        add(path, files, &mut total, rel, bytes)?;
    }
    Ok(())
}

/// An archive entry's path as `a/b.py`, without `./`; `None` for absolute
/// paths and paths through `..`.
fn relative_path(raw: &Path) -> Option<String> {
    let mut parts = Vec::new();
    for c in raw.components() {
        match c {
            std::path::Component::Normal(p) => parts.push(p.to_str()?.to_string()),
            std::path::Component::CurDir => {}
            _ => return None,
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// The submission's modules by import name: `strategy.py` is `strategy`,
/// `pkg/__init__.py` the package `pkg`, `pkg/a.py` the module `pkg.a`.
/// Folders without `__init__.py` that hold modules are namespace packages.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Modules {
    /// Module name to file.
    pub modules: BTreeMap<String, String>,
    /// Package name to its `__init__.py`, or `None` for a namespace package.
    pub packages: BTreeMap<String, Option<String>>,
}

impl Modules {
    pub fn of<'a>(files: impl IntoIterator<Item = &'a String>) -> Modules {
        let mut m = Modules::default();
        for rel in files {
            let Some(stem) = rel.strip_suffix(".py") else {
                continue;
            };
            let parts: Vec<&str> = stem.split('/').collect();
            if !parts.iter().all(|p| is_identifier(p)) {
                continue;
            }
            for i in 1..parts.len() {
                m.packages.entry(parts[..i].join(".")).or_insert(None);
            }
            if parts.last() == Some(&"__init__") {
                if parts.len() > 1 {
                    m.packages
                        .insert(parts[..parts.len() - 1].join("."), Some(rel.clone()));
                }
            } else {
                m.modules.insert(parts.join("."), rel.clone());
            }
        }
        m
    }

    pub fn contains(&self, name: &str) -> bool {
        self.modules.contains_key(name) || self.packages.contains_key(name)
    }

    /// The file that defines `name` (a package's `__init__.py`), if any.
    pub fn file(&self, name: &str) -> Option<&String> {
        self.modules
            .get(name)
            .or_else(|| self.packages.get(name).and_then(|p| p.as_ref()))
    }
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c == '_' || c.is_alphabetic())
        && chars.all(|c| c == '_' || c.is_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_names_follow_pythons_import_rules() {
        let files: Vec<String> = [
            "main.py",
            "strategy.py",
            "pkg/__init__.py",
            "pkg/a.py",
            "ns/deep/b.py",
            "my-lib/x.py",
            "notes.txt",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let m = Modules::of(&files);
        assert_eq!(m.file("strategy"), Some(&"strategy.py".to_string()));
        assert_eq!(m.file("pkg"), Some(&"pkg/__init__.py".to_string()));
        assert_eq!(m.file("pkg.a"), Some(&"pkg/a.py".to_string()));
        assert_eq!(m.packages.get("ns"), Some(&None));
        assert_eq!(m.packages.get("ns.deep"), Some(&None));
        assert!(m.contains("ns.deep.b"));
        assert!(!m.contains("my-lib.x") && !m.contains("notes"));
    }

    #[test]
    fn a_folder_gives_its_python_files_but_not_what_lies_beside_the_code() {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in [
            ("main.py", "def agent(obs, config):\n    return {}\n"),
            ("lib/strategy.py", "X = 1\n"),
            ("notes.txt", "not code"),
            (".git/hooks/x.py", ""),
            ("__pycache__/main.py", ""),
            ("env/pyvenv.cfg", "home = /usr/bin\n"),
            ("env/lib/site.py", ""),
        ] {
            let p = dir.path().join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        let s = Submission::read(dir.path()).unwrap();
        let files: Vec<&str> = s.files.keys().map(|f| f.as_str()).collect();
        assert_eq!(files, ["lib/strategy.py", "main.py"]);
        assert_eq!(s.shown("main.py"), "main.py");
    }

    #[test]
    fn archive_paths_stay_inside_the_submission() {
        assert_eq!(
            relative_path(Path::new("./main.py")).as_deref(),
            Some("main.py")
        );
        assert_eq!(
            relative_path(Path::new("a/b.py")).as_deref(),
            Some("a/b.py")
        );
        assert_eq!(relative_path(Path::new("../evil.py")), None);
        assert_eq!(relative_path(Path::new("/etc/evil.py")), None);
        assert_eq!(relative_path(Path::new("a/../../b.py")), None);
    }
}
