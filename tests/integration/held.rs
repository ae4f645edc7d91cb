//! A small search prints the same bytes every time, in fd's order: results are held
//! for a while, and sorted when the walk ends within it with at most 1,000 of them; past that
//! they stream as found. Checked under every method and concurrency, against fd where one is
//! installed (`fd_parity::fd`), and nearest first under `--order breadth`.
//!
//! The window is 100 ms, as fd's; these tests widen it to a minute with `--max-buffer-time`
//! (fd's option too), so that a loaded machine cannot make a small search outlast it: what
//! they check is the order, not the time.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use crate::fd_parity::{fd, run_fd};
use crate::fixture::{rounds, Run, Spawn, Tree};
use crate::methods::methods;

/// A window no test run outlasts.
const WIDE: &str = "--max-buffer-time=60000";

/// Names whose orders differ: by bytes ("a-b" < "a/b"), by components ("a/b" < "a-b"), by
/// case (`sort.rs`'s tree), with a space, a dash and an underscore.
fn small() -> Tree {
    let t = crate::sort::tree();
    t.files(&[
        "_x",
        "a b/z",
        "-dash",
        "src/main.rs",
        "src/lib.rs",
        "src/a/x.rs",
        "tests/t.rs",
    ]);
    t
}

/// Runs `args` (with the wide window) under every method at `-j 1`, `-j 3` and `-j 16`, ten
/// times each (`fixture::rounds`), and asserts that every run printed the same bytes; returns
/// them.
fn same_every_time(t: &Tree, args: &[&str]) -> Vec<u8> {
    let mut first: Option<(String, Vec<u8>)> = None;
    for method in std::iter::once("auto").chain(methods()) {
        for j in ["1", "3", "16"] {
            for _ in 0..rounds(10) {
                let mut full = vec![WIDE, "--method", method, "-j", j];
                full.extend_from_slice(args);
                let run = t.run(&full);
                assert_eq!(run.code, 0, "{full:?}: {}", run.stderr);
                let name = format!("{full:?}");
                match &first {
                    None => first = Some((name, run.stdout)),
                    Some((first_name, want)) => assert!(
                        &run.stdout == want,
                        "{name} printed\n{}\nwhere {first_name} printed\n{}",
                        run.stdout.escape_ascii(),
                        want.escape_ascii()
                    ),
                }
            }
        }
    }
    first.expect("at least one run").1
}

/// The records of `stdout` (ended by `sep`).
fn records(stdout: &[u8], sep: u8) -> Vec<&[u8]> {
    stdout
        .split(|&b| b == sep)
        .filter(|r| !r.is_empty())
        .collect()
}

/// A record of a search without a search path as a path below ".": a directory's "/" left
/// out, and the "./" of `-0`, or before a name that starts with '-' ("./-dash"), too.
fn as_path(record: &[u8]) -> &Path {
    let r = record.strip_suffix(b"/").unwrap_or(record);
    Path::new(OsStr::from_bytes(r.strip_prefix(b"./").unwrap_or(r)))
}

/// The records of a search without a search path in `std::path::Path`'s order, by which fd
/// sorts (all its paths start with "./").
fn fd_sorted(mut v: Vec<&[u8]>) -> Vec<&[u8]> {
    v.sort_by(|a, b| as_path(a).cmp(as_path(b)));
    v
}

