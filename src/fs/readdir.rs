//! Reading a directory the POSIX way (macOS, the BSDs, and Linux built with `--features
//! portable`): the C library's `readdir` on a stream of the directory's descriptor
//! (`stream.rs`), its entries copied into a reused buffer as the same records the Linux
//! reader's `getdents64` fills (`linux_dirent64`'s layout), so that both are walked by one
//! [`DirentIter`] and the walk above sees one [`Listing`].
//!
//! The C library reads the directory in its own chunks (glibc and FreeBSD's `getdents`,
//! macOS's `getdirentries64`); this one hands the walk about 64 KiB of records at a time, and
//! knows the end exactly (`readdir` says it), so that most directories are read whole in
//! [`Listing::read_start`].

use std::ffi::CStr;
use std::io;
use std::os::fd::RawFd;

use super::dir::Dir;
use super::dirent::{bytemuck_u8, is_dot_or_dotdot, DirentIter};
use super::kind::Kind;
use super::stream::Stream;

/// Bytes of records handed over at a time (a chunk ends with the record that reaches it).
const CHUNK: usize = 64 * 1024;

/// Descriptors a directory being read takes: its own, and the duplicate its stream reads
/// (held until the directory ends).
pub const FDS_PER_READ: usize = 2;

/// A reusable buffer holding one directory's entries, as `linux_dirent64` records.
#[derive(Debug, Default)]
pub struct Listing {
    /// u64 storage keeps every record 8-byte aligned, as [`DirentIter`] expects.
    buf: Vec<u64>,
    /// The directory ended: `readdir` said so.
    ended: bool,
    /// The stream of the directory being read, and the descriptor it reads (a duplicate of
    /// it: the walk keeps the descriptor open for the subdirectories).
    stream: Option<(RawFd, Stream)>,
}

impl Listing {
    /// Up to [`CHUNK`] bytes of records after what the buffer holds; returns the bytes added.
    fn fill(&mut self, dir: &Dir) -> io::Result<usize> {
        if self.ended {
            return Ok(0);
        }
        let stream = match &mut self.stream {
            Some((fd, stream)) if *fd == dir.fd => stream,
            _ => {
                let stream = Stream::new(dir.duplicate()?.into_raw())?;
                &mut self.stream.insert((dir.fd, stream)).1
            }
        };
        let start = self.buf.len();
        loop {
            match stream.next_entry() {
                Ok(Some((name, d_type, ino))) => {
                    push_record(&mut self.buf, name, d_type, ino);
                    if (self.buf.len() - start) * 8 >= CHUNK {
                        break;
                    }
                }
                Ok(None) => {
                    self.ended = true;
                    self.stream = None;
                    break;
                }
                Err(e) => {
                    self.stream = None;
                    return Err(e);
                }
            }
        }
        Ok((self.buf.len() - start) * 8)
    }

    /// Starts reading `dir`: up to 64 KiB of records. True when the buffer holds the whole
    /// directory (most do); false when more follows, for [`Listing::read_next`] to stream.
    pub fn read_start(&mut self, dir: &Dir) -> io::Result<bool> {
        self.begin();
        self.fill(dir)?;
        Ok(self.ended)
    }

    /// Starts streaming a new directory with [`Listing::read_next`]: forgets what the last
    /// one held, and its stream.
    pub fn begin(&mut self) {
        self.buf.clear();
        self.ended = false;
        self.stream = None;
    }

    /// Reads every entry of `dir` into the buffer, replacing what was there.
    pub fn read_all(&mut self, dir: &Dir) -> io::Result<()> {
        self.begin();
        while self.fill(dir)? > 0 {}
        Ok(())
    }

    /// Reads the next chunk of the directory started with [`Listing::read_start`] or
    /// [`Listing::begin`], replacing what was there. False at its end.
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

    /// The entries whose names start with `.`, without `.` and `..`.
    pub fn dot_entries(&self) -> impl Iterator<Item = (&CStr, Kind, u64)> + '_ {
        DirentIter {
            buf: self.bytes(),
            dot_only: true,
        }
        .filter(|(name, _, _)| !is_dot_or_dotdot(name.to_bytes()))
    }

    /// Bytes the buffer holds now.
    pub fn capacity_bytes(&self) -> usize {
        self.buf.capacity() * 8
    }

    /// Frees the buffer.
    pub fn release(&mut self) {
        self.buf = Vec::new();
    }

    /// The records held, as bytes.
    fn bytes(&self) -> &[u8] {
        // SAFETY: initialized u64 storage viewed as bytes, same lifetime and length in bytes.
        unsafe { std::slice::from_raw_parts(self.buf.as_ptr().cast::<u8>(), self.buf.len() * 8) }
    }
}

/// Appends one `linux_dirent64` record: d_ino (u64), d_off (i64, unused: 0), d_reclen (u16),
/// d_type (u8), the name and its NUL, zeros to the next multiple of 8.
fn push_record(buf: &mut Vec<u64>, name: &CStr, d_type: u8, ino: u64) {
    let name = name.to_bytes_with_nul();
    let words = (19 + name.len()).div_ceil(8);
    let start = buf.len();
    buf.resize(start + words, 0);
    let record = bytemuck_u8(&mut buf[start..]);
    record[0..8].copy_from_slice(&ino.to_ne_bytes());
    // A name is at most 255 bytes (765 on macOS, in UTF-8), so the length fits.
    record[16..18].copy_from_slice(&((words * 8) as u16).to_ne_bytes());
    record[18] = d_type;
    record[19..19 + name.len()].copy_from_slice(name);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt;

    #[test]
    fn records_are_read_back_as_written() {
        let mut buf = Vec::new();
        for (name, ino) in [(c"a", 1), (c".gitignore", 2), (c"a-name-of-many-bytes", 3)] {
            push_record(&mut buf, name, libc::DT_REG, ino);
        }
        // SAFETY: u64 storage viewed as bytes.
        let bytes = unsafe { std::slice::from_raw_parts(buf.as_ptr().cast::<u8>(), buf.len() * 8) };
        let read: Vec<_> = DirentIter {
            buf: bytes,
            dot_only: false,
        }
        .map(|(n, k, i)| (n.to_bytes().to_vec(), k, i))
        .collect();
        assert_eq!(
            read,
            [
                (b"a".to_vec(), Kind::File, 1),
                (b".gitignore".to_vec(), Kind::File, 2),
                (b"a-name-of-many-bytes".to_vec(), Kind::File, 3)
            ]
        );
    }

    #[test]
    fn lists_every_entry_of_a_wide_directory_in_chunks() {
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
        assert!(!listing.read_start(&dir).unwrap(), "more than one chunk");
        let mut names: Vec<_> = listing.entries().map(|(n, _, _)| n.to_owned()).collect();
        while listing.read_next(&dir).unwrap() {
            names.extend(listing.entries().map(|(n, _, _)| n.to_owned()));
        }
        assert_eq!(names.len(), 5001);
        names.sort();
        names.dedup();
        assert_eq!(names.len(), 5001, "each entry once");
        let small = tempfile::tempdir().unwrap();
        std::fs::create_dir(small.path().join("only")).unwrap();
        let dir = Dir::open_path(small.path().as_os_str().as_bytes()).unwrap();
        assert!(listing.read_start(&dir).unwrap(), "ends within one chunk");
        let only: Vec<_> = listing
            .entries()
            .map(|(n, k, _)| (n.to_owned(), k))
            .collect();
        assert_eq!(only, [(c"only".to_owned(), Kind::Dir)]);
        // The descriptor stays the walk's: it opens a child after the listing.
        assert!(dir.open_child(c"only", false).is_ok());
    }
}
