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

    /// The kind an `st_mode` describes (`mode_t` is 16 bits on macOS and the BSDs, 32 on
    /// Linux: ffind keeps it in 32).
    #[allow(clippy::unnecessary_cast)]
    pub fn from_mode(mode: u32) -> Kind {
        const FMT: u32 = libc::S_IFMT as u32;
        const REG: u32 = libc::S_IFREG as u32;
        const DIR: u32 = libc::S_IFDIR as u32;
        const LNK: u32 = libc::S_IFLNK as u32;
        const FIFO: u32 = libc::S_IFIFO as u32;
        const SOCK: u32 = libc::S_IFSOCK as u32;
        const BLK: u32 = libc::S_IFBLK as u32;
        const CHR: u32 = libc::S_IFCHR as u32;
        match mode & FMT {
            REG => Kind::File,
            DIR => Kind::Dir,
            LNK => Kind::Symlink,
            FIFO => Kind::Fifo,
            SOCK => Kind::Socket,
            BLK => Kind::BlockDevice,
            CHR => Kind::CharDevice,
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

/// A directory's [`Stat`] and its change time, which the memo's stamp (`--cache`) reads too.
#[derive(Debug, Clone, Copy)]
pub struct FullStat {
    pub stat: Stat,
    pub ctime: i64,
    pub ctime_nsec: i64,
}

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
#[cfg(not(target_os = "netbsd"))]
#[allow(clippy::unnecessary_cast)]
fn nanoseconds(st: &libc::stat) -> (i64, i64) {
    (st.st_mtime_nsec as i64, st.st_ctime_nsec as i64)
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
    /// Widths differ between systems (`st_mode` is 16 bits on macOS and the BSDs, `st_dev` 32
    /// on macOS): each field is widened to the one ffind keeps.
    #[allow(clippy::unnecessary_cast, clippy::unnecessary_fallible_conversions)]
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
