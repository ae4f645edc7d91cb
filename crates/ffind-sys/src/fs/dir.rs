//! The directory descriptor ([`Dir`]): raw `openat`/`openat2` (relative to a parent, beneath a
//! root without following links, or piece by piece past `PATH_MAX`), `fstatat`, `faccessat`,
//! the careful read of small files (ignore files, `.git` links, config files: never a FIFO or a
//! device, never past a limit), and `statfs` to tell a network or FUSE file system.

use std::ffi::CStr;
use std::io;
use std::os::fd::RawFd;

use super::dirent::is_dot_or_dotdot;
use super::kind::{FullStat, Kind, Stat};

/// An open directory descriptor, closed on drop.
#[derive(Debug)]
pub struct Dir {
    pub(super) fd: RawFd,
}

const OPEN_DIR: libc::c_int = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC | libc::O_NOCTTY;

/// Opening a small file to read (ignore files): `O_NONBLOCK`, so that a FIFO swapped in since
/// the look opens at once; `O_NOCTTY`, so that a terminal never becomes our controlling one.
const OPEN_SMALL_FILE: libc::c_int =
    libc::O_RDONLY | libc::O_NONBLOCK | libc::O_CLOEXEC | libc::O_NOCTTY;

/// The longest path handed to the kernel in one `openat`; longer paths are opened a piece
/// at a time, each relative to the last (`PATH_MAX`, with the NUL, is 4096 on Linux: 4000;
/// 1024 on macOS and the BSDs: 928).
#[allow(clippy::unnecessary_cast)]
const PATH_CHUNK: usize = libc::PATH_MAX as usize - 96;

fn cvt(ret: libc::c_int) -> io::Result<libc::c_int> {
    if ret < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(ret)
    }
}

impl Dir {
    /// Opens a directory by path, following a symlink at the end (search roots may be
    /// links). Paths longer than `PATH_MAX` are opened piece by piece.
    pub fn open_path(path: &[u8]) -> io::Result<Dir> {
        let path = if path.is_empty() { &b"."[..] } else { path };
        if path.len() <= PATH_CHUNK {
            return Self::open_raw(libc::AT_FDCWD, path, OPEN_DIR);
        }
        let mut cur: Option<Dir> = None;
        let mut rest = path;
        while !rest.is_empty() {
            let piece_len = if rest.len() <= PATH_CHUNK {
                rest.len()
            } else {
                // Cut at the last '/' within the chunk; a leading '/' (absolute path) goes with
                // the first piece.
                match rest[1..PATH_CHUNK].iter().rposition(|&b| b == b'/') {
                    Some(i) => i + 1,
                    None => return Err(io::Error::from_raw_os_error(libc::ENAMETOOLONG)),
                }
            };
            let (piece, tail) = rest.split_at(piece_len);
            let base = cur.as_ref().map_or(libc::AT_FDCWD, |d| d.fd);
            let next = Self::open_raw(base, piece, OPEN_DIR)?;
            cur = Some(next);
            rest = tail.strip_prefix(b"/").unwrap_or(tail);
        }
        cur.ok_or_else(|| io::Error::from_raw_os_error(libc::ENOENT))
    }

    fn open_raw(base: RawFd, path: &[u8], flags: libc::c_int) -> io::Result<Dir> {
        Self::open_cstr(base, &c_path(path)?, flags)
    }

    fn open_cstr(base: RawFd, name: &CStr, flags: libc::c_int) -> io::Result<Dir> {
        // SAFETY: `name` is a valid NUL-terminated string; `base` is AT_FDCWD or a
        // descriptor owned by a live `Dir`.
        opened(|| cvt(unsafe { libc::openat(base, name.as_ptr(), flags) }))
    }

    /// Opens the child directory `name`. Without `follow`, a symlink is refused (`ELOOP`)
    /// rather than followed: a directory that was swapped for a link mid-walk is not entered.
    pub fn open_child(&self, name: &CStr, follow: bool) -> io::Result<Dir> {
        let flags = if follow {
            OPEN_DIR
        } else {
            OPEN_DIR | libc::O_NOFOLLOW
        };
        Self::open_cstr(self.fd, name, flags)
    }

