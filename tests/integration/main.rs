//! ffind's integration tests: the real binary on temporary trees, one file per topic.

mod bench;
mod completions;
mod depth_exclude;
mod faults;
mod fd_parity;
mod filters_common;
mod fixture;
mod ignore_files;
mod metadata;
mod parity;
mod patterns;
mod proptest_parity;
mod reference;
mod syscalls;
mod types;
mod walk;
