//! `--sort`: results gathered while the walk runs, then sorted and written when it ends, so
//! that output is the same whatever the method and concurrency (what fd issues #159 and #1875
//! ask for; fd's output has no set order).
//!
//! The printer formats each record as usual into a worker's batch; when sorting, the batch also
//! notes the record's sort key (its path) and byte range ([`Keys`]), and a full batch goes into
//! the [`Gathered`] pile instead of to stdout. At the end the pile is ordered by key and the
//! records are written in that order. How a record is formatted (a path, a color, a JSON line)
//! does not matter here: only its bytes are moved.
//!
//! Cost: every record is held until the walk ends (its bytes, 24 bytes of bookkeeping, and
//! its path again when the record does not start with it; 40 more bytes while sorting), and
//! sorting n records takes n log n comparisons. With a limit
//! (`--max-results N`) only the first N are fully sorted, after a linear selection, and the
//! pile is cut back to its first N as it grows, so memory stays bounded.

use std::cmp::Ordering;
use std::sync::Mutex;

/// An order for `--sort`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// By path, one component at a time.
    Path,
    /// Fewer path components first, then by path.
    Depth,
    /// fd's order for a small search (`output/hold.rs`): the standard library's path order,
    /// which fd sorts its held results by ("a", "a/b", "a-b"; "." and ".." before names).
    Fd,
    /// Nearest first, by the depth each record was noted at (below its own search path),
    /// then fd's order: a held breadth-first search.
    FdNearest,
}

/// What sees every record about to be written before the first is (`-l` measures its columns).
pub type Survey<'a> = &'a dyn Fn(&[u8]);

/// One record's place in its batch.
#[derive(Debug, Clone, Copy)]
struct Record {
    /// The key's range in [`Keys::keys`], or in the output bytes when `key_in_bytes`.
    key: (u32, u32),
    /// The record's bytes start with its path (a plain listing): the key is not copied.
    key_in_bytes: bool,
    /// The record's range in the batch's output bytes.
    bytes: (u32, u32),
    /// Path components, for [`Order::Depth`].
    depth: u32,
    /// Written already, ahead of the rest ([`Gathered::drain_where`]).
    taken: bool,
}

/// The sort keys of the records in a worker's batch (empty unless sorting).
#[derive(Debug, Default)]
pub struct Keys {
    keys: Vec<u8>,
    records: Vec<Record>,
}

impl Keys {
    /// Notes a record: its path (the key), and `buf[start..]`, the record as formatted.
    #[inline]
    pub fn note(&mut self, path: &[u8], buf: &[u8], start: usize) {
        let depth = path.iter().filter(|&&b| crate::fs::is_separator(b)).count() as u32;
        self.note_at(path, buf, start, depth);
    }

    /// [`Keys::note`] with the record's depth given ([`Order::FdNearest`]: below its search
    /// path) rather than counted in its path.
    #[inline]
    pub fn note_at(&mut self, path: &[u8], buf: &[u8], start: usize, depth: u32) {
        // Batches stay near 64 KiB, so offsets fit in 32 bits; a single record of more than
        // 4 GiB is not a path.
        let (key, key_in_bytes) = if buf[start..].starts_with(path) {
            ((start as u32, (start + path.len()) as u32), true)
        } else {
            let k = self.keys.len();
            self.keys.extend_from_slice(path);
            ((k as u32, self.keys.len() as u32), false)
        };
        self.records.push(Record {
            key,
            key_in_bytes,
            bytes: (start as u32, buf.len() as u32),
            depth,
            taken: false,
        });
    }

    /// Forgets every record noted (their batch went out as it was).
    pub fn clear(&mut self) {
        self.keys.clear();
        self.records.clear();
    }
}

impl Keys {
    /// How many records are noted.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))] // used by walk/mpi only
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether no record is noted.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Where the first `n` records end in their batch's bytes (records are noted in the order
    /// they are written, each right after the last): a batch cut there holds exactly them.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))] // used by walk/mpi only
    pub fn end_of_first(&self, n: usize) -> usize {
        match n.checked_sub(1).and_then(|i| self.records.get(i)) {
            Some(rec) => rec.bytes.1 as usize,
            None => 0,
        }
    }

