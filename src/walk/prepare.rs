//! Setting a walk up: the open-file limit raised, the workers the process can afford, the
//! descriptor cache's budget, all decided before any method starts ([`prepare`]). Used by the
//! dispatch (`walk/mod.rs`) and by `--mpi`'s session, below both.

use crate::config::{Config, WalkOrder};
use crate::output::printer::Printer;
use crate::report::Reporter;
use crate::walk::contract::Walk;
use crate::walk::threads;

/// Descriptors each worker may need at once: the directory it reads (with the POSIX reader, a
/// duplicate too: [`crate::fs::FDS_PER_READ`]), and one more for an ignore file or an
/// emptiness check (`-t e`) inside it, or for the next component while it reopens a directory.
const FDS_PER_WORKER: usize = crate::fs::FDS_PER_READ + 1;

/// Descriptors kept for everything else: stdio, the allocator, the runtime.
const FDS_RESERVED: usize = 8;

/// The table of descriptors a breadth-first walk starts with (the kernel doubles it past that).
const BREADTH_FD_TABLE: usize = 4096;

/// Grows the table of descriptors to what the walk will keep open, which only a process of one
/// thread does without waiting: a breadth-first walk keeps a level's parents open for their
/// subdirectories (hundreds on the Linux tree, 3,417 at once on `big`), and the kernel would
/// double the table to that as they open, each doubling waiting for an RCU grace period
/// while threads share it (Linux tree, 2 workers: 69 ms, 55 ms grown first; depth first 52 ms;
/// the 17 ms of one wait delayed a held breadth-first search's first line). So `main` calls
/// this before it starts any thread (the hold's, the signals'), `soft` being the raised
/// open-file limit ([`crate::fs::raise_fd_limit`]); [`prepare`] again, for the callers that
/// did not, where the table, grown already, stays as it is.
pub fn grow_descriptors(config: &Config, soft: usize) {
    if config.order == WalkOrder::Breadth {
        crate::fs::grow_fd_table(soft.min(BREADTH_FD_TABLE));
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
    grow_descriptors(config, soft);
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
        hints: None,
    }
}
