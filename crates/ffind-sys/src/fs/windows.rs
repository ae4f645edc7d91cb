//! Windows' ground floor: the directory handle ([`Dir`]) and its reads, the Windows side of
//! what `dir.rs` does with descriptors on Unix, behind the same interface.
//!
//! A directory is a handle, and everything below it is opened relative to that handle
//! (`NtCreateFile` with a root directory: Windows' `openat`, as std's `remove_dir_all` opens
//! its way down), so that a walk builds no long path per directory, never meets the 260-character
//! limit below its root, and a directory renamed under it is still the one it reads. Without
//! `follow`, a reparse point that is a link (a symbolic link or a junction: a "name
//! surrogate") is opened as itself and refused as a link, as `O_NOFOLLOW` refuses one.
//!
//! A directory is read with `GetFileInformationByHandleEx(FileIdBothDirectoryInfo)`: the
//! documented form of `NtQueryDirectoryFile`, on the handle the walk holds, a 64 KiB batch of
//! entries per call, each with its attributes (hidden, directory, reparse point), its reparse
//! tag and its file id, so that no entry needs a call of its own to tell its kind or whether
//! it is hidden. `FindFirstFileExW` gives the same records but by path (it opens the directory
//! again from its full path on every call, and needs a `\\?\` path past 260 characters), and
//! without the file id. The records are copied into the same `linux_dirent64` layout the
//! other readers fill ([`fill`]), names as WTF-8.
//!
//! Nothing here has been timed on Windows: no Windows machine is at hand, and times under
//! Wine (which turns every call into Linux ones) say nothing of Windows.

use std::ffi::{CStr, OsString};
use std::io;
use std::os::windows::ffi::{OsStrExt, OsStringExt};
use std::os::windows::io::{FromRawHandle, OwnedHandle};

use windows_sys::Wdk::Foundation::OBJECT_ATTRIBUTES;
use windows_sys::Wdk::Storage::FileSystem::{
    NtCreateFile, FILE_DIRECTORY_FILE, FILE_NON_DIRECTORY_FILE, FILE_OPEN,
    FILE_OPEN_FOR_BACKUP_INTENT, FILE_OPEN_REPARSE_POINT, FILE_SYNCHRONOUS_IO_NONALERT,
};
use windows_sys::Win32::Foundation::{
    CloseHandle, RtlNtStatusToDosError, ERROR_NO_MORE_FILES, HANDLE, INVALID_HANDLE_VALUE,
    OBJ_CASE_INSENSITIVE, UNICODE_STRING,
};
use windows_sys::Win32::Storage::FileSystem::{
    CreateFileW, FileAttributeTagInfo, FileIdBothDirectoryInfo, GetFileInformationByHandle,
    GetFileInformationByHandleEx, GetFinalPathNameByHandleW, GetVolumeInformationByHandleW,
    BY_HANDLE_FILE_INFORMATION, FILE_ATTRIBUTE_DIRECTORY, FILE_ATTRIBUTE_HIDDEN,
    FILE_ATTRIBUTE_READONLY, FILE_ATTRIBUTE_REPARSE_POINT, FILE_ATTRIBUTE_TAG_INFO,
    FILE_FLAG_BACKUP_SEMANTICS, FILE_FLAG_OPEN_REPARSE_POINT, FILE_GENERIC_EXECUTE,
    FILE_ID_BOTH_DIR_INFO, FILE_LIST_DIRECTORY, FILE_NAME_NORMALIZED, FILE_READ_ATTRIBUTES,
    FILE_READ_DATA, FILE_SHARE_DELETE, FILE_SHARE_READ, FILE_SHARE_WRITE, OPEN_EXISTING,
    SYNCHRONIZE,
};
use windows_sys::Win32::System::IO::IO_STATUS_BLOCK;

use super::dirent::{is_dot_or_dotdot, HIDDEN_MARK};
use super::kind::{mode_of, FullStat, Kind, Stat};
use super::native::Fault;

/// An open directory handle, closed on drop.
#[derive(Debug)]
pub struct Dir {
    handle: HANDLE,
}

// SAFETY: a handle is a number the kernel resolves in the process; any thread may use it, and
// the calls made on it here (reads of a directory, opens relative to it) take no user-space
// state. Threads reading one directory at once are kept apart by the walk, as on Unix.
unsafe impl Send for Dir {}
// SAFETY: as above.
unsafe impl Sync for Dir {}

/// What a directory is opened for: listing it, reading its attributes, and waiting on it.
const DIR_ACCESS: u32 = FILE_LIST_DIRECTORY | FILE_READ_ATTRIBUTES | SYNCHRONIZE;

/// Others may read, write, rename and delete what ffind holds open, as on Unix.
const SHARE_ALL: u32 = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;

