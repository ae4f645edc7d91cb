//! The fast directory reader: raw `openat`, `getdents64` and `fstatat`, nothing else.
//!
//! Every `unsafe` block of ffind's traversal lives in this file. What the methods built on it
//! (`serial`, `queue`, `rayon`) get is safe: an owned descriptor ([`Dir`]), a reusable listing
//! buffer ([`Listing`]) whose names are borrowed `&CStr`s (no allocation per entry), and
//! [`Stat`] when a filter or a `DT_UNKNOWN` entry needs one.

use std::ffi::CStr;
use std::io;
use std::os::fd::RawFd;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// The kind of a directory entry, from `d_type` or from `st_mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    File,
    Dir,
    Symlink,
    Fifo,
    Socket,
    BlockDevice,
    CharDevice,
    /// The file system did not say (`DT_UNKNOWN`): a `stat` is needed.
    Unknown,
}

impl Kind {
    /// The kind `getdents64` reported.
    pub fn from_dtype(d_type: u8) -> Kind {
        match d_type {
            libc::DT_REG => Kind::File,
            libc::DT_DIR => Kind::Dir,
            libc::DT_LNK => Kind::Symlink,
            libc::DT_FIFO => Kind::Fifo,
            libc::DT_SOCK => Kind::Socket,
            libc::DT_BLK => Kind::BlockDevice,
            libc::DT_CHR => Kind::CharDevice,
            _ => Kind::Unknown,
        }
    }

    /// The kind an `st_mode` describes.
    pub fn from_mode(mode: u32) -> Kind {
        match mode & libc::S_IFMT {
            libc::S_IFREG => Kind::File,
            libc::S_IFDIR => Kind::Dir,
            libc::S_IFLNK => Kind::Symlink,
            libc::S_IFIFO => Kind::Fifo,
            libc::S_IFSOCK => Kind::Socket,
            libc::S_IFBLK => Kind::BlockDevice,
            libc::S_IFCHR => Kind::CharDevice,
            _ => Kind::Unknown,
        }
    }

    /// The kind of a `std::fs::FileType`, for the methods built on walker crates.
    pub fn from_file_type(ft: std::fs::FileType) -> Kind {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_file() {
            Kind::File
        } else if ft.is_dir() {
            Kind::Dir
        } else if ft.is_symlink() {
            Kind::Symlink
        } else if ft.is_fifo() {
            Kind::Fifo
        } else if ft.is_socket() {
            Kind::Socket
        } else if ft.is_block_device() {
            Kind::BlockDevice
        } else if ft.is_char_device() {
            Kind::CharDevice
        } else {
            Kind::Unknown
        }
    }
}

/// The fields of `struct stat` that filters and output styles use.
#[derive(Debug, Clone, Copy)]
pub struct Stat {
    pub mode: u32,
    pub size: u64,
    pub mtime: i64,
    pub mtime_nsec: i64,
    pub uid: u32,
    pub gid: u32,
    pub dev: u64,
    pub ino: u64,
    /// Hard links (for `-l`; u32 fills the padding after the u32 fields, so `Stat` stays the
    /// size the walk moves around).
    pub nlink: u32,
}

impl Stat {
    fn from_raw(st: &libc::stat) -> Stat {
        Stat {
            mode: st.st_mode,
            size: st.st_size as u64,
            mtime: st.st_mtime,
            mtime_nsec: st.st_mtime_nsec,
            uid: st.st_uid,
            gid: st.st_gid,
            dev: st.st_dev,
            ino: st.st_ino,
            nlink: u32::try_from(st.st_nlink).unwrap_or(u32::MAX),
        }
    }

    /// The kind of file this is.
    pub fn kind(&self) -> Kind {
        Kind::from_mode(self.mode)
    }

    /// The metadata std reports, converted (for the walker-crate methods).
    pub fn from_metadata(md: &std::fs::Metadata) -> Stat {
        use std::os::unix::fs::MetadataExt;
        Stat {
            mode: md.mode(),
            size: md.size(),
            mtime: md.mtime(),
            mtime_nsec: md.mtime_nsec(),
            uid: md.uid(),
            gid: md.gid(),
            dev: md.dev(),
            ino: md.ino(),
            nlink: u32::try_from(md.nlink()).unwrap_or(u32::MAX),
        }
    }
}

