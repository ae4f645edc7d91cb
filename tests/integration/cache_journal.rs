//! `--cache` left on: a search's cost follows what it searches and what changed,
//! never the size of the memo that serves it. A small new directory below a large remembered
//! tree is searched as `--no-cache` searches it (the same bytes, in the small search's sorted
//! order), and what it read is appended to the tree's file (its journal) rather than the whole
//! file written again; a journal cut short is passed over and the file written whole.

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use crate::fixture::Tree;

/// How long a directory must be left alone before the memo trusts its listing, and a little.
const SETTLE: std::time::Duration = std::time::Duration::from_millis(3100);

fn memo_file(memo: &Path) -> PathBuf {
    let mut v = crate::cache::memo_files(memo);
    assert_eq!(v.len(), 1, "{v:?}");
    v.pop().unwrap()
}

/// A tree of `n` directories of three files each under `big/`, remembered (with `--cache`
/// in the config file) and settled; its memo file.
fn remembered(n: usize) -> (Tree, PathBuf) {
    let t = Tree::new();
    for i in 0..n {
        let d = t.root().join(format!("big/d{i:05}"));
        fs::create_dir_all(&d).unwrap();
        for f in ["x.rs", "y.txt", "z"] {
            fs::write(d.join(f), "").unwrap();
        }
    }
    let memo = t.home().join("memo");
    t.write(
        "../home/.config/ffind/config",
        &format!("--cache\n--cache-dir={}\n", memo.display()),
    );
    std::thread::sleep(SETTLE);
    let first = t.run(&["-u"]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    (t, memo_file(&memo))
}

#[test]
fn a_small_search_below_a_large_memo_appends_and_keeps_the_order() {
    let (t, file) = remembered(3000);
    let before = fs::read(&file).unwrap();
    let ino = fs::metadata(&file).unwrap().ino();
    assert!(before.len() > 100_000, "{}", before.len());
    t.files(&[
        "big/d00007/new/d/c",
        "big/d00007/new/d/b",
        "big/d00007/new/d/a",
    ]);
    let held = crate::fixture::held_whole();
    let plain = t.run(&[held, &["--no-cache", ".", "big/d00007/new"]].concat());
    assert_eq!(
        String::from_utf8_lossy(&plain.stdout),
        "big/d00007/new/d/\nbig/d00007/new/d/a\nbig/d00007/new/d/b\nbig/d00007/new/d/c\n"
    );
    for i in 0..3 {
        let cached = t.run(&[held, &[".", "big/d00007/new"]].concat());
        assert_eq!(cached.stdout, plain.stdout, "search {i}: bytes and order");
        assert_eq!(cached.stderr, "");
        let now = fs::read(&file).unwrap();
        assert_eq!(
            fs::metadata(&file).unwrap().ino(),
            ino,
            "search {i}: rewritten"
        );
        assert_eq!(
            now[..before.len()],
            before[..],
            "search {i}: changed in place"
        );
        assert!(
            now.len() - before.len() < 2048 * (i + 1),
            "search {i}: {} bytes written for a directory of 3 files",
            now.len() - before.len()
        );
    }
    // What the journal holds serves the next search: everything as --no-cache says.
    std::thread::sleep(SETTLE);
    t.run(&["-u"]);
    let cached = t.run(&["-u"]);
    let plain = t.run(&["--no-cache", "-u"]);
    assert_eq!(cached.sorted(), plain.sorted());
}

#[test]
fn a_journal_cut_short_is_passed_over_and_the_file_written_whole() {
    let (t, file) = remembered(50);
    let base = fs::read(&file).unwrap().len();
    t.files(&["big/d00001/new"]);
    t.run(&["-u"]);
    let grown = fs::read(&file).unwrap();
    assert!(grown.len() > base, "appended");
    let want = t.run(&["--no-cache", "-u"]);
    // Every cut inside the segment: the same results, not a word, and the next search that
    // changes something writes the file whole (a new file).
    for cut in (base + 1..grown.len()).step_by(7) {
        fs::write(&file, &grown[..cut]).unwrap();
        let ino = fs::metadata(&file).unwrap().ino();
        let r = t.run(&["-u"]);
        assert_eq!(r.sorted(), want.sorted(), "cut at {cut}");
        assert_eq!(r.stderr, "", "cut at {cut}");
        assert_ne!(
            fs::metadata(&file).unwrap().ino(),
            ino,
            "cut at {cut}: appended to"
        );
    }
}

#[test]
fn a_long_journal_is_folded_into_a_whole_file() {
    let (t, file) = remembered(20);
    let mut inodes = std::collections::HashSet::new();
    // Each search reads the changed directory again (changed within the margin) and appends:
    // the journal grows until it is written whole.
    for i in 0..40 {
        t.files(&[&format!("big/d00002/n{i}")]);
        let r = t.run(&["-u"]);
        assert_eq!(
            r.sorted(),
            t.run(&["--no-cache", "-u"]).sorted(),
            "search {i}"
        );
        inodes.insert(fs::metadata(&file).unwrap().ino());
    }
    assert!(inodes.len() > 1, "the journal was never folded in");
    assert!(
        inodes.len() < 30,
        "written whole {} times in 40 searches",
        inodes.len()
    );
}
