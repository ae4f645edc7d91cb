//! fd's search language, the same under every method, and the same as fd's.
//!
//! One tree inside a real `git init` repository, and a table of command lines over it: each runs
//! under every method at concurrency 1 and 8, and all must print the same sorted set of paths.
//! Where fd is installed (`FFIND_FD`, else `~/.cache/ffind-peers/bin/fd`, else `fd` on PATH) the
//! same command line must also print the same set as fd, run in the same clean environment;
//! without fd only that comparison is skipped. [`assert_everywhere`] is the per-method half,
//! used by the option tests (`patterns.rs`, `types.rs`, `metadata.rs`, `depth_exclude.rs`)
//! and `ignore_files.rs` too.
//!
//! On Windows the helpers run (their expected paths written with `/`, see
//! [`crate::fixture::native`]), and [`fd`] is fd's own Windows build (`FFIND_FD_WINDOWS`); the
//! table is Unix-only (its tree needs git, a FIFO, a socket, links and raw names), and
//! `windows.rs` compares with fd there.

use std::fs;
#[cfg(unix)]
use std::os::unix::net::UnixListener;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime};

#[cfg(unix)]
use crate::fixture::is_root;
use crate::fixture::{clean_env, diff, native_all, Run, Spawn, Tree};
use crate::methods::methods;

/// Runs `args` under every method at `-j 1` and `-j 8`; `Err` describes the first disagreement
/// (output, exit code or stderr). `Ok` is the serial run.
pub fn methods_agree(t: &Tree, args: &[&str]) -> Result<Run, String> {
    let sep = if args.iter().any(|a| matches!(*a, "-0" | "--print0")) {
        0
    } else {
        b'\n'
    };
    let lossy = |run: &Run| -> Vec<String> {
        run.sorted_by(sep)
            .iter()
            .map(|l| String::from_utf8_lossy(l).into_owned())
            .collect()
    };
    let mut first: Option<(String, Run)> = None;
    for method in methods() {
        for j in ["1", "8"] {
            // Held for the whole walk under qemu-user (`-l` pads its columns to their least
            // widths once the window has passed).
            let mut full = crate::fixture::held_whole().to_vec();
            full.extend_from_slice(&["--method", method, "-j", j]);
            full.extend_from_slice(args);
            let run = t.run(&full);
            let name = format!("--method {method} -j {j}");
            let Some((first_name, want)) = &first else {
                first = Some((name, run));
                continue;
            };
            if run.sorted_by(sep) != want.sorted_by(sep) {
                return Err(format!(
                    "{args:?}: {name} differs from {first_name} (- only in {first_name}, + only in \
                     {name}):\n{}\n{name} exits {} with stderr {:?}; {first_name} exits {} with {:?}",
                    diff(&lossy(want), &lossy(&run)),
                    run.code,
                    run.stderr,
                    want.code,
                    want.stderr
                ));
            }
            if run.code != want.code || sorted_lines(&run.stderr) != sorted_lines(&want.stderr) {
                return Err(format!(
                    "{args:?}: {name} exits {} with stderr {:?}; {first_name} exits {} with {:?}",
                    run.code, run.stderr, want.code, want.stderr
                ));
            }
        }
    }
    Ok(first.expect("at least one method").1)
}

fn sorted_lines(s: &str) -> Vec<&str> {
    let mut v: Vec<&str> = s.lines().collect();
    v.sort_unstable();
    v
}

/// The results, sorted, without the "/" that fd 10 and ffind print after a directory's name
/// (`\` on Windows): what is found is compared here, not how directories are marked (`walk.rs`
/// tests that).
pub fn listing(run: &Run) -> Vec<String> {
    let mut v: Vec<String> = run
        .sorted()
        .into_iter()
        .map(|l| match l.strip_suffix(['/', std::path::MAIN_SEPARATOR]) {
            Some(dir) if !dir.is_empty() => dir.to_owned(),
            _ => l,
        })
        .collect();
    v.sort();
    v
}

/// Asserts that every method, at `-j 1` and `-j 8`, succeeds quietly with exactly `expected`
/// (directories written without a trailing "/", see [`listing`]).
pub fn assert_everywhere(t: &Tree, args: &[&str], expected: &[&str]) {
    let run = methods_agree(t, args).unwrap_or_else(|e| panic!("{e}"));
    assert_listing(&run, args, expected);
    assert!(
        run.code == 0 && run.stderr.is_empty(),
        "{args:?}: exit code {}, stderr {:?}",
        run.code,
        run.stderr
    );
}