#[test]
fn a_small_search_prints_the_same_sorted_bytes_under_every_method() {
    let t = small();
    let out = same_every_time(&t, &[]);
    let want =
        "./-dash\nB\n_x\na/\na/b\na/c/\na/c/d\na b/\na b/z\na-b\na.txt\nm/\nm/n\nsrc/\nsrc/a/\n\
                src/a/x.rs\nsrc/lib.rs\nsrc/main.rs\ntests/\ntests/t.rs\nz/\nz/y/\nz/y/x/\n\
                z/y/x/w\n";
    assert_eq!(String::from_utf8_lossy(&out), want);
    // Search paths, hidden entries, NUL ends, a template, details.
    let out = same_every_time(&t, &["-H", ".", ".", "src", "a"]);
    let got = records(&out, b'\n');
    assert_eq!(got[..2], [&b"./-dash"[..], b"./.hidden/"]);
    assert_eq!(
        got.last(),
        Some(&&b"src/main.rs"[..]),
        "{}",
        out.escape_ascii()
    );
    for args in [
        &["-0", "-t", "f"][..],
        &["--format", "{/}:{//}", "-e", "rs"],
        &["-l", "-t", "d"],
    ] {
        let sep = if args.contains(&"-0") { 0 } else { b'\n' };
        let out = same_every_time(&t, args);
        let got = records(&out, sep);
        if !args.contains(&"--format") && !args.contains(&"-l") {
            assert_eq!(got, fd_sorted(got.clone()), "{args:?}");
        }
        assert!(got.len() > 3, "{args:?}: {}", out.escape_ascii());
    }
}

#[test]
fn a_small_search_prints_what_fd_prints_byte_for_byte() {
    let Some(fd) = fd() else {
        eprintln!("skipped: no fd to compare with (FFIND_FD)");
        return;
    };
    let t = small();
    t.files(&["src/.gitignore", "src/gen/out.rs"])
        .write("src/.gitignore", "gen/\n");
    let cases: [&[&str]; 9] = [
        &[],
        &["-u"],
        &["-H", "-t", "f"],
        &["-e", "rs"],
        &["-0", "."],
        &[".", ".", "tests", "./src", "a"],
        &["-d", "2", "--color=always"],
        &["--format", "{/.}", "-u"],
        &["-a", "x"],
    ];
    for args in cases {
        let mut ffind_args = vec![WIDE];
        ffind_args.extend_from_slice(args);
        let ours = t.run(&ffind_args);
        let theirs = run_fd(&fd, &t, &ffind_args);
        assert!(
            ours.stdout == theirs.stdout && ours.code == theirs.code,
            "{args:?}: ffind printed (exit {})\n{}\nfd printed (exit {})\n{}",
            ours.code,
            ours.stdout.escape_ascii(),
            theirs.code,
            theirs.stdout.escape_ascii()
        );
    }
}

#[test]
fn the_first_results_of_a_limit_come_sorted() {
    let t = small();
    // The first 4 found, whichever they are, sorted among themselves, as fd does.
    for method in methods() {
        let run = t.run(&[WIDE, "--method", method, "--max-results", "4"]);
        let got = records(&run.stdout, b'\n');
        assert_eq!(got.len(), 4, "{method}");
        assert_eq!(got, fd_sorted(got.clone()), "{method}");
    }
}

#[test]
fn more_than_a_thousand_results_stream_as_found() {
    let t = Tree::new();
    let names: Vec<String> = (0..1000)
        .map(|i| format!("f{:04}", (i * 7919) % 1000))
        .collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    t.files(&names);
    // 1,000 results: held, then sorted; with --sort none, as the walk found them.
    let run = t.run(&[WIDE, "--method", "serial"]);
    let got = records(&run.stdout, b'\n');
    assert_eq!(got.len(), 1000);
    assert_eq!(got, fd_sorted(got.clone()));
    let as_found = t.run(&["--sort", "none", WIDE, "--method", "serial"]);
    let streamed = t.run(&["--max-buffer-time=0", "--method", "serial"]);
    assert!(as_found.stdout == streamed.stdout && as_found.stdout != run.stdout);
    // One more: written as the walk found them, which a walk that streams from the start
    // (--max-buffer-time 0) shows.
    t.files(&["one-more"]);
    let streamed = t.run(&["--max-buffer-time=0", "--method", "serial"]);
    let run = t.run(&[WIDE, "--method", "serial"]);
    assert_eq!(records(&run.stdout, b'\n').len(), 1001);
    assert!(
        run.stdout == streamed.stdout,
        "1,001 results came in another order than the walk's"
    );
}

