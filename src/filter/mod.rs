//! What decides whether an entry is printed: patterns, extensions, types, size, time, owner;
//! and, in [`ignore`], what hides an entry and its subtree.
//!
//! The filters here only answer questions; the order in which they are asked, and what happens
//! to directories, is `walk/visit.rs`'s business. Filters that need metadata ask the entry's
//! [`Meta`] for it lazily, so a plain listing costs no `stat`.

pub mod gitconfig;
pub mod ignore;
pub mod literal;
pub mod owner;
pub mod rules;
pub mod size;
pub mod time;

use std::ffi::CStr;

use anyhow::{bail, Result};
use regex::bytes::{Regex, RegexBuilder};
use regex_syntax::ast;
use regex_syntax::hir::{Hir, HirKind, Literal, Look};

use crate::fs::{is_separator, Kind, Stat, CURRENT_DIR, SEPARATOR};
use owner::OwnerFilter;
use size::SizeFilter;
use time::TimeFilter;

/// Metadata of one entry, fetched only when a filter asks.
pub trait Meta {
    /// The entry's `stat` (following symlinks when the walk follows them), if it can be had.
    fn stat(&mut self) -> Option<Stat>;
    /// Whether we may execute it.
    fn executable(&mut self) -> bool;
    /// Whether it is an empty file or a directory without entries.
    fn is_empty(&mut self, kind: Kind) -> bool;
    /// For a directory: whether it holds an entry called `name` (`--ignore-contain`); a
    /// symlink counts when it leads somewhere, as fd's `Path::exists` sees it.
    fn contains(&mut self, name: &CStr) -> bool;
    /// Whether the system marks it hidden (Windows' hidden attribute, which the directory
    /// read gives); never on Unix, where only a leading `.` hides a name.
    fn marked_hidden(&mut self) -> bool {
        false
    }
    /// The ignore rules' verdict on the entry as the memo remembers it (`--cache`), when it
    /// does: the rules are not asked.
    fn remembered_verdict(&mut self) -> Option<ignore::Verdict> {
        None
    }
    /// The ignore rules' verdict on the entry, for the memo to remember.
    fn verdict_given(&mut self, _verdict: ignore::Verdict) {}
}

/// One entry as the filters see it.
pub struct Entry<'a> {
    /// The path as it will be printed.
    pub path: &'a [u8],
    /// The file name (the last component of `path`).
    pub name: &'a [u8],
    /// The kind, after following a symlink if the walk follows them.
    pub kind: Kind,
    /// Lazily fetched metadata.
    pub meta: &'a mut dyn Meta,
}

/// `-t/--type`: which kinds are shown.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TypeFilter {
    files: bool,
    dirs: bool,
    symlinks: bool,
    sockets: bool,
    pipes: bool,
    block_devices: bool,
    char_devices: bool,
    executables_only: bool,
    empty_only: bool,
}

impl TypeFilter {
    /// Builds the filter from `-t` values (already validated by clap), fd's way: `x` and `e`
    /// restrict the files (and, for `e`, directories) that would otherwise be shown.
    pub fn from_args(types: &[String]) -> Option<TypeFilter> {
        if types.is_empty() {
            return None;
        }
        let mut t = TypeFilter::default();
        for ty in types {
            match ty.as_str() {
                "f" | "file" => t.files = true,
                "d" | "dir" | "directory" => t.dirs = true,
                "l" | "symlink" => t.symlinks = true,
                "s" | "socket" => t.sockets = true,
                "p" | "pipe" => t.pipes = true,
                "b" | "block-device" => t.block_devices = true,
                "c" | "char-device" => t.char_devices = true,
                "x" | "executable" => {
                    t.executables_only = true;
                    t.files = true;
                }
                "e" | "empty" => t.empty_only = true,
                _ => unreachable!("clap validated the type"),
            }
        }
        if t.empty_only && !(t.files || t.dirs) {
            t.files = true;
            t.dirs = true;
        }
        Some(t)
    }

