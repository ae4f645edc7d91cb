//! Ignore files that cannot hang or blind ffind: a FIFO, a device or a link to
//! `/dev/zero` under an ignore file's name, in the tree, above the search path or as a global
//! file, is reported once (`ffind: PATH: not a regular file, ignored`), skipped, and the walk
//! goes on with exit code 1; so is one larger than 16 MiB. An unreadable one is reported the
//! same way by every method. A byte-order mark and CRLF line endings are read as git reads
//! them. Every run is killed after 40 s, so a hang fails the test instead of blocking it.
//!
//! On Windows: the size limits, a byte-order mark, CRLF line ends (Windows' own) and the
//! glob engine's bound; FIFOs, devices, links, mode bits and names with a CR are Unix's.

#[cfg(unix)]
use std::ffi::CString;
use std::fs;
#[cfg(unix)]
use std::os::unix::ffi::OsStrExt;
#[cfg(unix)]
use std::os::unix::fs::PermissionsExt;
#[cfg(unix)]
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::fd_parity::assert_listing;
#[cfg(unix)]
use crate::fixture::{clean_env, is_root};
use crate::fixture::{never_started, started_anew, Run, Tree};
use crate::methods::methods;

/// How long a run may take before it counts as hung: a real hang never ends, and a debug build
/// reading a 16 MiB ignore file on a loaded 2-core machine took over 10 s.
const HANG: Duration = Duration::from_secs(40);

/// Runs `cmd` with its output in files (no pipe to fill up), killing it after [`HANG`]; a
/// start Wine failed is tried again ([`started_anew`]).
pub fn bounded(mut cmd: Command) -> Run {
    let shown = format!("{cmd:?}");
    started_anew(
        &shown,
        || bounded_once(&mut cmd),
        |run| never_started(Some(run.code), &run.stdout, run.stderr.as_bytes()),
    )
}

fn bounded_once(cmd: &mut Command) -> std::io::Result<Run> {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let err = dir.path().join("err");
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(fs::File::create(&out).unwrap())
        .stderr(fs::File::create(&err).unwrap())
        .spawn()?;
    let status = crate::fixture::wait_or_hang(&mut child, HANG, &format!("{cmd:?}"));
    Ok(Run {
        stdout: fs::read(&out).unwrap(),
        stderr: String::from_utf8_lossy(&fs::read(&err).unwrap()).into_owned(),
        code: status.code().unwrap_or(-1),
    })
}

#[cfg(unix)]
pub fn mkfifo(path: &Path) {
    let c = CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "{path:?}");
}

/// Runs ffind with `args` under every method, each bounded, and checks the listing, the exit
/// code and the whole of stderr.
fn assert_each_method(t: &Tree, args: &[&str], listing: &[&str], code: i32, stderr: &str) {
    for method in methods() {
        let mut full = vec!["--method", method];
        full.extend_from_slice(args);
        let run = bounded(t.cmd(&full));
        assert_listing(&run, &full, listing);
        assert_eq!(run.code, code, "{full:?}: stderr {:?}", run.stderr);
        assert_eq!(run.stderr, stderr, "{full:?}");
    }
}

#[cfg(unix)]
/// A repository-like tree (a `.git` directory is all ffind needs) with a `.gitignore` that
/// must keep working next to the hostile file.
fn repo() -> Tree {
    let t = Tree::new();
    t.dirs(&[".git"])
        .files(&["keep", "a.o", "sub/inner"])
        .write("sub/.gitignore", "*.o\n")
        .files(&["sub/b.o"]);
    t
}

#[cfg(unix)]
const NAMES: [&str; 4] = [".gitignore", ".ignore", ".fdignore", ".ffindignore"];

#[cfg(unix)]
#[test]
fn a_fifo_under_an_ignore_files_name_is_skipped() {
    for name in NAMES {
        let t = repo();
        mkfifo(&t.root().join(name));
        assert_each_method(
            &t,
            &[],
            &["keep", "a.o", "sub", "sub/inner"],
            1,
            &format!("ffind: {name}: not a regular file, ignored\n"),
        );
    }
}

