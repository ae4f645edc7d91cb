//! `--cache` under sandboxes (docs/SECURITY.md): a process is never served a listing of a
//! directory it could not list itself now, whatever restricts it. The sandboxes are made by
//! a small helper this test builds (`sandbox/sandbox.c`, with the system's C compiler):
//! Landlock, which `/proc/self/status` does not show (as nobody under no_new_privs, and as
//! root, which may enter a domain without it), and a seccomp filter failing `getdents64`,
//! which looks like an allow-all filter there, and the others below (supervisors, a tracer,
//! user namespaces, a BPF LSM program). Each under `serial`, `queue` and `rayon`;
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
            crate::fixture::build_c("sandbox/sandbox.c", &exe, &[], &[]);
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
            let sides = Sides {
                filler: user,
                outside,
                user,
                inside: &inside,
            };
            check(&t, &ffind, &sides, &memo, method, None);
        }
    }
}

/// Who fills the memo and who searches with it: setpriv's options and the sandbox helper's
/// restrictions of each.
#[derive(Clone, Copy)]
struct Sides<'a> {
    filler: &'a [&'a str],
    outside: &'a [&'a str],
    user: &'a [&'a str],
    inside: &'a [&'a str],
}

/// Fills the memo `memo` as `filler` under `outside`, then searches as `user` under `inside`
/// with and without it, by `method`: the same lines and exit code, the messages of the search
/// without it (and `extra`, when given, said once), and nothing of `T/sub` that `inside` may
/// not list.
fn check(t: &Tree, ffind: &Path, sides: &Sides, memo: &Path, method: &str, extra: Option<&str>) {
    let sentinel = "T/sub/deep/x".to_string();
    let (user, inside) = (sides.user, sides.inside);
    let filled = run(
        t,
        sides.filler,
        sides.outside,
        ffind,
        &search(memo, method, true),
    );
    assert!(
        filled.sorted().contains(&sentinel),
        "{method}: the search outside the sandbox did not list T: {:?} {}",
        filled.sorted(),
        filled.stderr
    );
    let plain = run(t, user, inside, ffind, &search(memo, method, false));
    assert!(
        !plain.sorted().contains(&sentinel),
        "{method}: the sandbox let T/sub be listed: {:?}",
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
        let mut said: Vec<&str> = served.stderr.lines().collect();
        if let Some(extra) = extra {
            let at = said.iter().position(|l| l.contains(extra));
            assert!(
                at.is_some(),
                "{method}: {extra:?} not said: {}",
                served.stderr
            );
            said.remove(at.unwrap());
            assert!(
                !said.iter().any(|l| l.contains(extra)),
                "{method}: said twice"
            );
        }
        // The messages of a parallel walk come in any order.
        let mut want: Vec<&str> = plain.stderr.lines().collect();
        said.sort_unstable();
        want.sort_unstable();
        assert_eq!(said, want, "{method}");
    }
}

/// What the memo says where a seccomp filter could judge a directory's read: it is not used.
const UNDER_A_FILTER: &str = "--cache: this process runs under a seccomp filter";

/// Each seccomp sandbox, as nobody under no_new_privs and as root: the memo filled under an
/// allow-all filter (the same mode and number of filters, as `/proc/self/status` shows them),
/// then searched under `inside` (with `{sub}` the canonical path of `T/sub`).
fn under_seccomp(inside: &[&str], name: &str) {
    if sandbox().is_none() {
        return;
    }
    let (t, ffind) = tree();
    let sub = fs::canonicalize(t.root().join("T/sub")).unwrap();
    let sub = sub.to_str().unwrap();
    for (who, user) in [("nobody", &NOBODY[..]), ("root", &[][..])] {
        let owner = if user.is_empty() { 0 } else { 65534 };
        let nnp: &[&str] = if user.is_empty() { &[] } else { &["nnp"] };
        let outside = [nnp, &["seccomp-allow"]].concat();
        let inside: Vec<&str> = nnp
            .iter()
            .copied()
            .chain(inside.iter().map(|r| if *r == "{sub}" { sub } else { r }))
            .collect();
        let sides = Sides {
            filler: user,
            outside: &outside,
            user,
            inside: &inside,
        };
        for method in methods_with("own-reader") {
            let memo = memo(&t, &format!("memo-{name}-{who}-{method}"), owner);
            check(&t, &ffind, &sides, &memo, method, Some(UNDER_A_FILTER));
        }
    }
}

