//! `--cache` and who reads: a listing read by a process that may read a directory
//! (a capability, root) is never served to one that may not (the same uid without the
//! capability, root with its DAC capabilities taken away). As root, through setpriv; skipped
//! with a message otherwise.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::fixture::{bin, clean_env, have, is_root, output_of, Run, Tree};

/// How long a directory must be left alone before the memo trusts its listing, and a little.
const SETTLE: std::time::Duration = std::time::Duration::from_millis(3100);

/// Whether the tests can change users and capabilities; says why not.
fn can_change_capabilities() -> bool {
    if !is_root() || !have("setpriv") {
        eprintln!("skipped: changing capabilities needs root and setpriv");
        return false;
    }
    true
}

/// A tree with `T/open/file` and `T/locked/secret`, `locked` of mode `mode` and root's, with
/// ffind copied where any user can run it; the memo directory `memo` of user `owner`.
fn tree(mode: u32, owner: u32) -> (Tree, PathBuf, PathBuf) {
    let t = Tree::new();
    t.files(&["T/open/file", "T/locked/secret"]);
    fs::set_permissions(t.root().join("T/locked"), fs::Permissions::from_mode(mode)).unwrap();
    let top = t.root().parent().unwrap().to_path_buf();
    fs::set_permissions(&top, fs::Permissions::from_mode(0o755)).unwrap();
    let copy = top.join("ffind-copy");
    fs::copy(bin(), &copy).unwrap();
    let memo = top.join("memo");
    fs::create_dir(&memo).unwrap();
    fs::set_permissions(&memo, fs::Permissions::from_mode(0o700)).unwrap();
    std::os::unix::fs::chown(&memo, Some(owner), Some(owner)).unwrap();
    (t, copy, memo)
}

/// Runs `setpriv PRIV... ffind ARGS...` in the tree's root.
pub fn run(t: &Tree, setpriv: &[&str], ffind: &Path, args: &[&str]) -> Run {
    let mut c = Command::new("setpriv");
    c.args(setpriv)
        .arg(ffind)
        .args(args)
        .current_dir(t.root())
        .stdin(Stdio::null());
    clean_env(&mut c, &t.home());
    Run::from(output_of(&mut c))
}

const NOBODY: [&str; 3] = ["--reuid=65534", "--regid=65534", "--clear-groups"];

fn nobody_with(cap: &str) -> Vec<String> {
    let mut v: Vec<String> = NOBODY.map(String::from).to_vec();
    v.push(format!("--inh-caps=+{cap}"));
    v.push(format!("--ambient-caps=+{cap}"));
    v
}

/// The search as the one who may not read `T/locked`, with and without the memo filled by
/// the one who may: the same lines, messages and exit code, and no secret.
fn held_out(t: &Tree, ffind: &Path, memo: &Path, may: &[&str], may_not: &[&str]) {
    let memo = memo.to_str().unwrap();
    let cached = ["--cache", "--cache-dir", memo, "-u", ".", "T"];
    let filled = run(t, may, ffind, &cached);
    assert!(
        filled.sorted().contains(&"T/locked/secret".to_string()),
        "the privileged search did not read T/locked (capabilities not given?): {:?} {}",
        filled.sorted(),
        filled.stderr
    );
    let plain = run(t, may_not, ffind, &["--no-cache", "-u", ".", "T"]);
    assert!(!plain.sorted().contains(&"T/locked/secret".to_string()));
    for _ in 0..2 {
        let served = run(t, may_not, ffind, &cached);
        assert!(
            !served.sorted().contains(&"T/locked/secret".to_string()),
            "a listing read with more rights was served: {:?}",
            served.sorted()
        );
        assert_eq!(served.sorted(), plain.sorted());
        assert_eq!(served.stderr, plain.stderr);
        assert_eq!(served.code, plain.code);
        assert_eq!(served.code, 1, "{}", served.stderr);
    }
}

#[test]
fn a_capability_given_is_part_of_who_reads() {
    if !can_change_capabilities() {
        return;
    }
    for cap in ["dac_read_search", "dac_override"] {
        let (t, ffind, memo) = tree(0o700, 65534);
        std::thread::sleep(SETTLE);
        let with: Vec<String> = nobody_with(cap);
        let with: Vec<&str> = with.iter().map(String::as_str).collect();
        held_out(&t, &ffind, &memo, &with, &NOBODY);
    }
}

#[test]
fn a_capability_taken_away_is_part_of_who_reads() {
    if !can_change_capabilities() {
        return;
    }
    let (t, ffind, memo) = tree(0o000, 0);
    std::thread::sleep(SETTLE);
    let root: [&str; 0] = [];
    let without = [
        "--bounding-set=-dac_override,-dac_read_search",
        "--inh-caps=-dac_override,-dac_read_search",
    ];
    held_out(&t, &ffind, &memo, &root, &without);
}

/// Two readers of one user (root as it is, and under no_new_privs, as in a container or a
/// service with NoNewPrivileges=): each keeps its own memo, so that a search by one after a
/// search by the other reads no directory again (each replaced the other's file before, and
/// every switch read the whole tree).
#[cfg(target_os = "linux")] // inotify watches the reads
#[test]
fn each_reader_of_one_user_keeps_its_own_memo() {
    if !can_change_capabilities() {
        return;
    }
    let (t, ffind, memo) = tree(0o755, 0);
    let dirs: Vec<String> = (0..30).map(|i| format!("T/d{i}/f")).collect();
    t.files(&dirs.iter().map(String::as_str).collect::<Vec<_>>());
    std::thread::sleep(SETTLE);
    let m = memo.to_str().unwrap();
    let args = ["--cache", "--cache-dir", m, "-u", ".", "T"];
    let plain: [&str; 0] = [];
    let no_new_privs = ["--no-new-privs"];
    let want = run(&t, &plain, &ffind, &["--no-cache", "-u", ".", "T"]).sorted();
    for reader in [&plain[..], &no_new_privs[..]] {
        assert_eq!(run(&t, reader, &ffind, &args).sorted(), want, "{reader:?}");
    }
    assert_eq!(
        crate::cache::memo_files(&memo).len(),
        2,
        "one file per reader"
    );
    for reader in [&plain[..], &no_new_privs[..]] {
        let (r, seen) = crate::dir_reads::during(t.root(), || run(&t, reader, &ffind, &args));
        assert_eq!(r.sorted(), want, "{reader:?}");
        assert!(
            seen.read.is_empty(),
            "{reader:?} read the tree again: {:?}",
            seen.read
        );
    }
}
