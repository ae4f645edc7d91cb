//! One output, as one process prints it: `--sort` byte for byte, `--max-results` exactly N of
//! the records, `-q` by its exit status, `--json`, `-l` and `--format` formatted where each
//! entry is found, `--output FILE`; and what cannot start is said once, by process 0.

use std::fs;

use crate::fixture::{hostile_tree, Run, Tree};
use crate::{agree, run, Kind, LAUNCHES};

/// Many directories, a few matches of `needle` deep in some of them.
fn wide_tree() -> Tree {
    let t = Tree::new();
    for a in 0..12 {
        for b in 0..8 {
            t.files(&[&format!("d{a}/e{b}/f.txt"), &format!("d{a}/e{b}/g.rs")]);
        }
    }
    t.files(&["d7/e5/needle", "d11/e2/needle", "d3/e0/needle"]);
    t
}

#[test]
fn sorted_output_is_byte_for_byte_one_processs() {
    if crate::skip() {
        return;
    }
    let t = hostile_tree();
    for args in [
        &["--sort", "path", "-H"][..],
        &["--sort", "depth", "-u", "-0"],
        &["--sort", "path", "-u", "--max-results", "7"],
        &["--sort", "path", "-u", "-l"],
        &[
            "--sort",
            "path",
            "-u",
            "--json",
            "--json-fields",
            "size,mode,inode",
        ],
        &["--sort", "depth", "-u", "--format", "{//} <{/.}>"],
    ] {
        let one = t.run(args);
        assert_eq!(one.code, 0, "{args:?}: {}", one.stderr);
        for (n, share_all) in LAUNCHES {
            let got = run(&t, n, share_all, args);
            assert_eq!(got.code, 0, "{args:?} n={n}: {}", got.stderr);
            assert!(
                got.stdout == one.stdout,
                "{args:?} n={n}: not byte for byte:\n{}\nagainst\n{}",
                String::from_utf8_lossy(&got.stdout),
                String::from_utf8_lossy(&one.stdout)
            );
        }
    }
}

#[test]
fn formats_made_where_entries_are_found_read_as_one_processs() {
    if crate::skip() {
        return;
    }
    let t = hostile_tree();
    // -l: NUL-separated it is refused (as in fd), and one process aligns its columns over
    // what it held where several stream with growing widths: its lines, blanks made one.
    let words = |r: &Run| -> Vec<String> {
        let mut lines: Vec<String> = String::from_utf8_lossy(&r.stdout)
            .lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect();
        lines.sort();
        lines
    };
    let one = t.run(&["-u", "-l"]);
    for (n, share_all) in LAUNCHES {
        let got = run(&t, n, share_all, &["-u", "-l"]);
        assert_eq!(
            words(&got),
            words(&one),
            "-n {n} --mpi -u -l (share-all: {share_all})"
        );
        assert_eq!(got.code, one.code, "-n {n}: {}", got.stderr);
    }
    for args in [
        &[
            "-u",
            "--json",
            "--json-fields",
            "size,mtime,mode,owner,nlink,inode",
        ][..],
        &["-u", "--format", "{/}|{//}|{.}"],
        &["-u", "--path-separator", "::"],
        &["-u", "--color=always"],
    ] {
        agree(&t, args);
    }
}

#[test]
fn max_results_gives_exactly_that_many_records_of_the_whole() {
    if crate::skip() {
        return;
    }
    let t = wide_tree();
    let all = t.run(&["-u", "-0"]).sorted_by(0);
    for limit in [1, 2, 17, 200, all.len(), all.len() + 10] {
        for (n, share_all) in LAUNCHES {
            let limit_s = limit.to_string();
            let got = run(&t, n, share_all, &["-u", "-0", "--max-results", &limit_s]);
            assert_eq!(got.code, 0, "{}", got.stderr);
            let records = got.sorted_by(0);
            assert_eq!(
                records.len(),
                limit.min(all.len()),
                "--max-results {limit} n={n}"
            );
            let mut unique = records.clone();
            unique.dedup();
            assert_eq!(unique.len(), records.len(), "a record twice");
            assert!(
                records.iter().all(|r| all.contains(r)),
                "each one a real entry"
            );
        }
    }
}

#[test]
fn quiet_answers_for_every_process() {
    if crate::skip() {
        return;
    }
    let t = wide_tree();
    // Whichever process finds the needles, the answer is yes; none, no.
    for round in 0..3 {
        for (n, share_all) in LAUNCHES {
            let yes = run(&t, n, share_all, &["-q", "^needle$"]);
            assert_eq!(
                (yes.code, yes.stdout.len()),
                (0, 0),
                "round {round} n={n}: {}",
                yes.stderr
            );
            let no = run(&t, n, share_all, &["-q", "^haystack$"]);
            assert_eq!((no.code, no.stdout.len()), (1, 0), "n={n}: {}", no.stderr);
            let first = run(&t, n, share_all, &["-1", "^needle$"]);
            assert_eq!(first.sorted().len(), 1, "n={n}");
        }
    }
}

#[test]
fn the_output_file_gets_what_stdout_gets() {
    if crate::skip() {
        return;
    }
    let t = hostile_tree();
    let want = t.run(&["-u", "--sort", "path"]);
    let out = t.home().join("out");
    for (n, share_all) in LAUNCHES {
        fs::write(&out, "stale").unwrap();
        let got = run(
            &t,
            n,
            share_all,
            &["-u", "--sort", "path", "--output", out.to_str().unwrap()],
        );
        assert_eq!((got.code, got.stdout.len()), (0, 0), "{}", got.stderr);
        assert_eq!(fs::read(&out).unwrap(), want.stdout, "n={n}");
    }
    // A file that cannot be created: said once, by process 0, and nothing searched.
    let got = run(&t, 4, false, &["--output", "no/such/dir/out"]);
    assert_eq!(got.code, 2);
    assert_eq!(
        crate::messages(&got),
        ["ffind: no/such/dir/out: cannot write the results there: No such file or directory"]
    );
}

