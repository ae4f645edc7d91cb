//! fd's search language, one option at a time (issue 3): patterns, types, extensions, depth,
//! excludes, pruning, size, time, owner, links, file systems and result limits. Every check
//! runs under every method at `-j 1` and `-j 8` ([`assert_everywhere`]). Ignore files and hidden
//! entries are in `ignore_files.rs`.

use std::ffi::CString;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use crate::fd_parity::{assert_everywhere, assert_listing, listing, methods_agree, set_mtime};
use crate::fixture::{is_root, Tree};

/// Asserts a usage error: exit code 2, a message naming `needle`, nothing printed. The search
/// path does not exist, so a walk that started anyway would say so too.
fn assert_usage_error(t: &Tree, args: &[&str], needle: &str) {
    let mut full = args.to_vec();
    full.extend(["--search-path", "no-such-directory"]);
    let run = t.run(&full);
    assert_eq!(run.code, 2, "{full:?}: exit code; stderr: {}", run.stderr);
    assert!(run.stdout.is_empty(), "{full:?} printed {:?}", run.sorted());
    assert!(
        run.stderr.contains(needle),
        "{full:?}: stderr does not mention {needle:?}: {}",
        run.stderr
    );
    assert!(
        !run.stderr.contains("no-such-directory"),
        "{full:?} walked before failing: {}",
        run.stderr
    );
}

fn c_path(p: &Path) -> CString {
    CString::new(p.as_os_str().as_bytes()).unwrap()
}

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
    t.files(&["Foo", "foo", "fOO", "foo-bar", "foo_BAR"]);
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
    t.files(&["readme", "README", "ReadMe"]);
    assert_everywhere(&t, &["-s", "readme"], &["readme"]);
    assert_everywhere(&t, &["--case-sensitive", "ReadMe"], &["ReadMe"]);
    assert_everywhere(&t, &["-i", "README"], &["readme", "README", "ReadMe"]);
    assert_everywhere(
        &t,
        &["--ignore-case", "readme"],
        &["readme", "README", "ReadMe"],
    );
    // The last of -s and -i wins.
    assert_everywhere(&t, &["-s", "-i", "README"], &["readme", "README", "ReadMe"]);
    assert_everywhere(&t, &["-i", "-s", "README"], &["README"]);
}

