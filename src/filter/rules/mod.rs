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
//!   and at most 4,096 rules a file (the rest are not applied, and that is said), run only
//!   when such rules exist.
//!
//! Compiling takes time linear in the file, and what it builds is a small multiple of it
//! (a file planted above the search path is read by every search).
//!
//! In front of the files of a directory's chain, a [`Screen`](screen::Screen) merges their
//! rules on names and [`Rules::paths_may_match_in`] asks once per directory whether a rule on
//! paths can apply: an entry that neither lets through is not asked of the files at all.
//!
//! The files: `syntax.rs` reads git's rule syntax; `keys.rs` (hash sets), `wild.rs`
//! (wildcards on names and paths) and `residual.rs` (globset) are the compiled classes;
//! `screen.rs` the screen; this file compiles a file into them and asks them in order.
//! `tests.rs` compares every class against `Gitignore` on tricky rules and paths, and checks
//! that the screens never turn away an entry a rule decides.

use std::hash::Hasher;

use globset::GlobBuilder;

pub use keys::FxHasher;
use keys::{FastMap, Keys};
use residual::{Residual, ResidualBuilder};
use syntax::{literal, parse_line, tokens, Line, Tok};
use wild::{match_parts, NameGlobs, Part, Wild, WildPath};

mod keys;
mod residual;
pub mod screen;
mod syntax;
#[cfg(test)]
mod tests;
mod wild;

/// The rule that decided an entry: `true` when it is a `!` rule (the entry is brought back).
#[cfg(test)]
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
    /// Rules of that rest past [`Rules::GLOB_RULES`], not applied.
    skipped: usize,
    /// A file was UTF-16, not read ([`crate::fs::text`]).
    utf16: bool,
    /// Where each rule was read (by index, as `whitelist`), for `--explain`: its file among
    /// those compiled together, its line, and where it ends in `written`.
    origins: Vec<Origin>,
    /// The rules as written (trailing spaces trimmed, as git shows them), one after another.
    written: String,
    /// The files compiled together, as messages show them ([`Rules::name_files`]).
    files: Vec<Box<[u8]>>,
}

/// Where one rule was read.
#[derive(Debug, Clone, Copy)]
struct Origin {
    file: u32,
    line: u32,
    /// Where the rule ends in [`Rules::written`] (it starts where the previous one ends).
    end: u32,
}

/// One rule of a file, as `--explain` names it: `FILE:LINE: PATTERN`, as `git check-ignore -v`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule<'a> {
    /// The file it was read from, as messages show it (empty when it was not named).
    pub file: &'a [u8],
    /// Its line, from 1.
    pub line: u32,
    /// The rule as written, a leading `!` kept.
    pub pattern: &'a str,
    /// A `!` rule: it brings an entry back.
    pub negation: bool,
}

