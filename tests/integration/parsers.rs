//! Parsers of user input: `-S/--size`, `--changed-within/--changed-before`, globs
//! (`-g`, `-E/--exclude`) and `-o/--owner` never panic; they reject with one line naming what
//! was written, and exit code 2. And no message carries Rust's " (os error N)" suffix. (Random
//! input is covered by the property tests in src/filter/{size,time,owner}.rs.) On Windows
//! too, but for owners (refused there: `windows.rs`), `--bench` and a deleted working
//! directory.

#[cfg(unix)]
use std::fs;

use crate::fixture::{Run, Tree};

fn tree() -> Tree {
    let t = Tree::new();
    t.files(&["a.txt", "dir/b.rs"]);
    t
}

/// Asserts a usage error with exactly this message.
fn assert_usage(run: &Run, args: &[&str], message: &str) {
    assert_eq!(run.code, 2, "{args:?}: stderr {:?}", run.stderr);
    assert_eq!(run.stderr, format!("ffind: {message}\n"), "{args:?}");
    assert!(run.stdout.is_empty(), "{args:?}");
}

#[test]
fn bad_sizes_are_named() {
    let t = tree();
    let malformed = "is not a valid size: use [+-]NUMBER followed by b, k, m, g, t, ki, mi, gi \
                     or ti (e.g. +1M, -10k, 500b)";
    for size in ["10", "+1x", "", "+", "k", "1é", "+-1k"] {
        let args = ["-S", size];
        assert_usage(&t.run(&args), &args, &format!("'{size}' {malformed}"));
    }
    for size in ["+99999999999999999999k", "+18446744073709551615ti"] {
        let args = ["-S", size];
        assert_usage(
            &t.run(&args),
            &args,
            &format!("'{size}' is too large a size"),
        );
    }
}

#[test]
fn the_last_day_is_a_valid_date() {
    let t = tree();
    for when in ["9999-12-31", "9999-12-31 23:59:59", "9999-12-31T23:59:59Z"] {
        let run = t.run(&["--changed-within", when]);
        assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{when}");
        assert!(run.stdout.is_empty(), "nothing changed after {when}");
        let run = t.run(&["--changed-before", when, "-t", "f"]);
        run.assert_paths(&["a.txt", "dir/b.rs"]);
    }
    // A duration further back than any date reaches everything.
    let run = t.run(&["--changed-within", "19000y", "-t", "f"]);
    run.assert_paths(&["a.txt", "dir/b.rs"]);
}

#[test]
fn bad_times_are_named() {
    let t = tree();
    for when in [
        "yesterday-ish",
        "10000-01-01",
        "2024-13-01",
        "99999y",
        "@",
        "@1e9",
    ] {
        for option in ["--changed-within", "--changed-before"] {
            let args = [option, when];
            assert_usage(
                &t.run(&args),
                &args,
                &format!(
                    "'{when}' is neither a duration (such as 10min, 2weeks, 1d 2h) nor a date \
                     (such as 2024-06-01, 2024-06-01 12:00:00 or @1717200000)"
                ),
            );
        }
    }
}

#[cfg(unix)]
#[test]
fn bad_owners_are_named() {
    let t = tree();
    let cases = [
        (
            "!",
            "'!' is not a valid owner: '!' must be followed by a user name or id",
        ),
        (
            "root:!",
            "'root:!' is not a valid owner: '!' must be followed by a group name or id",
        ),
        (
            "a:b:c",
            "'a:b:c' is not a valid owner: use user, user:group or :group (one ':' at most)",
        ),
        (
            "no-such-user-here",
            "'no-such-user-here' is not a valid owner: no user is named 'no-such-user-here'",
        ),
        (
            ":!no-such-group",
            "':!no-such-group' is not a valid owner: no group is named 'no-such-group'",
        ),
    ];
    for (owner, message) in cases {
        let args = ["-o", owner];
        assert_usage(&t.run(&args), &args, message);
    }
}

#[test]
fn bad_globs_are_named_as_written() {
    let t = tree();
    let cases = [
        (
            vec!["-g", "["],
            "invalid glob '[': unclosed character class; missing ']'",
        ),
        (
            vec!["-E", "["],
            "invalid exclude pattern '[': unclosed character class; missing ']'",
        ),
        (
            vec!["--exclude", "{a"],
            "invalid exclude pattern '{a': unclosed alternate group; missing '}' (maybe escape \
             '{' with '[{]'?)",
        ),
    ];
    for (args, message) in cases {
        assert_usage(&t.run(&args), &args, message);
    }
}

#[cfg(unix)]
#[test]
fn messages_carry_no_os_error_numbers() {
    let t = tree();
    // A working directory that was removed.
    let run = t.run_script("mkdir gone && cd gone && rmdir ../gone && exec \"$FFIND\"");
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "ffind: cannot read the current directory: No such file or directory\n"
    );
    // bench: a path that does not exist.
    let run = t.run(&["--bench", "--runs", "1", "no-such-dir"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with("ffind --bench: no-such-dir: No such file or directory\n"),
        "{}",
        run.stderr
    );
}

#[cfg(unix)]
#[test]
fn bench_checks_its_exports_before_timing_anything() {
    let t = tree();
    for option in [
        "--export-json",
        "--export-markdown",
        "--export-csv",
        "--export-svg",
    ] {
        let args = ["--bench", "--runs", "1", option, "no-such-dir/out"];
        let run = t.run(&args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}: nothing is timed");
        assert_eq!(
            run.stderr,
            format!(
                "ffind --bench: {option} no-such-dir/out: cannot write this file: No such file or \
                 directory\n"
            )
        );
        // A directory where the file should be.
        let args = ["--bench", "--runs", "1", option, "dir"];
        let run = t.run(&args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}: nothing is timed");
    }
    // The check leaves no file behind, and a good export is written.
    let out = t.home().join("out.json");
    let run = t.run(&[
        "--bench",
        "--runs",
        "1",
        "--warmup",
        "0",
        "--methods",
        "serial",
        "--concurrency",
        "1",
        "--export-json",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(fs::read_to_string(&out).unwrap().contains("\"results\""));
}
