//! `--cache` under sandboxes (docs/SECURITY.md): a process is never served a listing of a
//! directory it could not list itself now, whatever restricts it. The sandboxes are made by
//! a small helper this test builds (`sandbox/sandbox.c`, with the system's C compiler):
//! Landlock, which `/proc/self/status` does not show (as nobody under no_new_privs, and as
//! root, which may enter a domain without it), and a seccomp filter failing `getdents64`,
//! which looks like an allow-all filter there. Each under `serial`, `queue` and `rayon`;
//! skipped with a message without root, setpriv, a C compiler, or a kernel with Landlock.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use crate::fixture::{bin, have, is_root, Run, Tree};
use crate::methods::methods_with;

/// How long a directory must be left alone before the memo trusts its listing, and a little.
const SETTLE: std::time::Duration = std::time::Duration::from_millis(3100);

const NOBODY: [&str; 3] = ["--reuid=65534", "--regid=65534", "--clear-groups"];

/// The helper, built once into a directory any user may run it from; `None`, said, when it
/// cannot be built or the kernel has no Landlock.
fn sandbox() -> Option<&'static Path> {
    static BUILT: OnceLock<Option<(tempfile::TempDir, PathBuf)>> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            if !is_root() || !have("setpriv") || !have("cc") {
                eprintln!("skipped: the sandbox tests need root, setpriv and a C compiler");
                return None;
            }
            let dir = tempfile::tempdir().unwrap();
            fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
            let exe = dir.path().join("sandbox");
            let source =
                Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration/sandbox/sandbox.c");
            let built = Command::new("cc")
                .args(["-O2", "-Wall", "-o"])
                .arg(&exe)
                .arg(&source)
                .output()
                .unwrap();
            assert!(
                built.status.success(),
                "cc {}: {}",
                source.display(),
                String::from_utf8_lossy(&built.stderr)
            );
            let probe = Command::new(&exe)
                .args(["landlock", "--", "/bin/true"])
                .status()
                .unwrap();
            if probe.code() == Some(3) {
                eprintln!("skipped: this kernel has no Landlock");
                return None;
            }
            assert!(probe.success(), "the sandbox helper fails: {probe}");
            Some((dir, exe))
        })
        .as_ref()
        .map(|(_, exe)| exe.as_path())
}

/// A tree with `T/open/file` and `T/sub/deep/x`, settled, and ffind copied where any user can
/// run it.
fn tree() -> (Tree, PathBuf) {
    let t = Tree::new();
    t.files(&["T/open/file", "T/sub/deep/x"]);
    let top = t.root().parent().unwrap().to_path_buf();
    fs::set_permissions(&top, fs::Permissions::from_mode(0o755)).unwrap();
    let copy = top.join("ffind-copy");
    fs::copy(bin(), &copy).unwrap();
    std::thread::sleep(SETTLE);
    (t, copy)
}

/// A new memo directory of user `owner`.
fn memo(t: &Tree, name: &str, owner: u32) -> PathBuf {
    let memo = t.root().parent().unwrap().join(name);
    fs::create_dir(&memo).unwrap();
    fs::set_permissions(&memo, fs::Permissions::from_mode(0o700)).unwrap();
    std::os::unix::fs::chown(&memo, Some(owner), Some(owner)).unwrap();
    memo
}

/// `setpriv AS... sandbox RESTRICTIONS... -- ffind ARGS...` in the tree's root.
fn run(t: &Tree, user: &[&str], restrictions: &[&str], ffind: &Path, args: &[&str]) -> Run {
    let mut before = user.to_vec();
    before.push(sandbox().unwrap().to_str().unwrap());
    before.extend(restrictions);
    before.push("--");
    crate::cache_identity::run(t, &before, ffind, args)
}

/// The search of `T` with the memo in `memo`, by `method`.
fn search<'a>(memo: &'a Path, method: &'a str, cache: bool) -> Vec<&'a str> {
    let memo = memo.to_str().unwrap();
    let cache = if cache { "--cache" } else { "--no-cache" };
    vec![
        cache,
        "--cache-dir",
        memo,
        "--method",
        method,
        "-u",
        ".",
        "T",
    ]
}

