//! One ignore file's rules, compiled for speed: the common rules cost a hash lookup or a
//! comparison of a few bytes per entry, not a glob run.
//!
//! The semantics are the `ignore` crate's `Gitignore` (git's, as fd applies them), line for line:
//! the same parsing of each line (comments, trailing spaces, `!`, `\!`, `\#`, a leading `/`, a
//! trailing `/` for directories only, a `**/` prefix for patterns without a slash), and the last
//! matching rule wins (a `!` rule brings an entry back). Each rule is put in the cheapest class
//! that gives the same answer as its glob:
//!
//! - a literal name (`Makefile.local`, `build/`): a hash set of names;
//! - `*.EXT` with a plain extension: a hash set of extensions (the part after the name's last dot);
//! - any other pattern on the name alone made of literals, `*`, `?` and plain ASCII classes
//!   (`.*`, `*.o.*`, `*.tab.[ch]`, `patches-*`): a small wildcard matcher on the name's bytes;
//! - a literal path (`/vmlinux`, `doc/out`): a hash set of paths relative to the file's directory;
//! - a path of such wildcard components, and of `**` standing for any number of components
//!   (`/arch/*/include/generated/`, `lib/**/*.js`): matched component by component;
//! - everything else (`{a,b}`, negated or non-ASCII classes, `**` inside a component, ...):
//!   `globset::GlobSet`s built exactly as the `ignore` crate builds its one, of 256 rules each
//!   and at most 4,096 rules a file (the rest are skipped), run only when such rules exist.
//!
//! Compiling takes time linear in the file, and what it builds is a small multiple of it
//! (issue 18: a file planted above the search path is read by every search).
//!
//! In front of the files of a directory's chain, a [`Screen`] merges their rules on names and
//! [`Rules::paths_may_match_in`] asks once per directory whether a rule on paths can apply:
//! an entry that neither lets through is not asked of the files at all.
//!
//! The unit tests below compare every class against `Gitignore` on tricky rules and paths,
//! and check that the screens never turn away an entry a rule decides.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use globset::{Candidate, Glob, GlobBuilder, GlobSet};

/// The rule that decided an entry: `true` when it is a `!` rule (the entry is brought back).
pub type Decision = Option<bool>;

/// An ignore file (or several of one kind in one directory, in order), compiled.
#[derive(Debug, Default)]
pub struct Rules {
    /// Whether rule `i` is a `!` rule.
    whitelist: Vec<bool>,
    /// Literal names.
    names: Keys,
    /// `*.EXT`, by EXT (no dot in it).
    exts: Keys,
    /// Wildcard patterns on the name.
    name_globs: NameGlobs,
    /// Literal paths relative to the file's directory.
    paths: Keys,
    /// The directories (relative to the file's, "" for itself) those paths lie in.
    path_dirs: FastMap<()>,
    /// Wildcard paths, by component, highest rule first.
    path_globs: Vec<WildPath>,
    /// The rest, as the `ignore` crate would match them.
    residual: Option<Residual>,
}

/// A hash set of byte strings with their rules, behind a [`Shape`] filter.
#[derive(Debug, Default)]
struct Keys {
    map: FastMap<Best>,
    shape: Shape,
}

/// The lengths, first and last bytes of a set of strings: a filter that turns most strings
/// that are not in the set away before they are hashed.
#[derive(Debug, Default, Clone)]
struct Shape {
    /// Bit `min(len, 63)` for each string's length.
    lens: u64,
    /// Bit per first byte of a string.
    first: [u64; 4],
    /// Bit per last byte of a string.
    last: [u64; 4],
}

impl Shape {
    fn add(&mut self, key: &[u8]) {
        if let (Some(&f), Some(&b)) = (key.first(), key.last()) {
            self.lens |= 1 << key.len().min(63);
            set_byte(&mut self.first, f);
            set_byte(&mut self.last, b);
        }
    }

