//! Descriptors kept open for later: the budget the open-file limit leaves for them, and the
//! [`DirSlot`] that holds one directory's descriptor while its subdirectories wait, shared by
//! threads and taken back when another directory needs it. The descriptor cache of the walk
//! (`walk/descriptors.rs`) decides which; this file only owns the descriptors.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::OnceLock;

use super::dir::Dir;

/// Descriptors that walks may keep open so that children open relative to their parent, not
/// taken yet. Set once by [`set_fd_budget`]; the descriptor cache (`walk/descriptors.rs`) takes from
/// it and gives back.
static FD_BUDGET: AtomicUsize = AtomicUsize::new(0);

/// The whole budget, as [`set_fd_budget`] set it.
static FD_BUDGET_SET: AtomicUsize = AtomicUsize::new(0);

/// Raises the soft open-file limit to the hard one and returns it. Once per process: `main`
/// asks before any thread starts ([`grow_fd_table`]) and the walk's preparation again, which
/// is handed what the first call found.
pub fn raise_fd_limit() -> usize {
    static RAISED: OnceLock<usize> = OnceLock::new();
    *RAISED.get_or_init(raise_soft_limit)
}

/// What the system lets a process raise its soft limit to when the hard limit itself is refused:
/// macOS refuses more than `kern.maxfilesperproc` (10,240 by default, `OPEN_MAX`) whatever the
/// hard limit says (often unlimited), and starts processes at 256.
#[cfg(target_vendor = "apple")]
const PER_PROCESS_MOST: Option<libc::rlim_t> = Some(10_240);
#[cfg(all(unix, not(target_vendor = "apple")))]
const PER_PROCESS_MOST: Option<libc::rlim_t> = None;

/// [`raise_fd_limit`] on Windows, which has no such limit: a process may hold millions of
/// handles. The walk keeps as many directories open as it would under a generous Unix limit.
#[cfg(windows)]
fn raise_soft_limit() -> usize {
    1 << 16
}

/// [`raise_fd_limit`]'s system calls.
#[cfg(unix)]
fn raise_soft_limit() -> usize {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes into the struct we own; setrlimit only reads it.
    let soft = unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) != 0 {
            256
        } else {
            // More than a million descriptors buys nothing and costs kernel memory.
            let want = lim.rlim_max.min(1 << 20);
            let raise = |to: libc::rlim_t| {
                let new = libc::rlimit {
                    rlim_cur: to,
                    rlim_max: lim.rlim_max,
                };
                libc::setrlimit(libc::RLIMIT_NOFILE, &new) == 0
            };
            if want > lim.rlim_cur {
                if raise(want) {
                    lim.rlim_cur = want;
                } else if let Some(most) =
                    PER_PROCESS_MOST.filter(|&m| m < want && m > lim.rlim_cur)
                {
                    if raise(most) {
                        lim.rlim_cur = most;
                    }
                }
            }
            lim.rlim_cur
        }
    };
    usize::try_from(soft).unwrap_or(usize::MAX)
}

/// Makes the process's table of descriptors hold `n` of them (at most the soft limit) from now
/// on. The kernel doubles the table as descriptors are opened, and while threads share it each
/// doubling waits for an RCU grace period (milliseconds, more on a loaded machine): a walk
/// that will keep hundreds of directories open grows it once, before its threads start, where
/// a lone thread pays no such wait.
#[cfg(windows)]
pub fn grow_fd_table(_n: usize) {}

/// See above: Unix's table of descriptors.
#[cfg(unix)]
pub fn grow_fd_table(n: usize) {
    let Some(highest) = n.checked_sub(1) else {
        return;
    };
    let highest = libc::c_int::try_from(highest).unwrap_or(libc::c_int::MAX);
    // SAFETY: a NUL-terminated path; every descriptor opened here is closed here.
    unsafe {
        let fd = libc::open(c"/".as_ptr(), ANCHOR_FLAGS);
        if fd < 0 {
            return;
        }
        // The lowest free descriptor at or above `highest`: the table grows to hold it.
        let high = libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, highest);
        if high >= 0 {
            libc::close(high);
        }
        libc::close(fd);
    }
}

