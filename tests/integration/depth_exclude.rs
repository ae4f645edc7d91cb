//! fd's search language, one option at a time: how far the walk goes and what it
//! leaves out, depth limits, excludes (`-E`), `--prune`, following links, staying on one file
//! system, result limits (`--max-results`, `-1`, `-q`) and all of the filters combined. Every
//! check runs under every method at `-j 1` and `-j 8` ([`assert_everywhere`]). On Windows
//! too, but for links and mount points (`/dev`).

#[cfg(unix)]
use std::fs;
#[cfg(unix)]
use std::os::unix::fs::MetadataExt;
#[cfg(unix)]
use std::path::Path;

use crate::fd_parity::{assert_everywhere, assert_listing, listing, methods_agree};
use crate::fixture::{typed, Tree};

// Depth.

#[test]
fn max_min_and_exact_depth() {
    let t = Tree::new();
    t.files(&["a", "d1/b", "d1/d2/c", "d1/d2/d3/e"]);
    assert_everywhere(&t, &["-d", "1"], &["a", "d1"]);
    assert_everywhere(&t, &["--max-depth", "2"], &["a", "d1", "d1/b", "d1/d2"]);
    assert_everywhere(&t, &["--maxdepth", "2", "-t", "f"], &["a", "d1/b"]);
    assert_everywhere(
        &t,
        &["--min-depth", "3"],
        &["d1/d2/c", "d1/d2/d3", "d1/d2/d3/e"],
    );
    assert_everywhere(&t, &["--exact-depth", "2"], &["d1/b", "d1/d2"]);
    assert_everywhere(
        &t,
        &["--min-depth", "2", "-d", "3"],
        &["d1/b", "d1/d2", "d1/d2/c", "d1/d2/d3"],
    );
    assert_everywhere(&t, &["--min-depth", "3", "-d", "2"], &[]);
    // Depth counts from each search path.
    assert_everywhere(
        &t,
        &["--exact-depth", "1", ".", &typed("d1/d2")],
        &["d1/d2/c", "d1/d2/d3"],
    );
}

// Excludes and pruning.

#[test]
fn excludes_hide_entries_and_their_subtrees() {
    let t = Tree::new();
    t.files(&[
        "main.rs",
        "notes.md",
        "src/lib.rs",
        "src/gen/out.rs",
        "target/debug/x",
        "docs/target/y",
        "a/b/c.txt",
        "b/c.txt",
    ]);
    assert_everywhere(
        &t,
        &["-E", "*.rs"],
        &[
            "notes.md",
            "src",
            "src/gen",
            "target",
            "target/debug",
            "target/debug/x",
            "docs",
            "docs/target",
            "docs/target/y",
            "a",
            "a/b",
            "a/b/c.txt",
            "b",
            "b/c.txt",
        ],
    );
    // Repeatable; a name excludes the directory wherever it is, with everything below it.
    assert_everywhere(
        &t,
        &["-E", "target", "--exclude", "*.md", "-E", "src"],
        &["main.rs", "docs", "a", "a/b", "a/b/c.txt", "b", "b/c.txt"],
    );
    // As in .gitignore, a glob with a '/' is matched against the path below the search path
    // (a leading '/' only says so explicitly); "**/" lets it start at any depth.
    assert_everywhere(&t, &["-E", "b/c.txt", "-t", "f", "c.txt"], &["a/b/c.txt"]);
    assert_everywhere(&t, &["-E", "**/b/c.txt", "-t", "f", "c.txt"], &[]);
    assert_everywhere(
        &t,
        &["-E", "src/gen", "-e", "rs"],
        &["main.rs", "src/lib.rs"],
    );
    assert_everywhere(
        &t,
        &["-E", "/target", "-t", "f", "^[xy]$"],
        &["docs/target/y"],
    );
    assert_everywhere(&t, &["-E", "/b", "-t", "f", "c.txt"], &["a/b/c.txt"]);
    // Anchored at each search path, not at the current directory.
    assert_everywhere(&t, &["-E", "/gen", "-t", "f", ".", "src"], &["src/lib.rs"]);
    // A trailing '/' excludes directories only.
    t.files(&["file-named-target/target"]);
    assert_everywhere(
        &t,
        &["-E", "target/", "target"],
        &["file-named-target", "file-named-target/target"],
    );
}

