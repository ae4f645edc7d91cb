//! `--method serial`: one thread, its own directory reader, depth first, a plain stack.
//!
//! Not a one-thread special case of `queue` (ripgrep keeps `files` and `files_parallel` apart
//! too): no atomics, no locks, no wake-ups; the baseline every parallel method must beat.

use crate::walk::scan::{DirJob, Scanner};
use crate::walk::Walk;

/// Walks every root on the calling thread.
pub fn walk(walk: &Walk<'_>) {
    let mut scanner = Scanner::new();
    let mut stack: Vec<DirJob> = Vec::new();
    for root in &walk.config.roots {
        let Some(state) = walk.root_state(root) else {
            continue;
        };
        stack.push(DirJob::root(root, state));
        while let Some(job) = stack.pop() {
            if walk.printer.stopped() {
                break;
            }
            scanner.scan(walk, job, &mut |child| stack.push(child));
        }
    }
    walk.printer.flush(&mut scanner.batch);
}