    /// Whether an entry of this kind passes (consulting metadata only for `x` and `e`).
    pub fn matches(&self, kind: Kind, meta: &mut dyn Meta) -> bool {
        let shown = match kind {
            Kind::File => self.files,
            Kind::Dir => self.dirs,
            Kind::Symlink => self.symlinks,
            Kind::Socket => self.sockets,
            Kind::Fifo => self.pipes,
            Kind::BlockDevice => self.block_devices,
            Kind::CharDevice => self.char_devices,
            Kind::Unknown => false,
        };
        shown
            && (!self.executables_only || meta.executable())
            && (!self.empty_only || meta.is_empty(kind))
    }
}

/// One search pattern, compiled.
#[derive(Debug)]
pub enum Pattern {
    /// A literal, maybe anchored (`foo`, `\.c$`): compared as bytes, no regex built.
    Literal(Box<literal::Literal>),
    /// Anything else.
    Regex(Regex),
}

/// Longer literals are compiled as regexes too, so that a pattern past the regex size limit is
/// refused as before; a literal this short always compiles.
const LITERAL_WITHOUT_REGEX: usize = 4096;

impl Pattern {
    /// Compiles a pattern's regex (from [`pattern_regex`]); see [`compile_pattern`]. A short
    /// literal, which always compiles, is not compiled at all (`literal.rs`).
    pub fn new(source: &str, case_insensitive: bool) -> Result<Pattern> {
        match literal::Literal::of(source, case_insensitive) {
            Some(lit) if source.len() <= LITERAL_WITHOUT_REGEX => {
                Ok(Pattern::Literal(Box::new(lit)))
            }
            _ => Ok(Pattern::Regex(compile_pattern(source, case_insensitive)?)),
        }
    }

    #[inline]
    fn is_match(&self, s: &[u8]) -> bool {
        match self {
            Pattern::Literal(lit) => lit.is_match(s),
            Pattern::Regex(regex) => regex.is_match(s),
        }
    }
}

/// The filter that turned an entry away ([`Filters::refusal`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The pattern (on the name, or on the path with `--full-path`).
    Pattern,
    /// `-e`.
    Extension,
    /// `-t`.
    Type,
    /// Its metadata, which `--size`, `--changed-*` or `--owner` need, cannot be read.
    NoMetadata,
    /// `-o`.
    Owner,
    /// `-S` (only files pass).
    Size,
    /// `--changed-within`, `--changed-before`.
    Time,
}

/// Everything that decides whether an entry is printed, compiled once.
#[derive(Debug, Default)]
pub struct Filters {
    /// Every one must match the name (or the path, with `full_path_base`).
    pub patterns: Vec<Pattern>,
    /// With `-p`: the absolute directory that relative paths are joined to before matching.
    pub full_path_base: Option<Vec<u8>>,
    /// With `-p -g` where the system's separator is not '/' (Windows' '\'): the path is
    /// matched with '/' for it, the separator globs are written with (either is accepted in
    /// the glob, see [`pattern_regex`]).
    pub full_path_slashed: bool,
    /// `-e`: one case-insensitive regex over the name's end.
    pub extensions: Option<Regex>,
    /// `-t`.
    pub types: Option<TypeFilter>,
    /// `-S`: a file must be within every one (and only files pass).
    pub sizes: Vec<SizeFilter>,
    /// `--changed-within` / `--changed-before`.
    pub times: Vec<TimeFilter>,
    /// `-o`.
    pub owner: Option<OwnerFilter>,
}