/// The bit of a reparse tag that says it names another file (symbolic links, junctions):
/// such a reparse point is a link (`IsReparseTagNameSurrogate`).
const NAME_SURROGATE: u32 = 0x2000_0000;

/// The error of a refused open, from what `NtCreateFile` said.
fn nt_error(status: i32) -> io::Error {
    // SAFETY: a pure conversion of a status code.
    let code = unsafe { RtlNtStatusToDosError(status) };
    io::Error::from_raw_os_error(code as i32)
}

/// `bytes` (a path or name, WTF-8) as UTF-16, refusing a NUL.
fn wide(bytes: &[u8]) -> io::Result<Vec<u16>> {
    if bytes.contains(&0) {
        return Err(Fault::Invalid.error());
    }
    Ok(super::native::os_str(bytes).encode_wide().collect())
}

/// A relative path (`a/b` or `a\\b`) as the UTF-16 name `NtCreateFile` opens below a handle,
/// which takes `\\` only, and no `.` component (the walker crates' paths begin with `./`).
fn relative_name(rel: &[u8]) -> io::Result<Vec<u16>> {
    let (slash, backslash, dot) = (u16::from(b'/'), u16::from(b'\\'), u16::from(b'.'));
    let units = wide(rel)?;
    let mut name = Vec::with_capacity(units.len());
    for part in units.split(|&c| c == slash || c == backslash) {
        if part.is_empty() || part == [dot] {
            continue;
        }
        if !name.is_empty() {
            name.push(backslash);
        }
        name.extend_from_slice(part);
    }
    Ok(name)
}

/// A path made absolute, in the verbatim form (`\\?\C:\...`, `\\?\UNC\server\share\...`) that
/// takes no length limit and is not parsed again, NUL-terminated for the system.
fn verbatim(path: &[u8]) -> io::Result<Vec<u16>> {
    let path = if path.is_empty() { &b"."[..] } else { path };
    let os = super::native::os_path(path);
    let abs = std::path::absolute(&os)?;
    let w: Vec<u16> = abs.as_os_str().encode_wide().collect();
    let bs = u16::from(b'\\');
    let mut out: Vec<u16> = Vec::with_capacity(w.len() + 8);
    if w.starts_with(&[bs, bs, u16::from(b'?'), bs])
        || w.starts_with(&[bs, bs, u16::from(b'.'), bs])
    {
        out.extend_from_slice(&w);
    } else if w.starts_with(&[bs, bs]) {
        out.extend("\\\\?\\UNC\\".encode_utf16());
        out.extend_from_slice(&w[2..]);
    } else {
        out.extend("\\\\?\\".encode_utf16());
        out.extend_from_slice(&w);
    }
    if out.contains(&0) {
        return Err(Fault::Invalid.error());
    }
    out.push(0);
    Ok(out)
}

/// Opens `path` (absolute, NUL-terminated) by name: a directory, or with `any` whatever it
/// is; a link at its end followed when `follow`.
fn open_by_path(path: &[u16], access: u32, follow: bool) -> io::Result<HANDLE> {
    let flags = FILE_FLAG_BACKUP_SEMANTICS
        | if follow {
            0
        } else {
            FILE_FLAG_OPEN_REPARSE_POINT
        };
    // SAFETY: a NUL-terminated wide path; no security attributes or template.
    let h = unsafe {
        CreateFileW(
            path.as_ptr(),
            access,
            SHARE_ALL,
            std::ptr::null(),
            OPEN_EXISTING,
            flags,
            std::ptr::null_mut(),
        )
    };
    if h == INVALID_HANDLE_VALUE {
        Err(io::Error::last_os_error())
    } else {
        Ok(h)
    }
}

/// Whether a file at `path` may be executable by its name, as fd's faccess says on Windows:
/// its extension (what `Path::extension` takes: after the last dot of the last component, but
/// for a leading one) is absent, not UTF-8, or one of `exe`, `com`, `bat`, `cmd`.
fn executable_name(path: &[u8]) -> bool {
    let name = path
        .rsplit(|&b| b == b'/' || b == b'\\')
        .next()
        .unwrap_or(path);
    match name.iter().rposition(|&b| b == b'.') {
        None | Some(0) => true,
        Some(dot) => match std::str::from_utf8(&name[dot + 1..]) {
            Ok(ext) => matches!(ext, "exe" | "com" | "bat" | "cmd"),
            Err(_) => true,
        },
    }
}

