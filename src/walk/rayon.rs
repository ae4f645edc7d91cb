//! `--method rayon`: one rayon task per directory, work-stealing, in a pool of its own sized
//! by `--concurrency` (never the global pool), at most [`threads::STEALING_MAX`] threads.
//! Breadth first (`--order breadth`), one parallel iterator per level instead.

use std::sync::Mutex;

use ::rayon::iter::{IntoParallelIterator, ParallelIterator};

use crate::config::WalkOrder;
use crate::walk::contract::Walk;
use crate::walk::scan::{DirJob, Scanner};
use crate::walk::threads;

/// Walks every root in a rayon scope.
pub fn walk(walk: &Walk<'_>) {
    // Fewer threads if the system will not start as many; none at all: the serial method.
    let Some(pool) = threads::rayon_pool(walk, threads::stealing_threads(walk), "rayon") else {
        return crate::walk::serial::walk(walk);
    };
    if walk.config.order == WalkOrder::Breadth {
        return breadth_first(walk, &pool);
    }
    let threads = pool.current_num_threads();
    // One scanner per pool thread, found by the thread's index: buffers are reused across
    // tasks, and flushed once at the end.
    let scanners: Vec<Mutex<Scanner>> = (0..threads).map(|_| Mutex::new(Scanner::new())).collect();
    pool.scope(|scope| {
        for root in &walk.config.roots {
            if let Some(state) = walk.root_state(root) {
                let job = DirJob::root(root, state);
                let scanners = &scanners;
                scope.spawn(move |s| read(walk, scanners, s, job));
            }
        }
    });
    for scanner in scanners {
        let mut scanner = scanner.into_inner().unwrap_or_else(|e| e.into_inner());
        walk.printer.flush(&mut scanner.batch);
    }
}

fn read<'s>(
    walk: &'s Walk<'_>,
    scanners: &'s [Mutex<Scanner>],
    scope: &::rayon::Scope<'s>,
    job: DirJob,
) {
    if walk.printer.stopped() {
        return;
    }
    let index = ::rayon::current_thread_index().unwrap_or(0);
    let mut scanner = scanners[index].lock().unwrap_or_else(|e| e.into_inner());
    scanner.scan(walk, job, &mut |child| {
        scope.spawn(move |s| read(walk, scanners, s, child));
    });
}

/// A pool thread's scanner and the subdirectories it found for the next level.
#[derive(Default)]
struct Reader {
    scanner: Scanner,
    next: Vec<DirJob>,
}

/// Level by level: the directories of a level read by a parallel iterator, their
/// subdirectories gathered for the next, and every thread's output handed to the printer
/// before the next level starts. A level of one directory (a deep, narrow chain) is read on
/// the thread that runs the loop, without waking the others, and its output may wait in that
/// thread's batch: no other batch holds any then.
fn breadth_first(walk: &Walk<'_>, pool: &::rayon::ThreadPool) {
    let readers: Vec<Mutex<Reader>> = (0..pool.current_num_threads())
        .map(|_| Mutex::new(Reader::default()))
        .collect();
    let reader = |index: usize| readers[index].lock().unwrap_or_else(|e| e.into_inner());
    let flush_all = || {
        for i in 0..readers.len() {
            walk.printer.flush(&mut reader(i).scanner.batch);
        }
    };
    pool.install(|| {
        let here = ::rayon::current_thread_index().unwrap_or(0);
        let mut level: Vec<DirJob> = DirJob::roots(walk).collect();
        while !level.is_empty() && !walk.printer.stopped() {
            if let [_] = &level[..] {
                let job = level.pop().expect("one job");
                let mut this = reader(here);
                let Reader { scanner, next } = &mut *this;
                scanner.scan(walk, job, &mut |child| next.push(child));
            } else {
                // This thread's batch may hold the levels above, read by it alone.
                walk.printer.flush(&mut reader(here).scanner.batch);
                level.into_par_iter().for_each(|job| {
                    if walk.printer.stopped() {
                        return;
                    }
                    let mut this = reader(::rayon::current_thread_index().unwrap_or(0));
                    let Reader { scanner, next } = &mut *this;
                    scanner.scan(walk, job, &mut |child| next.push(child));
                });
                flush_all();
            }
            level = Vec::new();
            for i in 0..readers.len() {
                level.append(&mut reader(i).next);
            }
        }
    });
    flush_all();
}
