//! Wildcard rules on names and paths, matched on bytes without a regex: a pattern is
//! fixed-length segments between stars ([`Wild`]), so the leftmost place of each is always
//! right; a path is such patterns per component with `**` between them ([`WildPath`]),
//! matched without backtracking; rules on names are indexed by a byte of the name
//! ([`NameGlobs`]) so that a name meets only those that may match it.

use super::keys::{has_byte, set_byte};
use super::syntax::Tok;

#[cfg(test)]
thread_local! {
    /// How many path components this thread's rules on paths compared with a pattern.
    pub static COMPONENTS_COMPARED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// A fixed-length run of tokens between stars: literal bytes compare as a slice.
#[derive(Debug, Clone)]
pub(super) struct Seg {
    /// The bytes, with `?` and classes as placeholders when `toks` is set.
    pub(super) lit: Box<[u8]>,
    /// The tokens, kept only when some are not literal bytes.
    pub(super) toks: Option<Box<[Tok]>>,
}

impl Seg {
    pub(super) fn new(toks: &[Tok]) -> Seg {
        let lit: Box<[u8]> = toks
            .iter()
            .map(|t| match t {
                Tok::Byte(c) => *c,
                _ => 0,
            })
            .collect();
        let exact = toks.iter().all(|t| matches!(t, Tok::Byte(_)));
        Seg {
            lit,
            toks: (!exact).then(|| toks.into()),
        }
    }

    pub(super) fn len(&self) -> usize {
        self.lit.len()
    }

    /// Whether `s` starts with this segment.
    #[inline]
    pub(super) fn fits_at(&self, s: &[u8]) -> bool {
        match &self.toks {
            None => self.lit.len() <= s.len() && same(&self.lit, s),
            Some(toks) => toks.len() <= s.len() && toks.iter().zip(s).all(|(t, &b)| t.fits(b)),
        }
    }

    /// Where the segment first fits in `s`.
    #[inline]
    pub(super) fn find(&self, s: &[u8]) -> Option<usize> {
        let n = self.len();
        if n > s.len() {
            return None;
        }
        match (&self.toks, self.lit.first()) {
            (None, Some(&first)) => {
                (0..=s.len() - n).find(|&i| s[i] == first && same(&self.lit, &s[i..]))
            }
            (Some(toks), Some(&first)) if matches!(toks[0], Tok::Byte(_)) => {
                (0..=s.len() - n).find(|&i| s[i] == first && self.fits_at(&s[i..]))
            }
            _ => (0..=s.len() - n).find(|&i| self.fits_at(&s[i..])),
        }
    }
}

/// Whether `s` starts with `lit`, for the few bytes of a name: a plain loop, as a call to
/// `memcmp` per comparison costs more than the comparison.
#[inline]
pub(super) fn same(lit: &[u8], s: &[u8]) -> bool {
    lit.iter().zip(s).all(|(a, b)| a == b)
}

/// A wildcard pattern on one component: fixed-length segments between stars.
#[derive(Debug, Clone)]
pub(super) struct Wild {
    pub(super) index: i32,
    pub(super) dir_only: bool,
    /// Before the first star (the whole pattern when it has no star).
    pub(super) head: Seg,
    /// Between stars, in order.
    pub(super) middle: Vec<Seg>,
    /// After the last star; `None` when there is no star at all.
    pub(super) tail: Option<Seg>,
    /// How many literal `.` the pattern holds: a name with fewer cannot match. Most names
    /// have one dot, and most wildcards in ignore files more (`*.mod.c`, `*.o.*`), so this
    /// one count spares nearly every comparison.
    pub(super) dots: usize,
}

impl Wild {
    pub(super) fn new(index: i32, dir_only: bool, toks: &[Tok]) -> Wild {
        let mut parts = toks.split(|t| *t == Tok::Star);
        let head = Seg::new(parts.next().unwrap_or_default());
        let rest: Vec<&[Tok]> = parts.collect();
        let (middle, tail) = match rest.split_last() {
            None => (Vec::new(), None),
            Some((last, middle)) => (
                middle
                    .iter()
                    .filter(|s| !s.is_empty())
                    .map(|s| Seg::new(s))
                    .collect(),
                Some(Seg::new(last)),
            ),
        };
        Wild {
            index,
            dir_only,
            head,
            middle,
            tail,
            dots: toks.iter().filter(|t| **t == Tok::Byte(b'.')).count(),
        }
    }

    /// Whether the whole of `s` matches. Segments between stars have fixed lengths, so the
    /// leftmost place for each one is always right.
    #[inline]
    pub(super) fn matches(&self, s: &[u8]) -> bool {
        let Some(tail) = &self.tail else {
            return self.head.len() == s.len() && self.head.fits_at(s);
        };
        if self.head.len() + tail.len() > s.len()
            || !tail.fits_at(&s[s.len() - tail.len()..])
            || !self.head.fits_at(s)
        {
            return false;
        }
        let mut rest = &s[self.head.len()..s.len() - tail.len()];
        for seg in &self.middle {
            match seg.find(rest) {
                Some(i) => rest = &rest[i + seg.len()..],
                None => return false,
            }
        }
        true
    }
}

/// Wildcard patterns on the name, indexed so that a name meets only those that may match it:
/// by the last byte of a literal tail (`*~`, `*.mod.c`), or each byte of a small class ending
/// it (`*.tab.[ch]`), else by the first byte of a literal head (`.*`, `cscope.*`), else in a
/// list of their own (`*.o.*`).
#[derive(Debug, Default)]
pub(super) struct NameGlobs {
    pub(super) by_last: Buckets,
    /// The patterns ending in a small class copied into `by_last`.
    pub(super) copied: usize,
    pub(super) by_first: Buckets,
    pub(super) other: Vec<Wild>,
}

/// Lists of patterns by one byte of the name, behind a bit set of the bytes that have one.
#[derive(Debug, Default)]
pub(super) struct Buckets {
    pub(super) mask: [u64; 4],
    pub(super) lists: Vec<(u8, Vec<Wild>)>,
}

impl Buckets {
    pub(super) fn add(&mut self, byte: u8, w: Wild) {
        set_byte(&mut self.mask, byte);
        match self.lists.iter_mut().find(|(b, _)| *b == byte) {
            Some((_, list)) => list.push(w),
            None => self.lists.push((byte, vec![w])),
        }
    }

    pub(super) fn get(&self, byte: Option<&u8>) -> &[Wild] {
        match byte {
            Some(&b) if has_byte(&self.mask, b) => self
                .lists
                .iter()
                .find(|(x, _)| *x == b)
                .map_or(&[], |(_, l)| l.as_slice()),
            _ => &[],
        }
    }
}

/// The highest rule in `list` (highest first) above `best` that matches.
#[inline]
pub(super) fn first_match(list: &[Wild], name: &[u8], dots: usize, is_dir: bool, best: i32) -> i32 {
    for w in list {
        if w.index <= best {
            break;
        }
        if (is_dir || !w.dir_only) && w.dots <= dots && w.matches(name) {
            return w.index;
        }
    }
    -1
}

impl NameGlobs {
    /// Patterns ending in a small class copied under each of its bytes, per file: real files
    /// have a few (the Linux tree's top one, `*.tab.[ch]`). Past them, such a pattern is
    /// filed once, as one with no literal tail: a copy under each byte for every one made the
    /// compiled rules of a hostile file hundreds of times its size.
    pub(super) const COPIED: usize = 64;

    pub(super) fn add(&mut self, w: Wild) {
        let literal_first = |seg: &Seg| match (&seg.toks, seg.lit.first()) {
            (None, Some(&b)) => Some(b),
            _ => None,
        };
        // The bytes a matching name may end with: the tail's last byte, or a small class's.
        let tail_last: Vec<u8> = match w.tail.as_ref().map(|t| (&t.toks, t.lit.last())) {
            Some((None, Some(&b))) => vec![b],
            Some((Some(toks), _)) => match toks.last() {
                Some(Tok::Byte(b)) => vec![*b],
                Some(Tok::Class(set)) => (0..=255u8).filter(|&b| has_byte(set, b)).collect(),
                _ => Vec::new(),
            },
            _ => Vec::new(),
        };
        let class = tail_last.len() > 1;
        if (1..=8).contains(&tail_last.len()) && (!class || self.copied < Self::COPIED) {
            self.copied += usize::from(class);
            for b in tail_last {
                self.by_last.add(b, w.clone());
            }
        } else if let Some(b) = literal_first(&w.head) {
            self.by_first.add(b, w);
        } else {
            self.other.push(w);
        }
    }

    /// Highest rule first in every list.
    pub(super) fn finish(&mut self) {
        for (_, list) in self
            .by_last
            .lists
            .iter_mut()
            .chain(&mut self.by_first.lists)
        {
            list.reverse();
        }
        self.other.reverse();
    }

    pub(super) fn matched(&self, name: &[u8], is_dir: bool, mut best: i32) -> i32 {
        let mut dots = None;
        for list in [
            self.by_last.get(name.last()),
            self.by_first.get(name.first()),
            &self.other,
        ] {
            if list.is_empty() {
                continue;
            }
            let dots = *dots.get_or_insert_with(|| name.iter().filter(|&&b| b == b'.').count());
            best = best.max(first_match(list, name, dots, is_dir, best));
        }
        best
    }

    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        let buckets = |b: &Buckets| b.lists.iter().map(|(_, l)| l.len()).sum::<usize>();
        buckets(&self.by_last) + buckets(&self.by_first) + self.other.len()
    }
}

