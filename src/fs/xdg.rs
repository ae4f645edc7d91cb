//! Where the user's configuration lives, by the XDG Base Directory spec: ffind's own files
//! (its global ignore file, its config file) and git's (`core.excludesFile`'s default), which
//! git looks up by a slightly different rule. Reads the environment, nothing else.

use std::ffi::OsString;
use std::path::PathBuf;

/// ffind's configuration directory, where its global ignore file (and fd's) is: as the XDG Base
/// Directory spec says and fd finds it (the etcetera crate), `$XDG_CONFIG_HOME` when it is an
/// absolute path (unset, empty or relative, it is ignored), else `.config` in the home
/// directory: `$HOME`, or the password database's when `$HOME` is unset or empty
/// ([`std::env::home_dir`], as for git's files). An empty home gives none, never a `.config`
/// in the working directory.
pub fn config_home() -> Option<PathBuf> {
    config_home_of(std::env::var_os("XDG_CONFIG_HOME"), std::env::home_dir)
}

/// [`config_home`] given `$XDG_CONFIG_HOME` and a way to find the home directory.
fn config_home_of(
    xdg_config_home: Option<OsString>,
    home: impl FnOnce() -> Option<PathBuf>,
) -> Option<PathBuf> {
    xdg_config_home
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            home()
                .filter(|h| !h.as_os_str().is_empty())
                .map(|h| h.join(".config"))
        })
}

/// The user's cache directory, by the same rule as [`config_home`]: `$XDG_CACHE_HOME` when
/// it is an absolute path, else `.cache` in the home directory when that is an absolute path
/// ([`home`]): a relative one would put the cache below whatever directory ffind runs in.
pub fn cache_home() -> Option<PathBuf> {
    std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| home().map(|h| h.join(".cache")))
}

/// The home directory (`$HOME`, or the password database's when `$HOME` is unset or empty),
/// when it is an absolute path.
pub fn home() -> Option<PathBuf> {
    std::env::home_dir().filter(|h| h.is_absolute())
}

/// Git's rule for its own files (git's `xdg_config_home_for`, and the ignore crate's, with
/// which fd finds git's excludes file): `$XDG_CONFIG_HOME` when set and not empty, even a
/// relative one, else `.config` in the home directory `home`. ffind's own files use
/// [`config_home`].
pub fn config_home_in(home: Option<PathBuf>) -> Option<PathBuf> {
    std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| home.map(|h| h.join(".config")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_home_as_the_xdg_spec_says() {
        let home = || Some(PathBuf::from("/home/u"));
        let of = |xdg: Option<&str>, home: fn() -> Option<PathBuf>| {
            config_home_of(xdg.map(OsString::from), home)
        };
        assert_eq!(of(Some("/x"), home), Some(PathBuf::from("/x")));
        // "If $XDG_CONFIG_HOME is either not set or empty, a default equal to $HOME/.config
        // should be used"; and "if an implementation encounters a relative path in any of these
        // variables it should consider the path invalid and ignore it".
        for unusable in [None, Some(""), Some("rel"), Some("./conf"), Some("~/conf")] {
            assert_eq!(
                of(unusable, home),
                Some(PathBuf::from("/home/u/.config")),
                "{unusable:?}"
            );
        }
        // No home: no directory, never `.config` in the working directory.
        assert_eq!(of(Some("rel"), || None), None);
        assert_eq!(of(None, || Some(PathBuf::new())), None);
    }
}