/// Asserts that a run printed exactly `expected`, in any order (see [`listing`]; the paths
/// written with `/`, see [`crate::fixture::native`]).
pub fn assert_listing(run: &Run, args: &[&str], expected: &[&str]) {
    let mut want: Vec<String> = native_all(expected);
    want.sort();
    let got = listing(run);
    assert!(
        got == want,
        "{args:?}: output differs (- expected, + printed):\n{}stderr: {}",
        diff(&want, &got),
        run.stderr
    );
}

/// The fd to compare with: `FFIND_FD`, else `$HOME/.cache/ffind-peers/bin/fd`, else `fd` on
/// PATH; on Windows `FFIND_FD_WINDOWS` (fd's own Windows build, which `.ci/windows.sh` names
/// by its Linux path: see [`crate::fixture::host_path`]), else `fd` on PATH. `None` when none
/// of them runs.
pub fn fd() -> Option<PathBuf> {
    let candidates = if cfg!(windows) {
        [
            std::env::var_os("FFIND_FD_WINDOWS").map(crate::fixture::host_path),
            None,
            Some(PathBuf::from("fd")),
        ]
    } else {
        [
            std::env::var_os("FFIND_FD").map(PathBuf::from),
            std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/ffind-peers/bin/fd")),
            Some(PathBuf::from("fd")),
        ]
    };
    candidates.into_iter().flatten().find(|fd| {
        Command::new(fd)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

/// fd's version, `(major, minor)` of `fd --version` ("fd 10.4.2"), for the comparisons with
/// what an fd release added (fd's Windows build here is 10.4, the one on Linux may be newer).
pub fn fd_version(fd: &PathBuf) -> Option<(u32, u32)> {
    let out = Command::new(fd).arg("--version").output_ok();
    let text = String::from_utf8_lossy(&out.stdout);
    let mut numbers = text.split_whitespace().nth(1)?.split('.');
    Some((numbers.next()?.parse().ok()?, numbers.next()?.parse().ok()?))
}

/// fd, when it is there and at least `version` (see [`fd_version`]).
pub fn fd_since(version: (u32, u32)) -> Option<PathBuf> {
    fd().filter(|fd| fd_version(fd).is_some_and(|v| v >= version))
}

/// Runs fd with `args` in the tree's root, in the environment ffind gets.
pub fn run_fd(fd: &PathBuf, t: &Tree, args: &[&str]) -> Run {
    let mut c = Command::new(fd);
    c.args(args).current_dir(t.root()).stdin(Stdio::null());
    clean_env(&mut c, &t.home());
    Run::from(c.output_ok())
}

/// Sets a path's modification time to `secs` after the epoch (a directory's too: on Windows it
/// is opened with FILE_FLAG_BACKUP_SEMANTICS, for FILE_WRITE_ATTRIBUTES).
pub fn set_mtime(t: &Tree, rel: &str, secs: u64) {
    let path = t.root().join(rel);
    #[cfg(unix)]
    let f = fs::File::open(path).unwrap();
    #[cfg(windows)]
    let f = {
        use std::os::windows::fs::OpenOptionsExt;
        fs::OpenOptions::new()
            .access_mode(0x100)
            .custom_flags(0x0200_0000)
            .open(path)
            .unwrap()
    };
    f.set_modified(SystemTime::UNIX_EPOCH + Duration::from_secs(secs))
        .unwrap();
}

/// The parity tree: a repository `repo/` with every kind of ignore file, nested `.gitignore`s
/// with negations, a nested repository, hidden entries, links, special files and a few odd
/// names; beside it, outside any repository, a `.gitignore` that applies only with
/// `--no-require-git`.
#[cfg(unix)]
fn parity_tree() -> Tree {
    let t = Tree::new();
    t.write("outside.txt", "")
        .write(".gitignore", "outside.txt\n")
        .write("plain/also-outside.txt", "");
    assert!(
        t.git_init("repo"),
        "git init failed (the parity tree needs git)"
    );
    t.write(
        "repo/.gitignore",
        "*.log\n!keep.log\nbuild/\n/anchored.txt\ndoc/**/gen/\n*.tmp\n",
    )
    .write("repo/.ignore", "dot-ignored.txt\n!.keep-me\n")
    .write("extra-ignore", "*.md\n!README.md\n/repo/Makefile\n")
    .write("repo/.fdignore", "fd-ignored.txt\n")
    .write("repo/.git/info/exclude", "info-excluded.txt\n");
    fs::create_dir_all(t.home().join(".config/git")).unwrap();
    fs::write(t.home().join(".config/git/ignore"), "global-git.txt\n").unwrap();
    t.files(&[
        "repo/anchored.txt",
        "repo/debug.log",
        "repo/keep.log",
        "repo/dot-ignored.txt",
        "repo/fd-ignored.txt",
        "repo/info-excluded.txt",
        "repo/global-git.txt",
        "repo/notes.txt",
        "repo/README.md",
        "repo/Makefile",
        "repo/photo.JPG",
        "repo/archive.tar.gz",
        "repo/data.gz",
        "repo/.rs",
        "repo/.hidden-file",
        "repo/.keep-me",
        "repo/.hidden-dir/inner.rs",
        "repo/build/out.o",
        "repo/src/main.rs",
        "repo/src/lib.rs",
        "repo/src/anchored.txt",
        "repo/src/x.tmp",
        "repo/src/important.tmp",
        "repo/src/local-only",
        "repo/src/util/local-only",
        "repo/src/util/mod.rs",
        "repo/src/util/Helper.RS",
        "repo/src/util/.secret.rs",
        "repo/src/sub/trace.log",
        "repo/src/sub/build",
        "repo/doc/guide.md",
        "repo/doc/gen/a.md",
        "repo/doc/x/gen/b.md",
        "repo/doc/x/y/gen/c.md",
        "repo/doc/generated.md",
        "repo/Foo/bar.txt",
        "repo/foo.rs",
        "repo/FOO.txt",
        "repo/with space.txt",
        "repo/ünïcödé.txt",
        "repo/deep/a/b/c/d/e.rs",
        "repo/vendor/lib/x.tmp",
        "repo/vendor/lib/y.log",
        "repo/vendor/lib/src/z.rs",
    ])
    .write(
        "repo/src/.gitignore",
        "!important.tmp\n/local-only\n*.rs.bak\n",
    )
    .write("repo/src/sub/.gitignore", "!*.log\n")
    .write("repo/src/main.rs.bak", "")
    .write("repo/mid.bin", &"m".repeat(500))
    .write("repo/big.bin", &"b".repeat(2000))
    .write("repo/src/kib.bin", &"k".repeat(1024))
    .write("repo/script.sh", "#!/bin/sh\n")
    .chmod("repo/script.sh", 0o755)
    .dirs(&["repo/empty-dir", "repo/doc/empty"])
    .raw_file("repo/bytes", b"caf\xe9.txt")
    .raw_file("repo/bytes", b"RAW\xff")
    .link("src", "repo/link-dir")
    .link("notes.txt", "repo/link-file")
    .link("nowhere", "repo/dangling");
    // A repository inside the repository: the outer .gitignore stops at its root.
    assert!(
        t.git_init("repo/vendor/lib"),
        "git init failed (the parity tree needs git)"
    );
    let fifo = t.root().join("repo/pipe");
    let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    drop(UnixListener::bind(t.root().join("repo/socket")).unwrap());
    set_mtime(&t, "repo/notes.txt", 946_684_800 - 86_400); // 1999-12-31
    set_mtime(&t, "repo/doc", 900_000_000); // 1998
    if is_root() {
        let c = std::ffi::CString::new(
            t.root()
                .join("repo/Makefile")
                .as_os_str()
                .as_encoded_bytes(),
        )
        .unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::chown(c.as_ptr(), 65534, 65534) }, 0);
    }
    t
}

/// The table: fd's options over the parity tree. Every line must be valid for fd too.
#[cfg(unix)]
const TABLE: &[&[&str]] = &[
    // Ignore files and hidden entries.
    &[],
    &["-H"],
    &["-I"],
    &["-u"],
    &["-uu"],
    &["--no-ignore-vcs"],
    &["--no-ignore-vcs", "-H"],
    &["--no-require-git", "-E", "vendor"],
    &["--no-ignore-parent", ".", "repo/src"],
    &[".", "repo/src"],
    &[".", "repo/doc", "repo/vendor"],
    &["--ignore-file", "extra-ignore"],
    &["-u", "--ignore-file", "extra-ignore", "-E", ".git"],
    &["-H", "--ignore-file", "repo/.gitignore", ".", "plain"],
    // Patterns.
    &["rs"],
    &["RS"],
    &["-i", "RS"],
    &["-s", "rs"],
    &["^[a-f]"],
    &["[[:upper:]]"],
    &[r"\x46"],
    &[r"^\p{Lu}"],
    &[r"\.rs$", "-H"],
    &["-H", r"^\."],
    &["caf.\\.txt"],
    &["-g", "*.rs"],
    &["-g", "*.{md,txt}"],
    &["-g", "*.RS"],
    &["-g", "-p", "**/util/*"],
    &["-p", "src/.*rs$"],
    &["-p", "-s", "Repo"],
    &["-F", "a.t"],
    &["-F", "."],
    &["o", "--and", "r", "--and", "s"],
    &["-g", "f*", "--and", "*.txt"],
    // Extensions.
    &["-e", "rs"],
    &["-e", "RS", "-e", "md", "-H"],
    &["-e", "tar.gz"],
    &["-e", ".gz"],
    // Types.
    &["-t", "f"],
    &["-t", "d"],
    &["-t", "l"],
    &["-t", "x"],
    &["-t", "e"],
    &["-t", "e", "-t", "d"],
    &["-t", "s", "-t", "p"],
    &["-t", "f", "-t", "l", "-H"],
    // Depth.
    &["-d", "1"],
    &["-d", "2", "-t", "f"],
    &["--min-depth", "3"],
    &["--exact-depth", "2"],
    &["--min-depth", "2", "-d", "3"],
    // Excludes and pruning.
    &["-E", "*.rs"],
    &["-E", "src"],
    &["-E", "/repo"],
    &["-E", "repo/src"],
    &["-E", "util/mod.rs"],
    &["-E", "*.md", "-E", "*.txt"],
    &["-E", "gen/"],
    &["--prune", "o"],
    &["--prune", "-t", "d", "^[a-z]"],
    // Size, time, owner.
    &["-S", "+1k"],
    &["-S", "-600b", "-t", "f"],
    &["-S", "500b"],
    &["-S", "1ki"],
    &["-S", "+1ki", "-S", "-2k"],
    &["--changed-before", "2000-01-01"],
    &["--changed-within", "2weeks", "-t", "d"],
    &["--changed-before", "1999-12-31 12:00:00"],
    &["-o", "65534"],
    &["-o", "!65534:!65534", "-t", "f"],
    // Symbolic links.
    &["-L"],
    &["-L", "-t", "f"],
    &["-L", "-t", "l"],
];

#[cfg(unix)]
#[test]
fn the_table_is_big_enough() {
    assert!(TABLE.len() >= 40);
}

#[cfg(unix)]
#[test]
fn every_method_agrees_with_every_other_and_with_fd() {
    let t = parity_tree();
    let fd = fd();
    if fd.is_none() {
        eprintln!("fd not found: comparing the methods with each other only");
    }
    let mut failures = Vec::new();
    for args in TABLE {
        if let Err(e) = methods_agree(&t, args) {
            failures.push(e);
        }
        let ours = t.run(args);
        if ours.code != 0 || !ours.stderr.is_empty() {
            failures.push(format!(
                "{args:?}: ffind exits {} with {:?}",
                ours.code, ours.stderr
            ));
            continue;
        }
        let Some(fd) = &fd else { continue };
        let theirs = run_fd(fd, &t, args);
        let (want, got) = (listing(&theirs), listing(&ours));
        if want != got || theirs.code != ours.code {
            failures.push(format!(
                "{args:?}: fd (exit {}, stderr {:?}) and ffind differ (- only fd, + only \
                 ffind):\n{}",
                theirs.code,
                theirs.stderr,
                diff(&want, &got)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} command lines failed:\n{}",
        failures.len(),
        TABLE.len(),
        failures.join("\n")
    );
}