    /// Appends the keys' byte form, in which `--mpi` carries a batch's records to process 0
    /// (little-endian): `[u32 records][u32 key bytes][key bytes]`, then per record its key's
    /// range, whether it lies in the batch's bytes, its bytes' range and its depth.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))] // used by walk/mpi only
    pub fn encode(&self, out: &mut Vec<u8>) {
        out.reserve(8 + self.keys.len() + 21 * self.records.len());
        out.extend_from_slice(&(self.records.len() as u32).to_le_bytes());
        out.extend_from_slice(&(self.keys.len() as u32).to_le_bytes());
        out.extend_from_slice(&self.keys);
        for rec in &self.records {
            for n in [rec.key.0, rec.key.1] {
                out.extend_from_slice(&n.to_le_bytes());
            }
            out.push(u8::from(rec.key_in_bytes));
            for n in [rec.bytes.0, rec.bytes.1, rec.depth] {
                out.extend_from_slice(&n.to_le_bytes());
            }
        }
    }

    /// The keys [`Keys::encode`] wrote at the start of `bytes`, and the rest of `bytes`: the
    /// batch they describe. `None` unless well formed (every range inside the batch, or inside
    /// the keys, and the records in order).
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))] // used by walk/mpi only
    pub fn decode(bytes: &[u8]) -> Option<(Keys, &[u8])> {
        let u32_at = |at: usize| -> Option<u32> {
            Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
        };
        let n = u32_at(0)? as usize;
        let klen = u32_at(4)? as usize;
        let keys = bytes.get(8..8 + klen)?.to_vec();
        let mut at = 8 + klen;
        let table = bytes.get(at..at.checked_add(n.checked_mul(21)?)?)?;
        let rest = &bytes[at + table.len()..];
        let data_len = rest.len();
        let mut records = Vec::with_capacity(n);
        let mut end = 0;
        for _ in 0..n {
            let key = (u32_at(at)?, u32_at(at + 4)?);
            let key_in_bytes = bytes[at + 8] != 0;
            let range = (u32_at(at + 9)?, u32_at(at + 13)?);
            let depth = u32_at(at + 17)?;
            at += 21;
            let key_room = if key_in_bytes { data_len } else { keys.len() };
            let ordered = key.0 <= key.1 && range.0 <= range.1 && range.0 as usize >= end;
            if !ordered || key.1 as usize > key_room || range.1 as usize > data_len {
                return None;
            }
            end = range.1 as usize;
            records.push(Record {
                key,
                key_in_bytes,
                bytes: range,
                depth,
                taken: false,
            });
        }
        Some((Keys { keys, records }, rest))
    }
}

/// A full batch set aside: its output bytes and their keys.
#[derive(Debug)]
struct Chunk {
    bytes: Vec<u8>,
    keys: Keys,
}

/// Every batch set aside while the walk runs.
#[derive(Debug)]
pub struct Gathered {
    order: Order,
    /// Only the first this many records are printed (`--max-results`).
    limit: Option<usize>,
    pile: Mutex<Pile>,
}

#[derive(Debug, Default)]
struct Pile {
    chunks: Vec<Chunk>,
    records: usize,
}

/// With a limit N, the pile is cut back to its first N records whenever it holds more than
/// twice that many, and at least this many (so that a small limit does not cut at every
/// batch): memory stays bounded, and each record is copied a constant number of times on
/// average.
const COMPACT_AT_LEAST: usize = 64 * 1024;

impl Gathered {
    /// An empty pile for `order`, of which the first `limit` records will be printed (a limit
    /// past what memory can hold, as on a 32-bit system, is no limit on what is kept).
    pub fn new(order: Order, limit: Option<u64>) -> Gathered {
        Gathered {
            order,
            limit: limit.map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
            pile: Mutex::new(Pile::default()),
        }
    }

