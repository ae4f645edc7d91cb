//! `--output FILE`: the results go to a file (created, or emptied first) instead of stdout,
//! the same bytes stdout gets from a pipe, never styled for the terminal ffind may run on;
//! a file that cannot be written is said before the walk (or when the write fails), never
//! silently short. And `--mpi` without MPI: plain `ffind --mpi` is one process, and an ffind
//! built without MPI that an MPI launcher starts says so once.
//!
//! On Windows too, but for `/dev/full`, `script` and `--mpi` (Linux's: `windows.rs` checks it
//! is refused).

use std::fs;
#[cfg(unix)]
use std::process::Stdio;

#[cfg(unix)]
use crate::fixture::Spawn;
use crate::fixture::Tree;
#[cfg(unix)]
use crate::fixture::{bin, clean_env, have};

/// Names a terminal or a line-based reader would take apart (on Unix, where they can be made).
fn hostile() -> Tree {
    let t = Tree::new();
    #[cfg(unix)]
    t.raw_file("d", b"nl\nname")
        .raw_file("d", b"esc\x1b[31mred")
        .raw_file(".", b"bad\xff");
    t.files(&[
        "-rf",
        "sub/plain.txt",
        ".hid",
        "sub/caf\u{e9} \u{65e5}\u{672c}",
    ]);
    t
}

#[test]
fn results_go_to_the_file_byte_for_byte_and_it_is_emptied_first() {
    let t = hostile();
    let out = t.home().join("results");
    for args in [
        &["-H", "-0", "--sort", "path"][..],
        &["-e", "txt", "--sort", "path"],
        &["--json", "--sort", "depth"],
        &["-H", "--format", "<{/}>", "--sort", "path"],
    ] {
        fs::write(
            &out,
            "stale bytes that are longer than any result listing here\n".repeat(20),
        )
        .unwrap();
        let to_stdout = t.run(args);
        assert_eq!(to_stdout.code, 0, "{args:?}: {}", to_stdout.stderr);
        assert!(!to_stdout.stdout.is_empty(), "{args:?}");
        let mut with_file = args.to_vec();
        with_file.extend(["--output", out.to_str().unwrap()]);
        let to_file = t.run(&with_file);
        assert_eq!(to_file.code, 0, "{args:?}: {}", to_file.stderr);
        assert!(to_file.stdout.is_empty(), "{args:?}: nothing on stdout");
        assert!(to_file.stderr.is_empty(), "{args:?}: {}", to_file.stderr);
        assert_eq!(fs::read(&out).unwrap(), to_stdout.stdout, "{args:?}");
    }
}

#[test]
fn a_file_that_cannot_be_created_is_a_usage_error_before_the_walk() {
    let t = hostile();
    let run = t.run(&["--output", "no-such-dir/results"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stdout.is_empty());
    let why = crate::fixture::error_text(
        &fs::File::create(t.root().join("no-such-dir/results")).unwrap_err(),
    );
    assert_eq!(
        run.stderr,
        format!("ffind: no-such-dir/results: cannot write the results there: {why}\n")
    );
}

#[cfg(unix)]
#[test]
fn a_failed_write_is_said_once_with_exit_status_1() {
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    let t = hostile();
    let run = t.run(&["-H", "--output", "/dev/full"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "ffind: /dev/full: cannot write the results there: No space left on device\n"
    );
}

#[test]
fn commands_have_no_output_file() {
    let run = hostile().run(&["--output", "f", "-x", "echo"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("cannot be used with"), "{}", run.stderr);
}

#[cfg(unix)]
#[test]
fn the_file_gets_raw_names_even_when_ffind_runs_on_a_terminal() {
    if !have("script") {
        eprintln!("skipped: util-linux script is not installed");
        return;
    }
    let t = hostile();
    let out = t.home().join("results");
    let line = format!(
        "'{}' -H -0 --output '{}' . d",
        bin().display(),
        out.display()
    );
    let mut c = std::process::Command::new("script");
    c.args(["-qec", &line, "/dev/null"])
        .current_dir(t.root())
        .stdin(Stdio::null());
    clean_env(&mut c, &t.home());
    let run = c.output_ok();
    assert!(run.status.success(), "{run:?}");
    let mut got: Vec<Vec<u8>> = fs::read(&out)
        .unwrap()
        .split(|&b| b == 0)
        .filter(|r| !r.is_empty())
        .map(<[u8]>::to_vec)
        .collect();
    got.sort();
    // No escaping and no color, as through a pipe (on the terminal: "d/esc\x1B[31mred").
    assert_eq!(got, [&b"d/esc\x1b[31mred"[..], b"d/nl\nname"]);
}

#[cfg(target_os = "linux")]
#[test]
fn mpi_without_a_launcher_is_one_process() {
    let t = hostile();
    let plain = t.run(&["-H", "-0", "--sort", "path"]);
    let mpi = t.run(&["-H", "-0", "--sort", "path", "--mpi"]);
    assert_eq!((mpi.code, &mpi.stderr), (0, &String::new()));
    assert_eq!(mpi.stdout, plain.stdout);
}

/// What an MPI launcher (Open MPI's mpirun) tells each process it starts.
#[cfg(all(target_os = "linux", not(feature = "mpi")))]
fn as_launched(t: &Tree, rank: &str, args: &[&str]) -> crate::fixture::Run {
    let mut c = t.cmd(args);
    c.env("OMPI_COMM_WORLD_SIZE", "2")
        .env("OMPI_COMM_WORLD_RANK", rank)
        .stdin(Stdio::null());
    crate::fixture::Run::from(c.output_ok())
}

#[test]
#[cfg(all(target_os = "linux", not(feature = "mpi")))]
fn without_mpi_support_a_launched_search_is_refused_once() {
    let t = hostile();
    let first = as_launched(&t, "0", &["--mpi", "-H"]);
    assert_eq!(first.code, 2, "{}", first.stderr);
    assert!(first.stdout.is_empty());
    assert!(
        first
            .stderr
            .starts_with("ffind: --mpi: this ffind was built without MPI support"),
        "{}",
        first.stderr
    );
    // The other processes say nothing and succeed (a failing one would make mpirun end the
    // job before process 0 has spoken).
    let other = as_launched(&t, "1", &["--mpi", "-H"]);
    assert_eq!((other.code, other.stdout.len()), (0, 0));
    assert_eq!(other.stderr, "");
    // A usage error and the help are shown once too.
    let other = as_launched(&t, "1", &["--mpi", "--no-such-option"]);
    assert_eq!((other.code, other.stderr.as_str()), (0, ""));
    let first = as_launched(&t, "0", &["--mpi", "--no-such-option"]);
    assert_eq!(first.code, 2);
    // Without --mpi, a launched ffind is an ordinary one (the launcher's business).
    let plain = as_launched(&t, "1", &["-H"]);
    assert_eq!(plain.code, 0);
    assert!(!plain.stdout.is_empty());
}