    /// Opens this directory's parent, `..` (whatever directory that is now: the caller checks
    /// it is the one it expects).
    pub fn open_parent(&self) -> io::Result<Dir> {
        Self::open_cstr(self.fd, c"..", OPEN_DIR)
    }

    /// Opens the directory at `rel` below this one without following any symlink on the way:
    /// one `openat` with `O_NOFOLLOW` per component, each relative to the last (`..` refused),
    /// which no link can lead out of (a directory renamed meanwhile is the caller's to catch,
    /// by its device and inode); on Linux, `openat2` with `RESOLVE_BENEATH |
    /// RESOLVE_NO_SYMLINKS` first, the same in one call (kernels since 5.6). An empty `rel`
    /// opens this directory again.
    pub fn open_beneath(&self, rel: &[u8]) -> io::Result<Dir> {
        if rel.is_empty() {
            return Self::open_raw(self.fd, b".", OPEN_DIR);
        }
        #[cfg(all(target_os = "linux", not(feature = "portable")))]
        match self.open_beneath_at_once(rel) {
            Ok(dir) => return Ok(dir),
            // Before Linux 5.6 (or refused by a seccomp filter, which some container
            // runtimes make EPERM), or longer than PATH_MAX: a component at a time.
            Err(e)
                if matches!(
                    e.raw_os_error(),
                    Some(libc::ENOSYS | libc::EPERM | libc::ENAMETOOLONG)
                ) => {}
            Err(e) => return Err(e),
        }
        let mut cur: Option<Dir> = None;
        for part in rel
            .split(|&b| b == b'/')
            .filter(|p| !p.is_empty() && *p != b".")
        {
            if part == b".." {
                return Err(io::Error::from_raw_os_error(libc::EXDEV));
            }
            let base = cur.as_ref().map_or(self.fd, |d| d.fd);
            cur = Some(Self::open_raw(base, part, OPEN_DIR | libc::O_NOFOLLOW)?);
        }
        match cur {
            Some(d) => Ok(d),
            None => Self::open_raw(self.fd, b".", OPEN_DIR),
        }
    }

    /// [`Dir::open_beneath`] in one `openat2` call.
    #[cfg(all(target_os = "linux", not(feature = "portable")))]
    fn open_beneath_at_once(&self, rel: &[u8]) -> io::Result<Dir> {
        let c = c_path(rel)?;
        // The kernel's `struct open_how` (libc's is non-exhaustive).
        #[repr(C)]
        struct OpenHow {
            flags: u64,
            mode: u64,
            resolve: u64,
        }
        let how = OpenHow {
            flags: (OPEN_DIR | libc::O_NOFOLLOW) as u64,
            mode: 0,
            resolve: libc::RESOLVE_BENEATH | libc::RESOLVE_NO_SYMLINKS,
        };
        let mut raced = 0;
        opened(|| loop {
            // SAFETY: a valid descriptor, a NUL-terminated path and an `open_how` of the size
            // given; the kernel only reads them.
            let ret = unsafe {
                libc::syscall(
                    libc::SYS_openat2,
                    self.fd,
                    c.as_ptr(),
                    &how as *const OpenHow,
                    std::mem::size_of::<OpenHow>(),
                )
            };
            if ret >= 0 {
                return Ok(ret as RawFd);
            }
            let e = io::Error::last_os_error();
            // A rename elsewhere raced the lookup: try again.
            if e.raw_os_error() == Some(libc::EAGAIN) && raced < 16 {
                raced += 1;
                continue;
            }
            return Err(e);
        })
    }

    /// A second descriptor of this directory, sharing its position (`F_DUPFD_CLOEXEC`): what
    /// the POSIX reader's stream reads, while this one stays open for the subdirectories.
    #[cfg(any(not(target_os = "linux"), feature = "portable"))]
    pub(super) fn duplicate(&self) -> io::Result<Dir> {
        // SAFETY: fcntl on a descriptor we hold open; no memory is passed.
        opened(|| cvt(unsafe { libc::fcntl(self.fd, libc::F_DUPFD_CLOEXEC, 0) }))
    }

    /// The descriptor, no longer closed on drop: the caller's now.
    #[cfg(any(not(target_os = "linux"), feature = "portable"))]
    pub(super) fn into_raw(self) -> RawFd {
        let fd = self.fd;
        std::mem::forget(self);
        fd
    }

