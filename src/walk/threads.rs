//! Threads for the parallel methods: small explicit stacks, as many as the system will start
//! (with one warning when fewer), and a bound for the methods whose schedulers collapse when
//! given thousands of threads.
//!
//! A method never aborts because a thread could not start (`ulimit -u`, `ulimit -v`): it warns
//! once and finishes with the threads it got, down to the calling thread alone.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::walk::contract::Walk;

/// The stack of every walk thread. Directories are jobs, not stack frames, so a walk thread
/// never recurses; its deepest calls are regex matching and the crates' visitors. 512 KiB
/// instead of Rust's 2 MiB: `-j 32` then reserves 16 MiB of address space, not 64, and runs
/// under `ulimit -v 100000` (tests/integration/threads.rs).
pub const STACK_SIZE: usize = 512 * 1024;

// When `auto` grows its workers (queue.rs, levels.rs): reads that block on the disk.

/// A directory read slower than this is checked for blocking on the disk (a warm read of a
/// typical directory takes a few microseconds).
pub const SLOW_READ: Duration = Duration::from_micros(200);

/// Blocked reads after which the walk grows to `Walk::max_workers`.
pub const BLOCKED_READS: usize = 2;

pub use crate::fs::blocks_read;

/// The most threads the `Stealing` methods are given, whatever `-j` says. Their
/// schedulers have idle threads look for work (rayon's steal-and-sleep cycle; the ignore
/// crate's workers poll its queue), so with thousands of threads they spend their time
/// searching, not reading: on a 1M-entry directory at `-j 4096`, ignore took 151 s, rayon 37 s,
/// jwalk 18 s, against 0.5 s for `queue`. Measured (debug build, 2 busy CPUs, median of 3) on
/// 200,000 files in one directory: ignore 1.1 s at `-j 64`, 10.1 s at 256 (much of which was
/// each thread listing the directory again for the beneath check, since shared: 2.5 s at 64,
/// and, without this cap, still 4.7 s at 256 and 129 s at 1,024, release build on a loaded
/// 2-core VM, 2026-12-03); rayon 0.72 s at 64, 1.9 s at 256; on the Linux tree all three are at
/// their best at 64. On a slow file system `queue` gains nothing past 64 either
/// (docs/PERFORMANCE.md: 534 ms at 64). `queue` parks idle workers and keeps its `-j`.
pub const STEALING_MAX: usize = 64;

/// The threads a method with a work-stealing scheduler runs: `-j` (already capped by the
/// descriptor budget), at most [`STEALING_MAX`].
pub fn stealing_threads(walk: &Walk<'_>) -> usize {
    walk.workers.clamp(1, STEALING_MAX)
}

/// A rayon pool of up to `asked` threads with small stacks, built with `build()` (which returns
/// an error where the global pool would panic). Fewer threads when the system refuses, with one
/// warning; `None` (after a warning) when not even one thread starts: the caller walks on its
/// own thread.
pub fn rayon_pool(walk: &Walk<'_>, asked: usize, name: &'static str) -> Option<Pool> {
    let mut threads = asked.max(1);
    let mut refused = None;
    loop {
        // Threads spawned here rather than by rayon, to wait for them when the pool fails:
        // rayon only tells them to end, and their slots would still count for the next try.
        let spawned = Arc::new(Mutex::new(Vec::new()));
        let handles = spawned.clone();
        let built = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .spawn_handler(move |thread| {
                let handle = std::thread::Builder::new()
                    .name(format!("ffind-{name}-{}", thread.index()))
                    .stack_size(STACK_SIZE)
                    .spawn(|| thread.run())?;
                handles
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(handle);
                Ok(())
            })
            .build();
        let started = std::mem::take(&mut *spawned.lock().unwrap_or_else(|e| e.into_inner()));
        match built {
            Ok(pool) => {
                if let Some(why) = refused {
                    walk.report.warning(&format!(
                        "could start only {threads} of {asked} threads: {why}"
                    ));
                }
                return Some(Pool {
                    pool: Some(Arc::new(pool)),
                    threads: started,
                });
            }
            Err(e) if threads > 1 => {
                refused.get_or_insert_with(|| crate::report::strip_os_error(&e.to_string()));
                let n = started.len();
                for handle in started {
                    let _ = handle.join();
                }
                // Half of what started, leaving the rest as margin (as `startable` does).
                threads = (n / 2).clamp(1, threads / 2);
            }
            Err(e) => {
                let why = crate::report::strip_os_error(&e.to_string());
                walk.report.warning(&format!(
                    "cannot start a thread pool ({why}); walking on one thread"
                ));
                return None;
            }
        }
    }
}

