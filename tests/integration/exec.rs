//! `-x/--exec` and `-X/--exec-batch`: what each command gets, how often it runs,
//! what its output looks like, exit codes (signals: `exec_signals.rs`). Every check runs under
//! every method, at `-j 1` (commands one at a time, with ffind's stdout) and `-j 8` (captured,
//! grouped output).
//!
//! The commands are small programs that show their arguments exactly: `printf '%s\0'` prints
//! each argument followed by a NUL, so splitting on NUL gives back each argument, intact.

use std::ffi::CString;
use std::ops::RangeInclusive;

use crate::fd_parity::{fd, run_fd};
use crate::fixture::{Run, Tree};
use crate::methods::methods;

/// Runs `args` under every method at `-j 1` and `-j 8`, handing each run to `check` with a
/// name for messages.
fn each_method(t: &Tree, args: &[&str], check: impl Fn(&Run, &str)) {
    for method in methods() {
        for j in ["1", "8"] {
            let mut full = vec!["--method", method, "-j", j];
            full.extend_from_slice(args);
            check(&t.run(&full), &format!("{full:?}"));
        }
    }
}

/// The NUL-terminated records of a run, sorted, lossily decoded.
fn records(run: &Run) -> Vec<String> {
    run.sorted_by(0)
        .iter()
        .map(|r| String::from_utf8_lossy(r).into_owned())
        .collect()
}

/// The NUL-terminated records of a run, sorted, as raw bytes.
fn raw_records(run: &Run) -> Vec<Vec<u8>> {
    run.sorted_by(0)
}

/// Asserts success without stderr.
fn assert_ok(run: &Run, name: &str) {
    assert!(
        run.code == 0 && run.stderr.is_empty(),
        "{name}: exit code {}, stderr {:?}",
        run.code,
        run.stderr
    );
}

#[test]
fn every_placeholder_expands_per_result() {
    let t = Tree::new();
    t.files(&["sub/c.tar.gz", "a.txt"]).dirs(&["dir.d"]);
    let args = [
        "c.tar", "-x", "printf", "%s\\0", "{}", "{/}", "{//}", "{.}", "{/.}",
    ];
    each_method(&t, &args, |run, name| {
        assert_ok(run, name);
        // One result, so the arguments come in order.
        assert_eq!(
            String::from_utf8_lossy(&run.stdout),
            "./sub/c.tar.gz\0c.tar.gz\0./sub\0./sub/c.tar\0c.tar\0",
            "{name}"
        );
    });
    // A search path given is kept as written; braces escape; text around placeholders stays.
    let args = ["c.tar", "sub", "-x", "printf", "%s\\0", "<{/.}>", "{{}}"];
    each_method(&t, &args, |run, name| {
        assert_ok(run, name);
        assert_eq!(
            String::from_utf8_lossy(&run.stdout),
            "<c.tar>\0{}\0",
            "{name}"
        );
    });
    // Directories come without the "/" they are printed with.
    each_method(&t, &["-t", "d", "-x", "printf", "%s\\0"], |run, name| {
        assert_ok(run, name);
        assert_eq!(records(run), ["./dir.d", "./sub"], "{name}");
    });
}

/// Names a shell or an option parser would get wrong.
const WEIRD: [&[u8]; 9] = [
    b"new\nline",
    b"q'uote",
    b"d\"quote",
    b"-rf",
    b"--help",
    b"sp ace",
    b"not-utf8-\xff\xfe",
    b"$(touch pwned)",
    b"br{}ace",
];

fn weird_tree() -> Tree {
    let t = Tree::new();
    for name in WEIRD {
        t.raw_file("w", name);
    }
    t.raw_file("", b"-top");
    t
}

/// The records expected for the weird tree, searched without a path.
fn weird_expected() -> Vec<Vec<u8>> {
    let mut want: Vec<Vec<u8>> = WEIRD.iter().map(|n| [b"./w/", *n].concat()).collect();
    want.push(b"./-top".to_vec());
    want.sort();
    want
}