    /// The descriptor as the 32 bits a `DirSlot` keeps.
    pub(super) fn slot_bits(&self) -> u32 {
        self.fd as u32
    }

    /// The directory a `DirSlot` kept as [`Dir::slot_bits`].
    pub(super) fn from_slot_bits(bits: u32) -> Dir {
        Dir { fd: bits as RawFd }
    }

    /// `fstat` of this directory.
    pub fn stat(&self) -> io::Result<Stat> {
        self.fstat().map(|st| st.stat)
    }

    /// `fstat` of this directory, with its ctime (the memo's stamp wants it too).
    pub fn raw_stat(&self) -> io::Result<FullStat> {
        self.fstat()
    }

    /// The type of the file system this directory is on, as [`fs_magic`] gives it, asked of
    /// the descriptor (`fstatfs`): the directory itself, whatever its path leads to by now or
    /// however long that path is. `None` when it cannot be asked.
    pub fn fs_magic(&self) -> Option<i64> {
        // SAFETY: fstatfs fills the struct on success (checked by `statfs_of`).
        #[cfg(not(target_os = "netbsd"))]
        let fs = statfs_of(|fs| unsafe { libc::fstatfs(self.fd, fs) }).ok()?;
        // SAFETY: fstatvfs fills the struct on success (checked by `statfs_of`).
        #[cfg(target_os = "netbsd")]
        let fs = statfs_of(|fs| unsafe { libc::fstatvfs(self.fd, fs) }).ok()?;
        magic_of_statfs(&fs)
    }

    #[cfg(not(all(target_os = "linux", target_pointer_width = "32")))]
    fn fstat(&self) -> io::Result<FullStat> {
        let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
        // SAFETY: fstat fills the struct on success, and we read it only then.
        unsafe {
            cvt(libc::fstat(self.fd, st.as_mut_ptr()))?;
            Ok(FullStat::from_raw(&st.assume_init()))
        }
    }

    /// `statx` of the descriptor itself: 64-bit times on 32-bit Linux (`statx.rs`).
    #[cfg(all(target_os = "linux", target_pointer_width = "32"))]
    fn fstat(&self) -> io::Result<FullStat> {
        super::statx::stat_at(self.fd, c"", libc::AT_EMPTY_PATH)
    }

    /// `fstatat` of the entry `name` in this directory; `follow` resolves a symlink.
    pub fn stat_at(&self, name: &CStr, follow: bool) -> io::Result<Stat> {
        stat_at(self.fd, name, follow)
    }

    /// `fstatat` of the entry (or relative path) `name`, with its ctime (the memo's stamp of an
    /// ignore file).
    pub fn raw_stat_at(&self, name: &CStr, follow: bool) -> io::Result<FullStat> {
        raw_stat_at(self.fd, name, follow)
    }

    /// Whether an entry `name` is in this directory (`fstatat`, not following links): for a
    /// directory too large to list before its entries are judged. Errors other than "no such
    /// entry" count as there, for the read that follows to report.
    pub fn exists_at(&self, name: &str) -> bool {
        let Ok(c) = std::ffi::CString::new(name) else {
            return false;
        };
        match stat_at(self.fd, &c, false) {
            Ok(_) => true,
            Err(e) => !matches!(e.raw_os_error(), Some(libc::ENOENT | libc::ENOTDIR)),
        }
    }

    /// Whether the entry `name` is executable by us (`faccessat(X_OK)`, as fd checks it).
    pub fn executable_at(&self, name: &CStr) -> bool {
        // SAFETY: a valid descriptor and NUL-terminated name; faccessat only reads them.
        unsafe { libc::faccessat(self.fd, name.as_ptr(), libc::X_OK, libc::AT_EACCESS) == 0 }
    }

    /// Reads a small file at `rel`, relative to this directory (ignore files): see
    /// [`read_small_file`].
    pub fn read_file_at(&self, rel: &[u8], limit: u64) -> io::Result<Vec<u8>> {
        read_small_file_at(self.fd, rel, limit, false)
    }