/// A rayon pool whose threads are waited for when it goes: a method returns only once the
/// threads it started have ended, whatever stopped it (`--max-results`, `-1`, `-q`, a closed
/// pipe). A process that ended while the jwalk method's workers were still reading
/// directories hung in Wine's process exit (27 of 200 runs of `--max-results 2 -j 8`).
pub struct Pool {
    /// The pool; taken when it goes, which tells its threads to end.
    pool: Option<Arc<rayon::ThreadPool>>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

/// How long a pool's threads are waited for once it went: they end once the directory each
/// is reading is read, so this is only reached where something still holds the pool (a
/// crate's job that never ends), and then the method returns rather than hang.
const POOL_END: Duration = Duration::from_secs(10);

impl Pool {
    /// The pool, shared with a crate that runs its jobs on it (jwalk): every clone must be
    /// dropped before this `Pool` is, or its threads are not seen to end.
    pub fn shared(&self) -> Arc<rayon::ThreadPool> {
        self.pool.clone().expect("a pool until dropped")
    }
}

impl std::ops::Deref for Pool {
    type Target = rayon::ThreadPool;

    fn deref(&self) -> &rayon::ThreadPool {
        self.pool.as_ref().expect("a pool until dropped")
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        // The last handle of a rayon pool ends it: each thread finishes the job in hand and
        // exits.
        drop(self.pool.take());
        let start = std::time::Instant::now();
        for thread in std::mem::take(&mut self.threads) {
            while !thread.is_finished() && start.elapsed() < POOL_END {
                std::thread::sleep(Duration::from_micros(200));
            }
            if thread.is_finished() {
                let _ = thread.join();
            }
        }
    }
}

/// How many threads (with [`STACK_SIZE`] stacks) to give a crate that spawns its own and
/// panics when one fails (the ignore crate): `asked` when that many start now. When fewer
/// start, the system is short of threads (other processes of the user take them too, and a
/// probe thread's slot is freed a little after it is joined): half of what started, leaving
/// the rest as margin, said in one warning. 0 (the caller walks on its own thread) when that
/// leaves none.
pub fn startable(walk: &Walk<'_>, asked: usize) -> usize {
    let (n, refused) = probe(asked);
    let Some(why) = refused else {
        return n;
    };
    let usable = n / 2;
    if usable > 0 {
        walk.report.warning(&format!(
            "could start only {n} of {asked} threads ({why}); using {usable}"
        ));
    } else {
        walk.report.warning(&format!(
            "cannot start threads ({why}); walking on one thread"
        ));
    }
    usable
}

/// Starts up to `asked` threads, holds them until all that could start have, lets them exit
/// and waits for them: how many started, and why the next one did not.
fn probe(asked: usize) -> (usize, Option<String>) {
    let (hold, wait) = std::sync::mpsc::channel::<()>();
    let wait = std::sync::Arc::new(std::sync::Mutex::new(wait));
    let mut started = Vec::with_capacity(asked);
    let mut refused = None;
    for _ in 0..asked {
        let wait = wait.clone();
        let spawned = std::thread::Builder::new()
            .stack_size(STACK_SIZE)
            .spawn(move || {
                // Blocks until the sender is dropped.
                let _ = wait.lock().map(|w| w.recv());
            });
        match spawned {
            Ok(handle) => started.push(handle),
            Err(e) => {
                refused = Some(crate::report::describe(&e));
                break;
            }
        }
    }
    drop(hold);
    let n = started.len();
    for handle in started {
        let _ = handle.join();
    }
    (n, refused)
}

/// Address space one worker takes: its stack, its buffers (a 64 KiB listing, a 64 KiB batch)
/// and what the allocator keeps for its thread.
const BYTES_PER_WORKER: u64 = STACK_SIZE as u64 + 256 * 1024;

/// How many workers fit in an address-space limit (`ulimit -v`): a quarter of it, the rest
/// being the binary, its libraries and the main heap. Past that, threads start but their first
/// allocations fail, and an allocation failure aborts the process. No limit: no bound.
///
/// Under such a limit the allocator also keeps to one arena: glibc reserves 64 MiB of address
/// space for each arena it adds for a new thread, and two or three of those would take a
/// 100 MB limit whole.
pub fn affordable_by_address_space() -> usize {
    let Some(limit) = crate::fs::address_space_limit() else {
        return usize::MAX;
    };
    crate::fs::one_allocator_arena();
    usize::try_from(limit / 4 / BYTES_PER_WORKER)
        .unwrap_or(usize::MAX)
        .max(1)
}
