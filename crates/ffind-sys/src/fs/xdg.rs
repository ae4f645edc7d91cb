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
#[cfg(unix)]
pub fn config_home() -> Option<PathBuf> {
    config_home_of(std::env::var_os("XDG_CONFIG_HOME"), std::env::home_dir)
}

/// ffind's configuration directory on Windows, where fd's is: the roaming application data
/// folder (`%APPDATA%`, as fd finds it: `C:\Users\NAME\AppData\Roaming`), when it is an
/// absolute path; else `AppData\Roaming` in the home directory.
#[cfg(windows)]
pub fn config_home() -> Option<PathBuf> {
    windows_folder("APPDATA", "Roaming")
}

/// A folder of the user's on Windows: the environment's `var` when it holds an absolute path,
/// else `AppData\<under>` in the home directory.
#[cfg(windows)]
fn windows_folder(var: &str, under: &str) -> Option<PathBuf> {
    std::env::var_os(var)
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| home().map(|h| h.join("AppData").join(under)))
}

/// [`config_home`] given `$XDG_CONFIG_HOME` and a way to find the home directory.
#[cfg_attr(windows, allow(dead_code))]
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
#[cfg(unix)]
pub fn cache_home() -> Option<PathBuf> {
    std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| home().map(|h| h.join(".cache")))
}

/// The user's cache directory on Windows: the local application data folder
/// (`%LOCALAPPDATA%`), by the rule of [`config_home`].
#[cfg(windows)]
pub fn cache_home() -> Option<PathBuf> {
    windows_folder("LOCALAPPDATA", "Local")
}

/// The home directory (`$HOME`, or the password database's when `$HOME` is unset or empty),
/// when it is an absolute path.
pub fn home() -> Option<PathBuf> {
    std::env::home_dir().filter(|h| h.is_absolute())
}

/// The home directory git uses for `~` and for its own files (`~/.gitconfig`, `.config/git`
/// in it): on Unix [`std::env::home_dir`]'s. On Windows, where std's reads only
/// `%USERPROFILE%`, the one git for Windows sets as `HOME` when it is not set (its
/// compat/mingw.c): `%HOME%`, else `%HOMEDRIVE%%HOMEPATH%` when that is a directory other than
/// the system's `System32` (a service's profile), else `%USERPROFILE%`. An empty variable
/// counts as unset.
pub fn git_home() -> Option<PathBuf> {
    #[cfg(unix)]
    {
        std::env::home_dir()
    }
    #[cfg(windows)]
    {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        git_home_of(
            var("HOME"),
            var("HOMEDRIVE"),
            var("HOMEPATH"),
            var("USERPROFILE"),
            |p| p.is_dir() && !is_system32(p),
        )
    }
}

/// Whether `path` is Windows' `System32` directory (git for Windows' `is_system32_path`).
#[cfg(windows)]
fn is_system32(path: &std::path::Path) -> bool {
    std::env::var_os("SystemRoot").is_some_and(|root| {
        PathBuf::from(root)
            .join("System32")
            .as_os_str()
            .eq_ignore_ascii_case(path)
    })
}

/// [`git_home`]'s rule on Windows given `%HOME%`, `%HOMEDRIVE%`, `%HOMEPATH%`,
/// `%USERPROFILE%` (set and not empty) and whether the drive's home directory can be used.
#[cfg_attr(unix, allow(dead_code))]
fn git_home_of(
    home: Option<OsString>,
    drive: Option<OsString>,
    drive_path: Option<OsString>,
    profile: Option<OsString>,
    usable: impl FnOnce(&std::path::Path) -> bool,
) -> Option<PathBuf> {
    if let Some(home) = home {
        return Some(home.into());
    }
    if let (Some(mut drive), Some(drive_path)) = (drive, drive_path) {
        drive.push(drive_path);
        let on_drive = PathBuf::from(drive);
        if usable(&on_drive) {
            return Some(on_drive);
        }
    }
    profile.map(PathBuf::from)
}

/// Git's system-wide configuration file when `$GIT_CONFIG_SYSTEM` does not name one:
/// `/etc/gitconfig` on Unix. None on Windows, where git for Windows keeps it below its own
/// installation (`C:\Program Files\Git\etc\gitconfig`), which ffind does not look for: the
/// Unix path would there be `\etc\gitconfig` on the current drive, a file anyone may create.
pub fn git_system_config() -> Option<PathBuf> {
    cfg!(unix).then(|| PathBuf::from("/etc/gitconfig"))
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
    #[cfg(unix)]
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

    #[test]
    fn git_home_as_git_for_windows_sets_it() {
        let set = |v: &str| Some(OsString::from(v));
        let of = |home, usable: bool| {
            git_home_of(
                home,
                set("C:"),
                set(r"\Users\u"),
                set(r"C:\Users\p"),
                |_| usable,
            )
        };
        assert_eq!(of(set(r"D:\h"), true), Some(PathBuf::from(r"D:\h")));
        assert_eq!(of(None, true), Some(PathBuf::from(r"C:\Users\u")));
        // A drive's home that is gone (a network share) or System32: the profile.
        assert_eq!(of(None, false), Some(PathBuf::from(r"C:\Users\p")));
        let no_path = git_home_of(None, set("C:"), None, set(r"C:\Users\p"), |_| true);
        assert_eq!(no_path, Some(PathBuf::from(r"C:\Users\p")));
        assert_eq!(git_home_of(None, None, None, None, |_| true), None);
    }

    #[test]
    #[cfg(windows)]
    fn git_home_without_home_is_the_drives_or_the_profile() {
        // Wine sets no HOME; its HOMEDRIVE and HOMEPATH name the profile directory.
        if std::env::var_os("HOME").is_none() {
            let var = |name: &str| std::env::var_os(name).unwrap_or_default();
            let mut on_drive = var("HOMEDRIVE");
            on_drive.push(var("HOMEPATH"));
            let home = git_home();
            assert!(
                home == Some(on_drive.into()) || home == Some(var("USERPROFILE").into()),
                "{home:?}"
            );
        }
        assert_eq!(git_system_config(), None);
    }

    #[test]
    #[cfg(windows)]
    fn config_and_cache_are_the_application_data_folders() {
        let roaming = std::env::var_os("APPDATA").map(PathBuf::from);
        let local = std::env::var_os("LOCALAPPDATA").map(PathBuf::from);
        if let (Some(roaming), Some(local)) = (roaming, local) {
            assert_eq!(config_home(), Some(roaming));
            assert_eq!(cache_home(), Some(local));
        }
        assert!(windows_folder("FFIND_TEST_UNSET_VARIABLE", "Roaming")
            .is_none_or(|p| p.ends_with("AppData\\Roaming")));
    }
}
