//! The traversal core: listing, roots, depth, types, hidden entries, raw names, output format.
//! On Windows too, but for what needs links or names that are not UTF-8 (`windows.rs` has
//! Windows' own roots and links).

use crate::fixture::{canonical, native, typed, Spawn, Tree};

#[test]
fn lists_everything_not_hidden_without_dot_slash() {
    let t = Tree::new();
    t.files(&["a.txt", "dir/b.rs", ".hidden", "dir/.h2"])
        .dirs(&["empty"]);
    t.run(&[])
        .assert_paths(&["a.txt", "dir/", "dir/b.rs", "empty/"]);
    t.run(&["."])
        .assert_paths(&["a.txt", "dir/", "dir/b.rs", "empty/"]);
}

#[test]
fn explicit_paths_prefix_results_as_given() {
    let t = Tree::new();
    t.files(&["dir/sub/x", "other/y"]);
    t.run(&[".", "."]).assert_paths(&[
        "./dir/",
        "./dir/sub/",
        "./dir/sub/x",
        "./other/",
        "./other/y",
    ]);
    t.run(&[".", &typed("dir/")])
        .assert_paths(&["dir/sub/", "dir/sub/x"]);
    t.run(&[".", "dir", "other"])
        .assert_paths(&["dir/sub/", "dir/sub/x", "other/y"]);
    let abs = t.root().join("other");
    let abs = abs.to_str().unwrap();
    t.run(&[".", abs]).assert_paths(&[&format!("{abs}/y")]);
}

#[test]
fn hidden_and_unrestricted() {
    let t = Tree::new();
    t.files(&["a", ".h/inner", "d/.x"]);
    t.run(&["-H"])
        .assert_paths(&["a", ".h/", ".h/inner", "d/", "d/.x"]);
    t.run(&["-u"])
        .assert_paths(&["a", ".h/", ".h/inner", "d/", "d/.x"]);
    t.run(&["--hidden", "--no-hidden"])
        .assert_paths(&["a", "d/"]);
}

#[test]
fn depth_limits() {
    let t = Tree::new();
    t.files(&["1/2/3/4"]);
    t.run(&["-d", "2"]).assert_paths(&["1/", "1/2/"]);
    t.run(&["--min-depth", "3"])
        .assert_paths(&["1/2/3/", "1/2/3/4"]);
    t.run(&["--min-depth", "2", "--max-depth", "3"])
        .assert_paths(&["1/2/", "1/2/3/"]);
    t.run(&["-d", "0"]).assert_paths(&[]);
}

#[cfg(unix)]
#[test]
fn type_filter_basics() {
    let t = Tree::new();
    t.files(&["f", "d/g"]).link("f", "l");
    t.run(&["-t", "f"]).assert_paths(&["f", "d/g"]);
    t.run(&["-t", "d"]).assert_paths(&["d/"]);
    t.run(&["-t", "l"]).assert_paths(&["l"]);
    t.run(&["-t", "l", "-t", "d"]).assert_paths(&["d/", "l"]);
}

#[test]
fn pattern_is_a_smart_case_regex_on_the_name() {
    let t = Tree::new();
    t.files(&["src/Main.rs", "src/lib.rs", "readme.md", "rs/x"]);
    t.run(&[r"\.rs$"])
        .assert_paths(&["src/Main.rs", "src/lib.rs"]);
    t.run(&["main"]).assert_paths(&["src/Main.rs"]);
    t.run(&["Main"]).assert_paths(&["src/Main.rs"]);
    t.run(&["MAIN"]).assert_paths(&[]);
    t.run(&["^rs$"]).assert_paths(&["rs/"]);
}

