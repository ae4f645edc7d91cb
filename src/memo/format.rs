//! The bytes of a memo file (docs/CACHE.md, "The file"): a header, one record per directory
//! (its stamp, when it was listed and where the clock then stood against the time since boot,
//! its path below the search root, its entries' kinds and raw names), and an index of the
//! records by a hash of their paths, each part checked by a CRC-32; then the journal: segments
//! appended by later searches, each the records of the directories one search read and their
//! own index ([`segments`]), a newer record of a path standing for the older ones. Little-endian throughout. Nothing here touches the file
//! system.

use std::ffi::CStr;
use std::hash::Hasher;
use std::ops::Range;

use crate::filter::rules::FxHasher;
use crate::fs::packed::{self, Packed};
use crate::fs::{BootClock, ClockReading, FullStat, Kind};

/// The first bytes of every memo file.
pub const MAGIC: [u8; 8] = *b"FFINDMEM";

/// The format's version: a file of another is ignored (and rewritten). 2: the journal. 3:
/// each record's clock against the time since boot (a step back of the clock is seen), and
/// the files of each reader in a directory of its own. 4: the index hashes a path a word at a
/// time ([`index_hash`]). 5: a record may carry its directory's remembered rules after its
/// entries (`rules.rs`).
pub const VERSION: u32 = 5;

/// The first bytes of every journal segment.
const SEGMENT_MAGIC: [u8; 8] = *b"FFINDJNL";

/// A journal segment's head: magic, its length (head, records and index), its record count,
/// where its index starts (from the segment's start), the index's CRC, the head's CRC.
const SEGMENT_HEAD: usize = 40;

/// The fixed part of the header: magic, version, header CRC, credentials, record count,
/// where the index starts, the index's CRC, the root's length.
const HEADER: usize = 48;

/// The fixed part of a record (see [`Record`]).
const RECORD: usize = 112;

/// One index entry: the path's hash and the record's offset.
const INDEX_ENTRY: usize = 16;

/// What identifies a directory's state: if any of it differs, its listing is read again.
/// Creating, removing or renaming an entry changes the directory's mtime and ctime (POSIX
/// requires it of every file system ffind trusts); the rest catches a directory replaced by
/// another (device, inode), a permission change (mode, owner: ctime too), and a mount or
/// unmount on it (device, inode).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stamp {
    pub dev: u64,
    pub ino: u64,
    pub mtime: (i64, u32),
    pub ctime: (i64, u32),
    pub size: u64,
    pub mode: u32,
    pub nlink: u32,
    pub uid: u32,
    pub gid: u32,
}

impl Stamp {
    /// The stamp of a directory's `fstat`.
    pub fn of_raw(st: &FullStat) -> Stamp {
        let FullStat { stat, .. } = st;
        Stamp {
            dev: stat.dev,
            ino: stat.ino,
            mtime: (stat.mtime, nsec(stat.mtime_nsec)),
            ctime: (st.ctime, nsec(st.ctime_nsec)),
            size: stat.size,
            mode: stat.mode,
            nlink: stat.nlink,
            uid: stat.uid,
            gid: stat.gid,
        }
    }

    /// The later of its mtime and ctime.
    pub fn changed(&self) -> (i64, u32) {
        self.mtime.max(self.ctime)
    }
}

fn nsec(ns: i64) -> u32 {
    u32::try_from(ns).unwrap_or(0)
}

/// The one-byte code of a kind in a record: its `d_type`.
fn kind_code(kind: Kind) -> u8 {
    kind.dtype()
}

/// The hash of a record's path in the index: the Fx hash the ignore rules' tables use
/// ([`FxHasher`]) of its length and its bytes, eight at a time, folded by one wide multiply so
/// that every byte moves the high bits, which place the path in the index
/// ([`Index::offsets_of`]). A byte at a time, as [`path_hash`], was a chain of one multiply per
/// byte of every path a search looked up.
pub fn index_hash(rel: &[u8]) -> u64 {
    let mut h = FxHasher::default();
    h.write_usize(rel.len());
    h.write(rel);
    h.finish()
}

