//! The fast directory reader: raw `openat`, `getdents64` and `fstatat`, nothing else.
//!
//! Every `unsafe` block of ffind's traversal lives in this file. What the methods built on it
//! (`serial`, `queue`, `rayon`) get is safe: an owned descriptor ([`Dir`]), a reusable listing
//! buffer ([`Listing`]) whose names are borrowed `&CStr`s (no allocation per entry), and
//! [`Stat`] when a filter or a `DT_UNKNOWN` entry needs one.

use std::ffi::CStr;
use std::io;
use std::os::fd::RawFd;
use std::sync::atomic::{AtomicUsize, Ordering};

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

/// The fields of `struct stat` that filters use.
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
        }
    }
}

/// Descriptors that walks may keep open so that children open relative to their parent.
/// Set once by [`set_fd_budget`]; [`SharedDir`] takes from it and gives back on drop.
static FD_BUDGET: AtomicUsize = AtomicUsize::new(0);

/// Raises the soft open-file limit to the hard one, sets how many descriptors walks may keep
/// open for parents (leaving `reserve` for everything else: workers' own descriptors, stdio,
/// ignore files), and returns the soft limit.
pub fn raise_fd_limit(reserve: usize) -> usize {
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
    let soft = usize::try_from(soft).unwrap_or(usize::MAX);
    FD_BUDGET.store(soft.saturating_sub(reserve) / 2, Ordering::Relaxed);
    soft
}

/// Sets the number of descriptors walks may keep open.
#[cfg(test)]
fn set_fd_budget(n: usize) {
    FD_BUDGET.store(n, Ordering::Relaxed);
}

/// An open directory descriptor, closed on drop.
#[derive(Debug)]
pub struct Dir {
    fd: RawFd,
}

