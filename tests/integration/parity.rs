//! Every method, at every concurrency, prints the same set of entries; and with `-u` the same
//! set as `find -mindepth 1` (ignore's `assert_paths` idea: run them all, compare).

use std::process::Command;

use crate::fixture::{clean_env, have, hostile_tree, Run, Spawn, Tree, HOSTILE_FILTER_FAMILIES};
use crate::methods::methods;

const CONCURRENCY: [&str; 4] = ["1", "2", "8", "64"];

/// Every method at every concurrency (the one-thread methods ignore `-j`, and must).
fn run_all(t: &Tree, args: &[&str], unprivileged: bool) -> Vec<(String, Run)> {
    let mut out = Vec::new();
    for m in methods() {
        for j in CONCURRENCY {
            let mut full = vec!["--method", m, "-j", j, "-0"];
            full.extend_from_slice(args);
            let run = if unprivileged {
                t.run_unprivileged(&full).unwrap()
            } else {
                t.run(&full)
            };
            out.push((format!("{m} -j{j}"), run));
        }
    }
    out
}

fn assert_all_equal(runs: &[(String, Run)]) -> Vec<Vec<u8>> {
    let (first_name, first) = &runs[0];
    let want = first.sorted_by(0);
    assert!(
        !want.is_empty(),
        "{first_name} printed nothing: {}",
        first.stderr
    );
    for (name, run) in &runs[1..] {
        let got = run.sorted_by(0);
        if got != want {
            let missing: Vec<_> = want
                .iter()
                .filter(|w| !got.contains(w))
                .map(|b| String::from_utf8_lossy(b))
                .collect();
            let extra: Vec<_> = got
                .iter()
                .filter(|g| !want.contains(g))
                .map(|b| String::from_utf8_lossy(b))
                .collect();
            panic!("{name} differs from {first_name}: missing {missing:?}, extra {extra:?}, counts {} vs {}", got.len(), want.len());
        }
        assert_eq!(run.code, first.code, "{name} exit code");
        let mut lines: Vec<&str> = run.stderr.lines().collect();
        let mut first_lines: Vec<&str> = first.stderr.lines().collect();
        lines.sort();
        first_lines.sort();
        assert_eq!(lines, first_lines, "{name} messages");
    }
    want
}

#[test]
fn all_methods_agree_on_a_hostile_tree() {
    let t = hostile_tree();
    for args in HOSTILE_FILTER_FAMILIES {
        assert_all_equal(&run_all(&t, args, false));
    }
}

#[test]
fn all_methods_agree_with_find() {
    if !have("find") {
        return;
    }
    let t = hostile_tree();
    let want = assert_all_equal(&run_all(&t, &["-u", ".", "."], false));
    let mut c = Command::new("find");
    // Directories with a trailing slash, as ffind (and fd) print them.
    c.args([
        ".",
        "-mindepth",
        "1",
        "-type",
        "d",
        "-printf",
        "%p/\\0",
        "-o",
        "-printf",
        "%p\\0",
    ]);
    c.current_dir(t.root());
    clean_env(&mut c, &t.home());
    let find = Run::from(c.output_ok());
    assert_eq!(find.code, 0, "{}", find.stderr);
    assert_eq!(
        want,
        find.sorted_by(0),
        "ffind -u and find list the same entries"
    );
}

#[test]
fn all_methods_agree_when_a_directory_is_unreadable() {
    let t = hostile_tree();
    t.chmod("locked", 0o000);
    if t.run_unprivileged(&[]).is_none() {
        t.chmod("locked", 0o755);
        return;
    }
    let runs = run_all(&t, &["-u"], true);
    let listed = assert_all_equal(&runs);
    t.chmod("locked", 0o755);
    assert!(
        listed.iter().any(|p| p == b"./locked/"),
        "-0 prints ./ as fd does"
    );
    assert!(!listed
        .iter()
        .any(|p| p.starts_with(b"./locked/") && p.len() > 9));
    for (name, run) in &runs {
        assert_eq!(run.code, 1, "{name}");
        assert_eq!(run.stderr, "ffind: ./locked: Permission denied\n", "{name}");
    }
}