/// A 64-bit FNV-1a hash of a path: what names a tree's memo file and a reader's directory.
pub fn path_hash(rel: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in rel {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A record being written: the directory's stamp and listing time, then its entries.
#[derive(Debug)]
pub struct NewRecord {
    bytes: Vec<u8>,
    count: u32,
    /// A name that cannot be stored (longer than 255 bytes) was pushed.
    refused: bool,
}

impl NewRecord {
    /// Starts the record of the directory `rel` (below its search root), stamped `stamp`,
    /// whose listing began at `listed`.
    pub fn new(rel: &[u8], stamp: &Stamp, listed: ClockReading) -> NewRecord {
        let mut bytes = Vec::with_capacity(RECORD + rel.len() + 256);
        bytes.resize(RECORD, 0);
        let mut record = NewRecord {
            bytes,
            count: 0,
            refused: false,
        };
        record.stamp(stamp, listed);
        let rel_len = u32::try_from(rel.len()).unwrap_or(u32::MAX);
        record.bytes[84..88].copy_from_slice(&rel_len.to_le_bytes());
        record.bytes.extend_from_slice(rel);
        record
    }

    /// Sets the record's stamp and the time its listing began (bytes 8 to 84, and the clock's
    /// boot and offset 96 to 112; the length, CRC and entry count are filled by `finish`).
    pub fn stamp(&mut self, stamp: &Stamp, listed: ClockReading) {
        let (boot, offset) = listed.boot.map_or((0, 0), |b| (b.boot, b.offset));
        self.bytes[96..104].copy_from_slice(&boot.to_le_bytes());
        self.bytes[104..112].copy_from_slice(&offset.to_le_bytes());
        let listed = listed.real;
        let mut at = 8;
        let mut put = |v: &[u8]| {
            self.bytes[at..at + v.len()].copy_from_slice(v);
            at += v.len();
        };
        for v in [stamp.dev, stamp.ino] {
            put(&v.to_le_bytes());
        }
        for v in [stamp.mtime.0, stamp.ctime.0] {
            put(&v.to_le_bytes());
        }
        put(&stamp.size.to_le_bytes());
        put(&listed.0.to_le_bytes());
        for v in [
            stamp.mtime.1,
            stamp.ctime.1,
            listed.1,
            stamp.mode,
            stamp.nlink,
            stamp.uid,
            stamp.gid,
        ] {
            put(&v.to_le_bytes());
        }
        debug_assert_eq!(at, 84);
    }

    /// Adds an entry: its kind, its name's length, its name and a NUL (names are at most 255
    /// bytes on Linux; a longer one cannot be stored, and the record is refused by `finish`).
    pub fn push(&mut self, name: &CStr, kind: Kind) {
        if !packed::push(&mut self.bytes, kind_code(kind), name) {
            self.refused = true;
            return;
        }
        self.count = self.count.saturating_add(1);
    }

    /// The finished record's bytes, its entries followed by `rules` (the directory's
    /// remembered rules, `rules.rs`, or nothing), or `None` when it cannot be stored (a name
    /// longer than 255 bytes, or a record over 4 GiB).
    pub fn finish(mut self, rules: &[u8]) -> Option<Vec<u8>> {
        if self.refused || self.count == u32::MAX {
            return None;
        }
        self.bytes[88..92].copy_from_slice(&self.count.to_le_bytes());
        self.bytes.extend_from_slice(rules);
        sealed(self.bytes)
    }
}

/// The record `names_end` bytes long at the start of `record` (one served, up to the end of
/// its entries) with `rules` after its entries instead of what it had: its length and CRC
/// made anew. `None` past 4 GiB.
pub fn with_rules(record: &[u8], names_end: usize, rules: &[u8]) -> Option<Vec<u8>> {
    let mut bytes = Vec::with_capacity(names_end + rules.len());
    bytes.extend_from_slice(record.get(..names_end)?);
    bytes.extend_from_slice(rules);
    sealed(bytes)
}

/// A record's bytes with their length and CRC filled in.
fn sealed(mut bytes: Vec<u8>) -> Option<Vec<u8>> {
    let len = u32::try_from(bytes.len()).ok()?;
    bytes[0..4].copy_from_slice(&len.to_le_bytes());
    let crc = crc32fast::hash(&bytes[8..]);
    bytes[4..8].copy_from_slice(&crc.to_le_bytes());
    debug_assert!(Record::parse(&bytes).is_some_and(|r| r.entries().is_some()));
    Some(bytes)
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

fn i64_at(b: &[u8], at: usize) -> i64 {
    i64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// Copies the bytes of the record at `at` in `file` into `out` (what it held before goes), as
/// long as its length says (to be checked by [`Record::parse`]); false when that length does
/// not fit in the file. One buffer serves a thread's every lookup.
pub fn record_at(file: &[u8], at: usize, out: &mut Vec<u8>) -> bool {
    out.clear();
    let bytes = (|| {
        let len = usize::try_from(u32_at(file.get(at..at.checked_add(4)?)?, 0)).ok()?;
        file.get(at..at.checked_add(len)?)
    })();
    bytes.inspect(|b| out.extend_from_slice(b)).is_some()
}

/// A record read from a file, its CRC checked.
#[derive(Debug, Clone, Copy)]
pub struct Record<'a> {
    bytes: &'a [u8],
}

impl<'a> Record<'a> {
    /// The record at the start of `at`, if its length fits and its CRC matches: its entries
    /// are not looked at (each is when asked for, [`Record::entries`], [`Record::names_at`]).
    pub fn parse_head(at: &'a [u8]) -> Option<Record<'a>> {
        if at.len() < RECORD {
            return None;
        }
        let len = usize::try_from(u32_at(at, 0)).ok()?;
        if len < RECORD || len > at.len() {
            return None;
        }
        let bytes = &at[..len];
        if crc32fast::hash(&bytes[8..]) != u32_at(bytes, 4) {
            return None;
        }
        let rel_len = usize::try_from(u32_at(bytes, 84)).ok()?;
        (RECORD + rel_len <= len).then_some(Record { bytes })
    }

    /// The record at the start of `at`, if its length fits, its CRC matches and its entries
    /// are whole ([`Record::entries`]).
    pub fn parse(at: &'a [u8]) -> Option<Record<'a>> {
        Record::parse_head(at).filter(|r| r.entries().is_some())
    }

    /// A record this search built ([`NewRecord::finish`]'s bytes, names as `getdents64` gave
    /// them), or one [`Record::parse`] took before: its head not checked again (its entries
    /// are, when asked for).
    pub fn built(bytes: &'a [u8]) -> Record<'a> {
        debug_assert!(Record::parse_head(bytes).is_some());
        Record { bytes }
    }

    /// All of its bytes, as written.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The directory's stamp when it was listed.
    pub fn stamp(&self) -> Stamp {
        let b = self.bytes;
        Stamp {
            dev: u64_at(b, 8),
            ino: u64_at(b, 16),
            mtime: (i64_at(b, 24), u32_at(b, 56)),
            ctime: (i64_at(b, 32), u32_at(b, 60)),
            size: u64_at(b, 40),
            mode: u32_at(b, 68),
            nlink: u32_at(b, 72),
            uid: u32_at(b, 76),
            gid: u32_at(b, 80),
        }
    }

    /// When its listing began, and where the clock then stood against the time since boot
    /// (a boot of 0: not known).
    pub fn listed(&self) -> ClockReading {
        let boot = u64_at(self.bytes, 96);
        ClockReading {
            real: (i64_at(self.bytes, 48), u32_at(self.bytes, 64)),
            boot: (boot != 0).then(|| BootClock {
                boot,
                offset: i64_at(self.bytes, 104),
            }),
        }
    }

    /// The directory's path below its search root.
    pub fn rel(&self) -> &'a [u8] {
        let rel_len = u32_at(self.bytes, 84) as usize;
        &self.bytes[RECORD..RECORD + rel_len]
    }

    /// Where its entries start, and how many there are: for [`packed::PackedBuf::check`].
    pub fn names_at(&self) -> (usize, u32) {
        (RECORD + self.rel().len(), u32_at(self.bytes, 88))
    }

    /// Its entries, name and kind, checked whole first (`fs/packed.rs`); `None` when they
    /// are not.
    pub fn entries(&self) -> Option<impl Iterator<Item = (&'a CStr, Kind)> + 'a> {
        let (start, count) = self.names_at();
        let names = Packed::check(&self.bytes[start..], count)?;
        Some(
            names
                .iter()
                .map(|(name, code)| (name, Kind::from_dtype(code))),
        )
    }
}

/// A memo file's header, checked: the tree it is of and the credentials it was written with.
#[derive(Debug)]
pub struct Header<'a> {
    /// The search root's canonical path.
    pub root: &'a [u8],
    /// [`crate::memo::credentials`] of the writer.
    pub credentials: u64,
    /// Where the index starts in the file.
    pub index_at: usize,
    /// Where the file's first part (header, records, index) ends: the journal starts there.
    pub base_end: usize,
}

/// Why a file's bytes cannot be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unusable {
    /// Not a memo file, or one cut short or damaged.
    Corrupt,
    /// A memo file of another version.
    Version(u32),
}

/// The root path a memo file's header names, its header checked (magic, version, the
/// header's CRC): `bytes` need only hold the header. `None` for anything else.
pub fn root_in(bytes: &[u8]) -> Option<&[u8]> {
    if bytes.len() < HEADER || bytes[..8] != MAGIC || u32_at(bytes, 8) != VERSION {
        return None;
    }
    let end = HEADER.checked_add(u32_at(bytes, 44) as usize)?;
    (end <= bytes.len() && crc32fast::hash(&bytes[16..end]) == u32_at(bytes, 12))
        .then(|| &bytes[HEADER..end])
}

impl<'a> Header<'a> {
    /// Checks `file` (magic, version, sizes, the header's and the index's CRCs).
    pub fn parse(file: &'a [u8]) -> Result<Header<'a>, Unusable> {
        if file.len() < HEADER || file[..8] != MAGIC {
            return Err(Unusable::Corrupt);
        }
        let version = u32_at(file, 8);
        if version != VERSION {
            return Err(Unusable::Version(version));
        }
        let root_len = u32_at(file, 44) as usize;
        let end = HEADER.checked_add(root_len).ok_or(Unusable::Corrupt)?;
        if end > file.len() || crc32fast::hash(&file[16..end]) != u32_at(file, 12) {
            return Err(Unusable::Corrupt);
        }
        let count = usize::try_from(u64_at(file, 24)).map_err(|_| Unusable::Corrupt)?;
        let index_at = usize::try_from(u64_at(file, 32)).map_err(|_| Unusable::Corrupt)?;
        let index_len = count.checked_mul(INDEX_ENTRY).ok_or(Unusable::Corrupt)?;
        let base_end = index_at
            .checked_add(index_len)
            .filter(|&e| e <= file.len() && index_at >= end)
            .ok_or(Unusable::Corrupt)?;
        if crc32fast::hash(&file[index_at..base_end]) != u32_at(file, 40) {
            return Err(Unusable::Corrupt);
        }
        Ok(Header {
            root: &file[HEADER..end],
            credentials: u64_at(file, 16),
            index_at,
            base_end,
        })
    }
}

/// The index of a file whose header was checked: (hash, offset) pairs of 16 bytes, sorted.
#[derive(Debug, Clone, Copy)]
pub struct Index<'a>(pub &'a [u8]);

impl<'a> Index<'a> {
    /// The offsets of the records whose paths hash to `hash` (the index is sorted by hash).
    pub fn offsets_of(&self, hash: u64) -> impl Iterator<Item = usize> + 'a {
        let index = self.0;
        let n = index.len() / INDEX_ENTRY;
        let at = |i: usize| u64_at(index, i * INDEX_ENTRY);
        let (mut lo, mut hi) = bracket(n, hash, at);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if at(mid) < hash {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        (lo..n)
            .take_while(move |&i| at(i) == hash)
            .map(move |i| offset_at(index, i))
    }

    /// Every record's offset, in index order.
    pub fn all_offsets(&self) -> impl Iterator<Item = usize> + 'a {
        let index = self.0;
        (0..index.len() / INDEX_ENTRY).map(move |i| offset_at(index, i))
    }
}

/// Where the first of `n` sorted hashes (`at`) not below `hash` lies: a range `(lo, hi)` that
/// holds it, every hash before `lo` below `hash` and none from `hi` on. Path hashes spread
/// evenly over 64 bits, so `hash`'s place in that range puts it a few entries away: the range
/// grows from there, each step twice the last, and a binary search ends in it. A lookup
/// then touches a few cache lines of the index instead of one per halving of the whole
/// (each a miss, on a tree of 57,000 directories). Any order of hashes gives the same
/// answer as a binary search over all of them; only uneven ones take longer.
fn bracket(n: usize, hash: u64, at: impl Fn(usize) -> u64) -> (usize, usize) {
    if n == 0 {
        return (0, 0);
    }
    // In 0..n: the high half of hash * n.
    let guess = ((u128::from(hash) * n as u128) >> 64) as usize;
    let mut step = 1;
    if at(guess) < hash {
        let mut lo = guess + 1;
        loop {
            let probe = guess + step;
            if probe >= n {
                return (lo, n);
            }
            if at(probe) >= hash {
                return (lo, probe);
            }
            lo = probe + 1;
            step *= 2;
        }
    } else {
        let mut hi = guess;
        loop {
            let Some(probe) = guess.checked_sub(step) else {
                return (0, hi);
            };
            if at(probe) < hash {
                return (probe + 1, hi);
            }
            hi = probe;
            step *= 2;
        }
    }
}

/// The offset of the `i`th index entry, as an index into the mapped file: one past what a
/// 32-bit address space can hold is `usize::MAX`, which no file holds (never wrapped round to
/// the offset of another record).
fn offset_at(index: &[u8], i: usize) -> usize {
    usize::try_from(u64_at(index, i * INDEX_ENTRY + 8)).unwrap_or(usize::MAX)
}

/// The journal of a file whose first part ends at `base_end`: where the index of each whole
/// segment lies in `file`, oldest first, and where the last whole one ends. A segment cut
/// short or damaged ends the journal there: what follows is a search's append still under
/// way, or one killed midway (the file is then written again whole by the next search that
/// changes it).
pub fn segments(file: &[u8], base_end: usize) -> (Vec<Range<usize>>, usize) {
    let mut out = Vec::new();
    let mut at = base_end;
    while let Some(head) = file.get(at..at + SEGMENT_HEAD) {
        if head[..8] != SEGMENT_MAGIC || crc32fast::hash(&head[..36]) != u32_at(head, 36) {
            break;
        }
        let (Ok(len), Ok(count), Ok(index_at)) = (
            usize::try_from(u64_at(head, 8)),
            usize::try_from(u64_at(head, 16)),
            usize::try_from(u64_at(head, 24)),
        ) else {
            break;
        };
        let index_len = count.checked_mul(INDEX_ENTRY);
        let fits = index_len
            .is_some_and(|l| index_at >= SEGMENT_HEAD && index_at.checked_add(l) == Some(len))
            && at.checked_add(len).is_some_and(|end| end <= file.len());
        if !fits {
            break;
        }
        let index = at + index_at..at + len;
        if crc32fast::hash(&file[index.clone()]) != u32_at(head, 32) {
            break;
        }
        out.push(index);
        at += len;
    }
    (out, at)
}

/// The indexes a path is looked up in, newest first: the journal's segments (`journal`, as
/// [`segments`] gives them), then the first part's (`index_at` to `base_end`).
pub fn newest_first<'a>(
    file: &'a [u8],
    index_at: usize,
    base_end: usize,
    journal: &'a [Range<usize>],
) -> impl Iterator<Item = Index<'a>> + 'a {
    journal
        .iter()
        .rev()
        .map(move |r| Index(&file[r.clone()]))
        .chain(std::iter::once(Index(&file[index_at..base_end])))
}

/// A journal segment of `records` (each a finished record's bytes), to be appended at
/// offset `start` of a file (its index holds offsets in the file).
pub fn segment(records: &[&[u8]], start: u64) -> Vec<u8> {
    let mut at = start + SEGMENT_HEAD as u64;
    let mut index: Vec<(u64, u64)> = Vec::with_capacity(records.len());
    let mut bytes = vec![0; SEGMENT_HEAD];
    for rec in records {
        index.push((index_hash(Record { bytes: rec }.rel()), at));
        at += rec.len() as u64;
        bytes.extend_from_slice(rec);
    }
    index.sort_unstable();
    let index_at = bytes.len() as u64;
    for (hash, offset) in &index {
        bytes.extend_from_slice(&hash.to_le_bytes());
        bytes.extend_from_slice(&offset.to_le_bytes());
    }
    let len = bytes.len() as u64;
    let index_crc = crc32fast::hash(&bytes[index_at as usize..]);
    bytes[..8].copy_from_slice(&SEGMENT_MAGIC);
    bytes[8..16].copy_from_slice(&len.to_le_bytes());
    bytes[16..24].copy_from_slice(&(records.len() as u64).to_le_bytes());
    bytes[24..32].copy_from_slice(&index_at.to_le_bytes());
    bytes[32..36].copy_from_slice(&index_crc.to_le_bytes());
    let head_crc = crc32fast::hash(&bytes[..36]);
    bytes[36..40].copy_from_slice(&head_crc.to_le_bytes());
    bytes
}

/// Every record of `file` that `indexes` (newest first, as [`newest_first`] gives them)
/// lead to, the newest of each path. Records that fail their check are left out.
pub fn live_records<'a>(
    file: &'a [u8],
    indexes: impl Iterator<Item = Index<'a>>,
) -> Vec<Record<'a>> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for index in indexes {
        for offset in index.all_offsets() {
            let Some(r) = file.get(offset..).and_then(Record::parse) else {
                continue;
            };
            if seen.insert(r.rel()) {
                out.push(r);
            }
        }
    }
    out
}