#[test]
fn hostile_names_reach_the_command_as_one_intact_argument() {
    let t = weird_tree();
    for mode in ["-x", "-X"] {
        let args = ["-t", "f", mode, "printf", "%s\\0"];
        each_method(&t, &args, |run, name| {
            assert_ok(run, name);
            assert_eq!(raw_records(run), weird_expected(), "{name}");
        });
    }
    assert!(
        !t.root().join("pwned").exists(),
        "a name ran through a shell"
    );
    // fd 10 passes the same arguments.
    if let Some(fd) = fd() {
        let run = run_fd(&fd, &t, &["-t", "f", "-x", "printf", "%s\\0"]);
        assert_eq!(raw_records(&run), weird_expected(), "fd");
    }
}

#[test]
fn a_name_that_would_read_as_an_option_keeps_its_dot_slash() {
    let t = weird_tree();
    // Even where "./" is stripped, or the search path itself begins with '-'.
    let args = [
        "--strip-cwd-prefix=always",
        "-d",
        "1",
        "-X",
        "printf",
        "%s\\0",
    ];
    each_method(&t, &args, |run, name| {
        assert_ok(run, name);
        assert_eq!(records(run), ["./-top", "w"], "{name}");
    });
    t.files(&["-d/f"]);
    each_method(
        &t,
        &["--search-path=-d", "-x", "printf", "%s\\0"],
        |run, name| {
            assert_ok(run, name);
            assert_eq!(records(run), ["./-d/f"], "{name}");
        },
    );
}

#[test]
fn every_placeholder_keeps_a_name_from_reading_as_an_option() {
    // Each placeholder's value that would begin an argument with '-' gets "./" in front: the
    // file name of {/} and {/.} too (fd passes "-top.x" there). "./-top.x" names what "-top.x"
    // would, relative to the command's working directory.
    let t = Tree::new();
    t.files(&["-top.x", "-d/-in.y"]);
    let placeholders = ["{}", "{/}", "{//}", "{.}", "{/.}"];
    let cases: [(&[&str], [&str; 5]); 3] = [
        (&["top"], ["./-top.x", "./-top.x", ".", "./-top", "./-top"]),
        (
            &["--strip-cwd-prefix=always", "top"],
            ["./-top.x", "./-top.x", ".", "./-top", "./-top"],
        ),
        // A search path that begins with '-'.
        (
            &["in", "--search-path=-d"],
            ["./-d/-in.y", "./-in.y", "./-d", "./-d/-in", "./-in"],
        ),
    ];
    for (i, (search, want)) in cases.into_iter().enumerate() {
        let mut args = search.to_vec();
        args.extend(["-x", "printf", "%s\\0"]);
        args.extend(placeholders);
        let check = |run: &Run, name: &str| {
            assert_ok(run, name);
            // One result: the arguments come in order.
            let all: String = want.iter().map(|w| format!("{w}\0")).collect();
            assert_eq!(String::from_utf8_lossy(&run.stdout), all, "{name}");
        };
        if i == 0 {
            each_method(&t, &args, check);
        } else {
            check(&t.run(&args), &format!("{args:?}"));
        }
        // -X takes one argument with placeholders: each in turn.
        for (placeholder, want) in placeholders.iter().zip(want) {
            let mut args = search.to_vec();
            args.extend(["-X", "printf", "%s\\0", placeholder]);
            let run = t.run(&args);
            assert_ok(&run, &format!("{args:?}"));
            assert_eq!(records(&run), [want], "{args:?}");
        }
    }
    // Text of the command's own before a placeholder is the command's business: kept as is.
    let args = [
        "top",
        "-x",
        "printf",
        "%s\\0",
        "--name={/}",
        "-{/.}",
        "x{/}",
    ];
    each_method(&t, &args, |run, name| {
        assert_ok(run, name);
        assert_eq!(
            String::from_utf8_lossy(&run.stdout),
            "--name=-top.x\0--top\0x-top.x\0",
            "{name}"
        );
    });
}