#[test]
fn a_seccomp_filter_that_forbids_reading_directories_turns_the_memo_off() {
    under_seccomp(&["seccomp-deny-getdents"], "getdents");
}

/// A supervisor in user space refusing opens below a path (how path sandboxes work): the
/// memo's stamp says nothing of it, and one probe cannot stand for what it says of every
/// other call.
#[test]
fn a_seccomp_supervisor_that_judges_paths_is_never_served_what_it_refuses() {
    under_seccomp(&["notify-deny-below", "{sub}"], "paths");
}

/// A filter that judges an open's flags: the root (opened by a path that may be a link)
/// passes, every subdirectory (opened with O_NOFOLLOW) is refused.
#[test]
fn a_seccomp_filter_that_judges_flags_is_never_served_what_it_refuses() {
    under_seccomp(&["seccomp-deny-nofollow-dirs"], "flags");
}

/// A supervisor that counts: the first directory read passes (the search root's), every
/// later one fails.
#[test]
fn a_seccomp_supervisor_that_counts_reads_is_never_served_what_it_refuses() {
    under_seccomp(&["notify-getdents-after", "1"], "count");
}

/// A tracer that fails opens below `T/sub` (`strace -e inject`, a ptrace sandbox): the memo is
/// not used, and says why.
#[test]
fn a_tracer_that_fails_calls_is_never_served_what_it_refuses() {
    if sandbox().is_none() || !have("strace") {
        return;
    }
    let (t, ffind) = tree();
    let sub = fs::canonicalize(t.root().join("T/sub")).unwrap();
    let traced = [
        "strace",
        "-f",
        "-qq",
        "-o",
        "/dev/null",
        "-e",
        "inject=openat:error=EACCES",
        "-P",
        sub.to_str().unwrap(),
        "--",
    ];
    let sentinel = "T/sub/deep/x".to_string();
    for method in methods_with("own-reader") {
        let memo = memo(&t, &format!("memo-strace-{method}"), 0);
        let filled = run(&t, &[], &[], &ffind, &search(&memo, method, true));
        assert!(filled.sorted().contains(&sentinel), "{}", filled.stderr);
        let under_strace =
            |cache| crate::cache_identity::run(&t, &traced, &ffind, &search(&memo, method, cache));
        let plain = under_strace(false);
        assert!(!plain.sorted().contains(&sentinel), "{}", plain.stderr);
        for _ in 0..2 {
            let served = under_strace(true);
            assert_eq!(
                served.sorted(),
                plain.sorted(),
                "{method}: {}",
                served.stderr
            );
            assert_eq!(served.code, plain.code, "{method}");
            assert!(
                served
                    .stderr
                    .contains("--cache: this process runs under a tracer"),
                "{method}: {}",
                served.stderr
            );
        }
    }
}