#[test]
fn prune_does_not_descend_into_matches() {
    let t = Tree::new();
    t.files(&["node/a/node/x", "node/b", "src/node/y", "other/z"]);
    assert_everywhere(&t, &["--prune", "node"], &["node", "src/node"]);
    assert_everywhere(&t, &["node"], &["node", "node/a/node", "src/node"]);
    // Only what is printed is pruned: a file type filter leaves directories alone.
    assert_everywhere(
        &t,
        &["--prune", "-t", "f", "^[xyz]$"],
        &["node/a/node/x", "src/node/y", "other/z"],
    );
    // Above --min-depth nothing is printed, so nothing is pruned.
    assert_everywhere(
        &t,
        &["--prune", "--min-depth", "2", "node"],
        &["node/a/node", "src/node"],
    );
}

// Links and file systems.

#[cfg(unix)]
#[test]
fn follow_descends_into_linked_directories() {
    let t = Tree::new();
    t.files(&["real/inner", "file"])
        .link("real", "link")
        .link("file", "file-link");
    assert_everywhere(
        &t,
        &[],
        &["real", "real/inner", "file", "link", "file-link"],
    );
    assert_everywhere(
        &t,
        &["-L"],
        &[
            "real",
            "real/inner",
            "file",
            "link",
            "link/inner",
            "file-link",
        ],
    );
    assert_everywhere(&t, &["--follow", "-t", "d"], &["real", "link"]);
    assert_everywhere(
        &t,
        &["--dereference", "inner"],
        &["real/inner", "link/inner"],
    );
    assert_everywhere(&t, &["-L", "--no-follow", "inner"], &["real/inner"]);
}

#[test]
fn one_file_system_changes_nothing_within_one() {
    let t = Tree::new();
    t.files(&["a/b/c", "d", ".h/x"]);
    #[cfg(unix)]
    t.link("a", "l");
    for extra in [&[][..], &["-L"], &["-u"], &["-t", "f"]] {
        let plain = methods_agree(&t, extra).unwrap_or_else(|e| panic!("{e}"));
        let mut args = vec!["--one-file-system"];
        args.extend_from_slice(extra);
        let one = methods_agree(&t, &args).unwrap_or_else(|e| panic!("{e}"));
        assert!(!listing(&plain).is_empty());
        assert_eq!(listing(&plain), listing(&one), "{extra:?}");
        assert_eq!(one.code, 0, "{}", one.stderr);
    }
}

#[cfg(unix)]
#[test]
fn one_file_system_stops_at_a_mount_point() {
    // /dev usually holds other file systems (/dev/pts, /dev/shm); skip where it does not.
    let dev = Path::new("/dev");
    let Ok(dev_meta) = fs::metadata(dev) else {
        return;
    };
    let mount = fs::read_dir(dev).ok().and_then(|entries| {
        entries.flatten().map(|e| e.path()).find(|p| {
            fs::symlink_metadata(p).is_ok_and(|m| m.is_dir() && m.dev() != dev_meta.dev())
                && fs::read_dir(p).is_ok_and(|mut d| d.next().is_some())
        })
    });
    let Some(mount) = mount else {
        eprintln!("no mount point with entries below /dev: skipping");
        return;
    };
    let t = Tree::new();
    let mount = mount.to_str().unwrap();
    let inside = |run: &crate::fixture::Run| {
        listing(run)
            .into_iter()
            .filter(|p| p.starts_with(&format!("{mount}/")))
            .collect::<Vec<_>>()
    };
    let all = t.run(&["-u", "-d", "2", ".", "/dev"]);
    assert!(
        !inside(&all).is_empty(),
        "{mount} has entries: {:?}",
        listing(&all)
    );
    // /dev changes under our feet (terminals, shared memory): each method is checked on its
    // own rather than compared with the others.
    for method in crate::methods::methods() {
        for flag in ["--one-file-system", "--mount", "--xdev"] {
            let args = ["--method", method, "-u", "-d", "2", flag, ".", "/dev"];
            let run = t.run(&args);
            assert!(
                listing(&run).iter().any(|p| p == mount),
                "{args:?}: {mount} is listed"
            );
            assert_eq!(
                inside(&run),
                Vec::<String>::new(),
                "{args:?}: nothing below {mount}"
            );
        }
    }
}

