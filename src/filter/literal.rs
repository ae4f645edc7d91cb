//! Search patterns that are only a literal, maybe anchored (`foo`, `\.c$`, `^Makefile`,
//! `^main\.rs$`): matched by comparing bytes instead of running a regex, since such a pattern
//! is the common `ffind PATTERN`, and building the regex costs more at start-up than matching
//! every name of a large tree by bytes.
//!
//! Case-insensitive (smart case, no uppercase letter in the pattern) only for a literal of
//! ASCII bytes, and by bytes only for a name of ASCII bytes: the regex folds case by Unicode's
//! rules, under which `k` also matches the Kelvin sign and `s` the long s. A name with any
//! other byte is matched by the regex itself, built the first time one comes. Between ASCII
//! bytes the two foldings agree: no two ASCII characters fold together but a letter's cases.

use std::sync::OnceLock;

use memchr::memmem;
use regex::bytes::{Regex, RegexBuilder};
use regex_syntax::hir::{Hir, HirKind, Look};

/// A literal a name (or path) must contain, start with, end with, or be.
#[derive(Debug)]
pub struct Literal {
    /// Lowercase when folding.
    bytes: Vec<u8>,
    /// Anchored at the start (`^`, `\A`).
    start: bool,
    /// Anchored at the end (`$`, `\z`).
    end: bool,
    /// ASCII case-insensitive.
    fold: bool,
    /// Unanchored and case-sensitive: searched for with memchr's two-way finder.
    finder: Option<memmem::Finder<'static>>,
    /// The pattern, for the regex that a folded literal matches a non-ASCII name with.
    source: String,
    regex: OnceLock<Regex>,
}

impl Literal {
    /// The literal a pattern's regex (from `pattern_regex`) stands for, when it is nothing
    /// else: an optional `^`, literal characters, an optional `$`.
    pub fn of(source: &str, case_insensitive: bool) -> Option<Literal> {
        let hir = regex_syntax::ParserBuilder::new()
            .utf8(false)
            .build()
            .parse(source)
            .ok()?;
        let one = std::slice::from_ref(&hir);
        let mut parts = match hir.kind() {
            HirKind::Concat(parts) => parts.as_slice(),
            _ => one,
        };
        let start = parts
            .first()
            .is_some_and(|h| matches!(h.kind(), HirKind::Look(Look::Start)));
        if start {
            parts = &parts[1..];
        }
        let end = parts
            .last()
            .is_some_and(|h| matches!(h.kind(), HirKind::Look(Look::End)));
        if end {
            parts = &parts[..parts.len() - 1];
        }
        let mut bytes = Vec::new();
        for h in parts {
            bytes.extend_from_slice(literal(h)?);
        }
        if bytes.is_empty() || (case_insensitive && !bytes.is_ascii()) {
            return None;
        }
        if case_insensitive {
            bytes.make_ascii_lowercase();
        }
        let finder =
            (!start && !end && !case_insensitive).then(|| memmem::Finder::new(&bytes).into_owned());
        Some(Literal {
            bytes,
            start,
            end,
            fold: case_insensitive,
            finder,
            source: source.to_owned(),
            regex: OnceLock::new(),
        })
    }

    /// Whether `s` matches.
    #[inline]
    pub fn is_match(&self, s: &[u8]) -> bool {
        let n = self.bytes.len();
        if s.len() < n {
            return false;
        }
        if self.fold && !s.is_ascii() {
            return self.regex().is_match(s);
        }
        match (self.start, self.end) {
            (true, true) => s.len() == n && self.same(s),
            (true, false) => self.same(&s[..n]),
            (false, true) => self.same(&s[s.len() - n..]),
            (false, false) => match &self.finder {
                Some(finder) => finder.find(s).is_some(),
                None => self.find_folded(s),
            },
        }
    }

    /// Whether `s`, as long as the literal, is it.
    #[inline]
    fn same(&self, s: &[u8]) -> bool {
        if self.fold {
            s.eq_ignore_ascii_case(&self.bytes)
        } else {
            s == self.bytes.as_slice()
        }
    }

    /// Whether `s` (ASCII) contains the literal, in either case: where its first byte is.
    fn find_folded(&self, s: &[u8]) -> bool {
        let n = self.bytes.len();
        let first = self.bytes[0];
        let starts = &s[..=s.len() - n];
        memchr::memchr2_iter(first, first.to_ascii_uppercase(), starts)
            .any(|i| self.same(&s[i..i + n]))
    }

    /// The pattern's regex, built once (see the module's doc).
    #[cold]
    fn regex(&self) -> &Regex {
        self.regex.get_or_init(|| {
            // As `filter::compile_pattern` builds it (which has no dot to set here); a literal
            // this short always compiles (`LITERAL_WITHOUT_REGEX`).
            RegexBuilder::new(&self.source)
                .case_insensitive(self.fold)
                .build()
                .expect("a literal pattern compiles")
        })
    }
}

