//! Where `--cache` keeps its memo and how it is managed: never in a home that is
//! not the effective user's, never below the working directory through a relative `$HOME`
//! or `$XDG_CACHE_HOME`; `--cache-limit` bounded; roots inside one another sharing one file
//! whatever their order; every `--cache-clear=PATH` done; management options that do not go
//! together refused; every path error naming its path; a directory in a memo file's place;
//! each reader's files in a directory of its own, listed to that reader; the files of the
//! layouts before removed when met.

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::cache::memo_files;
use crate::cache_identity::run as run_as;
use crate::fixture::{bin, is_root, need, Run, Spawn, Tree};

/// ffind in `t` with the memo found by its defaults: `HOME` (and `XDG_CACHE_HOME` when
/// given) as given, no `$FFIND_CACHE_DIR`.
fn run_with_home(t: &Tree, home: &str, xdg_cache: Option<&str>, args: &[&str]) -> Run {
    let mut c = t.cmd(args);
    c.env("HOME", home)
        .env_remove("FFIND_CACHE_DIR")
        .env_remove("XDG_CACHE_HOME");
    if let Some(x) = xdg_cache {
        c.env("XDG_CACHE_HOME", x);
    }
    Run::from(c.stdin(Stdio::null()).output_ok())
}

#[test]
fn nothing_is_made_in_a_home_that_is_another_users() {
    if !is_root() {
        eprintln!("skipped: a home of another user needs root to make");
        return;
    }
    let t = Tree::new();
    t.files(&["a/b"]);
    let home = t.root().parent().unwrap().join("user-home");
    fs::create_dir(&home).unwrap();
    std::os::unix::fs::chown(&home, Some(65534), Some(65534)).unwrap();
    let plain = t.run(&["--no-cache", "-u"]);
    let shown = home.display().to_string();
    for xdg in [None, Some(format!("{shown}/.cache"))] {
        let r = run_with_home(&t, &shown, xdg.as_deref(), &["--cache", "-u"]);
        assert_eq!(r.sorted(), plain.sorted());
        assert_eq!(r.code, 0);
        assert!(
            r.stderr.contains(&shown) && r.stderr.contains("not this user's"),
            "{}",
            r.stderr
        );
        assert!(
            !home.join(".cache").exists(),
            "{xdg:?}: root made a .cache in another user's home"
        );
    }
    // Whatever names the other user's place: $XDG_CACHE_HOME beside root's own home (su
    // without `-`, `sudo -E`), $FFIND_CACHE_DIR or --cache-dir; nothing is made there.
    let own = t.root().parent().unwrap().join("own-home");
    fs::create_dir(&own).unwrap();
    let own_shown = own.display().to_string();
    let cache = format!("{shown}/.cache");
    let memo = format!("{shown}/.cache/ffind");
    let by_xdg = run_with_home(&t, &own_shown, Some(&cache), &["--cache", "-u"]);
    let mut by_var = t.cmd(&["--cache", "-u"]);
    by_var.env("FFIND_CACHE_DIR", &memo);
    let by_var = Run::from(by_var.stdin(Stdio::null()).output_ok());
    let by_option = t.run(&["--cache", "--cache-dir", &memo, "-u"]);
    for (how, r) in [
        ("$XDG_CACHE_HOME", by_xdg),
        ("$FFIND_CACHE_DIR", by_var),
        ("--cache-dir", by_option),
    ] {
        assert_eq!(r.sorted(), plain.sorted(), "{how}");
        assert_eq!(r.code, 0, "{how}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{how}: {}", r.stderr);
        assert!(
            r.stderr.contains(&format!("{shown} is uid 65534's"))
                && r.stderr.contains("searching without the cache"),
            "{how}: {}",
            r.stderr
        );
        assert!(
            !home.join(".cache").exists(),
            "{how}: root made a .cache in another user's home"
        );
    }
    // The user's own home is used as before.
    let r = run_with_home(&t, own.to_str().unwrap(), None, &["--cache", "-u"]);
    assert_eq!(r.stderr, "");
    assert_eq!(memo_files(&own.join(".cache/ffind")).len(), 1);
}