/// Opens `name` relative to the directory `base` (`NtCreateFile` with a root directory).
/// `access` must hold `SYNCHRONIZE`: the handle is opened for synchronous I/O.
fn open_relative(base: HANDLE, name: &[u16], access: u32, options: u32) -> io::Result<HANDLE> {
    let bytes = u16::try_from(name.len() * 2).map_err(|_| Fault::NameTooLong.error())?;
    let uname = UNICODE_STRING {
        Length: bytes,
        MaximumLength: bytes,
        Buffer: name.as_ptr().cast_mut(),
    };
    let attrs = OBJECT_ATTRIBUTES {
        Length: std::mem::size_of::<OBJECT_ATTRIBUTES>() as u32,
        RootDirectory: base,
        ObjectName: &uname,
        Attributes: OBJ_CASE_INSENSITIVE,
        SecurityDescriptor: std::ptr::null(),
        SecurityQualityOfService: std::ptr::null(),
    };
    let mut handle: HANDLE = std::ptr::null_mut();
    let mut io_status = IO_STATUS_BLOCK::default();
    // SAFETY: every pointer is to a live local (the name outlives the call); NtCreateFile
    // writes the handle and the status block only.
    let status = unsafe {
        NtCreateFile(
            &mut handle,
            access,
            &attrs,
            &mut io_status,
            std::ptr::null(),
            0,
            SHARE_ALL,
            FILE_OPEN,
            options | FILE_SYNCHRONOUS_IO_NONALERT | FILE_OPEN_FOR_BACKUP_INTENT,
            std::ptr::null(),
            0,
        )
    };
    if status < 0 {
        Err(nt_error(status))
    } else {
        Ok(handle)
    }
}

/// A handle's attributes, and its reparse tag when it is a reparse point.
struct Info {
    by_handle: BY_HANDLE_FILE_INFORMATION,
    tag: u32,
}

impl Info {
    fn of(h: HANDLE) -> io::Result<Info> {
        // SAFETY: a plain struct of integers, for which zero is valid; filled by the call.
        let mut by_handle: BY_HANDLE_FILE_INFORMATION = unsafe { std::mem::zeroed() };
        // SAFETY: a live handle and a struct of the right type.
        if unsafe { GetFileInformationByHandle(h, &mut by_handle) } == 0 {
            return Err(io::Error::last_os_error());
        }
        let mut tag = 0;
        if by_handle.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT != 0 {
            // SAFETY: as above, for FILE_ATTRIBUTE_TAG_INFO.
            let mut t: FILE_ATTRIBUTE_TAG_INFO = unsafe { std::mem::zeroed() };
            // SAFETY: the buffer is the class's struct, of the size given.
            if unsafe {
                GetFileInformationByHandleEx(
                    h,
                    FileAttributeTagInfo,
                    (&mut t as *mut FILE_ATTRIBUTE_TAG_INFO).cast(),
                    std::mem::size_of::<FILE_ATTRIBUTE_TAG_INFO>() as u32,
                )
            } != 0
            {
                tag = t.ReparseTag;
            }
        }
        Ok(Info { by_handle, tag })
    }

    fn attributes(&self) -> u32 {
        self.by_handle.dwFileAttributes
    }

    fn kind(&self) -> Kind {
        kind_of(self.attributes(), self.tag)
    }

    fn full_stat(&self) -> FullStat {
        let b = &self.by_handle;
        let (mtime, mtime_nsec) = unix_time(&b.ftLastWriteTime);
        FullStat {
            stat: Stat {
                mode: mode_of(
                    self.kind(),
                    self.attributes() & FILE_ATTRIBUTE_READONLY != 0,
                ),
                size: (u64::from(b.nFileSizeHigh) << 32) | u64::from(b.nFileSizeLow),
                mtime,
                mtime_nsec,
                uid: 0,
                gid: 0,
                dev: u64::from(b.dwVolumeSerialNumber),
                ino: (u64::from(b.nFileIndexHigh) << 32) | u64::from(b.nFileIndexLow),
                nlink: b.nNumberOfLinks,
            },
            // Windows keeps no change time here (the last write is the nearest).
            ctime: mtime,
            ctime_nsec: mtime_nsec,
        }
    }
}

/// What an entry is, from its attributes and reparse tag: a link when it is a reparse point
/// that names another file (as std's `is_symlink` says), else a directory or a file.
///
/// A reparse point whose tag is 0 is what it leads to, as std and the walker crates see it (the
/// methods built on them must agree with this reader). Windows has no such tag; Wine shows a
/// Unix symbolic link to a directory so, and the walk enters it as fd's Windows build does.
pub(super) fn kind_of(attributes: u32, tag: u32) -> Kind {
    if attributes & FILE_ATTRIBUTE_REPARSE_POINT != 0 && tag & NAME_SURROGATE != 0 {
        Kind::Symlink
    } else if attributes & FILE_ATTRIBUTE_DIRECTORY != 0 {
        Kind::Dir
    } else {
        Kind::File
    }
}

