//! The hash-set classes of compiled rules: literal names, extensions and literal paths, each a
//! hash set of byte strings with the highest rules for directories and for other entries
//! ([`Keys`]), behind a filter on length, first and last byte ([`Shape`]); the 256-bit byte
//! sets the other classes use too; and the Fx hash the sets are keyed with.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A hash set of byte strings with their rules, behind a [`Shape`] filter.
#[derive(Debug, Default)]
pub(super) struct Keys {
    pub(super) map: FastMap<Best>,
    pub(super) shape: Shape,
}

/// The lengths, first and last bytes of a set of strings: a filter that turns most strings
/// that are not in the set away before they are hashed.
#[derive(Debug, Default, Clone)]
pub(super) struct Shape {
    /// Bit `min(len, 63)` for each string's length.
    pub(super) lens: u64,
    /// Bit per first byte of a string.
    pub(super) first: [u64; 4],
    /// Bit per last byte of a string.
    pub(super) last: [u64; 4],
}

impl Shape {
    pub(super) fn add(&mut self, key: &[u8]) {
        if let (Some(&f), Some(&b)) = (key.first(), key.last()) {
            self.lens |= 1 << key.len().min(63);
            set_byte(&mut self.first, f);
            set_byte(&mut self.last, b);
        }
    }

    /// Whether `key` may be in the set (never for an empty key).
    #[inline]
    pub(super) fn admits(&self, key: &[u8]) -> bool {
        match (key.first(), key.last()) {
            (Some(&f), Some(&b)) => {
                self.lens & (1 << key.len().min(63)) != 0
                    && has_byte(&self.last, b)
                    && has_byte(&self.first, f)
            }
            _ => false,
        }
    }
}

/// Whether byte `b`'s bit is set in a 256-bit set.
#[inline]
pub(super) fn has_byte(set: &[u64; 4], b: u8) -> bool {
    set[usize::from(b >> 6)] & (1 << (b & 63)) != 0
}

/// Sets byte `b`'s bit in a 256-bit set.
pub(super) fn set_byte(set: &mut [u64; 4], b: u8) {
    set[usize::from(b >> 6)] |= 1 << (b & 63);
}

impl Keys {
    pub(super) fn add(&mut self, key: Vec<u8>, index: i32, dir_only: bool) {
        self.shape.add(&key);
        self.map
            .entry(key.into())
            .or_insert(Best::NONE)
            .add(index, dir_only);
    }

    #[inline]
    pub(super) fn get(&self, key: &[u8], is_dir: bool) -> i32 {
        if !self.shape.admits(key) {
            return -1;
        }
        self.map.get(key).map_or(-1, |best| best.get(is_dir))
    }

    pub(super) fn len(&self) -> usize {
        self.map.len()
    }
}

/// The highest rule of a hash-set class that applies to directories, and to other entries.
#[derive(Debug, Clone, Copy)]
pub(super) struct Best {
    pub(super) dir: i32,
    pub(super) other: i32,
}

impl Best {
    pub(super) const NONE: Best = Best { dir: -1, other: -1 };

    pub(super) fn add(&mut self, index: i32, dir_only: bool) {
        self.dir = self.dir.max(index);
        if !dir_only {
            self.other = self.other.max(index);
        }
    }

    pub(super) fn get(&self, is_dir: bool) -> i32 {
        if is_dir {
            self.dir
        } else {
            self.other
        }
    }
}

/// A hash map on byte strings with FxHash: names are short, and SipHash costs more than the
/// comparison it saves.
pub(super) type FastMap<V> = HashMap<Box<[u8]>, V, BuildHasherDefault<FxHasher>>;

/// The Fx hash (rustc's): a rotate, a xor and a multiply per word. Also the memo's index hash
/// (`memo/format.rs`), where its values are written to disk: changing it changes the format.
#[derive(Default, Clone, Copy)]
pub struct FxHasher(pub(super) u64);

pub(super) const FX_SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

/// An odd constant with no pattern (the fractional part of the golden ratio) for
/// [`FxHasher::finish`].
pub(super) const FOLD_SEED: u64 = 0x9e37_79b9_7f4a_7c15;

impl FxHasher {
    pub(super) fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(FX_SEED);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            // The word `from_le_bytes` of the bytes and zeros gives, without the call to
            // memcpy a copy of a varying length makes: most names end in such a rest.
            let word = rest
                .iter()
                .rev()
                .fold(0u64, |w, &b| (w << 8) | u64::from(b));
            self.add(word);
        }
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    /// The state folded by one wide multiply. Fx's multiply carries a byte only towards the
    /// high bits, and a hash table picks its bucket by the low ones: keys alike at the start
    /// (`a1` ... `a70000`, or `ext1` ... from `*.ext1` ...) fell in a few buckets, and a file of
    /// 70,000 such rules took seconds to compile. The high half of the product
    /// depends on every bit.
    fn finish(&self) -> u64 {
        let wide = u128::from(self.0) * u128::from(FOLD_SEED);
        wide as u64 ^ (wide >> 64) as u64
    }
}