#[test]
fn full_path_matches_the_absolute_path() {
    let t = Tree::new();
    t.files(&["src/main.rs", "src/a/deep.rs", "doc/main.rs", "srcfile"]);
    assert_everywhere(
        &t,
        &["-p", "root/src/.*rs$"],
        &["src/main.rs", "src/a/deep.rs"],
    );
    assert_everywhere(&t, &["--full-path", "root/src$"], &["src"]);
    // Absolute: the temporary directory's own name is part of every path.
    let root = t.root();
    let anchored = format!("^{}/doc", root.to_str().unwrap());
    assert_everywhere(&t, &["-p", &anchored], &["doc", "doc/main.rs"]);
    // Relative search paths are made absolute first.
    assert_everywhere(&t, &["-p", "^/.*/src/a/", "src"], &["src/a/deep.rs"]);
    // Without -p a '/' can match no name: an error, not an empty result.
    assert_usage_error(&t, &["src/main"], "path separator");
    assert_usage_error(&t, &["-F", "src/main"], "path separator");
    assert_usage_error(&t, &["-g", "src/*.rs"], "path separator");
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
    assert_usage_error(&t, &["-o", "no-such-user-hopefully"], "not a known user");
    assert_usage_error(&t, &["-o", ":no-such-group-hopefully"], "not a known group");
    assert_usage_error(&t, &["-o", "a:b:c"], "more than one ':'");
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

// Types.

#[test]
fn types_files_dirs_links_and_repeats() {
    let t = Tree::new();
    t.files(&["file", "dir/inner"])
        .link("file", "link-to-file")
        .link("dir", "link-to-dir")
        .link("nowhere", "dangling");
    assert_everywhere(&t, &["-t", "f"], &["file", "dir/inner"]);
    assert_everywhere(&t, &["--type", "file"], &["file", "dir/inner"]);
    assert_everywhere(&t, &["-t", "d"], &["dir"]);
    assert_everywhere(&t, &["-t", "directory"], &["dir"]);
    assert_everywhere(
        &t,
        &["-t", "l"],
        &["link-to-file", "link-to-dir", "dangling"],
    );
    assert_everywhere(
        &t,
        &["-t", "f", "-t", "symlink"],
        &[
            "file",
            "dir/inner",
            "link-to-file",
            "link-to-dir",
            "dangling",
        ],
    );
    assert_everywhere(&t, &["-tf", "-td"], &["file", "dir", "dir/inner"]);
    // Following links, they take their target's type; only the dangling one stays a link.
    assert_everywhere(&t, &["-L", "-t", "l"], &["dangling"]);
    assert_everywhere(
        &t,
        &["-L", "-t", "f"],
        &["file", "dir/inner", "link-to-file", "link-to-dir/inner"],
    );
}

#[test]
fn types_executable_and_empty() {
    let t = Tree::new();
    t.write("run.sh", "#!/bin/sh\n")
        .write("data", "x")
        .files(&["empty-file", "full/x"])
        .dirs(&["empty-dir", "exec-dir"])
        .chmod("run.sh", 0o755)
        .chmod("exec-dir", 0o755)
        .write("sub/tool", "x")
        .chmod("sub/tool", 0o700);
    // x implies files: a searchable directory is not an executable.
    assert_everywhere(&t, &["-t", "x"], &["run.sh", "sub/tool"]);
    assert_everywhere(&t, &["--type", "executable"], &["run.sh", "sub/tool"]);
    assert_everywhere(
        &t,
        &["-t", "e"],
        &["empty-file", "empty-dir", "exec-dir", "full/x"],
    );
    assert_everywhere(&t, &["-t", "empty", "-t", "f"], &["empty-file", "full/x"]);
    assert_everywhere(&t, &["-te", "-td"], &["empty-dir", "exec-dir"]);
    assert_everywhere(&t, &["-tx", "-te"], &[]);
}

#[test]
fn types_sockets_and_pipes() {
    let t = Tree::new();
    t.files(&["plain"]).dirs(&["d"]);
    let fifo = c_path(&t.root().join("d/fifo"));
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    drop(std::os::unix::net::UnixListener::bind(t.root().join("sock")).unwrap());
    assert_everywhere(&t, &["-t", "p"], &["d/fifo"]);
    assert_everywhere(&t, &["--type", "pipe"], &["d/fifo"]);
    assert_everywhere(&t, &["-t", "s"], &["sock"]);
    assert_everywhere(&t, &["-t", "socket", "-t", "p"], &["sock", "d/fifo"]);
    assert_everywhere(&t, &["-t", "f"], &["plain"]);
}

#[test]
fn types_block_and_char_devices() {
    if !is_root() {
        eprintln!("not root: cannot mknod, skipping");
        return;
    }
    let t = Tree::new();
    t.files(&["plain"]).dirs(&["dev"]);
    let char_dev = c_path(&t.root().join("dev/null-like"));
    let block_dev = c_path(&t.root().join("dev/loop-like"));
    // SAFETY: valid NUL-terminated paths; creating device nodes needs root, which we are.
    unsafe {
        assert_eq!(
            libc::mknod(
                char_dev.as_ptr(),
                libc::S_IFCHR | 0o600,
                libc::makedev(1, 3)
            ),
            0
        );
        assert_eq!(
            libc::mknod(
                block_dev.as_ptr(),
                libc::S_IFBLK | 0o600,
                libc::makedev(7, 0)
            ),
            0
        );
    }
    assert_everywhere(&t, &["-t", "c"], &["dev/null-like"]);
    assert_everywhere(&t, &["--type", "char-device"], &["dev/null-like"]);
    assert_everywhere(&t, &["-t", "b"], &["dev/loop-like"]);
    assert_everywhere(
        &t,
        &["-t", "block-device", "-t", "c"],
        &["dev/loop-like", "dev/null-like"],
    );
    assert_everywhere(&t, &["-t", "f"], &["plain"]);
}

// Extensions.

#[test]
fn extensions_repeat_ignore_case_and_have_several_parts() {
    let t = Tree::new();
    t.files(&[
        "main.rs",
        "LIB.RS",
        "notes.md",
        "a.tar.gz",
        "b.gz",
        "tar.gz",
        "c.targz",
        "rs",
        "dir.rs/inner",
    ]);
    assert_everywhere(&t, &["-e", "rs"], &["main.rs", "LIB.RS", "dir.rs"]);
    assert_everywhere(
        &t,
        &["-e", "RS", "--extension", "md"],
        &["main.rs", "LIB.RS", "notes.md", "dir.rs"],
    );
    // "tar.gz" alone is a name with the extension "gz", not a "tar.gz" file.
    assert_everywhere(&t, &["-e", "tar.gz"], &["a.tar.gz"]);
    assert_everywhere(&t, &["-e", ".gz"], &["a.tar.gz", "b.gz", "tar.gz"]);
    assert_everywhere(&t, &["-e", "rs", "-t", "f"], &["main.rs", "LIB.RS"]);
    assert_everywhere(&t, &["-e", "rs", "main"], &["main.rs"]);
}

#[test]
fn a_dot_file_has_no_extension() {
    let t = Tree::new();
    t.files(&[".rs", "x.rs", ".config.rs"]);
    // As in fd: the extension must follow some name.
    assert_everywhere(&t, &["-H", "-e", "rs"], &["x.rs", ".config.rs"]);
}

// Depth.

#[test]
fn max_min_and_exact_depth() {
    let t = Tree::new();
    t.files(&["a", "d1/b", "d1/d2/c", "d1/d2/d3/e"]);
    assert_everywhere(&t, &["-d", "1"], &["a", "d1"]);
    assert_everywhere(&t, &["--max-depth", "2"], &["a", "d1", "d1/b", "d1/d2"]);
    assert_everywhere(&t, &["--maxdepth", "2", "-t", "f"], &["a", "d1/b"]);
    assert_everywhere(
        &t,
        &["--min-depth", "3"],
        &["d1/d2/c", "d1/d2/d3", "d1/d2/d3/e"],
    );
    assert_everywhere(&t, &["--exact-depth", "2"], &["d1/b", "d1/d2"]);
    assert_everywhere(
        &t,
        &["--min-depth", "2", "-d", "3"],
        &["d1/b", "d1/d2", "d1/d2/c", "d1/d2/d3"],
    );
    assert_everywhere(&t, &["--min-depth", "3", "-d", "2"], &[]);
    // Depth counts from each search path.
    assert_everywhere(
        &t,
        &["--exact-depth", "1", ".", "d1/d2"],
        &["d1/d2/c", "d1/d2/d3"],
    );
}

// Excludes and pruning.

#[test]
fn excludes_hide_entries_and_their_subtrees() {
    let t = Tree::new();
    t.files(&[
        "main.rs",
        "notes.md",
        "src/lib.rs",
        "src/gen/out.rs",
        "target/debug/x",
        "docs/target/y",
        "a/b/c.txt",
        "b/c.txt",
    ]);
    assert_everywhere(
        &t,
        &["-E", "*.rs"],
        &[
            "notes.md",
            "src",
            "src/gen",
            "target",
            "target/debug",
            "target/debug/x",
            "docs",
            "docs/target",
            "docs/target/y",
            "a",
            "a/b",
            "a/b/c.txt",
            "b",
            "b/c.txt",
        ],
    );
    // Repeatable; a name excludes the directory wherever it is, with everything below it.
    assert_everywhere(
        &t,
        &["-E", "target", "--exclude", "*.md", "-E", "src"],
        &["main.rs", "docs", "a", "a/b", "a/b/c.txt", "b", "b/c.txt"],
    );
    // As in .gitignore, a glob with a '/' is matched against the path below the search path
    // (a leading '/' only says so explicitly); "**/" lets it start at any depth.
    assert_everywhere(&t, &["-E", "b/c.txt", "-t", "f", "c.txt"], &["a/b/c.txt"]);
    assert_everywhere(&t, &["-E", "**/b/c.txt", "-t", "f", "c.txt"], &[]);
    assert_everywhere(
        &t,
        &["-E", "src/gen", "-e", "rs"],
        &["main.rs", "src/lib.rs"],
    );
    assert_everywhere(
        &t,
        &["-E", "/target", "-t", "f", "^[xy]$"],
        &["docs/target/y"],
    );
    assert_everywhere(&t, &["-E", "/b", "-t", "f", "c.txt"], &["a/b/c.txt"]);
    // Anchored at each search path, not at the current directory.
    assert_everywhere(&t, &["-E", "/gen", "-t", "f", ".", "src"], &["src/lib.rs"]);
    // A trailing '/' excludes directories only.
    t.files(&["file-named-target/target"]);
    assert_everywhere(
        &t,
        &["-E", "target/", "target"],
        &["file-named-target", "file-named-target/target"],
    );
}

#[test]
fn prune_does_not_descend_into_matches() {
    let t = Tree::new();
    t.files(&["node/a/node/x", "node/b", "src/node/y", "other/z"]);
    assert_everywhere(&t, &["--prune", "node"], &["node", "src/node"]);
    assert_everywhere(&t, &["node"], &["node", "node/a/node", "src/node"]);
    // Only what is printed is pruned: a file type filter leaves directories alone.
    assert_everywhere(
        &t,
        &["--prune", "-t", "f", "^[xyz]$"],
        &["node/a/node/x", "src/node/y", "other/z"],
    );
    // Above --min-depth nothing is printed, so nothing is pruned.
    assert_everywhere(
        &t,
        &["--prune", "--min-depth", "2", "node"],
        &["node/a/node", "src/node"],
    );
}

// Size, time, owner.

#[test]
fn size_limits_with_units() {
    let t = Tree::new();
    t.write("zero", "")
        .write("b500", &"x".repeat(500))
        .write("k1", &"x".repeat(1000))
        .write("ki1", &"x".repeat(1024))
        .write("k10", &"x".repeat(10_000))
        .write("m1", &"x".repeat(1_000_001))
        .link("m1", "link-to-big")
        .dirs(&["dir"]);
    assert_everywhere(&t, &["-S", "+1M"], &["m1"]);
    assert_everywhere(
        &t,
        &["--size", "-10k"],
        &["zero", "b500", "k1", "ki1", "k10"],
    );
    assert_everywhere(&t, &["-S", "500b"], &["b500"]);
    assert_everywhere(&t, &["-S", "1ki"], &["ki1"]);
    assert_everywhere(&t, &["-S", "1KiB"], &["ki1"]);
    assert_everywhere(&t, &["-S", "1k"], &["k1"]);
    assert_everywhere(&t, &["-S", "1kb"], &["k1"]);
    assert_everywhere(&t, &["-S", "0b"], &["zero"]);
    assert_everywhere(&t, &["-S", "+1k", "-S", "-1ki"], &["k1", "ki1"]);
    assert_everywhere(&t, &["-S", "+1mi"], &[]);
    // Followed, a link has its target's size.
    assert_everywhere(&t, &["-L", "-S", "+1M"], &["m1", "link-to-big"]);
}

#[test]
fn changed_within_and_before_with_durations_and_dates() {
    let t = Tree::new();
    t.files(&["new", "week-old", "year-2000", "dir/old-in-dir"]);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    set_mtime(&t, "week-old", now - 8 * 86_400);
    set_mtime(&t, "year-2000", 946_728_000); // 2000-01-01 12:00 UTC
    set_mtime(&t, "dir/old-in-dir", 946_728_000);
    set_mtime(&t, "dir", 946_728_000);
    assert_everywhere(&t, &["--changed-within", "1d"], &["new"]);
    assert_everywhere(&t, &["--changed-within", "2weeks"], &["new", "week-old"]);
    assert_everywhere(
        &t,
        &["--changed-within", "1week 2days"],
        &["new", "week-old"],
    );
    assert_everywhere(&t, &["--newer", "10h"], &["new"]);
    assert_everywhere(
        &t,
        &["--changed-before", "1week"],
        &["week-old", "year-2000", "dir", "dir/old-in-dir"],
    );
    assert_everywhere(
        &t,
        &["--older", "2001-01-01"],
        &["year-2000", "dir", "dir/old-in-dir"],
    );
    assert_everywhere(&t, &["--changed-before", "1999-12-01 10:00:00"], &[]);
    assert_everywhere(
        &t,
        &["--change-newer-than", "@946684800", "-t", "f", "old"],
        &["week-old", "dir/old-in-dir"],
    );
    assert_everywhere(
        &t,
        &["--changed-within", "2000-06-01", "--changed-before", "3d"],
        &["week-old"],
    );
}

#[test]
fn owner_by_id_name_and_negation() {
    let t = Tree::new();
    t.files(&["mine", "dir/also-mine"]);
    let meta = fs::metadata(t.root().join("mine")).unwrap();
    let (uid, gid) = (meta.uid().to_string(), meta.gid().to_string());
    assert_everywhere(&t, &["-o", &uid], &["mine", "dir", "dir/also-mine"]);
    assert_everywhere(
        &t,
        &["-o", &format!("{uid}:{gid}")],
        &["mine", "dir", "dir/also-mine"],
    );
    assert_everywhere(
        &t,
        &["-o", &format!(":{gid}"), "-t", "f"],
        &["mine", "dir/also-mine"],
    );
    assert_everywhere(&t, &["--owner", &format!("!{uid}")], &[]);
    assert_everywhere(&t, &["-o", &format!("{uid}:!{gid}")], &[]);
    if !is_root() {
        eprintln!("not root: cannot chown, skipping the rest");
        return;
    }
    t.files(&["nobodys", "dir/groups"]);
    let chown = |rel: &str, uid: u32, gid: u32| {
        let p = c_path(&t.root().join(rel));
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::chown(p.as_ptr(), uid, gid) }, 0);
    };
    chown("nobodys", 65534, 65534);
    chown("dir/groups", 0, 65534);
    assert_everywhere(&t, &["-o", "65534"], &["nobodys"]);
    assert_everywhere(&t, &["-o", "nobody"], &["nobodys"]);
    assert_everywhere(&t, &["-o", ":65534"], &["nobodys", "dir/groups"]);
    assert_everywhere(&t, &["-o", "root:65534"], &["dir/groups"]);
    assert_everywhere(&t, &["-o", "!nobody:65534"], &["dir/groups"]);
    assert_everywhere(&t, &["-o", "!root", "-t", "f"], &["nobodys"]);
    assert_everywhere(
        &t,
        &["-o", ":!65534", "-t", "f"],
        &["mine", "dir/also-mine"],
    );
}

