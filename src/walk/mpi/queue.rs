//! One process's side of the walk: its queue of directories and the workers that read them,
//! with ffind's own reader and decision ([`Scanner::scan`], `Walk::judge`) and printer, as
//! `--method queue` does. Nothing here calls MPI: the coordinator (`net.rs`) is the one thread
//! that talks to other processes, and it reaches the workers through [`Local`]: directories
//! in and shares out, passivity, and a wake-up.
//!
//! Why one lock where `queue` has lock-free deques: the termination detection needs "no
//! directory queued and none being read" as one consistent snapshot ([`Local::passive`]), and
//! shares are taken from the oldest end while workers pop the newest (depth first). A lock
//! per directory read costs nothing next to the read.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

use crate::walk::contract::Walk;
use crate::walk::mpi::rebuild::Rebuild;
use crate::walk::mpi::wire::Handed;
use crate::walk::scan::{DirJob, Scanner};

/// A directory to read: found here, or handed over by another process.
#[derive(Debug)]
pub enum Job {
    /// Found by this process: its parent is open here, its state travels with it.
    Here(DirJob),
    /// Handed over: its state is rebuilt here from its path before it is read.
    Handed(Handed),
}

struct Queue {
    /// Directories waiting: workers take the newest (depth first), shares go from the oldest
    /// (the shallowest, the biggest subtrees).
    jobs: VecDeque<Job>,
    /// Directories taken by a worker and not done yet.
    busy: usize,
    /// Workers waiting for a directory.
    waiting: usize,
    /// The walk is over everywhere: waiting workers return.
    finished: bool,
}

/// A process's queue of directories, its workers' count, and the coordinator's wake-up.
pub struct Local {
    q: Mutex<Queue>,
    work: Condvar,
    /// Workers not yet ended (their last output handed over).
    running: AtomicUsize,
    /// Directories read here, and of those, handed over by another process.
    read: AtomicUsize,
    rebuilt: AtomicUsize,
    kicked: Mutex<bool>,
    kick: Condvar,
}

impl Local {
    /// An empty queue.
    pub fn new() -> Local {
        Local {
            q: Mutex::new(Queue {
                jobs: VecDeque::new(),
                busy: 0,
                waiting: 0,
                finished: false,
            }),
            work: Condvar::new(),
            running: AtomicUsize::new(0),
            read: AtomicUsize::new(0),
            rebuilt: AtomicUsize::new(0),
            kicked: Mutex::new(false),
            kick: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.q.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds directories from outside the workers (search paths, or what another process gave).
    pub fn inject(&self, jobs: impl IntoIterator<Item = Job>) {
        let mut q = self.lock();
        let before = q.jobs.len();
        q.jobs.extend(jobs);
        let added = q.jobs.len() - before;
        if added >= q.waiting {
            self.work.notify_all();
        } else {
            for _ in 0..added {
                self.work.notify_one();
            }
        }
    }

    /// Takes the oldest half of the queued directories (rounded down) for a process that asked:
    /// a lone directory stays, so that a chain of single subdirectories (a 3,000-level tree)
    /// is not handed back and forth, each time rebuilt from its path. With `all`, every one.
    pub fn share(&self, all: bool) -> Vec<Job> {
        let mut q = self.lock();
        let n = if all { q.jobs.len() } else { q.jobs.len() / 2 };
        q.jobs.drain(..n).collect()
    }

    /// No directory queued and none being read. Only the coordinator adds directories from
    /// outside, so once it sees this it stays true until the coordinator itself adds some.
    pub fn passive(&self) -> bool {
        let q = self.lock();
        q.jobs.is_empty() && q.busy == 0
    }

    /// Nothing queued and a worker waiting: time to ask another process.
    pub fn hungry(&self) -> bool {
        let q = self.lock();
        q.jobs.is_empty() && q.waiting > 0
    }

    /// Drops every queued directory (an early stop).
    pub fn discard(&self) {
        let dropped = std::mem::take(&mut self.lock().jobs);
        drop(dropped);
        self.kick();
    }

    /// The walk is over everywhere: waiting workers return.
    pub fn finish(&self) {
        let mut q = self.lock();
        q.finished = true;
        self.work.notify_all();
    }

    /// Workers not yet ended.
    pub fn running(&self) -> usize {
        self.running.load(Ordering::SeqCst)
    }

    /// Directories read here, and how many of them another process handed over.
    pub fn read(&self) -> (usize, usize) {
        (
            self.read.load(Ordering::Relaxed),
            self.rebuilt.load(Ordering::Relaxed),
        )
    }

    /// Wakes the coordinator if it waits in [`Local::wait_kick`].
    pub fn kick(&self) {
        let mut k = self.kicked.lock().unwrap_or_else(|e| e.into_inner());
        if !*k {
            *k = true;
            self.kick.notify_one();
        }
    }

    /// Waits until kicked or `timeout` has passed (the coordinator's idle wait: messages from
    /// other processes do not kick, so `timeout` bounds how late one is seen).
    pub fn wait_kick(&self, timeout: Duration) {
        let mut k = self.kicked.lock().unwrap_or_else(|e| e.into_inner());
        if !*k {
            k = self
                .kick
                .wait_timeout(k, timeout)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        *k = false;
    }

    /// A worker's next directory; `None` once the walk is over.
    fn next_job(&self) -> Option<Job> {
        let mut q = self.lock();
        loop {
            if let Some(job) = q.jobs.pop_back() {
                q.busy += 1;
                return Some(job);
            }
            if q.finished {
                return None;
            }
            q.waiting += 1;
            // Going dry: the coordinator may ask another process for work, or (with nothing
            // being read) pass the token on.
            self.kick();
            q = self.work.wait(q).unwrap_or_else(|e| e.into_inner());
            q.waiting -= 1;
        }
    }

    /// A worker read a directory that had `children` to descend into.
    fn done_job(&self, children: &mut Vec<Job>) {
        let mut q = self.lock();
        let n = children.len();
        q.jobs.extend(children.drain(..));
        q.busy -= 1;
        // This worker takes the next one itself; the others are for those waiting.
        for _ in 0..n.saturating_sub(1).min(q.waiting) {
            self.work.notify_one();
        }
        if q.jobs.is_empty() && q.busy == 0 {
            self.kick(); // passive now
        }
    }
}

impl Default for Local {
    fn default() -> Self {
        Local::new()
    }
}

/// Starts counting a worker (before it is spawned, so that the count cannot reach zero while
/// another is about to start).
pub fn worker_starts(local: &Local) {
    local.running.fetch_add(1, Ordering::SeqCst);
}

/// A worker: reads directories until the walk is over, then hands over its last output.
pub fn work(walk: &Walk<'_>, local: &Local, rebuild: &Rebuild) {
    let mut scanner = Scanner::new();
    let mut children = Vec::new();
    while let Some(job) = local.next_job() {
        if !walk.printer.stopped() {
            let job = match job {
                Job::Here(job) => Some(job),
                Job::Handed(handed) => {
                    local.rebuilt.fetch_add(1, Ordering::Relaxed);
                    rebuild.job(walk, handed)
                }
            };
            if let Some(job) = job {
                local.read.fetch_add(1, Ordering::Relaxed);
                scanner.scan(walk, job, &mut |child| children.push(Job::Here(child)));
            }
        }
        if walk.printer.stopped() {
            children.clear();
        }
        local.done_job(&mut children);
    }
    walk.printer.flush(&mut scanner.batch);
    // Its output is handed over (sent before this, SeqCst): the coordinator may say it is done.
    local.running.fetch_sub(1, Ordering::SeqCst);
    local.kick();
}