    /// Whether `key` may be in the set (never for an empty key).
    #[inline]
    fn admits(&self, key: &[u8]) -> bool {
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
fn has_byte(set: &[u64; 4], b: u8) -> bool {
    set[usize::from(b >> 6)] & (1 << (b & 63)) != 0
}

/// Sets byte `b`'s bit in a 256-bit set.
fn set_byte(set: &mut [u64; 4], b: u8) {
    set[usize::from(b >> 6)] |= 1 << (b & 63);
}

impl Keys {
    fn add(&mut self, key: Vec<u8>, index: i32, dir_only: bool) {
        self.shape.add(&key);
        self.map
            .entry(key.into())
            .or_insert(Best::NONE)
            .add(index, dir_only);
    }

    #[inline]
    fn get(&self, key: &[u8], is_dir: bool) -> i32 {
        if !self.shape.admits(key) {
            return -1;
        }
        self.map.get(key).map_or(-1, |best| best.get(is_dir))
    }

    fn len(&self) -> usize {
        self.map.len()
    }
}

/// The highest rule of a hash-set class that applies to directories, and to other entries.
#[derive(Debug, Clone, Copy)]
struct Best {
    dir: i32,
    other: i32,
}

impl Best {
    const NONE: Best = Best { dir: -1, other: -1 };

    fn add(&mut self, index: i32, dir_only: bool) {
        self.dir = self.dir.max(index);
        if !dir_only {
            self.other = self.other.max(index);
        }
    }

    fn get(&self, is_dir: bool) -> i32 {
        if is_dir {
            self.dir
        } else {
            self.other
        }
    }
}

/// One token of a wildcard pattern, on bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Byte(u8),
    /// `?`: any one byte (no `/` ever reaches a component).
    Any,
    /// `[...]`: one byte of the set (a 256-bit set: 32 bytes, where a `[bool; 256]` took 256
    /// for each class of a rule).
    Class(Box<[u64; 4]>),
    /// `*`: any run of bytes.
    Star,
    /// `**` as a whole path component: any number of components.
    Deep,
}

impl Tok {
    #[inline]
    fn fits(&self, b: u8) -> bool {
        match self {
            Tok::Byte(c) => *c == b,
            Tok::Any => true,
            Tok::Class(set) => has_byte(set, b),
            Tok::Star | Tok::Deep => unreachable!("stars split segments"),
        }
    }
}

/// A fixed-length run of tokens between stars: literal bytes compare as a slice.
#[derive(Debug, Clone)]
struct Seg {
    /// The bytes, with `?` and classes as placeholders when `toks` is set.
    lit: Box<[u8]>,
    /// The tokens, kept only when some are not literal bytes.
    toks: Option<Box<[Tok]>>,
}

impl Seg {
    fn new(toks: &[Tok]) -> Seg {
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

    fn len(&self) -> usize {
        self.lit.len()
    }

    /// Whether `s` starts with this segment.
    #[inline]
    fn fits_at(&self, s: &[u8]) -> bool {
        match &self.toks {
            None => self.lit.len() <= s.len() && same(&self.lit, s),
            Some(toks) => toks.len() <= s.len() && toks.iter().zip(s).all(|(t, &b)| t.fits(b)),
        }
    }

    /// Where the segment first fits in `s`.
    #[inline]
    fn find(&self, s: &[u8]) -> Option<usize> {
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
fn same(lit: &[u8], s: &[u8]) -> bool {
    lit.iter().zip(s).all(|(a, b)| a == b)
}

/// A wildcard pattern on one component: fixed-length segments between stars.
#[derive(Debug, Clone)]
struct Wild {
    index: i32,
    dir_only: bool,
    /// Before the first star (the whole pattern when it has no star).
    head: Seg,
    /// Between stars, in order.
    middle: Vec<Seg>,
    /// After the last star; `None` when there is no star at all.
    tail: Option<Seg>,
    /// How many literal `.` the pattern holds: a name with fewer cannot match. Most names
    /// have one dot, and most wildcards in ignore files more (`*.mod.c`, `*.o.*`), so this
    /// one count spares nearly every comparison.
    dots: usize,
}

impl Wild {
    fn new(index: i32, dir_only: bool, toks: &[Tok]) -> Wild {
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
    fn matches(&self, s: &[u8]) -> bool {
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
struct NameGlobs {
    by_last: Buckets,
    /// The patterns ending in a small class copied into `by_last`.
    copied: usize,
    by_first: Buckets,
    other: Vec<Wild>,
}

/// Lists of patterns by one byte of the name, behind a bit set of the bytes that have one.
#[derive(Debug, Default)]
struct Buckets {
    mask: [u64; 4],
    lists: Vec<(u8, Vec<Wild>)>,
}

impl Buckets {
    fn add(&mut self, byte: u8, w: Wild) {
        set_byte(&mut self.mask, byte);
        match self.lists.iter_mut().find(|(b, _)| *b == byte) {
            Some((_, list)) => list.push(w),
            None => self.lists.push((byte, vec![w])),
        }
    }

    fn get(&self, byte: Option<&u8>) -> &[Wild] {
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
fn first_match(list: &[Wild], name: &[u8], dots: usize, is_dir: bool, best: i32) -> i32 {
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
    /// compiled rules of a hostile file hundreds of times its size (issue 18).
    const COPIED: usize = 64;

    fn add(&mut self, w: Wild) {
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
    fn finish(&mut self) {
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

    fn matched(&self, name: &[u8], is_dir: bool, mut best: i32) -> i32 {
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
    fn len(&self) -> usize {
        let buckets = |b: &Buckets| b.lists.iter().map(|(_, l)| l.len()).sum::<usize>();
        buckets(&self.by_last) + buckets(&self.by_first) + self.other.len()
    }
}

/// A wildcard path: one [`Part`] per component.
#[derive(Debug, Clone)]
struct WildPath {
    index: i32,
    dir_only: bool,
    parts: Vec<Part>,
}

/// One component of a [`WildPath`].
#[derive(Debug, Clone)]
enum Part {
    One(Wild),
    /// `**`: zero or more components (never last, never twice in a row).
    Deep,
}

impl WildPath {
    fn matches(&self, rel: &[u8]) -> bool {
        match_parts(&self.parts, Some(rel))
    }
}

/// Path components joined by `/`; `None` when there are none.
type Components<'a> = Option<&'a [u8]>;

/// Whether the components in `rel` match `parts`.
///
/// Between two `**` the parts take a fixed number of components, so, as for the segments
/// between stars in [`Wild::matches`], the leftmost place for each such run is always right:
/// no backtracking, at most (components x parts) comparisons. Trying every place for every
/// `**` in turn took time exponential in their number (`**/a/**/a/**/a/**/a/**/b` on a deep
/// path, issue 18).
fn match_parts(mut parts: &[Part], mut rel: Components<'_>) -> bool {
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
fn component_matches(w: &Wild, comp: &[u8]) -> bool {
    #[cfg(test)]
    tests::COMPONENTS_COMPARED.set(tests::COMPONENTS_COMPARED.get() + 1);
    w.matches(comp)
}

/// The first component of `rel`, and the components after it.
fn first_component(rel: &[u8]) -> (&[u8], Option<&[u8]>) {
    match rel.iter().position(|&b| b == b'/') {
        Some(i) => (&rel[..i], Some(&rel[i + 1..])),
        None => (rel, None),
    }
}

/// Whether a run of parts without `**` matches the first components of `rel`: the components
/// left after them.
fn match_run<'a>(run: &[Part], mut rel: Components<'a>) -> Option<Components<'a>> {
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
fn split_last(rel: Components<'_>, n: usize) -> Option<(Components<'_>, Components<'_>)> {
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

/// Rules left to globset, in sets of at most [`ResidualBuilder::SET_RULES`], lowest rules
/// first.
///
/// One set of all of them took about 6 KiB per rule to build, and past some 20,000 rules it
/// did not build at all (globset's regex size limit), which dropped every one of them. A set
/// of 256 builds; it keeps about 1.6 KiB per rule, and its regex's caches a few KiB more for
/// each thread that matches with it.
#[derive(Debug)]
struct Residual {
    sets: Vec<ResidualSet>,
}

/// One set of [`Residual`], with the indices and directory-only flags of its rules.
#[derive(Debug)]
struct ResidualSet {
    set: GlobSet,
    rules: Vec<(i32, bool)>,
}

/// [`Residual`] as [`Rules::parse`] fills it.
#[derive(Default)]
struct ResidualBuilder {
    sets: Vec<ResidualSet>,
    /// The set being filled, its rules and the length of their globs.
    pending: Vec<Glob>,
    rules: Vec<(i32, bool)>,
    bytes: usize,
    /// Rules taken so far.
    taken: usize,
}

impl ResidualBuilder {
    /// Rules per set.
    const SET_RULES: usize = 256;
    /// Bytes of globs per set: well under what globset's regex size limit lets through.
    const SET_BYTES: usize = 64 << 10;
    /// Rules per ignore file (some 30 MiB with the caches of a few threads). Real files have
    /// a few such rules, if any (none in the Linux tree); the rest of a file with more is
    /// skipped, so that a planted one (millions fit in 16 MiB) cannot make ffind take
    /// gigabytes (issue 18).
    const MAX_RULES: usize = 1 << 12;

    fn full(&self) -> bool {
        self.taken >= Self::MAX_RULES
    }

    fn add(&mut self, glob: Glob, len: usize, index: i32, dir_only: bool) {
        if self.rules.len() >= Self::SET_RULES || self.bytes + len > Self::SET_BYTES {
            self.build();
        }
        self.pending.push(glob);
        self.rules.push((index, dir_only));
        self.bytes += len;
        self.taken += 1;
    }

    /// Builds the pending set. One that does not build drops its rules, as a `Gitignore` that
    /// does not build drops the file's.
    fn build(&mut self) {
        let rules = std::mem::take(&mut self.rules);
        let pending = std::mem::take(&mut self.pending);
        self.bytes = 0;
        if rules.is_empty() {
            return;
        }
        if let Ok(set) = GlobSet::new(&pending) {
            self.sets.push(ResidualSet { set, rules });
        }
    }

    fn finish(mut self) -> Option<Residual> {
        self.build();
        (!self.sets.is_empty()).then_some(Residual { sets: self.sets })
    }
}

/// One parsed line, as `GitignoreBuilder::add_line` parses it.
struct Line<'a> {
    whitelist: bool,
    dir_only: bool,
    /// The pattern, a `/**` end made `/**/*` as the crate makes it.
    glob: std::borrow::Cow<'a, str>,
    /// The crate puts `**/` before it (a pattern without a slash matches at any depth):
    /// the fast classes take it as a rule on the name instead of building that string.
    any_depth: bool,
}

impl Line<'_> {
    /// The glob as the crate builds it.
    fn actual(&self) -> std::borrow::Cow<'_, str> {
        if self.any_depth {
            format!("**/{}", self.glob).into()
        } else {
            std::borrow::Cow::Borrowed(&self.glob)
        }
    }
}

/// `GitignoreBuilder::add_line`'s parsing, without building the glob. `None` for no rule.
fn parse_line(line: &str) -> Option<Line<'_>> {
    if line.starts_with('#') {
        return None;
    }
    let mut line = trim_trailing_unescaped_spaces(line);
    if line.is_empty() {
        return None;
    }
    let mut whitelist = false;
    let mut absolute = false;
    if line.starts_with("\\!") || line.starts_with("\\#") {
        line = &line[1..];
        absolute = line.starts_with('/');
    } else {
        if let Some(l) = line.strip_prefix('!') {
            whitelist = true;
            line = l;
        }
        if let Some(l) = line.strip_prefix('/') {
            line = l;
            absolute = true;
        }
    }
    if line.is_empty() {
        return None;
    }
    let mut dir_only = false;
    if let Some(l) = line.strip_suffix('/') {
        dir_only = true;
        line = l.strip_suffix('\\').unwrap_or(l);
    }
    let doublestar_prefix = line.starts_with("**/") || line == "**";
    let any_depth = !absolute && !line.contains('/') && !doublestar_prefix;
    // Only a pattern with a slash can end with "/**" (and then gets no "**/" before it).
    let glob = if line.ends_with("/**") {
        format!("{line}/*").into()
    } else {
        std::borrow::Cow::Borrowed(line)
    };
    Some(Line {
        whitelist,
        dir_only,
        glob,
        any_depth,
    })
}

/// The `ignore` crate's `trim_trailing_unescaped_spaces`.
fn trim_trailing_unescaped_spaces(line: &str) -> &str {
    let bytes = line.as_bytes();
    let mut last_space = None;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => {
                if i + 1 >= bytes.len() {
                    return line;
                }
                i += 2;
                last_space = None;
            }
            b' ' => {
                if last_space.is_none() {
                    last_space = Some(i);
                }
                i += 1;
            }
            _ => {
                last_space = None;
                i += 1;
            }
        }
    }
    &line[..last_space.unwrap_or(line.len())]
}

/// Tokens of a glob, when it only uses what the fast classes handle: literal bytes (escaped
/// or not), single `*`, `?`, and classes of ASCII letters, digits, `.` and `_` (with ranges
/// between letters or digits). `/` comes out as `Byte(b'/')`. `None` otherwise.
fn tokens(glob: &str) -> Option<Vec<Tok>> {
    let b = glob.as_bytes();
    // Looked for once, at the first `**`: at each in turn, a line of them took time quadratic
    // in its length.
    let mut escapes = None;
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => {
                let c = *b.get(i + 1)?;
                out.push(Tok::Byte(c));
                i += 2;
            }
            b'*' if b.get(i + 1) == Some(&b'*') => {
                // Only `**` as a whole component, in a glob without escapes (where `\/` could
                // stand before it): anything else is left to globset.
                let whole =
                    (i == 0 || b[i - 1] == b'/') && matches!(b.get(i + 2), None | Some(b'/'));
                if !whole || *escapes.get_or_insert_with(|| b.contains(&b'\\')) {
                    return None;
                }
                out.push(Tok::Deep);
                i += 2;
            }
            b'*' => {
                out.push(Tok::Star);
                i += 1;
            }
            b'?' => {
                out.push(Tok::Any);
                i += 1;
            }
            b'[' => {
                let mut set = Box::new([0u64; 4]);
                let plain = |c: u8| c.is_ascii_alphanumeric() || c == b'.' || c == b'_';
                let mut j = i + 1;
                let mut members = 0;
                loop {
                    let c = *b.get(j)?;
                    if c == b']' && members > 0 {
                        break;
                    }
                    if !plain(c) {
                        return None;
                    }
                    if b.get(j + 1) == Some(&b'-') {
                        let end = *b.get(j + 2)?;
                        let same_kind = (c.is_ascii_digit() && end.is_ascii_digit())
                            || (c.is_ascii_lowercase() && end.is_ascii_lowercase())
                            || (c.is_ascii_uppercase() && end.is_ascii_uppercase());
                        if !same_kind || end < c {
                            return None;
                        }
                        for x in c..=end {
                            set_byte(&mut set, x);
                        }
                        j += 3;
                    } else {
                        set_byte(&mut set, c);
                        j += 1;
                    }
                    members += 1;
                }
                out.push(Tok::Class(set));
                i = j + 1;
            }
            b'{' | b'}' | b']' => return None,
            c => {
                out.push(Tok::Byte(c));
                i += 1;
            }
        }
    }
    Some(out)
}

fn literal(toks: &[Tok]) -> Option<Vec<u8>> {
    toks.iter()
        .map(|t| match t {
            Tok::Byte(c) => Some(*c),
            _ => None,
        })
        .collect()
}

impl Rules {
    /// Compiles the lines of ignore files, in order (the later rule wins). `None` when they
    /// hold no rule.
    pub fn parse(contents: &[&[u8]]) -> Option<Rules> {
        let mut rules = Rules::default();
        let mut residual = ResidualBuilder::default();
        for bytes in contents {
            // A leading UTF-8 byte-order mark is not part of the first rule (git and fd drop it).
            let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
            let text = String::from_utf8_lossy(bytes);
            // git splits on LF and drops one CR before it, and before the end of a file whose
            // last line has no LF; a CR anywhere else is part of the rule. (`str::lines` kept
            // the CR at the very end: `x1\r\nx2\r` did not ignore `x2`, issue 18.)
            for line in text.split('\n') {
                let line = line.strip_suffix('\r').unwrap_or(line);
                let Some(l) = parse_line(line) else { continue };
                let index = rules.whitelist.len() as i32;
                if rules.add_fast(index, &l) {
                    rules.whitelist.push(l.whitelist);
                    continue;
                }
                if residual.full() {
                    continue;
                }
                // As the crate builds it; a glob that does not build is skipped, as git does.
                let actual = l.actual();
                let Ok(glob) = GlobBuilder::new(&actual)
                    .literal_separator(true)
                    .case_insensitive(false)
                    .backslash_escape(true)
                    .allow_unclosed_class(true)
                    .build()
                else {
                    continue;
                };
                residual.add(glob, actual.len(), index, l.dir_only);
                rules.whitelist.push(l.whitelist);
            }
        }
        if rules.whitelist.is_empty() {
            return None;
        }
        rules.residual = residual.finish();
        rules.name_globs.finish();
        rules.path_globs.reverse();
        Some(rules)
    }

    /// Files a rule in a fast class, if one gives the same answer as its glob.
    fn add_fast(&mut self, index: i32, l: &Line<'_>) -> bool {
        let dir_only = l.dir_only;
        let Some(toks) = tokens(&l.glob) else {
            return false;
        };
        if l.any_depth {
            // `**/NAME`: no slash, and no `**` (`tokens` takes it only as a whole component).
            self.add_name(index, dir_only, &toks);
            return true;
        }
        let comps: Vec<&[Tok]> = toks.split(|t| *t == Tok::Byte(b'/')).collect();
        let deep = |c: &[Tok]| c.contains(&Tok::Deep);
        if let [[Tok::Deep], name] = comps.as_slice() {
            if !deep(name) {
                self.add_name(index, dir_only, name);
                return true;
            }
        }
        if !deep(&toks) {
            if let Some(lit) = literal(&toks) {
                let dir = lit.iter().rposition(|&b| b == b'/').unwrap_or(0);
                self.path_dirs.insert(lit[..dir].into(), ());
                self.paths.add(lit, index, dir_only);
                return true;
            }
        }
        let mut parts = Vec::with_capacity(comps.len());
        for c in comps {
            match c {
                [Tok::Deep] if !matches!(parts.last(), Some(Part::Deep)) => parts.push(Part::Deep),
                c if deep(c) => return false,
                c => parts.push(Part::One(Wild::new(index, dir_only, c))),
            }
        }
        if matches!(parts.last(), None | Some(Part::Deep)) {
            return false;
        }
        self.path_globs.push(WildPath {
            index,
            dir_only,
            parts,
        });
        true
    }

    /// Files a rule on the name alone (`**/NAME`).
    fn add_name(&mut self, index: i32, dir_only: bool, toks: &[Tok]) {
        if let Some(lit) = literal(toks) {
            self.names.add(lit, index, dir_only);
        } else if let [Tok::Star, Tok::Byte(b'.'), ext @ ..] = toks {
            match literal(ext) {
                Some(ext) if !ext.is_empty() && !ext.contains(&b'.') => {
                    self.exts.add(ext, index, dir_only)
                }
                _ => self.name_globs.add(Wild::new(index, dir_only, toks)),
            }
        } else {
            self.name_globs.add(Wild::new(index, dir_only, toks));
        }
    }

    /// The rule deciding a path: `rel` relative to the file's directory, `name` its last
    /// component. `Some(true)` for a `!` rule, `Some(false)` for an ignoring one.
    pub fn matched(&self, rel: &[u8], name: &[u8], is_dir: bool) -> Decision {
        self.matched_in(rel, name, is_dir, true)
    }

    /// [`Rules::matched`] in a directory where, unless `paths`, no rule on paths can match
    /// (as [`Rules::paths_may_match_in`] found): only the rules on names are asked.
    pub fn matched_in(&self, rel: &[u8], name: &[u8], is_dir: bool, paths: bool) -> Decision {
        let mut best = self.names.get(name, is_dir);
        if self.exts.len() > 0 {
            if let Some(dot) = name.iter().rposition(|&c| c == b'.') {
                best = best.max(self.exts.get(&name[dot + 1..], is_dir));
            }
        }
        best = best.max(self.name_globs.matched(name, is_dir, best));
        if paths {
            best = best.max(self.paths.get(rel, is_dir));
            for p in &self.path_globs {
                if p.index <= best {
                    break;
                }
                if (is_dir || !p.dir_only) && p.matches(rel) {
                    best = p.index;
                    break;
                }
            }
        }
        if let Some(r) = &self.residual {
            best = best.max(r.matched(rel, is_dir));
        }
        (best >= 0).then(|| self.whitelist[best as usize])
    }
}

impl Rules {
    /// Whether a rule on paths (a literal or wildcard path, or a rule left to globset) may
    /// match an entry of the directory `dir`, given relative to the file's directory ("" for
    /// that directory itself, no trailing `/`). False lets the walk screen every entry there
    /// by its name alone ([`Screen`]).
    pub fn paths_may_match_in(&self, dir: &[u8]) -> bool {
        self.residual.is_some()
            || self.path_dirs.contains_key(dir)
            || self.path_globs.iter().any(|p| {
                let parents = &p.parts[..p.parts.len() - 1];
                match_parts(parents, (!dir.is_empty()).then_some(dir))
            })
    }

    /// Whether any rule here is on paths rather than on the name alone.
    pub fn has_path_rules(&self) -> bool {
        self.residual.is_some() || self.paths.len() > 0 || !self.path_globs.is_empty()
    }
}

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
    heads: Vec<(Box<[u8]>, u8)>,
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
    /// the list of those before it (issue 18), and a name beginning with `a` was compared
    /// with each of them.
    const HEADS: usize = 32;

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
                if name.starts_with(head) {
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

impl Residual {
    fn matched(&self, rel: &[u8], is_dir: bool) -> i32 {
        use std::os::unix::ffi::OsStrExt;
        let path = std::path::Path::new(std::ffi::OsStr::from_bytes(rel));
        let candidate = Candidate::new(path);
        let mut hits = Vec::new();
        for s in self.sets.iter().rev() {
            s.set.matches_candidate_into(&candidate, &mut hits);
            let best = hits
                .iter()
                .rev()
                .map(|&i| s.rules[i])
                .find(|&(_, dir_only)| is_dir || !dir_only);
            if let Some((index, _)) = best {
                return index;
            }
        }
        -1
    }
}

/// A hash map on byte strings with FxHash: names are short, and SipHash costs more than the
/// comparison it saves.
type FastMap<V> = HashMap<Box<[u8]>, V, BuildHasherDefault<FxHasher>>;

/// The Fx hash (rustc's): a rotate, a xor and a multiply per word.
#[derive(Default, Clone, Copy)]
pub struct FxHasher(u64);

const FX_SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

/// An odd constant with no pattern (the fractional part of the golden ratio) for
/// [`FxHasher::finish`].
const FOLD_SEED: u64 = 0x9e37_79b9_7f4a_7c15;

impl FxHasher {
    fn add(&mut self, word: u64) {
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
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(last));
        }
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    /// The state folded by one wide multiply. Fx's multiply carries a byte only towards the
    /// high bits, and a hash table picks its bucket by the low ones: keys alike at the start
    /// (`a1` ... `a70000`, or `ext1` ... from `*.ext1` ...) fell in a few buckets, and a file of
    /// 70,000 such rules took seconds to compile (issue 18). The high half of the product
    /// depends on every bit.
    fn finish(&self) -> u64 {
        let wide = u128::from(self.0) * u128::from(FOLD_SEED);
        wide as u64 ^ (wide >> 64) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ignore::gitignore::GitignoreBuilder;
    use std::cell::Cell;
    use std::collections::HashSet;
    use std::hash::BuildHasher;
    use std::os::unix::ffi::OsStrExt;

    thread_local! {
        /// How many path components this thread's rules on paths compared with a pattern.
        pub static COMPONENTS_COMPARED: Cell<u64> = const { Cell::new(0) };
    }

    /// What `Gitignore` says, the reference.
    fn reference(text: &str, rel: &[u8], is_dir: bool) -> Decision {
        let mut b = GitignoreBuilder::new("/");
        for line in text.lines() {
            let _ = b.add_line(None, line);
        }
        let g = b.build().unwrap();
        let m = g.matched(
            std::path::Path::new(std::ffi::OsStr::from_bytes(rel)),
            is_dir,
        );
        if m.is_none() {
            None
        } else {
            Some(m.is_whitelist())
        }
    }

    fn fast(text: &str, rel: &[u8], is_dir: bool) -> Decision {
        let name = rel.rsplit(|&b| b == b'/').next().unwrap();
        Rules::parse(&[text.as_bytes()]).and_then(|r| r.matched(rel, name, is_dir))
    }

    const PATTERNS: &[&str] = &[
        "*.o",
        "*.O",
        "!*.o",
        "foo",
        "!foo",
        "foo/",
        "/foo",
        "/foo/",
        "foo/bar",
        "/foo/bar/",
        "a/*/c",
        "a/*/c/",
        "/a/b*/c?",
        "**/foo",
        "**/foo/bar",
        "foo/**",
        "foo/**/bar",
        "**",
        "/**",
        "*",
        "!*",
        "*/",
        ".*",
        "!.gitignore",
        "*.o.*",
        "*.tab.[ch]",
        "*.c.[012]*.*",
        "*.[!c]",
        "*.[^c]",
        "[a-c]x",
        "[]]",
        "[a-]",
        "x[",
        "\\#*#",
        "\\!bang",
        "\\*star",
        "a\\ ",
        "trail   ",
        "esc\\/",
        "*.tar.gz",
        "*.",
        "*~",
        "patches-*",
        "?",
        "??.rs",
        "a?c",
        "*a*b*",
        "*ab*ab",
        "{a,b}.txt",
        "é*",
        "*é",
        "[é]",
        "A*",
        "#comment",
        "!",
        "/",
        "!/",
        "//x",
        "a//b",
        "x/",
        "\\",
        "foo\\",
        "arch/*/include/generated/",
        "/vmlinux*",
        "**/*.rs",
        "**/a*/b",
        "a/**/*.rs",
        "a/**/b/**/c",
        "**/x/**",
        "**/**/x",
        "a/**/**/b",
        "lib/**/*.js",
        "a/**b",
        "a**/b",
        "\\a/**/b",
        "**/a/*",
        // A name needs as many dots as the pattern's literal ones (the count that spares
        // most comparisons).
        "*.mod.c",
        "*..*",
        ".*.",
    ];

    const PATHS: &[&str] = &[
        "a.mod.c",
        ".mod.c",
        "mod.c",
        "a..b",
        "...",
        ".a.",
        "foo",
        "foo/bar",
        "x/foo",
        "x/foo/bar",
        "a.o",
        ".o",
        "x/a.o",
        "a.O",
        "a.o.cmd",
        "x.tab.c",
        "x.tab.h",
        "x.tab.o",
        "y.c.1abc.d",
        "y.c.9.d",
        "a.c",
        "a.d",
        "ax",
        "cx",
        "dx",
        "]",
        "-",
        "a",
        "x[",
        "#x#",
        "x/#y#",
        "!bang",
        "*star",
        "a ",
        "a",
        "trail",
        "trail   ",
        "esc",
        "esc/",
        "a.tar.gz",
        "tar.gz",
        "a.",
        "a~",
        "patches-1",
        "patches",
        "x",
        "ab.rs",
        "abc.rs",
        "abc",
        "aXc",
        "xaxbx",
        "abab",
        "abxab",
        "ab",
        "a.txt",
        "b.txt",
        "é1",
        "1é",
        "é",
        "\u{e9}",
        "Abc",
        "abc",
        ".gitignore",
        ".hidden",
        "a/b/c",
        "a/x/c",
        "a/x/y/c",
        "a/bb/c1",
        "a/b/c12",
        "arch/x86/include/generated",
        "arch/include/generated",
        "vmlinux",
        "vmlinux.o",
        "x/vmlinux",
        "src/main.rs",
        "main.rs",
        "a/b/x.rs",
        "a/x.rs",
        "ab/b",
        "x/ab/b",
        "comment",
        "#comment",
        "a/b/x/b/y/c",
        "a/c",
        "a/b/c/d",
        "x/x/x",
        "q/x/y",
        "lib/a/b/x.js",
        "lib/x.js",
        "src/lib/x.js",
        "a/xb",
        "ab/b",
        "\\a/b",
    ];

    #[test]
    fn every_class_agrees_with_gitignore_one_rule_at_a_time() {
        for pat in PATTERNS {
            for path in PATHS {
                for is_dir in [false, true] {
                    assert_eq!(
                        fast(pat, path.as_bytes(), is_dir),
                        reference(pat, path.as_bytes(), is_dir),
                        "pattern {pat:?} path {path:?} dir {is_dir}"
                    );
                }
            }
        }
    }

    #[test]
    fn invalid_utf8_names_match_as_bytes() {
        for pat in ["*.o", "*", "?", "a*", "*\\\u{e9}", "x?y", "[a-c]*"] {
            for path in [&b"\xff.o"[..], b"a\xff", b"x\xffy", b"\xff", b"b\xfe\xff"] {
                for is_dir in [false, true] {
                    assert_eq!(
                        fast(pat, path, is_dir),
                        reference(pat, path, is_dir),
                        "pattern {pat:?} path {path:?}"
                    );
                }
            }
        }
    }

    /// A xorshift generator for the randomized tests: the same draws on every run.
    struct Draws(u64);

    impl Draws {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }

        /// An ignore file of one to six rules drawn from every class.
        fn rule_file(&mut self) -> String {
            let lines: Vec<&str> = (0..1 + self.below(6))
                .map(|_| PATTERNS[self.below(PATTERNS.len())])
                .collect();
            lines.join("\n")
        }
    }

    #[test]
    fn the_last_matching_rule_wins_across_classes() {
        // Random files of several rules from every class, against the same random paths.
        let mut draws = Draws(0x2545_f491_4f6c_dd1d);
        for _ in 0..3000 {
            let text = draws.rule_file();
            for _ in 0..8 {
                let path = PATHS[draws.below(PATHS.len())];
                for is_dir in [false, true] {
                    assert_eq!(
                        fast(&text, path.as_bytes(), is_dir),
                        reference(&text, path.as_bytes(), is_dir),
                        "rules {text:?} path {path:?} dir {is_dir}"
                    );
                }
            }
        }
    }

    /// Whether the screens let `rel` through to the files: its name may meet a name rule, or
    /// its directory a path rule.
    fn screened_in(rules: &Rules, rel: &[u8]) -> bool {
        let mut screen = Screen::default();
        screen.add(rules);
        let (dir, name) = match rel.iter().rposition(|&b| b == b'/') {
            Some(i) => (&rel[..i], &rel[i + 1..]),
            None => (&b""[..], rel),
        };
        screen.may_match(name) || rules.paths_may_match_in(dir)
    }

    #[test]
    fn the_screens_let_through_every_entry_a_rule_decides() {
        // As in the test above: random files of rules from every class. Whatever a file
        // decides, the screens must not have turned away.
        let mut draws = Draws(0x9e37_79b9_7f4a_7c15);
        for _ in 0..3000 {
            let text = draws.rule_file();
            let Some(rules) = Rules::parse(&[text.as_bytes()]) else {
                continue;
            };
            for path in PATHS {
                for is_dir in [false, true] {
                    if fast(&text, path.as_bytes(), is_dir).is_some() {
                        assert!(
                            screened_in(&rules, path.as_bytes()),
                            "rules {text:?} path {path:?} dir {is_dir}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_screens_turn_away_what_no_rule_can_match() {
        let linux =
            b"*.o\n*.mod.c\n*.tab.[ch]\n*.o.*\n.*\npatches-*\ncscope.*\n*~\nModule.symvers\n\
                      /vmlinux\n/include/generated/\n/arch/*/include/generated/\nlib/**/*.js\n";
        let rules = Rules::parse(&[linux]).unwrap();
        // Not at the top, where `/vmlinux` may match any entry.
        for turned_away in [
            "src/main.c",
            "src/x.h",
            "src/Makefile",
            "src/pci.c",
            "drivers/net/e1000.c",
            "include/x/generated",
            "arch/x86/boot",
            "src/x.js",
        ] {
            assert!(
                !screened_in(&rules, turned_away.as_bytes()),
                "{turned_away} let through"
            );
        }
        for let_through in [
            "x.o",
            "x.mod.c",
            "y.tab.h",
            "a.o.cmd",
            ".config",
            "patches-1",
            "cscope.out",
            "x~",
            "Module.symvers",
            "vmlinux",
            "include/generated",
            "arch/x86/include/generated",
            "lib/a/b/x.js",
        ] {
            assert!(
                screened_in(&rules, let_through.as_bytes()),
                "{let_through} turned away"
            );
        }
        // A rule left to globset may match any name.
        assert!(screened_in(&Rules::parse(&[b"{a,b}.c"]).unwrap(), b"x"));
    }

    #[test]
    fn rules_land_in_the_fast_classes() {
        let r = Rules::parse(&[b"*.o\nMakefile\n/vmlinux\n.*\narch/*/gen/\nfoo/**/bar\n"]).unwrap();
        assert_eq!(r.exts.len(), 1);
        assert_eq!(r.names.len(), 1);
        assert_eq!(r.paths.len(), 1);
        assert_eq!(r.name_globs.len(), 1);
        assert_eq!(r.path_globs.len(), 2, "arch/*/gen/ and foo/**/bar");
        assert!(r.residual.is_none());
        let r = Rules::parse(&[b"{a,b}
x/**y
[!a]
"])
        .unwrap();
        assert_eq!(r.residual.map(|r| r.sets[0].rules.len()), Some(3));
        let r =
            Rules::parse(&[b"*.lex.c\n*~\ncscope.*\n*.o.*\n.*\n*.tab.[ch]\n*.[0-9]\n"]).unwrap();
        assert_eq!(
            r.name_globs.by_last.lists.len(),
            3,
            "by the tail's last byte, a small class's bytes too"
        );
        assert_eq!(
            r.name_globs.by_first.lists.len(),
            2,
            "by the head's first byte"
        );
        assert_eq!(r.name_globs.other.len(), 2);
        let many: String = (0..100).map(|i| format!("*{i}[ab]\n")).collect();
        let r = Rules::parse(&[many.as_bytes()]).unwrap();
        assert_eq!(
            r.name_globs.other.len(),
            100 - NameGlobs::COPIED,
            "past the first few, once, as a pattern without a literal tail"
        );
        for (name, decided) in [("x3a", Some(false)), ("x99b", Some(false)), ("x99c", None)] {
            assert_eq!(r.matched(name.as_bytes(), name.as_bytes(), false), decided);
            assert!(
                screened_in(&r, name.as_bytes()) || decided.is_none(),
                "{name}"
            );
        }
    }

    #[test]
    fn a_carriage_return_ends_a_rule_before_a_line_feed_or_the_end_of_the_file() {
        // As git reads them (issue 18); the integration tests check them against git itself.
        for (text, name, decided) in [
            (&b"x1\r\nx2\r"[..], &b"x2"[..], Some(false)),
            (b"x1\r\nx2\r", b"x2\r", None),
            (b"x\r\r\n", b"x\r", Some(false)),
            (b"a\rb", b"a\rb", Some(false)),
            (b"x  \r", b"x", Some(false)),
            (b"x\\ \r", b"x ", Some(false)),
            (b"x\r  ", b"x\r", Some(false)),
            (b"\xEF\xBB\xBFx\r", b"x", Some(false)),
        ] {
            let decision = Rules::parse(&[text]).and_then(|r| r.matched(name, name, false));
            assert_eq!(decision, decided, "rules {text:?} name {name:?}");
        }
        assert!(
            Rules::parse(&[b"\r"]).is_none(),
            "a lone CR is an empty line"
        );
    }

    #[test]
    fn a_screen_keeps_a_bounded_number_of_heads_apart() {
        // 20,000 rules with literal heads: each was looked up in the list of all those before
        // it, quadratic (70,000 took 12 s in a release build, issue 18), and the list was
        // copied into every directory's screen below. Past the bound, a rule is screened by
        // its first byte, still letting through every name it may match.
        let text: String = (0..20_000).map(|i| format!("aaaaa{i}*\n")).collect();
        let rules = Rules::parse(&[text.as_bytes()]).unwrap();
        let mut screen = Screen::default();
        screen.add(&rules);
        screen.add(&Rules::parse(&[b"cscope.*\npatches-*\n"]).unwrap());
        assert!(
            screen.heads.len() <= Screen::HEADS,
            "{}",
            screen.heads.len()
        );
        for name in [
            "aaaaa19999.c",
            "aaaaa5",
            "aaaaa0x",
            "cscope.out",
            "patches-1",
        ] {
            assert!(screen.may_match(name.as_bytes()), "{name} turned away");
        }
        for name in ["b.c", "cscope", "main.rs"] {
            assert!(!screen.may_match(name.as_bytes()), "{name} let through");
        }
    }

    #[test]
    fn keys_alike_at_the_start_spread_over_a_tables_buckets() {
        // A hash table picks a key's bucket by the low bits of its hash. Fx's multiply left
        // them to the key's first bytes: `a1` ... `a65536` (rules `/aN`, `!aN`, `*.extN`) fell
        // in a few dozen buckets of 65,536, and inserting 70,000 took seconds (issue 18).
        // Random hashes fill about 63% of them.
        let hasher = BuildHasherDefault::<FxHasher>::default();
        for prefix in ["a", "ext", "aaaaa", "drivers/net/ethernet/x"] {
            let buckets: HashSet<u64> = (0..1u64 << 16)
                .map(|i| {
                    let key: Box<[u8]> = format!("{prefix}{i}").into_bytes().into();
                    hasher.hash_one(&key) & 0xffff
                })
                .collect();
            assert!(
                buckets.len() > 35_000,
                "{prefix}N: {} buckets",
                buckets.len()
            );
        }
    }

    #[test]
    fn many_double_stars_match_a_deep_path_without_backtracking() {
        // Each `**` was tried at every depth in turn: about C(depth, stars) tries, exponential
        // in the number of `**` (issue 18). Between two `**` the parts take a fixed number of
        // components, so the leftmost place for each run of them is the right one.
        let rule = "**/a/**/a/**/a/**/a/**/a/**/a/**/b";
        let rules = Rules::parse(&[rule.as_bytes()]).unwrap();
        assert_eq!(rules.path_globs.len(), 1, "a fast rule on paths");
        let parts = rules.path_globs[0].parts.len();
        let deep = vec!["a"; 40].join("/");
        for (rel, decided) in [
            (format!("{deep}/c"), None),
            (format!("{deep}/b"), Some(false)),
            (format!("b/{deep}"), None),
            ("a/a/a/a/a/a/b".to_owned(), Some(false)),
            ("a/a/a/a/a/b".to_owned(), None),
        ] {
            COMPONENTS_COMPARED.set(0);
            let name = rel.rsplit('/').next().unwrap();
            assert_eq!(
                rules.matched(rel.as_bytes(), name.as_bytes(), false),
                decided,
                "{rel}"
            );
            assert_eq!(decided, reference(rule, rel.as_bytes(), false), "{rel}");
            let components = rel.split('/').count();
            assert!(
                COMPONENTS_COMPARED.get() <= (components * parts) as u64,
                "{rel}: {} comparisons",
                COMPONENTS_COMPARED.get()
            );
        }
    }

    #[test]
    fn rules_left_to_globset_fill_sets_of_a_few_hundred_and_the_last_still_wins() {
        // One set of 20,000 such rules or more did not build, which dropped them all; one
        // of a few hundred builds. The later rule wins across sets and classes.
        let mut text: String = (0..600).map(|i| format!("{{x,y}}{i}\n")).collect();
        text.push_str("!x5\n!{x,y}7\n");
        let rules = Rules::parse(&[text.as_bytes()]).unwrap();
        assert_eq!(rules.residual.as_ref().map(|r| r.sets.len()), Some(3));
        for name in ["x0", "y599", "x300", "x5", "y5", "x7", "y7", "x600", "z1"] {
            assert_eq!(
                rules.matched(name.as_bytes(), name.as_bytes(), false),
                reference(&text, name.as_bytes(), false),
                "{name}"
            );
        }
    }

    #[test]
    fn a_file_gives_globset_a_bounded_number_of_rules() {
        // Each costs globset some KiB, and more for each thread that matches with it: past
        // the bound, the rest of such rules are skipped (issue 18), the fast ones still apply.
        let max = ResidualBuilder::MAX_RULES;
        let mut text: String = (0..max + 10).map(|i| format!("[!a]{i}\n")).collect();
        text.push_str("z*\n");
        let rules = Rules::parse(&[text.as_bytes()]).unwrap();
        let sets = &rules.residual.as_ref().unwrap().sets;
        assert_eq!(sets.iter().map(|s| s.rules.len()).sum::<usize>(), max);
        assert!(sets
            .iter()
            .all(|s| s.rules.len() <= ResidualBuilder::SET_RULES));
        let decided = |name: &str| rules.matched(name.as_bytes(), name.as_bytes(), false);
        assert_eq!(decided("b0"), Some(false));
        assert_eq!(decided(&format!("b{}", max - 1)), Some(false));
        assert_eq!(decided(&format!("b{max}")), None, "past the bound");
        assert_eq!(decided("zz"), Some(false));
    }

    #[test]
    fn no_rules_is_none() {
        assert!(Rules::parse(&[b"# only a comment\n\n   \n!\n"]).is_none());
    }
}
