//! Ludus's cache folder, where what can be made again is kept: compiled
//! modules, the tools that build bots.

use std::ffi::OsString;
use std::path::PathBuf;

/// Ludus's cache folder: `ludus` in the user's cache folder
/// (`$XDG_CACHE_HOME`, else `~/.cache`; on Windows the local app data
/// folder). `None` when no home folder can be found.
pub fn cache_dir() -> Option<PathBuf> {
    use etcetera::BaseStrategy as _;
    let base = etcetera::choose_base_strategy().ok()?;
    Some(base.cache_dir().join("ludus"))
}

/// The folder named by the environment variable `var`, else `name` in
/// [`cache_dir`].
pub(crate) fn cache_subdir(var: &str, name: &str) -> Option<PathBuf> {
    choose(std::env::var_os(var), cache_dir(), name)
}

/// What [`cache_subdir`] gives, from the variable's value and the cache
/// folder: apart so that it is tested without changing the process's
/// environment under other tests.
fn choose(overridden: Option<OsString>, cache: Option<PathBuf>, name: &str) -> Option<PathBuf> {
    match overridden {
        Some(dir) => Some(PathBuf::from(dir)),
        None => Some(cache?.join(name)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variable_wins_over_the_cache_folder() {
        let cache = Some(PathBuf::from("/home/u/.cache/ludus"));
        assert_eq!(
            choose(Some("/srv/modules".into()), cache.clone(), "modules"),
            Some(PathBuf::from("/srv/modules"))
        );
        assert_eq!(
            choose(Some("/srv/modules".into()), None, "modules"),
            Some(PathBuf::from("/srv/modules"))
        );
        assert_eq!(
            choose(None, cache, "tools"),
            Some(PathBuf::from("/home/u/.cache/ludus/tools"))
        );
        assert_eq!(choose(None, None, "tools"), None);
    }

    /// Reads the environment only, so it cannot race a test that sets it.
    #[cfg(target_os = "linux")]
    #[test]
    fn on_linux_the_cache_folder_is_xdg_s() {
        let xdg = std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .filter(|d| d.is_absolute());
        let base = xdg.or_else(|| std::env::home_dir().map(|h| h.join(".cache")));
        assert_eq!(cache_dir(), base.map(|b| b.join("ludus")));
    }
}