    /// Reads a small file `name` of this directory that its listing says is a regular file
    /// (`d_type`): no look before the open, which refuses a link (`O_NOFOLLOW`) and is checked
    /// after (`fstat`). A link or anything else found there since the listing is read the
    /// careful way ([`Dir::read_file_at`]).
    pub fn read_listed_file_at(&self, name: &[u8], limit: u64) -> io::Result<Vec<u8>> {
        match Self::open_raw(self.fd, name, OPEN_SMALL_FILE | libc::O_NOFOLLOW) {
            Ok(opened) => read_opened(opened, limit, false),
            Err(e) if e.raw_os_error() == Some(libc::ELOOP) => self.read_file_at(name, limit),
            Err(e) => Err(e),
        }
    }

    /// Whether the directory `name` below this one has no entries (`-t e`).
    pub fn is_empty_dir_at(&self, name: &CStr, follow: bool) -> io::Result<bool> {
        is_empty(self.open_child(name, follow)?)
    }
}

/// Whether the directory `child` has no entries: one `getdents64` into a small buffer,
/// usually.
#[cfg(all(target_os = "linux", not(feature = "portable")))]
fn is_empty(child: Dir) -> io::Result<bool> {
    use super::dirent::{bytemuck_u8, getdents, DirentIter};
    let mut buf = [0u64; 128];
    loop {
        let n = getdents(child.fd, bytemuck_u8(&mut buf))?;
        if n == 0 {
            return Ok(true);
        }
        let bytes = &bytemuck_u8(&mut buf)[..n];
        if (DirentIter {
            buf: bytes,
            dot_only: false,
        })
        .any(|e| !is_dot_or_dotdot(e.name.to_bytes()))
        {
            return Ok(false);
        }
    }
}

/// Whether the directory `child` has no entries: `readdir` until a name other than `.` and
/// `..`.
#[cfg(any(not(target_os = "linux"), feature = "portable"))]
fn is_empty(child: Dir) -> io::Result<bool> {
    let mut stream = super::stream::Stream::new(child.into_raw())?;
    while let Some((name, _, _)) = stream.next_entry()? {
        if !is_dot_or_dotdot(name.to_bytes()) {
            return Ok(false);
        }
    }
    Ok(true)
}

impl Drop for Dir {
    fn drop(&mut self) {
        // SAFETY: we own fd and close it exactly once.
        unsafe {
            libc::close(self.fd);
        }
    }
}

/// `fstatat` relative to a directory descriptor (or AT_FDCWD).
fn stat_at(base: RawFd, name: &CStr, follow: bool) -> io::Result<Stat> {
    raw_stat_at(base, name, follow).map(|st| st.stat)
}

/// `fstatat` relative to `base`, all of it.
#[cfg(not(all(target_os = "linux", target_pointer_width = "32")))]
fn raw_stat_at(base: RawFd, name: &CStr, follow: bool) -> io::Result<FullStat> {
    let flags = if follow { 0 } else { libc::AT_SYMLINK_NOFOLLOW };
    let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
    // SAFETY: fstatat fills the struct on success, and we read it only then.
    unsafe {
        cvt(libc::fstatat(base, name.as_ptr(), st.as_mut_ptr(), flags))?;
        Ok(FullStat::from_raw(&st.assume_init()))
    }
}

/// `statx` relative to `base`, all of it: 64-bit times on 32-bit Linux (`statx.rs`).
#[cfg(all(target_os = "linux", target_pointer_width = "32"))]
fn raw_stat_at(base: RawFd, name: &CStr, follow: bool) -> io::Result<FullStat> {
    let flags = if follow { 0 } else { libc::AT_SYMLINK_NOFOLLOW };
    super::statx::stat_at(base, name, flags)
}

/// Reads a small file (an ignore file, a `.git` link) by path, relative to the working
/// directory.
///
/// It is read only if it is a regular file (or, with `accept_pipe`, a pipe: `--ignore-file
/// <(...)`), at most `limit` bytes, and reading it can never block or grow without bound: a FIFO,
/// a device or a link to `/dev/zero` planted under an ignore file's name is refused
/// with an error of kind `InvalidInput` ("not a regular file"), one larger than `limit` with
/// kind `FileTooLarge`. A directory gives `EISDIR`, so callers can treat it like an absent file.
pub fn read_small_file(path: &[u8], limit: u64, accept_pipe: bool) -> io::Result<Vec<u8>> {
    read_small_file_at(libc::AT_FDCWD, path, limit, accept_pipe)
}