    /// Takes a batch's bytes and keys (leaving them empty).
    pub fn keep(&self, bytes: &mut Vec<u8>, keys: &mut Keys) {
        if keys.records.is_empty() {
            bytes.clear();
            return;
        }
        let mut chunk = Chunk {
            bytes: std::mem::take(bytes),
            keys: std::mem::take(keys),
        };
        // Buffers grow by doubling: held until the end, their slack would double the memory.
        chunk.bytes.shrink_to_fit();
        chunk.keys.keys.shrink_to_fit();
        chunk.keys.records.shrink_to_fit();
        let mut pile = self.pile.lock().unwrap_or_else(|e| e.into_inner());
        pile.records += chunk.keys.records.len();
        pile.chunks.push(chunk);
        if let Some(n) = self.limit {
            if pile.records > n.saturating_mul(2).max(COMPACT_AT_LEAST) {
                let first = Chunk::of(&self.first(&pile.chunks, n));
                pile.records = first.keys.records.len();
                pile.chunks = vec![first];
            }
        }
    }

    /// Whether no record is kept (but those taken by [`Gathered::drain_where`]).
    pub fn is_empty(&self) -> bool {
        self.pile.lock().unwrap_or_else(|e| e.into_inner()).records == 0
    }

    /// Hands every record kept to `write` in the order they were kept, unsorted and
    /// unlimited, until it returns false.
    pub fn drain_as_kept(&self, write: &mut dyn FnMut(&[u8]) -> bool) {
        let pile = std::mem::take(&mut *self.pile.lock().unwrap_or_else(|e| e.into_inner()));
        for chunk in &pile.chunks {
            for rec in chunk.keys.records.iter().filter(|rec| !rec.taken) {
                if !write(&chunk.bytes[rec.bytes.0 as usize..rec.bytes.1 as usize]) {
                    return;
                }
            }
        }
    }

    /// Sorts everything kept and hands the first `limit` records' bytes to `write`, in order,
    /// until it returns false; first, every one of them to `survey`, if given (`-l` measures
    /// its columns over the list it writes).
    pub fn drain(&self, survey: Option<Survey>, write: &mut dyn FnMut(&[u8]) -> bool) {
        let pile = std::mem::take(&mut *self.pile.lock().unwrap_or_else(|e| e.into_inner()));
        let n = self.limit.unwrap_or(usize::MAX);
        let items = self.first(&pile.chunks, n);
        match survey {
            // Every record is written: seen in the order kept, the batches' bytes read
            // through once rather than in sorted order, a cache miss per record.
            Some(survey) if items.len() == pile.records => {
                for chunk in &pile.chunks {
                    for rec in chunk.keys.records.iter().filter(|rec| !rec.taken) {
                        survey(&chunk.bytes[rec.bytes.0 as usize..rec.bytes.1 as usize]);
                    }
                }
            }
            Some(survey) => items.iter().for_each(|item| survey(item.bytes)),
            None => {}
        }
        for item in &items {
            if !write(item.bytes) {
                return;
            }
        }
    }

    /// Takes the records kept so far that `pick` chooses (by depth and key), and hands them
    /// to `write` in order, until it returns false; the drains that follow skip them. A hold
    /// writes this way the results that nothing still to be found can come before.
    pub fn drain_where(
        &self,
        pick: &dyn Fn(u32, &[u8]) -> bool,
        write: &mut dyn FnMut(&[u8]) -> bool,
    ) {
        let mut pile = self.pile.lock().unwrap_or_else(|e| e.into_inner());
        let mut picked: Vec<(usize, usize)> = Vec::new();
        for (c, chunk) in pile.chunks.iter().enumerate() {
            for (r, rec) in chunk.keys.records.iter().enumerate() {
                if !rec.taken && pick(rec.depth, chunk.key(rec)) {
                    picked.push((c, r));
                }
            }
        }
        for &(c, r) in &picked {
            pile.chunks[c].keys.records[r].taken = true;
        }
        pile.records -= picked.len();
        let mut items: Vec<Item<'_>> = picked
            .iter()
            .map(|&(c, r)| pile.chunks[c].item(&pile.chunks[c].keys.records[r]))
            .collect();
        items.sort_unstable_by(|a, b| self.compare(a, b));
        for item in &items {
            if !write(item.bytes) {
                return;
            }
        }
    }