/// The depth of a record below the search path (none given: "." with -0).
fn depth(record: &[u8]) -> usize {
    as_path(record)
        .as_os_str()
        .as_bytes()
        .iter()
        .filter(|&&b| b == b'/')
        .count()
}

#[test]
fn breadth_first_a_small_search_comes_nearest_first_and_sorted_within_a_depth() {
    let t = small();
    for args in [
        &["--order", "breadth"][..],
        &["--order", "breadth", "-H", "-0"],
    ] {
        let sep = if args.contains(&"-0") { 0 } else { b'\n' };
        let mut same: Option<Vec<u8>> = None;
        for method in crate::methods::breadth_methods() {
            for j in ["1", "3", "16"] {
                for _ in 0..rounds(10) {
                    let mut full = vec![WIDE, "--method", method, "-j", j];
                    full.extend_from_slice(args);
                    let run: Run = t.run(&full);
                    assert_eq!(run.code, 0, "{full:?}: {}", run.stderr);
                    match &same {
                        None => same = Some(run.stdout),
                        Some(want) => assert!(&run.stdout == want, "{full:?} differs"),
                    }
                }
            }
        }
        let out = same.expect("runs");
        let got = records(&out, sep);
        let mut want = fd_sorted(got.clone());
        want.sort_by_key(|r| depth(r));
        assert_eq!(got, want, "{args:?}: {}", out.escape_ascii());
    }
}

/// A search path that lists 20 files, made last name first, and a directory of 1,500: more
/// results than are held.
fn wide_below() -> Tree {
    let t = Tree::new();
    let mut names: Vec<String> = (0..20).rev().map(|i| format!("a{i:02}")).collect();
    names.extend((0..1500).map(|i| format!("z/f{i:04}")));
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    t.files(&names);
    t
}

/// The records that come first in a search of [`wide_below`]: nothing can sort before them.
fn settled_first() -> Vec<String> {
    let mut want: Vec<String> = (0..20).map(|i| format!("a{i:02}")).collect();
    want.push("z/".into());
    want
}

#[test]
fn a_big_search_writes_first_what_sorts_before_all_still_to_be_found() {
    let t = wide_below();
    for method in crate::methods::breadth_methods() {
        for order in [&[][..], &["--order", "breadth"]] {
            // One thread: its search path is read before the walk goes below it.
            let mut args = vec![WIDE, "--method", method, "-j", "1"];
            args.extend_from_slice(order);
            let run = t.run(&args);
            let got = records(&run.stdout, b'\n');
            assert_eq!(got.len(), 1521, "{args:?}");
            let first: Vec<String> = got[..21]
                .iter()
                .map(|r| String::from_utf8_lossy(r).into_owned())
                .collect();
            assert_eq!(first, settled_first(), "{args:?}");
        }
    }
}

/// ffind running `args` in `t` under strace with `strace_args`.
fn under_strace(t: &Tree, strace_args: &[&str], args: &[&str]) -> std::process::Command {
    let mut c = std::process::Command::new("strace");
    c.args(strace_args)
        .arg("--")
        .arg(crate::fixture::bin())
        .args(args)
        .current_dir(t.root());
    crate::fixture::clean_env(&mut c, &t.home());
    c
}

#[test]
fn a_big_search_writes_its_first_line_before_reading_below_its_search_path() {
    if !crate::fixture::need("strace") {
        return;
    }
    let t = wide_below();
    let mut c = under_strace(
        &t,
        &["-f", "-qq", "-y", "-e", "trace=getdents64,write"],
        &[WIDE, "--method", "serial"],
    );
    let run = Run::from(c.output_ok());
    assert_eq!(records(&run.stdout, b'\n').len(), 1521);
    let calls: Vec<&str> = run.stderr.lines().collect();
    let first_write = calls.iter().position(|l| l.contains("write(1<"));
    let below = calls.iter().position(|l| l.contains("/z>"));
    assert!(
        first_write.is_some() && below.is_some() && first_write < below,
        "the first line was written after the walk read below its search path:\n{}",
        run.stderr
    );
    assert!(calls[first_write.unwrap()].contains("a00\\na01\\n"));
}