/// A `FILETIME` (100 ns ticks since 1601) as Unix seconds and nanoseconds.
fn unix_time(ft: &windows_sys::Win32::Foundation::FILETIME) -> (i64, i64) {
    let ticks = (i64::from(ft.dwHighDateTime) << 32) | i64::from(ft.dwLowDateTime);
    // 11,644,473,600 seconds from 1601-01-01 to 1970-01-01.
    let since_1970 = ticks - 116_444_736_000_000_000;
    (
        since_1970.div_euclid(10_000_000),
        since_1970.rem_euclid(10_000_000) * 100,
    )
}

impl Dir {
    fn from_handle(h: HANDLE) -> Dir {
        Dir { handle: h }
    }

    /// The handle as the 32 bits a `DirSlot` keeps (a handle's value fits: 64-bit Windows
    /// keeps handles within 32 bits so that 32-bit processes can share them).
    pub(super) fn slot_bits(&self) -> u32 {
        self.handle as usize as u32
    }

    /// The directory a `DirSlot` kept as [`Dir::slot_bits`].
    pub(super) fn from_slot_bits(bits: u32) -> Dir {
        Dir::from_handle(bits as usize as HANDLE)
    }

    /// A directory handle for `h` if it is a directory (and, without `follow`, not a link to
    /// one); closed otherwise.
    fn checked(h: HANDLE, follow: bool) -> io::Result<Dir> {
        let dir = Dir::from_handle(h);
        let info = Info::of(h)?;
        match info.kind() {
            Kind::Dir => Ok(dir),
            Kind::Symlink if !follow => Err(Fault::Loop.error()),
            // A link followed to a directory was opened through: what the handle is counts.
            _ if info.attributes() & FILE_ATTRIBUTE_DIRECTORY != 0 && follow => Ok(dir),
            _ => Err(Fault::NotADirectory.error()),
        }
    }

    /// Opens a directory by path, following a link at the end (search roots may be links).
    pub fn open_path(path: &[u8]) -> io::Result<Dir> {
        let h = open_by_path(&verbatim(path)?, DIR_ACCESS, true)?;
        Dir::checked(h, true)
    }

    /// Opens the child directory `name`. Without `follow`, a link is refused rather than
    /// followed.
    pub fn open_child(&self, name: &CStr, follow: bool) -> io::Result<Dir> {
        self.open_child_bytes(name.to_bytes(), follow)
    }

    fn open_child_bytes(&self, name: &[u8], follow: bool) -> io::Result<Dir> {
        let options = FILE_DIRECTORY_FILE | if follow { 0 } else { FILE_OPEN_REPARSE_POINT };
        let h = open_relative(self.handle, &wide(name)?, DIR_ACCESS, options)?;
        Dir::checked(h, follow)
    }

    /// This directory's full path, as the system gives it (`\\?\C:\...`).
    fn final_path(&self) -> io::Result<Vec<u16>> {
        let mut buf = vec![0u16; 512];
        loop {
            // SAFETY: a buffer of the length given.
            let n = unsafe {
                GetFinalPathNameByHandleW(
                    self.handle,
                    buf.as_mut_ptr(),
                    buf.len() as u32,
                    FILE_NAME_NORMALIZED,
                )
            } as usize;
            if n == 0 {
                return Err(io::Error::last_os_error());
            }
            if n < buf.len() {
                buf.truncate(n);
                return Ok(buf);
            }
            buf.resize(n + 1, 0);
        }
    }

    /// Opens this directory's parent (whatever directory that is now: the caller checks it
    /// is the one it expects). Windows opens no `..` relative to a handle: the parent of the
    /// path the handle has now.
    pub fn open_parent(&self) -> io::Result<Dir> {
        let mut path = self.final_path()?;
        let bs = u16::from(b'\\');
        while path.last() == Some(&bs) {
            path.pop();
        }
        match path.iter().rposition(|&c| c == bs) {
            Some(i) if i > 0 => {
                path.truncate(i + 1);
                path.push(0);
                let h = open_by_path(&path, DIR_ACCESS, true)?;
                Dir::checked(h, true)
            }
            _ => Err(Fault::NotFound.error()),
        }
    }

    /// Opens the directory at `rel` below this one without following any link on the way,
    /// one component at a time (`..` refused). An empty `rel` opens this directory again.
    pub fn open_beneath(&self, rel: &[u8]) -> io::Result<Dir> {
        let mut cur: Option<Dir> = None;
        for part in rel
            .split(|&b| b == b'/' || b == b'\\')
            .filter(|p| !p.is_empty() && *p != b".")
        {
            if part == b".." {
                return Err(Fault::CrossDevice.error());
            }
            let next = cur.as_ref().unwrap_or(self).open_child_bytes(part, false)?;
            cur = Some(next);
        }
        match cur {
            Some(d) => Ok(d),
            None => {
                let h = open_relative(self.handle, &[], DIR_ACCESS, FILE_DIRECTORY_FILE)?;
                Ok(Dir::from_handle(h))
            }
        }
    }

