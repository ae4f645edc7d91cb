//! Bad input and faults: unreadable directories, loops, deep paths, closed or full stdout,
//! a low descriptor limit, missing paths. Each: a message naming the path, the walk goes on,
//! and the exit code says what happened.

use std::ffi::CString;
use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::Duration;

use crate::fixture::{have, Spawn, Tree};
use crate::methods::{methods, methods_with};

#[test]
fn unreadable_directory_is_reported_and_the_walk_goes_on() {
    let t = Tree::new();
    t.files(&["open/a", "locked/secret", "z/b"])
        .chmod("locked", 0o000);
    for m in methods() {
        let Some(run) = t.run_unprivileged(&["--method", m]) else {
            if crate::fixture::is_root() {
                panic!("running as root but setpriv is missing: this test must drop privileges");
            }
            let run = t.run(&["--method", m]);
            assert_eq!(run.code, 1, "{m}: {}", run.stderr);
            run.assert_listing(&["locked/", "open/", "open/a", "z/", "z/b"]);
            assert!(
                run.stderr.contains("ffind: locked: Permission denied"),
                "{m}: {}",
                run.stderr
            );
            continue;
        };
        assert_eq!(run.code, 1, "{m}: {}", run.stderr);
        run.assert_listing(&["locked/", "open/", "open/a", "z/", "z/b"]);
        assert_eq!(run.stderr, "ffind: locked: Permission denied\n", "{m}");
    }
    t.chmod("locked", 0o755);
}

#[test]
fn missing_path_is_reported_and_others_are_searched() {
    let t = Tree::new();
    t.files(&["d/a"]);
    for m in methods() {
        let run = t.run(&["--method", m, ".", "nope", "d"]);
        assert_eq!(run.code, 1, "{m}");
        run.assert_listing(&["d/a"]);
        assert_eq!(
            run.stderr, "ffind: nope: No such file or directory\n",
            "{m}"
        );
    }
    let run = t.run(&[".", "d/a"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("d/a: Not a directory"),
        "{}",
        run.stderr
    );
}

#[test]
fn symlink_loops_with_follow_are_reported_once_and_end() {
    let t = Tree::new();
    t.files(&["d/f"])
        .link(".", "d/loop")
        .link("../d", "d/up")
        .link("nowhere", "d/dangling");
    for m in methods() {
        for j in ["1", "4"] {
            let run = t.run(&["-L", "--method", m, "-j", j]);
            assert_eq!(run.code, 1, "{m} -j{j}: {}", run.stderr);
            run.assert_listing(&["d/", "d/f", "d/dangling"]);
            let lines: Vec<&str> = run.stderr.lines().collect();
            assert_eq!(
                lines.len(),
                2,
                "{m} -j{j}: one message per looping link:\n{}",
                run.stderr
            );
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with("ffind: d/loop: File system loop")),
                "{m}: {}",
                run.stderr
            );
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with("ffind: d/up: File system loop")),
                "{m}: {}",
                run.stderr
            );
        }
    }
    // Without -L links are entries like any other.
    t.run(&[])
        .assert_paths(&["d/", "d/f", "d/loop", "d/up", "d/dangling"]);
}

#[test]
fn follow_lists_what_links_point_to() {
    let t = Tree::new();
    t.files(&["real/inside", "file"])
        .link("real", "alias")
        .link("file", "flink");
    t.run(&["-L", "-t", "f"])
        .assert_paths(&["alias/inside", "file", "flink", "real/inside"]);
    t.run(&["-L", "-t", "d"]).assert_paths(&["alias/", "real/"]);
    t.run(&["-t", "l"]).assert_paths(&["alias", "flink"]);
}