impl Filters {
    /// Whether there is no filter at all: every entry passes.
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
            && self.extensions.is_none()
            && self.types.is_none()
            && self.sizes.is_empty()
            && self.times.is_empty()
            && self.owner.is_none()
    }

    /// Whether an entry passes every filter.
    #[inline]
    pub fn matches(&self, e: &mut Entry<'_>) -> bool {
        self.refusal(e).is_none()
    }

    /// The first filter that turns an entry away, if one does: what `--explain` names, and
    /// [`Filters::matches`] asks.
    #[inline]
    pub fn refusal(&self, e: &mut Entry<'_>) -> Option<Refusal> {
        self.name_refusal(e.path, e.name)
            .or_else(|| self.refusal_past_names(e))
    }

    /// [`Filters::refusal`] of an entry whose name passed [`Filters::name_refusal`] already
    /// (the walk asks it first of a file: [`Filters::names_first`]).
    #[inline]
    pub fn refusal_past_names(&self, e: &mut Entry<'_>) -> Option<Refusal> {
        if let Some(types) = &self.types {
            if !types.matches(e.kind, e.meta) {
                return Some(Refusal::Type);
            }
        }
        if self.owner.is_none() && self.sizes.is_empty() && self.times.is_empty() {
            return None;
        }
        self.metadata_refusal(e)
    }

    /// The filters on the name (or path) alone, which need nothing looked up: the pattern and
    /// `-e`.
    #[inline]
    pub fn name_refusal(&self, path: &[u8], name: &[u8]) -> Option<Refusal> {
        if !self.patterns.is_empty() {
            let matched = match &self.full_path_base {
                None => self.patterns.iter().all(|p| p.is_match(name)),
                Some(base) => {
                    let mut full = absolute(base, path);
                    if self.full_path_slashed {
                        slash(&mut full);
                        self.patterns.iter().all(|p| p.is_match(&full))
                    } else if SEPARATOR != b'/' {
                        // A regular expression on Windows' `\` paths (as fd matches them),
                        // or on the same path written with `/`: `-p src/main` finds
                        // `src\main.rs` too.
                        let mut slashed = full.clone();
                        slash(&mut slashed);
                        self.patterns
                            .iter()
                            .all(|p| p.is_match(&full) || p.is_match(&slashed))
                    } else {
                        self.patterns.iter().all(|p| p.is_match(&full))
                    }
                }
            };
            if !matched {
                return Some(Refusal::Pattern);
            }
        }
        if let Some(ext) = &self.extensions {
            if !ext.is_match(name) {
                return Some(Refusal::Extension);
            }
        }
        None
    }

    /// Whether a file the walk meets is judged by its name first ([`Filters::name_refusal`]),
    /// before the ignore files: one the pattern or `-e` turns away is printed whatever they
    /// say, and most files of a search for a pattern are. Not with `--full-path`, whose path
    /// is made (a copy) for each entry it judges.
    pub fn names_first(&self) -> bool {
        (!self.patterns.is_empty() || self.extensions.is_some()) && self.full_path_base.is_none()
    }

    /// The filters on metadata: owner, size and times.
    fn metadata_refusal(&self, e: &mut Entry<'_>) -> Option<Refusal> {
        let Some(st) = e.meta.stat() else {
            return Some(Refusal::NoMetadata);
        };
        if let Some(owner) = &self.owner {
            if !owner.matches(st.uid, st.gid) {
                return Some(Refusal::Owner);
            }
        }
        if !self.sizes.is_empty()
            && (st.kind() != Kind::File || !self.sizes.iter().all(|s| s.is_within(st.size)))
        {
            return Some(Refusal::Size);
        }
        let timely = self
            .times
            .iter()
            .all(|t| t.applies_to(st.mtime, st.mtime_nsec));
        (!timely).then_some(Refusal::Time)
    }
}

/// `base/path`, without a leading "./" on `path`; `path` as it is when already absolute. On
/// Windows as std joins them (and fd, whose `--full-path` matches `cwd.join(path)`): a path
/// from the root (`\src`) takes the base's drive, one with a drive (`D:src`) is kept whole.
fn absolute(base: &[u8], path: &[u8]) -> Vec<u8> {
    let relative = path.strip_prefix(CURRENT_DIR).unwrap_or(path);
    let relative = relative.strip_prefix(b"./").unwrap_or(relative);
    if SEPARATOR != b'/' {
        let relative = match relative {
            [b'.', sep, rest @ ..] if is_separator(*sep) => rest,
            _ => relative,
        };
        let joined = crate::fs::os_path(base).join(crate::fs::os_path(relative));
        return joined.into_os_string().into_encoded_bytes();
    }
    if path.starts_with(b"/") {
        return path.to_vec();
    }
    let mut full = Vec::with_capacity(base.len() + 1 + relative.len());
    full.extend_from_slice(base);
    if !base.last().is_some_and(|&b| is_separator(b)) {
        full.push(SEPARATOR);
    }
    full.extend_from_slice(relative);
    full
}

/// The system's separators in `path` written as '/'.
fn slash(path: &mut [u8]) {
    for b in path.iter_mut().filter(|b| is_separator(**b)) {
        *b = b'/';
    }
}

