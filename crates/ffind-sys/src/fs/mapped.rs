//! A file mapped read-only into memory ([`Mapped`]): how the directory memo (`--cache`,
//! `src/memo/`) reads its files, so that a search's memory grows with the pages it touches,
//! not with the file.

use std::fs::File;
use std::io;
#[cfg(unix)]
use std::os::fd::AsRawFd;

/// Takes `file`'s exclusive lock (`flock`), waiting for it: held until the file is closed.
/// How searches that append to one memo file take turns.
#[cfg(unix)]
pub fn lock_exclusive(file: &File) -> io::Result<()> {
    loop {
        // SAFETY: flock on a descriptor we hold; no memory is passed.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } == 0 {
            return Ok(());
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// A whole file mapped read-only and private; unmapped on drop.
///
/// Another program may truncate the file while it is mapped (the memo directory is the
/// user's own, but any of the user's programs can write to it): a read of a page past the new
/// end then raises SIGBUS, which would kill the search. [`guard`]'s handler catches exactly
/// those faults, on the pages of a live mapping: it maps a page of zeros in the lost page's
/// place, so the read goes on and sees zeros, and marks the mapping [`Mapped::cut_short`].
/// Readers check what they read (the memo checks a CRC over each record it copied out), so
/// zeros are found wrong, never taken for a listing. A fault anywhere else is left to the
/// action that was there before (a crash, or std's stack-overflow report).
#[cfg(unix)]
#[derive(Debug)]
pub struct Mapped {
    addr: *mut libc::c_void,
    len: usize,
    /// The slot of [`guard::MAPS`] it holds (none for an empty file, or when every slot was
    /// taken: then its bytes are read instead, `owned`).
    slot: Option<usize>,
    owned: Vec<u8>,
}

// SAFETY: the mapping is read-only and private (MAP_PRIVATE | PROT_READ): nothing writes
// through it, so sharing the bytes between threads is as safe as sharing a `&[u8]`.
#[cfg(unix)]
unsafe impl Send for Mapped {}
// SAFETY: as above.
#[cfg(unix)]
unsafe impl Sync for Mapped {}

#[cfg(unix)]
impl Mapped {
    /// Maps `file` whole. An empty file gives an empty mapping (no `mmap` call).
    pub fn new(file: &File) -> io::Result<Mapped> {
        let len = usize::try_from(file.metadata()?.len())
            .map_err(|_| io::Error::from(io::ErrorKind::FileTooLarge))?;
        let empty = Mapped {
            addr: std::ptr::null_mut(),
            len: 0,
            slot: None,
            owned: Vec::new(),
        };
        if len == 0 {
            return Ok(empty);
        }
        guard::install();
        let Some(slot) = guard::reserve() else {
            // Every slot taken (as many memo files at once as never happens): read instead.
            use std::io::Read;
            let mut owned = Vec::with_capacity(len);
            file.take(len as u64).read_to_end(&mut owned)?;
            return Ok(Mapped { owned, ..empty });
        };
        // SAFETY: a fresh read-only private mapping of a descriptor we hold; the kernel picks
        // the address, and we check the result before use.
        let addr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ,
                libc::MAP_PRIVATE,
                file.as_raw_fd(),
                0,
            )
        };
        if addr == libc::MAP_FAILED {
            let e = io::Error::last_os_error();
            guard::release(slot);
            return Err(e);
        }
        guard::register(slot, addr as usize, len);
        Ok(Mapped {
            addr,
            len,
            slot: Some(slot),
            owned: Vec::new(),
        })
    }

    /// The file's bytes (zeros where the file was cut short while mapped).
    pub fn bytes(&self) -> &[u8] {
        if self.len == 0 {
            return &self.owned;
        }
        // SAFETY: `len` bytes mapped readable at `addr` for as long as `self` lives (a page
        // the file lost is replaced by zeros, never left unmapped: see `guard`).
        unsafe { std::slice::from_raw_parts(self.addr.cast::<u8>(), self.len) }
    }

    /// Whether the file was found cut short while mapped (a read met a page past its end,
    /// which now reads as zeros).
    pub fn cut_short(&self) -> bool {
        self.slot.is_some_and(guard::faulted)
    }
}

