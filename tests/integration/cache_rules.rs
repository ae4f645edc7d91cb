//! The memo's remembered rules (`--cache` in a tree with ignore files, docs/CACHE.md): a
//! settled tree is searched without opening one ignore file, and every way a rule can change
//! gives the answer a search without the memo gives, under each method that reads
//! directories itself (those the memo serves). Each change is made after the memo has
//! served the old rules (checked: no ignore file opened), so that a remembered verdict or
//! file used stale shows in the output.

use std::fs;
use std::path::{Path, PathBuf};

use crate::cache::{cached, SETTLE};
use crate::dir_reads;
use crate::fixture::Tree;
use crate::methods::methods_with;

/// The ignore files a tree's search may open.
fn is_rule_file(rel: &str) -> bool {
    [
        ".gitignore",
        ".ignore",
        ".fdignore",
        ".ffindignore",
        "exclude",
    ]
    .iter()
    .any(|n| Path::new(rel).file_name().is_some_and(|f| f == *n))
}

/// A git repository with rules at several depths, settled; `None` without git.
fn repository() -> Option<(Tree, PathBuf)> {
    let t = Tree::new();
    if !t.git_init("") {
        return None;
    }
    t.write(".gitignore", "*.o\nbuild/\n")
        .write("a/.gitignore", "*.tmp\n!keep.tmp\n/b/c/deep.x\n")
        .write("a/b/.ignore", "secret\n")
        .write(".git/info/exclude", "*.swp\n")
        .files(&[
            "top.c",
            "top.o",
            "top.a",
            "top.x",
            "build/out",
            "a/x.tmp",
            "a/keep.tmp",
            "a/y.o",
            "a/y.a",
            "a/b/secret",
            "a/b/c/deep.tmp",
            "a/b/c/deep.o",
            "a/b/c/deep.a",
            "a/b/c/deep.x",
            "a/b/c/d.swp",
        ]);
    let memo = t.home().join("memo");
    std::thread::sleep(SETTLE);
    Some((t, memo))
}

/// Every method the memo serves answers `args` as a search without the memo does.
fn agree(t: &Tree, memo: &Path, args: &[&str], when: &str) {
    let mut plain = vec!["--no-cache"];
    plain.extend(args);
    let want = t.run(&plain).sorted();
    for m in methods_with("own-reader") {
        let mut with = args.to_vec();
        with.extend(["--method", m]);
        let got = cached(t, memo, &with);
        assert_eq!(got.code, 0, "{when}, {m}: {}", got.stderr);
        assert_eq!(got.sorted(), want, "{when}, {m}: {}", got.stderr);
    }
}

/// Searches twice with the memo: the second search must open no ignore file (its rules and
/// verdicts served), and answer as without the memo.
fn served(t: &Tree, memo: &Path) {
    agree(t, memo, &[], "remembering");
    let want = t.run(&["--no-cache"]).sorted();
    for m in methods_with("own-reader") {
        let (r, seen) = dir_reads::during(t.root(), || cached(t, memo, &["--method", m]));
        assert_eq!(r.sorted(), want, "{m}");
        let opened: Vec<&String> = seen
            .files_opened
            .iter()
            .filter(|f| is_rule_file(f))
            .collect();
        assert!(opened.is_empty(), "{m}: ignore files opened: {opened:?}");
    }
}

/// Rewrites the file `rel` of `t` in place with `contents`, its mtime kept (the directory's
/// stamp and the file's size and mtime as they were: only its ctime says it changed).
fn edit_in_place(t: &Tree, rel: &str, contents: &str) {
    let path = t.root().join(rel);
    let mtime = fs::metadata(&path).unwrap().modified().unwrap();
    assert_eq!(fs::metadata(&path).unwrap().len(), contents.len() as u64);
    let f = fs::OpenOptions::new().write(true).open(&path).unwrap();
    use std::io::Write;
    (&f).write_all(contents.as_bytes()).unwrap();
    f.set_modified(mtime).unwrap();
    assert_eq!(fs::metadata(&path).unwrap().modified().unwrap(), mtime);
}

