//! A file mapped read-only into memory ([`Mapped`]): how the directory memo (`--cache`,
//! `src/memo/`) reads its files, so that a search's memory grows with the pages it touches,
//! not with the file.

use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;

/// Takes `file`'s exclusive lock (`flock`), waiting for it: held until the file is closed.
/// How searches that append to one memo file take turns.
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
#[derive(Debug)]
pub struct Mapped {
    addr: *mut libc::c_void,
    len: usize,
}

// SAFETY: the mapping is read-only and private (MAP_PRIVATE | PROT_READ): nothing writes
// through it, so sharing the bytes between threads is as safe as sharing a `&[u8]`.
unsafe impl Send for Mapped {}
// SAFETY: as above.
unsafe impl Sync for Mapped {}

impl Mapped {
    /// Maps `file` whole. An empty file gives an empty mapping (no `mmap` call).
    ///
    /// The file must not be changed in place while mapped: the memo's files never are (a new
    /// one is written beside and renamed over), and a file truncated by someone else would
    /// raise SIGBUS, as for any reader of a mapped file; the memo directory is the user's
    /// own, 0700 (see `memo::place`).
    pub fn new(file: &File) -> io::Result<Mapped> {
        let len = usize::try_from(file.metadata()?.len())
            .map_err(|_| io::Error::from_raw_os_error(libc::EFBIG))?;
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