fn literal(h: &Hir) -> Option<&[u8]> {
    match h.kind() {
        HirKind::Literal(l) => Some(&l.0),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::filter::compile_pattern;
    use proptest::prelude::*;

    /// Names whose matches differ by case, by Unicode's folding, by position, by bytes that are
    /// not UTF-8.
    const NAMES: &[&[u8]] = &[
        b"main.c",
        b"main.C",
        b"main.cc",
        b"c",
        b".c",
        b"x.c\n",
        b"a.tar.gz",
        b"a.TAR.GZ",
        b"lib.rs",
        b"x\xff.c",
        b"_test.go",
        b"a_TEST.go",
        b"park",
        b"par\xe2\x84\xaa",
        b"\xe2\x84\xaaernel",
        b"bus",
        b"bu\xc5\xbf",
        b"Makefile",
        b"makefile.am",
        b"src",
        b"SRC",
        b"test_main.rs",
        b"caf\xc3\xa9",
        b"CAF\xc3\x89",
        b"",
    ];

    /// Patterns that are literals, and some that are not.
    const PATTERNS: &[&str] = &[
        r"\.c$",
        r"\.C$",
        r"\.tar\.gz$",
        r"_test\.go$",
        "k$",
        "s$",
        "rs$",
        r"a.c$",
        r"^main\.c$",
        r"^main",
        r"^Make",
        "^make",
        "kernel",
        "test",
        "src",
        "SRC",
        "main",
        "café",
        "CAFÉ",
        r"\.c",
        r"\.c\z",
        r"\Amain",
        r"(?i)\.c$",
        r"\xff\.c$",
        "$",
        "^",
        "^$",
        "a|b",
        r"\bmain",
        "c",
    ];

    #[test]
    fn literals_agree_with_the_regex() {
        for pat in PATTERNS {
            for ci in [false, true] {
                let re = compile_pattern(pat, ci).unwrap();
                let Some(fast) = Literal::of(pat, ci) else {
                    continue;
                };
                for name in NAMES {
                    assert_eq!(
                        fast.is_match(name),
                        re.is_match(name),
                        "{pat:?} ci {ci} on {name:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn only_literals_are_matched_by_bytes() {
        for (pat, ci) in [
            (r"\.c$", true),
            ("k$", true),
            ("kernel", true),
            ("^main", false),
            (r"^main\.c$", true),
            ("café", false),
            (r"\Amain", false),
        ] {
            assert!(Literal::of(pat, ci).is_some(), "{pat:?} ci {ci}");
        }
        for (pat, ci) in [
            (r"a.c$", false),
            (r"(?i)\.c$", false),
            ("café", true),
            ("$", false),
            ("^$", false),
            ("a|b", false),
            (r"\bmain", false),
            ("", false),
        ] {
            assert!(Literal::of(pat, ci).is_none(), "{pat:?} ci {ci}");
        }
    }

    #[test]
    fn a_folded_literal_matches_the_kelvin_sign_and_the_long_s_as_the_regex_does() {
        let kernel = Literal::of("kernel", true).unwrap();
        assert!(kernel.is_match("\u{212A}ernel".as_bytes()));
        assert!(kernel.is_match(b"KERNEL.c"));
        let bus = Literal::of("bus$", true).unwrap();
        assert!(bus.is_match("bu\u{17F}".as_bytes()));
        assert!(!Literal::of("bus$", false)
            .unwrap()
            .is_match("bu\u{17F}".as_bytes()));
    }

    /// A name of the pieces that matter to literals: letters in both cases, a dot, the Kelvin
    /// sign, the long s, a byte that is not UTF-8.
    fn name() -> impl Strategy<Value = Vec<u8>> {
        let pieces: Vec<&'static [u8]> = vec![
            b"a",
            b"A",
            b"b",
            b"B",
            b"k",
            b"K",
            b"s",
            b".",
            "\u{212A}".as_bytes(),
            "\u{17F}".as_bytes(),
            b"\xff",
        ];
        proptest::collection::vec(prop::sample::select(pieces), 0..6).prop_map(|p| p.concat())
    }

    proptest! {
        #[test]
        fn any_literal_agrees_with_the_regex_on_any_name(
            lit in "[abAB.kKs]{1,3}",
            start in any::<bool>(),
            end in any::<bool>(),
            ci in any::<bool>(),
            names in proptest::collection::vec(name(), 1..20),
        ) {
            let pat = format!(
                "{}{}{}",
                if start { "^" } else { "" },
                regex::escape(&lit),
                if end { "$" } else { "" }
            );
            let re = compile_pattern(&pat, ci).unwrap();
            let fast = Literal::of(&pat, ci).unwrap();
            for name in &names {
                prop_assert_eq!(fast.is_match(name), re.is_match(name), "{:?} ci {} on {:?}", pat, ci, name);
            }
        }
    }
}
