//! `--method rayon`: one rayon task per directory, work-stealing, in a pool of its own sized
//! by `--concurrency` (never the global pool), at most [`threads::STEALING_MAX`] threads.

use std::sync::Mutex;

use crate::walk::scan::{DirJob, Scanner};
use crate::walk::{threads, Walk};

/// Walks every root in a rayon scope.
pub fn walk(walk: &Walk<'_>) {
    // Fewer threads if the system will not start as many; none at all: the serial method.
    let Some(pool) = threads::rayon_pool(walk, threads::stealing_threads(walk), "rayon") else {
        return crate::walk::serial::walk(walk);
    };
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