impl Rules {
    /// Compiles the lines of ignore files, in order (the later rule wins). `None` when they
    /// hold no rule.
    pub fn parse(contents: &[&[u8]]) -> Option<Rules> {
        let mut rules = Rules::default();
        let mut residual = ResidualBuilder::default();
        for (file, bytes) in contents.iter().enumerate() {
            // UTF-16 (Windows PowerShell 5.1's '>'): its rules cannot be read; said instead.
            if crate::fs::text::is_utf16(bytes) {
                rules.utf16 = true;
                continue;
            }
            // A leading UTF-8 byte-order mark is not part of the first rule (git and fd drop it).
            let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
            let text = String::from_utf8_lossy(bytes);
            // git splits on LF and drops one CR before it, and before the end of a file whose
            // last line has no LF; a CR anywhere else is part of the rule. (`str::lines` kept
            // the CR at the very end: `x1\r\nx2\r` did not ignore `x2`.)
            for (number, line) in text.split('\n').enumerate() {
                let line = line.strip_suffix('\r').unwrap_or(line);
                let Some(l) = parse_line(line) else { continue };
                let index = rules.whitelist.len() as i32;
                let origin = (file, number, line);
                if rules.add_fast(index, &l) {
                    rules.whitelist.push(l.whitelist);
                    rules.read_at(origin);
                    continue;
                }
                if residual.full() {
                    rules.skipped += 1;
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
                rules.read_at(origin);
            }
        }
        if rules.whitelist.is_empty() && !rules.utf16 {
            return None;
        }
        rules.residual = residual.finish();
        rules.name_globs.finish();
        rules.path_globs.reverse();
        Some(rules)
    }

    /// Remembers where the rule just added was read: the file's place among those compiled
    /// together, the line's (from 0) and the line itself.
    fn read_at(&mut self, (file, number, line): (usize, usize, &str)) {
        self.written
            .push_str(syntax::trim_trailing_unescaped_spaces(line));
        self.origins.push(Origin {
            file: file as u32,
            line: number as u32 + 1,
            end: self.written.len() as u32,
        });
    }

    /// Feeds `h` what decides which entries these rules match: each rule as written, where
    /// one ends and the next begins (the rules a file adds above a search root, or a global
    /// file, are part of the key of the memo's remembered verdicts).
    pub fn fingerprint(&self, h: &mut FxHasher) {
        h.write_usize(self.origins.len());
        for o in &self.origins {
            h.write_u32(o.end);
        }
        h.write(self.written.as_bytes());
    }

    /// Names the files compiled together, in the order they were given to [`Rules::parse`],
    /// as messages show them: what [`Rules::rule`] says a rule was read from.
    pub fn name_files(&mut self, files: impl IntoIterator<Item = Vec<u8>>) {
        self.files = files.into_iter().map(Vec::into_boxed_slice).collect();
    }

    /// The rule at `index` (as [`Rules::decide_in`] gives it): its file, line and text.
    pub fn rule(&self, index: usize) -> Rule<'_> {
        let o = self.origins[index];
        let start = index
            .checked_sub(1)
            .map_or(0, |i| self.origins[i].end as usize);
        Rule {
            file: self.files.get(o.file as usize).map_or(&[][..], |f| f),
            line: o.line,
            pattern: &self.written[start..o.end as usize],
            negation: self.whitelist[index],
        }
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
    #[cfg(test)]
    pub fn matched(&self, rel: &[u8], name: &[u8], is_dir: bool) -> Decision {
        self.matched_in(rel, name, is_dir, true)
    }

    /// [`Rules::matched`] in a directory where, unless `paths`, no rule on paths can match
    /// (as [`Rules::paths_may_match_in`] found): only the rules on names are asked.
    #[cfg(test)]
    pub fn matched_in(&self, rel: &[u8], name: &[u8], is_dir: bool, paths: bool) -> Decision {
        self.decide_in(rel, name, is_dir, paths)
            .map(|i| self.whitelist[i])
    }

    /// [`Rules::matched_in`]'s rule itself: its index, for [`Rules::rule`] and
    /// [`Rules::is_negation`].
    pub fn decide_in(&self, rel: &[u8], name: &[u8], is_dir: bool, paths: bool) -> Option<usize> {
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
        (best >= 0).then_some(best as usize)
    }

    /// Whether the rule at `index` is a `!` rule.
    #[inline]
    pub fn is_negation(&self, index: usize) -> bool {
        self.whitelist[index]
    }
}

impl Rules {
    /// Whether a rule on paths (a literal or wildcard path, or a rule left to globset) may
    /// match an entry of the directory `dir`, given relative to the file's directory ("" for
    /// that directory itself, no trailing `/`). False lets the walk screen every entry there
    /// by its name alone ([`Screen`](screen::Screen)).
    pub fn paths_may_match_in(&self, dir: &[u8]) -> bool {
        self.residual.is_some()
            || self.path_dirs.contains_key(dir)
            || self.path_globs.iter().any(|p| {
                let parents = &p.parts[..p.parts.len() - 1];
                match_parts(parents, (!dir.is_empty()).then_some(dir))
            })
    }

    /// The most rules of a file that only a glob engine matches (`{a,b}`, `[!a]`, `a**b`): real
    /// files have a few, if any; past them a planted file could make ffind take gigabytes.
    pub const GLOB_RULES: usize = ResidualBuilder::MAX_RULES;

    /// What to say of a file whose rules past [`Rules::GLOB_RULES`] were not applied, if any:
    /// results may differ from what the file means, so it is said (and the exit code is 1).
    pub fn skipped_message(&self) -> Option<String> {
        let utf16 = self.utf16.then(|| {
            use crate::fs::text::{SAVE_AS_UTF8, UTF16};
            format!("{UTF16}: its rules were not applied; {SAVE_AS_UTF8}")
        });
        let skipped = (self.skipped > 0).then(|| {
            format!(
                "{} rules past the first {} that need a glob engine ({{a,b}}, [!a], a**b) were \
                 not applied",
                self.skipped,
                Self::GLOB_RULES
            )
        });
        match (utf16, skipped) {
            (Some(a), Some(b)) => Some(format!("{a}; {b}")),
            (a, b) => a.or(b),
        }
    }

    /// Whether any rule here is on paths rather than on the name alone.
    pub fn has_path_rules(&self) -> bool {
        self.residual.is_some() || self.paths.len() > 0 || !self.path_globs.is_empty()
    }
}