/// How [`grow_fd_table`] opens a descriptor to duplicate: `O_PATH` where there is one (no
/// access checked, nothing read).
#[cfg(any(target_os = "linux", target_os = "android"))]
const ANCHOR_FLAGS: libc::c_int = libc::O_PATH | libc::O_CLOEXEC;
#[cfg(all(unix, not(any(target_os = "linux", target_os = "android"))))]
const ANCHOR_FLAGS: libc::c_int = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC;

/// Sets the number of descriptors walks may keep open (what the limit leaves beside the
/// workers' own and the reserve: `walk::run`).
pub fn set_fd_budget(n: usize) {
    FD_BUDGET_SET.store(n, Ordering::Relaxed);
    FD_BUDGET.store(n, Ordering::Relaxed);
}

/// The number of descriptors walks may keep open, as [`set_fd_budget`] set it.
pub fn fd_budget() -> usize {
    FD_BUDGET_SET.load(Ordering::Relaxed)
}

/// Takes one descriptor from the budget; false when none is left.
pub fn take_fd_slot() -> bool {
    FD_BUDGET
        .fetch_update(Ordering::AcqRel, Ordering::Acquire, |b| b.checked_sub(1))
        .is_ok()
}

/// How many descriptors of the budget are not taken now.
pub fn fd_slots_left() -> usize {
    FD_BUDGET.load(Ordering::Relaxed)
}

/// Gives back a descriptor taken with [`take_fd_slot`].
pub fn give_fd_slot() {
    FD_BUDGET.fetch_add(1, Ordering::AcqRel);
}

/// A directory descriptor shared by the threads that open its subdirectories, which may be
/// taken from it (closed, to open another) whenever none of them is using it: the descriptor
/// cache's (`walk/descriptors.rs`) one piece of descriptor ownership, kept here with the others.
///
/// One atomic word: the descriptor (or none) and the number of pins (users right now). A
/// pinned descriptor is never taken, so a [`DirInUse`] stays valid as long as it lives.
#[derive(Debug)]
pub struct DirSlot {
    state: AtomicU64,
}

/// The state of an empty [`DirSlot`].
const NO_FD: u64 = u32::MAX as u64;
const FD_BITS: u64 = u32::MAX as u64;
const PIN: u64 = 1 << 32;

/// What [`DirSlot::evict`] did.
#[derive(Debug)]
pub enum Evicted {
    /// The descriptor, now the caller's.
    Taken(Dir),
    /// In use right now.
    Pinned,
    /// No descriptor.
    Empty,
}

impl DirSlot {
    /// A slot holding no descriptor.
    pub fn empty() -> DirSlot {
        DirSlot {
            state: AtomicU64::new(NO_FD),
        }
    }

    /// Whether the slot holds a descriptor now.
    pub fn is_held(&self) -> bool {
        self.state.load(Ordering::Acquire) & FD_BITS != NO_FD
    }

    /// The descriptor, pinned until the guard is dropped; `None` when the slot is empty.
    pub fn pin(&self) -> Option<DirInUse<'_>> {
        let mut s = self.state.load(Ordering::Acquire);
        loop {
            if s & FD_BITS == NO_FD {
                return None;
            }
            match self
                .state
                .compare_exchange_weak(s, s + PIN, Ordering::Acquire, Ordering::Acquire)
            {
                Ok(_) => {
                    let lent = Dir::from_slot_bits((s & FD_BITS) as u32);
                    return Some(self.in_use(lent, true));
                }
                Err(now) => s = now,
            }
        }
    }

    /// `dir`, the caller's own, in use beside this slot: closed when done with unless given
    /// to the slot meanwhile ([`DirInUse::share`]).
    pub fn own(&self, dir: Dir) -> DirInUse<'_> {
        self.in_use(dir, false)
    }

    fn in_use(&self, dir: Dir, pinned: bool) -> DirInUse<'_> {
        DirInUse {
            slot: self,
            dir: std::mem::ManuallyDrop::new(dir),
            pinned: std::cell::Cell::new(pinned),
        }
    }

    /// Puts `dir` in the empty slot; gives it back when the slot holds one already.
    pub fn install(&self, dir: Dir) -> Result<(), Dir> {
        if self.put(dir.slot_bits(), 0) {
            std::mem::forget(dir);
            Ok(())
        } else {
            Err(dir)
        }
    }

    /// Puts descriptor `fd` in the empty slot with `pins` pins.
    fn put(&self, fd: u32, pins: u64) -> bool {
        let state = u64::from(fd) | pins;
        self.state
            .compare_exchange(NO_FD, state, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }

    /// Takes the descriptor if nobody is using it.
    pub fn evict(&self) -> Evicted {
        let mut s = self.state.load(Ordering::Acquire);
        loop {
            if s & FD_BITS == NO_FD {
                return Evicted::Empty;
            }
            if s >= PIN {
                return Evicted::Pinned;
            }
            match self
                .state
                .compare_exchange_weak(s, NO_FD, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => return Evicted::Taken(Dir::from_slot_bits((s & FD_BITS) as u32)),
                Err(now) => s = now,
            }
        }
    }

    /// Takes the descriptor, whatever its pins (the slot's owner, with nobody else left).
    pub fn take(&mut self) -> Option<Dir> {
        let s = std::mem::replace(self.state.get_mut(), NO_FD);
        debug_assert!(s < PIN, "a pinned descriptor outlives its slot's owners");
        (s & FD_BITS != NO_FD).then(|| Dir::from_slot_bits((s & FD_BITS) as u32))
    }
}

