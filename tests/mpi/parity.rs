//! The same records, messages and exit status as one process, for every filter family: the
//! parity tests' hostile tree, repositories with ignore files at many levels, `-L` loops,
//! depth limits, `--prune`, `-E`, a tree deeper than `PATH_MAX`, unreadable directories.

use std::fs;

use crate::fixture::{hostile_tree, Tree, HOSTILE_FILTER_FAMILIES};
use crate::{agree, compare, LAUNCHES};

#[test]
fn the_hostile_tree_under_every_filter_family() {
    if crate::skip() {
        return;
    }
    let t = hostile_tree();
    let more: [&[&str]; 3] = [
        &["-u", "--prune", "d0"],
        &["-u", "-E", "sub", "-E", "a/b"],
        &["-u", "-e", "txt", ".", "a", "wide"],
    ];
    for args in HOSTILE_FILTER_FAMILIES.into_iter().chain(more) {
        agree(&t, args);
    }
}

/// Writes a file below the fake home (`$HOME`; `$XDG_CONFIG_HOME` is its `.config`).
fn home_file(t: &Tree, rel: &str, contents: &str) {
    let p = t.home().join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, contents).unwrap();
}

/// A repository with ignore files at every level of a deep chain, wide directories to
/// share, a nested repository with its own rules, `.git/info/exclude`, git's global
/// excludes (a different file for the nested repository, through `includeIf`), `.ignore`
/// and `.fdignore`, and a directory above the search paths with rules of its own.
fn repositories() -> Option<Tree> {
    let t = Tree::new();
    if !t.git_init("repo") || !t.git_init("repo/l1/l2/nested") {
        eprintln!("skipped: git is missing");
        return None;
    }
    t.write(".gitignore", "*.above\n")
        .write("repo/.gitignore", "/top-only\nbuild/\n*.l0\n")
        .write("repo/.git/info/exclude", "*.excl\n")
        .write("repo/l1/l2/nested/.gitignore", "*.n\n!keep.n\n")
        .write("repo/l1/l2/nested/.git/info/exclude", "*.nexcl\n")
        .write("repo/l1/.ignore", "*.dot\n")
        .write("repo/l1/l2/l3/.fdignore", "*.fd\n");
    let mut dir = String::from("repo");
    for level in 0..8 {
        if level > 0 {
            dir.push_str(&format!("/l{level}"));
            t.write(
                format!("{dir}/.gitignore"),
                &format!("*.l{level}\n!keep.l{level}\n/anchored{level}\n**/deep{level}\n"),
            );
        }
        for name in [
            "top-only".to_string(),
            format!("x.l{level}"),
            format!("keep.l{level}"),
            format!("x.l{}", level + 1),
            format!("anchored{level}"),
            format!("sub/anchored{level}"),
            format!("sub/deep{level}/inside"),
            "x.excl".into(),
            "x.nexcl".into(),
            "x.dot".into(),
            "x.fd".into(),
            "x.n".into(),
            "keep.n".into(),
            "x.glob".into(),
            "x.above".into(),
            "build/out".into(),
            ".hidden".into(),
        ] {
            t.files(&[&format!("{dir}/{name}")]);
        }
        for wide in 0..6 {
            t.files(&[
                &format!("{dir}/w{wide}/f.l{level}"),
                &format!("{dir}/w{wide}/g"),
            ]);
        }
        let nested = format!("{dir}/l1/l2/nested");
        if level == 0 {
            for name in [
                "x.n", "keep.n", "x.nexcl", "x.glob", "x.nglob", "w/x.n", "w/keep.n",
            ] {
                t.files(&[&format!("{nested}/{name}")]);
            }
        }
    }
    t.raw_file("repo/l1/l2", b"new\nline.l2")
        .raw_file("repo/l1/l2", b"\xff.l9");
    // git's global excludes: one file, and another for the nested repository's branch.
    home_file(&t, ".config/git/ignore", "*.glob\n/l1/l2/l3/anchored3\n");
    home_file(&t, "nglob", "*.nglob\n");
    home_file(&t, "conf/nglob", "[core]\n\texcludesFile = ~/nglob\n");
    home_file(
        &t,
        ".gitconfig",
        "[includeIf \"onbranch:dev\"]\n\tpath = conf/nglob\n",
    );
    fs::write(
        t.root().join("repo/l1/l2/nested/.git/HEAD"),
        "ref: refs/heads/dev\n",
    )
    .unwrap();
    Some(t)
}

