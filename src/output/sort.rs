//! `--sort`: results gathered while the walk runs, then sorted and written when it ends.
//!
//! The printer formats each record as usual into a worker's batch; when sorting, the batch also
//! notes the record's sort key (its path) and byte range ([`Keys`]), and a full batch goes into
//! the [`Gathered`] pile instead of to stdout. At the end the pile is ordered by key and the
//! records are written in that order. How a record is formatted (a path, a color, a JSON line)
//! does not matter here: only its bytes are moved.
//!
//! Cost: every record is held until the walk ends (its bytes, its path again as the key, and
//! 24 bytes of bookkeeping), and sorting n records takes n log n comparisons. With a limit
//! (`--max-results N`) only the first N are fully sorted, after a linear selection.

use std::cmp::Ordering;
use std::sync::Mutex;

/// An order for `--sort`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// By path, one component at a time.
    Path,
    /// Fewer path components first, then by path.
    Depth,
}

/// One record's place in its batch.
#[derive(Debug, Clone, Copy)]
struct Record {
    /// The key's range in [`Keys::keys`].
    key: (u32, u32),
    /// The record's range in the batch's output bytes.
    bytes: (u32, u32),
    /// Path components, for [`Order::Depth`].
    depth: u32,
}

/// The sort keys of the records in a worker's batch (empty unless sorting).
#[derive(Debug, Default)]
pub struct Keys {
    keys: Vec<u8>,
    records: Vec<Record>,
}

impl Keys {
    /// Notes a record: its path (the key) and where its bytes lie in the batch's buffer.
    #[inline]
    pub fn note(&mut self, path: &[u8], start: usize, end: usize) {
        let k = self.keys.len();
        self.keys.extend_from_slice(path);
        // Batches stay near 64 KiB, so offsets fit in 32 bits; a single record of more than
        // 4 GiB is not a path.
        self.records.push(Record {
            key: (k as u32, self.keys.len() as u32),
            bytes: (start as u32, end as u32),
            depth: path.iter().filter(|&&b| b == b'/').count() as u32,
        });
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
    chunks: Mutex<Vec<Chunk>>,
}

impl Gathered {
    /// An empty pile for `order`.
    pub fn new(order: Order) -> Gathered {
        Gathered {
            order,
            chunks: Mutex::new(Vec::new()),
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
        self.chunks
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(chunk);
    }

    /// Sorts everything kept and hands the first `limit` records' bytes to `write`, in order,
    /// until it returns false.
    pub fn drain(&self, limit: Option<usize>, write: &mut dyn FnMut(&[u8]) -> bool) {
        let chunks = std::mem::take(&mut *self.chunks.lock().unwrap_or_else(|e| e.into_inner()));
        let mut all: Vec<Item<'_>> = chunks
            .iter()
            .flat_map(|chunk| {
                chunk.keys.records.iter().map(|rec| Item {
                    key: &chunk.keys.keys[rec.key.0 as usize..rec.key.1 as usize],
                    depth: rec.depth,
                    bytes: &chunk.bytes[rec.bytes.0 as usize..rec.bytes.1 as usize],
                })
            })
            .collect();
        let order = self.order;
        let cmp = |a: &Item<'_>, b: &Item<'_>| -> Ordering {
            match order {
                Order::Path => compare_paths(a.key, b.key),
                Order::Depth => a
                    .depth
                    .cmp(&b.depth)
                    .then_with(|| compare_paths(a.key, b.key)),
            }
        };
        let n = limit.unwrap_or(all.len()).min(all.len());
        if n < all.len() {
            // Only the first n need ordering: select them in linear time, then sort those.
            if n > 0 {
                all.select_nth_unstable_by(n - 1, cmp);
            }
            all.truncate(n);
        }
        all.sort_unstable_by(cmp);
        for item in &all {
            if !write(item.bytes) {
                return;
            }
        }
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
    match a.iter().zip(b).position(|(x, y)| x != y) {
        None => a.len().cmp(&b.len()),
        Some(i) => rank(a[i]).cmp(&rank(b[i])),
    }
}

/// A byte's place in path order: "/" first.
fn rank(byte: u8) -> u16 {
    if byte == b'/' {
        0
    } else {
        u16::from(byte) + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_before_siblings() {
        let mut v: Vec<&[u8]> = vec![b"a-b", b"a/b", b"a", b"a/b/c", b"B", b"a.txt", b"a/a"];
        v.sort_by(|a, b| compare_paths(a, b));
        let want: Vec<&[u8]> = vec![b"B", b"a", b"a/a", b"a/b", b"a/b/c", b"a-b", b"a.txt"];
        assert_eq!(v, want);
    }

    fn gather(order: Order, paths: &[&str]) -> Gathered {
        let g = Gathered::new(order);
        // Two batches, as two workers would hand them over.
        for half in paths.chunks(paths.len().div_ceil(2)) {
            let (mut bytes, mut keys) = (Vec::new(), Keys::default());
            for p in half {
                let start = bytes.len();
                bytes.extend_from_slice(p.as_bytes());
                bytes.push(b'\n');
                keys.note(p.as_bytes(), start, bytes.len());
            }
            g.keep(&mut bytes, &mut keys);
        }
        g
    }

    fn drained(g: &Gathered, limit: Option<usize>) -> String {
        let mut out = Vec::new();
        g.drain(limit, &mut |r| {
            out.extend_from_slice(r);
            true
        });
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn sorts_across_batches_by_path_and_by_depth() {
        let paths = ["z", "a/b/c", "a", "m/n", "a/b", "b"];
        assert_eq!(
            drained(&gather(Order::Path, &paths), None),
            "a\na/b\na/b/c\nb\nm/n\nz\n"
        );
        assert_eq!(
            drained(&gather(Order::Depth, &paths), None),
            "a\nb\nz\na/b\nm/n\na/b/c\n"
        );
    }

    #[test]
    fn a_limit_keeps_the_first_in_order() {
        let paths = ["e", "d", "c", "b", "a", "f"];
        assert_eq!(drained(&gather(Order::Path, &paths), Some(2)), "a\nb\n");
        assert_eq!(drained(&gather(Order::Path, &paths), Some(0)), "");
        assert_eq!(
            drained(&gather(Order::Path, &paths), Some(10)),
            "a\nb\nc\nd\ne\nf\n"
        );
    }
}
