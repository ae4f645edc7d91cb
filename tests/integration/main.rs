//! ffind's integration tests: the real binary on temporary trees, one file per topic.

mod bench;
mod completions;
mod faults;
mod fd_parity;
mod filters;
mod fixture;
mod ignore_files;
mod parity;
mod walk;
