//! What an entry is ([`Kind`], from `d_type` or `st_mode`) and what a filter may ask of it
//! ([`Stat`]): the two plain types every floor of ffind shares. No system call here.

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
    /// The kind `getdents64` reported (`d_type`; the values are the same on every system
    /// ffind runs on, and the Windows reader and the memo write them too).
    pub fn from_dtype(d_type: u8) -> Kind {
        match d_type {
            DT_REG => Kind::File,
            DT_DIR => Kind::Dir,
            DT_LNK => Kind::Symlink,
            DT_FIFO => Kind::Fifo,
            DT_SOCK => Kind::Socket,
            DT_BLK => Kind::BlockDevice,
            DT_CHR => Kind::CharDevice,
            _ => Kind::Unknown,
        }
    }

    /// The `d_type` of this kind ([`Kind::from_dtype`]'s inverse).
    pub fn dtype(self) -> u8 {
        match self {
            Kind::File => DT_REG,
            Kind::Dir => DT_DIR,
            Kind::Symlink => DT_LNK,
            Kind::Fifo => DT_FIFO,
            Kind::Socket => DT_SOCK,
            Kind::BlockDevice => DT_BLK,
            Kind::CharDevice => DT_CHR,
            Kind::Unknown => DT_UNKNOWN,
        }
    }

    /// The kind an `st_mode` describes (`mode_t` is 16 bits on macOS and the BSDs, 32 on
    /// Linux: ffind keeps it in 32).
    pub fn from_mode(mode: u32) -> Kind {
        // The `S_IF*` values, the same on every system ffind runs on (and what the Windows
        // reader synthesizes).
        match mode & 0o170_000 {
            0o100_000 => Kind::File,
            0o040_000 => Kind::Dir,
            0o120_000 => Kind::Symlink,
            0o010_000 => Kind::Fifo,
            0o140_000 => Kind::Socket,
            0o060_000 => Kind::BlockDevice,
            0o020_000 => Kind::CharDevice,
            _ => Kind::Unknown,
        }
    }

    /// The kind of a `std::fs::FileType`, for the methods built on walker crates.
    #[cfg(unix)]
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

    /// The kind of a `std::fs::FileType`, for the methods built on walker crates: a link
    /// (symbolic link or junction), a directory or a file.
    #[cfg(windows)]
    pub fn from_file_type(ft: std::fs::FileType) -> Kind {
        if ft.is_symlink() {
            Kind::Symlink
        } else if ft.is_dir() {
            Kind::Dir
        } else {
            Kind::File
        }
    }
}

/// A directory's [`Stat`] and its change time, which the memo's stamp (`--cache`) reads too.
#[derive(Debug, Clone, Copy)]
pub struct FullStat {
    pub stat: Stat,
    pub ctime: i64,
    pub ctime_nsec: i64,
}

#[cfg(unix)]
impl FullStat {
    #[allow(clippy::unnecessary_cast)]
    pub(super) fn from_raw(st: &libc::stat) -> FullStat {
        FullStat {
            stat: Stat::from_raw(st),
            ctime: st.st_ctime as i64,
            ctime_nsec: nanoseconds(st).1,
        }
    }
}

/// The nanoseconds of a `stat`'s mtime and ctime (NetBSD names them apart).
#[cfg(target_os = "netbsd")]
fn nanoseconds(st: &libc::stat) -> (i64, i64) {
    (st.st_mtimensec as i64, st.st_ctimensec as i64)
}

/// The nanoseconds of a `stat`'s mtime and ctime (NetBSD names them apart).
#[cfg(all(unix, not(target_os = "netbsd")))]
#[allow(clippy::unnecessary_cast)]
fn nanoseconds(st: &libc::stat) -> (i64, i64) {
    (st.st_mtime_nsec as i64, st.st_ctime_nsec as i64)
}

/// A Unix mode for an entry on Windows, for `-l` and `--json`: its kind, and permissions as
/// Cygwin and Git for Windows show them (the read-only attribute drops the write bits).
#[cfg_attr(unix, allow(dead_code))]
pub(super) fn mode_of(kind: Kind, read_only: bool) -> u32 {
    let (fmt, perm) = match kind {
        Kind::Dir => (0o040_000, 0o755),
        Kind::Symlink => (0o120_000, 0o777),
        _ => (0o100_000, 0o644),
    };
    let perm = if read_only && kind != Kind::Symlink {
        perm & !0o222
    } else {
        perm
    };
    fmt | perm
}

/// `d_type` values (`DT_*`), the same on Linux, macOS and the BSDs.
const DT_UNKNOWN: u8 = 0;
const DT_FIFO: u8 = 1;
const DT_CHR: u8 = 2;
const DT_DIR: u8 = 4;
const DT_BLK: u8 = 6;
const DT_REG: u8 = 8;
const DT_LNK: u8 = 10;
const DT_SOCK: u8 = 12;

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
    /// Widths differ between systems (`st_mode` is 16 bits on macOS and the BSDs, `st_dev` 32
    /// on macOS; `st_nlink` is 32 bits on i686 and armv7): each field is widened to the one ffind keeps.
    #[cfg(unix)]
    #[allow(
        clippy::unnecessary_cast,
        clippy::unnecessary_fallible_conversions,
        clippy::useless_conversion
    )]
    pub(super) fn from_raw(st: &libc::stat) -> Stat {
        Stat {
            mode: st.st_mode as u32,
            size: st.st_size as u64,
            mtime: st.st_mtime as i64,
            mtime_nsec: nanoseconds(st).0,
            uid: st.st_uid,
            gid: st.st_gid,
            dev: st.st_dev as u64,
            ino: st.st_ino as u64,
            nlink: u32::try_from(st.st_nlink).unwrap_or(u32::MAX),
        }
    }

    /// The kind of file this is.
    pub fn kind(&self) -> Kind {
        Kind::from_mode(self.mode)
    }

    /// The metadata std reports, converted (for the walker-crate methods).
    #[cfg(unix)]
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

    /// The metadata std reports, converted (for the walker-crate methods): what the directory
    /// read gave (no volume serial, file index or link count: std asks for those only of an
    /// open handle, so they are 0 here, and the walk asks the handle where it needs them).
    #[cfg(windows)]
    pub fn from_metadata(md: &std::fs::Metadata) -> Stat {
        use std::os::windows::fs::MetadataExt;
        let kind = Kind::from_file_type(md.file_type());
        let modified = md
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .unwrap_or_default();
        Stat {
            mode: mode_of(kind, md.file_attributes() & 0x1 != 0),
            size: md.len(),
            mtime: i64::try_from(modified.as_secs()).unwrap_or(i64::MAX),
            mtime_nsec: i64::from(modified.subsec_nanos()),
            uid: 0,
            gid: 0,
            dev: 0,
            ino: 0,
            nlink: 1,
        }
    }
}
