//! What decides whether an entry is printed: patterns, extensions, types, size, time, owner;
//! and, in [`ignore`], what hides an entry and its subtree.
//!
//! The filters here only answer questions; the order in which they are asked, and what happens
//! to directories, is `walk/visit.rs`'s business. Filters that need metadata ask the entry's
//! [`Meta`] for it lazily, so a plain listing costs no `stat`.

pub mod ignore;
pub mod owner;
pub mod size;
pub mod time;

use anyhow::{bail, Context as _, Result};
use regex::bytes::{Regex, RegexBuilder};

use crate::walk::dir::{Kind, Stat};
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

/// Everything that decides whether an entry is printed, compiled once.
#[derive(Debug, Default)]
pub struct Filters {
    /// Every one must match the name (or the path, with `full_path_base`).
    pub patterns: Vec<Regex>,
    /// With `-p`: the absolute directory that relative paths are joined to before matching.
    pub full_path_base: Option<Vec<u8>>,
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
    /// Whether an entry passes every filter.
    pub fn matches(&self, e: &mut Entry<'_>) -> bool {
        if !self.patterns.is_empty() {
            let matched = match &self.full_path_base {
                None => self.patterns.iter().all(|p| p.is_match(e.name)),
                Some(base) => {
                    let full = absolute(base, e.path);
                    self.patterns.iter().all(|p| p.is_match(&full))
                }
            };
            if !matched {
                return false;
            }
        }
        if let Some(ext) = &self.extensions {
            if !ext.is_match(e.name) {
                return false;
            }
        }
        if let Some(types) = &self.types {
            if !types.matches(e.kind, e.meta) {
                return false;
            }
        }
        if self.owner.is_none() && self.sizes.is_empty() && self.times.is_empty() {
            return true;
        }
        let Some(st) = e.meta.stat() else {
            return false;
        };
        if let Some(owner) = &self.owner {
            if !owner.matches(st.uid, st.gid) {
                return false;
            }
        }
        if !self.sizes.is_empty()
            && (st.kind() != Kind::File || !self.sizes.iter().all(|s| s.is_within(st.size)))
        {
            return false;
        }
        self.times
            .iter()
            .all(|t| t.applies_to(st.mtime, st.mtime_nsec))
    }
}

/// `base/path`, without a leading "./" on `path`; `path` as it is when already absolute.
fn absolute(base: &[u8], path: &[u8]) -> Vec<u8> {
    if path.starts_with(b"/") {
        return path.to_vec();
    }
    let path = path.strip_prefix(b"./").unwrap_or(path);
    let mut full = Vec::with_capacity(base.len() + 1 + path.len());
    full.extend_from_slice(base);
    if !base.ends_with(b"/") {
        full.push(b'/');
    }
    full.extend_from_slice(path);
    full
}

/// How the search pattern is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    Regex,
    Glob,
    Fixed,
}

/// Compiles one search pattern to a bytes regex. `case_insensitive` is already resolved
/// (smart case). A glob matched against a full path keeps `*` from crossing `/`.
pub fn compile_pattern(
    pattern: &str,
    syntax: Syntax,
    case_insensitive: bool,
    full_path: bool,
) -> Result<Regex> {
    let source = match syntax {
        Syntax::Regex => pattern.to_owned(),
        Syntax::Fixed => regex::escape(pattern),
        Syntax::Glob => globset::GlobBuilder::new(pattern)
            .literal_separator(full_path)
            .build()
            .with_context(|| format!("invalid glob '{pattern}'"))?
            .regex()
            .to_owned(),
    };
    RegexBuilder::new(&source)
        .case_insensitive(case_insensitive)
        .dot_matches_new_line(true)
        .build()
        .map_err(|e| match e {
            regex::Error::Syntax(msg) => anyhow::anyhow!("invalid regular expression:\n{msg}"),
            other => anyhow::anyhow!("invalid regular expression: {other}"),
        })
}

/// Whether a pattern matches every name, so that matching can be skipped ("" and "." as a
/// regex). "." is special-cased because a name of invalid UTF-8 alone would not match it.
pub fn matches_everything(pattern: &str, syntax: Syntax) -> bool {
    pattern.is_empty()
        || (syntax == Syntax::Regex && pattern == ".")
        || (syntax == Syntax::Glob && pattern == "*")
}

/// fd's smart case: a pattern with an uppercase letter (outside escapes) is case-sensitive.
pub fn has_uppercase(pattern: &str, syntax: Syntax) -> bool {
    if syntax != Syntax::Regex {
        return pattern.chars().any(char::is_uppercase);
    }
    // Walk the regex source, skipping escapes such as \S or \W, which are classes, not letters.
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                // \p{Lu} and friends name a class.
                Some('p') | Some('P') => {
                    if chars.clone().next() == Some('{') {
                        for c in chars.by_ref() {
                            if c == '}' {
                                break;
                            }
                        }
                    } else {
                        chars.next();
                    }
                }
                _ => {}
            }
        } else if c.is_uppercase() {
            return true;
        }
    }
    false
}

/// `-e` values to one regex: `(?i)\.(?:rs|tar\.gz)$`.
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
    let source = format!(r"\.(?:{})$", alternatives.join("|"));
    Ok(Some(
        RegexBuilder::new(&source).case_insensitive(true).build()?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smart_case_ignores_escapes() {
        assert!(has_uppercase("Foo", Syntax::Regex));
        assert!(!has_uppercase(r"\S+\.rs", Syntax::Regex));
        assert!(!has_uppercase(r"\p{Lu}x", Syntax::Regex));
        assert!(has_uppercase(r"\p{Lu}X", Syntax::Regex));
        assert!(has_uppercase("*.RS", Syntax::Glob));
    }

    #[test]
    fn globs_respect_separators_only_on_full_paths() {
        let name = compile_pattern("*.rs", Syntax::Glob, false, false).unwrap();
        assert!(name.is_match(b"main.rs"));
        assert!(!name.is_match(b"main.rsx"));
        let full = compile_pattern("/src/*.rs", Syntax::Glob, false, true).unwrap();
        assert!(full.is_match(b"/src/main.rs"));
        assert!(!full.is_match(b"/src/a/main.rs"));
        let full_any = compile_pattern("**/walk/*.rs", Syntax::Glob, false, true).unwrap();
        assert!(full_any.is_match(b"/x/y/walk/dir.rs"));
    }

    #[test]
    fn fixed_strings_are_literal_and_regex_matches_raw_bytes() {
        let fixed = compile_pattern("a.b", Syntax::Fixed, false, false).unwrap();
        assert!(fixed.is_match(b"xa.by"));
        assert!(!fixed.is_match(b"axb"));
        let re = compile_pattern("not-utf8", Syntax::Regex, true, false).unwrap();
        assert!(re.is_match(b"\xff\xfeNOT-UTF8"));
        let nl = compile_pattern("new.line", Syntax::Regex, false, false).unwrap();
        assert!(nl.is_match(b"new\nline"));
    }

    #[test]
    fn invalid_patterns_are_errors() {
        assert!(compile_pattern("(", Syntax::Regex, false, false).is_err());
        assert!(compile_pattern("[", Syntax::Glob, false, false).is_err());
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
    fn absolute_joins_relative_paths() {
        assert_eq!(absolute(b"/home/u", b"./a/b"), b"/home/u/a/b");
        assert_eq!(absolute(b"/", b"a"), b"/a");
        assert_eq!(absolute(b"/home/u", b"/etc"), b"/etc");
    }
}
