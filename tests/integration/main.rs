//! ffind's integration tests: the real binary on temporary trees, one file per topic.

mod bench;
mod bench_peers;
mod cache;
mod cache_identity;
mod cache_journal;
mod cache_manage;
mod cache_quiet;
mod cache_swap;
mod cli_compat;
mod completions;
// Linux only: its pty is driven with Linux's libc signatures (openpty, TIOCSCTTY).
#[cfg(target_os = "linux")]
mod completions_exec;
mod config_file;
mod depth_exclude;
// Linux-only (the suite runs on Linux; other systems type-check the rest): renameat2's
// exchange, strace (syscalls, wide), ptsname_r.
#[cfg(target_os = "linux")]
mod escape;
mod exec;
mod exec_signals;
mod faults;
mod fd_parity;
mod filters_common;
mod fixture;
mod git_referee;
mod held;
mod hints;
mod hostile_ignore;
mod ignore_files;
mod layers;
mod list_details;
mod metadata;
mod methods_agree;
mod no_errors;
mod order;
mod output;
mod output_file;
mod parity;
mod parsers;
mod patterns;
mod proptest_parity;
mod random_tree;
mod reference;
mod sort;
mod swapped_root;
#[cfg(target_os = "linux")]
mod syscalls;
mod terminal;
#[cfg(target_os = "linux")]
mod terminal_signals;
mod threads;
mod types;
mod vanished;
mod walk;
#[cfg(target_os = "linux")]
mod wide;
