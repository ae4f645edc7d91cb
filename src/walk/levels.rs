//! `--method queue --order breadth` (and `auto`): the queue's workers read the directories of
//! one level at once, level after level, so that results stream nearest first.
//!
//! The level being read is a FIFO (crossbeam's `Injector`) that workers take directories from;
//! the subdirectories a worker finds go to a list of its own, handed over when the level has
//! no directory left for it. The last worker done with a level gathers those lists into the
//! next level and opens it to as many workers as it has directories (the others wait at the
//! gate, parked). Memory is the directories of two levels at most, never the results.
//!
//! Output: a worker that read part of a level hands its batch to the printer before it says it
//! is done, so every entry of depth d is written before any of depth d + 1. A level that the
//! last worker reads alone (one directory: a deep, narrow chain) wakes nobody, and its output
//! may wait in that worker's batch as a serial walk's does: no other batch holds anything then,
//! and it is handed over before a level is opened to other workers. The 3,000-level `deep`
//! corpus thus costs no wake-up and no write per level.
//!
//! `auto` grows to `Walk::max_workers` when reads block on the disk, as the depth-first queue
//! does; the workers it starts join the level being read.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::thread::Scope;
use std::time::Instant;

use crossbeam_deque::{Injector, Steal};

use crate::output::printer::Batch;
use crate::walk::contract::Walk;
use crate::walk::scan::{DirJob, Scanner};
use crate::walk::threads::{blocks_read, BLOCKED_READS, SLOW_READ};

/// Who reads the level, under one lock.
#[derive(Debug, Default)]
struct Gate {
    /// Levels opened so far (the search roots are level 1).
    level: u64,
    /// Places left in the level being read, for workers waiting at the gate.
    places: usize,
    /// Workers reading the level, not yet done with it.
    reading: usize,
    /// Workers started.
    workers: usize,
    /// Workers waiting at the gate.
    waiting: usize,
    /// No level left, or output stopped.
    done: bool,
    /// Directory reads seen blocking on the disk (`auto` grows after [`BLOCKED_READS`]).
    blocked: usize,
    /// Workers `auto` may still start.
    spare: usize,
}

/// What all workers share.
struct Levels {
    /// The directories of the level being read.
    current: Injector<DirJob>,
    /// The next level, one list per worker done with its part of this one.
    next: Mutex<Vec<Vec<DirJob>>>,
    gate: Mutex<Gate>,
    opened: Condvar,
    /// Whether `auto` may still grow (read without the lock after every directory).
    may_grow: AtomicBool,
}

impl Levels {
    fn gate(&self) -> MutexGuard<'_, Gate> {
        self.gate.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The next directory of the level being read, if any is left.
    fn take(&self) -> Option<DirJob> {
        loop {
            match self.current.steal() {
                Steal::Success(job) => return Some(job),
                Steal::Empty => return None,
                Steal::Retry => {}
            }
        }
    }

