//! The contract every traversal method works to: what it is handed ([`Walk`]). Below the
//! methods and the dispatch (`walk/mod.rs`), so that imports inside `walk/` run one way:
//! the dispatch picks a method, each method imports the contract and the shared parts
//! (`visit.rs`; `scan.rs` and `descriptors.rs` for ffind's own reader; `by_path.rs` and
//! `beneath.rs` for the walker crates; `threads.rs`), none imports the dispatch or another
//! method (`rayon.rs` and `ignore.rs` fall back to `serial.rs` when no thread starts, and
//! `queue.rs` walks breadth first with `levels.rs`: the exceptions).

use crate::config::Config;
use crate::output::printer::Printer;
use crate::report::Reporter;

/// What every method is handed: the configuration, the writer and the error sink.
#[derive(Clone, Copy)]
pub struct Walk<'a> {
    /// The resolved command line.
    pub config: &'a Config,
    /// The one writer.
    pub printer: &'a Printer,
    /// Where per-path errors go.
    pub report: &'a Reporter,
    /// Worker threads for the parallel methods: `--concurrency`, capped by the descriptors
    /// the process may open and by its address-space limit.
    pub workers: usize,
    /// Workers `queue` may grow to when reads block (`auto`): `Config::concurrency_max`,
    /// capped by the descriptors too; `workers` when it may not grow.
    pub max_workers: usize,
    /// The directory memo (`--cache`), when in use.
    pub memo: Option<&'a crate::memo::Session>,
    /// No rule hides an entry and no filter drops one (`-u` and nothing else that chooses):
    /// judging an entry is its depth alone ([`Walk::judge`]'s fast path).
    pub lists_all: bool,
    /// The counts of the hint a search that prints nothing gives (on a terminal, unless
    /// `--no-hints`): kept for the entries the hiding rules skip, and for them alone.
    pub hints: Option<&'a crate::walk::why::Hints>,
}
