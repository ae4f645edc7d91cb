//! Cases where the methods used to disagree: loops under `-L` (find -L's rule), links to
//! unreadable directories, an unreadable root, a non-searchable directory holding `.git`, a low
//! descriptor limit, directories replaced by files mid-walk. Each runs under every method and
//! expects the same listing, the same messages and the same exit code.

use crate::fixture::{have, Run, Tree};
use crate::methods::methods;

const LOOP: &str = "File system loop detected (the same directory as one of its parents)";

/// Runs `args` under every method at one and four threads; checks the listing, the sorted
/// messages and the exit code.
fn assert_every_method(t: &Tree, args: &[&str], listing: &[&str], messages: &[&str]) {
    for m in methods() {
        for j in ["1", "4"] {
            let mut full = vec!["--method", m, "-j", j];
            full.extend_from_slice(args);
            check(
                &format!("{m} -j{j} {args:?}"),
                &t.run(&full),
                listing,
                messages,
            );
        }
    }
}

fn check(what: &str, run: &Run, listing: &[&str], messages: &[&str]) {
    let mut want: Vec<String> = listing.iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(run.sorted(), want, "{what}: {}", run.stderr);
    let mut got: Vec<&str> = run.stderr.lines().collect();
    got.sort();
    let mut expected: Vec<String> = messages.iter().map(|m| format!("ffind: {m}")).collect();
    expected.sort();
    assert_eq!(got, expected, "{what}");
    let code = if messages.is_empty() { 0 } else { 1 };
    assert_eq!(run.code, code, "{what}");
}

#[test]
fn a_link_to_an_ancestor_of_the_search_root_loops_where_find_says() {
    // d/up leads to the directory holding d: following it is fine, and d/up/d is d again.
    // GNU find -L d: lists d/up and d/up/top, reports d/up/d and does not list it.
    let t = Tree::new();
    t.files(&["d/f", "top"]).dirs(&["d/sub"]).link("..", "d/up");
    let closes = format!("d/up/d: {LOOP}");
    for args in [&["-L", ".", "d"][..], &["-L", "-d", "2", ".", "d"]] {
        assert_every_method(
            &t,
            args,
            &["d/f", "d/sub/", "d/up/", "d/up/top"],
            &[&closes],
        );
    }
    // Within the depth limit but not descended: not a loop yet.
    assert_every_method(
        &t,
        &["-L", "-d", "1", ".", "d"],
        &["d/f", "d/sub/", "d/up/"],
        &[],
    );
    // --prune lists d/up and does not descend it.
    assert_every_method(
        &t,
        &["-L", "--prune", ".", "d"],
        &["d/f", "d/sub/", "d/up/"],
        &[],
    );
}

#[test]
fn a_loop_is_reported_even_where_it_is_not_descended() {
    // find -L . -maxdepth 2 reports ./d/up (depth 2) and does not list it.
    let t = Tree::new();
    t.files(&["d/f", "top"]).link("..", "d/up");
    let closes = format!("d/up: {LOOP}");
    assert_every_method(&t, &["-L", "-d", "2"], &["d/", "d/f", "top"], &[&closes]);
    // --prune with a pattern that matches the loop entry: still the loop, never listed.
    assert_every_method(&t, &["-L", "--prune", "^up$"], &[], &[&closes]);
}

#[test]
fn a_link_to_an_unreadable_directory_is_listed_and_its_target_reported() {
    let t = Tree::new();
    t.files(&["locked/secret", "ok/f"])
        .link("locked", "link")
        .chmod("locked", 0o000);
    if t.run_unprivileged(&[]).is_none() {
        t.chmod("locked", 0o755);
        if crate::fixture::is_root() {
            panic!("running as root but setpriv is missing: this test must drop privileges");
        }
        return;
    }
    for m in methods() {
        let run = t
            .run_unprivileged(&["-L", "--method", m, "-j", "4"])
            .unwrap();
        check(
            &format!("{m} -L"),
            &run,
            &["link/", "locked/", "ok/", "ok/f"],
            &["link: Permission denied", "locked: Permission denied"],
        );
        // An excluded entry is never read, so never reported.
        let run = t
            .run_unprivileged(&["-L", "--method", m, "-E", "link", "-E", "locked"])
            .unwrap();
        check(&format!("{m} -L -E"), &run, &["ok/", "ok/f"], &[]);
    }
    t.chmod("locked", 0o755);
}

