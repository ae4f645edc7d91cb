//! The traversal methods behind one contract, chosen once.
//!
//! Every method walks [`Config::roots`] and, for every entry, asks the shared decision in
//! [`visit`] whether to print it and whether to descend; printing goes through the one
//! [`Printer`] and problems through the [`Reporter`]. So all methods print the same set of
//! entries for the same command line; they differ only in how directories are read and
//! scheduled. `serial`, `queue` and `rayon` read directories with [`crate::fs`] (raw `getdents64`);
//! `walkdir`, `jwalk` and `ignore` use those crates, for comparison.

pub mod beneath;
pub mod cache;
pub mod mpi;
pub mod scan;
pub mod threads;
pub mod visit;

mod ignore;
mod jwalk;
mod levels;
mod queue;
mod rayon;
mod serial;
mod walkdir;

use crate::config::{Config, Method, WalkOrder};
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
}

/// Descriptors each worker may need at once: the directory it reads, and one more for an
/// ignore file or an emptiness check (`-t e`) inside it, or for the next component while it
/// reopens a directory.
const FDS_PER_WORKER: usize = 2;

/// Descriptors kept for everything else: stdio, the allocator, the runtime.
const FDS_RESERVED: usize = 8;

/// The table of descriptors a breadth-first walk starts with (the kernel doubles it past that).
const BREADTH_FD_TABLE: usize = 4096;

/// Walks every root with the configured method.
pub fn run(config: &'static Config, printer: &'static Printer, report: &'static Reporter) {
    let memo = config
        .cache
        .as_ref()
        .and_then(|settings| crate::memo::Session::open(settings, &config.roots, report))
        // As the configuration, it lives as long as the process (jwalk's callbacks need
        // 'static).
        .map(|memo| &*Box::leak(Box::new(memo)));
    let mut walk = prepare(config, printer, report);
    walk.memo = memo;
    if let Some(ignore) = &config.ignore {
        ignore.report_unread(report);
    }
    match config.method {
        Method::Serial => serial::walk(&walk),
        Method::Walkdir => walkdir::walk(&walk),
        Method::Queue if config.order == WalkOrder::Breadth => levels::walk(&walk),
        Method::Queue => queue::walk(&walk),
        Method::Rayon => rayon::walk(&walk),
        Method::Jwalk => jwalk::walk(&walk),
        Method::Ignore => ignore::walk(&walk),
    }
    // Written only once the walk is whole, never after an interruption (Ctrl-C ends the
    // process before this): a memo holds whole listings only.
    if let Some(memo) = memo {
        memo.finish(report);
    }
}

/// What a walk is handed, with the descriptors it may use set aside: the open-file limit
/// raised, the workers it can afford, the descriptor cache's budget.
pub fn prepare<'a>(config: &'a Config, printer: &'a Printer, report: &'a Reporter) -> Walk<'a> {
    let soft = crate::fs::raise_fd_limit();
    // Under a low limit (`ulimit -n 16`) more workers than descriptors would all hold one and
    // wait for a second: fewer workers, each sure of its descriptors, finish the walk. They
    // get at most half of what the reserve leaves; the rest keeps parents open (the
    // descriptor cache), so that children open relative to them: under `ulimit -n 64`, 14
    // workers at most and 28 descriptors kept with auto's 64 workers asked for. Under
    // `ulimit -v`, no more workers than the address space holds.
    let spare = soft.saturating_sub(FDS_RESERVED);
    let affordable = (spare / 2 / FDS_PER_WORKER)
        .min(threads::affordable_by_address_space())
        .max(1);
    let workers = config.concurrency.clamp(1, affordable);
    let max_workers = config
        .concurrency_max
        .clamp(workers, affordable.max(workers));
    crate::fs::set_fd_budget(spare.saturating_sub(FDS_PER_WORKER * max_workers));
    if config.order == WalkOrder::Breadth {
        // A level's parents stay open for their subdirectories (hundreds on the Linux tree,
        // 3,417 at once on `big`): the table of descriptors grows to that now, while this is
        // the only thread, not by doublings that each wait for an RCU grace period once the
        // workers run (Linux tree, 2 workers: 69 ms, 55 ms now; depth first 52 ms).
        crate::fs::grow_fd_table(soft.min(BREADTH_FD_TABLE));
    }
    Walk {
        config,
        printer,
        report,
        workers,
        max_workers,
        memo: None,
        lists_all: config.hidden
            && config.ignore.is_none()
            && config.excludes.is_none()
            && config.ignore_contain.is_empty()
            && config.filters.is_empty()
            && !config.prune
            && !config.one_file_system,
    }
}
