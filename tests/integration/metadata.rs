//! fd's search language, one option at a time: what the metadata says, size (`-S`),
//! modification time (`--changed-within`, `--changed-before`) and owner (`-o`). Every check runs
//! under every method at `-j 1` and `-j 8` ([`assert_everywhere`]). On Windows: sizes and
//! times; `--owner` is refused there (`windows.rs`), and the tests make no links.

#[cfg(unix)]
use std::fs;
#[cfg(unix)]
use std::os::unix::fs::MetadataExt;

use crate::fd_parity::{assert_everywhere, set_mtime};
#[cfg(unix)]
use crate::filters_common::c_path;
use crate::fixture::Tree;
#[cfg(unix)]
use crate::fixture::{is_root, Run, Spawn};

// Size, time, owner.

#[test]
fn size_limits_with_units() {
    let t = Tree::new();
    t.write("zero", "")
        .write("b500", &"x".repeat(500))
        .write("k1", &"x".repeat(1000))
        .write("ki1", &"x".repeat(1024))
        .write("k10", &"x".repeat(10_000))
        .write("m1", &"x".repeat(1_000_001))
        .dirs(&["dir"]);
    assert_everywhere(&t, &["-S", "+1M"], &["m1"]);
    assert_everywhere(
        &t,
        &["--size", "-10k"],
        &["zero", "b500", "k1", "ki1", "k10"],
    );
    assert_everywhere(&t, &["-S", "500b"], &["b500"]);
    assert_everywhere(&t, &["-S", "1ki"], &["ki1"]);
    assert_everywhere(&t, &["-S", "1KiB"], &["ki1"]);
    assert_everywhere(&t, &["-S", "1k"], &["k1"]);
    assert_everywhere(&t, &["-S", "1kb"], &["k1"]);
    assert_everywhere(&t, &["-S", "0b"], &["zero"]);
    assert_everywhere(&t, &["-S", "+1k", "-S", "-1ki"], &["k1", "ki1"]);
    assert_everywhere(&t, &["-S", "+1mi"], &[]);
    // Followed, a link has its target's size.
    #[cfg(unix)]
    {
        t.link("m1", "link-to-big");
        assert_everywhere(&t, &["-L", "-S", "+1M"], &["m1", "link-to-big"]);
    }
}

#[test]
fn changed_within_and_before_with_durations_and_dates() {
    let t = Tree::new();
    t.files(&["new", "week-old", "year-2000", "dir/old-in-dir"]);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    set_mtime(&t, "week-old", now - 8 * 86_400);
    set_mtime(&t, "year-2000", 946_728_000); // 2000-01-01 12:00 UTC
    set_mtime(&t, "dir/old-in-dir", 946_728_000);
    set_mtime(&t, "dir", 946_728_000);
    assert_everywhere(&t, &["--changed-within", "1d"], &["new"]);
    assert_everywhere(&t, &["--changed-within", "2weeks"], &["new", "week-old"]);
    assert_everywhere(
        &t,
        &["--changed-within", "1week 2days"],
        &["new", "week-old"],
    );
    assert_everywhere(&t, &["--newer", "10h"], &["new"]);
    assert_everywhere(
        &t,
        &["--changed-before", "1week"],
        &["week-old", "year-2000", "dir", "dir/old-in-dir"],
    );
    assert_everywhere(
        &t,
        &["--older", "2001-01-01"],
        &["year-2000", "dir", "dir/old-in-dir"],
    );
    assert_everywhere(&t, &["--changed-before", "1999-12-01 10:00:00"], &[]);
    assert_everywhere(
        &t,
        &["--change-newer-than", "@946684800", "-t", "f", "old"],
        &["week-old", "dir/old-in-dir"],
    );
    assert_everywhere(
        &t,
        &["--changed-within", "2000-06-01", "--changed-before", "3d"],
        &["week-old"],
    );
}

