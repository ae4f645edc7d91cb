//! fd's search language, one option at a time: regular expressions, smart case and
//! the case flags, globs, fixed strings, `--and`, full paths, names that are not UTF-8 and
//! patterns rejected before any walk. Every check runs under every method at `-j 1` and `-j 8`
//! ([`assert_everywhere`]). Ignore files and hidden entries are in `ignore_files.rs`. On
//! Windows too, but for names that are not UTF-8 (there are none there).

use crate::fd_parity::assert_everywhere;
#[cfg(unix)]
use crate::fd_parity::methods_agree;
use crate::filters_common::assert_usage_error;
use crate::fixture::Tree;

// Patterns.

#[test]
fn regex_matches_the_name_with_smart_case() {
    let t = Tree::new();
    t.files(&[
        "foo.rs",
        "Foo.txt",
        "bar/FOO.md",
        "foodir/inner.rs",
        "xfooy",
    ]);
    assert_everywhere(
        &t,
        &["foo"],
        &["foo.rs", "Foo.txt", "bar/FOO.md", "foodir", "xfooy"],
    );
    assert_everywhere(&t, &["Foo"], &["Foo.txt"]);
    assert_everywhere(
        &t,
        &["^foo"],
        &["foo.rs", "Foo.txt", "bar/FOO.md", "foodir"],
    );
    assert_everywhere(&t, &[r"\.rs$"], &["foo.rs", "foodir/inner.rs"]);
    // The name only: "bar" is in bar/FOO.md's path, not its name.
    assert_everywhere(&t, &["bar"], &["bar"]);
}

#[test]
fn smart_case_sees_uppercase_however_it_is_written() {
    let t = Tree::new();
    // Names that differ in case alone in directories of their own (one file on Windows).
    t.files(&["Foo", "l/foo", "m/fOO", "foo-bar", "foo_BAR"]);
    // An escaped F, a class of capitals, \p{Lu}: all spell uppercase letters, as in fd.
    assert_everywhere(&t, &[r"^\x46"], &["Foo"]);
    assert_everywhere(&t, &["^[[:upper:]]"], &["Foo"]);
    assert_everywhere(&t, &[r"^\p{Lu}"], &["Foo"]);
    assert_everywhere(&t, &["^[A-F]"], &["Foo"]);
    // \W and \S are classes, not letters: still case-insensitive. (fd turns case-sensitive
    // on \W, whose compiled ranges end on uppercase letters; see filter::has_uppercase.)
    assert_everywhere(&t, &[r"foo\Wbar"], &["foo-bar"]);
    assert_everywhere(&t, &[r"^\S+_bar$"], &["foo_BAR"]);
    // Every pattern counts: an uppercase --and makes the whole search case-sensitive.
    assert_everywhere(&t, &["o", "--and", "B"], &["foo_BAR"]);
}

#[test]
fn case_sensitive_and_ignore_case_flags() {
    let t = Tree::new();
    // Names that differ in case alone, each in a directory of its own (Windows' file systems
    // would make them one file).
    t.files(&["a/readme", "b/README", "c/ReadMe"]);
    assert_everywhere(&t, &["-s", "readme"], &["a/readme"]);
    assert_everywhere(&t, &["--case-sensitive", "ReadMe"], &["c/ReadMe"]);
    assert_everywhere(&t, &["-i", "README"], &["a/readme", "b/README", "c/ReadMe"]);
    assert_everywhere(
        &t,
        &["--ignore-case", "readme"],
        &["a/readme", "b/README", "c/ReadMe"],
    );
    // The last of -s and -i wins.
    assert_everywhere(
        &t,
        &["-s", "-i", "README"],
        &["a/readme", "b/README", "c/ReadMe"],
    );
    assert_everywhere(&t, &["-i", "-s", "README"], &["b/README"]);
}

/// A regex written with `/` between names, for the path as ffind matches it here: on Windows,
/// as fd there, the path has `\` (a regex's `\\`), and an absolute one begins with a drive.
fn path_regex(re: &str) -> String {
    if cfg!(windows) {
        re.replacen("^/", r"^[A-Za-z]:/", 1).replace('/', r"\\")
    } else {
        re.to_owned()
    }
}

