//! The sha256 of bot files, remembered by their metadata, as git's index
//! remembers what its files hold.
//!
//! A Python bot is a 20 MB file: reading and hashing it costs about 15 ms on
//! every load, ten times what loading its compiled form from the disk cache
//! costs. So once a file has been hashed, its sha256 is recorded in the cache
//! directory beside what identifies that version of the file: device, inode,
//! size, and modification and change times to the nanosecond. A later load
//! finding all of them unchanged takes the recorded sha256 without reading the
//! file.
//!
//! Any write to the file, a rename over it or a `touch` changes its change
//! time (ctime), which no user can set back. The one gap is a write within
//! the file system's timestamp granularity of the hash being taken (the
//! "racy" case in git's terms); a file is therefore recorded only once both
//! of its times are [`RACY_MARGIN`] in the past, and until then it is hashed
//! on every load. The wall clock read here decides only whether to skip a
//! hash; it never reaches a game or a bot. Whoever can write the cache
//! directory could already replace the compiled code it holds, so trusting
//! what is recorded there opens nothing new.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// How old a file's times must be before its sha256 is recorded.
const RACY_MARGIN: Duration = Duration::from_secs(2);

/// Recorded sha256s of bot files, one small file each under `dir`.
#[derive(Debug, Clone)]
pub(crate) struct FileMemo {
    dir: PathBuf,
    margin: Duration,
}

/// What identifies one version of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Stamp(String);

impl Stamp {
    /// The stamp of the file `meta` describes; `None` where the platform
    /// does not give inode and change time.
    pub(crate) fn of(meta: &std::fs::Metadata) -> Option<Stamp> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Some(Stamp(format!(
                "{} {} {} {}.{:09} {}.{:09}",
                meta.dev(),
                meta.ino(),
                meta.size(),
                meta.mtime(),
                meta.mtime_nsec(),
                meta.ctime(),
                meta.ctime_nsec()
            )))
        }
        #[cfg(not(unix))]
        {
            let _ = meta;
            None
        }
    }

    /// Whether both times are at least `margin` before now.
    fn settled(meta: &std::fs::Metadata, margin: Duration) -> bool {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let Ok(now) = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH) else {
                return false;
            };
            let cutoff = now.saturating_sub(margin);
            let time = |secs: i64, nanos: i64| {
                Duration::new(
                    u64::try_from(secs).unwrap_or(0),
                    nanos.clamp(0, 999_999_999) as u32,
                )
            };
            time(meta.mtime(), meta.mtime_nsec()) <= cutoff
                && time(meta.ctime(), meta.ctime_nsec()) <= cutoff
        }
        #[cfg(not(unix))]
        {
            let _ = (meta, margin);
            false
        }
    }
}

impl FileMemo {
    /// The memo kept in `cache_dir` (the sandbox's module cache).
    pub(crate) fn new(cache_dir: &Path) -> FileMemo {
        FileMemo {
            dir: cache_dir.join("files"),
            margin: RACY_MARGIN,
        }
    }

    /// Where the entry for `path` lives: named by the sha256 of its
    /// absolute path, so any path fits in a file name.
    fn entry(&self, path: &Path) -> Option<PathBuf> {
        let absolute = std::path::absolute(path).ok()?;
        let key = crate::digest::sha256_hex(absolute.as_os_str().as_encoded_bytes());
        Some(self.dir.join(&key[..32]))
    }

    /// The recorded sha256 of the file at `path`, if `meta` (its metadata,
    /// read now) is the version that was hashed.
    pub(crate) fn sha256(&self, path: &Path, meta: &std::fs::Metadata) -> Option<String> {
        let stamp = Stamp::of(meta)?;
        let text = std::fs::read_to_string(self.entry(path)?).ok()?;
        let (recorded, sha256) = text.trim_end().rsplit_once(' ')?;
        (crate::digest::is_sha256_hex(sha256) && recorded == stamp.0).then(|| sha256.to_string())
    }