// Links and file systems.

#[test]
fn follow_descends_into_linked_directories() {
    let t = Tree::new();
    t.files(&["real/inner", "file"])
        .link("real", "link")
        .link("file", "file-link");
    assert_everywhere(
        &t,
        &[],
        &["real", "real/inner", "file", "link", "file-link"],
    );
    assert_everywhere(
        &t,
        &["-L"],
        &[
            "real",
            "real/inner",
            "file",
            "link",
            "link/inner",
            "file-link",
        ],
    );
    assert_everywhere(&t, &["--follow", "-t", "d"], &["real", "link"]);
    assert_everywhere(
        &t,
        &["--dereference", "inner"],
        &["real/inner", "link/inner"],
    );
    assert_everywhere(&t, &["-L", "--no-follow", "inner"], &["real/inner"]);
}

#[test]
fn one_file_system_changes_nothing_within_one() {
    let t = Tree::new();
    t.files(&["a/b/c", "d", ".h/x"]).link("a", "l");
    for extra in [&[][..], &["-L"], &["-u"], &["-t", "f"]] {
        let plain = methods_agree(&t, extra).unwrap_or_else(|e| panic!("{e}"));
        let mut args = vec!["--one-file-system"];
        args.extend_from_slice(extra);
        let one = methods_agree(&t, &args).unwrap_or_else(|e| panic!("{e}"));
        assert!(!listing(&plain).is_empty());
        assert_eq!(listing(&plain), listing(&one), "{extra:?}");
        assert_eq!(one.code, 0, "{}", one.stderr);
    }
}