/// Descriptors that walks may keep open so that children open relative to their parent, not
/// taken yet. Set once by [`set_fd_budget`]; the descriptor cache (`walk/cache.rs`) takes from
/// it and gives back.
static FD_BUDGET: AtomicUsize = AtomicUsize::new(0);

/// The whole budget, as [`set_fd_budget`] set it.
static FD_BUDGET_SET: AtomicUsize = AtomicUsize::new(0);

/// Raises the soft open-file limit to the hard one and returns it.
pub fn raise_fd_limit() -> usize {
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
            if want > lim.rlim_cur {
                let new = libc::rlimit {
                    rlim_cur: want,
                    rlim_max: lim.rlim_max,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &new) == 0 {
                    lim.rlim_cur = want;
                }
            }
            lim.rlim_cur
        }
    };
    usize::try_from(soft).unwrap_or(usize::MAX)
}

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

/// An open directory descriptor, closed on drop.
#[derive(Debug)]
pub struct Dir {
    fd: RawFd,
}

const OPEN_DIR: libc::c_int = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC | libc::O_NOCTTY;

/// Opening a small file to read (ignore files): `O_NONBLOCK`, so that a FIFO swapped in since
/// the look opens at once; `O_NOCTTY`, so that a terminal never becomes our controlling one.
const OPEN_SMALL_FILE: libc::c_int =
    libc::O_RDONLY | libc::O_NONBLOCK | libc::O_CLOEXEC | libc::O_NOCTTY;

/// The longest path handed to the kernel in one `openat`; longer paths are opened a piece
/// at a time, each relative to the last (PATH_MAX is 4096 with the NUL).
const PATH_CHUNK: usize = 4000;

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

    /// Opens the directory at `rel` below this one without following any symlink on the way
    /// (`openat2` with `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`; one `openat` with `O_NOFOLLOW`
    /// per component on kernels before 5.6). An empty `rel` opens this directory again.
    pub fn open_beneath(&self, rel: &[u8]) -> io::Result<Dir> {
        if rel.is_empty() {
            return Self::open_raw(self.fd, b".", OPEN_DIR);
        }
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
        let result = opened(|| loop {
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
        });
        match result {
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

    /// `fstat` of this directory.
    pub fn stat(&self) -> io::Result<Stat> {
        let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
        // SAFETY: fstat fills the struct on success, and we read it only then.
        unsafe {
            cvt(libc::fstat(self.fd, st.as_mut_ptr()))?;
            Ok(Stat::from_raw(&st.assume_init()))
        }
    }

    /// `fstatat` of the entry `name` in this directory; `follow` resolves a symlink.
    pub fn stat_at(&self, name: &CStr, follow: bool) -> io::Result<Stat> {
        stat_at(self.fd, name, follow)
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
        let child = self.open_child(name, follow)?;
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
            .any(|(name, _, _)| !is_dot_or_dotdot(name.to_bytes()))
            {
                return Ok(false);
            }
        }
    }
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
    let flags = if follow { 0 } else { libc::AT_SYMLINK_NOFOLLOW };
    let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
    // SAFETY: fstatat fills the struct on success, and we read it only then.
    unsafe {
        cvt(libc::fstatat(base, name.as_ptr(), st.as_mut_ptr(), flags))?;
        Ok(Stat::from_raw(&st.assume_init()))
    }
}

/// Reads a small file (an ignore file, a `.git` link) by path, relative to the working
/// directory.
///
/// It is read only if it is a regular file (or, with `accept_pipe`, a pipe: `--ignore-file
/// <(...)`), at most `limit` bytes, and reading it can never block or grow without bound: a FIFO,
/// a device or a link to `/dev/zero` planted under an ignore file's name (issue 9) is refused
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