/// How the search pattern is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// A regular expression (the default).
    Regex,
    /// A glob (`--glob`).
    Glob,
    /// A literal string (`--fixed-strings`).
    Fixed,
    /// A literal string that must be the whole name or path (`--exact`).
    Exact,
}

/// A search pattern in regex syntax: a regex as it is, a fixed string escaped, a glob translated
/// (on a full path, a glob's `*` does not cross `/`).
pub fn pattern_regex(pattern: &str, syntax: Syntax, full_path: bool) -> Result<String> {
    Ok(match syntax {
        Syntax::Regex => pattern.to_owned(),
        Syntax::Fixed => regex::escape(pattern),
        Syntax::Exact => format!("^{}$", regex::escape(pattern)),
        Syntax::Glob => {
            // Where the system's separator is not '/', it is one in a glob on a full path too
            // (globset reads '\' as a plain character on Windows, where it does not escape).
            let slashed = if full_path && SEPARATOR != b'/' {
                pattern.replace(SEPARATOR as char, "/")
            } else {
                pattern.to_owned()
            };
            globset::GlobBuilder::new(&slashed)
                .literal_separator(full_path)
                .build()
                .map_err(|e| {
                    let shown = crate::fs::escape::escaped(pattern.as_bytes());
                    anyhow::anyhow!("invalid glob '{shown}': {}", e.kind())
                })?
                .regex()
                .to_owned()
        }
    })
}

/// Compiles a pattern's regex (from [`pattern_regex`]) to match names or paths as bytes.
/// `case_insensitive` is already resolved (smart case).
pub fn compile_pattern(source: &str, case_insensitive: bool) -> Result<Regex> {
    RegexBuilder::new(source)
        .case_insensitive(case_insensitive)
        .dot_matches_new_line(true)
        .build()
        .map_err(|e| match e {
            regex::Error::Syntax(msg) => anyhow::anyhow!(
                "invalid regular expression:\n{msg}\nTo search for a literal string, use \
                 --fixed-strings (or --exact, for the whole name); for a glob such as '*.rs', \
                 use --glob."
            ),
            other => anyhow::anyhow!("invalid regular expression: {other}"),
        })
}

/// Whether a pattern matches every name, so that matching can be skipped ("" and "." as a
/// regex). "." is special-cased because a name of invalid UTF-8 alone would not match it.
pub fn matches_everything(pattern: &str, syntax: Syntax) -> bool {
    (pattern.is_empty() && syntax != Syntax::Exact)
        || (syntax == Syntax::Regex && pattern == ".")
        || (syntax == Syntax::Glob && pattern == "*")
}

/// fd's smart case: a pattern's regex (from [`pattern_regex`]) makes the search case-sensitive
/// when it spells an uppercase letter: a literal, however escaped (`F`, `\x46`), a range end in
/// a class (`[A-Z]`), or a class that means "uppercase" (`[[:upper:]]`, `\p{Lu}`). fd reads the
/// compiled form instead, where `\W` and `\D` become ranges that happen to end on uppercase
/// letters and so turn `foo\Wbar` case-sensitive; reading what was written avoids that.
pub fn has_uppercase(source: &str) -> bool {
    let Ok(ast) = regex_syntax::ast::parse::Parser::new().parse(source) else {
        return false;
    };
    regex_syntax::ast::visit(&ast, UppercaseFinder(false)).unwrap_or(false)
}

/// Walks a pattern's syntax tree for [`has_uppercase`].
struct UppercaseFinder(bool);

/// Whether a Unicode class such as `\p{Lu}` names the uppercase (or titlecase) letters.
fn names_uppercase(class: &ast::ClassUnicode) -> bool {
    let is_upper = |name: &str| {
        let norm: String = name
            .chars()
            .filter(|c| !matches!(c, ' ' | '_' | '-'))
            .flat_map(char::to_lowercase)
            .collect();
        matches!(
            norm.as_str(),
            "lu" | "uppercaseletter" | "lt" | "titlecaseletter" | "upper" | "uppercase"
        )
    };
    !class.is_negated()
        && match &class.kind {
            ast::ClassUnicodeKind::OneLetter(_) => false,
            ast::ClassUnicodeKind::Named(name) => is_upper(name),
            ast::ClassUnicodeKind::NamedValue { value, .. } => is_upper(value),
        }
}