#[test]
fn full_path_matches_the_absolute_path() {
    let t = Tree::new();
    t.files(&["src/main.rs", "src/a/deep.rs", "doc/main.rs", "srcfile"]);
    assert_everywhere(
        &t,
        &["-p", &path_regex("root/src/.*rs$")],
        &["src/main.rs", "src/a/deep.rs"],
    );
    assert_everywhere(&t, &["--full-path", &path_regex("root/src$")], &["src"]);
    // Absolute: the temporary directory's own name is part of every path.
    let root = t.root();
    let anchored = format!(
        "^{}{}",
        regex_syntax_escape(root.to_str().unwrap()),
        path_regex("/doc")
    );
    assert_everywhere(&t, &["-p", &anchored], &["doc", "doc/main.rs"]);
    // Relative search paths are made absolute first.
    assert_everywhere(
        &t,
        &["-p", &path_regex("^/.*/src/a/"), "src"],
        &["src/a/deep.rs"],
    );
    // Without -p a '/' can match no name: an error, not an empty result. On Windows fd.exe
    // takes it (its check is for '\\', windows.rs), and so does ffind: nothing is found.
    for args in [&["src/main"][..], &["-F", "src/main"], &["-g", "src/*.rs"]] {
        if cfg!(windows) {
            assert_everywhere(&t, args, &[]);
        } else {
            assert_usage_error(&t, args, "path separator");
        }
    }
}

/// `s` escaped for a regex (the temporary directory's path, with `\` on Windows).
fn regex_syntax_escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if r"\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[test]
fn glob_matches_the_whole_name() {
    let t = Tree::new();
    t.files(&[
        "main.rs", "main.rsx", "lib.RS", "mod.rs", "a/b.rs", "x.md", "y.txt",
    ]);
    assert_everywhere(
        &t,
        &["-g", "*.rs"],
        &["main.rs", "lib.RS", "mod.rs", "a/b.rs"],
    );
    assert_everywhere(&t, &["--glob", "m??n.*"], &["main.rs", "main.rsx"]);
    assert_everywhere(&t, &["-g", "*.{md,txt}"], &["x.md", "y.txt"]);
    assert_everywhere(
        &t,
        &["-g", "[lm]*"],
        &["main.rs", "main.rsx", "lib.RS", "mod.rs"],
    );
    // Smart case holds for globs too.
    assert_everywhere(&t, &["-g", "*.RS"], &["lib.RS"]);
    // --regex takes the pattern back to a regex.
    assert_everywhere(&t, &["-g", "--regex", "^m.*s$"], &["main.rs", "mod.rs"]);
}

#[test]
fn glob_on_full_paths_keeps_star_within_a_component() {
    let t = Tree::new();
    t.files(&["src/main.rs", "src/a/deep.rs", "other/main.rs"]);
    assert_everywhere(&t, &["-g", "-p", "**/src/*.rs"], &["src/main.rs"]);
    assert_everywhere(
        &t,
        &["-g", "-p", "**/src/**/*.rs"],
        &["src/main.rs", "src/a/deep.rs"],
    );
    assert_everywhere(&t, &["-g", "-p", "*/main.rs"], &[]);
}

#[test]
fn fixed_strings_are_literal_substrings() {
    let t = Tree::new();
    t.files(&["a.b", "xa.by", "axb", "f(x[", "(x"]);
    assert_everywhere(&t, &["-F", "a.b"], &["a.b", "xa.by"]);
    assert_everywhere(&t, &["--fixed-strings", "(x["], &["f(x["]);
    assert_everywhere(&t, &["--literal", "(x"], &["f(x[", "(x"]);
}

#[test]
fn and_patterns_must_all_match() {
    let t = Tree::new();
    t.files(&["foo-bar-baz", "foo-bar", "bar-baz", "baz-foo"]);
    assert_everywhere(&t, &["foo", "--and", "bar"], &["foo-bar-baz", "foo-bar"]);
    assert_everywhere(
        &t,
        &["foo", "--and", "bar", "--and", "baz"],
        &["foo-bar-baz"],
    );
    assert_everywhere(&t, &["-g", "*foo*", "--and", "baz*"], &["baz-foo"]);
    assert_everywhere(
        &t,
        &["-F", "-", "--and", "o-b"],
        &["foo-bar-baz", "foo-bar"],
    );
}