#[cfg(unix)]
#[test]
fn owner_by_id_name_and_negation() {
    let t = Tree::new();
    t.files(&["mine", "dir/also-mine"]);
    let meta = fs::metadata(t.root().join("mine")).unwrap();
    let (uid, gid) = (meta.uid().to_string(), meta.gid().to_string());
    assert_everywhere(&t, &["-o", &uid], &["mine", "dir", "dir/also-mine"]);
    assert_everywhere(
        &t,
        &["-o", &format!("{uid}:{gid}")],
        &["mine", "dir", "dir/also-mine"],
    );
    assert_everywhere(
        &t,
        &["-o", &format!(":{gid}"), "-t", "f"],
        &["mine", "dir/also-mine"],
    );
    assert_everywhere(&t, &["--owner", &format!("!{uid}")], &[]);
    assert_everywhere(&t, &["-o", &format!("{uid}:!{gid}")], &[]);
    if !is_root() {
        eprintln!("not root: cannot chown, skipping the rest");
        return;
    }
    t.files(&["nobodys", "dir/groups"]);
    let chown = |rel: &str, uid: u32, gid: u32| {
        let p = c_path(&t.root().join(rel));
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::chown(p.as_ptr(), uid, gid) }, 0);
    };
    chown("nobodys", 65534, 65534);
    chown("dir/groups", 0, 65534);
    assert_everywhere(&t, &["-o", "65534"], &["nobodys"]);
    assert_everywhere(&t, &["-o", "nobody"], &["nobodys"]);
    assert_everywhere(&t, &["-o", ":65534"], &["nobodys", "dir/groups"]);
    assert_everywhere(&t, &["-o", "root:65534"], &["dir/groups"]);
    assert_everywhere(&t, &["-o", "!nobody:65534"], &["dir/groups"]);
    assert_everywhere(&t, &["-o", "!root", "-t", "f"], &["nobodys"]);
    assert_everywhere(
        &t,
        &["-o", ":!65534", "-t", "f"],
        &["mine", "dir/also-mine"],
    );
}

/// A time past 2038-01-19 03:14:07 UTC, the last second a 32-bit `time_t` holds, is read as it
/// is by every build (a 32-bit build's C library `stat` read it as 1901): `--json`'s mtime,
/// `-l`'s date (of a file, and of a broken link's own under `-L`), `--changed-within` and
/// `--changed-before`, under every method.
#[cfg(unix)]
#[test]
fn times_past_2038_are_read_as_they_are() {
    const Y2038: u64 = 2_147_483_648; // 2038-01-19T03:14:08Z
    const Y2100: u64 = 4_102_444_800; // 2100-01-01T00:00:00Z
    let t = Tree::new();
    t.files(&["today", "y2038", "dir/y2100"]);
    set_mtime(&t, "y2038", Y2038);
    set_mtime(&t, "dir/y2100", Y2100);
    set_mtime(&t, "dir", 946_728_000); // 2000-01-01 12:00 UTC
    t.link("missing", "broken");
    // The link's own time (std sets only a link's target's).
    let touched = std::process::Command::new("touch")
        .args(["-h", "-d", &format!("@{Y2100}"), "broken"])
        .current_dir(t.root())
        .status()
        .unwrap();
    assert!(touched.success());
    for method in crate::methods::methods() {
        let run = |args: &[&str]| {
            let mut c =
                t.cmd(&[&["--method", method], crate::fixture::held_whole(), args].concat());
            let run = Run::from(c.env("TZ", "UTC").output_ok());
            assert!(
                run.code == 0 && run.stderr.is_empty(),
                "{method} {args:?}: exit {}, {}",
                run.code,
                run.stderr
            );
            String::from_utf8(run.stdout).unwrap()
        };
        let json = run(&["--json", "--json-fields", "mtime", "-t", "f"]);
        for (path, when) in [
            ("y2038", "2038-01-19T03:14:08Z"),
            ("dir/y2100", "2100-01-01T00:00:00Z"),
        ] {
            let line = format!("{{\"path\":\"{path}\",\"type\":\"file\",\"mtime\":\"{when}\"}}");
            assert!(
                json.lines().any(|l| l == line),
                "{method}: no {line} in\n{json}"
            );
        }
        for args in [&["-l"][..], &["-l", "-L"]] {
            let long = run(args);
            for (path, date) in [
                ("./y2038", "Jan 19  2038"),
                ("./dir/y2100", "Jan  1  2100"),
                ("./broken -> missing", "Jan  1  2100"),
            ] {
                assert!(
                    long.lines()
                        .any(|l| l.ends_with(&format!(" {date} {path}"))),
                    "{method} {args:?}: {path} not dated {date} in\n{long}"
                );
            }
        }
    }
    assert_everywhere(
        &t,
        &["--changed-within", "1d", "-t", "f"],
        &["today", "y2038", "dir/y2100"],
    );
    assert_everywhere(&t, &["--changed-before", "1902-01-01"], &[]);
    assert_everywhere(
        &t,
        &["--changed-before", "@2147483649", "-t", "f"],
        &["today", "y2038"],
    );
    assert_everywhere(
        &t,
        &["--changed-within", "@2147483649"],
        &["dir/y2100", "broken"],
    );
}