/// Builds `levels` nested directories of 200-byte names below `top`, a file in each, with
/// mkdirat/openat so that the test itself never needs a path longer than PATH_MAX.
fn make_deep(top: &std::path::Path, levels: usize) -> usize {
    let name = CString::new("d".repeat(200)).unwrap();
    let file = CString::new("f.txt").unwrap();
    let top_c = CString::new(top.to_str().unwrap()).unwrap();
    // SAFETY: plain syscalls on descriptors this function owns and closes.
    unsafe {
        let mut fd = libc::open(top_c.as_ptr(), libc::O_RDONLY | libc::O_DIRECTORY);
        assert!(fd >= 0);
        for _ in 0..levels {
            assert_eq!(libc::mkdirat(fd, name.as_ptr(), 0o755), 0);
            let f = libc::openat(fd, file.as_ptr(), libc::O_CREAT | libc::O_WRONLY, 0o644);
            assert!(f >= 0);
            libc::close(f);
            let next = libc::openat(fd, name.as_ptr(), libc::O_RDONLY | libc::O_DIRECTORY);
            assert!(next >= 0);
            libc::close(fd);
            fd = next;
        }
        libc::close(fd);
    }
    levels * 201
}

#[test]
fn paths_longer_than_path_max_are_walked_in_full() {
    let t = Tree::new();
    let levels = 40; // 40 * 201 bytes: twice PATH_MAX
    make_deep(&t.root(), levels);
    for m in methods_with("own-reader") {
        for j in ["1", "8"] {
            let run = t.run(&["--method", m, "-j", j]);
            assert_eq!(run.code, 0, "{m}: {}", run.stderr);
            let lines = run.sorted();
            assert_eq!(lines.len(), 2 * levels, "{m}: every directory and file");
            let longest = lines.iter().map(String::len).max().unwrap();
            assert_eq!(
                longest,
                levels * 201,
                "{m}: the deepest directory's full path, with its slash"
            );
            assert!(lines
                .iter()
                .any(|l| l.len() > 4096 && l.ends_with("/f.txt")));
        }
    }
}

/// The reader goes away after the first line (`ffind | head -1`): ffind ends by itself, without
/// a message, exit 0. How fast is a benchmark's question (`bench.py first`); the bound here
/// only catches a hang.
#[test]
fn closed_stdout_ends_quietly() {
    let t = Tree::new();
    for i in 0..200 {
        t.dirs(&[&format!("d{i}")]);
        for j in 0..100 {
            t.files(&[&format!("d{i}/file-{j}")]);
        }
    }
    for m in methods() {
        let mut child = t
            .cmd(&["--method", m])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        out.read_line(&mut first).unwrap();
        assert!(!first.is_empty());
        drop(out);
        let what = format!("{m}, its reader gone,");
        let status = crate::fixture::wait_or_hang(&mut child, Duration::from_secs(120), &what);
        let mut err = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
        assert!(
            err.is_empty(),
            "{m}: no message on a closed pipe, got: {err}"
        );
        assert_eq!(status.code(), Some(0), "{m}");
    }
}

#[test]
fn full_stdout_is_an_error() {
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    let t = Tree::new();
    t.files(&["a", "b"]);
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = t.cmd(&[]).stdout(full).output_ok();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err,
        "ffind: cannot write to standard output: No space left on device\n"
    );
}

#[test]
fn low_open_file_limit_gives_the_same_results() {
    if !have("bash") {
        return;
    }
    let t = Tree::new();
    // Deep and wide: 6 levels, 3 subdirectories each, a file in every directory.
    fn grow(t: &Tree, prefix: String, depth: usize) {
        t.files(&[&format!("{prefix}/file")]);
        if depth > 0 {
            for i in 0..3 {
                grow(t, format!("{prefix}/s{i}"), depth - 1);
            }
        }
    }
    grow(&t, "top".into(), 6);
    let normal = t.run(&["--method", "serial"]);
    assert_eq!(normal.code, 0);
    for m in methods_with("own-reader") {
        for j in ["1", "8", "64"] {
            let run = t.run_script(&format!(
                "ulimit -n 32 && exec \"$FFIND\" --method {m} -j {j}"
            ));
            assert_eq!(run.code, 0, "{m} -j{j}: {}", run.stderr);
            assert_eq!(run.sorted(), normal.sorted(), "{m} -j{j}");
        }
    }
}

