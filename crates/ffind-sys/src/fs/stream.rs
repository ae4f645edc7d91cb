//! A directory stream of the C library (`fdopendir`, `readdir`, `closedir`): how the POSIX
//! reader (`readdir.rs`) and the emptiness check of `-t e` read a directory on macOS and the
//! BSDs, and on Linux built with `--features portable`. Below both [`super::dir::Dir`] and the
//! reader, on raw descriptors, so that neither needs the other's internals.

use std::ffi::CStr;
use std::io;
use std::os::fd::RawFd;
use std::ptr::NonNull;

/// An open directory stream, closed (with its descriptor) on drop.
#[derive(Debug)]
pub(super) struct Stream {
    dir: NonNull<libc::DIR>,
}

// SAFETY: a stream is read through `&mut self` only, so by one thread at a time; `readdir`
// keeps its state in the stream, none in the thread, so the stream may move between threads.
unsafe impl Send for Stream {}

impl Stream {
    /// A stream reading the directory open at `fd`, which it takes over: closed with the
    /// stream, or at once when `fdopendir` refuses it.
    pub(super) fn new(fd: RawFd) -> io::Result<Stream> {
        // SAFETY: `fd` is a descriptor the caller hands over; fdopendir takes it on success.
        let dir = unsafe { libc::fdopendir(fd) };
        match NonNull::new(dir) {
            Some(dir) => Ok(Stream { dir }),
            None => {
                let e = io::Error::last_os_error();
                // SAFETY: refused, so still ours, and closed once.
                unsafe { libc::close(fd) };
                Err(e)
            }
        }
    }

    /// The next entry, `.` and `..` included: (name, `d_type`, inode); `None` at the end.
    pub(super) fn next_entry(&mut self) -> io::Result<Option<(&CStr, u8, u64)>> {
        // readdir says an error only through errno, and leaves it alone at the end.
        nix::errno::Errno::clear();
        // SAFETY: a live stream, read by this thread alone (`&mut self`).
        let entry = unsafe { libc::readdir(self.dir.as_ptr()) };
        if entry.is_null() {
            let e = io::Error::last_os_error();
            return match e.raw_os_error() {
                Some(0) | None => Ok(None),
                Some(_) => Err(e),
            };
        }
        // SAFETY: readdir's entry stays valid until the next call on this stream, which the
        // borrow of `self` held by the result prevents; its name is NUL-terminated.
        let entry = unsafe { &*entry };
        // SAFETY: as above: `d_name` holds a NUL-terminated name.
        let name = unsafe { CStr::from_ptr(entry.d_name.as_ptr()) };
        Ok(Some((name, entry.d_type, inode(entry))))
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        // SAFETY: our stream, closed exactly once (here), with its descriptor.
        unsafe {
            libc::closedir(self.dir.as_ptr());
        }
    }
}

/// An entry's inode number (`d_fileno` on the BSDs, `d_ino` elsewhere).
#[allow(clippy::unnecessary_cast)]
fn inode(entry: &libc::dirent) -> u64 {
    #[cfg(any(
        target_os = "freebsd",
        target_os = "netbsd",
        target_os = "openbsd",
        target_os = "dragonfly"
    ))]
    let ino = entry.d_fileno;
    #[cfg(not(any(
        target_os = "freebsd",
        target_os = "netbsd",
        target_os = "openbsd",
        target_os = "dragonfly"
    )))]
    let ino = entry.d_ino;
    ino as u64
}