/// `stat`/`lstat` by path, for search roots.
pub fn stat_path(path: &[u8], follow: bool) -> io::Result<Stat> {
    let path = if path.is_empty() { &b"."[..] } else { path };
    stat_at(libc::AT_FDCWD, &c_path(path)?, follow)
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
    let path = if path.is_empty() { &b"."[..] } else { path };
    let Ok(c) = std::ffi::CString::new(path) else {
        return false;
    };
    let mut fs = std::mem::MaybeUninit::<libc::statfs>::uninit();
    // SAFETY: statfs fills the struct on success, and we read it only then.
    unsafe {
        if libc::statfs(c.as_ptr(), fs.as_mut_ptr()) != 0 {
            return false;
        }
        // f_type is i64 on x86_64 but narrower elsewhere.
        #[allow(clippy::unnecessary_cast)]
        let magic = fs.assume_init().f_type as i64;
        SLOW_FS_MAGICS.contains(&magic)
    }
}

/// A directory descriptor shared by the threads that open its subdirectories, which may be
/// taken from it (closed, to open another) whenever none of them is using it: the descriptor
/// cache's (`walk/cache.rs`) one piece of descriptor ownership, kept here with the others.
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
                    let lent = Dir {
                        fd: (s & FD_BITS) as RawFd,
                    };
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
        if self.put(dir.fd, 0) {
            std::mem::forget(dir);
            Ok(())
        } else {
            Err(dir)
        }
    }

    /// Puts descriptor `fd` in the empty slot with `pins` pins.
    fn put(&self, fd: RawFd, pins: u64) -> bool {
        let state = u64::from(fd as u32) | pins;
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
                Ok(_) => {
                    return Evicted::Taken(Dir {
                        fd: (s & FD_BITS) as RawFd,
                    })
                }
                Err(now) => s = now,
            }
        }
    }

    /// Takes the descriptor, whatever its pins (the slot's owner, with nobody else left).
    pub fn take(&mut self) -> Option<Dir> {
        let s = std::mem::replace(self.state.get_mut(), NO_FD);
        debug_assert!(s < PIN, "a pinned descriptor outlives its slot's owners");
        (s & FD_BITS != NO_FD).then(|| Dir {
            fd: (s & FD_BITS) as RawFd,
        })
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
        if !self.pinned.get() && self.slot.put(self.dir.fd, PIN) {
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

/// Bytes read per `getdents64` call: 64 KiB, as the floor does; it holds ~2,000 typical entries,
/// so most directories take one call plus the one that returns 0.
const GETDENTS_CHUNK: usize = 64 * 1024;

/// A reusable buffer holding one directory's raw `getdents64` records.
#[derive(Debug, Default)]
pub struct Listing {
    /// u64 storage keeps every record 8-byte aligned, as the kernel writes them; its length
    /// is what the kernel has written.
    buf: Vec<u64>,
    /// The last chunk read ended the directory (see [`ends_directory`]): no call is needed
    /// to hear the 0 that would follow.
    ended: bool,
}

impl Listing {
    /// One `getdents64` into the buffer after what it holds; returns the bytes read.
    fn fill(&mut self, dir: &Dir) -> io::Result<usize> {
        if self.ended {
            return Ok(0);
        }
        self.buf.reserve(GETDENTS_CHUNK / 8);
        let start = self.buf.len() * 8;
        let spare = self.buf.spare_capacity_mut();
        let offered = spare.len() * 8;
        let n = getdents_raw(dir.fd, spare.as_mut_ptr().cast::<u8>(), offered)?;
        // Records are 8-byte aligned and padded (d_reclen is a multiple of 8), so `n` is too.
        debug_assert_eq!(n % 8, 0);
        // SAFETY: the kernel initialized the `n` bytes it reported, right after the `len()`
        // initialized elements, within capacity.
        unsafe { self.buf.set_len(self.buf.len() + n / 8) };
        self.ended = n == 0 || ends_directory(&self.bytes()[start..], offered);
        Ok(n)
    }

    /// The records held, as bytes.
    fn bytes(&self) -> &[u8] {
        // SAFETY: initialized u64 storage viewed as bytes, same lifetime and length in bytes.
        unsafe { std::slice::from_raw_parts(self.buf.as_ptr().cast::<u8>(), self.buf.len() * 8) }
    }

    /// Starts reading `dir`: its first 64 KiB chunk and, when the directory did not end within
    /// it, one more chunk. True when the buffer holds the whole directory (the common case:
    /// one `getdents64` call where the file system marks the end, else two, as reading it to
    /// the end takes); false when more follows, for [`Listing::read_next`] to stream.
    pub fn read_start(&mut self, dir: &Dir) -> io::Result<bool> {
        self.begin();
        // The second call is none when the first chunk ended the directory.
        self.fill(dir)?;
        self.fill(dir)?;
        Ok(self.ended)
    }

    /// Starts streaming a new directory with [`Listing::read_next`]: forgets what the last
    /// one held, and that it ended.
    pub fn begin(&mut self) {
        self.buf.clear();
        self.ended = false;
    }

    /// Reads every entry of `dir` into the buffer, replacing what was there (the beneath
    /// check of the walker-crate methods, which looks entries up in the whole listing).
    pub fn read_all(&mut self, dir: &Dir) -> io::Result<()> {
        self.begin();
        while self.fill(dir)? > 0 {}
        Ok(())
    }

    /// Reads the next chunk of the directory started with [`Listing::read_start`] or
    /// [`Listing::begin`] (64 KiB at most), replacing what was there. False at its end.
    pub fn read_next(&mut self, dir: &Dir) -> io::Result<bool> {
        self.buf.clear();
        Ok(self.fill(dir)? > 0)
    }

    /// The entries read, without `.` and `..`: (name, kind from d_type, inode).
    pub fn entries(&self) -> impl Iterator<Item = (&CStr, Kind, u64)> + '_ {
        DirentIter {
            buf: self.bytes(),
            dot_only: false,
        }
        .filter(|(name, _, _)| !is_dot_or_dotdot(name.to_bytes()))
    }

    /// The entries whose names start with `.` (ignore files, `.git`), without `.` and `..`:
    /// found by one byte per entry, no name measured for the others.
    pub fn dot_entries(&self) -> impl Iterator<Item = (&CStr, Kind, u64)> + '_ {
        DirentIter {
            buf: self.bytes(),
            dot_only: true,
        }
        .filter(|(name, _, _)| !is_dot_or_dotdot(name.to_bytes()))
    }

    /// Bytes the buffer holds now (the walk shrinks oversized buffers after a huge directory).
    pub fn capacity_bytes(&self) -> usize {
        self.buf.capacity() * 8
    }

    /// Frees the buffer (after a huge directory, to keep memory bounded across workers).
    pub fn release(&mut self) {
        self.buf = Vec::new();
    }
}