#[test]
fn low_open_file_limit_keeps_every_ignore_file() {
    // Many directories, each with its own .gitignore: every worker needs a second descriptor
    // for it while holding its directory's.
    let t = Tree::new();
    assert!(t.git_init("."));
    for i in 0..30 {
        for j in 0..5 {
            let d = format!("d{i}/e{j}");
            t.write(format!("{d}/.gitignore"), "secret\n")
                .files(&[&format!("{d}/secret"), &format!("{d}/keep")]);
        }
    }
    let normal = t.run(&["--method", "serial", "-t", "f"]);
    assert_eq!(normal.code, 0, "{}", normal.stderr);
    assert_eq!(normal.sorted().len(), 150);
    for m in methods() {
        let run = t.run_script(&format!(
            "ulimit -n 16 && exec \"$FFIND\" --method {m} -j 64 -t f"
        ));
        assert_eq!(run.stderr, "", "{m}");
        assert_eq!(run.code, 0, "{m}");
        assert_eq!(
            run.sorted(),
            normal.sorted(),
            "{m}: no directory lost, no ignored file shown"
        );
    }
}

#[test]
fn a_link_to_itself_under_follow_is_reported_by_every_method() {
    let t = Tree::new();
    t.files(&["f"]).link("self", "self");
    for m in methods() {
        let run = t.run(&["-L", "--method", m]);
        assert_eq!(run.code, 1, "{m}");
        run.assert_listing(&["f"]);
        assert_eq!(
            run.stderr,
            format!("ffind: self: {}\n", crate::fixture::os_text(libc::ELOOP)),
            "{m}"
        );
    }
}

#[test]
fn a_link_to_itself_that_the_rules_skip_is_not_reported() {
    // Hidden, git-ignored or excluded: never asked for, so never said (fd says nothing of any).
    let t = Tree::new();
    t.dirs(&[".git"])
        .files(&["f"])
        .write(".gitignore", "ign\n")
        .link(".self", ".self")
        .link("ign", "ign")
        .link("excl", "excl");
    for m in methods() {
        let run = t.run(&["-L", "-E", "excl", "--method", m]);
        assert_eq!(run.stderr, "", "{m}");
        assert_eq!(run.code, 0, "{m}");
        run.assert_listing(&["f"]);
        // Asked for, each is said.
        let run = t.run(&["-L", "-u", "--method", m]);
        assert_eq!(run.code, 1, "{m}");
        let mut said: Vec<&str> = run.stderr.lines().collect();
        said.sort_unstable();
        assert_eq!(
            said,
            [
                format!("ffind: .self: {}", crate::fixture::os_text(libc::ELOOP)),
                format!("ffind: excl: {}", crate::fixture::os_text(libc::ELOOP)),
                format!("ffind: ign: {}", crate::fixture::os_text(libc::ELOOP)),
            ],
            "{m}"
        );
    }
}

#[test]
fn directories_vanishing_mid_walk_are_not_errors() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let t = Tree::new();
    for i in 0..40 {
        t.files(&[&format!("stable/s{i}/f")]);
    }
    t.dirs(&["churn"]);
    let churn = t.root().join("churn");
    let stop = Arc::new(AtomicBool::new(false));
    let stopper = stop.clone();
    let worker = std::thread::spawn(move || {
        while !stopper.load(Ordering::Relaxed) {
            for i in 0..20 {
                let _ = std::fs::create_dir_all(churn.join(format!("d{i}/x/y")));
                let _ = std::fs::write(churn.join(format!("d{i}/f")), "");
            }
            for i in 0..20 {
                let _ = std::fs::remove_dir_all(churn.join(format!("d{i}")));
            }
        }
    });
    let mut failures = Vec::new();
    for round in 0..crate::fixture::rounds(10) {
        for m in methods() {
            let run = t.run(&["-u", "--method", m, "-j", "4", ".", "stable"]);
            let ok = run.code == 0 && run.stderr.is_empty() && run.sorted().len() == 80;
            if !ok {
                failures.push(format!(
                    "{m} round {round}: code {} stderr {:?}",
                    run.code, run.stderr
                ));
            }
            let churned = t.run(&["-u", "--method", m, "-j", "4", ".", "churn"]);
            if !churned.stderr.is_empty() || churned.code != 0 {
                failures.push(format!(
                    "{m} round {round} (churn): code {} stderr {:?}",
                    churned.code, churned.stderr
                ));
            }
        }
    }
    stop.store(true, Ordering::Relaxed);
    worker.join().unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn fewer_threads_than_asked_still_finish_the_walk() {
    if !crate::fixture::is_root() || !have("setpriv") {
        return;
    }
    let t = Tree::new();
    for i in 0..50 {
        t.files(&[&format!("d{i}/a/b")]);
    }
    let normal = t.run(&["-u"]);
    // A user allowed only a few processes (threads count): most of 64 workers cannot start
    // (the parallel methods with ffind's own reader).
    let own = methods_with("own-reader");
    for m in methods_with("parallel")
        .into_iter()
        .filter(|m| own.contains(m))
    {
        let run = t
            .run_unprivileged_script(&format!(
                "ulimit -u 6 && exec \"$FFIND\" -u --method {m} -j 64"
            ))
            .unwrap();
        assert_eq!(run.code, 0, "{m}: {}", run.stderr);
        assert_eq!(run.sorted(), normal.sorted(), "{m}");
    }
}