    /// Two records in this pile's order.
    fn compare(&self, a: &Item<'_>, b: &Item<'_>) -> Ordering {
        match self.order {
            Order::Path => compare_paths(a.key, b.key),
            Order::Depth => a
                .depth
                .cmp(&b.depth)
                .then_with(|| compare_paths(a.key, b.key)),
            Order::Fd => fd_order(a.key, b.key),
            Order::FdNearest => a.depth.cmp(&b.depth).then_with(|| fd_order(a.key, b.key)),
        }
    }

    /// The first `n` records of `chunks` not yet taken, in order.
    fn first<'c>(&self, chunks: &'c [Chunk], n: usize) -> Vec<Item<'c>> {
        let mut all: Vec<Item<'_>> = chunks
            .iter()
            .flat_map(|chunk| {
                chunk
                    .keys
                    .records
                    .iter()
                    .filter(|rec| !rec.taken)
                    .map(|rec| chunk.item(rec))
            })
            .collect();
        let cmp = |a: &Item<'_>, b: &Item<'_>| self.compare(a, b);
        if n < all.len() {
            // Only the first n need ordering: select them in linear time, then sort those.
            if n > 0 {
                all.select_nth_unstable_by(n - 1, cmp);
            }
            all.truncate(n);
        }
        all.sort_unstable_by(cmp);
        all
    }
}

impl Chunk {
    /// A record's key: in the output bytes, or in the keys.
    fn key(&self, rec: &Record) -> &[u8] {
        if rec.key_in_bytes {
            &self.bytes[rec.key.0 as usize..rec.key.1 as usize]
        } else {
            &self.keys.keys[rec.key.0 as usize..rec.key.1 as usize]
        }
    }

    /// A record as the sort sees it.
    fn item(&self, rec: &Record) -> Item<'_> {
        Item {
            key: self.key(rec),
            depth: rec.depth,
            bytes: &self.bytes[rec.bytes.0 as usize..rec.bytes.1 as usize],
        }
    }

    /// One chunk holding copies of `items`.
    fn of(items: &[Item<'_>]) -> Chunk {
        let mut chunk = Chunk {
            bytes: Vec::with_capacity(items.iter().map(|i| i.bytes.len()).sum()),
            keys: Keys {
                keys: Vec::with_capacity(items.iter().map(|i| i.key.len()).sum()),
                records: Vec::with_capacity(items.len()),
            },
        };
        for item in items {
            let start = chunk.bytes.len();
            chunk.bytes.extend_from_slice(item.bytes);
            let k = chunk.keys.keys.len();
            chunk.keys.keys.extend_from_slice(item.key);
            chunk.keys.records.push(Record {
                key: (k as u32, chunk.keys.keys.len() as u32),
                key_in_bytes: false,
                bytes: (start as u32, chunk.bytes.len() as u32),
                depth: item.depth,
                taken: false,
            });
        }
        chunk
    }
}

/// A record as the final sort sees it.
struct Item<'a> {
    key: &'a [u8],
    depth: u32,
    bytes: &'a [u8],
}

/// Paths compared one component at a time, each byte by byte: "/" sorts before every other
/// byte, so a directory's entries come right after it ("a", "a/b", "a-b"), as in a tree
/// listing, where plain byte order would put "a-b" between "a" and "a/b".
pub fn compare_paths(a: &[u8], b: &[u8]) -> Ordering {
    match mismatch(a, b) {
        None => a.len().cmp(&b.len()),
        Some(i) => rank(a[i]).cmp(&rank(b[i])),
    }
}

/// fd's order: `std::path::Path`'s, by which fd sorts the results it held. Results compare
/// as in [`compare_paths`] but for search paths: a leading "/", "." or ".." component comes
/// before every name ("./x" before "-y/x"), and "a//b" or "a/./b" count as "a/b".
pub fn fd_order(a: &[u8], b: &[u8]) -> Ordering {
    crate::fs::os_path(a).cmp(&crate::fs::os_path(b))
}

