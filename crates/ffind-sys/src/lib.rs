//! ffind's ground floor: everything that differs between systems, and every `unsafe` of
//! ffind. Directories are opened, listed and stat'ed here (one reader per system: Linux's
//! `getdents64`, the POSIX `readdir` of macOS and the BSDs, Windows'
//! `NtQueryDirectoryFile`), files read, the memo's files mapped, processes started and
//! waited for, the terminal and the console asked; above this crate, ffind names no system
//! and writes no `unsafe` (its crates forbid it).
//!
//! - [`fs`]: the file system, the clock, the users, the terminal, the system's help texts;
//! - [`exec`]: running commands (`-x`, `-X`): process groups and signals on Unix, `cmd.exe`'s
//!   quoting and job objects on Windows;
//! - [`report`]: the one place messages reach stderr, and what they count for the exit code;
//! - [`exit`]: the exit code.
//!
//! Every `unsafe` block says why it is sound (`SAFETY:`), and every `unsafe fn` what its
//! caller must hold (`# Safety`): clippy denies a block without it.
#![deny(clippy::undocumented_unsafe_blocks, clippy::missing_safety_doc)]

pub mod exec {
    //! Running commands: what differs between systems ([`sys`]) and what a command used
    //! ([`usage`]).
    pub mod sys;
    pub mod usage;
}
pub mod exit;
pub mod fs;
pub mod report;