#[test]
fn exec_batch_respects_batch_size() {
    let t = Tree::new();
    let names: Vec<String> = (0..10).map(|i| format!("f{i}")).collect();
    t.files(&names.iter().map(String::as_str).collect::<Vec<_>>());
    // One line per invocation, saying how many results it got.
    let count = ["sh", "-c", "echo \"batch $#\"", "sh"];
    let mut args = vec!["--batch-size", "3", "-X"];
    args.extend(count);
    each_method(&t, &args, |run, name| {
        assert_ok(run, name);
        assert_eq!(
            run.sorted(),
            ["batch 1", "batch 3", "batch 3", "batch 3"],
            "{name}"
        );
    });
    let mut args = vec!["-X"];
    args.extend(count);
    each_method(&t, &args, |run, name| {
        assert_ok(run, name);
        assert_eq!(run.sorted(), ["batch 10"], "{name}");
    });
    // Without results, the command does not run (fd).
    let mut args = vec!["no-such-name", "-X"];
    args.extend(count);
    each_method(&t, &args, |run, name| {
        assert_ok(run, name);
        assert!(run.stdout.is_empty(), "{name}: {:?}", run.stdout);
    });
}

#[test]
fn exec_batch_splits_at_the_argument_length_limit() {
    let t = Tree::new();
    // 3,000 names of 100 bytes: about 330 KB of arguments, over the 256 KiB that a 1 MiB stack
    // limit leaves (ARG_MAX is a quarter of it). (A debug build's argument parsing needs more
    // than 512 KiB of stack.)
    for i in 0..3000 {
        t.raw_file("", format!("{}{i:04}", "n".repeat(96)).as_bytes());
    }
    let count = "sh -c 'echo \"$#\"' sh";
    for m in methods() {
        let run = t.run_script(&format!(
            "ulimit -s 1024 && exec \"$FFIND\" --method {m} -X {count}"
        ));
        assert_ok(&run, m);
        let sizes: Vec<usize> = run.sorted().iter().map(|l| l.parse().unwrap()).collect();
        assert!(sizes.len() >= 2, "{m}: one command line: {sizes:?}");
        assert_eq!(sizes.iter().sum::<usize>(), 3000, "{m}: {sizes:?}");
        // With the usual limit it fits in one.
        let run = t.run_script(&format!("exec \"$FFIND\" --method {m} -X {count}"));
        assert_eq!(run.sorted(), ["3000"], "{m}");
    }
}

#[test]
fn a_failing_command_makes_exit_status_1() {
    let t = Tree::new();
    t.files(&["a", "b", "c"]);
    // Fails for ./b only; the others still run.
    let args = ["-x", "sh", "-c", "echo \"$1\"; test \"$1\" != ./b", "sh"];
    each_method(&t, &args, |run, name| {
        assert_eq!(run.code, 1, "{name}: {}", run.stderr);
        assert_eq!(run.sorted(), ["./a", "./b", "./c"], "{name}");
    });
    each_method(&t, &["-X", "false"], |run, name| {
        assert_eq!(run.code, 1, "{name}");
    });
    each_method(&t, &["-x", "true"], assert_ok);
    // Of several -x, a failure skips the rest for that result (fd).
    let args = [
        "-x",
        "sh",
        "-c",
        "test \"$1\" != ./b",
        "sh",
        ";",
        "-x",
        "printf",
        "%s\\0",
    ];
    each_method(&t, &args, |run, name| {
        assert_eq!(run.code, 1, "{name}");
        assert_eq!(records(run), ["./a", "./c"], "{name}");
    });
}

