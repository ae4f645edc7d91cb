//! The raw records of `getdents64`: the system call (the Linux reader's), and a walk over the
//! `linux_dirent64` records it fills a buffer with (both readers': the POSIX one copies what
//! `readdir` gives into the same records). Below both [`super::dir::Dir`] (which reads small
//! directories whole) and the listings (the walk's reused buffer), so that neither needs the
//! other's internals.

use std::ffi::CStr;
#[cfg(all(target_os = "linux", not(feature = "portable")))]
use std::{io, os::fd::RawFd};

use super::kind::Kind;

/// Whether a name is `.` or `..`.
pub(super) fn is_dot_or_dotdot(name: &[u8]) -> bool {
    name == b"." || name == b".."
}

#[cfg(all(target_os = "linux", not(feature = "portable")))]
pub(super) fn bytemuck_u8(buf: &mut [u64]) -> &mut [u8] {
    // SAFETY: u8 has no alignment or validity requirements; same allocation, 8x the length.
    unsafe { std::slice::from_raw_parts_mut(buf.as_mut_ptr().cast::<u8>(), buf.len() * 8) }
}

#[cfg(all(target_os = "linux", not(feature = "portable")))]
pub(super) fn getdents(fd: RawFd, buf: &mut [u8]) -> io::Result<usize> {
    getdents_raw(fd, buf.as_mut_ptr(), buf.len())
}

#[cfg(all(target_os = "linux", not(feature = "portable")))]
/// `getdents64` into `len` writable bytes at `buf`.
pub(super) fn getdents_raw(fd: RawFd, buf: *mut u8, len: usize) -> io::Result<usize> {
    loop {
        // SAFETY: callers pass `len` writable bytes at `buf`; the kernel writes at most that.
        let n = unsafe { libc::syscall(libc::SYS_getdents64, fd, buf, len) };
        if n < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        return Ok(n as usize);
    }
}

/// Walks `linux_dirent64` records: d_ino (u64), d_off (i64), d_reclen (u16), d_type (u8),
/// d_name (NUL-terminated). Parsed with byte reads, so no alignment is assumed.
pub(super) struct DirentIter<'a> {
    pub(super) buf: &'a [u8],
    /// Only the names that start with `.`.
    pub(super) dot_only: bool,
}

/// One entry of a listing.
#[derive(Debug, Clone, Copy)]
pub struct Listed<'a> {
    /// Its name.
    pub name: &'a CStr,
    /// What it is (from `d_type`).
    pub kind: Kind,
    /// Its inode number (its file id on Windows).
    pub ino: u64,
    /// Hidden by the system's own mark, beside a name that starts with `.`: Windows' hidden
    /// attribute. Never on Unix.
    pub hidden: bool,
}

/// The bit of a record's `d_type` that says the entry carries the hidden attribute (set by
/// the Windows reader; `d_type` values stay below it).
#[cfg_attr(not(windows), allow(dead_code))]
pub(super) const HIDDEN_MARK: u8 = 0x80;

/// A record's `d_type` without the hidden mark, and whether it had it. Only the Windows
/// reader marks entries: elsewhere nothing is asked of the byte.
#[inline]
fn hidden_mark(d_type: u8) -> (u8, bool) {
    if cfg!(windows) {
        (d_type & !HIDDEN_MARK, d_type & HIDDEN_MARK != 0)
    } else {
        (d_type, false)
    }
}

impl<'a> Iterator for DirentIter<'a> {
    type Item = Listed<'a>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.buf.len() < 19 {
                return None;
            }
            let reclen = u16::from_ne_bytes([self.buf[16], self.buf[17]]) as usize;
            if reclen < 20 || reclen > self.buf.len() {
                return None;
            }
            let (rec, rest) = self.buf.split_at(reclen);
            self.buf = rest;
            if self.dot_only && rec[19] != b'.' {
                continue;
            }
            let ino = u64::from_ne_bytes(rec[0..8].try_into().ok()?);
            let name = &rec[19..];
            let len = nul_at(name)?;
            // SAFETY: `nul_at` gives the first NUL, so `name[..=len]` ends with its only one
            // (checking again would scan every name a second time).
            let name = unsafe { CStr::from_bytes_with_nul_unchecked(&name[..=len]) };
            let (d_type, hidden) = hidden_mark(rec[18]);
            return Some(Listed {
                name,
                kind: Kind::from_dtype(d_type),
                ino,
                hidden,
            });
        }
    }
}

/// Where the first NUL of `s` is, 8 bytes at a time. A record's name is short, and a byte
/// loop pays a mispredicted exit per entry; words overlap at the end instead.
#[inline]
pub(super) fn nul_at(s: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    if s.len() < 8 {
        return s.iter().position(|&b| b == 0);
    }
    let mut at = 0;
    loop {
        let word = u64::from_le_bytes(s[at..at + 8].try_into().expect("8 bytes"));
        // The lowest flagged byte is the first zero byte (a false flag can only follow a
        // zero byte); little-endian, so that is the first in memory.
        let zero = word.wrapping_sub(ONES) & !word & HIGHS;
        if zero != 0 {
            return Some(at + (zero.trailing_zeros() / 8) as usize);
        }
        if at + 8 == s.len() {
            return None;
        }
        at = (at + 8).min(s.len() - 8);
    }
}
