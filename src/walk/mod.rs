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
pub mod cache;
pub mod contract;
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
    let walk = prepare::prepare(config, printer, report);
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
}
