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
#[cfg(unix)]
#[derive(Debug)]
pub struct Mapped {
    addr: *mut libc::c_void,
    len: usize,
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
    ///
    /// The file must not be changed in place while mapped: the memo's files never are (a new
    /// one is written beside and renamed over), and a file truncated by someone else would
    /// raise SIGBUS, as for any reader of a mapped file; the memo directory is the user's
    /// own, 0700 (see `memo::place`).
    pub fn new(file: &File) -> io::Result<Mapped> {
        let len = usize::try_from(file.metadata()?.len())
            .map_err(|_| io::Error::from(io::ErrorKind::FileTooLarge))?;
        if len == 0 {
            return Ok(Mapped {
                addr: std::ptr::null_mut(),
                len: 0,
            });
        }
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
            return Err(io::Error::last_os_error());
        }
        Ok(Mapped { addr, len })
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        if self.len == 0 {
            return &[];
        }
        // SAFETY: `len` bytes mapped readable at `addr` for as long as `self` lives.
        unsafe { std::slice::from_raw_parts(self.addr.cast::<u8>(), self.len) }
    }
}

#[cfg(unix)]
impl Drop for Mapped {
    fn drop(&mut self) {
        if self.len > 0 {
            // SAFETY: unmaps exactly the mapping made in `new`, once.
            unsafe {
                libc::munmap(self.addr, self.len);
            }
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
}

#[cfg(test)]
mod tests {
    use super::*;

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
