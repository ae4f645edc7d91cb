//! ffind.exe against fd's own Windows build: on a tree with dotfiles, files hidden
//! by their attribute, a repository's `.gitignore` (ignored and negated entries), nested
//! directories and names that are not ASCII, the everyday command lines print the same set of
//! lines, byte for byte, as fd prints them, and a missing search path exits alike, both
//! messages naming it.
//!
//! fd's Windows build is `FFIND_FD_WINDOWS` (`.ci/windows.sh` builds it with
//! `benches/peers.py fd-windows` and names it by its Linux path, which a Windows program under
//! Wine reaches on `Z:`); without it the test says it is skipped. Where ffind differs from
//! fd on purpose, the tree leaves it out: a `.gitignore` negation of an attribute-hidden file
//! (fd #2096: fd shows it; `windows.rs` holds ffind to not showing it).

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use crate::fd_parity::run_fd;
use crate::fixture::{diff, host_path, Run, Spawn, Tree};
use crate::windows::hide;

/// The command lines compared: every one valid for fd too.
const TABLE: &[&[&str]] = &[
    &[],
    &["."],
    &["-H"],
    &["-u"],
    &["-e", "txt"],
    &["-t", "d"],
    &["-t", "f"],
    &["-g", "*.txt"],
    &["-E", "sub"],
    &["-i", "README"],
    &["-a"],
    &["--path-separator", "/"],
    &["-H", "-t", "f", "-e", "TXT"],
    &["-u", "-g", "*.log"],
    &["-H", "-d", "1"],
    &["é"],
    &["-g", "日本*"],
    &["-I", "-t", "x"],
    &["-g", "**/*.txt"],
    &["-H", "-t", "x", "-t", "d"],
];

/// fd's Windows build, from `FFIND_FD_WINDOWS`; `None` (the test is skipped, and says so) when
/// it is not set. Set, it must run.
fn fd_windows() -> Option<PathBuf> {
    let fd = host_path(std::env::var_os("FFIND_FD_WINDOWS")?);
    let runs = Command::new(&fd)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .output_ok()
        .status
        .success();
    assert!(runs, "FFIND_FD_WINDOWS={} does not run", fd.display());
    Some(fd)
}

/// The tree: a repository (its `.git` made by hand: no git under Wine) with a `.gitignore`
/// that ignores and negates, dotfiles and a dot directory, a file and a directory hidden by
/// their attribute, nested directories, and names with é and 日本.
fn tree() -> Tree {
    let t = Tree::new();
    assert!(t.git_init("."));
    t.write(".gitignore", "*.log\n!keep.log\nbuild/\nsub/skip-me.txt\n")
        .files(&[
            "README.md",
            "readme.txt",
            "notes.TXT",
            "debug.log",
            "keep.log",
            "build/out.bin",
            "src/main.rs",
            "src/lib.txt",
            "sub/keep.txt",
            "sub/skip-me.txt",
            "sub/deep/deeper/x.txt",
            "sub/deep/.dot-inside.txt",
            ".env",
            ".config/settings.txt",
            "café.txt",
            "日本/語.txt",
            "Été/Ça.txt",
            "attr-hidden.txt",
            "attr-dir/inside.txt",
            "with space/a b.txt",
            "run.bat",
            "script.cmd",
            "tool.exe",
            "src/Build.EXE",
            "noext",
        ]);
    hide(&t, "attr-hidden.txt");
    hide(&t, "attr-dir");
    t
}

/// Every command line of [`TABLE`] prints the same lines under ffind.exe as under fd.exe (as a
/// sorted set: both print in the order their threads find things), with the same exit code
/// and nothing on stderr.
#[test]
fn ffind_prints_what_fds_windows_build_prints() {
    let Some(fd) = fd_windows() else {
        eprintln!("skipped: FFIND_FD_WINDOWS not set");
        return;
    };
    assert_all_agree(&fd, &tree(), TABLE);
}

/// Runs every command line under ffind.exe and fd.exe in `t` and fails naming each that
/// differs ([`compare`]).
fn assert_all_agree(fd: &PathBuf, t: &Tree, lines: &[&[&str]]) {
    let mut failures = Vec::new();
    for &args in lines {
        let (ours, theirs) = (t.run(args), run_fd(fd, t, args));
        if let Some(failure) = compare(args, &ours, &theirs) {
            failures.push(failure);
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} command lines differ:\n{}",
        failures.len(),
        lines.len(),
        failures.join("\n")
    );
}

