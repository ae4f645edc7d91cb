//! File metadata on 32-bit Linux (i686, armv7) by `statx`. There the `stat` the libc crate
//! binds is the C library's with a 32-bit `time_t` (musl keeps those entry points for programs
//! built before its 64-bit time), so a time past 2038-01-19 03:14:07 UTC would read as 1901;
//! `statx` (Linux 4.11) gives every time in 64 bits, in one layout on every architecture.
//! Where the kernel has no `statx`, or a sandbox refuses it (`ENOSYS`, `EPERM`), `fstatat`
//! answers instead, right until 2038.

use std::ffi::CStr;
use std::io;
use std::mem::MaybeUninit;
use std::os::fd::RawFd;
use std::sync::atomic::{AtomicBool, Ordering};

use super::kind::{FullStat, Stat};

/// `statx` failed with `ENOSYS` or `EPERM` once: `fstatat` answers from then on.
static WITHOUT_STATX: AtomicBool = AtomicBool::new(false);

/// The metadata of `name` relative to `base`, with `fstatat`'s `flags`
/// (`AT_SYMLINK_NOFOLLOW`; `AT_EMPTY_PATH` with an empty name for `base` itself).
pub(super) fn stat_at(base: RawFd, name: &CStr, flags: libc::c_int) -> io::Result<FullStat> {
    if !WITHOUT_STATX.load(Ordering::Relaxed) {
        let mut stx = MaybeUninit::<libc::statx>::zeroed();
        // SAFETY: a NUL-terminated name and a buffer of the kernel's `struct statx`, which
        // it fills on success.
        let r = unsafe {
            libc::syscall(
                libc::SYS_statx,
                base,
                name.as_ptr(),
                flags | libc::AT_STATX_SYNC_AS_STAT,
                libc::STATX_BASIC_STATS,
                stx.as_mut_ptr(),
            )
        };
        if r == 0 {
            // SAFETY: zeroed, then filled by the kernel; every field is a plain integer.
            return Ok(of_statx(unsafe { &stx.assume_init() }));
        }
        let e = io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::ENOSYS | libc::EPERM) => WITHOUT_STATX.store(true, Ordering::Relaxed),
            _ => return Err(e),
        }
    }
    let mut st = MaybeUninit::<libc::stat>::uninit();
    // SAFETY: fstatat fills the struct on success, and we read it only then.
    unsafe {
        if libc::fstatat(base, name.as_ptr(), st.as_mut_ptr(), flags) < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(FullStat::from_raw(&st.assume_init()))
    }
}

/// What `statx` said, as ffind keeps it (the device number encoded as `st_dev` is).
#[allow(clippy::unnecessary_cast)]
fn of_statx(s: &libc::statx) -> FullStat {
    FullStat {
        stat: Stat {
            mode: u32::from(s.stx_mode),
            size: s.stx_size,
            mtime: s.stx_mtime.tv_sec,
            mtime_nsec: i64::from(s.stx_mtime.tv_nsec),
            uid: s.stx_uid,
            gid: s.stx_gid,
            dev: libc::makedev(s.stx_dev_major, s.stx_dev_minor) as u64,
            ino: s.stx_ino,
            nlink: s.stx_nlink,
        },
        ctime: s.stx_ctime.tv_sec,
        ctime_nsec: i64::from(s.stx_ctime.tv_nsec),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::MetadataExt;

    #[test]
    fn times_past_2038_read_as_they_are_and_the_rest_as_fstatat_reads_it() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("f");
        std::fs::write(&file, "12345").unwrap();
        let dir = std::fs::File::open(tmp.path()).unwrap();
        let old = stat_at(dir.as_raw_fd(), c"f", libc::AT_SYMLINK_NOFOLLOW).unwrap();
        let md = std::fs::symlink_metadata(&file).unwrap();
        assert_eq!(
            (old.stat.size, old.stat.ino, old.stat.dev, old.stat.mode),
            (md.size(), md.ino(), md.dev(), md.mode())
        );
        assert_eq!(
            (old.stat.mtime, old.stat.mtime_nsec),
            (md.mtime(), md.mtime_nsec())
        );
        // 2100-01-01T00:00:00Z, set by touch (std's own call takes a 32-bit time here).
        let touched = std::process::Command::new("touch")
            .args(["-m", "-d", "@4102444800"])
            .arg(&file)
            .status()
            .unwrap();
        assert!(touched.success());
        let st = stat_at(dir.as_raw_fd(), c"f", 0).unwrap();
        assert_eq!(st.stat.mtime, 4_102_444_800);
        let own = stat_at(dir.as_raw_fd(), c"", libc::AT_EMPTY_PATH).unwrap();
        assert_eq!(own.stat.ino, dir.metadata().unwrap().ino());
    }
}