#[cfg(unix)]
#[test]
fn raw_names_are_printed_byte_for_byte() {
    let t = Tree::new();
    t.raw_file("d", b"new\nline")
        .raw_file("d", b"\xff\xfe-not-utf8")
        .raw_file("d", b"tab\there");
    let run = t.run(&["-0", "-t", "f"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let got = run.sorted_by(0);
    let want: Vec<Vec<u8>> = vec![
        b"./d/new\nline".to_vec(),
        b"./d/tab\there".to_vec(),
        b"./d/\xff\xfe-not-utf8".to_vec(),
    ];
    let mut want = want;
    want.sort();
    assert_eq!(got, want);
    // Without -0 the bytes are the same, newline-terminated.
    let plain = t.run(&["-t", "f"]);
    let has = |needle: &[u8]| plain.stdout.windows(needle.len()).any(|w| w == needle);
    assert!(has(b"d/new\nline\n"));
    assert!(has(b"d/\xff\xfe-not-utf8\n"));
}

/// A directory ends with the separator (`\` on Windows, as fd), a link (not followed) without.
#[test]
fn directories_end_with_a_slash_as_in_fd() {
    let t = Tree::new();
    t.files(&["d/f"]);
    let run = t.run(&["-0", "-t", "d"]);
    assert_eq!(String::from_utf8_lossy(&run.stdout), native("./d/") + "\0");
    #[cfg(unix)]
    {
        t.link("d", "l");
        assert_eq!(t.run(&["-t", "l"]).stdout, b"l\n");
        assert_eq!(t.run(&["-L", "^l$"]).stdout, b"l/\n");
    }
}

/// The `./` of the search path `.` stays with `-0` and `--strip-cwd-prefix=never`, as in fd
/// (on Windows too, where fd prints `./` before the `\`-joined names).
#[test]
fn strip_cwd_prefix_follows_fd() {
    let t = Tree::new();
    t.files(&["a"]);
    assert_eq!(t.run(&["-0"]).stdout, b"./a\0");
    assert_eq!(t.run(&["-0", "--strip-cwd-prefix"]).stdout, b"a\0");
    assert_eq!(t.run(&["--strip-cwd-prefix=never"]).stdout, b"./a\n");
}

#[test]
fn absolute_paths() {
    let t = Tree::new();
    t.files(&["d/a"]);
    let root = canonical(&t.root());
    let r = root.to_str().unwrap();
    t.run(&["-a", "^a$"]).assert_paths(&[&format!("{r}/d/a")]);
    t.run(&["-a", "^a$", "d"])
        .assert_paths(&[&format!("{r}/d/a")]);
}

#[test]
fn base_directory_changes_where_paths_are_relative_to() {
    let t = Tree::new();
    t.files(&["d/a", "e/b"]);
    t.run(&["--base-directory", "d"]).assert_paths(&["a"]);
}

#[test]
fn every_method_is_accepted_and_concurrency_is_validated() {
    let t = Tree::new();
    t.files(&["x/y"]);
    for m in std::iter::once("auto").chain(crate::methods::methods()) {
        t.run(&["--method", m]).assert_paths(&["x/", "x/y"]);
    }
    t.run(&["--method=queue", "--concurrency=1024"])
        .assert_paths(&["x/", "x/y"]);
    t.run(&["--threads", "3"]).assert_paths(&["x/", "x/y"]);
    let bad = t.run(&["-j", "0"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("0"), "{}", bad.stderr);
    let bad = t.run(&["--method", "nope"]);
    assert_eq!(bad.code, 2);
}

#[test]
fn help_and_version_exit_zero() {
    let t = Tree::new();
    let help = t.run(&["--help"]);
    assert_eq!(help.code, 0);
    let text = String::from_utf8_lossy(&help.stdout);
    for word in [
        "--method",
        "--concurrency",
        "--hidden",
        "--print0",
        "--max-depth",
    ] {
        assert!(text.contains(word), "--help lacks {word}");
    }
    let v = t.run(&["--version"]);
    assert_eq!(v.code, 0);
    assert!(String::from_utf8_lossy(&v.stdout).starts_with("ffind "));
}

/// `-a` shows a search path made absolute with its `..` resolved, and (on Unix, where the
/// tests make links) the links in it resolved, as fd does.
#[test]
fn absolute_paths_resolve_dot_dot_and_links_as_fd_does() {
    let t = Tree::new();
    t.files(&["real/x"]).dirs(&["sub"]);
    let root = canonical(&t.root());
    let r = root.to_str().unwrap();
    let mut c = t.cmd(&["-a", "^x$", ".."]);
    c.current_dir(t.root().join("sub"));
    let run = crate::fixture::Run::from(c.output_ok());
    run.assert_paths(&[&format!("{r}/real/x")]);
    #[cfg(unix)]
    {
        t.link("real", "alias");
        t.run(&["-a", "^x$", "alias"])
            .assert_paths(&[&format!("{r}/real/x")]);
    }
}

/// A walk stopped early ends the process every time, under every method: `--max-results 2`
/// and `-1` at `-j 8`, 100 times each for jwalk, 25 for rayon (the methods that run a pool),
/// 5 for the others; `-q` and a reader that goes away (a closed pipe) a quarter as often. A
/// process that ended while jwalk's workers still read hung in Wine's exit in 27 of 200 runs;
/// the bound only catches a hang.
#[test]
fn a_walk_stopped_early_always_ends() {
    let t = Tree::new();
    for i in 0..200 {
        t.files(&[&format!("d{i}/e/g"), &format!("d{i}/f")]);
    }
    // Each result printed 12 times over: 600 results make more than one 64 KiB batch, so
    // that the pipe is found closed while the walk still runs.
    let wide = "{}".repeat(12);
    let stops: [(&[&str], usize, bool); 4] = [
        (&["--max-results", "2"], 1, false),
        (&["-1"], 1, false),
        (&["-q", "g"], 4, false),
        (&["--format", &wide], 4, true),
    ];
    for m in crate::methods::methods() {
        let rounds: usize = match m {
            "jwalk" => 100,
            "rayon" => 25,
            _ => 5,
        };
        // A quarter under qemu-user (FFIND_TEST_ROUNDS), where every start is slow; every
        // round under Wine, where the hang was.
        #[cfg(unix)]
        let rounds = crate::fixture::rounds(rounds);
        for (stop, fewer, closed) in stops {
            for _ in 0..rounds.div_ceil(fewer) {
                let mut args = vec!["--method", m, "-j", "8"];
                args.extend(stop);
                let out = if closed {
                    std::process::Stdio::piped()
                } else {
                    std::process::Stdio::null()
                };
                let mut child = t
                    .cmd(&args)
                    .stdin(std::process::Stdio::null())
                    .stdout(out)
                    .stderr(std::process::Stdio::null())
                    .spawn_ok();
                if closed {
                    // The reader goes away after the first bytes, as `head -c 1` does.
                    let mut pipe = child.stdout.take().unwrap();
                    let _ = std::io::Read::read(&mut pipe, &mut [0u8; 1]);
                    drop(pipe);
                }
                let what = format!("{m} {stop:?}");
                let status = crate::fixture::wait_or_hang(
                    &mut child,
                    std::time::Duration::from_secs(60),
                    &what,
                );
                // Under Wine, a process whose reader went away is now and then ended by Wine
                // itself (its loader killed: 1 of 48 runs, serial too): there only the end
                // is checked, which is what this test is for.
                if !(closed && cfg!(windows)) {
                    assert_eq!(status.code(), Some(0), "{what}");
                }
            }
        }
    }
}