const OPEN_DIR: libc::c_int = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC | libc::O_NOCTTY;

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
        let mut buf = Vec::with_capacity(path.len() + 1);
        buf.extend_from_slice(path);
        buf.push(0);
        let c = CStr::from_bytes_with_nul(&buf)
            .map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))?;
        Self::open_cstr(base, c, flags)
    }

    fn open_cstr(base: RawFd, name: &CStr, flags: libc::c_int) -> io::Result<Dir> {
        let mut waited_ms = 0;
        loop {
            // SAFETY: `name` is a valid NUL-terminated string; `base` is AT_FDCWD or a
            // descriptor owned by a live `Dir`.
            match cvt(unsafe { libc::openat(base, name.as_ptr(), flags) }) {
                Ok(fd) => return Ok(Dir { fd }),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                // Out of descriptors (a low `ulimit -n` with many workers): the others hold
                // one each only while reading, so one is free again shortly. Wait for it,
                // up to a few seconds, rather than lose the directory.
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

    /// Reads a (small) file at `rel`, relative to this directory: ignore files.
    pub fn read_file_at(&self, rel: &str) -> io::Result<Vec<u8>> {
        use std::io::Read;
        use std::os::fd::FromRawFd;
        let file = Self::open_raw(
            self.fd,
            rel.as_bytes(),
            libc::O_RDONLY | libc::O_CLOEXEC | libc::O_NOCTTY,
        )?;
        let fd = file.fd;
        std::mem::forget(file);
        // SAFETY: `fd` was just opened and is owned by nothing else (the `Dir` was forgotten);
        // the File takes over closing it.
        let mut f = unsafe { std::fs::File::from_raw_fd(fd) };
        let mut buf = Vec::new();
        f.read_to_end(&mut buf)?;
        Ok(buf)
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
            if (DirentIter { buf: bytes }).any(|(name, _, _)| !is_dot_or_dotdot(name.to_bytes())) {
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

/// `stat`/`lstat` by path, for search roots.
pub fn stat_path(path: &[u8], follow: bool) -> io::Result<Stat> {
    let path = if path.is_empty() { &b"."[..] } else { path };
    let mut buf = Vec::with_capacity(path.len() + 1);
    buf.extend_from_slice(path);
    buf.push(0);
    let c =
        CStr::from_bytes_with_nul(&buf).map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))?;
    stat_at(libc::AT_FDCWD, c, follow)
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

/// A directory kept open so that its subdirectories open relative to it; it counts against
/// the descriptor budget while alive.
#[derive(Debug)]
pub struct SharedDir {
    dir: Dir,
}

impl SharedDir {
    /// Keeps `dir` open if the budget allows, else hands it back to be closed.
    pub fn keep(dir: Dir) -> Result<SharedDir, Dir> {
        let taken =
            FD_BUDGET.fetch_update(Ordering::AcqRel, Ordering::Acquire, |b| b.checked_sub(1));
        match taken {
            Ok(_) => Ok(SharedDir { dir }),
            Err(_) => Err(dir),
        }
    }

    /// The directory.
    pub fn dir(&self) -> &Dir {
        &self.dir
    }
}

impl Drop for SharedDir {
    fn drop(&mut self) {
        FD_BUDGET.fetch_add(1, Ordering::AcqRel);
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
}

impl Listing {
    /// One `getdents64` into the buffer after what it holds; returns the bytes read.
    fn fill(&mut self, dir: &Dir) -> io::Result<usize> {
        self.buf.reserve(GETDENTS_CHUNK / 8);
        let spare = self.buf.spare_capacity_mut();
        let n = getdents_raw(dir.fd, spare.as_mut_ptr().cast::<u8>(), spare.len() * 8)?;
        // Records are 8-byte aligned and padded (d_reclen is a multiple of 8), so `n` is too.
        debug_assert_eq!(n % 8, 0);
        // SAFETY: the kernel initialized the `n` bytes it reported, right after the `len()`
        // initialized elements, within capacity.
        unsafe { self.buf.set_len(self.buf.len() + n / 8) };
        Ok(n)
    }

    /// Starts reading `dir`: its first 64 KiB chunk and, when the directory did not end within
    /// it, one more chunk. True when the buffer holds the whole directory (the common case,
    /// for the same two `getdents64` calls as reading it to the end); false when more follows,
    /// for [`Listing::read_next`] to stream.
    pub fn read_start(&mut self, dir: &Dir) -> io::Result<bool> {
        self.buf.clear();
        Ok(self.fill(dir)? == 0 || self.fill(dir)? == 0)
    }

    /// Reads the next chunk of `dir`'s entries (64 KiB at most), replacing what was there.
    /// False at the end of the directory.
    pub fn read_next(&mut self, dir: &Dir) -> io::Result<bool> {
        self.buf.clear();
        Ok(self.fill(dir)? > 0)
    }

    /// The entries read, without `.` and `..`: (name, kind from d_type, inode).
    pub fn entries(&self) -> impl Iterator<Item = (&CStr, Kind, u64)> + '_ {
        // SAFETY: initialized u64 storage viewed as bytes, same lifetime and length in bytes.
        let bytes = unsafe {
            std::slice::from_raw_parts(self.buf.as_ptr().cast::<u8>(), self.buf.len() * 8)
        };
        DirentIter { buf: bytes }.filter(|(name, _, _)| !is_dot_or_dotdot(name.to_bytes()))
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
}

impl<'a> Iterator for DirentIter<'a> {
    type Item = (&'a CStr, Kind, u64);

    fn next(&mut self) -> Option<Self::Item> {
        if self.buf.len() < 19 {
            return None;
        }
        let ino = u64::from_ne_bytes(self.buf[0..8].try_into().ok()?);
        let reclen = u16::from_ne_bytes([self.buf[16], self.buf[17]]) as usize;
        if reclen < 20 || reclen > self.buf.len() {
            return None;
        }
        let d_type = self.buf[18];
        let name = CStr::from_bytes_until_nul(&self.buf[19..reclen]).ok()?;
        self.buf = &self.buf[reclen..];
        Some((name, Kind::from_dtype(d_type), ino))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt;

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
    fn budget_is_taken_and_given_back() {
        set_fd_budget(1);
        let a = SharedDir::keep(Dir::open_path(b"/").unwrap()).unwrap();
        assert!(SharedDir::keep(Dir::open_path(b"/").unwrap()).is_err());
        drop(a);
        assert!(SharedDir::keep(Dir::open_path(b"/").unwrap()).is_ok());
    }
}
