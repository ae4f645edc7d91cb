//! `--method queue`: a work queue of directories served by `--concurrency` workers.
//!
//! Each worker keeps its own LIFO deque (depth first: few directories in flight, parents'
//! descriptors released early; `--order breadth` reads level by level instead, `levels.rs`)
//! and steals from the others when it runs dry (crossbeam-deque). A directory is the unit of
//! work; files never enter the queue. Idle workers park on a condition variable instead of
//! polling; the walk ends when the count of unfinished directories reaches zero, an atomic
//! that is the only shared write per directory.
//! Concurrency may be far above the core count: on slow (FUSE, network) file systems more
//! reads in flight is what makes a walk fast.
//!
//! Under `--method auto` without `-j` the queue starts with one worker per CPU and grows to
//! `Walk::max_workers` once it sees reads block on the disk: two directory reads that took
//! longer than [`SLOW_READ`] while the worker's block-input count (`getrusage`'s `ru_inblock`)
//! went up. A warm cache never pays for threads it does not need; a cold one gets the reads in
//! flight that make it fast (docs/PERFORMANCE.md, cold cache; `benches/run.sh cold`).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::thread::Scope;
use std::time::Instant;

use crossbeam_deque::{Injector, Steal, Stealer, Worker};

use crate::config::WalkOrder;
use crate::walk::contract::Walk;
use crate::walk::scan::{DirJob, Scanner};
use crate::walk::threads::{blocks_read, BLOCKED_READS, SLOW_READ};

/// What all workers share.
struct Shared {
    injector: Injector<DirJob>,
    stealers: Vec<Stealer<DirJob>>,
    /// Directories queued or being read.
    pending: AtomicUsize,
    /// Workers waiting for work.
    sleepers: AtomicUsize,
    lock: Mutex<()>,
    wake: Condvar,
    done: AtomicBool,
    /// The deques of the workers asked for (`--concurrency`) but not started yet: started
    /// once a worker has a job to spare (a search of one small directory never pays for a
    /// thread; about 0.4 ms here).
    idle: Mutex<Vec<(usize, Worker<DirJob>)>>,
    /// Whether `idle` may still hold workers (read without the lock on every subdirectory).
    may_start: AtomicBool,
    /// The deques of workers not started yet: `auto` starts them when reads block.
    spare: Mutex<Vec<(usize, Worker<DirJob>)>>,
    /// Whether `spare` may still hold workers (read without the lock after every directory).
    may_grow: AtomicBool,
    /// Directory reads seen blocking on the disk.
    blocked: AtomicUsize,
}

impl Shared {
    fn find_work(&self, local: &Worker<DirJob>, me: usize) -> Option<DirJob> {
        if let Some(job) = local.pop() {
            return Some(job);
        }
        loop {
            let mut retry = false;
            match self.injector.steal_batch_and_pop(local) {
                Steal::Success(job) => return Some(job),
                Steal::Retry => retry = true,
                Steal::Empty => {}
            }
            let n = self.stealers.len();
            for i in 1..n {
                // Half of a victim's queue at once: fewer steals when work is scarce.
                match self.stealers[(me + i) % n].steal_batch_and_pop(local) {
                    Steal::Success(job) => return Some(job),
                    Steal::Retry => retry = true,
                    Steal::Empty => {}
                }
            }
            if !retry {
                return None;
            }
        }
    }

    fn has_visible_work(&self) -> bool {
        !self.injector.is_empty() || self.stealers.iter().any(|s| !s.is_empty())
    }

