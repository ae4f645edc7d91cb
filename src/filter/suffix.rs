//! Search patterns that are only a literal end (`\.c$`, `_test\.go$`): matched with a byte
//! comparison instead of a regex run, since such a pattern is the common `ffind PATTERN`.

use regex_syntax::hir::{Hir, HirKind, Look};

/// A literal the name (or path) must end with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suffix {
    bytes: Vec<u8>,
    /// ASCII case-insensitive (smart case found no uppercase letter).
    fold: bool,
}

impl Suffix {
    /// The suffix a pattern's regex (from `pattern_regex`) stands for, when it is nothing else:
    /// literal characters then `$`. Case-insensitive only when every letter folds to ASCII
    /// alone: Unicode case folding also matches `k` with the Kelvin sign and `s` with the long
    /// s, which a byte comparison would miss.
    pub fn of(source: &str, case_insensitive: bool) -> Option<Suffix> {
        let hir = regex_syntax::ParserBuilder::new()
            .utf8(false)
            .build()
            .parse(source)
            .ok()?;
        let HirKind::Concat(parts) = hir.kind() else {
            return None;
        };
        let (last, lits) = parts.split_last()?;
        if !matches!(last.kind(), HirKind::Look(Look::End)) || lits.is_empty() {
            return None;
        }
        let mut bytes = Vec::new();
        for h in lits {
            bytes.extend_from_slice(literal(h)?);
        }
        if case_insensitive
            && bytes
                .iter()
                .any(|b| !b.is_ascii() || matches!(b.to_ascii_lowercase(), b'k' | b's'))
        {
            return None;
        }
        Some(Suffix {
            bytes,
            fold: case_insensitive,
        })
    }

    /// Whether `s` ends with the suffix.
    #[inline]
    pub fn is_match(&self, s: &[u8]) -> bool {
        let n = self.bytes.len();
        if s.len() < n {
            return false;
        }
        let end = &s[s.len() - n..];
        if self.fold {
            end.iter()
                .zip(&self.bytes)
                .all(|(a, b)| a.eq_ignore_ascii_case(b))
        } else {
            end.iter().zip(&self.bytes).all(|(a, b)| a == b)
        }
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

    #[test]
    fn suffixes_agree_with_the_regex() {
        let names: &[&[u8]] = &[
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
            b"bus",
            b"bu\xc5\xbf",
            b"",
        ];
        for pat in [
            r"\.c$",
            r"\.C$",
            r"\.tar\.gz$",
            r"_test\.go$",
            "k$",
            "s$",
            "rs$",
            r"a.c$",
            r"^main\.c$",
            r"\.c",
            r"\.c\z",
            r"(?i)\.c$",
            r"\xff\.c$",
            "$",
        ] {
            for ci in [false, true] {
                let re = compile_pattern(pat, ci).unwrap();
                let fast = Suffix::of(pat, ci);
                for name in names {
                    if let Some(f) = &fast {
                        assert_eq!(
                            f.is_match(name),
                            re.is_match(name),
                            "{pat:?} ci {ci} on {name:?}"
                        );
                    }
                }
            }
        }
        assert!(Suffix::of(r"\.c$", true).is_some());
        assert!(
            Suffix::of("k$", true).is_none(),
            "k folds to the Kelvin sign"
        );
        assert!(Suffix::of(r"a.c$", false).is_none());
        assert!(Suffix::of(r"^main\.c$", false).is_none());
        assert!(Suffix::of(r"(?i)\.c$", false).is_none());
    }
}