/// The error a refused file gives (see [`read_small_file`]).
pub fn not_regular() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, "not a regular file")
}

fn check_small_file_kind(kind: Kind, accept_pipe: bool) -> io::Result<()> {
    match kind {
        Kind::File => Ok(()),
        Kind::Fifo if accept_pipe => Ok(()),
        Kind::Dir => Err(io::Error::from_raw_os_error(libc::EISDIR)),
        _ => Err(not_regular()),
    }
}

fn read_small_file_at(
    base: RawFd,
    rel: &[u8],
    limit: u64,
    accept_pipe: bool,
) -> io::Result<Vec<u8>> {
    let c = c_path(rel)?;
    let c = c.as_c_str();
    // Look before opening: opening a device can act by itself (a tape rewinds, a watchdog
    // arms), and opening a FIFO without O_NONBLOCK waits for a writer.
    check_small_file_kind(stat_at(base, c, true)?.kind(), accept_pipe)?;
    read_opened(
        Dir::open_cstr(base, c, OPEN_SMALL_FILE)?,
        limit,
        accept_pipe,
    )
}

/// Reads what `opened` holds if it is a regular file (or a pipe, when `accept_pipe`), up to
/// `limit` bytes.
fn read_opened(opened: Dir, limit: u64, accept_pipe: bool) -> io::Result<Vec<u8>> {
    use std::io::Read;
    use std::os::fd::{AsRawFd, FromRawFd};
    let fd = opened.fd;
    std::mem::forget(opened);
    // SAFETY: `fd` was just opened and is owned by nothing else (the `Dir` was forgotten);
    // the File takes over closing it.
    let file = unsafe { std::fs::File::from_raw_fd(fd) };
    // What was opened is what counts (the look above may be stale).
    let meta = file.metadata()?;
    let kind = Kind::from_file_type(meta.file_type());
    check_small_file_kind(kind, accept_pipe)?;
    if kind == Kind::Fifo {
        // A pipe the user named: wait for its writer's data. With no writer at all, a read
        // still sees the end of the file at once.
        // SAFETY: fcntl on a descriptor we own, with flags it returned.
        unsafe {
            let flags = cvt(libc::fcntl(file.as_raw_fd(), libc::F_GETFL))?;
            cvt(libc::fcntl(
                file.as_raw_fd(),
                libc::F_SETFL,
                flags & !libc::O_NONBLOCK,
            ))?;
        }
    }
    let mut bytes = Vec::new();
    let want = if kind == Kind::File && meta.len() > 0 && meta.len() <= limit {
        // The size fstat gave, in one read: `take` ends there without asking the kernel
        // again. (A file that grows meanwhile is read as it was; one that shrank ends early.
        // Files that say 0, as in /proc, are read to their end.)
        bytes.reserve_exact(usize::try_from(meta.len()).unwrap_or(0));
        meta.len()
    } else {
        // One byte past the limit tells a file of exactly `limit` bytes from a larger one.
        limit.saturating_add(1)
    };
    (&file).take(want).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!("larger than {} MiB", limit >> 20),
        ));
    }
    Ok(bytes)
}

/// A path as the system calls take it: NUL-terminated, `EINVAL` when it holds a NUL.
fn c_path(path: &[u8]) -> io::Result<std::ffi::CString> {
    std::ffi::CString::new(path).map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))
}

/// Runs an `open` until it gives a descriptor or a lasting error: again at once when a signal
/// interrupted it; out of descriptors (a low `ulimit -n` with many workers, where the others
/// hold one each only while reading, so one is free again shortly), again after a pause, for
/// up to a few seconds, rather than lose the directory.
fn opened(mut open: impl FnMut() -> io::Result<RawFd>) -> io::Result<Dir> {
    let mut waited_ms = 0;
    loop {
        match open() {
            Ok(fd) => return Ok(Dir { fd }),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e)
                if matches!(e.raw_os_error(), Some(libc::EMFILE | libc::ENFILE))
                    && waited_ms < 5000 =>
            {
                let pause = if waited_ms < 20 { 1 } else { 10 };
                std::thread::sleep(std::time::Duration::from_millis(pause));
                waited_ms += pause;
            }
            Err(e) => return Err(e),
        }
    }
}