impl Drop for DirSlot {
    fn drop(&mut self) {
        drop(self.take());
    }
}

/// A directory descriptor in use: a [`DirSlot`]'s, pinned (so never taken from it meanwhile),
/// or the user's own, which it may give to the slot partway ([`DirInUse::share`]: a worker
/// reading a directory keeps it for the subdirectories it finds).
#[derive(Debug)]
pub struct DirInUse<'a> {
    slot: &'a DirSlot,
    /// Closed on drop only while not the slot's.
    dir: std::mem::ManuallyDrop<Dir>,
    /// The slot's, and pinned by this.
    pinned: std::cell::Cell<bool>,
}

impl DirInUse<'_> {
    /// Whether the descriptor is the slot's.
    pub fn is_shared(&self) -> bool {
        self.pinned.get()
    }

    /// Gives the descriptor to the slot (pinned by this until dropped), if the slot is empty.
    /// True when the slot has it.
    pub fn share(&self) -> bool {
        if !self.pinned.get() && self.slot.put(self.dir.slot_bits(), PIN) {
            self.pinned.set(true);
        }
        self.pinned.get()
    }
}

impl std::ops::Deref for DirInUse<'_> {
    type Target = Dir;

    fn deref(&self) -> &Dir {
        &self.dir
    }
}

impl Drop for DirInUse<'_> {
    fn drop(&mut self) {
        if self.pinned.get() {
            self.slot.state.fetch_sub(PIN, Ordering::Release);
        } else {
            // SAFETY: not shared, so ours alone, and dropped exactly once (here).
            unsafe { std::mem::ManuallyDrop::drop(&mut self.dir) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROOT: &[u8] = if cfg!(windows) { b"C:\\" } else { b"/" };

    #[test]
    fn a_pinned_descriptor_is_not_evicted() {
        let slot = DirSlot::empty();
        assert!(slot.pin().is_none());
        assert!(matches!(slot.evict(), Evicted::Empty));
        let root = Dir::open_path(ROOT).unwrap();
        let ino = root.stat().unwrap().ino;
        slot.install(root).unwrap();
        assert!(
            slot.install(Dir::open_path(ROOT).unwrap()).is_err(),
            "held already"
        );
        let pinned = slot.pin().unwrap();
        let again = slot.pin().unwrap();
        assert!(matches!(slot.evict(), Evicted::Pinned));
        drop(pinned);
        assert!(matches!(slot.evict(), Evicted::Pinned), "one pin left");
        assert_eq!(again.stat().unwrap().ino, ino, "still open");
        drop(again);
        match slot.evict() {
            Evicted::Taken(dir) => assert_eq!(dir.stat().unwrap().ino, ino),
            other => panic!("{other:?}"),
        }
        assert!(!slot.is_held());
        // A directory of one's own, given to the slot partway, pinned until done with.
        let mut slot = DirSlot::empty();
        let own = slot.own(Dir::open_path(ROOT).unwrap());
        assert!(!own.is_shared() && !slot.is_held());
        assert!(own.share());
        assert!(matches!(slot.evict(), Evicted::Pinned));
        assert_eq!(own.stat().unwrap().ino, ino);
        drop(own);
        assert!(slot.take().is_some());
        assert!(slot.take().is_none());
    }
}
