//! `--cache` left on: the kernel's own file systems are searched without the memo
//! and without a word; a file system the memo does not trust is named (never by a number),
//! once per search, and only when `--cache` is on the command line, not when it comes from
//! the config file.

use std::process::Command;

use crate::fixture::{have, is_root, Tree};

#[test]
fn the_kernels_file_systems_are_searched_without_a_word() {
    let t = Tree::new();
    let memo = t.home().join("memo");
    let m = memo.to_str().unwrap();
    for path in [
        "/proc/self/net",
        "/sys/kernel/mm",
        "/sys/fs/cgroup",
        "/dev/pts",
    ] {
        if !std::path::Path::new(path).is_dir() {
            continue;
        }
        let cached = t.run(&["--cache", "--cache-dir", m, "-u", "-d", "2", ".", path]);
        assert!(
            !cached.stderr.contains("--cache"),
            "{path}: {}",
            cached.stderr
        );
    }
}

#[test]
fn an_untrusted_file_system_is_named_once_and_only_when_asked() {
    if !is_root() || !have("mksquashfs") || !have("mount") {
        eprintln!("skipped: needs root, mount and mksquashfs (squashfs-tools)");
        return;
    }
    let t = Tree::new();
    t.files(&["T/plain/a", "src/d/f", "src/e/g"]);
    let img = t.home().join("sq.img");
    let made = Command::new("mksquashfs")
        .args([t.root().join("src").as_os_str(), img.as_os_str()])
        .args(["-quiet", "-noappend"])
        .output()
        .is_ok_and(|o| o.status.success());
    let (one, two) = (t.root().join("T/sq1"), t.root().join("T/sq2"));
    std::fs::create_dir_all(&one).unwrap();
    std::fs::create_dir_all(&two).unwrap();
    let mount = |at: &std::path::Path| {
        Command::new("mount")
            .args(["-t", "squashfs", "-o", "loop,ro"])
            .arg(&img)
            .arg(at)
            .status()
            .is_ok_and(|s| s.success())
    };
    if !made || !mount(&one) {
        eprintln!("skipped: mounting a squashfs image is not permitted here");
        return;
    }
    // A second file system of the same kind (a second image: one image mounted twice shares
    // its loop device, and so is one file system).
    let img2 = t.home().join("sq2.img");
    let made2 = Command::new("mksquashfs")
        .args([t.root().join("src/d").as_os_str(), img2.as_os_str()])
        .args(["-quiet", "-noappend"])
        .output()
        .is_ok_and(|o| o.status.success());
    let mounted_two = made2
        && Command::new("mount")
            .args(["-t", "squashfs", "-o", "loop,ro"])
            .arg(&img2)
            .arg(&two)
            .status()
            .is_ok_and(|s| s.success());
    let memo = t.home().join("memo");
    let m = memo.to_str().unwrap();
    let said = t.run(&["--cache", "--cache-dir", m, "-u", ".", "T"]);
    let plain = t.run(&["--no-cache", "-u", ".", "T"]);
    assert_eq!(said.sorted(), plain.sorted());
    let lines: Vec<&str> = said.stderr.lines().collect();
    assert_eq!(
        lines.len(),
        1,
        "one warning for the search: {}",
        said.stderr
    );
    assert!(
        lines[0].contains("T/sq1 (squashfs)") && !lines[0].contains("0x"),
        "{}",
        said.stderr
    );
    if mounted_two {
        assert!(lines[0].contains("T/sq2 (squashfs)"), "{}", said.stderr);
    }
    // --cache from the config file: the same results, not a word.
    t.write("../home/.config/ffind/config", "--cache\n");
    let quiet = t.run(&["--cache-dir", m, "-u", ".", "T"]);
    assert_eq!(quiet.sorted(), plain.sorted());
    assert_eq!(quiet.stderr, "");
    for at in [&two, &one] {
        let _ = Command::new("umount").arg(at).status();
    }
}

/// A trusted file system (tmpfs) mounted below a path longer than `PATH_MAX`: its type is
/// asked of the directory's descriptor (`fstatfs`), never by that path (which `statfs` cannot
/// take), so it is used, and not called untrusted on every search.
#[test]
fn a_trusted_file_system_below_a_long_path_is_trusted() {
    if !is_root() || !have("mount") {
        eprintln!("skipped: needs root and mount");
        return;
    }
    let t = Tree::new();
    t.files(&["T/a"]);
    // 20 levels of 250-byte names, then `mnt`: about 5,000 bytes, made and mounted one
    // component at a time from inside.
    let name = "d".repeat(250);
    let deep =
        format!("cd T && for i in $(seq 20); do mkdir -p {name} && cd {name} || exit 1; done");
    let mounted = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "{deep} && mkdir mnt && mount -t tmpfs tmpfs mnt && touch mnt/f && mkdir mnt/sub"
        ))
        .current_dir(t.root())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!("skipped: mounting a tmpfs is not permitted here");
        return;
    }
    /// Unmounts it however the test ends.
    struct Mounted<'a>(&'a Tree, String);
    impl Drop for Mounted<'_> {
        fn drop(&mut self) {
            let _ = Command::new("bash")
                .arg("-c")
                .arg(format!("{} && umount mnt", self.1))
                .current_dir(self.0.root())
                .status();
        }
    }
    let _mounted = Mounted(&t, deep);
    let memo = t.home().join("memo");
    let m = memo.to_str().unwrap();
    let plain = t.run(&["--no-cache", "-u", ".", "T"]);
    assert!(plain.sorted().iter().any(|p| p.contains("/mnt/sub")));
    for _ in 0..2 {
        let cached = t.run(&["--cache", "--cache-dir", m, "-u", ".", "T"]);
        assert_eq!(cached.sorted(), plain.sorted());
        assert_eq!(cached.code, plain.code);
        assert!(
            !cached.stderr.contains("not used on"),
            "a tmpfs below a long path called untrusted: {}",
            cached.stderr
        );
    }
}