/// stderr a pipe whose reader has gone: every message is lost, but ffind neither dies of a
/// signal (a panic in `eprintln!` aborts) nor changes its exit status.
#[test]
// pipe2 with O_CLOEXEC (no other test's child may inherit the reader): Linux's, not macOS's.
#[cfg(target_os = "linux")]
fn a_closed_stderr_loses_messages_but_not_the_exit_status() {
    use std::os::fd::{FromRawFd, OwnedFd};
    let t = Tree::new();
    t.files(&["a.rs", "b.txt"]);
    t.write("config", "--hidden\n--bogus-option\n");
    let cases: [(&[&str], i32); 5] = [
        // Said by main: a regular expression that does not compile.
        (&["("], 2),
        // Said by clap: an unknown option.
        (&["--bogus"], 2),
        // Said by the reporter: a missing search path.
        (&[".", "missing"], 1),
        // Said at the end: how many messages --no-errors hid.
        (&["--no-errors", ".", "missing", "."], 1),
        // Said by the config file's check.
        (&["a"], 2),
    ];
    for (i, (args, code)) in cases.into_iter().enumerate() {
        let mut fds = [0; 2];
        // SAFETY: a two-int array for pipe(2), whose descriptors are then owned here.
        assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0);
        let (reader, writer) =
            unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        drop(reader);
        let mut cmd = t.cmd(args);
        if i == cases.len() - 1 {
            cmd.env("FFIND_CONFIG_PATH", t.root().join("config"));
        }
        let status = cmd
            .stdout(Stdio::null())
            .stderr(Stdio::from(writer))
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(code), "{args:?}: {status:?}");
    }
}

/// `ffind --bench` with stdout a pipe whose reader has gone, with a config file (whose
/// notice was written by `println!`, which panicked: SIGABRT) and without: it stops quietly
/// with exit 0, as a search does (`ffind --bench | head`), never a signal.
#[test]
// pipe2 with O_CLOEXEC (no other test's child may inherit the reader): Linux's, not macOS's.
#[cfg(target_os = "linux")]
fn a_benchmark_whose_reader_has_gone_stops_quietly() {
    use std::os::fd::{FromRawFd, OwnedFd};
    let t = Tree::new();
    t.files(&["a.rs"]);
    t.write("config", "--hidden\n");
    for config in [true, false] {
        let mut fds = [0; 2];
        // SAFETY: a two-int array for pipe(2), whose descriptors are then owned here.
        assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0);
        let (reader, writer) =
            unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        drop(reader);
        let mut cmd = t.cmd(&["--bench", "--runs", "1", "--methods", "serial", "."]);
        if config {
            cmd.env("FFIND_CONFIG_PATH", t.root().join("config"));
        }
        let out = cmd.stdout(Stdio::from(writer)).output_ok();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "config {config}: {stderr}");
        assert!(stderr.is_empty(), "config {config}: {stderr}");
    }
}