#[cfg(unix)]
#[test]
fn a_link_to_dev_zero_under_an_ignore_files_name_is_skipped() {
    for name in NAMES {
        let t = repo();
        let mut listing = vec!["keep", "a.o", "sub", "sub/inner"];
        if name == ".gitignore" {
            // The link takes the place of sub/.gitignore, whose rule is then gone.
            fs::remove_file(t.root().join("sub/.gitignore")).unwrap();
            listing.push("sub/b.o");
        }
        t.link("/dev/zero", &format!("sub/{name}"));
        assert_each_method(
            &t,
            &[],
            &listing,
            1,
            &format!("ffind: sub/{name}: not a regular file, ignored\n"),
        );
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_named_git_is_not_read_as_a_link_file() {
    let t = Tree::new();
    t.files(&["keep", "a.o"]).write(".gitignore", "*.o\n");
    mkfifo(&t.root().join(".git"));
    // The FIFO still marks the repository, so the .gitignore applies.
    assert_each_method(
        &t,
        &[],
        &["keep"],
        1,
        "ffind: .git: not a regular file, ignored\n",
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_as_info_exclude_is_skipped() {
    let t = repo();
    t.dirs(&[".git/info"]);
    mkfifo(&t.root().join(".git/info/exclude"));
    assert_each_method(
        &t,
        &[],
        &["keep", "a.o", "sub", "sub/inner"],
        1,
        "ffind: .git/info/exclude: not a regular file, ignored\n",
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_above_the_search_path_is_skipped() {
    let t = Tree::new();
    t.files(&["sub/inner", "sub/x.o"])
        .write("sub/.ignore", "*.o\n");
    mkfifo(&t.root().join(".ignore"));
    // The directories above a search path are named by their absolute paths.
    let above = t.root().join(".ignore");
    let message = format!("ffind: {}: not a regular file, ignored\n", above.display());
    assert_each_method(&t, &[".", "sub"], &["sub/inner"], 1, &message);
    // Said once, however many search paths lie below it.
    t.files(&["other/x"]);
    assert_each_method(
        &t,
        &[".", "sub", "other"],
        &["sub/inner", "other/x"],
        1,
        &message,
    );
}

#[cfg(unix)]
#[test]
fn a_device_as_a_global_ignore_file_is_skipped() {
    let t = Tree::new();
    t.files(&["keep"]);
    for global in ["ffind/ignore", "git/ignore"] {
        let path = t.home().join(".config").join(global);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
        assert_each_method(
            &t,
            &[],
            &["keep"],
            1,
            &format!("ffind: {}: not a regular file, ignored\n", path.display()),
        );
        fs::remove_file(&path).unwrap();
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_as_gits_config_neither_hangs_nor_hides_the_excludes_after_it() {
    // git's config files are the user's, but a FIFO among them must not hang every search:
    // it is passed over like a missing one, and the next file's core.excludesFile counts.
    let t = Tree::new();
    t.dirs(&[".git"]).files(&["keep", "x.swp", "y.bak"]);
    let home = t.home();
    fs::create_dir_all(home.join(".config/git")).unwrap();
    mkfifo(&home.join(".gitconfig"));
    let excludes = home.join("my-excludes");
    fs::write(&excludes, "*.swp\n").unwrap();
    fs::write(
        home.join(".config/git/config"),
        format!("[core]\n\texcludesFile = \"{}\"\n", excludes.display()),
    )
    .unwrap();
    assert_each_method(&t, &["-t", "f"], &["keep", "y.bak"], 0, "");
    // Nor one named by an include, which is passed over like a missing file.
    mkfifo(&home.join("included"));
    fs::write(
        home.join(".config/git/config"),
        format!(
            "[include]\n\tpath = ~/included\n[core]\n\texcludesFile = \"{}\"\n",
            excludes.display()
        ),
    )
    .unwrap();
    assert_each_method(&t, &["-t", "f"], &["keep", "y.bak"], 0, "");
    // Without a setting anywhere, $XDG_CONFIG_HOME/git/ignore.
    fs::remove_file(home.join(".config/git/config")).unwrap();
    fs::write(home.join(".config/git/ignore"), "*.bak\n").unwrap();
    assert_each_method(&t, &["-t", "f"], &["keep", "x.swp"], 0, "");
}

#[test]
fn an_ignore_file_over_the_size_limit_is_skipped() {
    let t = Tree::new();
    t.files(&["keep", "x.o"]);
    let mut big = b"*.o\n".to_vec();
    big.resize((16 << 20) + 1, b'\n');
    fs::write(t.root().join(".ignore"), &big).unwrap();
    assert_each_method(
        &t,
        &[],
        &["keep", "x.o"],
        1,
        "ffind: .ignore: larger than 16 MiB, ignored\n",
    );
    // Exactly at the limit it is read.
    big.truncate(16 << 20);
    fs::write(t.root().join(".ignore"), &big).unwrap();
    assert_each_method(&t, &[], &["keep"], 0, "");
}

#[cfg(unix)]
#[test]
fn ignore_file_option_takes_a_pipe_but_refuses_a_device() {
    let t = Tree::new();
    t.files(&["keep", "x.o"]);
    // A pipe the user hands over (`<(...)`) is read to its end.
    let run = bounded({
        let mut c = Command::new("bash");
        c.args([
            "-c",
            "exec \"$FFIND\" --ignore-file <(printf '*.o\\n') --method serial",
        ])
        .current_dir(t.root())
        .env("FFIND", crate::fixture::bin());
        clean_env(&mut c, &t.home());
        c
    });
    assert_listing(&run, &["--ignore-file <(...)"], &["keep"]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    // A FIFO with no writer reads as empty at once.
    mkfifo(&t.root().join("fifo"));
    let run = bounded(t.cmd(&["--ignore-file", "fifo", "-t", "f"]));
    assert_listing(&run, &["--ignore-file fifo"], &["keep", "x.o"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = bounded(t.cmd(&["--ignore-file", "/dev/zero"]));
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "ffind: the ignore file '/dev/zero': not a regular file\n"
    );
}

#[cfg(unix)]
#[test]
fn an_unreadable_ignore_file_is_reported_by_every_method() {
    let t = Tree::new();
    t.files(&["keep", "x.o"]).write(".ignore", "*.o\n");
    t.chmod(".ignore", 0o000);
    for method in methods() {
        let args = ["--method", method];
        let run = if is_root() {
            match t.run_unprivileged(&args) {
                Some(run) => run,
                None => {
                    eprintln!("skipped: root without setpriv cannot test permissions");
                    return;
                }
            }
        } else {
            bounded(t.cmd(&args))
        };
        assert_listing(&run, &args, &["keep", "x.o"]);
        assert_eq!(run.code, 1, "{method}");
        assert_eq!(
            run.stderr, "ffind: .ignore: Permission denied\n",
            "{method}"
        );
    }
}

#[cfg(unix)]
#[test]
fn an_ignore_file_in_a_directory_that_cannot_be_searched_is_reported_by_every_method() {
    // r--: the directory's listing shows its .ignore, which cannot be opened. The walker-crate
    // methods, which read ignore files by path, learn from the listing that it is there.
    let t = Tree::new();
    t.files(&["keep", "ro/x.o", "ro/y"])
        .write("ro/.ignore", "*.o\n");
    t.chmod("ro", 0o555 & !0o111);
    for method in methods() {
        let args = ["--method", method];
        let Some(run) = (if is_root() {
            t.run_unprivileged(&args)
        } else {
            Some(bounded(t.cmd(&args)))
        }) else {
            eprintln!("skipped: root without setpriv cannot test permissions");
            return;
        };
        assert_listing(&run, &args, &["keep", "ro", "ro/x.o", "ro/y"]);
        assert_eq!(run.code, 1, "{method}");
        assert_eq!(
            run.stderr, "ffind: ro/.ignore: Permission denied\n",
            "{method}"
        );
    }
    t.chmod("ro", 0o755);
}

#[test]
fn a_byte_order_mark_does_not_eat_the_first_rule() {
    let t = Tree::new();
    t.files(&["keep", "x.log", "y.tmp"])
        .write(".ignore", "\u{feff}*.log\n*.tmp\n");
    assert_each_method(&t, &[], &["keep"], 0, "");
}

#[cfg(unix)]
#[test]
fn crlf_line_endings_match_as_in_git() {
    // git (2.47) matches "a.o" and "foo" against "*.o\r\nfoo\r\n", not "foo\r".
    let t = Tree::new();
    t.files(&["a.o", "foo", "foo\r", "keep"])
        .write(".gitignore", "*.o\r\nfoo\r\n");
    if t.git_init(".") {
        for (name, ignored) in [
            ("a.o", true),
            ("foo", true),
            ("foo\r", false),
            ("keep", false),
        ] {
            let status = Command::new("git")
                .args(["check-ignore", "-q", "--", name])
                .current_dir(t.root())
                .env("HOME", t.home())
                .status()
                .unwrap();
            assert_eq!(status.success(), ignored, "git check-ignore {name:?}");
        }
    } else {
        eprintln!("git is missing: the rules are checked against ffind alone");
        t.dirs(&[".git"]);
    }
    assert_each_method(&t, &[], &["foo\r", "keep"], 0, "");
}

/// CRLF line ends, as Windows' editors write them, end a rule where the LF does (the CR is
/// dropped): "*.o\r\nfoo\r\n" ignores "a.o" and "foo" (git 2.47 does; with a name holding a
/// CR, which Windows refuses, in `crlf_line_endings_match_as_in_git`).
#[test]
fn crlf_line_endings_end_the_rule_before_the_cr() {
    let t = Tree::new();
    t.files(&["a.o", "foo", "keep"])
        .write(".gitignore", "*.o\r\nfoo\r\n")
        .dirs(&[".git"]);
    assert_each_method(&t, &[], &["keep"], 0, "");
    // An --ignore-file's too, and a last line without its LF.
    t.write(".gitignore", "*.o\r\n")
        .write("list", "foo\r\nlist\r");
    assert_each_method(&t, &["--ignore-file", "list"], &["keep"], 0, "");
}

#[cfg(unix)]
/// Runs ffind with `args` under every method as a user permissions apply to (nobody, when the
/// tests run as root), checking the listing, the exit code and the whole of stderr. `false`
/// when permissions cannot be tested here (root without setpriv): the caller skips.
fn each_method_unprivileged(
    t: &Tree,
    args: &[&str],
    listing: &[&str],
    code: i32,
    stderr: &str,
) -> bool {
    for method in methods() {
        let mut full = vec!["--method", method];
        full.extend_from_slice(args);
        let run = if is_root() {
            match t.run_unprivileged(&full) {
                Some(run) => run,
                None => return false,
            }
        } else {
            bounded(t.cmd(&full))
        };
        assert_listing(&run, &full, listing);
        assert_eq!(run.code, code, "{full:?}: stderr {:?}", run.stderr);
        assert_eq!(run.stderr, stderr, "{full:?}");
    }
    true
}

#[cfg(unix)]
#[test]
fn a_git_file_whose_gitdir_name_is_too_long_is_reported_once_by_every_method() {
    // The `.git` file of a worktree or submodule names its git directory; one whose name has a
    // component over 255 bytes leads nowhere. Its files are looked for (`commondir`, then
    // `info/exclude`) like any ignore file: what is there but cannot be read is said once,
    // under the path that was tried.
    let t = Tree::new();
    let gitdir = format!("/{}/git", "x".repeat(300));
    t.files(&["keep", "sub/f"])
        .write("sub/.git", &format!("gitdir: {gitdir}\n"));
    assert_each_method(
        &t,
        &[],
        &["keep", "sub", "sub/f"],
        1,
        &format!(
            "ffind: {gitdir}/commondir: {}\n",
            crate::fixture::os_text(libc::ENAMETOOLONG)
        ),
    );
    // A relative one is shown from the directory holding the `.git` file, with `..` or
    // without (walkdir, jwalk and ignore took the name's first component for a
    // directory they may not search, and said nothing).
    let gitdir = "z".repeat(300);
    t.write("sub/.git", &format!("gitdir: {gitdir}"));
    assert_each_method(
        &t,
        &[],
        &["keep", "sub", "sub/f"],
        1,
        &format!(
            "ffind: sub/{gitdir}/commondir: {}\n",
            crate::fixture::os_text(libc::ENAMETOOLONG)
        ),
    );
    let gitdir = format!("../{}", "y".repeat(300));
    t.write("sub/.git", &format!("gitdir: {gitdir}\n"));
    assert_each_method(
        &t,
        &[],
        &["keep", "sub", "sub/f"],
        1,
        &format!(
            "ffind: sub/{gitdir}/commondir: {}\n",
            crate::fixture::os_text(libc::ENAMETOOLONG)
        ),
    );
}

#[cfg(unix)]
#[test]
fn a_git_file_whose_gitdir_cannot_be_read_is_reported_once_by_every_method() {
    let t = Tree::new();
    let gitdir = t.home().join("gitdir");
    fs::create_dir_all(gitdir.join("info")).unwrap();
    fs::write(gitdir.join("info/exclude"), "*.o\n").unwrap();
    t.files(&["sub/f", "sub/x.o"])
        .write("sub/.git", &format!("gitdir: {}\n", gitdir.display()));
    fs::set_permissions(&gitdir, fs::Permissions::from_mode(0o000)).unwrap();
    let tested = each_method_unprivileged(
        &t,
        &[],
        &["sub", "sub/f", "sub/x.o"],
        1,
        &format!("ffind: {}/commondir: Permission denied\n", gitdir.display()),
    );
    fs::set_permissions(&gitdir, fs::Permissions::from_mode(0o755)).unwrap();
    if !tested {
        eprintln!("skipped: root without setpriv cannot test permissions");
    }
}

#[cfg(unix)]
#[test]
fn an_ignore_file_in_a_directory_that_cannot_be_listed_is_not_reported() {
    // --x: the directory can be searched, so its unreadable .fdignore can be tried by path,
    // but not listed, so nothing it holds can be judged: the directory alone is reported,
    // by every method, as the own-reader methods (which never get to its files) report it.
    let t = Tree::new();
    t.files(&["d/f"]).write("d/.fdignore", "f\n");
    t.chmod("d/.fdignore", 0o000).chmod("d", 0o111);
    let tested = each_method_unprivileged(&t, &["-H"], &["d"], 1, "ffind: d: Permission denied\n");
    t.chmod("d", 0o755);
    if !tested {
        eprintln!("skipped: root without setpriv cannot test permissions");
    }
}

/// The untracked files git does not ignore in the tree (`git ls-files -o --exclude-standard`),
/// hidden ones left out as ffind leaves them out; `None` without git.
#[cfg(unix)]
fn kept_by_git(t: &Tree) -> Option<Vec<String>> {
    let out = Command::new("git")
        .args(["ls-files", "-z", "-o", "--exclude-standard"])
        .current_dir(t.root())
        .env("HOME", t.home())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let mut kept: Vec<String> = out
        .stdout
        .split(|&b| b == 0)
        .filter(|p| !p.is_empty() && !p.split(|&b| b == b'/').any(|c| c.starts_with(b".")))
        .map(|p| String::from_utf8(p.to_vec()).unwrap())
        .collect();
    kept.sort();
    Some(kept)
}

#[cfg(unix)]
#[test]
fn a_carriage_return_ends_a_rule_before_a_line_feed_or_the_end_of_the_file() {
    // git (2.47) splits an ignore file on LF and drops one CR before it, and before the end of
    // a file whose last line has no LF (`x1\r\nx2\r` ignores x2). A CR anywhere else
    // is part of the rule; spaces before a dropped CR are trimmed, an escaped one is kept; a
    // byte-order mark goes first.
    let cases: [(&str, &str, &[&str]); 9] = [
        ("a", "x1\r\nx2\r", &["x1", "x2", "x2\r"]),
        ("b", "x\r  ", &["x", "x\r", "x\r  "]),
        ("c", "x  \r", &["x", "x  "]),
        ("d", "x\\ \r", &["x", "x "]),
        ("e", "x\r\r\n", &["x", "x\r"]),
        ("f", "a\rb\n", &["a", "a\rb", "b"]),
        ("g", "\u{feff}x\r", &["x", "\u{feff}x"]),
        ("h", "\r", &["\r", "x"]),
        ("i", "#x\r\n!#y\r", &["#x", "x", "#y"]),
    ];
    let t = Tree::new();
    for (dir, rules, files) in cases {
        t.write(format!("{dir}/.gitignore"), rules);
        for f in files {
            t.files(&[&format!("{dir}/{f}")]);
        }
    }
    let kept = [
        "a/x2\r",
        "b/x",
        "b/x\r  ",
        "c/x  ",
        "d/x",
        "e/x",
        "f/a",
        "f/b",
        "g/\u{feff}x",
        "h/\r",
        "h/x",
        "i/#x",
        "i/x",
        "i/#y",
    ];
    if t.git_init(".") {
        let mut want: Vec<String> = kept.iter().map(|s| s.to_string()).collect();
        want.sort();
        assert_eq!(kept_by_git(&t), Some(want), "git disagrees with the test");
    } else {
        eprintln!("git is missing: the rules are checked against ffind alone");
        t.dirs(&[".git"]);
    }
    assert_each_method(&t, &["-t", "f"], &kept, 0, "");
}

#[cfg(unix)]
#[test]
fn a_carriage_return_at_the_end_of_an_ignore_file_option_ends_its_last_rule() {
    let t = Tree::new();
    t.files(&["x1", "x2", "x2\r"]).write("list", "x1\r\nx2\r");
    assert_each_method(&t, &["--ignore-file", "list"], &["list", "x2\r"], 0, "");
}

#[test]
fn an_ignore_file_of_many_rules_is_read_in_linear_time() {
    // 70,000 rules `aaaaaN*` (0.8 MB) in a .gitignore took 12 s in a release build,
    // as the screen looked each new literal head up in the list of those before it. Linear,
    // a debug build reads them in a fraction of a second; quadratic, it took minutes, far past
    // the 40 s after which a run counts as hung. (The cost of each class of rules is counted
    // without a clock by the unit tests in src/filter/rules/tests.rs; this is the hang guard for the
    // whole program.) The results are checked too: a screen that stops keeping heads apart
    // must still let through every entry a rule decides.
    let mut rules: String = (0..70_000).map(|i| format!("aaaaa{i}*\n")).collect();
    rules.push_str("!aaaaa5x\n");
    let t = Tree::new();
    t.dirs(&[".git"])
        .files(&[
            "keep",
            "aaaaa69999.c",
            "aaaab",
            "sub/aaaaa5x",
            "sub/aaaaa3",
            "sub/b",
        ])
        .write(".gitignore", &rules);
    let below = ["sub/aaaaa5x", "sub/b"];
    assert_each_method(
        &t,
        &[],
        &[&["keep", "aaaab", "sub"][..], &below].concat(),
        0,
        "",
    );
    // The same file above the search path, read by path (by an own-reader method and a
    // walker-crate one: the in-tree runs above cover every method).
    for method in ["serial", "ignore"] {
        let args = ["--method", method, ".", "sub"];
        let run = bounded(t.cmd(&args));
        assert_listing(&run, &args, &below);
        assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{args:?}");
    }
}

#[cfg(unix)]
#[test]
fn the_rules_of_an_ignore_file_take_memory_in_proportion_to_it() {
    if let Some(emulated) = crate::fixture::emulated() {
        eprintln!("{emulated}: its translation buffers take memory of their own under the limit");
        return;
    }
    // What ffind builds from an ignore file must stay within a small multiple of
    // the file, which is at most 16 MiB. A rule ending in a class of 8 bytes
    // (`*17[abcdefgh]`) was copied under each of them, with a 256-byte table per copy: 30,000
    // such rules (0.5 MB) took 128 MB. Each run here may use 64 MiB of data (`ulimit -d`), five times
    // what one takes now.
    let rules: String = (0..30_000).map(|i| format!("*{i}[abcdefgh]\n")).collect();
    let t = Tree::new();
    t.dirs(&[".git"])
        .files(&["keep", "x17h", "x29999h", "x29999i"])
        .write(".gitignore", &rules);
    for method in methods() {
        let run = t.run_script(&format!(
            "ulimit -d 65536 && exec \"$FFIND\" --method {method}"
        ));
        assert_listing(&run, &[method], &["keep", "x29999i"]);
        assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{method}");
    }
}

#[test]
fn rules_past_the_glob_engines_bound_are_said_not_silently_dropped() {
    // A file may hold at most 4,096 rules that only a glob engine matches ({a,b}, [!a]): the
    // rest are not applied (millions fit in 16 MiB), and that is said, once, with
    // exit code 1, by every method; the first 4,096 and the fast rules still apply.
    let t = Tree::new();
    let mut rules = String::from("fast\n");
    for i in 0..5000 {
        rules.push_str(&format!("{{x,y}}{i}\n"));
    }
    t.write(".gitignore", &rules).dirs(&[".git"]);
    t.files(&["fast", "x0", "y4095", "x4096", "y4999", "keep"]);
    assert_each_method(
        &t,
        &["-t", "f"],
        &["keep", "x4096", "y4999"],
        1,
        "ffind: .gitignore: 904 rules past the first 4096 that need a glob engine ({a,b}, [!a], \
         a**b) were not applied\n",
    );
    // The same file named with --ignore-file: said once too, before the walk.
    fs::remove_file(t.root().join(".gitignore")).unwrap();
    fs::write(t.root().join("rules.txt"), &rules).unwrap();
    let run = t.run(&["--ignore-file", "rules.txt", "-t", "f", "-E", "rules.txt"]);
    assert_listing(&run, &["--ignore-file"], &["keep", "x4096", "y4999"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "ffind: rules.txt: 904 rules past the first 4096 that need a glob engine ({a,b}, [!a], \
         a**b) were not applied\n"
    );
}