/// Two user namespaces, one after the other, that `/proc/self/status` and the namespace's
/// number cannot tell apart (the kernel numbers a namespace again once its number is free,
/// and the helper waits for that): one may list `T/sub`, the other may not. As root: a
/// namespace mapping 0-65535 (nobody's 0700 `T/sub` is open to its root) and then one
/// mapping 0 alone (where it is not); as nobody: `unshare -U` with group 4242 (`T/sub` is
/// root:4242 0750) and then with group 4343, every id reading 65534 inside both.
#[test]
fn user_namespaces_with_different_maps_are_never_served_each_others_listings() {
    if sandbox().is_none() {
        return;
    }
    let wide = ["userns", "0 0 65536", "0 0 65536", "same"];
    let narrow = ["userns", "0 0 1", "0 0 1", "same"];
    let unmapped = ["userns", "same"];
    let group = |g: &'static str| ["--reuid=65534", g, "--clear-groups"];
    let (with_4242, with_4343) = (group("--regid=4242"), group("--regid=4343"));
    let root = Sides {
        filler: &[],
        outside: &wide,
        user: &[],
        inside: &narrow,
    };
    let nobody = Sides {
        filler: &with_4242,
        outside: &unmapped,
        user: &with_4343,
        inside: &unmapped,
    };
    for (who, sides, owner) in [("root", root, 0), ("nobody", nobody, 65534)] {
        let (t, ffind) = tree();
        let sub = t.root().join("T/sub");
        if owner == 0 {
            std::os::unix::fs::chown(&sub, Some(65534), Some(65534)).unwrap();
            fs::set_permissions(&sub, fs::Permissions::from_mode(0o700)).unwrap();
        } else {
            std::os::unix::fs::chown(&sub, Some(0), Some(4242)).unwrap();
            fs::set_permissions(&sub, fs::Permissions::from_mode(0o750)).unwrap();
        }
        std::thread::sleep(SETTLE);
        for method in methods_with("own-reader") {
            let memo = memo(&t, &format!("memo-userns-{who}-{method}"), owner);
            // Where the helper notes the first namespace's number (a place the user may write).
            let notes = t
                .root()
                .parent()
                .unwrap()
                .join(format!("ns-{who}-{method}"));
            fs::create_dir(&notes).unwrap();
            fs::set_permissions(&notes, fs::Permissions::from_mode(0o777)).unwrap();
            let number = notes.join("number");
            let number = number.to_str().unwrap();
            let outside = [sides.outside, &[number]].concat();
            let inside = [sides.inside, &[number]].concat();
            let numbered = Sides {
                outside: &outside,
                inside: &inside,
                ..sides
            };
            check(&t, &ffind, &numbered, &memo, method, None);
        }
    }
}

/// A BPF LSM program on `file_open` refusing `T/sub` to the search's process (as systemd's
/// RestrictFileSystems= and security agents refuse opens): nothing in `/proc/self/status`
/// shows it, so only opening what the memo serves can see it. As root, and as nobody (the
/// helper loads the program as root, then becomes nobody); skipped, said, where the kernel
/// has no BPF LSM or refuses to load one.
#[test]
fn a_bpf_lsm_program_that_refuses_opens_is_never_served_what_it_refuses() {
    if sandbox().is_none() {
        return;
    }
    let (t, ffind) = tree();
    let sub = fs::canonicalize(t.root().join("T/sub")).unwrap();
    let sub = sub.to_str().unwrap();
    let probe = Command::new(sandbox().unwrap())
        .args(["bpf-lsm-deny", sub, "--", "/bin/true"])
        .output()
        .unwrap();
    if probe.status.code() == Some(3) {
        eprintln!(
            "skipped: this kernel cannot run the test's BPF LSM program: {}",
            String::from_utf8_lossy(&probe.stderr)
                .lines()
                .next()
                .unwrap_or("")
        );
        return;
    }
    assert!(probe.status.success(), "{probe:?}");
    let as_root = ["bpf-lsm-deny", sub];
    let as_nobody = ["bpf-lsm-deny", sub, "become", "65534"];
    for (who, filler, inside, owner) in [
        ("nobody", &NOBODY[..], &as_nobody[..], 65534),
        ("root", &[][..], &as_root[..], 0),
    ] {
        let sides = Sides {
            filler,
            outside: &[],
            user: &[],
            inside,
        };
        for method in methods_with("own-reader") {
            let memo = memo(&t, &format!("memo-bpf-{who}-{method}"), owner);
            check(&t, &ffind, &sides, &memo, method, None);
        }
    }
}
