//! ffind's integration tests: the real binary on temporary trees, one file per topic.

mod bench;
mod cli_compat;
mod completions;
mod depth_exclude;
mod escape;
mod exec;
mod faults;
mod fd_parity;
mod filters_common;
mod fixture;
mod hostile_ignore;
mod ignore_files;
mod metadata;
mod methods_agree;
mod output;
mod parity;
mod parsers;
mod patterns;
mod proptest_parity;
mod reference;
mod sort;
mod syscalls;
mod terminal;
mod threads;
mod types;
mod walk;
