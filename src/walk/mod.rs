//! The traversal methods behind one contract ([`contract`]), chosen once: this file is the
//! dispatch, above every method; the methods import the contract, never this file. The methods,
//! their files and what each can do are the method table's ([`methods`]), from which the
//! dispatch below is made.
//!
//! Every method walks [`Config::roots`] and, for every entry, asks the shared decision in
//! [`visit`] whether to print it and whether to descend; printing goes through the one
//! [`Printer`] and problems through the [`Reporter`]. So all methods print the same set of
//! entries for the same command line; they differ only in how directories are read and
//! scheduled. Those the table marks `OwnReader` read directories with [`crate::fs`] (raw
//! `getdents64`, through `scan.rs`); the others read by path through a walker crate, for
//! comparison, with the steps all of them share ([`by_path`]).

pub mod beneath;
pub mod by_path;
pub mod contract;
pub mod descriptors;
pub mod explain;
pub mod methods;
pub mod mpi;
pub mod prepare;
pub mod remembered;
pub mod scan;
pub mod threads;
pub mod visit;
pub mod why;

mod levels;

use crate::config::Config;
use crate::output::printer::Printer;
use crate::report::Reporter;

/// Walks every root with the configured method; `hints` counts what the hiding rules skip
/// ([`why::Hints`]), when given.
pub fn run(
    config: &'static Config,
    printer: &'static Printer,
    report: &'static Reporter,
    hints: Option<&'static why::Hints>,
) {
    let memo = config
        .cache
        .as_ref()
        .and_then(|settings| {
            let roots: Vec<&[u8]> = config.roots.iter().map(|r| r.open_path()).collect();
            crate::memo::Session::open(settings, &roots, report)
        })
        // As the configuration, it lives as long as the process (jwalk's callbacks need
        // 'static).
        .map(|memo| &*Box::leak(Box::new(memo)));
    let mut walk = prepare::prepare(config, printer, report);
    walk.memo = memo;
    walk.hints = hints;
    if let Some(ignore) = &config.ignore {
        ignore.report_unread(report);
    }
    dispatch(config.method, &walk);
    // Written only once the walk is whole, never after an interruption (Ctrl-C ends the
    // process before this): a memo holds whole listings only.
    if let Some(memo) = memo {
        memo.finish(report);
    }
}

/// Each method's module (its file under `walk/`, named in the table) and the dispatch to its
/// `walk`, made from the method table (`methods.rs`).
macro_rules! dispatch {
    ($($variant:ident $file:ident [$($capability:ident),*] $help:literal;)*) => {
        $(mod $file;)*

        /// Walks with `method`: its module's `walk`.
        fn dispatch(method: methods::Method, walk: &contract::Walk<'static>) {
            match method {
                $(methods::Method::$variant => $file::walk(walk),)*
            }
        }
    };
}
methods::each_method!(dispatch);