/// Where two byte strings first differ (None when one is a prefix of the other), eight bytes
/// at a time: sorted paths share long prefixes (the search path, their directories).
fn mismatch(a: &[u8], b: &[u8]) -> Option<usize> {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= n {
        let x = u64::from_le_bytes(a[i..i + 8].try_into().unwrap_or_default());
        let y = u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or_default());
        if x != y {
            // Little-endian: the lowest differing byte is the first one.
            return Some(i + ((x ^ y).trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    (i..n).find(|&j| a[j] != b[j])
}

/// A byte's place in path order: a separator ("/", and Windows' "\") first.
fn rank(byte: u8) -> u16 {
    if crate::fs::is_separator(byte) {
        0
    } else {
        u16::from(byte) + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mismatch_finds_the_first_difference() {
        assert_eq!(mismatch(b"abcdefghijk", b"abcdefghijk"), None);
        assert_eq!(mismatch(b"abcdefghijk", b"abcdefghij"), None);
        assert_eq!(mismatch(b"abcdefghijk", b"abcdeXghijk"), Some(5));
        assert_eq!(mismatch(b"abcdefghijk", b"abcdefghiXk"), Some(9));
        assert_eq!(mismatch(b"a", b"b"), Some(0));
    }

    #[test]
    fn components_before_siblings() {
        let mut v: Vec<&[u8]> = vec![b"a-b", b"a/b", b"a", b"a/b/c", b"B", b"a.txt", b"a/a"];
        v.sort_by(|a, b| compare_paths(a, b));
        let want: Vec<&[u8]> = vec![b"B", b"a", b"a/a", b"a/b", b"a/b/c", b"a-b", b"a.txt"];
        assert_eq!(v, want);
    }

    fn gather(order: Order, limit: Option<u64>, paths: &[&str]) -> Gathered {
        let g = Gathered::new(order, limit);
        // Two batches, as two workers would hand them over.
        for half in paths.chunks(paths.len().div_ceil(2)) {
            let (mut bytes, mut keys) = (Vec::new(), Keys::default());
            for p in half {
                let start = bytes.len();
                bytes.extend_from_slice(p.as_bytes());
                bytes.push(b'\n');
                keys.note(p.as_bytes(), &bytes, start);
            }
            g.keep(&mut bytes, &mut keys);
        }
        g
    }

    fn drained(g: &Gathered) -> String {
        let mut out = Vec::new();
        g.drain(None, &mut |r| {
            out.extend_from_slice(r);
            true
        });
        String::from_utf8(out).unwrap()
    }

    /// The survey sees exactly the records written, each once, before the first is written:
    /// all of them, the first N with a limit, none taken ahead of the rest.
    #[test]
    fn the_survey_sees_what_is_written_before_it_is() {
        let paths = ["z", "a/b/c", "a", "m/n", "a/b", "b"];
        let drained_and_surveyed = |g: &Gathered| {
            let surveyed = std::cell::RefCell::new(Vec::new());
            let mut written = Vec::new();
            let mut surveyed_before_first_write = None;
            g.drain(
                Some(&|r: &[u8]| surveyed.borrow_mut().push(r.to_vec())),
                &mut |r| {
                    surveyed_before_first_write.get_or_insert(surveyed.borrow().len());
                    written.push(r.to_vec());
                    true
                },
            );
            let mut surveyed = surveyed.into_inner();
            assert_eq!(surveyed_before_first_write, Some(surveyed.len()));
            surveyed.sort();
            written.sort();
            (surveyed, written)
        };
        let (surveyed, written) = drained_and_surveyed(&gather(Order::Path, None, &paths));
        assert_eq!(written.len(), 6);
        assert_eq!(surveyed, written);
        let (surveyed, written) = drained_and_surveyed(&gather(Order::Path, Some(2), &paths));
        assert_eq!(written, [b"a\n".to_vec(), b"a/b\n".to_vec()]);
        assert_eq!(surveyed, written);
        let g = gather(Order::Depth, None, &paths);
        g.drain_where(&|depth, _| depth == 0, &mut |_| true);
        let (surveyed, written) = drained_and_surveyed(&g);
        assert_eq!(written.len(), 3, "{written:?}");
        assert_eq!(surveyed, written);
    }

    #[test]
    fn sorts_across_batches_by_path_and_by_depth() {
        let paths = ["z", "a/b/c", "a", "m/n", "a/b", "b"];
        assert_eq!(
            drained(&gather(Order::Path, None, &paths)),
            "a\na/b\na/b/c\nb\nm/n\nz\n"
        );
        assert_eq!(
            drained(&gather(Order::Depth, None, &paths)),
            "a\nb\nz\na/b\nm/n\na/b/c\n"
        );
    }

    #[test]
    fn records_formatted_otherwise_sort_by_their_path() {
        // A record that does not start with its path (a color, a --format): the key is kept.
        let g = Gathered::new(Order::Path, None);
        let (mut bytes, mut keys) = (Vec::new(), Keys::default());
        for (path, record) in [("b", "<z>b\n"), ("a", "<y>a\n"), ("c", "c!\n")] {
            let start = bytes.len();
            bytes.extend_from_slice(record.as_bytes());
            keys.note(path.as_bytes(), &bytes, start);
        }
        g.keep(&mut bytes, &mut keys);
        assert_eq!(drained(&g), "<y>a\n<z>b\nc!\n");
    }

    #[test]
    fn a_limit_keeps_the_first_in_order() {
        let paths = ["e", "d", "c", "b", "a", "f"];
        assert_eq!(drained(&gather(Order::Path, Some(2), &paths)), "a\nb\n");
        assert_eq!(drained(&gather(Order::Path, Some(0), &paths)), "");
        assert_eq!(
            drained(&gather(Order::Path, Some(10), &paths)),
            "a\nb\nc\nd\ne\nf\n"
        );
    }

    #[test]
    fn keys_travel_in_their_byte_form_and_say_where_records_end() {
        let (mut bytes, mut keys) = (Vec::new(), Keys::default());
        for (path, record) in [("a/b", "a/b\n"), ("c", "<c>\n"), ("q", "")] {
            let start = bytes.len();
            bytes.extend_from_slice(record.as_bytes());
            keys.note(path.as_bytes(), &bytes, start);
        }
        assert_eq!(
            (keys.len(), keys.end_of_first(1), keys.end_of_first(3)),
            (3, 4, 8)
        );
        assert_eq!(keys.end_of_first(0), 0);
        let mut wire = Vec::new();
        keys.encode(&mut wire);
        wire.extend_from_slice(&bytes);
        let (mut back, rest) = Keys::decode(&wire).unwrap();
        assert_eq!(rest, &bytes[..]);
        let g = Gathered::new(Order::Path, None);
        g.keep(&mut rest.to_vec(), &mut back);
        assert_eq!(drained(&g), "a/b\n<c>\n");
        // A range past the batch's bytes is refused.
        assert!(Keys::decode(&wire[..wire.len() - 1]).is_none());
        assert!(Keys::decode(&[1, 0]).is_none());
    }

    #[test]
    fn a_limited_pile_is_cut_back_as_it_grows_and_keeps_the_first() {
        let g = Gathered::new(Order::Path, Some(3));
        // Batches in descending order, so that the first three come last.
        let total = 3 * COMPACT_AT_LEAST;
        for batch in (0..total).collect::<Vec<_>>().chunks(1000).rev() {
            let (mut bytes, mut keys) = (Vec::new(), Keys::default());
            for i in batch.iter().rev() {
                let p = format!("f{i:07}");
                let start = bytes.len();
                bytes.extend_from_slice(p.as_bytes());
                bytes.push(b'\n');
                keys.note(p.as_bytes(), &bytes, start);
            }
            g.keep(&mut bytes, &mut keys);
            let held = g.pile.lock().unwrap().records;
            assert!(held <= COMPACT_AT_LEAST + 1000, "{held} records held");
        }
        assert_eq!(drained(&g), "f0000000\nf0000001\nf0000002\n");
    }
}