// Result limits.

#[test]
fn max_results_and_one() {
    let t = Tree::new();
    t.files(&["a1", "a2", "a3", "a4", "b/a5", "c"]);
    let all = crate::fixture::native_all(&["a1", "a2", "a3", "a4", "b/a5"]);
    for method in crate::methods::methods() {
        for j in ["1", "8"] {
            for (args, n) in [
                (&["--max-results", "2", "a"][..], 2),
                (&["--max-results=3", "a"], 3),
                (&["-1", "a"], 1),
                (&["--max-results", "99", "a"], 5),
            ] {
                let mut full = vec!["--method", method, "-j", j];
                full.extend_from_slice(args);
                let run = t.run(&full);
                assert_eq!(run.code, 0, "{full:?}: {}", run.stderr);
                let got = listing(&run);
                assert_eq!(got.len(), n, "{full:?}: {got:?}");
                assert!(got.iter().all(|p| all.contains(p)), "{full:?}: {got:?}");
            }
        }
    }
    // Of -1 and --max-results the last wins, as in fd (cli_compat.rs).
}

#[test]
fn quiet_answers_with_the_exit_code_only() {
    let t = Tree::new();
    t.files(&["x/found", "other"]);
    for method in crate::methods::methods() {
        for j in ["1", "8"] {
            let run = |args: &[&str]| {
                let mut full = vec!["--method", method, "-j", j];
                full.extend_from_slice(args);
                t.run(&full)
            };
            for args in [
                &["-q", "found"][..],
                &["--quiet", "-t", "d"],
                &["--has-results"],
            ] {
                let r = run(args);
                assert_eq!(
                    (r.code, r.stdout.len()),
                    (0, 0),
                    "{args:?} {method}: {}",
                    r.stderr
                );
                assert!(r.stderr.is_empty(), "{}", r.stderr);
            }
            for args in [
                &["-q", "missing"][..],
                &["-q", "-t", "l"],
                &["-q", "-e", "rs"],
            ] {
                let r = run(args);
                assert_eq!(
                    (r.code, r.stdout.len()),
                    (1, 0),
                    "{args:?} {method}: {}",
                    r.stderr
                );
                assert!(r.stderr.is_empty(), "{}", r.stderr);
            }
        }
    }
}

#[test]
fn filters_combine() {
    let t = Tree::new();
    t.write("src/big.rs", &"x".repeat(2000))
        .write("src/small.rs", "x")
        .write("src/deep/big.rs", &"x".repeat(2000))
        .write("big.txt", &"x".repeat(2000));
    let run = methods_agree(&t, &["-e", "rs", "-S", "+1k", "-d", "2", "big"])
        .unwrap_or_else(|e| panic!("{e}"));
    assert_listing(&run, &[], &["src/big.rs"]);
    assert_everywhere(
        &t,
        &["-t", "f", "-E", "deep", "-S", "+1k"],
        &["src/big.rs", "big.txt"],
    );
    assert_everywhere(
        &t,
        &["-g", "*.rs", "--exact-depth", "3"],
        &["src/deep/big.rs"],
    );
    // Sizes name files only: the directory "src" never passes -S, even with an empty bound.
    assert_everywhere(&t, &["-S", "-0b", "src"], &[]);
}