    /// This directory's metadata.
    pub fn stat(&self) -> io::Result<Stat> {
        self.raw_stat().map(|st| st.stat)
    }

    /// This directory's metadata, all of it.
    pub fn raw_stat(&self) -> io::Result<FullStat> {
        Info::of(self.handle).map(|i| i.full_stat())
    }

    /// The metadata of the entry `name` in this directory (a link's own without `follow`).
    pub fn raw_stat_at(&self, name: &CStr, follow: bool) -> io::Result<FullStat> {
        self.info_at(name.to_bytes(), follow).map(|i| i.full_stat())
    }

    /// `rel` as a path to open by name, where a relative open cannot take it: an absolute or
    /// rooted path (`C:\x`, `\x`, `/x`: Unix's `openat` takes an absolute path whatever the
    /// directory, and a `.git` file's `gitdir:` may be one), or one that goes up (`..`: a
    /// submodule's `gitdir: ../.git/modules/m`), which Windows resolves in a path, never
    /// relative to a handle. `None` for a plain relative path.
    fn outside_path(&self, rel: &[u8]) -> io::Result<Option<Vec<u8>>> {
        let rooted = rel.first().is_some_and(|&b| b == b'/' || b == b'\\')
            || (rel.len() >= 2 && rel[1] == b':');
        if rooted {
            return Ok(Some(rel.to_vec()));
        }
        if !rel.split(|&b| b == b'/' || b == b'\\').any(|c| c == b"..") {
            return Ok(None);
        }
        // The directory's path now, without the verbatim prefix (which would take ".." as a
        // name), joined with `rel` and resolved.
        let mut base = OsString::from_wide(&self.final_path()?).into_encoded_bytes();
        if let Some(unc) = base.strip_prefix(b"\\\\?\\UNC\\") {
            base = [&b"\\\\"[..], unc].concat();
        } else if let Some(local) = base.strip_prefix(b"\\\\?\\") {
            base = local.to_vec();
        }
        base.push(b'\\');
        base.extend_from_slice(rel);
        let joined = std::path::absolute(super::native::os_path(&base))?;
        Ok(Some(joined.into_os_string().into_encoded_bytes()))
    }

    fn info_at(&self, rel: &[u8], follow: bool) -> io::Result<Info> {
        self.info_opened_for(rel, FILE_READ_ATTRIBUTES | SYNCHRONIZE, follow)
    }

    /// The attributes of the entry at `rel`, opened with `access` (which holds
    /// `FILE_READ_ATTRIBUTES | SYNCHRONIZE`): whether it opens so, and what it is.
    fn info_opened_for(&self, rel: &[u8], access: u32, follow: bool) -> io::Result<Info> {
        if let Some(path) = self.outside_path(rel)? {
            let h = open_by_path(&verbatim(&path)?, access, follow)?;
            // SAFETY: the handle was just opened and is owned by nothing else; closed on return.
            let _owned = unsafe { OwnedHandle::from_raw_handle(h) };
            return Info::of(h);
        }
        let name = relative_name(rel)?;
        let options = if follow { 0 } else { FILE_OPEN_REPARSE_POINT };
        let h = open_relative(self.handle, &name, access, options)?;
        // SAFETY: the handle was just opened and is owned by nothing else; closed on return.
        let _owned = unsafe { OwnedHandle::from_raw_handle(h) };
        Info::of(h)
    }

    /// The metadata of the entry `name` in this directory.
    pub fn stat_at(&self, name: &CStr, follow: bool) -> io::Result<Stat> {
        self.raw_stat_at(name, follow).map(|st| st.stat)
    }

    /// Whether an entry `name` is in this directory. Errors other than "no such entry" count
    /// as there, for the read that follows to report.
    pub fn exists_at(&self, name: &str) -> bool {
        match self.info_at(name.as_bytes(), false) {
            Ok(_) => true,
            Err(e) => !(Fault::NotFound.is(&e) || Fault::NotADirectory.is(&e)),
        }
    }

    /// Whether the entry `name` (followed, if a link) is executable, as fd decides it on
    /// Windows (the rule of the faccess crate it asks): it opens for execution
    /// (`FILE_GENERIC_EXECUTE`), and, unless it is a directory, its name has no extension or
    /// one of `exe`, `com`, `bat`, `cmd`, written so (in lower case; `PATHEXT` is not read).
    pub fn executable_at(&self, name: &CStr) -> bool {
        let rel = name.to_bytes();
        match self.info_opened_for(rel, FILE_GENERIC_EXECUTE, true) {
            Ok(info) if info.by_handle.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY != 0 => true,
            Ok(_) => executable_name(rel),
            Err(_) => false,
        }
    }

