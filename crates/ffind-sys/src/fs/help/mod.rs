//! How the help (`--help`, `-h`, the manual, the completions' descriptions) names what differs
//! between systems: where the config file, the global ignore files, git's excludes and the
//! memo are, what hides an entry, the separator printed, what the system refuses, the programs
//! and quoting of the examples (the phrases of clap's help said in the system's words), and
//! the manual's EXAMPLES, ENVIRONMENT, FILES and SEE ALSO. One source for every text that says
//! it (`cli/help.rs`, `manual.rs`), chosen by `cfg` (`unix.rs`, `windows.rs`), so that Windows'
//! help says what Windows does. The committed completions and manual are Linux's (`just
//! completions`).

/// Names an environment variable as the system's shells write it.
pub fn var(name: &str) -> String {
    if cfg!(windows) {
        format!("%{name}%")
    } else {
        format!("${name}")
    }
}

/// The systems whose help this build can write (`--gen-system`, for the release archives of
/// systems that do not run here): its own kind's. Among the Unix systems the texts differ only
/// in whether the completions offer `--mpi`, which runs on Linux alone.
#[cfg(not(windows))]
pub const SYSTEMS: [&str; 3] = ["linux", "macos", "freebsd"];
#[cfg(windows)]
pub const SYSTEMS: [&str; 1] = ["windows"];

/// Whether the completions for `system` (one of [`SYSTEMS`]; None: this one) offer `--mpi`.
pub fn offers_mpi(system: Option<&str>) -> bool {
    system.map_or(super::HAS_MPI, |s| s == "linux")
}

#[cfg(not(windows))]
mod unix;
#[cfg(not(windows))]
pub use unix::*;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
pub use windows::*;