/// `stat`/`lstat` by path: for search roots, and wherever a walk has a path and no descriptor
/// (the walker-crate methods, the loop check under `-L`, the memo, the `--mpi` rebuild).
pub fn stat_path(path: &[u8], follow: bool) -> io::Result<Stat> {
    raw_stat_path(path, follow).map(|st| st.stat)
}

/// `stat`/`lstat` by path, all of it (the memo's stamp of a directory no descriptor leads to).
pub fn raw_stat_path(path: &[u8], follow: bool) -> io::Result<FullStat> {
    let path = if path.is_empty() { &b"."[..] } else { path };
    raw_stat_at(libc::AT_FDCWD, &c_path(path)?, follow)
}

/// The metadata of `path` itself, not following a link (`lstat`), by the same call as every
/// other (`statx` on 32-bit Linux, where std's would read a time past 2038 as 1901).
pub fn own_stat(path: &[u8]) -> Option<Stat> {
    stat_path(path, false).ok()
}

/// File systems where every operation is a round trip (network, FUSE): reads in flight, not
/// cores, bound the speed there, so the default concurrency is raised on them.
const SLOW_FS_MAGICS: [i64; 9] = [
    0x6573_5546, // FUSE (sshfs, bindfs, rclone, s3fs, ...)
    0x6969,      // NFS
    0x517B,      // SMB
    0xFE53_4D42, // SMB2
    0xFF53_4D42, // CIFS
    0x00C3_6400, // Ceph
    0x0102_1997, // 9P (virtiofs-like shares, WSL)
    0x5346_414F, // AFS
    0x0BD0_0BD0, // Lustre
];

/// Whether `path` lives on a network or FUSE file system (by `statfs` magic).
pub fn is_slow_filesystem(path: &[u8]) -> bool {
    fs_magic(path).is_some_and(|magic| SLOW_FS_MAGICS.contains(&magic))
}

/// The type of the file system `path` lives on, as Linux's `statfs` magic number (`f_type`;
/// elsewhere the number Linux gives the file system `statfs` names in `f_fstypename`: "apfs",
/// "ufs", "zfs", ...); `None` when it cannot be asked, or for a type Linux has no number for.
pub fn fs_magic(path: &[u8]) -> Option<i64> {
    statfs_magic(path).ok().flatten()
}

/// [`fs_magic`], or why `statfs` failed.
fn statfs_magic(path: &[u8]) -> io::Result<Option<i64>> {
    let path = if path.is_empty() { &b"."[..] } else { path };
    let c = c_path(path)?;
    #[cfg(not(target_os = "netbsd"))]
    // SAFETY: statfs fills the struct on success (checked by `statfs_of`).
    let fs = statfs_of(|fs| unsafe { libc::statfs(c.as_ptr(), fs) })?;
    #[cfg(target_os = "netbsd")]
    // SAFETY: statvfs fills the struct on success (checked by `statfs_of`).
    let fs = statfs_of(|fs| unsafe { libc::statvfs(c.as_ptr(), fs) })?;
    Ok(magic_of_statfs(&fs))
}

/// The `statfs` that `call` fills (`statfs` by path, `fstatfs` by descriptor), or why it
/// failed.
#[cfg(not(target_os = "netbsd"))]
fn statfs_of(call: impl FnOnce(*mut libc::statfs) -> libc::c_int) -> io::Result<libc::statfs> {
    let mut fs = std::mem::MaybeUninit::<libc::statfs>::uninit();
    if call(fs.as_mut_ptr()) != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the call succeeded, so it filled the struct.
    Ok(unsafe { fs.assume_init() })
}

/// NetBSD's `statfs` is `statvfs`, with the same name field.
#[cfg(target_os = "netbsd")]
fn statfs_of(call: impl FnOnce(*mut libc::statvfs) -> libc::c_int) -> io::Result<libc::statvfs> {
    let mut fs = std::mem::MaybeUninit::<libc::statvfs>::uninit();
    if call(fs.as_mut_ptr()) != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the call succeeded, so it filled the struct.
    Ok(unsafe { fs.assume_init() })
}

/// The magic number Linux's `statfs` gives.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn magic_of_statfs(fs: &libc::statfs) -> Option<i64> {
    // f_type is i64 on x86_64 but narrower elsewhere.
    #[allow(clippy::unnecessary_cast)]
    Some(fs.f_type as i64)
}