/// What differs between ffind's run and fd's, or `None`.
fn compare(args: &[&str], ours: &Run, theirs: &Run) -> Option<String> {
    let (got, want) = (ours.sorted(), theirs.sorted());
    if want.is_empty() {
        return Some(format!("{args:?}: fd printed nothing: {}", theirs.stderr));
    }
    if got != want || ours.code != theirs.code || !ours.stderr.is_empty() {
        return Some(format!(
            "{args:?}: fd exits {} ({:?}), ffind {} ({:?}); - only fd, + only ffind:\n{}",
            theirs.code,
            theirs.stderr,
            ours.code,
            ours.stderr,
            diff(&want, &got)
        ));
    }
    None
}

/// A search path that does not exist: alone, the same exit code as fd's (1) and a message
/// naming it (fd: "Search path 'nope' is not a directory."); beside one that exists, the same
/// listing and the message, and exit code 1 where fd's is 0: ffind's on every system, as find's
/// (cli_compat.rs).
#[test]
fn a_missing_search_path_exits_as_fds() {
    let Some(fd) = fd_windows() else {
        eprintln!("skipped: FFIND_FD_WINDOWS not set");
        return;
    };
    let t = tree();
    let args = [".", "nope"];
    let (ours, theirs) = (t.run(&args), run_fd(&fd, &t, &args));
    assert_eq!((ours.code, theirs.code), (1, 1), "{ours:?} {theirs:?}");
    assert!(ours.stdout.is_empty() && theirs.stdout.is_empty());
    for run in [&ours, &theirs] {
        assert!(run.stderr.contains("nope"), "{:?}", run.stderr);
    }
    assert_eq!(ours.stderr.lines().count(), 1, "{:?}", ours.stderr);
    for args in [&[".", "nope", "src"][..], &["-t", "f", ".", "src", "nope"]] {
        let (ours, theirs) = (t.run(args), run_fd(&fd, &t, args));
        assert_eq!((ours.code, theirs.code), (1, 0), "{args:?}");
        assert_eq!(ours.sorted(), theirs.sorted(), "{args:?}");
        assert!(!ours.sorted().is_empty(), "{args:?}");
        for run in [&ours, &theirs] {
            assert!(run.stderr.contains("nope"), "{args:?}: {:?}", run.stderr);
        }
    }
}

/// Search paths as a Windows user types them print as fd prints them: the search path as it
/// was typed (`.` as `./`, a trailing `/` or `\` kept, `/` inside kept), then the names below
/// it joined with `\`; so do the results `--strip-cwd-prefix=never` keeps the `./` of.
#[test]
fn search_paths_print_as_fds_windows_build_prints_them() {
    let Some(fd) = fd_windows() else {
        eprintln!("skipped: FFIND_FD_WINDOWS not set");
        return;
    };
    let t = tree();
    let root = t.root();
    let absolute = format!("{}\\sub", root.display());
    let absolute_slashed = absolute.replace('\\', "/");
    let lines: [&[&str]; 11] = [
        &["-t", "f", ".", "."],
        &["-t", "f", ".", "./"],
        &["-t", "f", ".", ".\\"],
        &["-t", "f", ".", "sub"],
        &["-t", "f", ".", "sub/"],
        &["-t", "f", ".", "sub\\"],
        &["-t", "f", ".", "./sub"],
        &["-t", "f", ".", ".\\sub\\deep"],
        &["-t", "f", ".", &absolute],
        &["-t", "f", ".", &absolute_slashed],
        &["-t", "f", "--strip-cwd-prefix=never"],
    ];
    assert_all_agree(&fd, &t, &lines);
}

/// The tree is what it should be: the attribute took (fd itself hides the file), and the
/// names that are not ASCII are there under their names.
#[test]
fn the_compared_tree_has_what_it_claims() {
    let t = tree();
    use std::os::windows::fs::MetadataExt;
    for rel in ["attr-hidden.txt", "attr-dir"] {
        let attributes = fs::metadata(t.root().join(rel)).unwrap().file_attributes();
        assert!(attributes & 0x2 != 0, "{rel}: {attributes:#x}");
    }
    for rel in ["café.txt", "日本/語.txt", "Été/Ça.txt"] {
        assert!(t.root().join(rel).is_file(), "{rel}");
    }
}
