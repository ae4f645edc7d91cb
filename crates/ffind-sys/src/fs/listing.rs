//! Reading a directory into a reused buffer ([`Listing`]) as `linux_dirent64` records, walked
//! without an allocation per entry (names are borrowed `&CStr`s, measured 8 bytes at a time).
//! Every byte a read returns is kept, whatever the records' alignment: the kernel pads them to
//! 8 bytes, but qemu-user gives an i386 guest records padded to 4 (the i386 ABI's alignment of
//! a u64), and the records are parsed with byte reads.
//! On Linux the records are `getdents64`'s own, and the end of a directory is seen in the last
//! chunk where the file system marks it, sparing the call that would return 0. On macOS and the
//! BSDs, and on Linux built with `--features portable`, they are copied from the C library's
//! `readdir` (`readdir.rs`), which says the end itself.

use std::io;

use super::dir::Dir;
#[cfg(all(target_os = "linux", not(feature = "portable")))]
use super::dirent::getdents_raw;
use super::dirent::{is_dot_or_dotdot, DirentIter, Listed};

/// Bytes read at a time (by `getdents64` call, or copied from `readdir`): 64 KiB, as the floor
/// does; it holds ~2,000 typical entries, so most directories take one chunk.
const CHUNK: usize = 64 * 1024;

/// Descriptors a directory being read takes: its own.
#[cfg(all(target_os = "linux", not(feature = "portable")))]
pub const FDS_PER_READ: usize = 1;

/// Descriptors a directory being read takes: its own, and the duplicate its stream reads
/// (held until the directory ends).
#[cfg(all(unix, any(not(target_os = "linux"), feature = "portable")))]
pub const FDS_PER_READ: usize = 2;

/// Handles a directory being read takes: its own (Windows reads the handle itself).
#[cfg(windows)]
pub const FDS_PER_READ: usize = 1;

/// A reusable buffer holding one directory's `linux_dirent64` records.
#[derive(Debug, Default)]
pub struct Listing {
    /// The records, byte for byte as read (no alignment assumed); its length is what has
    /// been written.
    buf: Vec<u8>,
    /// The last chunk read ended the directory (`ends_directory` saw its marker, or `readdir` said
    /// so): no call is needed to hear the 0 that would follow.
    ended: bool,
    /// The stream of the directory being read, and the descriptor it duplicates.
    #[cfg(all(unix, any(not(target_os = "linux"), feature = "portable")))]
    stream: Option<super::readdir::Reading>,
}

impl Listing {
    /// One `getdents64` into the buffer after what it holds; returns the bytes read.
    #[cfg(all(target_os = "linux", not(feature = "portable")))]
    fn fill(&mut self, dir: &Dir) -> io::Result<usize> {
        self.fill_from(|at, len| getdents_raw(dir.fd, at, len))
    }

    /// One read of records by `read` (given where to write and how many bytes it may) into
    /// the buffer after what it holds; returns the bytes read.
    #[cfg(all(target_os = "linux", not(feature = "portable")))]
    fn fill_from(
        &mut self,
        read: impl FnOnce(*mut u8, usize) -> io::Result<usize>,
    ) -> io::Result<usize> {
        if self.ended {
            return Ok(0);
        }
        self.buf.reserve(CHUNK);
        let start = self.buf.len();
        let spare = self.buf.spare_capacity_mut();
        let offered = spare.len();
        let n = read(spare.as_mut_ptr().cast::<u8>(), offered)?;
        // Not a multiple of 8 where records are padded to 4 (qemu-user's i386 guests): the
        // last record's tail is as much a part of it as the rest.
        assert!(n <= offered, "a read past the space offered");
        // SAFETY: the read initialized the `n` bytes it reported (no more than offered), right
        // after the `len()` initialized bytes, within capacity.
        unsafe { self.buf.set_len(start + n) };
        self.ended = n == 0 || ends_directory(&self.buf[start..], offered);
        Ok(n)
    }

    /// One batch of records read from the directory's handle (`windows.rs`) after what the
    /// buffer holds; returns the bytes added.
    #[cfg(windows)]
    fn fill(&mut self, dir: &Dir) -> io::Result<usize> {
        if self.ended {
            return Ok(0);
        }
        let start = self.buf.len();
        self.ended = super::windows::fill(&mut self.buf, dir, CHUNK)?;
        Ok(self.buf.len() - start)
    }

    /// Up to [`CHUNK`] bytes of records copied from `readdir` after what the buffer holds;
    /// returns the bytes added.
    #[cfg(all(unix, any(not(target_os = "linux"), feature = "portable")))]
    fn fill(&mut self, dir: &Dir) -> io::Result<usize> {
        if self.ended {
            return Ok(0);
        }
        let start = self.buf.len();
        self.ended = super::readdir::fill(&mut self.buf, &mut self.stream, dir, CHUNK)?;
        Ok(self.buf.len() - start)
    }