#[test]
fn a_landlock_domain_is_never_served_what_it_may_not_list() {
    if sandbox().is_none() {
        return;
    }
    let (t, ffind) = tree();
    // As nobody under no_new_privs (systemd's NoNewPrivileges=, a container, bwrap), whose
    // status is the same outside the domain and in it; and as root, which may enter one
    // without no_new_privs. Listing is allowed in the memo directory and /proc only.
    let outside = ["nnp"];
    for (who, user, outside) in [
        ("nobody", &NOBODY[..], &outside[..]),
        ("root", &[][..], &[][..]),
    ] {
        let owner = if user.is_empty() { 0 } else { 65534 };
        for method in methods_with("own-reader") {
            let memo = memo(&t, &format!("memo-landlock-{who}-{method}"), owner);
            let m = memo.to_str().unwrap();
            let mut inside = vec![];
            if who == "nobody" {
                inside.push("nnp");
            }
            inside.extend(["landlock", m, "/proc"]);
            check(&t, &ffind, user, outside, &inside, &memo, method, None);
        }
    }
}

/// Fills the memo `memo` as `user` under `outside`, then searches as `user` under `inside`
/// with and without it, by `method`: the same lines and exit code, the messages of the search
/// without it (and `extra`, when given, said once), and nothing of the tree that `inside` may
/// not list.
#[allow(clippy::too_many_arguments)]
fn check(
    t: &Tree,
    ffind: &Path,
    user: &[&str],
    outside: &[&str],
    inside: &[&str],
    memo: &Path,
    method: &str,
    extra: Option<&str>,
) {
    let filled = run(t, user, outside, ffind, &search(memo, method, true));
    assert!(
        filled.sorted().contains(&"T/sub/deep/x".to_string()),
        "{method}: the search outside the sandbox did not list T: {:?} {}",
        filled.sorted(),
        filled.stderr
    );
    let plain = run(t, user, inside, ffind, &search(memo, method, false));
    assert!(
        plain.sorted().is_empty(),
        "{method}: the sandbox let T be listed: {:?}",
        plain.sorted()
    );
    assert_eq!(plain.code, 1, "{method}: {}", plain.stderr);
    for _ in 0..2 {
        let served = run(t, user, inside, ffind, &search(memo, method, true));
        assert_eq!(
            served.sorted(),
            plain.sorted(),
            "{method}: {inside:?} was served a listing it may not read: {}",
            served.stderr
        );
        assert_eq!(served.code, plain.code, "{method}: {}", served.stderr);
        match extra {
            None => assert_eq!(served.stderr, plain.stderr, "{method}"),
            Some(said) => {
                let mut lines: Vec<&str> = served.stderr.lines().collect();
                let at = lines.iter().position(|l| l.contains(said));
                assert!(
                    at.is_some(),
                    "{method}: {said:?} not said: {}",
                    served.stderr
                );
                lines.remove(at.unwrap());
                assert!(
                    !lines.iter().any(|l| l.contains(said)),
                    "{method}: said twice"
                );
                assert_eq!(lines.join("\n"), plain.stderr.trim_end(), "{method}");
            }
        }
    }
}

#[test]
fn a_seccomp_filter_that_forbids_reading_directories_turns_the_memo_off() {
    if sandbox().is_none() {
        return;
    }
    let (t, ffind) = tree();
    for (who, user) in [("nobody", &NOBODY[..]), ("root", &[][..])] {
        let owner = if user.is_empty() { 0 } else { 65534 };
        let nnp: &[&str] = if user.is_empty() { &[] } else { &["nnp"] };
        let outside = [nnp, &["seccomp-allow"]].concat();
        let inside = [nnp, &["seccomp-deny-getdents"]].concat();
        for method in methods_with("own-reader") {
            let memo = memo(&t, &format!("memo-seccomp-{who}-{method}"), owner);
            let said = "this process may not read directories";
            check(
                &t,
                &ffind,
                user,
                &outside,
                &inside,
                &memo,
                method,
                Some(said),
            );
        }
    }
}
