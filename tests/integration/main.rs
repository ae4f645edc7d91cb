//! ffind's integration tests: the real binary on temporary trees, one file per topic.

mod bench;
mod completions;
mod depth_exclude;
mod escape;
mod faults;
mod fd_parity;
mod filters_common;
mod fixture;
mod ignore_files;
mod metadata;
mod methods_agree;
mod parity;
mod patterns;
mod syscalls;
mod threads;
mod types;
mod walk;
