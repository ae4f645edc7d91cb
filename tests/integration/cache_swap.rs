//! `--cache` and a directory replaced by rename while a search is inside it: a
//! deployment's atomic swap (`mv a a.old; mv new a`) during a `--cache` search whose reader
//! has stalled. The walk holds the old directory's descriptor and reads the old
//! subdirectories through it; their paths lead into the new one. A listing kept with the
//! stamp of another directory than the one it was read from would be served by every later
//! search (the old names under the new directory); every later `--cache` search must print
//! exactly what `--no-cache` prints, under every method that takes `--cache`.

use std::fs;
use std::path::Path;

use crate::fixture::{Run, Tree};
use crate::methods::methods_with;

/// Subdirectories of each side: enough output that the reader stalls inside them.
const WIDE: usize = 3000;

/// How long a directory must be left alone before the memo trusts its listing, and a little.
const SETTLE: std::time::Duration = std::time::Duration::from_millis(3100);

/// `WIDE` subdirectories `bNNNN` of `dir`, each holding one file named `{tag}_NNNN` (long
/// names, so that the output fills the pipe well before the walk is through them).
fn fill(dir: &Path, tag: &str) {
    for i in 0..WIDE {
        let sub = dir.join(format!("b{i:04}"));
        fs::create_dir_all(&sub).unwrap();
        fs::write(sub.join(format!("{tag}_{i:04}_{}", "x".repeat(40))), "").unwrap();
    }
}

/// A tree per method: `R/a` with the old side, `new` (outside `R`) with the new one.
fn trees() -> Vec<Tree> {
    methods_with("own-reader")
        .iter()
        .map(|_| {
            let t = Tree::new();
            fill(&t.root().join("R/a"), "old");
            fill(&t.root().join("new"), "new");
            t
        })
        .collect()
}

fn memo(t: &Tree) -> String {
    t.home().join("memo").display().to_string()
}

/// Every later `--cache` search of `path`, under each method, prints what `--no-cache`
/// prints (the same sorted lines, messages and exit code), and no old name.
fn later_searches_agree(t: &Tree, path: &str, during: &str) {
    for m in methods_with("own-reader") {
        for _ in 0..2 {
            let cached = t.run(&[
                "--cache",
                "--cache-dir",
                &memo(t),
                "-u",
                "--method",
                m,
                ".",
                path,
            ]);
            let plain = t.run(&["--no-cache", "-u", "--method", m, ".", path]);
            let stale: Vec<String> = cached
                .sorted()
                .into_iter()
                .filter(|l| l.starts_with("R/a/") && l.contains("/old_"))
                .take(3)
                .collect();
            assert!(
                stale.is_empty(),
                "after a swap during a --method {during} search, --cache --method {m} prints \
                 names that are not there: {stale:?}"
            );
            assert_eq!(
                cached.sorted(),
                plain.sorted(),
                "--method {m} after {during}"
            );
            assert_eq!(cached.stderr, plain.stderr, "--method {m} after {during}");
            assert_eq!(cached.code, plain.code, "--method {m} after {during}");
        }
    }
}

/// Remembers `path`, changes `R/a` (so that it is read again and its subdirectories
/// validated), then searches `path` with `method` into a reader that stalls after 8 KiB,
/// while `R/a` is renamed away and `new` takes its name.
fn swap_during_a_search(t: &Tree, path: &str, method: &str) -> Run {
    let first = t.run(&["--cache", "--cache-dir", &memo(t), "-u", ".", path]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    fs::write(t.root().join("R/a/t"), "").unwrap();
    t.run_script(&format!(
        "\"$FFIND\" --cache --cache-dir '{}' -u --method {method} . {path} \
         | {{ head -c 8192 >/dev/null; sleep 0.5; mv R/a R/a.old; mv new R/a; cat >/dev/null; }}",
        memo(t)
    ))
}

fn check(path: &str) {
    let trees = trees();
    std::thread::sleep(SETTLE);
    for (t, m) in trees.iter().zip(methods_with("own-reader")) {
        swap_during_a_search(t, path, m);
        assert!(t.root().join("R/a.old").is_dir() && !t.root().join("new").exists());
        later_searches_agree(t, path, m);
    }
}

#[test]
fn a_directory_swapped_below_the_root_during_a_search_leaves_no_stale_listing() {
    check("R");
}

#[test]
fn the_search_root_swapped_during_a_search_leaves_no_stale_listing() {
    check("R/a");
}