#[test]
fn one_file_system_stops_at_a_mount_point() {
    // /dev usually holds other file systems (/dev/pts, /dev/shm); skip where it does not.
    let dev = Path::new("/dev");
    let Ok(dev_meta) = fs::metadata(dev) else {
        return;
    };
    let mount = fs::read_dir(dev).ok().and_then(|entries| {
        entries.flatten().map(|e| e.path()).find(|p| {
            fs::symlink_metadata(p).is_ok_and(|m| m.is_dir() && m.dev() != dev_meta.dev())
                && fs::read_dir(p).is_ok_and(|mut d| d.next().is_some())
        })
    });
    let Some(mount) = mount else {
        eprintln!("no mount point with entries below /dev: skipping");
        return;
    };
    let t = Tree::new();
    let mount = mount.to_str().unwrap();
    let inside = |run: &crate::fixture::Run| {
        listing(run)
            .into_iter()
            .filter(|p| p.starts_with(&format!("{mount}/")))
            .collect::<Vec<_>>()
    };
    let all = t.run(&["-u", "-d", "2", ".", "/dev"]);
    assert!(
        !inside(&all).is_empty(),
        "{mount} has entries: {:?}",
        listing(&all)
    );
    // /dev changes under our feet (terminals, shared memory): each method is checked on its
    // own rather than compared with the others.
    for method in crate::fd_parity::METHODS {
        for flag in ["--one-file-system", "--mount", "--xdev"] {
            let args = ["--method", method, "-u", "-d", "2", flag, ".", "/dev"];
            let run = t.run(&args);
            assert!(
                listing(&run).iter().any(|p| p == mount),
                "{args:?}: {mount} is listed"
            );
            assert_eq!(
                inside(&run),
                Vec::<String>::new(),
                "{args:?}: nothing below {mount}"
            );
        }
    }
}