#[test]
fn a_missing_command_is_said_once_with_exit_status_1() {
    let t = Tree::new();
    t.files(&["a", "b", "c", "d/e"]);
    for mode in ["-x", "-X"] {
        each_method(&t, &[mode, "ffind-no-such-command", "arg"], |run, name| {
            assert_eq!(run.code, 1, "{name}");
            assert_eq!(
                run.stderr, "ffind: ffind-no-such-command: command not found\n",
                "{name}"
            );
            assert!(run.stdout.is_empty(), "{name}");
        });
    }
    // A program that is a placeholder is tried for each result.
    t.write("run.sh", "#!/bin/sh\necho ran\n")
        .chmod("run.sh", 0o755);
    each_method(&t, &["-t", "f", "-x", "{}"], |run, name| {
        assert_eq!(run.code, 1, "{name}");
        assert_eq!(run.sorted(), ["ran"], "{name}");
        assert_eq!(run.stderr.lines().count(), 4, "{name}: {}", run.stderr);
    });
}

#[test]
fn a_program_that_is_a_file_name_is_shown_escaped_when_it_cannot_run() {
    // With `-x {}` the program is a result: its name must not reach the terminal raw.
    let t = Tree::new();
    t.files(&["evil\u{1b}]0;owned\u{7}\nname"]);
    each_method(&t, &["-t", "f", "-x", "{}"], |run, name| {
        assert_eq!(run.code, 1, "{name}");
        assert!(!run.stderr.contains('\u{1b}'), "{name}: {:?}", run.stderr);
        assert!(!run.stderr.contains('\u{7}'), "{name}: {:?}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{name}: {:?}", run.stderr);
        assert!(
            run.stderr.starts_with("ffind: ./evil"),
            "{name}: {:?}",
            run.stderr
        );
    });
}

#[test]
fn output_of_parallel_jobs_is_not_interleaved() {
    let t = Tree::new();
    let names: Vec<String> = (0..24).map(|i| format!("f{i:02}")).collect();
    t.files(&names.iter().map(String::as_str).collect::<Vec<_>>());
    // Each job writes five lines with pauses between them, and a line on stderr.
    let script = "for i in 1 2 3 4 5; do echo \"$1 $i\"; sleep 0.01; done; echo \"$1 err\" >&2";
    each_method(&t, &["-x", "sh", "-c", script, "sh"], |run, name| {
        assert_eq!(run.code, 0, "{name}: {}", run.stderr);
        let text = String::from_utf8_lossy(&run.stdout);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 24 * 5, "{name}");
        for group in lines.chunks(5) {
            let path = group[0].split(' ').next().unwrap();
            for (i, line) in group.iter().enumerate() {
                assert_eq!(*line, format!("{path} {}", i + 1), "{name}: {lines:?}");
            }
        }
        assert_eq!(run.stderr.lines().count(), 24, "{name}");
    });
}

#[test]
fn print0_ends_each_results_output_with_nul() {
    let t = Tree::new();
    t.files(&["a", "b"]);
    each_method(&t, &["-0", "-x", "echo", "got"], |run, name| {
        assert_ok(run, name);
        assert_eq!(records(run), ["got ./a\n", "got ./b\n"], "{name}");
    });
}

#[test]
fn a_semicolon_ends_the_command_and_several_commands_run_in_turn() {
    let t = Tree::new();
    t.files(&["a.txt", "b.rs"]);
    let args = [
        "-x", "printf", "A%s\\0", ";", "-x", "printf", "B%s\\0", ";", "-e", "txt",
    ];
    each_method(&t, &args, |run, name| {
        assert_ok(run, name);
        assert_eq!(
            String::from_utf8_lossy(&run.stdout),
            "A./a.txt\0B./a.txt\0",
            "{name}"
        );
    });
    // Of several -X, each runs on the whole batch.
    let args = ["-X", "printf", "A%s\\0", ";", "-X", "printf", "B%s\\0"];
    each_method(&t, &args, |run, name| {
        assert_ok(run, name);
        assert_eq!(
            records(run),
            ["A./a.txt", "A./b.rs", "B./a.txt", "B./b.rs"],
            "{name}"
        );
    });
    // The fixed arguments of -X stay around the repeated one.
    let args = ["-X", "printf", "%s\\0", "first", "{/}", "last"];
    each_method(&t, &args, |run, name| {
        assert_ok(run, name);
        let out = String::from_utf8_lossy(&run.stdout);
        assert!(
            out.starts_with("first\0") && out.ends_with("\0last\0"),
            "{name}: {out:?}"
        );
        assert_eq!(records(run), ["a.txt", "b.rs", "first", "last"], "{name}");
    });
}