/// A wildcard path: one [`Part`] per component.
#[derive(Debug, Clone)]
pub(super) struct WildPath {
    pub(super) index: i32,
    pub(super) dir_only: bool,
    pub(super) parts: Vec<Part>,
}

/// One component of a [`WildPath`].
#[derive(Debug, Clone)]
pub(super) enum Part {
    One(Wild),
    /// `**`: zero or more components (never last, never twice in a row).
    Deep,
}

impl WildPath {
    pub(super) fn matches(&self, rel: &[u8]) -> bool {
        match_parts(&self.parts, Some(rel))
    }
}

/// Path components joined by `/`; `None` when there are none.
pub(super) type Components<'a> = Option<&'a [u8]>;

/// Whether the components in `rel` match `parts`.
///
/// Between two `**` the parts take a fixed number of components, so, as for the segments
/// between stars in [`Wild::matches`], the leftmost place for each such run is always right:
/// no backtracking, at most (components x parts) comparisons. Trying every place for every
/// `**` in turn took time exponential in their number (`**/a/**/a/**/a/**/a/**/b` on a deep
/// path).
pub(super) fn match_parts(mut parts: &[Part], mut rel: Components<'_>) -> bool {
    // Up to the first `**`, part by part.
    while let Some((Part::One(w), rest)) = parts.split_first() {
        let Some((comp, after)) = rel.map(first_component) else {
            return false;
        };
        if !component_matches(w, comp) {
            return false;
        }
        (parts, rel) = (rest, after);
    }
    let Some((_deep, parts)) = parts.split_first() else {
        return rel.is_none();
    };
    let mut runs = parts.split(|p| matches!(p, Part::Deep));
    let last = runs.next_back().unwrap_or_default();
    let Some((mut middle, end)) = split_last(rel, last.len()) else {
        return false;
    };
    if match_run(last, end) != Some(None) {
        return false;
    }
    for run in runs {
        loop {
            if let Some(after) = match_run(run, middle) {
                middle = after;
                break;
            }
            match middle {
                Some(m) => middle = first_component(m).1,
                None => return false,
            }
        }
    }
    true
}

