//! The screen in front of a directory's chain of ignore files: their rules on names merged into
//! tables of bounded size, so that one look tells whether any rule may match a name.

use std::hash::Hasher;

use super::keys::{has_byte, set_byte, FxHasher, Shape};
use super::wild::Wild;
use super::Rules;

/// Marks "no wildcard rule" in [`Screen`]'s dot counts.
const NO_GLOB: u8 = u8::MAX;

/// The rules on names alone of a chain of ignore files (a directory's and its ancestors'),
/// merged so that one look tells whether any of them may match a name: most entries meet
/// none, and are then spared the look into every file of the chain. The answer "maybe" is
/// always safe (the files are then asked one by one); "no" is given only when no name rule of
/// any file can match. Rules on paths are screened per directory instead
/// ([`Rules::paths_may_match_in`]). Tables of bounded size (at most [`Screen::HEADS`] literal
/// heads), so that a directory with an ignore file copies its parent's screen at a fixed cost.
#[derive(Debug, Clone)]
pub struct Screen {
    /// Every literal name.
    names: Bloom,
    /// Every `*.EXT`'s EXT.
    exts: Bloom,
    /// For each byte, the fewest literal dots of a wildcard rule filed under a name's last
    /// byte (its tail's), or [`NO_GLOB`].
    last_dots: [u8; 256],
    /// The same for the wildcard rules filed under a name's first byte whose head is one
    /// literal byte.
    first_dots: [u8; 256],
    /// The wildcard rules filed under a name's first byte whose head starts with more literal
    /// bytes (`patches-*`, `cscope.*`, `sphinx_*/`): those bytes, and the fewest dots. At
    /// most [`Screen::HEADS`]; the rules of any further head are counted in `first_dots`.
    pub(super) heads: Vec<(Box<[u8]>, u8)>,
    /// The first bytes in `heads`.
    head_first: [u64; 4],
    /// The fewest dots of the wildcard rules filed under neither.
    other_dots: u8,
    /// Some rule was left to globset, which may match on the name: every entry is a "maybe".
    open: bool,
}

/// A set of byte strings that may answer "maybe" for a string it does not hold (one in about
/// 40 with a hundred strings), never "no" for one it holds: a filter on length, first and
/// last byte, then one bit of 4,096 by hash.
#[derive(Debug, Clone, Default)]
struct Bloom {
    shape: Shape,
    bits: Vec<u64>,
}

impl Bloom {
    const BITS: usize = 4096;

    /// The top bits of the Fx state, which depend on every byte: without the fold of
    /// `finish`, which the hash tables need and a look into the screen, made for nearly every
    /// entry, need not pay.
    fn slot(key: &[u8]) -> usize {
        let mut h = FxHasher::default();
        h.write(key);
        (h.0 >> 52) as usize % Self::BITS
    }

    fn add(&mut self, key: &[u8]) {
        if key.is_empty() {
            return;
        }
        self.shape.add(key);
        if self.bits.is_empty() {
            self.bits = vec![0; Self::BITS / 64];
        }
        let i = Self::slot(key);
        self.bits[i / 64] |= 1 << (i % 64);
    }

    #[inline]
    fn may_hold(&self, key: &[u8]) -> bool {
        if !self.shape.admits(key) {
            return false;
        }
        let i = Self::slot(key);
        self.bits[i / 64] & (1 << (i % 64)) != 0
    }
}

impl Default for Screen {
    fn default() -> Screen {
        Screen {
            names: Bloom::default(),
            exts: Bloom::default(),
            last_dots: [NO_GLOB; 256],
            first_dots: [NO_GLOB; 256],
            heads: Vec::new(),
            head_first: [0; 4],
            other_dots: NO_GLOB,
            open: false,
        }
    }
}

/// Dots counted up to 254, so that a count never reads as [`NO_GLOB`].
fn capped_dots(n: usize) -> u8 {
    n.min(usize::from(NO_GLOB) - 1) as u8
}

impl Screen {
    /// The most literal heads a screen keeps apart: a chain of the Linux tree's files has a
    /// handful. Unbounded, 70,000 rules `aaaaaN*` took 12 s to merge, each head looked up in
    /// the list of those before it, and a name beginning with `a` was compared
    /// with each of them.
    pub(super) const HEADS: usize = 32;

    /// Adds the name rules of one file: O(its rules), and the screen stays of bounded size,
    /// as every directory with an ignore file copies its parent's.
    pub fn add(&mut self, rules: &Rules) {
        for key in rules.names.map.keys() {
            self.names.add(key);
        }
        for key in rules.exts.map.keys() {
            self.exts.add(key);
        }
        let globs = &rules.name_globs;
        let lower = |d: &mut u8, w: &Wild| *d = (*d).min(capped_dots(w.dots));
        for (b, list) in &globs.by_last.lists {
            for w in list {
                lower(&mut self.last_dots[usize::from(*b)], w);
            }
        }
        for (b, list) in &globs.by_first.lists {
            for w in list {
                // Filed by its first byte, a head is all literal (`NameGlobs::add`).
                // Past the first few heads, a rule is screened by its first byte alone.
                match &*w.head.lit {
                    head @ [_, _, ..] => match self.heads.iter().position(|(h, _)| **h == *head) {
                        Some(at) => lower(&mut self.heads[at].1, w),
                        None if self.heads.len() < Self::HEADS => {
                            set_byte(&mut self.head_first, *b);
                            self.heads.push((head.into(), capped_dots(w.dots)));
                        }
                        None => lower(&mut self.first_dots[usize::from(*b)], w),
                    },
                    _ => lower(&mut self.first_dots[usize::from(*b)], w),
                }
            }
        }
        for w in &globs.other {
            lower(&mut self.other_dots, w);
        }
        self.open |= rules.residual.is_some();
    }

    /// Whether a rule on names may match `name` (false: none can).
    #[inline]
    pub fn may_match(&self, name: &[u8]) -> bool {
        let (Some(&first), Some(&last)) = (name.first(), name.last()) else {
            return true;
        };
        if self.open || self.names.may_hold(name) {
            return true;
        }
        let last_dot = name.iter().rposition(|&c| c == b'.');
        if let Some(dot) = last_dot {
            if self.exts.may_hold(&name[dot + 1..]) {
                return true;
            }
        }
        let mut need = self.last_dots[usize::from(last)]
            .min(self.first_dots[usize::from(first)])
            .min(self.other_dots);
        if has_byte(&self.head_first, first) {
            for (head, dots) in &self.heads {
                // The first byte first: a slice comparison is a call to memcmp.
                if head[0] == first && name.starts_with(head) {
                    need = need.min(*dots);
                }
            }
        }
        // The dots are counted only as far as needed: most names have one, found above.
        match (need, last_dot) {
            (NO_GLOB, _) => false,
            (0, _) => true,
            (_, None) => false,
            (1, Some(_)) => true,
            (n, Some(dot)) => {
                capped_dots(1 + name[..dot].iter().filter(|&&b| b == b'.').count()) >= n
            }
        }
    }
}