/// The `statfs` magic number of procfs (`PROC_SUPER_MAGIC`, linux/magic.h).
const PROC_SUPER_MAGIC: i64 = 0x9fa0;

/// Whether opening or reading the directory at `path` failed because it is gone: removed
/// since its parent was listed (ENOENT), or, under `/proc`, its process went away. There a
/// process that exits leaves errors other than ENOENT while it is being reaped: ESRCH
/// (`/proc/PID/fd: No such process`), and EINVAL from reading `/proc/PID/net` once the
/// process has no network namespace left (`proc_tgid_net_readdir`, fs/proc/proc_net.c).
/// Those two count only when a `statfs` of the parent directory finds procfs, or finds it
/// gone (the path itself cannot be asked: `statfs` of a dying process's `net` says EINVAL
/// too): on any other file system they are errors to report.
pub fn is_gone(path: &[u8], err: &io::Error) -> bool {
    match err.raw_os_error() {
        Some(libc::ENOENT) => true,
        Some(libc::ESRCH | libc::EINVAL) => match statfs_magic(parent(path)) {
            Ok(magic) => magic == Some(PROC_SUPER_MAGIC),
            Err(e) => matches!(e.raw_os_error(), Some(libc::ENOENT | libc::ESRCH)),
        },
        _ => false,
    }
}

/// The directory `path` is in (`.` for a bare name; `/` for `/x`).
fn parent(path: &[u8]) -> &[u8] {
    let path = path.strip_suffix(b"/").unwrap_or(path);
    match path.iter().rposition(|&b| b == b'/') {
        Some(0) => b"/",
        Some(slash) => &path[..slash],
        None => b".",
    }
}

/// Linux's magic number of the file system a `statfs` here names (`f_fstypename`).
#[cfg(not(any(target_os = "linux", target_os = "android", target_os = "netbsd")))]
fn magic_of_statfs(fs: &libc::statfs) -> Option<i64> {
    // SAFETY: `f_fstypename` is a NUL-terminated name within its array.
    let name = unsafe { std::ffi::CStr::from_ptr(fs.f_fstypename.as_ptr()) };
    magic_of_name(name.to_bytes())
}

/// Linux's magic number of the file system a `statvfs` here names (`f_fstypename`).
#[cfg(target_os = "netbsd")]
fn magic_of_statfs(fs: &libc::statvfs) -> Option<i64> {
    // SAFETY: `f_fstypename` is a NUL-terminated name within its array.
    let name = unsafe { std::ffi::CStr::from_ptr(fs.f_fstypename.as_ptr()) };
    magic_of_name(name.to_bytes())
}