#[test]
fn an_unreadable_search_root_is_reported() {
    let t = Tree::new();
    t.files(&["locked/x", "open/y"]).chmod("locked", 0o000);
    if t.run_unprivileged(&[]).is_none() {
        t.chmod("locked", 0o755);
        return;
    }
    for m in methods() {
        let run = t
            .run_unprivileged(&["--method", m, ".", "locked", "open"])
            .unwrap();
        check(m, &run, &["open/y"], &["locked: Permission denied"]);
    }
    t.chmod("locked", 0o755);
}

#[test]
fn a_directory_that_cannot_be_searched_holds_no_repository() {
    // ro/ may be listed but not searched (r--): its .git cannot be looked up, so ro is not a
    // repository and the top repository's rule hiding "y" applies inside it.
    let t = Tree::new();
    if !t.git_init(".") {
        return;
    }
    t.write(".gitignore", "y\n")
        .files(&["ro/y", "ro/z", "y"])
        .dirs(&["ro/.git", "ro/sub"])
        .chmod("ro", 0o444);
    if t.run_unprivileged(&[]).is_none() {
        t.chmod("ro", 0o755);
        return;
    }
    for m in methods() {
        let run = t.run_unprivileged(&["--method", m, "-j", "4"]).unwrap();
        check(
            m,
            &run,
            &["ro/", "ro/sub/", "ro/z"],
            &["ro/sub: Permission denied"],
        );
    }
    t.chmod("ro", 0o755);
}

#[test]
fn a_deep_tree_under_twelve_descriptors_is_walked_in_full() {
    if !have("bash") {
        return;
    }
    let t = Tree::new();
    let mut dir = String::from("top");
    for i in 0..14 {
        dir.push_str(&format!("/d{i}"));
        t.files(&[&format!("{dir}/f"), &format!("{dir}/side/g")]);
    }
    let normal = t.run(&["-u", "--method", "serial"]);
    assert_eq!(normal.sorted().len(), 14 * 4 + 1);
    for m in methods() {
        let run = t.run_script(&format!(
            "ulimit -n 12 && exec \"$FFIND\" -u --method {m} -j 8"
        ));
        assert_eq!(run.code, 0, "{m}: {}", run.stderr);
        assert_eq!(run.stderr, "", "{m}");
        assert_eq!(run.sorted(), normal.sorted(), "{m}");
    }
}

#[test]
fn directories_replaced_by_files_mid_walk_are_not_errors() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let t = Tree::new();
    for i in 0..30 {
        t.files(&[&format!("churn/d{i}/a/f"), &format!("churn/d{i}/g")]);
    }
    let churn = t.root().join("churn");
    let stop = Arc::new(AtomicBool::new(false));
    let stopper = stop.clone();
    // Each d{i} turns into a file and back, by rename, so that it is always there as one or
    // the other: a listed directory may be a file when it is opened.
    let worker = std::thread::spawn(move || {
        let aside = churn.join("aside");
        while !stopper.load(Ordering::Relaxed) {
            for i in 0..30 {
                let d = churn.join(format!("d{i}"));
                let file = churn.join(format!("file{i}"));
                let _ = std::fs::write(&file, "");
                let _ = std::fs::rename(&d, &aside);
                let _ = std::fs::rename(&file, &d);
                let _ = std::fs::remove_file(&d);
                let _ = std::fs::rename(&aside, &d);
            }
        }
    });
    let mut failures = Vec::new();
    for round in 0..15 {
        for m in methods() {
            let run = t.run(&["-u", "--method", m, "-j", "4", ".", "churn"]);
            if run.code != 0 || !run.stderr.is_empty() {
                failures.push(format!(
                    "{m} round {round}: code {} {:?}",
                    run.code, run.stderr
                ));
            }
        }
    }
    stop.store(true, Ordering::Relaxed);
    worker.join().unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
