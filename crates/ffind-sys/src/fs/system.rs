//! What ffind asks of the system about itself rather than a file: the calling thread's block
//! reads (how `auto` tells a walk that waits on the disk), its address-space limit (how many
//! threads fit), the process's groups (whose memo it may read), and the major and minor numbers of a device id (`-l`). Each as its system
//! offers it, so that the floors above name none.

/// The calling thread's block input operations so far (`getrusage`'s `ru_inblock`): the
/// thread's own on Linux, FreeBSD and OpenBSD (`RUSAGE_THREAD`); the whole process's on macOS
/// and NetBSD, which count no thread's alone (a slow read while any thread waited on the disk
/// then counts as blocked).
#[cfg(unix)]
pub fn blocks_read() -> i64 {
    #[cfg(any(
        target_os = "linux",
        target_os = "android",
        target_os = "freebsd",
        target_os = "openbsd"
    ))]
    let who = libc::RUSAGE_THREAD;
    #[cfg(not(any(
        target_os = "linux",
        target_os = "android",
        target_os = "freebsd",
        target_os = "openbsd"
    )))]
    let who = libc::RUSAGE_SELF;
    let mut ru = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage writes a `struct rusage` into the pointer it is given.
    let ok = unsafe { libc::getrusage(who, ru.as_mut_ptr()) } == 0;
    if ok {
        // SAFETY: initialized (zeroed, then written by the kernel).
        #[allow(clippy::unnecessary_cast)]
        let blocks = unsafe { ru.assume_init() }.ru_inblock as i64;
        blocks
    } else {
        0
    }
}

/// The soft limit of the process's address space (`ulimit -v`, `RLIMIT_AS`) in bytes; `None`
/// when there is none (or it cannot be read).
#[cfg(unix)]
pub fn address_space_limit() -> Option<u64> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes into the struct we own.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut lim) } != 0
        || lim.rlim_cur == libc::RLIM_INFINITY
    {
        return None;
    }
    // rlim_t is u64 on Linux and macOS, i64 on FreeBSD (where no limit is negative).
    #[allow(clippy::unnecessary_cast)]
    let cur = lim.rlim_cur as u64;
    Some(cur)
}

/// The process's supplementary groups (`getgroups`), empty when they cannot be read (who
/// reads, for the memo, where `/proc` does not say it: [`super::reader_identity`]).
#[cfg(unix)]
#[cfg_attr(target_os = "linux", allow(dead_code))]
pub fn groups() -> Vec<u32> {
    // SAFETY: with a size of 0, getgroups only counts the groups and writes nothing.
    let n = unsafe { libc::getgroups(0, std::ptr::null_mut()) };
    let Ok(len) = usize::try_from(n) else {
        return Vec::new();
    };
    let mut groups: Vec<libc::gid_t> = vec![0; len];
    // SAFETY: getgroups writes at most `n` ids into the `len` (= n) slots given.
    let got = unsafe { libc::getgroups(n, groups.as_mut_ptr()) };
    // A group added in between: the list is read as it was (short), never past its end.
    groups.truncate(usize::try_from(got).unwrap_or(0));
    groups
}

/// The major and minor numbers of a device id (`st_rdev`), as this system packs them.
#[allow(clippy::unnecessary_cast)]
#[cfg(unix)]
pub fn device_numbers(rdev: u64) -> (u64, u64) {
    let dev = rdev as libc::dev_t;
    (libc::major(dev) as u64, libc::minor(dev) as u64)
}

