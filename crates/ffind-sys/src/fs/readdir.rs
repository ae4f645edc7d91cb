//! Reading a directory the POSIX way (macOS, the BSDs, and Linux built with `--features
//! portable`): the C library's `readdir` on a stream of a duplicate of the directory's
//! descriptor (`stream.rs`), its entries copied into the [`super::listing::Listing`]'s buffer as
//! the same records the Linux reader's `getdents64` fills (`linux_dirent64`'s layout), so that
//! both are walked by one [`super::dirent::DirentIter`] and the walk above sees one `Listing`.
//!
//! The C library reads the directory in its own chunks (glibc and FreeBSD's `getdents`,
//! macOS's `getdirentries64`); the listing takes about 64 KiB of records at a time, and knows
//! the end exactly (`readdir` says it), so that most directories are read whole at once.

use std::ffi::CStr;
use std::io;
use std::os::fd::RawFd;

use super::dir::Dir;
use super::stream::Stream;

/// A directory being read: the stream, and the descriptor whose duplicate it reads (the walk
/// keeps that one open for the subdirectories).
#[derive(Debug)]
pub(super) struct Reading {
    of: RawFd,
    stream: Stream,
}

/// Copies `dir`'s next entries into `buf` as records, until `chunk` bytes have been added or
/// the directory ends; true at its end. `reading` holds the stream from one call to the next
/// (a new one is made for a directory it does not read), and is emptied at the end or on an
/// error.
pub(super) fn fill(
    buf: &mut Vec<u8>,
    reading: &mut Option<Reading>,
    dir: &Dir,
    chunk: usize,
) -> io::Result<bool> {
    let stream = match reading {
        Some(r) if r.of == dir.fd => &mut r.stream,
        _ => {
            let stream = Stream::new(dir.duplicate()?.into_raw())?;
            &mut reading.insert(Reading { of: dir.fd, stream }).stream
        }
    };
    let start = buf.len();
    loop {
        match stream.next_entry() {
            Ok(Some((name, d_type, ino))) => {
                push_record(buf, name, d_type, ino);
                if buf.len() - start >= chunk {
                    return Ok(false);
                }
            }
            Ok(None) => {
                *reading = None;
                return Ok(true);
            }
            Err(e) => {
                *reading = None;
                return Err(e);
            }
        }
    }
}

/// Appends one `linux_dirent64` record: d_ino (u64), d_off (i64, unused: 0), d_reclen (u16),
/// d_type (u8), the name and its NUL, zeros to the next multiple of 8.
fn push_record(buf: &mut Vec<u8>, name: &CStr, d_type: u8, ino: u64) {
    let name = name.to_bytes_with_nul();
    let reclen = (19 + name.len()).next_multiple_of(8);
    let start = buf.len();
    buf.resize(start + reclen, 0);
    let record = &mut buf[start..];
    record[0..8].copy_from_slice(&ino.to_ne_bytes());
    // A name is at most 255 bytes (765 on macOS, in UTF-8), so the length fits.
    record[16..18].copy_from_slice(&(reclen as u16).to_ne_bytes());
    record[18] = d_type;
    record[19..19 + name.len()].copy_from_slice(name);
}

#[cfg(test)]
mod tests {
    use super::super::dirent::DirentIter;
    use super::super::kind::Kind;
    use super::*;
    use std::os::unix::ffi::OsStrExt;

    #[test]
    fn records_are_read_back_as_written() {
        let mut buf = Vec::new();
        for (name, ino) in [(c"a", 1), (c".gitignore", 2), (c"a-name-of-many-bytes", 3)] {
            push_record(&mut buf, name, libc::DT_REG, ino);
        }
        let read: Vec<_> = DirentIter {
            buf: &buf,
            dot_only: false,
        }
        .map(|e| (e.name.to_bytes().to_vec(), e.kind, e.ino))
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
    fn the_directory_s_own_descriptor_stays_open_and_unmoved() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir(tmp.path().join("only")).unwrap();
        let dir = Dir::open_path(tmp.path().as_os_str().as_bytes()).unwrap();
        let (mut buf, mut reading) = (Vec::new(), None);
        assert!(fill(&mut buf, &mut reading, &dir, 1 << 16).unwrap());
        assert!(reading.is_none(), "the stream is closed at the end");
        let names: Vec<_> = DirentIter {
            buf: &buf,
            dot_only: false,
        }
        .map(|e| e.name.to_owned())
        .filter(|n| n.to_bytes() != b"." && n.to_bytes() != b"..")
        .collect();
        assert_eq!(names, [c"only".to_owned()]);
        // The walk opens the subdirectories relative to the descriptor after the listing.
        assert!(dir.open_child(c"only", false).is_ok());
    }
}