    /// Reads a small file at `rel`, relative to this directory (ignore files): see
    /// [`read_small_file`].
    pub fn read_file_at(&self, rel: &[u8], limit: u64) -> io::Result<Vec<u8>> {
        if let Some(path) = self.outside_path(rel)? {
            return read_small_file(&path, limit, false);
        }
        let info = self.info_at(rel, true)?;
        check_small_file_kind(info.kind(), info.attributes(), false)?;
        let name = relative_name(rel)?;
        let h = open_relative(
            self.handle,
            &name,
            FILE_READ_DATA | FILE_READ_ATTRIBUTES | SYNCHRONIZE,
            FILE_NON_DIRECTORY_FILE,
        )?;
        // SAFETY: the handle was just opened and is owned by nothing else; the File closes it.
        let file = unsafe { std::fs::File::from_raw_handle(h) };
        read_opened(file, limit, false)
    }

    /// Reads a small file `name` of this directory that its listing says is a regular file.
    pub fn read_listed_file_at(&self, name: &[u8], limit: u64) -> io::Result<Vec<u8>> {
        self.read_file_at(name, limit)
    }

    /// Whether the directory `name` below this one has no entries (`-t e`).
    pub fn is_empty_dir_at(&self, name: &CStr, follow: bool) -> io::Result<bool> {
        let child = self.open_child(name, follow)?;
        let mut buf = Vec::new();
        loop {
            buf.clear();
            if fill(&mut buf, &child, 4096)? {
                return Ok(buf.is_empty());
            }
            if !buf.is_empty() {
                return Ok(false);
            }
        }
    }

    /// Linux's `statfs` magic number of the file system this directory is on (what callers
    /// compare), from the name Windows gives it; `None` when it cannot be asked or has no
    /// such number.
    pub fn fs_magic(&self) -> Option<i64> {
        let name = self.file_system_name()?;
        Some(match name.as_str() {
            "NTFS" => 0x5346_544E,
            "FAT" | "FAT32" => 0x4D44,
            "exFAT" => 0x2011_BAB0,
            "ReFS" => 0x5265_4653,
            "CDFS" | "UDF" => 0x9660,
            _ => return None,
        })
    }

    /// The name of the file system this directory is on ("NTFS", "FAT32", "ReFS", ...).
    fn file_system_name(&self) -> Option<String> {
        let mut name = [0u16; 64];
        // SAFETY: a buffer of the length given; the other outputs are not asked for.
        let ok = unsafe {
            GetVolumeInformationByHandleW(
                self.handle,
                std::ptr::null_mut(),
                0,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                name.as_mut_ptr(),
                name.len() as u32,
            )
        } != 0;
        let len = name.iter().position(|&c| c == 0).unwrap_or(name.len());
        ok.then(|| String::from_utf16_lossy(&name[..len]))
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        // SAFETY: we own the handle and close it exactly once.
        unsafe {
            CloseHandle(self.handle);
        }
    }
}