/// Linux's magic number of the file system that macOS or a BSD names `name` in `statfs`.
#[cfg_attr(any(target_os = "linux", target_os = "android"), allow(dead_code))]
fn magic_of_name(name: &[u8]) -> Option<i64> {
    Some(match name {
        b"apfs" => 0x4253_584E, // the Linux APFS driver's ("NXSB")
        b"hfs" => 0x482B,
        b"ufs" | b"ffs" => 0x0001_1954,
        b"zfs" => 0x2FC1_2FC1,
        b"tmpfs" | b"mfs" => 0x0102_1994,
        b"ext2fs" => 0xEF53,
        b"nfs" => 0x6969,
        b"smbfs" => 0x517B,
        b"msdos" | b"msdosfs" => 0x4D44,
        b"exfat" => 0x2011_BAB0,
        b"ntfs" => 0x5346_544E,
        b"fusefs" | b"fuse" | b"macfuse" | b"osxfuse" | b"puffs" => 0x6573_5546,
        b"p9fs" => 0x0102_1997,
        b"procfs" | b"linprocfs" => 0x9FA0,
        b"cd9660" => 0x9660,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt;

    #[test]
    fn the_parent_of_a_path() {
        assert_eq!(parent(b"/proc/1/net"), b"/proc/1");
        assert_eq!(parent(b"/proc/1/net/"), b"/proc/1");
        assert_eq!(parent(b"/proc"), b"/");
        assert_eq!(parent(b"net"), b".");
        assert_eq!(parent(b"./net"), b".");
    }

    #[test]
    fn other_systems_file_system_names_are_linux_s_numbers() {
        assert_eq!(magic_of_name(b"zfs"), Some(0x2FC1_2FC1));
        assert_eq!(magic_of_name(b"nfs"), Some(0x6969));
        assert_eq!(magic_of_name(b"apfs"), Some(0x4253_584E));
        assert_eq!(magic_of_name(b"devfs"), None);
    }

    #[test]
    fn opens_paths_longer_than_path_max() {
        let tmp = tempfile::tempdir().unwrap();
        let mut dir = Dir::open_path(tmp.path().as_os_str().as_bytes()).unwrap();
        let mut path = tmp.path().as_os_str().as_bytes().to_vec();
        let name = [b'd'; 200];
        let owned = std::ffi::CString::new(name.to_vec()).unwrap();
        let cname = owned.as_c_str();
        for _ in 0..30 {
            // SAFETY: test-only mkdirat with a valid descriptor and name.
            assert_eq!(unsafe { libc::mkdirat(dir.fd, cname.as_ptr(), 0o755) }, 0);
            dir = dir.open_child(cname, false).unwrap();
            path.push(b'/');
            path.extend_from_slice(&name);
        }
        assert!(path.len() > 6000);
        let deep = Dir::open_path(&path).unwrap();
        assert_eq!(deep.stat().unwrap().ino, dir.stat().unwrap().ino);
    }

    #[test]
    fn open_beneath_follows_no_link_on_the_way() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("a/b")).unwrap();
        std::os::unix::fs::symlink("a", tmp.path().join("link")).unwrap();
        let root = Dir::open_path(tmp.path().as_os_str().as_bytes()).unwrap();
        let b = root.open_beneath(b"a/b").unwrap();
        let direct = Dir::open_path(tmp.path().join("a/b").as_os_str().as_bytes()).unwrap();
        assert_eq!(b.stat().unwrap().ino, direct.stat().unwrap().ino);
        for through_link in [&b"link"[..], b"link/b"] {
            // ELOOP, or ENOTDIR for a link at the end (O_DIRECTORY | O_NOFOLLOW).
            let err = root.open_beneath(through_link).unwrap_err();
            assert!(
                matches!(err.raw_os_error(), Some(libc::ELOOP | libc::ENOTDIR)),
                "{through_link:?}: {err}"
            );
        }
        assert!(root.open_beneath(b"../x").is_err(), "never above the root");
    }

    #[test]
    fn small_files_are_read_only_when_regular_and_within_the_limit() {
        let tmp = tempfile::tempdir().unwrap();
        let p = |name: &str| tmp.path().join(name).as_os_str().as_bytes().to_vec();
        std::fs::write(tmp.path().join("rules"), "*.o\n").unwrap();
        assert_eq!(read_small_file(&p("rules"), 4, false).unwrap(), b"*.o\n");
        let big = read_small_file(&p("rules"), 3, false).unwrap_err();
        assert_eq!(big.kind(), io::ErrorKind::FileTooLarge);
        std::os::unix::fs::symlink("/dev/zero", tmp.path().join("zero")).unwrap();
        let zero = read_small_file(&p("zero"), 1 << 20, false).unwrap_err();
        assert_eq!(zero.kind(), io::ErrorKind::InvalidInput);
        assert_eq!(zero.to_string(), "not a regular file");
        let fifo = std::ffi::CString::new(p("fifo")).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        let refused = read_small_file(&p("fifo"), 1 << 20, false).unwrap_err();
        assert_eq!(refused.kind(), io::ErrorKind::InvalidInput);
        // Accepted as a pipe, a FIFO without a writer reads as empty at once.
        assert_eq!(read_small_file(&p("fifo"), 1 << 20, true).unwrap(), b"");
        let dir = read_small_file(tmp.path().as_os_str().as_bytes(), 1 << 20, false);
        assert_eq!(dir.unwrap_err().raw_os_error(), Some(libc::EISDIR));
        let at = Dir::open_path(tmp.path().as_os_str().as_bytes()).unwrap();
        assert_eq!(at.read_file_at(b"rules", 16).unwrap(), b"*.o\n");
        assert_eq!(
            at.read_file_at(b"missing", 16).unwrap_err().raw_os_error(),
            Some(libc::ENOENT)
        );
    }
}