/// The largest `linux_dirent64` record: 19 bytes of header, a 255-byte name and its NUL,
/// padded to 8.
const MAX_RECORD: usize = 280;

/// The positions ext4, XFS, btrfs, tmpfs and sysfs give after a directory's last entry
/// (`EXT4_HTREE_EOF_64BIT`, and the 32-bit `EXT4_HTREE_EOF_32BIT`, `XFS_DIR2_MAX_DATAPTR`,
/// btrfs's and `DIR_OFFSET_EOD`'s `INT_MAX`). ext4's name hash is made to avoid them, so no
/// entry there has one as its successor's position.
const END_POSITIONS: [i64; 2] = [i64::MAX, i32::MAX as i64];

/// Whether a chunk of `offered` bytes returned as `chunk` ends its directory, so that the
/// next `getdents64` would return 0: the kernel stopped with room for another record to
/// spare (it was not full), and the position after the last record is one of the
/// file systems' end markers. A chunk cut short for any other reason (a pending signal, an
/// NFS reply still on its way) ends at a real position, and is followed by another call.
/// This spares one of the two calls most directories cost, as the floor makes them.
fn ends_directory(chunk: &[u8], offered: usize) -> bool {
    if chunk.is_empty() || chunk.len() + MAX_RECORD > offered {
        return false;
    }
    let mut at = 0;
    let mut last = None;
    while let Some(head) = chunk.get(at..at + 19) {
        let reclen = usize::from(u16::from_ne_bytes([head[16], head[17]]));
        if reclen < 20 {
            return false;
        }
        last = Some(i64::from_ne_bytes(head[8..16].try_into().expect("8 bytes")));
        at += reclen;
    }
    at == chunk.len() && last.is_some_and(|off| END_POSITIONS.contains(&off))
}

