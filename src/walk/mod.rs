//! The traversal methods behind one contract ([`contract`]), chosen once: this file is the
//! dispatch, above every method; the methods import the contract, never this file.
//!
//! Every method walks [`Config::roots`] and, for every entry, asks the shared decision in
//! [`visit`] whether to print it and whether to descend; printing goes through the one
//! [`Printer`] and problems through the [`Reporter`]. So all methods print the same set of
//! entries for the same command line; they differ only in how directories are read and
//! scheduled. `serial`, `queue` and `rayon` read directories with [`crate::fs`] (raw `getdents64`);
//! `walkdir`, `jwalk` and `ignore` use those crates, for comparison.

pub mod beneath;
pub mod contract;
pub mod descriptors;
pub mod mpi;
pub mod prepare;
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

/// Walks every root with the configured method.
pub fn run(config: &'static Config, printer: &'static Printer, report: &'static Reporter) {
    let memo = config
        .cache
        .as_ref()
        .and_then(|settings| crate::memo::Session::open(settings, &config.roots, report))
        // As the configuration, it lives as long as the process (jwalk's callbacks need
        // 'static).
        .map(|memo| &*Box::leak(Box::new(memo)));
    let mut walk = prepare::prepare(config, printer, report);
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