/// A file and three directories of one file each.
fn three_dirs() -> Tree {
    let t = Tree::new();
    t.files(&["a", "d1/x", "d2/y", "d3/z"]);
    t
}

#[test]
fn the_windows_thread_starts_after_the_first_line() {
    if let Some(emulated) = crate::fixture::emulated() {
        eprintln!("{emulated}: strace sees its threads and writes");
        return;
    }
    if !crate::fixture::need("strace") {
        return;
    }
    // Starting a thread takes the walk about 0.1 ms: after the first line, not before. The
    // window's thread writes "d2/" and "d3/" if the window closes before "d1" is read.
    let t = three_dirs();
    let mut c = under_strace(
        &t,
        &["-f", "-qq", "-e", "trace=clone,clone3,write"],
        &["--method", "serial"],
    );
    let run = Run::from(c.output_ok());
    assert_eq!(run.stdout, b"a\nd1/\nd1/x\nd2/\nd2/y\nd3/\nd3/z\n");
    let calls: Vec<&str> = run.stderr.lines().collect();
    let first_write = calls.iter().position(|l| l.contains("write(1,"));
    // The one thread started (the walk is on the main thread): the window's. (Its name is
    // not seen: the walk may end before the thread first runs.)
    let window = calls.iter().position(|l| l.contains("clone"));
    assert!(
        first_write.is_some() && window.is_some() && first_write < window,
        "the window's thread started before the first line, or never:\n{}",
        run.stderr
    );
}

/// Runs `args` in `t` with every directory read but the first taking 0.4 s (strace's fault
/// injection, counted per thread: the walk is on one); returns how long before the end the
/// line `line` came.
fn ahead_of_a_slow_walk(t: &Tree, args: &[&str], line: &str) -> std::time::Duration {
    use std::io::Read;
    let slow = "inject=getdents64:delay_exit=400000:when=2+";
    let strace = [
        "-f",
        "-qq",
        "-o",
        "/dev/null",
        "-e",
        "trace=getdents64",
        "-e",
        slow,
    ];
    let mut c = under_strace(t, &strace, &[&["--method", "serial"], args].concat());
    c.stdout(std::process::Stdio::piped());
    let mut child = c.spawn().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (mut seen, mut buf, mut chunk) = (None, Vec::new(), [0u8; 4096]);
    loop {
        let n = stdout.read(&mut chunk).unwrap();
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
        if seen.is_none() && records(&buf, b'\n').contains(&line.as_bytes()) {
            seen = Some(std::time::Instant::now());
        }
    }
    assert!(child.wait().unwrap().success(), "{args:?}");
    let seen = seen.unwrap_or_else(|| panic!("{args:?}: no line {line}"));
    seen.elapsed()
}

#[test]
fn held_results_come_out_when_the_window_closes_though_the_walk_is_slow() {
    if !crate::fixture::need("strace") {
        return;
    }
    let t = three_dirs();
    // One search path: "d2/" is held once it is read (it sorts after d1's results); the
    // window closes 100 ms later, while d1, d2 and d3 take 1.2 s to read: out then, not at
    // the end. Several search paths: the first one's result, likewise.
    for (args, line) in [(&[][..], "d2/"), (&[".", "d1", "d2", "d3"], "d1/x")] {
        let ahead = ahead_of_a_slow_walk(&t, args, line);
        assert!(
            ahead >= std::time::Duration::from_millis(600),
            "{args:?}: {line} came {ahead:?} before the end, not when the window closed"
        );
    }
}
