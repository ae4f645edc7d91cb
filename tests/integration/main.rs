//! ffind's integration tests: the real binary on temporary trees, one file per topic.

mod faults;
mod fixture;
mod parity;
mod walk;
