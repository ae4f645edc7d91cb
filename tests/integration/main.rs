//! ffind's integration tests: the real binary on temporary trees, one file per topic.
//!
//! On Windows (run under Wine in CI: `.ci/windows.sh`) the modules below that are not gated
//! run too, with their Unix-only tests gated one by one; `windows.rs` holds what only Windows
//! has (`windows_cmd.rs` cmd.exe under `-x` and `-X`), `fd_windows.rs` the comparison with fd's
//! own Windows build. Gated whole, with the
//! reason:
//! - Unix tools or Unix semantics throughout: the memo (`--cache` is off on Windows), `--bench`
//!   and the peers it times, shells and their completions, `printf`/`sh` as the commands of
//!   `-x` (`windows.rs` runs `.cmd` files there), signals and pseudo-terminals, mode bits and
//!   other users (setpriv), `ulimit`, strace, `find`, `ls`, git itself, FIFOs and devices, raw
//!   byte names and symbolic links (Wine 8 makes no links), directories renamed while in use;
//! - the random trees of the property tests (`random_tree.rs`), built of all of those;
//! - `layers.rs`, which reads `src/` and is the same check wherever it runs.

#[cfg(unix)]
mod bench;
#[cfg(unix)]
mod bench_peers;
#[cfg(unix)]
mod cache;
// Linux only: a clock set ahead by a library preloaded into ffind (LD_PRELOAD, CLOCK_BOOTTIME).
#[cfg(target_os = "linux")]
mod cache_clock;
#[cfg(unix)]
mod cache_identity;
#[cfg(unix)]
mod cache_journal;
#[cfg(unix)]
mod cache_manage;
#[cfg(unix)]
mod cache_quiet;
#[cfg(target_os = "linux")]
mod cache_reads;
// Linux only: which files a search opens is watched with inotify (`dir_reads.rs`).
#[cfg(target_os = "linux")]
mod cache_rules;
// Linux only: Landlock and seccomp.
#[cfg(target_os = "linux")]
mod cache_sandbox;
#[cfg(unix)]
mod cache_swap;
mod cli_compat;
#[cfg(unix)]
mod completions;
// Linux only: its pty is driven with Linux's libc signatures (openpty, TIOCSCTTY).
#[cfg(target_os = "linux")]
mod completions_exec;
mod config_file;
mod depth_exclude;
#[cfg(target_os = "linux")]
mod dir_reads;
mod doc_examples;
// Linux-only (the suite runs on Linux; other systems type-check the rest): renameat2's
// exchange, strace (syscalls, wide), ptsname_r.
#[cfg(target_os = "linux")]
mod escape;
#[cfg(unix)]
mod exec;
#[cfg(unix)]
mod exec_signals;
#[cfg(unix)]
mod explain;
#[cfg(unix)]
mod faults;
mod fd_parity;
#[cfg(windows)]
mod fd_windows;
mod filters_common;
mod fixture;
#[cfg(unix)]
mod git_referee;
#[cfg(unix)]
mod held;
mod hints;
mod hostile_ignore;
mod house;
mod ignore_files;
#[cfg(unix)]
mod layers;
#[cfg(unix)]
mod list_details;
mod metadata;
mod methods;
#[cfg(unix)]
mod methods_agree;
#[cfg(unix)]
mod no_errors;
mod order;
mod output;
mod output_file;
#[cfg(unix)]
mod parity;
mod parsers;
#[cfg(unix)]
mod past_4gib;
mod patterns;
#[cfg(unix)]
mod proptest_parity;
#[cfg(unix)]
mod random_tree;
#[cfg(unix)]
mod reference;
mod sort;
#[cfg(unix)]
mod swapped_root;
#[cfg(target_os = "linux")]
mod syscalls;
#[cfg(unix)]
mod terminal;
#[cfg(target_os = "linux")]
mod terminal_signals;
#[cfg(unix)]
mod threads;
mod types;
#[cfg(unix)]
mod vanished;
mod walk;
#[cfg(target_os = "linux")]
mod wide;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
mod windows_cmd;