    /// Parks until there may be work, or the walk is over. Returns false when it is over.
    fn park(&self) -> bool {
        let mut guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.sleepers.fetch_add(1, Ordering::SeqCst);
        loop {
            if self.done.load(Ordering::SeqCst) {
                self.sleepers.fetch_sub(1, Ordering::SeqCst);
                return false;
            }
            if self.has_visible_work() {
                self.sleepers.fetch_sub(1, Ordering::SeqCst);
                return true;
            }
            guard = self.wake.wait(guard).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Wakes up to `n` parked workers (as many as there are jobs for them to steal).
    fn wake(&self, n: usize) {
        // Orders the caller's push before this load (a store then a load may otherwise pass
        // each other): with `park`'s increment-then-check, one side always sees the other.
        std::sync::atomic::fence(Ordering::SeqCst);
        let sleeping = self.sleepers.load(Ordering::SeqCst);
        if sleeping == 0 || n == 0 {
            return;
        }
        let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        if n >= sleeping {
            self.wake.notify_all();
        } else {
            for _ in 0..n {
                self.wake.notify_one();
            }
        }
    }

    fn finish(&self) {
        let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.done.store(true, Ordering::SeqCst);
        self.wake.notify_all();
    }
}

/// Walks every root with `walk.workers` workers: the calling thread and `workers - 1` more
/// (depth first; `--order breadth` is [`crate::walk::levels`]).
pub fn walk(walk: &Walk<'_>) {
    if walk.config.order == WalkOrder::Breadth {
        return crate::walk::levels::walk(walk);
    }
    let threads = walk.workers.max(1);
    let most = walk.max_workers.max(threads);
    let mut workers: Vec<Worker<DirJob>> = (0..most).map(|_| Worker::new_lifo()).collect();
    let spare: Vec<(usize, Worker<DirJob>)> = workers
        .drain(threads..)
        .enumerate()
        .map(|(i, w)| (threads + i, w))
        .collect();
    let shared = Shared {
        injector: Injector::new(),
        stealers: workers
            .iter()
            .chain(spare.iter().map(|(_, w)| w))
            .map(Worker::stealer)
            .collect(),
        pending: AtomicUsize::new(0),
        sleepers: AtomicUsize::new(0),
        lock: Mutex::new(()),
        wake: Condvar::new(),
        done: AtomicBool::new(false),
        may_start: AtomicBool::new(false),
        idle: Mutex::new(Vec::new()),
        may_grow: AtomicBool::new(!spare.is_empty()),
        spare: Mutex::new(spare),
        blocked: AtomicUsize::new(0),
    };
    for root in &walk.config.roots {
        if let Some(state) = walk.root_state(root) {
            shared.pending.fetch_add(1, Ordering::SeqCst);
            shared.injector.push(DirJob::root(root, state));
        }
    }
    if shared.pending.load(Ordering::SeqCst) == 0 {
        return;
    }
    let mine = workers.remove(0);
    let others: Vec<(usize, Worker<DirJob>)> = workers
        .into_iter()
        .enumerate()
        .map(|(i, w)| (i + 1, w))
        .collect();
    std::thread::scope(|scope| {
        let shared = &shared;
        // Several search paths are work to share from the start; one is once it has two
        // subdirectories queued.
        if shared.pending.load(Ordering::SeqCst) > 1 {
            start(walk, shared, scope, others);
        } else if !others.is_empty() {
            *shared.idle.lock().unwrap_or_else(|e| e.into_inner()) = others;
            shared.may_start.store(true, Ordering::SeqCst);
        }
        work(walk, shared, mine, 0, scope);
    });
}

/// Starts the workers `others` (the calling thread is worker 0).
fn start<'scope, 'env>(
    walk: &'scope Walk<'env>,
    shared: &'scope Shared,
    scope: &'scope Scope<'scope, 'env>,
    others: Vec<(usize, Worker<DirJob>)>,
) {
    let threads = walk.workers.max(1);
    for (me, local) in others {
        if let Err(e) = spawn_worker(walk, shared, scope, local, me) {
            // The workers already running (and this thread) finish the walk; a worker that
            // never started never had a job of its own.
            walk.report.warning(&format!(
                "could start only {me} of {threads} workers: {}",
                crate::report::describe(&e)
            ));
            shared.may_grow.store(false, Ordering::SeqCst);
            break;
        }
    }
}

/// Starts the workers asked for that are not running yet (once): there is work to share.
fn start_idle<'scope, 'env>(
    walk: &'scope Walk<'env>,
    shared: &'scope Shared,
    scope: &'scope Scope<'scope, 'env>,
) {
    if !shared.may_start.swap(false, Ordering::SeqCst) {
        return;
    }
    let idle = std::mem::take(&mut *shared.idle.lock().unwrap_or_else(|e| e.into_inner()));
    start(walk, shared, scope, idle);
}

/// Starts worker `me` on its deque `local`, with the walk's small stack.
fn spawn_worker<'scope, 'env>(
    walk: &'scope Walk<'env>,
    shared: &'scope Shared,
    scope: &'scope Scope<'scope, 'env>,
    local: Worker<DirJob>,
    me: usize,
) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name(format!("ffind-queue-{me}"))
        .stack_size(crate::walk::threads::STACK_SIZE)
        .spawn_scoped(scope, move || work(walk, shared, local, me, scope))
        .map(drop)
}

/// Starts the spare workers (once): reads are blocking on the disk.
fn grow<'scope, 'env>(
    walk: &'scope Walk<'env>,
    shared: &'scope Shared,
    scope: &'scope Scope<'scope, 'env>,
) {
    shared.may_grow.store(false, Ordering::SeqCst);
    start_idle(walk, shared, scope);
    let spare = std::mem::take(&mut *shared.spare.lock().unwrap_or_else(|e| e.into_inner()));
    for (me, local) in spare {
        if spawn_worker(walk, shared, scope, local, me).is_err() {
            // Fewer threads than hoped: the ones running finish the walk, as at the start
            // (an unstarted worker's deque is empty: it never had a job).
            break;
        }
    }
}

fn work<'scope, 'env>(
    walk: &'scope Walk<'env>,
    shared: &'scope Shared,
    local: Worker<DirJob>,
    me: usize,
    scope: &'scope Scope<'scope, 'env>,
) {
    let mut scanner = Scanner::new();
    let mut blocks = if shared.may_grow.load(Ordering::Relaxed) {
        blocks_read()
    } else {
        0
    };
    // When the last read ended, while the walk may grow: the next read, taken without a wait,
    // is timed from there (one clock read a directory, not two: 1% of a search the memo serves).
    let mut last_end: Option<Instant> = None;
    loop {
        let Some(job) = shared.find_work(&local, me) else {
            last_end = None;
            if shared.park() {
                continue;
            }
            break;
        };
        if !walk.printer.stopped() {
            let grows = shared.may_grow.load(Ordering::Relaxed);
            let started = grows.then(|| last_end.unwrap_or_else(Instant::now));
            scanner.scan(walk, job, &mut |child| {
                shared.pending.fetch_add(1, Ordering::SeqCst);
                local.push(child);
                if local.len() > 1 && shared.may_start.load(Ordering::Relaxed) {
                    start_idle(walk, shared, scope);
                }
            });
            last_end = started.map(|_| Instant::now());
            if let (Some(start), Some(end)) = (started, last_end) {
                if end - start > SLOW_READ {
                    let now = blocks_read();
                    if now > blocks
                        && shared.blocked.fetch_add(1, Ordering::SeqCst) + 1 >= BLOCKED_READS
                    {
                        grow(walk, shared, scope);
                    }
                    blocks = now;
                }
            }
        } else {
            drop(job);
        }
        // This worker takes the next job itself; the rest are for sleepers to steal.
        shared.wake(local.len().saturating_sub(1));
        if shared.pending.fetch_sub(1, Ordering::SeqCst) == 1 {
            shared.finish();
        }
    }
    walk.printer.flush(&mut scanner.batch);
}