#[test]
fn usage_errors() {
    let t = Tree::new();
    t.files(&["a"]);
    for args in [
        &["-x", "echo", ";", "-X", "echo"][..],
        &["-q", "-x", "echo"],
        &["--max-results", "1", "-X", "echo"],
        &["-1", "-x", "echo"],
        &["-X", "printf", "{}", "{/}"],
        &["-X", "{}", "x"],
        &["--batch-size", "2"],
        &["-x"],
        &["-x", ";"],
        // Output styles that commands cannot take, as fd (which has no --json).
        &["-l", "-x", "echo"],
        &["-X", "echo", ";", "--list-details"],
        &["--json", "-x", "echo"],
    ] {
        let run = t.run(args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn path_separator_applies_to_what_commands_get() {
    let t = Tree::new();
    t.files(&["a.foo", "one/b.foo"]);
    let args = [
        "--path-separator=#",
        "foo",
        "-x",
        "printf",
        "%s|%s|%s\\n",
        "{}",
        "{//}",
        "{/}",
    ];
    each_method(&t, &args, |run, name| {
        assert_ok(run, name);
        assert_eq!(
            run.sorted(),
            [".#a.foo|.|a.foo", ".#one#b.foo|.#one|b.foo"],
            "{name}"
        );
    });
    // -X: every path, separators replaced; the template's own text is kept.
    let run = t.run(&[
        "--path-separator=#",
        "--sort=path",
        "foo",
        "-X",
        "echo",
        "x/y",
    ]);
    assert_eq!(run.stdout, b"x/y .#a.foo .#one#b.foo\n");
    if let Some(fd) = fd() {
        for args in [
            &[
                "--path-separator=#",
                "foo",
                "-x",
                "echo",
                "{}",
                "{//}",
                "{/}",
            ][..],
            &["--path-separator=#", "foo", "-X", "echo"],
        ] {
            let (ours, theirs) = (t.run(args), run_fd(&fd, &t, args));
            let words = |r: &crate::fixture::Run| {
                let mut w: Vec<String> =
                    r.sorted().join(" ").split(' ').map(String::from).collect();
                w.sort();
                w
            };
            assert_eq!(words(&ours), words(&theirs), "{args:?}");
        }
    }
}

#[test]
fn sort_hands_commands_the_results_in_order() {
    let t = Tree::new();
    t.files(&["b/z", "a", "c", "b/a"]);
    let args = ["--sort", "path", "-t", "f", "-x", "echo"];
    for method in methods() {
        // One job at a time: the commands run, and print, in the order they are given.
        let run = t.run(&[&["--method", method, "-j", "1"][..], &args].concat());
        assert_ok(&run, method);
        assert_eq!(run.stdout, b"./a\n./b/a\n./b/z\n./c\n", "{method}");
    }
    // -X gets them in one command line, in order.
    let run = t.run(&["--sort", "path", "-t", "f", "-X", "echo"]);
    assert_eq!(run.stdout, b"./a ./b/a ./b/z ./c\n");
    // --format and --color do not change what commands get.
    let run = t.run(&[
        "--format",
        "{/}",
        "-c",
        "always",
        "--sort=path",
        "-t",
        "f",
        "-X",
        "echo",
    ]);
    assert_eq!(run.stdout, b"./a ./b/a ./b/z ./c\n");
}

/// Builds a chain of `levels` directories, each named with 255 'd's, below the tree's root,
/// with a file `f{k}` at each level `k` of `files` (the root is level 0); by mkdirat and openat,
/// so that no path the test hands the kernel is longer than one name. Returns each file's level
/// and the length of its path as ffind passes it (`./ddd…/f{k}`).
fn deep_chain(t: &Tree, levels: usize, files: RangeInclusive<usize>) -> Vec<(usize, usize)> {
    let name = CString::new("d".repeat(255)).unwrap();
    let top = CString::new(t.root().to_str().unwrap()).unwrap();
    let mut made = Vec::new();
    // SAFETY: plain system calls on C strings that outlive them and on descriptors this
    // function opens and closes.
    unsafe {
        let mut dir = libc::open(top.as_ptr(), libc::O_RDONLY | libc::O_DIRECTORY);
        assert!(dir >= 0);
        for level in 0..=levels {
            if files.contains(&level) {
                let file = format!("f{level}");
                let c = CString::new(file.as_str()).unwrap();
                let f = libc::openat(dir, c.as_ptr(), libc::O_CREAT | libc::O_WRONLY, 0o644);
                assert!(f >= 0);
                libc::close(f);
                made.push((level, 2 + 256 * level + file.len()));
            }
            if level == levels {
                break;
            }
            assert_eq!(libc::mkdirat(dir, name.as_ptr(), 0o755), 0);
            let next = libc::openat(dir, name.as_ptr(), libc::O_RDONLY | libc::O_DIRECTORY);
            assert!(next >= 0);
            libc::close(dir);
            dir = next;
        }
        libc::close(dir);
    }
    made
}

#[test]
fn a_path_too_long_for_one_argument_is_reported_alone_and_the_rest_run() {
    // Linux takes no argument of 32 pages or more, its NUL included (MAX_ARG_STRLEN: 128 KiB).
    // Files at levels 505 to 515 of a chain of 255-byte names: the first seven pass, the last
    // four are too long. Under -X all fit in one batch, which failed whole ("Argument list too
    // long"), taking the passable seven with it; under -x the message named the program.
    // SAFETY: sysconf has no memory preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) } as usize;
    let max = 32 * page;
    let t = Tree::new();
    let files = deep_chain(&t, 515, 505..=515);
    let (passable, too_long): (Vec<_>, Vec<_>) = files.iter().partition(|(_, len)| *len < max);
    if too_long.is_empty() {
        eprintln!("skipped: with {page}-byte pages no path here is too long");
        return;
    }
    assert_eq!((passable.len(), too_long.len()), (7, 4));
    let mut want_lengths: Vec<usize> = passable.iter().map(|(_, len)| *len).collect();
    want_lengths.sort();
    let want_named: Vec<usize> = too_long.iter().map(|(level, _)| *level).collect();
    // Paths this long are walked by the methods that read directories themselves (faults.rs).
    let runs = [
        ("serial", "-X", "1"),
        ("queue", "-X", "8"),
        ("rayon", "-X", "8"),
        ("serial", "-x", "1"),
        ("rayon", "-x", "8"),
    ];
    let lengths = ["sh", "-c", "for a; do echo ${#a}; done", "sh"];
    for (method, mode, j) in runs {
        let name = format!("{method} -j {j} {mode}");
        let mut args = vec!["--method", method, "-j", j, "-t", "f", mode];
        args.extend(lengths);
        let run = t.run(&args);
        let stderr_start: String = run.stderr.chars().take(300).collect();
        assert_eq!(run.code, 1, "{name}: {stderr_start}");
        let mut got: Vec<usize> = run.sorted().iter().map(|l| l.parse().unwrap()).collect();
        got.sort();
        assert_eq!(got, want_lengths, "{name}: the passable paths");
        // One line per path too long, naming it whole.
        let mut named: Vec<usize> = run
            .stderr
            .lines()
            .map(|line| {
                let start: String = line.chars().take(300).collect();
                let (path, _) = line
                    .strip_prefix("ffind: ")
                    .and_then(|l| l.split_once(": "))
                    .unwrap_or_else(|| panic!("{name}: {start}"));
                let (level, len) = *files
                    .iter()
                    .find(|(level, _)| path.ends_with(&format!("/f{level}")))
                    .unwrap_or_else(|| panic!("{name}: names no file: {start}"));
                assert_eq!(path.len(), len, "{name}: the whole path");
                level
            })
            .collect();
        named.sort();
        assert_eq!(named, want_named, "{name}: the paths reported");
    }
}