    /// Records that the file at `path`, as `meta` describes it, hashes to
    /// `sha256`; skipped while the file is too fresh to trust its times.
    pub(crate) fn record(&self, path: &Path, meta: &std::fs::Metadata, sha256: &str) {
        let (Some(stamp), Some(entry)) = (Stamp::of(meta), self.entry(path)) else {
            return;
        };
        if !Stamp::settled(meta, self.margin) {
            return;
        }
        if let Err(e) = crate::atomic_write::write_atomically(
            &entry,
            format!("{} {sha256}\n", stamp.0).as_bytes(),
        ) {
            tracing::debug!("cannot record the sha256 of {}: {e}", path.display());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHA_A: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";

    /// A directory holding `bot.wasm`, and a memo there with `margin`.
    struct Fixture {
        dir: tempfile::TempDir,
        file: PathBuf,
        memo: FileMemo,
    }

    impl Fixture {
        fn new(margin: Duration) -> Fixture {
            let dir = tempfile::tempdir().unwrap();
            let file = dir.path().join("bot.wasm");
            std::fs::write(&file, b"one").unwrap();
            let memo = FileMemo {
                dir: dir.path().join("files"),
                margin,
            };
            Fixture { dir, file, memo }
        }

        /// A fixture whose file's sha256 is recorded as `SHA_A`.
        fn recorded() -> Fixture {
            let f = Fixture::new(Duration::ZERO);
            f.memo.record(&f.file, &f.meta(), SHA_A);
            f
        }

        fn meta(&self) -> std::fs::Metadata {
            std::fs::metadata(&self.file).unwrap()
        }

        fn lookup(&self) -> Option<String> {
            self.memo.sha256(&self.file, &self.meta())
        }
    }

    #[test]
    fn an_unchanged_file_gives_its_recorded_sha256() {
        let f = Fixture::new(Duration::ZERO);
        assert_eq!(f.lookup(), None);
        f.memo.record(&f.file, &f.meta(), SHA_A);
        assert_eq!(f.lookup().as_deref(), Some(SHA_A));
        // The same file reached by another spelling of its path.
        let other = f.dir.path().join(".").join("bot.wasm");
        let meta = std::fs::metadata(&other).unwrap();
        assert_eq!(f.memo.sha256(&other, &meta).as_deref(), Some(SHA_A));
    }

    #[test]
    fn a_rewrite_of_the_same_size_is_not_trusted() {
        let f = Fixture::recorded();
        // Past the kernel's timestamp granularity, so the change time moves.
        std::thread::sleep(Duration::from_millis(30));
        std::fs::write(&f.file, b"two").unwrap();
        assert_eq!(f.lookup(), None);
    }

    #[test]
    fn a_replaced_file_is_not_trusted() {
        let f = Fixture::recorded();
        // A new file renamed over it: another inode.
        let new = f.dir.path().join("new.wasm");
        std::fs::write(&new, b"two").unwrap();
        std::fs::rename(&new, &f.file).unwrap();
        assert_eq!(f.lookup(), None);
    }

    #[test]
    fn a_fresh_file_is_not_recorded() {
        let f = Fixture::new(RACY_MARGIN);
        f.memo.record(&f.file, &f.meta(), SHA_A);
        assert_eq!(f.lookup(), None);
        assert!(!f.dir.path().join("files").exists());
    }

    #[test]
    fn a_damaged_entry_is_ignored() {
        let f = Fixture::recorded();
        let entry = f.memo.entry(&f.file).unwrap();
        let text = std::fs::read_to_string(&entry).unwrap();
        std::fs::write(&entry, &text[..text.len() - 5]).unwrap();
        assert_eq!(f.lookup(), None);
        std::fs::write(&entry, text.replace(SHA_A, &SHA_A.to_uppercase())).unwrap();
        assert_eq!(f.lookup(), None);
    }
}