    /// Starts reading `dir`: its first 64 KiB chunk and, when the directory did not end within
    /// it though the chunk was less than half full (a file system that does not mark the end),
    /// one more call. True when the buffer holds the whole directory (the common case: one
    /// `getdents64` call where the file system marks the end, else two, as reading it to the
    /// end takes); false when more follows, for [`Listing::read_next`] to stream. A first
    /// chunk more than half full that did not end the directory is a big one: its entries are
    /// judged from this chunk on, without reading a second first (a huge directory's first
    /// results come one `getdents64` sooner, which on ext4's hashed directories is most of the
    /// wait).
    pub fn read_start(&mut self, dir: &Dir) -> io::Result<bool> {
        self.begin();
        let n = self.fill(dir)?;
        if !self.ended && n <= CHUNK / 2 {
            self.fill(dir)?;
        }
        Ok(self.ended)
    }

    /// Starts streaming a new directory with [`Listing::read_next`]: forgets what the last
    /// one held, and that it ended.
    pub fn begin(&mut self) {
        self.buf.clear();
        self.ended = false;
        #[cfg(all(unix, any(not(target_os = "linux"), feature = "portable")))]
        {
            self.stream = None;
        }
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

    /// The entries read, without `.` and `..`.
    pub fn entries(&self) -> impl Iterator<Item = Listed<'_>> + '_ {
        DirentIter {
            buf: &self.buf,
            dot_only: false,
        }
        .filter(|e| !is_dot_or_dotdot(e.name.to_bytes()))
    }

    /// The entries whose names start with `.` (ignore files, `.git`), without `.` and `..`:
    /// found by one byte per entry, no name measured for the others.
    pub fn dot_entries(&self) -> impl Iterator<Item = Listed<'_>> + '_ {
        DirentIter {
            buf: &self.buf,
            dot_only: true,
        }
        .filter(|e| !is_dot_or_dotdot(e.name.to_bytes()))
    }

    /// Bytes the buffer holds now (the walk shrinks oversized buffers after a huge directory).
    pub fn capacity_bytes(&self) -> usize {
        self.buf.capacity()
    }

    /// Frees the buffer (after a huge directory, to keep memory bounded across workers).
    pub fn release(&mut self) {
        self.buf = Vec::new();
    }
}

/// The largest `linux_dirent64` record: 19 bytes of header, a 255-byte name and its NUL,
/// padded to 8.
#[cfg(all(target_os = "linux", not(feature = "portable")))]
const MAX_RECORD: usize = 280;

/// The positions ext4, XFS, btrfs, tmpfs and sysfs give after a directory's last entry
/// (`EXT4_HTREE_EOF_64BIT`, and the 32-bit `EXT4_HTREE_EOF_32BIT`, `XFS_DIR2_MAX_DATAPTR`,
/// btrfs's and `DIR_OFFSET_EOD`'s `INT_MAX`). ext4's name hash is made to avoid them, so no
/// entry there has one as its successor's position.
#[cfg(all(target_os = "linux", not(feature = "portable")))]
const END_POSITIONS: [i64; 2] = [i64::MAX, i32::MAX as i64];

/// Whether a chunk of `offered` bytes returned as `chunk` ends its directory, so that the
/// next `getdents64` would return 0: the kernel stopped with room for another record to
/// spare (it was not full), and the position after the last record is one of the
/// file systems' end markers. A chunk cut short for any other reason (a pending signal, an
/// NFS reply still on its way) ends at a real position, and is followed by another call.
/// This spares one of the two calls most directories cost, as the floor makes them.
#[cfg(all(target_os = "linux", not(feature = "portable")))]
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

#[cfg(test)]
mod tests {
    use super::super::dirent::nul_at;
    use super::super::kind::Kind;
    use super::*;

    /// One `linux_dirent64` record, padded as the kernel pads it, with garbage after the NUL.
    fn record(name: &[u8], next_pos: i64) -> Vec<u8> {
        let reclen = (19 + name.len() + 1).div_ceil(8) * 8;
        let mut r = vec![0xAA; reclen];
        r[0..8].copy_from_slice(&7u64.to_ne_bytes());
        r[8..16].copy_from_slice(&next_pos.to_ne_bytes());
        r[16..18].copy_from_slice(&(reclen as u16).to_ne_bytes());
        r[18] = Kind::File.dtype();
        r[19..19 + name.len()].copy_from_slice(name);
        r[19 + name.len()] = 0;
        r
    }