impl ast::Visitor for UppercaseFinder {
    type Output = bool;
    type Err = ();

    fn finish(self) -> Result<bool, ()> {
        Ok(self.0)
    }

    fn visit_pre(&mut self, node: &ast::Ast) -> Result<(), ()> {
        match node {
            ast::Ast::Literal(l) => self.0 |= l.c.is_uppercase(),
            ast::Ast::ClassUnicode(c) => self.0 |= names_uppercase(c),
            _ => {}
        }
        Ok(())
    }

    fn visit_class_set_item_pre(&mut self, item: &ast::ClassSetItem) -> Result<(), ()> {
        self.0 |= match item {
            ast::ClassSetItem::Literal(l) => l.c.is_uppercase(),
            ast::ClassSetItem::Range(r) => r.start.c.is_uppercase() || r.end.c.is_uppercase(),
            ast::ClassSetItem::Ascii(a) => a.kind == ast::ClassAsciiKind::Upper && !a.negated,
            ast::ClassSetItem::Unicode(c) => names_uppercase(c),
            _ => false,
        };
        Ok(())
    }
}

/// Whether a pattern's regex can only match names that start with a dot (`^\.`), which are
/// hidden unless `--hidden` is given: fd refuses such a search rather than find nothing.
pub fn only_matches_hidden(source: &str) -> bool {
    // Parsed as fd does; a pattern that does not parse is reported when it is compiled.
    let parsed = regex_syntax::ParserBuilder::new()
        .utf8(false)
        .build()
        .parse(source);
    let Ok(hir) = parsed else {
        return false;
    };
    let HirKind::Concat(subs) = hir.kind() else {
        return false;
    };
    let [start, next, ..] = subs.as_slice() else {
        return false;
    };
    let dot_first =
        |h: &Hir| matches!(h.kind(), HirKind::Literal(Literal(b)) if b.starts_with(b"."));
    matches!(start.kind(), HirKind::Look(Look::Start)) && dot_first(next)
}