#[test]
fn a_settled_repository_is_searched_without_opening_an_ignore_file() {
    let Some((t, memo)) = repository() else {
        return;
    };
    served(&t, &memo);
    // A pattern's search judges fewer entries; each search after it still agrees, and a
    // search of everything after it is served again.
    agree(&t, &memo, &["-e", "c"], "a pattern");
    agree(&t, &memo, &["-H"], "hidden files");
    served(&t, &memo);
}

#[test]
fn an_ignore_file_edited_in_place_keeping_its_size_and_mtime_is_read_again() {
    let Some((t, memo)) = repository() else {
        return;
    };
    served(&t, &memo);
    // The root's own file: every directory's verdicts change below it.
    edit_in_place(&t, ".gitignore", "*.a\nbuild/\n");
    agree(&t, &memo, &[], "the root's .gitignore edited");
    // A deeper one, and its directory's verdicts served from the memo for the parent.
    edit_in_place(&t, "a/b/.ignore", "deep.x\n");
    agree(&t, &memo, &[], "a/b/.ignore edited");
    std::thread::sleep(SETTLE);
    served(&t, &memo);
    edit_in_place(&t, "a/b/.ignore", "secret\n");
    agree(&t, &memo, &[], "a/b/.ignore edited back");
}

#[test]
fn a_rule_file_added_above_or_removed_changes_the_verdicts_below() {
    let Some((t, memo)) = repository() else {
        return;
    };
    served(&t, &memo);
    // a/b/c's listing is unchanged and its verdicts remembered: a file added above it must
    // change them.
    t.write("a/b/.fdignore", "*.a\n");
    agree(&t, &memo, &[], "a/b/.fdignore added");
    std::thread::sleep(SETTLE);
    served(&t, &memo);
    fs::remove_file(t.root().join("a/.gitignore")).unwrap();
    agree(&t, &memo, &[], "a/.gitignore removed");
    std::thread::sleep(SETTLE);
    served(&t, &memo);
    fs::remove_file(t.root().join("a/b/.fdignore")).unwrap();
    agree(&t, &memo, &[], "a/b/.fdignore removed");
}

#[test]
fn a_git_exclude_or_a_global_file_changed_changes_the_verdicts() {
    let Some((t, memo)) = repository() else {
        return;
    };
    // git's global excludes, named by the user's git configuration.
    t.write(
        "../home/.gitconfig",
        "[core]\n\texcludesFile = ~/excludes\n",
    )
    .write("../home/excludes", "*.x\n");
    std::thread::sleep(SETTLE);
    served(&t, &memo);
    // .git/info/exclude: the repository root's listing does not change.
    edit_in_place(&t, ".git/info/exclude", "*.c\n\n\n");
    agree(&t, &memo, &[], ".git/info/exclude edited");
    // It removed: the rule goes.
    fs::remove_file(t.root().join(".git/info/exclude")).unwrap();
    agree(&t, &memo, &[], ".git/info/exclude removed");
    std::thread::sleep(SETTLE);
    served(&t, &memo);
    // core.excludesFile's file changed, then another file named.
    fs::write(t.home().join("excludes"), "*.a\n").unwrap();
    agree(&t, &memo, &[], "the global excludes file changed");
    fs::write(t.home().join("other"), "deep.*\n").unwrap();
    fs::write(
        t.home().join(".gitconfig"),
        "[core]\n\texcludesFile = ~/other\n",
    )
    .unwrap();
    agree(&t, &memo, &[], "another global excludes file named");
    // ffind's own global ignore file.
    std::thread::sleep(SETTLE);
    served(&t, &memo);
    let global = t.home().join(".config/ffind/ignore");
    fs::create_dir_all(global.parent().unwrap()).unwrap();
    fs::write(&global, "top.*\n").unwrap();
    agree(&t, &memo, &[], "ffind's global ignore file written");
    // And an --ignore-file given.
    fs::write(t.home().join("extra"), "*.tmp\n").unwrap();
    let extra = t.home().join("extra");
    agree(
        &t,
        &memo,
        &["--ignore-file", extra.to_str().unwrap()],
        "an --ignore-file",
    );
}