/// Writes a whole memo file of `records` (each a finished record's bytes) for the tree at
/// `root`, into `out`.
pub fn write_file(
    out: &mut impl std::io::Write,
    root: &[u8],
    credentials: u64,
    records: &[&[u8]],
) -> std::io::Result<()> {
    let root_len = u32::try_from(root.len()).map_err(|_| std::io::ErrorKind::InvalidInput)?;
    let mut at = (HEADER + root.len()) as u64;
    let mut index: Vec<(u64, u64)> = Vec::with_capacity(records.len());
    for rec in records {
        let rel = Record { bytes: rec }.rel();
        index.push((index_hash(rel), at));
        at += rec.len() as u64;
    }
    index.sort_unstable();
    let mut index_bytes = Vec::with_capacity(index.len() * INDEX_ENTRY);
    for (hash, offset) in &index {
        index_bytes.extend_from_slice(&hash.to_le_bytes());
        index_bytes.extend_from_slice(&offset.to_le_bytes());
    }
    let mut head = Vec::with_capacity(HEADER + root.len());
    head.extend_from_slice(&MAGIC);
    head.extend_from_slice(&VERSION.to_le_bytes());
    head.extend_from_slice(&[0; 4]);
    head.extend_from_slice(&credentials.to_le_bytes());
    head.extend_from_slice(&(records.len() as u64).to_le_bytes());
    head.extend_from_slice(&at.to_le_bytes());
    head.extend_from_slice(&crc32fast::hash(&index_bytes).to_le_bytes());
    head.extend_from_slice(&root_len.to_le_bytes());
    head.extend_from_slice(root);
    let crc = crc32fast::hash(&head[16..]);
    head[12..16].copy_from_slice(&crc.to_le_bytes());
    out.write_all(&head)?;
    for rec in records {
        out.write_all(rec)?;
    }
    out.write_all(&index_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamp() -> Stamp {
        Stamp {
            dev: 1,
            ino: 2,
            mtime: (3, 4),
            ctime: (5, 6),
            size: 7,
            mode: 0o40755,
            nlink: 8,
            uid: 9,
            gid: 10,
        }
    }

    /// A listing time of `real`, in the boot 7 at an offset of 5 s.
    fn listed_at(real: (i64, u32)) -> ClockReading {
        ClockReading {
            real,
            boot: Some(BootClock {
                boot: 7,
                offset: 5_000_000_000,
            }),
        }
    }

    fn file_of(records: &[Vec<u8>]) -> Vec<u8> {
        let refs: Vec<&[u8]> = records.iter().map(Vec::as_slice).collect();
        let mut out = Vec::new();
        write_file(&mut out, b"/the/root", 42, &refs).unwrap();
        out
    }

    #[test]
    fn a_record_reads_back_as_written() {
        let mut rec = NewRecord::new(b"a/b", &stamp(), listed_at((11, 12)));
        rec.push(c"x", Kind::File);
        rec.push(c"dir\nwith newline", Kind::Dir);
        rec.push(c"\xff\xfe", Kind::Symlink);
        let bytes = rec.finish(&[]).unwrap();
        let file = file_of(&[bytes]);
        let head = Header::parse(&file).unwrap();
        assert_eq!(head.root, b"/the/root");
        assert_eq!(head.credentials, 42);
        let index = Index(&file[head.index_at..]);
        let at: Vec<_> = index.offsets_of(index_hash(b"a/b")).collect();
        assert_eq!(at.len(), 1);
        let r = Record::parse(&file[at[0]..]).unwrap();
        assert_eq!(r.rel(), b"a/b");
        assert_eq!(r.stamp(), stamp());
        assert_eq!(r.listed(), listed_at((11, 12)));
        let entries: Vec<_> = r.entries().unwrap().collect();
        assert_eq!(
            entries,
            [
                (c"x", Kind::File),
                (c"dir\nwith newline", Kind::Dir),
                (c"\xff\xfe", Kind::Symlink)
            ]
        );
        assert_eq!(index.offsets_of(index_hash(b"a")).count(), 0);
    }

    #[test]
    fn a_name_holding_a_nul_is_refused_whatever_its_crc() {
        // A writer's bug, not damage: the CRC is right, and the name is not one name.
        let mut rec = NewRecord::new(b"d", &stamp(), listed_at((1, 0)));
        rec.push(c"ab", Kind::File);
        rec.push(c"unknown kind", Kind::Unknown);
        let good = rec.finish(&[]).unwrap();
        let r = Record::parse(&good).unwrap();
        assert_eq!(
            r.entries().unwrap().map(|e| e.0).collect::<Vec<_>>(),
            [c"ab", c"unknown kind"]
        );
        let at = good.windows(2).position(|w| w == b"ab").unwrap();
        for (i, byte) in [(at, 0u8), (at + 1, 0)] {
            let mut bad = good.clone();
            bad[i] = byte;
            let crc = crc32fast::hash(&bad[8..]);
            bad[4..8].copy_from_slice(&crc.to_le_bytes());
            assert!(Record::parse(&bad).is_none(), "a NUL at {i}");
        }
        // Nor a length running past the record, or a name not ended by its NUL.
        let mut short = good.clone();
        let len_at = at - 1;
        short[len_at] = 200;
        let crc = crc32fast::hash(&short[8..]);
        short[4..8].copy_from_slice(&crc.to_le_bytes());
        assert!(Record::parse(&short).is_none());
    }

    #[test]
    fn every_damage_is_seen() {
        let mut recs = Vec::new();
        for rel in [&b""[..], b"a", b"a/b"] {
            let mut rec = NewRecord::new(rel, &stamp(), listed_at((1, 0)));
            rec.push(c"n", Kind::Dir);
            recs.push(rec.finish(&[]).unwrap());
        }
        let file = file_of(&recs);
        // Every truncation is refused by the header check; every flipped bit by a CRC.
        for cut in 0..file.len() {
            assert!(Header::parse(&file[..cut]).is_err(), "cut at {cut}");
        }
        for at in 0..file.len() {
            for bit in 0..8 {
                let mut bad = file.clone();
                bad[at] ^= 1 << bit;
                let ok = Header::parse(&bad).is_ok_and(|h| {
                    Index(&bad[h.index_at..])
                        .all_offsets()
                        .all(|o| bad.get(o..).and_then(Record::parse).is_some())
                });
                assert!(!ok, "bit {bit} of byte {at}");
            }
        }
        let mut other = file.clone();
        other[8] = 1;
        assert_eq!(Header::parse(&other).unwrap_err(), Unusable::Version(1));
    }

    #[test]
    fn the_journal_reads_back_and_stops_at_a_torn_segment() {
        let record = |rel: &[u8], name: &CStr| {
            let mut rec = NewRecord::new(rel, &stamp(), listed_at((1, 0)));
            rec.push(name, Kind::File);
            rec.finish(&[]).unwrap()
        };
        let mut file = file_of(&[record(b"", c"old"), record(b"a", c"x")]);
        let head = Header::parse(&file).unwrap();
        assert_eq!(head.base_end, file.len());
        let first = segment(&[&record(b"", c"newer")], file.len() as u64);
        file.extend_from_slice(&first);
        let second = segment(
            &[&record(b"", c"newest"), &record(b"b", c"y")],
            file.len() as u64,
        );
        file.extend_from_slice(&second);
        let head = Header::parse(&file).unwrap();
        let (journal, end) = segments(&file, head.base_end);
        assert_eq!((journal.len(), end), (2, file.len()));
        let (journal, _) = segments(&file, head.base_end);
        let live = live_records(
            &file,
            newest_first(&file, head.index_at, head.base_end, &journal),
        );
        let name = |rel: &[u8]| {
            let r = live.iter().find(|r| r.rel() == rel).unwrap();
            r.entries().unwrap().next().unwrap().0.to_bytes().to_vec()
        };
        assert_eq!(live.len(), 3);
        assert_eq!(name(b""), b"newest");
        assert_eq!(name(b"a"), b"x");
        assert_eq!(name(b"b"), b"y");
        // Every cut inside the last segment leaves the first whole; every flipped bit of a
        // segment's head or index ends the journal before it.
        let whole = file.len() - second.len();
        for cut in whole..file.len() {
            let (journal, end) = segments(&file[..cut], head.base_end);
            assert_eq!((journal.len(), end), (1, whole), "cut at {cut}");
        }
        let index_at = whole + u64_at(&second, 24) as usize;
        for at in (whole..whole + SEGMENT_HEAD).chain(index_at..file.len()) {
            let mut bad = file.clone();
            bad[at] ^= 1;
            assert_eq!(segments(&bad, head.base_end).0.len(), 1, "byte {at}");
        }
    }

    #[test]
    fn an_offset_past_4_gib_is_never_wrapped_round_to_a_record() {
        // With a 32-bit usize, an offset of 4 GiB + N read `as usize` is N: the record at N.
        let mut rec = NewRecord::new(b"a", &stamp(), listed_at((1, 0)));
        rec.push(c"x", Kind::File);
        let mut file = file_of(&[rec.finish(&[]).unwrap()]);
        let head = Header::parse(&file).unwrap();
        let (index_at, base_end) = (head.index_at, head.base_end);
        let first = Index(&file[index_at..base_end])
            .all_offsets()
            .next()
            .unwrap();
        assert!(file.get(first..).and_then(Record::parse).is_some());
        let far = (first as u64 + (1 << 32)).to_le_bytes();
        file[index_at + 8..index_at + 16].copy_from_slice(&far);
        let index = Index(&file[index_at..base_end]);
        assert_ne!(index.all_offsets().next(), Some(first));
        let live = live_records(&file, std::iter::once(index));
        assert!(live.is_empty(), "{} records", live.len());
        let hash = index_hash(b"a");
        assert!(index
            .offsets_of(hash)
            .all(|o| file.get(o..).and_then(Record::parse).is_none()));
    }

    /// Paths alike (one directory's 20,000 subdirectories) hash evenly over the whole range,
    /// so that a lookup starts near its record: each lies, on average, within a few times
    /// the square root of their number of where its hash puts it (a uniform sample's spread).
    #[test]
    fn paths_alike_spread_over_the_index() {
        let n = 20_000usize;
        let mut hashes: Vec<u64> = (0..n)
            .map(|i| index_hash(format!("src/packages/pkg{i}/lib").as_bytes()))
            .collect();
        hashes.sort_unstable();
        let off: usize = hashes
            .iter()
            .map(|&h| ((u128::from(h) * n as u128) >> 64) as usize)
            .enumerate()
            .map(|(at, guess)| at.abs_diff(guess))
            .sum();
        let mean = off / n;
        assert!(
            mean < 4 * (n as f64).sqrt() as usize,
            "{mean} entries off on average"
        );
    }

    proptest::proptest! {
        /// The bracket the lookup searches holds the first hash not below the one sought,
        /// as a binary search over all of them finds it: for even, crowded (few distinct
        /// values, all at one end) and repeated hashes, and hashes at either end of the range.
        #[test]
        fn the_bracket_holds_what_a_binary_search_finds(
            mut hashes in proptest::collection::vec(proptest::prelude::any::<u64>(), 0..300),
            crowd in 0u32..3,
            sought in proptest::prelude::any::<u64>(),
            pick in proptest::prelude::any::<proptest::sample::Index>(),
        ) {
            for h in &mut hashes {
                *h = match crowd { 0 => *h, 1 => *h % 7, _ => u64::MAX - *h % 5 };
            }
            hashes.sort_unstable();
            let mut asked = vec![sought, 0, u64::MAX];
            if !hashes.is_empty() {
                asked.push(hashes[pick.index(hashes.len())]);
            }
            for hash in asked {
                let want = hashes.partition_point(|&h| h < hash);
                let (lo, hi) = bracket(hashes.len(), hash, |i| hashes[i]);
                proptest::prop_assert!(lo <= want && want <= hi && hi <= hashes.len());
                proptest::prop_assert!(hashes[..lo].iter().all(|&h| h < hash));
                proptest::prop_assert!(hashes[hi..].iter().all(|&h| h >= hash));
            }
        }
    }

    #[test]
    fn too_long_a_name_is_refused() {
        let long = std::ffi::CString::new(vec![b'n'; 256]).unwrap();
        let mut rec = NewRecord::new(b"", &stamp(), listed_at((1, 0)));
        rec.push(&long, Kind::File);
        assert!(rec.finish(&[]).is_none());
    }
}