/// Makes the allocator keep to one arena (glibc reserves 64 MiB of address space for each
/// arena it adds for a new thread, which an address-space limit cannot afford); nothing where
/// the allocator is another.
pub fn one_allocator_arena() {
    #[cfg(all(unix, target_env = "gnu"))]
    // SAFETY: mallopt sets an allocator parameter, under the allocator's own lock.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

/// The calling thread's block reads: Windows counts none a thread can ask for cheaply, so
/// `auto` never sees a walk wait on the disk there and keeps to the cores.
#[cfg(windows)]
pub fn blocks_read() -> i64 {
    0
}

/// The process's address-space limit: Windows sets none a process can read (a job's memory
/// limit is not one of address space).
#[cfg(windows)]
pub fn address_space_limit() -> Option<u64> {
    None
}

/// A device id's major and minor numbers: Windows has no device files.
#[cfg(windows)]
pub fn device_numbers(_rdev: u64) -> (u64, u64) {
    (0, 0)
}

// Device numbers as each system packs them, and Unix's groups.
/// Whether a tracer (`ptrace`) is attached to this process, as the kernel's process table
/// says: macOS's `proc_pidinfo` flags (`PROC_FLAG_TRACED`).
#[cfg(target_os = "macos")]
pub fn traced() -> std::io::Result<bool> {
    /// `PROC_FLAG_TRACED` of `<sys/proc_info.h>`.
    const PROC_FLAG_TRACED: u32 = 2;
    let mut info = std::mem::MaybeUninit::<libc::proc_bsdinfo>::zeroed();
    let size = std::mem::size_of::<libc::proc_bsdinfo>() as libc::c_int;
    // SAFETY: proc_pidinfo writes at most `size` bytes into `info`, which has that size.
    let got = unsafe {
        libc::proc_pidinfo(
            libc::getpid(),
            libc::PROC_PIDTBSDINFO,
            0,
            info.as_mut_ptr().cast(),
            size,
        )
    };
    if got != size {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: proc_pidinfo filled the whole structure (it returned its size).
    let info = unsafe { info.assume_init() };
    Ok(info.pbi_flags & PROC_FLAG_TRACED != 0)
}

/// Whether a tracer (`ptrace`) is attached to this process, as the kernel's process table
/// says: FreeBSD's `kinfo_proc` flags (`P_TRACED`).
#[cfg(target_os = "freebsd")]
pub fn traced() -> std::io::Result<bool> {
    let mut mib = [
        libc::CTL_KERN,
        libc::KERN_PROC,
        libc::KERN_PROC_PID,
        // SAFETY: getpid cannot fail.
        unsafe { libc::getpid() },
    ];
    let mut info = std::mem::MaybeUninit::<libc::kinfo_proc>::zeroed();
    let mut len = std::mem::size_of::<libc::kinfo_proc>();
    // SAFETY: sysctl writes at most `len` bytes into `info`, which has that size, and sets
    // `len` to what it wrote.
    let rc = unsafe {
        libc::sysctl(
            mib.as_mut_ptr(),
            mib.len() as libc::c_uint,
            info.as_mut_ptr().cast(),
            &mut len,
            std::ptr::null(),
            0,
        )
    };
    if rc != 0 || len != std::mem::size_of::<libc::kinfo_proc>() {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: sysctl filled the whole structure (it said so in `len`).
    let info = unsafe { info.assume_init() };
    Ok(info.ki_flag & libc::c_long::from(libc::P_TRACED) != 0)
}

/// Whether a tracer is attached to this process, on a system whose process table ffind does
/// not read (the other BSDs, built by nobody here): not known, so it is taken as traced, and
/// the memo is not used.
#[cfg(all(
    unix,
    not(any(target_os = "linux", target_os = "macos", target_os = "freebsd"))
))]
pub fn traced() -> std::io::Result<bool> {
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(windows)]
    fn no_device_numbers_on_windows() {
        assert_eq!(device_numbers(0x103), (0, 0));
    }

    #[test]
    #[cfg(any(target_os = "linux", target_os = "macos"))]
    fn device_numbers_split_as_the_system_packs_them() {
        let null = std::fs::metadata("/dev/null").unwrap();
        let rdev = std::os::unix::fs::MetadataExt::rdev(&null);
        let want = if cfg!(target_os = "linux") {
            (1, 3)
        } else {
            (3, 2)
        };
        assert_eq!(device_numbers(rdev), want);
        if cfg!(target_os = "linux") {
            assert_eq!(device_numbers(0x801), (8, 1));
        }
    }

    #[test]
    #[cfg(unix)]
    fn groups_are_the_process_s() {
        let ours = groups();
        #[cfg(not(target_vendor = "apple"))]
        {
            let nix: Vec<u32> = nix::unistd::getgroups()
                .unwrap()
                .iter()
                .map(|g| g.as_raw())
                .collect();
            assert_eq!(ours, nix);
        }
        assert!(ours.len() < 1 << 16);
    }
}