#[cfg(unix)]
#[test]
fn patterns_match_names_that_are_not_utf8() {
    let t = Tree::new();
    t.raw_file("raw", b"caf\xe9.txt")
        .raw_file("raw", b"\xff\xfe")
        .raw_file("raw", b"new\nline.txt")
        .files(&["raw/plain.txt"]);
    // With -0 the "./" prefix stays, as in fd (a name starting with '-' stays harmless).
    let bytes = |args: &[&str]| {
        let run = methods_agree(&t, args).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        run.sorted_by(b'\0')
            .into_iter()
            .map(|p| p.strip_prefix(b"./").map(<[u8]>::to_vec).unwrap_or(p))
            .collect::<Vec<_>>()
    };
    assert_eq!(bytes(&["-0", "caf"]), [b"raw/caf\xe9.txt".to_vec()]);
    assert_eq!(bytes(&["-0", r"(?-u:\xe9)"]), [b"raw/caf\xe9.txt".to_vec()]);
    assert_eq!(bytes(&["-0", "-g", "caf*"]), [b"raw/caf\xe9.txt".to_vec()]);
    assert_eq!(bytes(&["-0", r"^(?-u:\xff)"]), [b"raw/\xff\xfe".to_vec()]);
    assert_eq!(bytes(&["-0", "new.line"]), [b"raw/new\nline.txt".to_vec()]);
    // An extension after a name that is not UTF-8 (fd misses these: its `.` wants UTF-8).
    assert_eq!(
        bytes(&["-0", "-e", "txt"]),
        [
            b"raw/caf\xe9.txt".to_vec(),
            b"raw/new\nline.txt".to_vec(),
            b"raw/plain.txt".to_vec()
        ]
    );
}

#[test]
fn invalid_patterns_are_usage_errors_before_any_walk() {
    let t = Tree::new();
    t.files(&["a"]);
    assert_usage_error(&t, &["(unclosed"], "invalid regular expression");
    // The note says how to search for the text as it is: a part of the name, or all of it.
    assert_usage_error(
        &t,
        &["(unclosed"],
        "To search for a literal string, use --fixed-strings (or --exact, for the whole name); \
         for a glob such as '*.rs', use --glob.",
    );
    assert_usage_error(&t, &["a{2"], "invalid regular expression");
    assert_usage_error(&t, &["x", "--and", "["], "invalid regular expression");
    assert_usage_error(&t, &["-g", "[unclosed"], "invalid glob");
    assert_usage_error(&t, &["-g", "x", "--and", "{a"], "invalid glob");
    assert_usage_error(&t, &["-S", "10"], "not a valid size");
    assert_usage_error(&t, &["-S", "+1x"], "not a valid size");
    assert_usage_error(&t, &["--changed-within", "soon"], "neither a duration");
    assert_usage_error(
        &t,
        &["--changed-before", "2024-13-45"],
        "neither a duration",
    );
    if cfg!(unix) {
        assert_usage_error(&t, &["-o", "no-such-user-hopefully"], "no user is named");
        assert_usage_error(&t, &["-o", ":no-such-group-hopefully"], "no group is named");
        assert_usage_error(&t, &["-o", "a:b:c"], "one ':' at most");
    }
    assert_usage_error(&t, &["-E", "[x"], "invalid exclude pattern");
    assert_usage_error(&t, &["-e", ""], "empty extension");
    assert_usage_error(&t, &["-t", "q"], "invalid value");
    assert_usage_error(
        &t,
        &["-d", "1", "--exact-depth", "1"],
        "cannot be used with",
    );
}

#[test]
fn a_pattern_for_hidden_names_needs_hidden() {
    let t = Tree::new();
    t.files(&[".env", ".git-keep", "visible"]);
    // As fd: a search that can only find hidden names, which are skipped, is an error.
    assert_usage_error(&t, &[r"^\.env"], "--hidden");
    assert_usage_error(&t, &["-g", ".*"], "--hidden");
    assert_everywhere(&t, &["-H", r"^\.env"], &[".env"]);
    assert_everywhere(&t, &["-u", "-g", ".git*"], &[".git-keep"]);
    // Not anchored, or not a dot: fine.
    assert_everywhere(&t, &[r"\.env"], &[]);
    assert_everywhere(&t, &["^.isible"], &["visible"]);
}

/// A pattern quoted in a message shows as every path and pattern on a terminal does: a line
/// break in it is `\x0A`, so that the rest of it cannot pass for a message of its own (the
/// path-separator hint, an invalid `-g` glob, an invalid `-E` pattern).
#[test]
fn patterns_in_messages_are_escaped() {
    let t = Tree::new();
    t.files(&["a/b"]);
    let mut cases: Vec<&[&str]> = vec![
        &["-g", "[\nffind: forged"],
        &["-E", "[\nffind: forged", "."],
    ];
    // On Windows a '/' in a pattern is taken (`windows.rs`): the hint is Unix's.
    if cfg!(unix) {
        cases.push(&["a/\nffind: forged"]);
    }
    for args in cases {
        let r = t.run(args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.contains("\\x0Affind: forged"),
            "{args:?}: {}",
            r.stderr
        );
        assert!(
            !r.stderr.lines().any(|l| l.starts_with("ffind: forged")),
            "{args:?}: a line of the pattern passes for a message: {}",
            r.stderr
        );
    }
}