/// `-e` values to one regex: `(?i)(?s-u:.)\.(?:rs|tar\.gz)$`. As in fd, the extension must
/// follow at least one character: a file named ".rs" has no extension. Unlike fd's, that
/// character may be any byte, so that "caf\xe9.txt" (Latin-1) is a txt file.
pub fn compile_extensions(exts: &[String]) -> Result<Option<Regex>> {
    if exts.is_empty() {
        return Ok(None);
    }
    let alternatives: Vec<String> = exts
        .iter()
        .map(|e| regex::escape(e.strip_prefix('.').unwrap_or(e)))
        .collect();
    if alternatives.iter().any(String::is_empty) {
        bail!("an empty extension matches nothing: give -e a value such as rs or tar.gz");
    }
    let source = format!(r"(?s-u:.)\.(?:{})$", alternatives.join("|"));
    Ok(Some(
        RegexBuilder::new(&source).case_insensitive(true).build()?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compile(pattern: &str, syntax: Syntax, full_path: bool) -> Regex {
        compile_pattern(&pattern_regex(pattern, syntax, full_path).unwrap(), false).unwrap()
    }

    #[test]
    fn smart_case_looks_at_literals_and_classes_like_fd() {
        assert!(has_uppercase("Foo"));
        assert!(!has_uppercase(r"\S+\.rs"));
        assert!(!has_uppercase(r"\Acargo"));
        assert!(!has_uppercase(r"\W"));
        assert!(!has_uppercase(r"\D"));
        assert!(has_uppercase(r"\x46"));
        assert!(has_uppercase("[[:upper:]]"));
        assert!(has_uppercase(r"\p{Lu}"));
        assert!(has_uppercase(r"\p{gc=Uppercase_Letter}"));
        assert!(!has_uppercase(r"\P{Lu}"));
        assert!(!has_uppercase(r"\pL"));
        assert!(!has_uppercase("[[:^upper:]]"));
        assert!(has_uppercase(r"[\x41-\x5a]"));
        assert!(has_uppercase(r"\u{C9}"));
        assert!(has_uppercase("foo.[a-zA-Z]"));
        assert!(!has_uppercase("foo.[a-z]"));
        assert!(!has_uppercase("("));
        assert!(has_uppercase(
            &pattern_regex("*.RS", Syntax::Glob, false).unwrap()
        ));
        assert!(!has_uppercase(
            &pattern_regex("*.rs", Syntax::Glob, false).unwrap()
        ));
        assert!(has_uppercase(
            &pattern_regex("A.b", Syntax::Fixed, false).unwrap()
        ));
    }

    #[test]
    fn leading_dot_patterns_are_recognised() {
        assert!(only_matches_hidden(r"^\.git"));
        assert!(only_matches_hidden(
            &pattern_regex(".*", Syntax::Glob, false).unwrap()
        ));
        assert!(!only_matches_hidden("^.git"));
        assert!(!only_matches_hidden(r"\.git"));
        assert!(!only_matches_hidden("^git"));
        assert!(!only_matches_hidden(
            &pattern_regex(".git", Syntax::Fixed, false).unwrap()
        ));
    }

    #[test]
    fn globs_respect_separators_only_on_full_paths() {
        let name = compile("*.rs", Syntax::Glob, false);
        assert!(name.is_match(b"main.rs"));
        assert!(!name.is_match(b"main.rsx"));
        let full = compile("/src/*.rs", Syntax::Glob, true);
        assert!(full.is_match(b"/src/main.rs"));
        assert!(!full.is_match(b"/src/a/main.rs"));
        let full_any = compile("**/walk/*.rs", Syntax::Glob, true);
        assert!(full_any.is_match(b"/x/y/walk/dir.rs"));
    }

    #[test]
    fn fixed_strings_are_literal_and_regex_matches_raw_bytes() {
        let fixed = compile("a.b", Syntax::Fixed, false);
        assert!(fixed.is_match(b"xa.by"));
        assert!(!fixed.is_match(b"axb"));
        let re = compile_pattern("not-utf8", true).unwrap();
        assert!(re.is_match(b"\xff\xfeNOT-UTF8"));
        let nl = compile("new.line", Syntax::Regex, false);
        assert!(nl.is_match(b"new\nline"));
    }

    #[test]
    fn invalid_patterns_are_errors() {
        assert!(compile_pattern("(", false).is_err());
        assert!(pattern_regex("[", Syntax::Glob, false).is_err());
    }

    #[test]
    fn extensions_are_case_insensitive_and_multi_part() {
        let re = compile_extensions(&["rs".into(), ".tar.gz".into()])
            .unwrap()
            .unwrap();
        assert!(re.is_match(b"main.RS"));
        assert!(re.is_match(b"a.b.c.tar.gz"));
        assert!(!re.is_match(b"rs"));
        assert!(!re.is_match(b"x.gz"));
    }

    #[test]
    fn an_extension_needs_a_name_before_it() {
        let re = compile_extensions(&["txt".into()]).unwrap().unwrap();
        assert!(!re.is_match(b".txt"));
        assert!(re.is_match(b"caf\xe9.txt"));
        assert!(re.is_match(b"new\n.txt"));
    }

    #[test]
    fn absolute_joins_relative_paths() {
        // Joined with the system's separator; the path's own separators stay.
        let sep = char::from(SEPARATOR);
        assert_eq!(
            absolute(b"/home/u", b"./a/b"),
            format!("/home/u{sep}a/b").as_bytes()
        );
        assert_eq!(absolute(b"/", b"a"), b"/a");
        assert_eq!(absolute(b"/home/u", b"/etc"), b"/etc");
        if SEPARATOR == b'\\' {
            // Windows: ".\" is the current directory too; a path from the root keeps the
            // base's drive, a path with a drive is its own.
            assert_eq!(absolute(br"C:\Users\u", br".\src\a"), br"C:\Users\u\src\a");
            assert_eq!(absolute(br"C:\Users\u", br"\etc\x"), br"C:\etc\x");
            assert_eq!(absolute(br"C:\Users\u", br"D:\x"), br"D:\x");
            assert_eq!(absolute(br"C:\Users\u", b"D:x"), b"D:x");
            assert_eq!(absolute(br"C:\", b"./a"), br"C:\a");
        }
    }
}