    /// Waits at the gate for a place in a level after `seen`; false when the walk is over.
    fn wait_for_place(&self, seen: &mut u64) -> bool {
        let mut gate = self.gate();
        gate.waiting += 1;
        loop {
            if gate.done {
                gate.waiting -= 1;
                return false;
            }
            if gate.level != *seen && gate.places > 0 {
                gate.places -= 1;
                gate.reading += 1;
                gate.waiting -= 1;
                *seen = gate.level;
                return true;
            }
            gate = self.opened.wait(gate).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// A worker has read its part of the level; its subdirectories are handed over. Its batch
    /// goes to the printer unless it was the only reader. True for the last one done: it
    /// opens the next level.
    fn part_done(&self, walk: &Walk<'_>, batch: &mut Batch) -> bool {
        {
            let mut gate = self.gate();
            if gate.reading == 1 && gate.places == 0 {
                gate.reading = 0;
                return true;
            }
        }
        walk.printer.flush(batch);
        let mut gate = self.gate();
        gate.reading -= 1;
        if gate.reading > 0 {
            return false;
        }
        // Places nobody took are not for the next level.
        gate.places = 0;
        true
    }

    /// Opens the next level to as many workers as it has directories (`batch`, the opener's,
    /// is handed over first when others will read it); false when there is none, or output
    /// stopped: the walk is over.
    fn open_next(&self, walk: &Walk<'_>, batch: &mut Batch, seen: &mut u64) -> bool {
        let parts = std::mem::take(&mut *self.next.lock().unwrap_or_else(|e| e.into_inner()));
        let count: usize = parts.iter().map(Vec::len).sum();
        let readers = self.gate().workers.min(count);
        if readers > 1 {
            walk.printer.flush(batch);
        }
        let go_on = count > 0 && !walk.printer.stopped();
        if go_on {
            for job in parts.into_iter().flatten() {
                self.current.push(job);
            }
        }
        let mut gate = self.gate();
        if !go_on {
            gate.done = true;
            self.opened.notify_all();
            return false;
        }
        gate.level += 1;
        *seen = gate.level;
        gate.reading = 1;
        gate.places = readers - 1;
        if gate.places >= gate.waiting {
            self.opened.notify_all();
        } else {
            for _ in 0..gate.places {
                self.opened.notify_one();
            }
        }
        true
    }
}

/// Walks every root breadth first with `walk.workers` workers: the calling thread and
/// `workers - 1` more.
pub fn walk(walk: &Walk<'_>) {
    let threads = walk.workers.max(1);
    let levels = Levels {
        current: Injector::new(),
        next: Mutex::new(Vec::new()),
        gate: Mutex::new(Gate {
            spare: walk.max_workers.max(threads) - threads,
            ..Gate::default()
        }),
        opened: Condvar::new(),
        may_grow: AtomicBool::new(walk.max_workers > threads),
    };
    let roots: Vec<DirJob> = DirJob::roots(walk).collect();
    if roots.is_empty() {
        return;
    }
    levels
        .next
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(roots);
    std::thread::scope(|scope| {
        let levels = &levels;
        let mut started = 1;
        for me in 1..threads {
            if let Err(e) = spawn_worker(walk, levels, scope, me) {
                // The workers already running (and this thread) finish the walk.
                walk.report.warning(&format!(
                    "could start only {me} of {threads} workers: {}",
                    crate::report::describe(&e)
                ));
                levels.may_grow.store(false, Ordering::SeqCst);
                break;
            }
            started += 1;
        }
        levels.gate().workers = started;
        // This thread opens the first level, the search roots, and reads it.
        let mut seen = 0;
        if levels.open_next(walk, &mut Batch::new(), &mut seen) {
            work(walk, levels, scope, seen, true);
        }
    });
}

/// Starts worker `me` with the walk's small stack. It waits at the gate for a place in a level
/// (having read none, any level open is new to it).
fn spawn_worker<'scope, 'env>(
    walk: &'scope Walk<'env>,
    levels: &'scope Levels,
    scope: &'scope Scope<'scope, 'env>,
    me: usize,
) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name(format!("ffind-queue-{me}"))
        .stack_size(crate::walk::threads::STACK_SIZE)
        .spawn_scoped(scope, move || work(walk, levels, scope, 0, false))
        .map(drop)
}

/// Starts the spare workers (once): reads are blocking on the disk. Each joins the level being
/// read.
fn grow<'scope, 'env>(
    walk: &'scope Walk<'env>,
    levels: &'scope Levels,
    scope: &'scope Scope<'scope, 'env>,
) {
    levels.may_grow.store(false, Ordering::SeqCst);
    let spare = std::mem::take(&mut levels.gate().spare);
    for _ in 0..spare {
        {
            let mut gate = levels.gate();
            gate.workers += 1;
            gate.places += 1;
        }
        // A started worker's first look at the gate sees a level it has not read.
        let me = levels.gate().workers - 1;
        if spawn_worker(walk, levels, scope, me).is_err() {
            // Fewer threads than hoped: the ones running finish the walk. A place nobody
            // takes only goes unused.
            levels.gate().workers -= 1;
            break;
        }
    }
}

/// One worker: waits at the gate for a place in a level (`reading`: it has one already),
/// reads directories of that level until none is left, and opens the next level when it is
/// the last done.
fn work<'scope, 'env>(
    walk: &'scope Walk<'env>,
    levels: &'scope Levels,
    scope: &'scope Scope<'scope, 'env>,
    mut seen: u64,
    mut reading: bool,
) {
    let mut scanner = Scanner::new();
    let mut found: Vec<DirJob> = Vec::new();
    let mut blocks = if levels.may_grow.load(Ordering::Relaxed) {
        blocks_read()
    } else {
        0
    };
    loop {
        if !reading && !levels.wait_for_place(&mut seen) {
            break;
        }
        while let Some(job) = levels.take() {
            if walk.printer.stopped() {
                continue;
            }
            let started = levels.may_grow.load(Ordering::Relaxed).then(Instant::now);
            scanner.scan(walk, job, &mut |child| found.push(child));
            if started.is_some_and(|t| t.elapsed() > SLOW_READ) {
                let now = blocks_read();
                if now > blocks && blocked_enough(levels) {
                    grow(walk, levels, scope);
                }
                blocks = now;
            }
        }
        if !found.is_empty() {
            let mut next = levels.next.lock().unwrap_or_else(|e| e.into_inner());
            next.push(std::mem::take(&mut found));
        }
        reading = levels.part_done(walk, &mut scanner.batch)
            && levels.open_next(walk, &mut scanner.batch, &mut seen);
    }
    walk.printer.flush(&mut scanner.batch);
}

/// Counts one read that blocked on the disk: true when there have been enough to grow.
fn blocked_enough(levels: &Levels) -> bool {
    let mut gate = levels.gate();
    gate.blocked += 1;
    gate.blocked >= BLOCKED_READS
}