#[test]
fn what_cannot_start_is_said_once() {
    if crate::skip() {
        return;
    }
    let t = wide_tree();
    for (args, says) in [
        (&["("][..], "ffind: "),
        (
            &["--no-such-option"],
            "error: unexpected argument '--no-such-option'",
        ),
        (&["-x", "echo"], "ffind: --mpi cannot run commands"),
        (&["-X", "echo"], "ffind: --mpi cannot run commands"),
        (&["--method", "serial"], "ffind: --mpi walks with its own"),
        (
            &["--order", "breadth"],
            "ffind: --mpi walks depth first only",
        ),
        (
            &["-C", "no-such-dir"],
            "ffind: no-such-dir: cannot use as base directory",
        ),
    ] {
        let got = run(&t, 4, false, args);
        assert_eq!(got.code, 2, "{args:?}: {}", got.stderr);
        assert!(got.stdout.is_empty(), "{args:?}");
        assert!(got.stderr.starts_with(says), "{args:?}: {}", got.stderr);
        let first = got.stderr.lines().next().unwrap();
        assert_eq!(
            got.stderr.matches(first).count(),
            1,
            "{args:?}: said more than once:\n{}",
            got.stderr
        );
    }
    // --help and --version: once too.
    let help = run(&t, 4, false, &["--version"]);
    assert_eq!(help.code, 0);
    assert_eq!(String::from_utf8_lossy(&help.stdout).lines().count(), 1);
}

#[test]
fn a_missing_search_path_is_said_once_and_the_others_searched() {
    if crate::skip() {
        return;
    }
    let t = wide_tree();
    agree(&t, &["-u", ".", "no-such-path", "d3"]);
}

#[test]
fn srun_without_a_pmi_ffinds_mpi_speaks_searches_nothing() {
    if crate::skip() {
        return;
    }
    if crate::kind() != Kind::Srun {
        eprintln!("skipped: Slurm's own test (FFIND_MPI_LAUNCHER=srun)");
        return;
    }
    let t = wide_tree();
    // --mpi=none: no PMI at all; the other plug-in: one this ffind's MPI does not speak
    // (Open MPI fails in MPI_Init under pmi2; MPICH under pmix made each task a job of its own,
    // which ffind refuses rather than print every result twice).
    let other = if crate::srun_pmi() == "pmix" {
        "pmi2"
    } else {
        "pmix"
    };
    for plugin in ["none", other] {
        let words = ["srun", &format!("--mpi={plugin}"), "--quiet", "-n", "2"].map(String::from);
        let got = Run::from(crate::command_from(&t, &words, &["-u"]).output().unwrap());
        assert_ne!(got.code, 0, "--mpi={plugin}: {}", got.stderr);
        assert!(
            got.stdout.is_empty(),
            "--mpi={plugin}: a task searched alone:\n{}",
            String::from_utf8_lossy(&got.stdout)
        );
        let ours: Vec<&str> = got
            .stderr
            .lines()
            .filter(|l| l.starts_with("ffind: "))
            .collect();
        if plugin == "none" {
            assert_eq!(ours.len(), 1, "said once: {}", got.stderr);
            assert!(ours[0].contains("without a process-management interface"));
        } else {
            assert!(ours.len() <= 1, "said once at most: {}", got.stderr);
        }
    }
}

#[test]
fn mpi_from_the_config_file_says_a_usage_error_once() {
    if crate::skip() {
        return;
    }
    // `--mpi` given in the config file, not on the command line: the usage error is
    // said by process 0 alone, as for `--mpi` on the command line.
    let t = wide_tree();
    let config = t.home().join("config");
    std::fs::write(&config, "--mpi\n").unwrap();
    let words = crate::mpirun(4, false);
    let mut cmd = std::process::Command::new(&words[0]);
    cmd.args(&words[1..])
        .arg(crate::fixture::bin())
        .arg("--no-such-option")
        .current_dir(t.root())
        .stdin(std::process::Stdio::null());
    crate::fixture::clean_env(&mut cmd, &t.home());
    let run = crate::fixture::Run::from(cmd.env("FFIND_CONFIG_PATH", &config).output().unwrap());
    assert_eq!(run.code, 2, "{}", run.stderr);
    let said = "error: unexpected argument '--no-such-option'";
    assert_eq!(run.stderr.matches(said).count(), 1, "{}", run.stderr);
}

#[test]
fn a_search_that_finds_nothing_gives_its_hint_once() {
    if crate::skip() {
        return;
    }
    // As without --mpi: `-e '*.rs'` finds nothing and says what was meant, once for the job;
    // a search that found something says nothing.
    let t = Tree::new();
    t.files(&["a/main.rs", "b/lib.rs", "c/x.txt"]);
    for (n, share_all) in LAUNCHES {
        let none = run(&t, n, share_all, &["-e", "*.rs"]);
        let hints = none.stderr.matches("hint: -e takes an extension").count();
        assert_eq!((none.stdout.len(), hints), (0, 1), "n={n}: {}", none.stderr);
        let some = run(&t, n, share_all, &["-e", "rs"]);
        assert_eq!(some.sorted().len(), 2, "n={n}");
        assert!(!some.stderr.contains("hint"), "n={n}: {}", some.stderr);
    }
}