#[test]
fn repositories_with_ignore_files_at_every_level() {
    if crate::skip() {
        return;
    }
    let Some(t) = repositories() else {
        return;
    };
    for args in [
        &[][..],
        &["-H"],
        &["-I"],
        &["--no-ignore-vcs"],
        &["--no-require-git"],
        &["-E", "*.l3", "-E", "w2/"],
        &["-d", "4"],
        &["--min-depth", "6", "-H"],
        &["--prune", "^w"],
        &["-t", "f", "-e", "n"],
        // Search paths deep inside: the rules above them are read by every process.
        &[".", "repo/l1/l2/l3"],
        &["--no-ignore-parent", ".", "repo/l1/l2/l3/l4"],
        &["-H", "--", ".", "repo/l1/l2/nested/w"],
    ] {
        let one = agree(&t, args);
        assert!(!one.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn links_followed_with_loops_at_every_depth() {
    if crate::skip() {
        return;
    }
    let t = Tree::new();
    let mut dir = String::from("top");
    for level in 0..6 {
        t.files(&[&format!("{dir}/f{level}")]);
        t.link(
            &"../".repeat(level + 1)[..3 * (level + 1) - 1],
            &format!("{dir}/up"),
        );
        t.link(".", &format!("{dir}/self"));
        t.link("/nonexistent", &format!("{dir}/dangling"));
        for wide in 0..4 {
            t.files(&[&format!("{dir}/w{wide}/x")]);
            t.link(
                &format!("../w{}", (wide + 1) % 4),
                &format!("{dir}/w{wide}/next"),
            );
        }
        dir.push_str(&format!("/d{level}"));
    }
    t.link("top/d0/d1", "into")
        .link("loop-b", "loop-a")
        .link("loop-a", "loop-b");
    for args in [
        &["-L"][..],
        &["-L", "-H", "-d", "4"],
        &["-L", "--prune", "^d"],
        &["-L", "-t", "l"],
        &["-L", "-E", "w1"],
        &["-L", "--min-depth", "5", "-t", "d"],
    ] {
        let one = agree(&t, args);
        assert_eq!(one.code, 1, "{args:?}: loops are reported: {}", one.stderr);
    }
}

/// `levels` nested directories of 40-byte names below `top`, each with three siblings holding
/// two files and every tenth with a `.gitignore`, made with mkdirat/openat: the test itself
/// never uses a path longer than PATH_MAX. The length of the deepest directory's path below
/// `top`.
fn make_deep(top: &std::path::Path, levels: usize) -> usize {
    use std::ffi::CString;
    let c = |s: &str| CString::new(s).unwrap();
    let top = c(top.to_str().unwrap());
    // SAFETY: plain system calls on NUL-terminated names and on descriptors this function
    // opens and closes.
    unsafe {
        let write = |dir: i32, name: &str, text: &str| {
            let name = c(name);
            let f = libc::openat(dir, name.as_ptr(), libc::O_CREAT | libc::O_WRONLY, 0o644);
            assert!(f >= 0);
            assert_eq!(
                libc::write(f, text.as_ptr().cast(), text.len()),
                text.len() as isize
            );
            libc::close(f);
        };
        let mkdir = |dir: i32, name: &str| {
            let name = c(name);
            assert_eq!(libc::mkdirat(dir, name.as_ptr(), 0o755), 0);
            let fd = libc::openat(dir, name.as_ptr(), libc::O_RDONLY | libc::O_DIRECTORY);
            assert!(fd >= 0);
            fd
        };
        let mut fd = libc::open(top.as_ptr(), libc::O_RDONLY | libc::O_DIRECTORY);
        assert!(fd >= 0);
        for level in 0..levels {
            let next = mkdir(fd, &format!("{level:03}-{}", "d".repeat(36)));
            libc::close(fd);
            fd = next;
            if level % 10 == 0 {
                write(fd, ".gitignore", &format!("*.i{level}\n"));
            }
            for side in 0..3 {
                let s = mkdir(fd, &format!("side{side}"));
                write(s, &format!("f.i{level}"), "");
                write(s, "g", "");
                libc::close(s);
            }
        }
        libc::close(fd);
    }
    levels * 41 - 1
}

#[test]
fn a_tree_deeper_than_path_max_is_shared_and_rebuilt_below_it() {
    if crate::skip() {
        return;
    }
    let t = Tree::new();
    // 120 levels of 40-byte names: paths of 4,900 bytes, past PATH_MAX, each with siblings.
    assert!(make_deep(&t.root(), 120) > 4096);
    assert!(t.git_init("."), "git is needed");
    for args in [&["-u"][..], &[], &["-d", "100", "-t", "f"]] {
        let one = agree(&t, args);
        assert!(
            one.stdout.len() > 120 * 4096,
            "{args:?}: the deepest paths are printed"
        );
    }
}

#[test]
fn unreadable_directories_are_reported_once_each() {
    if crate::skip() {
        return;
    }
    let t = hostile_tree();
    t.files(&["deep/a/b/c/x", "deep/a/b/locked2/y"]);
    t.chmod("locked", 0o000).chmod("deep/a/b/locked2", 0o000);
    let Some(one) = t.run_unprivileged(&["-u", "-0"]) else {
        t.chmod("locked", 0o755).chmod("deep/a/b/locked2", 0o755);
        return;
    };
    let want = one.sorted_by(0);
    assert_eq!(one.code, 1);
    assert_eq!(one.stderr.lines().count(), 2, "{}", one.stderr);
    for (n, share_all) in LAUNCHES {
        let mut words = crate::mpirun(n, share_all);
        // As nobody, mpirun needs no leave to run as root.
        words.retain(|w| w != "--allow-run-as-root");
        let script = format!("exec {} \"$FFIND\" --mpi -u -0", words.join(" "));
        let got = t.run_unprivileged_script(&script).unwrap();
        compare(&format!("{script} (n={n})"), &one, &want, &got);
    }
    t.chmod("locked", 0o755).chmod("deep/a/b/locked2", 0o755);
}