#[cfg(unix)]
impl Drop for Mapped {
    fn drop(&mut self) {
        if self.len > 0 {
            if let Some(slot) = self.slot {
                guard::release(slot);
            }
            // SAFETY: unmaps exactly the range mapped in `new` (with any page of zeros put in
            // it by the handler), once, after its slot stopped naming it.
            unsafe {
                libc::munmap(self.addr, self.len);
            }
        }
    }
}

/// The SIGBUS handler that keeps a search alive when a mapped file is cut short.
#[cfg(unix)]
mod guard {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::Once;

    /// How many files may be mapped at once (one per memo file a search reads: one per tree).
    const SLOTS: usize = 64;

    /// A mapping the handler may mend: its start and length (0: free), and whether it was.
    struct Slot {
        taken: AtomicBool,
        start: AtomicUsize,
        len: AtomicUsize,
        faulted: AtomicBool,
    }

    #[allow(clippy::declare_interior_mutable_const)] // a pattern for the array below
    const FREE: Slot = Slot {
        taken: AtomicBool::new(false),
        start: AtomicUsize::new(0),
        len: AtomicUsize::new(0),
        faulted: AtomicBool::new(false),
    };
    static MAPS: [Slot; SLOTS] = [FREE; SLOTS];
    static PAGE: AtomicUsize = AtomicUsize::new(4096);
    static INSTALL: Once = Once::new();
    /// The action SIGBUS had before ours, restored for a fault that is not ours.
    static mut PREVIOUS: std::mem::MaybeUninit<libc::sigaction> = std::mem::MaybeUninit::zeroed();

    /// Installs the handler, once per process.
    pub fn install() {
        INSTALL.call_once(|| {
            // SAFETY: sysconf has no preconditions.
            let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
            if let Ok(page) = usize::try_from(page) {
                if page.is_power_of_two() {
                    PAGE.store(page, Ordering::Relaxed);
                }
            }
            // SAFETY: a zeroed sigaction is a valid start; we set the handler, flags and an
            // empty mask, and PREVIOUS is written here only, once, before any fault can be
            // ours (no mapping is registered yet).
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_fault as *const () as usize;
                action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(
                    libc::SIGBUS,
                    &action,
                    std::ptr::addr_of_mut!(PREVIOUS).cast::<libc::sigaction>(),
                );
            }
        });
    }

    /// A free slot, now taken; `None` when all are.
    pub fn reserve() -> Option<usize> {
        MAPS.iter().position(|s| {
            s.taken
                .compare_exchange(false, true, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
        })
    }

    /// The mapping at `start`, `len` bytes long, is in `slot`.
    pub fn register(slot: usize, start: usize, len: usize) {
        let s = &MAPS[slot];
        s.faulted.store(false, Ordering::Relaxed);
        s.start.store(start, Ordering::Relaxed);
        s.len.store(len, Ordering::Release);
    }

    /// `slot` names no mapping any more.
    pub fn release(slot: usize) {
        let s = &MAPS[slot];
        s.len.store(0, Ordering::Release);
        s.taken.store(false, Ordering::Release);
    }

    /// Whether a fault was mended in the mapping of `slot`.
    pub fn faulted(slot: usize) -> bool {
        MAPS[slot].faulted.load(Ordering::Relaxed)
    }

    /// The address a fault was at.
    ///
    /// # Safety
    ///
    /// `info` is the siginfo the kernel handed a SIGBUS handler.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    unsafe fn address(info: *const libc::siginfo_t) -> usize {
        // SAFETY: the kernel's siginfo for SIGBUS carries the faulting address.
        unsafe { (*info).si_addr() as usize }
    }

    /// The address a fault was at.
    ///
    /// # Safety
    ///
    /// `info` is the siginfo the kernel handed a SIGBUS handler.
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    unsafe fn address(info: *const libc::siginfo_t) -> usize {
        // SAFETY: the kernel's siginfo for SIGBUS carries the faulting address.
        unsafe { (*info).si_addr as usize }
    }

    /// The handler: for a fault in a registered mapping, a page of zeros where the file's page
    /// was (the faulting read is then retried, and reads zeros); for any other, the previous
    /// action back, so that the retried access meets it. Only atomics, `mmap` and
    /// `sigaction`: async-signal-safe.
    extern "C" fn on_fault(_sig: libc::c_int, info: *mut libc::siginfo_t, _ctx: *mut libc::c_void) {
        // SAFETY: `info` is the kernel's, for this SIGBUS.
        let at = unsafe { address(info) };
        let page = PAGE.load(Ordering::Relaxed);
        for s in &MAPS {
            let len = s.len.load(Ordering::Acquire);
            let start = s.start.load(Ordering::Relaxed);
            if len == 0 || at < start || at - start >= len {
                continue;
            }
            let base = at & !(page - 1);
            // SAFETY: replaces one page inside a mapping of ours (registered, so alive and
            // not being unmapped) by a private page of zeros, read-only as the rest.
            let mended = unsafe {
                libc::mmap(
                    base as *mut libc::c_void,
                    page,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                    -1,
                    0,
                )
            };
            if mended != libc::MAP_FAILED {
                s.faulted.store(true, Ordering::Relaxed);
                return;
            }
        }
        // SAFETY: PREVIOUS was filled by `install` before any fault could be ours.
        unsafe {
            libc::sigaction(
                libc::SIGBUS,
                std::ptr::addr_of!(PREVIOUS).cast::<libc::sigaction>(),
                std::ptr::null_mut(),
            );
        }
    }
}

