//! The compiled rules against the `ignore` crate's `Gitignore` on tricky rules and paths, the
//! screens against the rules they merge, and the costs a hostile file could raise,
//! counted rather than timed.

use super::keys::FxHasher;
use super::screen::Screen;
use super::wild::COMPONENTS_COMPARED;
use super::*;
use ignore::gitignore::GitignoreBuilder;
use std::collections::HashSet;
use std::hash::{BuildHasher, BuildHasherDefault};

/// What `Gitignore` says, the reference.
fn reference(text: &str, rel: &[u8], is_dir: bool) -> Decision {
    let mut b = GitignoreBuilder::new("/");
    for line in text.lines() {
        let _ = b.add_line(None, line);
    }
    let g = b.build().unwrap();
    let m = g.matched(crate::fs::os_path(rel), is_dir);
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

/// Whether `path` can reach the rules on this system. A name holding `\` (`"\\a/b"`) exists
/// only where `\` separates nothing: on Windows every path reaches the rules with its `\`
/// made `/` (`filter::ignore`'s `rel_to`), and `Gitignore` reads a `\` there as a separator.
fn reaches_the_rules(path: &str) -> bool {
    !path
        .bytes()
        .any(|b| b != b'/' && crate::fs::is_separator(b))
}

#[test]
fn every_class_agrees_with_gitignore_one_rule_at_a_time() {
    for pat in PATTERNS {
        for path in PATHS.iter().filter(|p| reaches_the_rules(p)) {
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

// Names that are not UTF-8: bytes on Unix, a lone surrogate on Windows (where fd's `ignore`
// matches the name with U+FFFD in its place).
#[test]
fn invalid_utf8_names_match_as_bytes() {
    for pat in ["*.o", "*", "?", "a*", "*\\\u{e9}", "x?y", "[a-c]*"] {
        for path in crate::fs::names_not_utf8() {
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
            if !reaches_the_rules(path) {
                continue;
            }
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
    let linux = b"*.o\n*.mod.c\n*.tab.[ch]\n*.o.*\n.*\npatches-*\ncscope.*\n*~\nModule.symvers\n\
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
    let r = Rules::parse(&[b"*.lex.c\n*~\ncscope.*\n*.o.*\n.*\n*.tab.[ch]\n*.[0-9]\n"]).unwrap();
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
    // As git reads them; the integration tests check them against git itself.
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
    // it, quadratic (70,000 took 12 s in a release build), and the list was
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
    // in a few dozen buckets of 65,536, and inserting 70,000 took seconds.
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
    // in the number of `**`. Between two `**` the parts take a fixed number of
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
    // the bound, the rest of such rules are skipped, the fast ones still apply.
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