/// Reads one batch of `dir`'s entries (up to 64 KiB of the system's records) and appends them
/// to `buf` as `linux_dirent64` records; true when the directory has no more. `.` and `..` are
/// left out; a hidden entry's `d_type` carries [`HIDDEN_MARK`].
pub(super) fn fill(buf: &mut Vec<u8>, dir: &Dir, chunk: usize) -> io::Result<bool> {
    thread_local! {
        static RAW: std::cell::RefCell<Vec<u64>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    RAW.with(|raw| {
        let mut raw = raw.borrow_mut();
        let words = chunk.max(4096) / 8;
        if raw.len() < words {
            raw.resize(words, 0);
        }
        // SAFETY: a buffer of u64s (aligned for the records) of the length given in bytes.
        let ok = unsafe {
            GetFileInformationByHandleEx(
                dir.handle,
                FileIdBothDirectoryInfo,
                raw.as_mut_ptr().cast(),
                (raw.len() * 8) as u32,
            )
        } != 0;
        if !ok {
            let e = io::Error::last_os_error();
            return if e.raw_os_error() == Some(ERROR_NO_MORE_FILES as i32) {
                Ok(true)
            } else {
                Err(e)
            };
        }
        // SAFETY: the system wrote records into `raw`; viewed as bytes, same allocation.
        let bytes = unsafe { std::slice::from_raw_parts(raw.as_ptr().cast::<u8>(), raw.len() * 8) };
        let name_at = std::mem::offset_of!(FILE_ID_BOTH_DIR_INFO, FileName);
        let mut at = 0usize;
        let mut units: Vec<u16> = Vec::new();
        loop {
            let rec = &bytes[at..];
            if rec.len() < name_at {
                break;
            }
            // SAFETY: a record starts at `at` (8-byte aligned, as the system aligns them) and
            // its fixed part lies within the buffer (checked above).
            let info = unsafe { &*rec.as_ptr().cast::<FILE_ID_BOTH_DIR_INFO>() };
            let len = info.FileNameLength as usize;
            let name_bytes = rec.get(name_at..name_at + len).unwrap_or(&[]);
            units.clear();
            units.extend(
                name_bytes
                    .chunks_exact(2)
                    .map(|c| u16::from_le_bytes([c[0], c[1]])),
            );
            let name = OsString::from_wide(&units).into_encoded_bytes();
            if !is_dot_or_dotdot(&name) && !name.is_empty() && !name.contains(&0) {
                let attributes = info.FileAttributes;
                // For a reparse point, EaSize holds its tag (the directory read says so
                // instead of the size of extended attributes, which a reparse point has none).
                let tag = if attributes & FILE_ATTRIBUTE_REPARSE_POINT != 0 {
                    info.EaSize
                } else {
                    0
                };
                let mut d_type = kind_of(attributes, tag).dtype();
                if attributes & FILE_ATTRIBUTE_HIDDEN != 0 {
                    d_type |= HIDDEN_MARK;
                }
                push_record(buf, info.FileId as u64, d_type, &name);
            }
            if info.NextEntryOffset == 0 {
                break;
            }
            at += info.NextEntryOffset as usize;
        }
        Ok(false)
    })
}

/// Appends one `linux_dirent64` record (`d_ino`, `d_off` 0, `d_reclen`, `d_type`, the name
/// and its NUL, padded to 8 bytes) to `buf`.
fn push_record(buf: &mut Vec<u8>, ino: u64, d_type: u8, name: &[u8]) {
    let reclen = (19 + name.len() + 1).next_multiple_of(8);
    let start = buf.len();
    buf.resize(start + reclen, 0);
    let rec = &mut buf[start..];
    rec[0..8].copy_from_slice(&ino.to_ne_bytes());
    rec[16..18].copy_from_slice(&(reclen as u16).to_ne_bytes());
    rec[18] = d_type;
    rec[19..19 + name.len()].copy_from_slice(name);
}

/// Reads a small file (an ignore file, a `.git` link) by path: only a regular file, at most
/// `limit` bytes (see the Unix reader's `read_small_file`). A pipe is taken when
/// `accept_pipe`. A directory gives "is a directory", so callers can treat it like an absent
/// file.
pub fn read_small_file(path: &[u8], limit: u64, accept_pipe: bool) -> io::Result<Vec<u8>> {
    let p = super::native::os_path(if path.is_empty() { b"." } else { path });
    let meta = std::fs::metadata(&p)?;
    if meta.is_dir() {
        return Err(Fault::IsADirectory.error());
    }
    let file = std::fs::File::open(&p)?;
    read_opened(file, limit, accept_pipe)
}

/// The error a refused file gives (see [`read_small_file`]).
pub fn not_regular() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, "not a regular file")
}

fn check_small_file_kind(kind: Kind, attributes: u32, _accept_pipe: bool) -> io::Result<()> {
    match kind {
        Kind::Dir => Err(Fault::IsADirectory.error()),
        Kind::File if attributes & FILE_ATTRIBUTE_DIRECTORY == 0 => Ok(()),
        _ => Err(not_regular()),
    }
}

/// Reads what `file` holds, up to `limit` bytes.
fn read_opened(file: std::fs::File, limit: u64, accept_pipe: bool) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(Fault::IsADirectory.error());
    }
    if !meta.is_file() && !accept_pipe {
        return Err(not_regular());
    }
    let mut bytes = Vec::new();
    (&file)
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!("larger than {} MiB", limit >> 20),
        ));
    }
    Ok(bytes)
}

/// The metadata of `path` (a link's own without `follow`): for search roots, and wherever a
/// walk has a path and no handle (the walker-crate methods, the loop check under `-L`, the
/// `--mpi` rebuild).
pub fn stat_path(path: &[u8], follow: bool) -> io::Result<Stat> {
    raw_stat_path(path, follow).map(|st| st.stat)
}

/// The metadata of `path`, all of it.
pub fn raw_stat_path(path: &[u8], follow: bool) -> io::Result<FullStat> {
    let h = open_by_path(&verbatim(path)?, FILE_READ_ATTRIBUTES | SYNCHRONIZE, follow)?;
    // SAFETY: the handle was just opened and is owned by nothing else.
    let _owned = unsafe { OwnedHandle::from_raw_handle(h) };
    Info::of(h).map(|i| i.full_stat())
}

