//! `--method rayon`: one rayon task per directory, work-stealing, in a pool of its own sized
//! by `--concurrency` (never the global pool).

use std::sync::Mutex;

use crate::walk::scan::{DirJob, Scanner};
use crate::walk::Walk;

/// Walks every root in a rayon scope.
pub fn walk(walk: &Walk<'_>) {
    let threads = walk.config.concurrency.max(1);
    let pool = match ::rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("ffind-rayon-{i}"))
        .build()
    {
        Ok(pool) => pool,
        Err(e) => {
            walk.report
                .message(b"rayon", &format!("cannot start the thread pool: {e}"));
            return;
        }
    };
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