/// Whether the component `comp` matches `w`.
#[inline]
pub(super) fn component_matches(w: &Wild, comp: &[u8]) -> bool {
    #[cfg(test)]
    COMPONENTS_COMPARED.set(COMPONENTS_COMPARED.get() + 1);
    w.matches(comp)
}

/// The first component of `rel`, and the components after it.
pub(super) fn first_component(rel: &[u8]) -> (&[u8], Option<&[u8]>) {
    match rel.iter().position(|&b| b == b'/') {
        Some(i) => (&rel[..i], Some(&rel[i + 1..])),
        None => (rel, None),
    }
}

/// Whether a run of parts without `**` matches the first components of `rel`: the components
/// left after them.
pub(super) fn match_run<'a>(run: &[Part], mut rel: Components<'a>) -> Option<Components<'a>> {
    for part in run {
        let Part::One(w) = part else {
            unreachable!("runs are split at **")
        };
        let (comp, after) = first_component(rel?);
        if !component_matches(w, comp) {
            return None;
        }
        rel = after;
    }
    Some(rel)
}

/// `rel` cut before its last `n` components: (the components before, the last `n`); `None`
/// when it has fewer.
pub(super) fn split_last(
    rel: Components<'_>,
    n: usize,
) -> Option<(Components<'_>, Components<'_>)> {
    if n == 0 {
        return Some((rel, None));
    }
    let r = rel?;
    let mut cut = r.len();
    for _ in 1..n {
        cut = r[..cut].iter().rposition(|&b| b == b'/')?;
    }
    Some(match r[..cut].iter().rposition(|&b| b == b'/') {
        Some(i) => (Some(&r[..i]), Some(&r[i + 1..])),
        None => (None, Some(r)),
    })
}