    #[test]
    #[cfg(all(target_os = "linux", not(feature = "portable")))]
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

    /// One `linux_dirent64` record as qemu-user gives an i386 guest: padded to 4 bytes (the
    /// i386 ABI's alignment of a u64), not 8.
    #[cfg(all(target_os = "linux", not(feature = "portable")))]
    fn record_aligned_4(name: &[u8], next_pos: i64) -> Vec<u8> {
        let mut r = record(name, next_pos);
        let reclen = (19 + name.len() + 1).div_ceil(4) * 4;
        r.truncate(reclen);
        r[16..18].copy_from_slice(&(reclen as u16).to_ne_bytes());
        r
    }

    /// A listing filled by `chunks` in turn, as `getdents64` would return them, then 0.
    #[cfg(all(target_os = "linux", not(feature = "portable")))]
    fn listing_of(chunks: &[Vec<u8>], all: bool) -> Vec<Vec<u8>> {
        let mut listing = Listing::default();
        listing.begin();
        let mut chunks = chunks.iter();
        let mut names = Vec::new();
        loop {
            if !all {
                listing.buf.clear();
            }
            let n = listing
                .fill_from(|at, len| {
                    let chunk = chunks.next().map_or(&[][..], |c| &c[..]);
                    assert!(chunk.len() <= len);
                    // SAFETY: `len` writable bytes at `at`, and the chunk is no longer.
                    unsafe { std::ptr::copy_nonoverlapping(chunk.as_ptr(), at, chunk.len()) };
                    Ok(chunk.len())
                })
                .unwrap();
            if !all {
                names.extend(listing.entries().map(|e| e.name.to_bytes().to_vec()));
            }
            if n == 0 {
                break;
            }
        }
        if all {
            names.extend(listing.entries().map(|e| e.name.to_bytes().to_vec()));
        }
        names
    }

    #[test]
    #[cfg(all(target_os = "linux", not(feature = "portable")))]
    fn records_aligned_to_4_bytes_are_kept_to_the_last_byte() {
        // qemu-user's getdents64 for an i386 guest: "big" takes 24 bytes, "small" 28, so the
        // chunk is 52 bytes, not a multiple of 8.
        let mut one = record_aligned_4(b"big", 1);
        one.extend(record_aligned_4(b"small", 2));
        assert_eq!(one.len(), 52);
        let want = [b"big".to_vec(), b"small".to_vec()];
        assert_eq!(listing_of(&[one.clone()], false), want, "streamed");
        assert_eq!(listing_of(&[one.clone()], true), want, "read whole");
        // A second chunk follows the first's last byte, wherever that ends.
        let mut two = record_aligned_4(b"c", 3);
        two.extend(record_aligned_4(b"d-name", 4));
        let want = [b"big", &b"small"[..], b"c", b"d-name"].map(<[u8]>::to_vec);
        assert_eq!(listing_of(&[one.clone(), two.clone()], true), want);
        assert_eq!(listing_of(&[one, two], false), want);
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
            let found: Vec<_> = iter.map(|e| e.name.to_bytes().to_vec()).collect();
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
        .map(|e| e.name.to_bytes().to_vec())
        .collect();
        assert_eq!(dots, [&b"."[..], b"..", b".gitignore", b".git"]);
    }

    #[test]
    fn a_listing_read_in_one_chunk_needs_no_second_call_to_end() {
        let tmp = tempfile::tempdir().unwrap();
        for i in 0..50 {
            std::fs::write(tmp.path().join(format!("f{i}")), "").unwrap();
        }
        let dir = Dir::open_path(tmp.path().as_os_str().as_encoded_bytes()).unwrap();
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
        let empty = Dir::open_path(empty.path().as_os_str().as_encoded_bytes()).unwrap();
        let dir = Dir::open_path(tmp.path().as_os_str().as_encoded_bytes()).unwrap();
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
        let dir = Dir::open_path(tmp.path().as_os_str().as_encoded_bytes()).unwrap();
        let mut listing = Listing::default();
        assert!(
            !listing.read_start(&dir).unwrap(),
            "more than one full chunk"
        );
        let mut entries: Vec<_> = listing
            .entries()
            .map(|e| (e.name.to_owned(), e.kind))
            .collect();
        while listing.read_next(&dir).unwrap() {
            entries.extend(listing.entries().map(|e| (e.name.to_owned(), e.kind)));
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
        let dir = Dir::open_path(small.path().as_os_str().as_encoded_bytes()).unwrap();
        assert!(listing.read_start(&dir).unwrap(), "ends within one chunk");
        assert_eq!(listing.entries().count(), 1);
        assert!(dir.exists_at("only"));
        assert!(!dir.exists_at("missing"));
    }
}