// Result limits.

#[test]
fn max_results_and_one() {
    let t = Tree::new();
    t.files(&["a1", "a2", "a3", "a4", "b/a5", "c"]);
    let all = ["a1", "a2", "a3", "a4", "b/a5"];
    for method in crate::fd_parity::METHODS {
        for j in ["1", "8"] {
            for (args, n) in [
                (&["--max-results", "2", "a"][..], 2),
                (&["--max-results=3", "a"], 3),
                (&["-1", "a"], 1),
                (&["--max-results", "99", "a"], 5),
            ] {
                let mut full = vec!["--method", method, "-j", j];
                full.extend_from_slice(args);
                let run = t.run(&full);
                assert_eq!(run.code, 0, "{full:?}: {}", run.stderr);
                let got = listing(&run);
                assert_eq!(got.len(), n, "{full:?}: {got:?}");
                assert!(
                    got.iter().all(|p| all.contains(&p.as_str())),
                    "{full:?}: {got:?}"
                );
            }
        }
    }
    assert_usage_error(&t, &["-1", "--max-results", "2"], "cannot be used with");
}

#[test]
fn quiet_answers_with_the_exit_code_only() {
    let t = Tree::new();
    t.files(&["x/found", "other"]);
    for method in crate::fd_parity::METHODS {
        for j in ["1", "8"] {
            let run = |args: &[&str]| {
                let mut full = vec!["--method", method, "-j", j];
                full.extend_from_slice(args);
                t.run(&full)
            };
            for args in [
                &["-q", "found"][..],
                &["--quiet", "-t", "d"],
                &["--has-results"],
            ] {
                let r = run(args);
                assert_eq!(
                    (r.code, r.stdout.len()),
                    (0, 0),
                    "{args:?} {method}: {}",
                    r.stderr
                );
                assert!(r.stderr.is_empty(), "{}", r.stderr);
            }
            for args in [
                &["-q", "missing"][..],
                &["-q", "-t", "l"],
                &["-q", "-e", "rs"],
            ] {
                let r = run(args);
                assert_eq!(
                    (r.code, r.stdout.len()),
                    (1, 0),
                    "{args:?} {method}: {}",
                    r.stderr
                );
                assert!(r.stderr.is_empty(), "{}", r.stderr);
            }
        }
    }
}

#[test]
fn filters_combine() {
    let t = Tree::new();
    t.write("src/big.rs", &"x".repeat(2000))
        .write("src/small.rs", "x")
        .write("src/deep/big.rs", &"x".repeat(2000))
        .write("big.txt", &"x".repeat(2000));
    let run = methods_agree(&t, &["-e", "rs", "-S", "+1k", "-d", "2", "big"])
        .unwrap_or_else(|e| panic!("{e}"));
    assert_listing(&run, &[], &["src/big.rs"]);
    assert_everywhere(
        &t,
        &["-t", "f", "-E", "deep", "-S", "+1k"],
        &["src/big.rs", "big.txt"],
    );
    assert_everywhere(
        &t,
        &["-g", "*.rs", "--exact-depth", "3"],
        &["src/deep/big.rs"],
    );
    // Sizes name files only: the directory "src" never passes -S, even with an empty bound.
    assert_everywhere(&t, &["-S", "-0b", "src"], &[]);
}
