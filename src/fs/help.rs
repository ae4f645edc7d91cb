//! How the help (`--help`, `-h`, the manual, the completions' descriptions) names what differs
//! between systems: where the config file, the global ignore files, git's excludes and the
//! memo are, what hides an entry, the separator printed, what the system refuses. One source
//! for every text that says it (`cli/help.rs`), chosen by `cfg`, so that Windows' help says
//! what Windows does. The committed completions and manual are Unix's (`just completions`).

/// Names an environment variable as the system's shells write it.
pub fn var(name: &str) -> String {
    if cfg!(windows) {
        format!("%{name}%")
    } else {
        format!("${name}")
    }
}

#[cfg(not(windows))]
mod words {
    /// ffind's config file, in a sentence's parenthesis.
    pub const CONFIG: &str = "$XDG_CONFIG_HOME/ffind/config (by default ~/.config/ffind/config)";
    /// ffind's config file, in a list of places.
    pub const CONFIG_LISTED: &str =
        "$XDG_CONFIG_HOME/ffind/config, by default ~/.config/ffind/config";
    /// ffind's global ignore file, and fd's.
    pub const GLOBAL_IGNORE: &str =
        "$XDG_CONFIG_HOME/ffind/ignore (by default ~/.config/ffind/ignore)";
    pub const FD_IGNORE: &str = "$XDG_CONFIG_HOME/fd/ignore";
    /// git's global excludes when `core.excludesFile` is not set.
    pub const GIT_EXCLUDES: &str = "$XDG_CONFIG_HOME/git/ignore";
    /// What hides an entry.
    pub const HIDDEN: &str = "names starting with a dot";
    /// What a `!` rule cannot reveal, after "shows a hidden entry even without -H".
    pub const NOT_REVEALED: &str = "";
    /// The separator printed between components.
    pub const SEPARATOR: &str = "/";
    /// Where the memo is, and what it must be.
    pub const CACHE_DIR: &str = "$FFIND_CACHE_DIR, else $XDG_CACHE_HOME/ffind, else \
        ~/.cache/ffind). It must be the user's own directory, which no one else may write to, \
        and not a symbolic link; ffind creates it 0700";
    /// What the system refuses of an option, after its short help, and as a paragraph of its
    /// long help: nothing here.
    pub const NO_OWNERS: Option<(&str, &str)> = None;
    pub const NO_MPI: Option<(&str, &str)> = None;
    pub const NO_CACHE: Option<(&str, &str)> = None;
}

#[cfg(windows)]
mod words {
    pub const CONFIG: &str = r"%APPDATA%\ffind\config";
    pub const CONFIG_LISTED: &str = r"%APPDATA%\ffind\config";
    pub const GLOBAL_IGNORE: &str = r"%APPDATA%\ffind\ignore";
    pub const FD_IGNORE: &str = r"%APPDATA%\fd\ignore";
    pub const GIT_EXCLUDES: &str =
        r".config\git\ignore in git's home: %HOME%, else %HOMEDRIVE%%HOMEPATH%, else %USERPROFILE%";
    pub const HIDDEN: &str = "names starting with a dot, and entries with the hidden attribute";
    pub const NOT_REVEALED: &str = " (one hidden by its dot; never one with the hidden attribute)";
    pub const SEPARATOR: &str = r"\";
    pub const CACHE_DIR: &str = r"%FFIND_CACHE_DIR%, else %LOCALAPPDATA%\ffind)";
    pub const NO_OWNERS: Option<(&str, &str)> = Some((
        " (refused on Windows)",
        "Refused on Windows, where files have no user and group ids.",
    ));
    pub const NO_MPI: Option<(&str, &str)> = Some((
        " (refused on Windows)",
        "Refused on Windows: --mpi runs on Linux only.",
    ));
    pub const NO_CACHE: Option<(&str, &str)> = Some((
        " (off on Windows)",
        "Off on Windows: --cache says so once and the search runs without the memo.",
    ));
}

pub use words::*;