#[test]
fn a_relative_home_or_cache_home_is_ignored() {
    let t = Tree::new();
    t.files(&["a/b"]);
    // No absolute home: no memo directory (and none made below the working directory), and
    // the search as without --cache, with one warning: from the command line and from the
    // config file alike (an unset home is searched the same way).
    let plain = t.run(&["--no-cache", "-u"]);
    let config = t.home().join(".config/ffind");
    fs::create_dir_all(&config).unwrap();
    for from_config in [false, true] {
        if from_config {
            fs::write(config.join("config"), "--cache\n").unwrap();
        }
        let args: &[&str] = if from_config {
            &["-u"]
        } else {
            &["--cache", "-u"]
        };
        let r = run_with_home(&t, "rel", None, args);
        assert_eq!(
            r.code, 0,
            "from the config file: {from_config}: {}",
            r.stderr
        );
        assert_eq!(r.sorted(), plain.sorted());
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
        assert!(r.stderr.contains("no cache directory"), "{}", r.stderr);
        assert!(!t.root().join("rel").exists());
    }
    fs::remove_file(config.join("config")).unwrap();
    // A relative $XDG_CACHE_HOME is ignored for the home's .cache (the XDG rule).
    let home = t.home().display().to_string();
    let r = run_with_home(&t, &home, Some("xdg-rel"), &["--cache", "-u"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!t.root().join("xdg-rel").exists());
    assert_eq!(memo_files(&t.home().join(".cache/ffind")).len(), 1);
}

#[test]
fn the_cache_limit_is_bounded_and_checked() {
    let t = Tree::new();
    t.files(&["a/b"]);
    let memo = t.home().join("memo");
    let m = memo.to_str().unwrap();
    assert_eq!(t.run(&["--cache", "--cache-dir", m, "-u"]).code, 0);
    assert_eq!(memo_files(&memo).len(), 1);
    // 2^44 MiB is 2^64 bytes: once it wrapped to 0 and removed every memo file.
    for bad in ["17592186044416", "18446744073709551615", "-1", "1.5", "x"] {
        let r = t.run(&["--cache", "--cache-dir", m, "--cache-limit", bad, "-u"]);
        assert_eq!(r.code, 2, "--cache-limit {bad}: {}", r.stderr);
        assert!(
            r.stderr.contains(bad) && r.stderr.contains("MiB from 0 to 17592186044415"),
            "--cache-limit {bad}: {}",
            r.stderr
        );
        assert_eq!(memo_files(&memo).len(), 1, "--cache-limit {bad}");
    }
    let r = t.run(&[
        "--cache",
        "--cache-dir",
        m,
        "--cache-limit",
        "17592186044415",
        "-u",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(memo_files(&memo).len(), 1);
}

#[test]
fn roots_inside_one_another_share_one_file_in_either_order() {
    for order in [["T/d0", "T"], ["T", "T/d0"]] {
        let t = Tree::new();
        t.files(&["T/d0/x", "T/d1/y"]);
        let memo = t.home().join("memo");
        let m = memo.to_str().unwrap();
        let r = t.run(&["--cache", "--cache-dir", m, "-u", ".", order[0], order[1]]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_eq!(memo_files(&memo).len(), 1, "{order:?}");
        // One clear of the inner root forgets it.
        let forgot = t.run(&["--cache-dir", m, "--cache-clear=T/d0"]);
        assert!(
            String::from_utf8_lossy(&forgot.stdout).contains("forgot"),
            "{order:?}: {}",
            String::from_utf8_lossy(&forgot.stdout)
        );
        let again = t.run(&["--cache-dir", m, "--cache-clear=T/d0"]);
        assert!(
            String::from_utf8_lossy(&again.stdout).contains("nothing remembered"),
            "{order:?}"
        );
    }
}

#[test]
fn every_cache_clear_is_done_and_management_options_do_not_mix() {
    let t = Tree::new();
    t.files(&["one/a", "two/b", "three/c"]);
    let memo = t.home().join("memo");
    let m = memo.to_str().unwrap();
    for d in ["one", "two", "three"] {
        t.run(&["--cache", "--cache-dir", m, "-u", ".", d]);
    }
    assert_eq!(memo_files(&memo).len(), 3);
    let r = t.run(&["--cache-dir", m, "--cache-clear=one", "--cache-clear=two"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = String::from_utf8_lossy(&r.stdout);
    assert!(out.contains("/one") && out.contains("/two"), "{out}");
    assert_eq!(memo_files(&memo).len(), 1, "both forgotten, three kept");
    for mixed in [
        &["--cache-list", "--cache-clear"][..],
        &["--cache-list", "--cache-clear=three"],
        &["--cache-clear", "--cache-check"],
        &["--cache-list", "--cache-check=."],
    ] {
        let mut args = vec!["--cache-dir", m];
        args.extend(mixed);
        let r = t.run(&args);
        assert_eq!(r.code, 2, "{mixed:?}: {}", r.stderr);
        assert!(r.stderr.contains("cannot be used with"), "{}", r.stderr);
        assert_eq!(memo_files(&memo).len(), 1, "{mixed:?} cleared");
    }
}

#[test]
fn a_path_error_of_the_management_options_names_the_path() {
    let t = Tree::new();
    let memo = t.home().join("memo");
    let m = memo.to_str().unwrap();
    for opt in ["--cache-clear", "--cache-check"] {
        let r = t.run(&["--cache-dir", m, &format!("{opt}=/nonexistent/x")]);
        assert_eq!(r.code, 1, "{opt}");
        assert!(
            r.stderr
                .contains("/nonexistent/x: No such file or directory"),
            "{opt}: {}",
            r.stderr
        );
        assert!(!r.stderr.contains("unknown file system"), "{}", r.stderr);
    }
}

#[test]
fn a_directory_in_a_memo_files_place() {
    let t = Tree::new();
    t.files(&["a/b"]);
    let memo = t.home().join("memo");
    let m = memo.to_str().unwrap();
    let plain = t.run(&["--no-cache", "-u"]);
    t.run(&["--cache", "--cache-dir", m, "-u"]);
    let file = memo_files(&memo).pop().unwrap();
    // An empty one is taken away and the file written again: not a word.
    fs::remove_file(&file).unwrap();
    fs::create_dir(&file).unwrap();
    let r = t.run(&["--cache", "--cache-dir", m, "-u"]);
    assert_eq!((r.sorted(), r.code), (plain.sorted(), 0));
    assert_eq!(r.stderr, "");
    assert!(fs::metadata(&file).unwrap().is_file());
    // One with something in it is left alone, and said once a search.
    fs::remove_file(&file).unwrap();
    fs::create_dir(&file).unwrap();
    fs::write(file.join("kept"), "").unwrap();
    for _ in 0..2 {
        let r = t.run(&["--cache", "--cache-dir", m, "-u"]);
        assert_eq!((r.sorted(), r.code), (plain.sorted(), 0));
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
        assert!(
            r.stderr.contains("a directory, not a memo file"),
            "{}",
            r.stderr
        );
        assert!(file.join("kept").exists());
    }
    let md = fs::metadata(&memo).unwrap();
    assert_eq!(md.mode() & 0o777, 0o700);
    let _ = fs::set_permissions(&memo, fs::Permissions::from_mode(0o700));
}

/// `--cache-check` agrees with `--cache`, which trusts tmpfs: there, a removal twice in a row
/// may leave the directory's times as they were (the removed file's coarse time), which the
/// memo's 3-second rule covers; and on the tests' own file system (ext4 on CI's machines).
#[test]
fn cache_check_agrees_with_cache_on_tmpfs_and_here() {
    let t = Tree::new();
    let here = t.run(&["--cache-check"]);
    assert_eq!(here.code, 0, "{}", String::from_utf8_lossy(&here.stdout));
    let shm = Path::new("/dev/shm");
    let on_tmpfs = fs::read_to_string("/proc/self/mounts").is_ok_and(|m| {
        m.lines().any(|l| {
            l.split(' ').nth(1) == Some("/dev/shm") && l.split(' ').nth(2) == Some("tmpfs")
        })
    });
    if !on_tmpfs || !shm.is_dir() {
        eprintln!("skipped the tmpfs half: /dev/shm is not a tmpfs here");
        return;
    }
    let r = t.run(&["--cache-check=/dev/shm"]);
    let out = String::from_utf8_lossy(&r.stdout);
    assert!(
        out.contains("tmpfs, a type whose directory times ffind trusts"),
        "{out}"
    );
    assert_eq!(
        r.code, 0,
        "--cache trusts tmpfs, --cache-check must agree: {out}"
    );
    assert!(out.contains("the memo (--cache) is safe here"), "{out}");
}

/// Subdirectories of a remembered tree searched one after another and removed (builds): the
/// memo's size follows the tree that exists, not the history (it grew by each build's records
/// before: 40 builds of 300 files took a memo of 302 B to 123 KB).
#[test]
fn the_memo_follows_the_tree_not_the_history_of_its_searches() {
    let t = Tree::new();
    t.files(&["T/src/a", "T/src/b"]);
    let memo = t.home().join("memo");
    let m = memo.to_str().unwrap();
    assert_eq!(
        t.run(&["--cache", "--cache-dir", m, "-u", ".", "T"]).code,
        0
    );
    let names: Vec<String> = (0..300).map(|i| format!("object-{i:03}.o")).collect();
    let mut sizes = Vec::new();
    for build in 0..40 {
        let dir = format!("T/build{build}");
        let files: Vec<String> = names.iter().map(|n| format!("{dir}/{n}")).collect();
        let refs: Vec<&str> = files.iter().map(String::as_str).collect();
        t.files(&refs);
        let r = t.run(&["--cache", "--cache-dir", m, "-u", ".", &dir]);
        assert_eq!(r.sorted().len(), 300, "build {build}: {}", r.stderr);
        assert_eq!(r.stderr, "", "build {build}");
        fs::remove_dir_all(t.root().join(&dir)).unwrap();
        let files = memo_files(&memo);
        assert_eq!(files.len(), 1, "build {build}: {files:?}");
        sizes.push(fs::metadata(&files[0]).unwrap().len());
    }
    let most = *sizes.iter().max().unwrap();
    assert!(
        most <= 3 * sizes[0] && sizes[39] <= 3 * sizes[0],
        "the memo grew with the searches: {sizes:?}"
    );
    // What is left still serves the tree as it is.
    let plain = t.run(&["--no-cache", "-u", ".", "T"]);
    let cached = t.run(&["--cache", "--cache-dir", m, "-u", ".", "T"]);
    assert_eq!(cached.sorted(), plain.sorted());
}

/// A tree and a directory inside it first searched at the same time, on an empty memo
/// directory: one file, whatever the timing (each search made one before), and it is the
/// tree's.
#[test]
fn a_tree_and_its_subdirectory_first_searched_at_once_keep_one_file() {
    let t = Tree::new();
    let files: Vec<String> = (0..40)
        .flat_map(|d| (0..25).map(move |f| format!("T/d{}/e{d}/f{f}", d % 4)))
        .collect();
    let refs: Vec<&str> = files.iter().map(String::as_str).collect();
    t.files(&refs);
    for attempt in 0..6 {
        let memo = t.home().join(format!("memo{attempt}"));
        let m = memo.to_str().unwrap();
        let mut searches: Vec<_> = [
            ["--cache", "--cache-dir", m, "-u", ".", "T"],
            ["--cache", "--cache-dir", m, "-u", ".", "T/d3"],
        ]
        .iter()
        .map(|args| {
            t.cmd(args)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
        for s in &mut searches {
            assert!(s.wait().unwrap().success());
        }
        let kept = memo_files(&memo);
        assert_eq!(kept.len(), 1, "attempt {attempt}: {kept:?}");
        let listed = t.run(&["--cache-list", "--cache-dir", m]);
        let listed = String::from_utf8_lossy(&listed.stdout);
        assert!(
            listed
                .lines()
                .next()
                .is_some_and(|l| l.ends_with("/root/T")),
            "attempt {attempt}: {listed}"
        );
        // The subdirectory is served by it.
        let plain = t.run(&["--no-cache", "-u", ".", "T/d3"]);
        let cached = t.run(&["--cache", "--cache-dir", m, "-u", ".", "T/d3"]);
        assert_eq!(cached.sorted(), plain.sorted());
        assert_eq!(memo_files(&memo).len(), 1, "attempt {attempt}");
    }
}

/// The readers' directories in `memo` (none when there is no `memo`).
pub fn reader_dirs(memo: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(memo)
        .map(|r| r.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.retain(|p| p.is_dir() && p.to_string_lossy().contains("/reader-"));
    v.sort();
    v
}

/// Whether any memo file in the directory `dir` holds the bytes `what`.
fn holds(dir: &Path, what: &str) -> bool {
    fs::read_dir(dir).unwrap().flatten().any(|e| {
        fs::read(e.path())
            .unwrap()
            .windows(what.len())
            .any(|w| w == what.as_bytes())
    })
}

/// Another reader of this user, as `setpriv` makes it: as root, other supplementary groups
/// (what a directory's group lets through changes with them); otherwise `no_new_privs` (as
/// under systemd's NoNewPrivileges= or in a container), all a user may change alone.
fn other_reader() -> &'static [&'static str] {
    if is_root() {
        &["--groups=4242"]
    } else {
        &["--no-new-privs"]
    }
}

/// `ffind --cache` in `t` over `dir` with the memo in `m`, as the reader `setpriv` makes
/// (nothing: this process's; [`other_reader`]'s: another).
fn search_as(t: &Tree, setpriv: &[&str], m: &str, dir: &str) -> Run {
    let r = run_as(
        t,
        setpriv,
        &bin(),
        &["--cache", "--cache-dir", m, "-u", ".", dir],
    );
    assert_eq!(r.code, 0, "{setpriv:?} {dir}: {}", r.stderr);
    r
}

/// Each reader's listings are in a directory of its own (`reader-READER`, 0700) inside the
/// memo directory, so that a sandbox may be handed its own alone: a second reader's listing
/// is not in the first reader's directory (they were files side by side, one directory for
/// every reader).
#[test]
fn each_reader_keeps_its_listings_in_a_directory_of_its_own() {
    if !need("setpriv") {
        return;
    }
    let t = Tree::new();
    t.files(&["first-only/alpha-entry", "second-only/beta-entry"]);
    let memo = t.home().join("memo");
    let m = memo.to_str().unwrap();
    search_as(&t, &[], m, "first-only");
    search_as(&t, other_reader(), m, "second-only");
    let dirs = reader_dirs(&memo);
    let everything: Vec<_> = fs::read_dir(&memo)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(dirs.len(), 2, "a directory per reader: {everything:?}");
    for dir in &dirs {
        let mode = fs::metadata(dir).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700, "{}", dir.display());
    }
    let first = dirs
        .iter()
        .find(|d| holds(d, "alpha-entry"))
        .expect("the first reader's listing");
    let second = dirs.iter().find(|d| *d != first).unwrap();
    assert!(
        !holds(first, "beta-entry"),
        "the second's listing in the first's"
    );
    assert!(holds(second, "beta-entry"));
    assert!(
        !holds(second, "alpha-entry"),
        "the first's listing in the second's"
    );
    assert_eq!(memo_files(&memo).len(), 2);
}

/// `--cache-list` lists the asking reader's searches, each once, and counts the other
/// readers' files (it printed every reader's file, the same search once per reader, and could
/// not say which was the asker's).
#[test]
fn the_memo_list_is_the_asking_readers_and_counts_the_others() {
    if !need("setpriv") {
        return;
    }
    let t = Tree::new();
    t.files(&["both/a", "mine/b", "theirs/c"]);
    let memo = t.home().join("memo");
    let m = memo.to_str().unwrap();
    let other = other_reader();
    search_as(&t, &[], m, "both");
    search_as(&t, &[], m, "mine");
    search_as(&t, other, m, "both");
    search_as(&t, other, m, "theirs");
    let root = fs::canonicalize(t.root()).unwrap();
    let shown = |d: &str| format!("  {}", root.join(d).display());
    for (reader, own, not_own) in [
        (&[][..], ["both", "mine"], "theirs"),
        (other, ["both", "theirs"], "mine"),
    ] {
        let r = run_as(&t, reader, &bin(), &["--cache-dir", m, "--cache-list"]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let text = String::from_utf8_lossy(&r.stdout).into_owned();
        for d in own {
            let lines = text.lines().filter(|l| l.ends_with(&shown(d))).count();
            assert_eq!(lines, 1, "{reader:?}: {d} listed {lines} times:\n{text}");
        }
        assert!(
            !text.contains(&shown(not_own)),
            "{reader:?}: another's:\n{text}"
        );
        assert!(text.contains("in 2 file(s) of this reader"), "{text}");
        assert!(text.contains("in 2 file(s) of 1 other reader(s)"), "{text}");
        assert!(text.contains("in 4 file(s) in "), "{text}");
    }
}

/// The files of the layouts before readers had directories of their own (`tree-HASH.ffc`,
/// `tree-HASH-READER.ffc` in the memo directory itself), which nothing reads, are removed when
/// a search writes the memo, or when `--cache-list` meets them, which says so (they stayed
/// until the size bound took them).
#[test]
fn files_of_the_layouts_before_are_removed_when_met() {
    let t = Tree::new();
    t.files(&["a/b"]);
    let memo = t.home().join("memo");
    let m = memo.to_str().unwrap();
    let old = [
        "tree-0123456789abcdef.ffc",
        "tree-0123456789abcdef-fedcba9876543210.ffc",
    ];
    let leave = |memo: &Path| {
        fs::create_dir_all(memo).unwrap();
        fs::set_permissions(memo, fs::Permissions::from_mode(0o700)).unwrap();
        for name in old {
            fs::write(memo.join(name), vec![7u8; 2048]).unwrap();
            fs::set_permissions(memo.join(name), fs::Permissions::from_mode(0o600)).unwrap();
        }
    };
    leave(&memo);
    let r = t.run(&["--cache", "--cache-dir", m, "-u"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stderr, "");
    for name in old {
        assert!(!memo.join(name).exists(), "{name} left by a search");
    }
    assert_eq!(memo_files(&memo).len(), 1);
    leave(&memo);
    let listed = t.run(&["--cache-dir", m, "--cache-list"]);
    let text = String::from_utf8_lossy(&listed.stdout).into_owned();
    for name in old {
        assert!(!memo.join(name).exists(), "{name} left by --cache-list");
    }
    assert!(
        text.contains("4.0 KiB  in 2 file(s) of an earlier layout of the memo"),
        "{text}"
    );
    assert!(text.contains("in 1 file(s) in "), "{text}");
}

/// `--cache-check=PATH` shows PATH as every path in a message shows: a terminal's control
/// sequence in it (here one that would retitle the window) is escaped.
#[test]
fn cache_check_escapes_the_path_it_names() {
    let t = Tree::new();
    let odd = t.root().join("cc\u{1b}]0;PWNED\u{7}");
    fs::create_dir(&odd).unwrap();
    let arg = format!("--cache-check={}", odd.display());
    let r = t.run(&["--cache-dir", t.home().join("memo").to_str().unwrap(), &arg]);
    let out = String::from_utf8_lossy(&r.stdout);
    assert!(!out.contains('\u{1b}') && !out.contains('\u{7}'), "{out:?}");
    assert!(out.contains("cc\\x1B]0;PWNED\\x07: "), "{out:?}");
}