/// Takes `file`'s exclusive lock (`LockFileEx` over the whole file), waiting for it: held
/// until the file is closed.
#[cfg(windows)]
pub fn lock_exclusive(file: &File) -> io::Result<()> {
    use std::os::windows::io::AsRawHandle;
    use windows_sys::Win32::Storage::FileSystem::{LockFileEx, LOCKFILE_EXCLUSIVE_LOCK};
    use windows_sys::Win32::System::IO::OVERLAPPED;
    // SAFETY: a zeroed OVERLAPPED (offset 0) is what a lock from the start wants.
    let mut at: OVERLAPPED = unsafe { std::mem::zeroed() };
    // SAFETY: a handle we hold and an OVERLAPPED that outlives the (synchronous) call.
    let ok = unsafe {
        LockFileEx(
            file.as_raw_handle(),
            LOCKFILE_EXCLUSIVE_LOCK,
            0,
            u32::MAX,
            u32::MAX,
            &mut at,
        )
    };
    if ok == 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

/// A whole file's bytes. On Windows they are read rather than mapped: a mapped file cannot be
/// replaced while mapped there (the memo writes a new file and renames it over), and the memo
/// is off on Windows anyway (`memo::place`), so only its management commands read one.
#[cfg(windows)]
#[derive(Debug)]
pub struct Mapped {
    bytes: Vec<u8>,
}

#[cfg(windows)]
impl Mapped {
    /// Reads `file` whole, from its start.
    pub fn new(file: &File) -> io::Result<Mapped> {
        use std::io::{Read, Seek};
        let mut file = file;
        file.seek(io::SeekFrom::Start(0))?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        Ok(Mapped { bytes })
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Never: the bytes were read, and stay as read whatever happens to the file.
    pub fn cut_short(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file cut short while mapped: reading past its new end neither crashes nor reads the
    /// lost bytes, and the mapping says it was cut short.
    #[cfg(unix)]
    #[test]
    fn a_file_cut_short_while_mapped_reads_as_zeros() {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("f");
        std::fs::write(&p, vec![7u8; 3 * 65536]).unwrap();
        let m = Mapped::new(&File::open(&p).unwrap()).unwrap();
        assert_eq!(m.bytes()[100], 7);
        assert!(!m.cut_short());
        File::options()
            .write(true)
            .open(&p)
            .unwrap()
            .set_len(1000)
            .unwrap();
        let bytes = m.bytes();
        assert_eq!(bytes[999], 7, "what is still in the file reads as it was");
        assert!(
            bytes[65536..].iter().all(|&b| b == 0),
            "the pages past the end read as zeros"
        );
        assert!(m.cut_short());
        drop(m);
        // A mapping made afterwards starts whole.
        std::fs::write(&p, vec![9u8; 10]).unwrap();
        let again = Mapped::new(&File::open(&p).unwrap()).unwrap();
        assert_eq!(again.bytes(), [9u8; 10]);
        assert!(!again.cut_short());
    }

    #[test]
    fn maps_what_the_file_holds() {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("f");
        std::fs::write(&p, b"hello memo").unwrap();
        let m = Mapped::new(&File::open(&p).unwrap()).unwrap();
        assert_eq!(m.bytes(), b"hello memo");
        std::fs::write(&p, b"").unwrap();
        let e = Mapped::new(&File::open(&p).unwrap()).unwrap();
        assert!(e.bytes().is_empty());
    }
}
