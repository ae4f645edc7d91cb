//! `--method serial`: one thread, its own directory reader, depth first with a plain stack,
//! or breadth first (`--order breadth`) with a plain FIFO.
//!
//! Not a one-thread special case of `queue` (ripgrep keeps `files` and `files_parallel` apart
//! too): no atomics, no locks, no wake-ups; the baseline every parallel method must beat.

use std::collections::VecDeque;

use crate::config::WalkOrder;
use crate::walk::contract::Walk;
use crate::walk::scan::{DirJob, Scanner};

/// Walks every root on the calling thread.
pub fn walk(walk: &Walk<'_>) {
    if walk.config.order == WalkOrder::Breadth {
        return breadth_first(walk);
    }
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

/// Every root's level 1, then every root's level 2, and so on: a directory's subdirectories go
/// to the back of the queue. The queue holds at most the rest of one level and the part of the
/// next found so far, and a directory's subdirectories stay together in it (opened one after
/// another from their parent's descriptor).
fn breadth_first(walk: &Walk<'_>) {
    let mut scanner = Scanner::new();
    let mut queue: VecDeque<DirJob> = DirJob::roots(walk).collect();
    while let Some(job) = queue.pop_front() {
        if walk.printer.stopped() {
            break;
        }
        scanner.scan(walk, job, &mut |child| queue.push_back(child));
    }
    walk.printer.flush(&mut scanner.batch);
}