fn is_dot_or_dotdot(name: &[u8]) -> bool {
    name == b"." || name == b".."
}

fn bytemuck_u8(buf: &mut [u64]) -> &mut [u8] {
    // SAFETY: u8 has no alignment or validity requirements; same allocation, 8x the length.
    unsafe { std::slice::from_raw_parts_mut(buf.as_mut_ptr().cast::<u8>(), buf.len() * 8) }
}

fn getdents(fd: RawFd, buf: &mut [u8]) -> io::Result<usize> {
    getdents_raw(fd, buf.as_mut_ptr(), buf.len())
}

/// `getdents64` into `len` writable bytes at `buf`.
fn getdents_raw(fd: RawFd, buf: *mut u8, len: usize) -> io::Result<usize> {
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
struct DirentIter<'a> {
    buf: &'a [u8],
    /// Only the names that start with `.`.
    dot_only: bool,
}

impl<'a> Iterator for DirentIter<'a> {
    type Item = (&'a CStr, Kind, u64);

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
            return Some((name, Kind::from_dtype(rec[18]), ino));
        }
    }
}

/// Where the first NUL of `s` is, 8 bytes at a time. A record's name is short, and a byte
/// loop pays a mispredicted exit per entry; words overlap at the end instead.
#[inline]
fn nul_at(s: &[u8]) -> Option<usize> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt;

    /// One `linux_dirent64` record, padded as the kernel pads it, with garbage after the NUL.
    fn record(name: &[u8], next_pos: i64) -> Vec<u8> {
        let reclen = (19 + name.len() + 1).div_ceil(8) * 8;
        let mut r = vec![0xAA; reclen];
        r[0..8].copy_from_slice(&7u64.to_ne_bytes());
        r[8..16].copy_from_slice(&next_pos.to_ne_bytes());
        r[16..18].copy_from_slice(&(reclen as u16).to_ne_bytes());
        r[18] = libc::DT_REG;
        r[19..19 + name.len()].copy_from_slice(name);
        r[19 + name.len()] = 0;
        r
    }

    #[test]
    fn a_chunk_ends_its_directory_only_at_an_end_position_with_room_to_spare() {
        let mut chunk = record(b"a", 12);
        chunk.extend(record(b"b", i64::MAX));
        assert!(ends_directory(&chunk, 65536));
        let mut small = record(b"a", 12);
        small.extend(record(b"b", i64::from(i32::MAX)));
        assert!(ends_directory(&small, 65536), "the 32-bit marker");
        // Cut short at a real position (a pending signal, a network file system).
        let mut cut = record(b"a", 12);
        cut.extend(record(b"b", 13));
        assert!(!ends_directory(&cut, 65536));
        // A full buffer says nothing, whatever the last position.
        assert!(!ends_directory(&chunk, chunk.len() + MAX_RECORD - 1));
        assert!(!ends_directory(&[], 65536));
        // A record that overruns the chunk is not trusted.
        assert!(!ends_directory(&chunk[..chunk.len() - 8], 65536));
    }

    #[test]
    fn names_end_at_their_first_nul_whatever_the_padding() {
        for len in 1..=40 {
            let name: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            let rec = record(&name, 1);
            let iter = DirentIter {
                buf: &rec,
                dot_only: false,
            };
            let found: Vec<_> = iter.map(|(n, _, _)| n.to_bytes().to_vec()).collect();
            assert_eq!(found, vec![name.clone()], "length {len}");
            for cut in 0..len {
                let mut s = name.clone();
                s[cut] = 0;
                s.extend([0xAA; 9]);
                assert_eq!(nul_at(&s), Some(cut), "length {len}, NUL at {cut}");
            }
            assert_eq!(nul_at(&name), None, "length {len}, no NUL");
        }
    }

    #[test]
    fn only_dot_names_are_looked_at_for_ignore_files() {
        let mut chunk = record(b".", 1);
        chunk.extend(record(b"..", 2));
        chunk.extend(record(b"main.c", 3));
        chunk.extend(record(b".gitignore", 4));
        chunk.extend(record(b"x", 5));
        chunk.extend(record(b".git", 6));
        let dots: Vec<_> = DirentIter {
            buf: &chunk,
            dot_only: true,
        }
        .map(|(n, _, _)| n.to_bytes().to_vec())
        .collect();
        assert_eq!(dots, [&b"."[..], b"..", b".gitignore", b".git"]);
    }

    #[test]
    fn a_listing_read_in_one_chunk_needs_no_second_call_to_end() {
        let tmp = tempfile::tempdir().unwrap();
        for i in 0..50 {
            std::fs::write(tmp.path().join(format!("f{i}")), "").unwrap();
        }
        let dir = Dir::open_path(tmp.path().as_os_str().as_bytes()).unwrap();
        let mut listing = Listing::default();
        listing.begin();
        assert!(listing.read_next(&dir).unwrap());
        let mut n = listing.entries().count();
        while listing.read_next(&dir).unwrap() {
            n += listing.entries().count();
        }
        assert_eq!(n, 50, "every entry once, ended by marker or by a 0");
        // A new directory starts afresh, whatever the last one ended with.
        let empty = tempfile::tempdir().unwrap();
        let empty = Dir::open_path(empty.path().as_os_str().as_bytes()).unwrap();
        let dir = Dir::open_path(tmp.path().as_os_str().as_bytes()).unwrap();
        assert!(listing.read_start(&dir).unwrap());
        assert_eq!(listing.entries().count(), 50);
        listing.begin();
        assert!(!listing.read_next(&empty).unwrap() || listing.entries().count() == 0);
    }

    #[test]
    fn lists_every_entry_of_a_wide_directory() {
        let tmp = tempfile::tempdir().unwrap();
        for i in 0..5000 {
            std::fs::write(
                tmp.path().join(format!("file-with-a-longish-name-{i:05}")),
                "",
            )
            .unwrap();
        }
        std::fs::create_dir(tmp.path().join("sub")).unwrap();
        let dir = Dir::open_path(tmp.path().as_os_str().as_bytes()).unwrap();
        let mut listing = Listing::default();
        assert!(!listing.read_start(&dir).unwrap(), "more than two chunks");
        let mut entries: Vec<_> = listing
            .entries()
            .map(|(n, k, _)| (n.to_owned(), k))
            .collect();
        while listing.read_next(&dir).unwrap() {
            entries.extend(listing.entries().map(|(n, k, _)| (n.to_owned(), k)));
        }
        assert_eq!(entries.len(), 5001);
        let mut names: Vec<_> = entries.iter().map(|e| e.0.clone()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), 5001, "each entry once");
        let sub = entries.iter().find(|e| e.0.to_bytes() == b"sub").unwrap();
        assert_eq!(sub.1, Kind::Dir);

        let small = tempfile::tempdir().unwrap();
        std::fs::write(small.path().join("only"), "").unwrap();
        let dir = Dir::open_path(small.path().as_os_str().as_bytes()).unwrap();
        assert!(listing.read_start(&dir).unwrap(), "ends within one chunk");
        assert_eq!(listing.entries().count(), 1);
        assert!(dir.exists_at("only"));
        assert!(!dir.exists_at("missing"));
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
    fn a_pinned_descriptor_is_not_evicted() {
        let slot = DirSlot::empty();
        assert!(slot.pin().is_none());
        assert!(matches!(slot.evict(), Evicted::Empty));
        let root = Dir::open_path(b"/").unwrap();
        let ino = root.stat().unwrap().ino;
        slot.install(root).unwrap();
        assert!(
            slot.install(Dir::open_path(b"/").unwrap()).is_err(),
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
        let own = slot.own(Dir::open_path(b"/").unwrap());
        assert!(!own.is_shared() && !slot.is_held());
        assert!(own.share());
        assert!(matches!(slot.evict(), Evicted::Pinned));
        assert_eq!(own.stat().unwrap().ino, ino);
        drop(own);
        assert!(slot.take().is_some());
        assert!(slot.take().is_none());
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