/// The metadata of `path` itself, not following a link, as std reads it by path.
pub fn own_stat(path: &[u8]) -> Option<Stat> {
    let md = std::fs::symlink_metadata(super::native::os_path(path)).ok()?;
    Some(Stat::from_metadata(&md))
}

/// Whether `path` lives on a network share (a UNC path, or a drive mapped to one): reads in
/// flight, not cores, bound the speed there.
pub fn is_slow_filesystem(path: &[u8]) -> bool {
    use windows_sys::Win32::Storage::FileSystem::GetDriveTypeW;
    const DRIVE_REMOTE: u32 = 4;
    let Ok(full) = verbatim(path) else {
        return false;
    };
    let text = String::from_utf16_lossy(&full);
    if text.starts_with("\\\\?\\UNC\\") {
        return true;
    }
    // "\\?\C:\" -> "C:\"
    let Some(drive) = text.get(4..7) else {
        return false;
    };
    let root: Vec<u16> = drive.encode_utf16().chain([0]).collect();
    // SAFETY: a NUL-terminated root path.
    unsafe { GetDriveTypeW(root.as_ptr()) == DRIVE_REMOTE }
}

/// Linux's `statfs` magic number of the file system `path` lives on (what callers compare),
/// from the name Windows gives it; `None` when it cannot be asked or has no such number.
pub fn fs_magic(path: &[u8]) -> Option<i64> {
    Dir::open_path(path).ok()?.fs_magic()
}

/// Whether opening or reading the directory at `path` failed because it is gone (removed
/// since its parent was listed).
pub fn is_gone(_path: &[u8], err: &io::Error) -> bool {
    Fault::NotFound.is(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_count_from_1970() {
        let ft = windows_sys::Win32::Foundation::FILETIME {
            dwLowDateTime: (116_444_736_000_000_000u64 + 15) as u32,
            dwHighDateTime: ((116_444_736_000_000_000u64 + 15) >> 32) as u32,
        };
        assert_eq!(unix_time(&ft), (0, 1500));
    }

    #[test]
    fn links_are_reparse_points_that_name_another_file() {
        assert_eq!(kind_of(FILE_ATTRIBUTE_DIRECTORY, 0), Kind::Dir);
        // A junction (IO_REPARSE_TAG_MOUNT_POINT) and a symbolic link.
        let reparse = FILE_ATTRIBUTE_REPARSE_POINT | FILE_ATTRIBUTE_DIRECTORY;
        assert_eq!(kind_of(reparse, 0xA000_0003), Kind::Symlink);
        assert_eq!(
            kind_of(FILE_ATTRIBUTE_REPARSE_POINT, 0xA000_000C),
            Kind::Symlink
        );
        // Wine's Unix link to a directory: a directory, as std says.
        assert_eq!(kind_of(reparse, 0), Kind::Dir);
        // A reparse point that is no link (a deduplicated file): what it holds.
        assert_eq!(
            kind_of(FILE_ATTRIBUTE_REPARSE_POINT, 0x8000_0013),
            Kind::File
        );
        assert_eq!(mode_of(Kind::File, true), 0o100_444);
    }

    #[test]
    fn a_directory_is_read_with_kinds_and_hidden_marks() {
        let tmp = std::env::temp_dir().join(format!("ffind-win-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        std::fs::create_dir_all(tmp.join("sub")).unwrap();
        std::fs::write(tmp.join("file"), b"x").unwrap();
        let dir = Dir::open_path(tmp.as_os_str().as_encoded_bytes()).unwrap();
        let mut buf = Vec::new();
        while !fill(&mut buf, &dir, 65536).unwrap() {}
        let bytes: Vec<u8> = buf.iter().flat_map(|w| w.to_ne_bytes()).collect();
        let mut got: Vec<(Vec<u8>, Kind)> = super::super::dirent::DirentIter {
            buf: &bytes,
            dot_only: false,
        }
        .map(|e| (e.name.to_bytes().to_vec(), e.kind))
        .collect();
        got.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(
            got,
            [(b"file".to_vec(), Kind::File), (b"sub".to_vec(), Kind::Dir)]
        );
        let sub = dir.open_child(c"sub", false).unwrap();
        assert_eq!(sub.stat().unwrap().kind(), Kind::Dir);
        assert!(dir.open_child(c"file", false).is_err());
        assert_eq!(dir.stat_at(c"file", false).unwrap().size, 1);
        drop((sub, dir));
        std::fs::remove_dir_all(&tmp).unwrap();
    }
}
