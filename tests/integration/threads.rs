//! Threads that cannot start (`ulimit -u`), little address space (`ulimit -v`), and far more
//! threads asked than the work-stealing methods can use: every method finishes the walk, with
//! at most one warning, and lists everything.

use crate::fixture::{have, Tree};
use crate::methods::{methods, methods_with};

fn tree() -> Tree {
    let t = Tree::new();
    for i in 0..50 {
        t.files(&[&format!("d{i}/a/b"), &format!("d{i}/x")]);
    }
    t
}

/// Asserts a complete walk: exit 0, the normal listing, and nothing on stderr but (when
/// `warning_ok`) one warning.
fn assert_complete(what: &str, run: &crate::fixture::Run, normal: &[String], warning_ok: bool) {
    assert_eq!(run.code, 0, "{what}: {}", run.stderr);
    assert_eq!(run.sorted(), normal, "{what}: {}", run.stderr);
    let lines: Vec<&str> = run.stderr.lines().collect();
    if warning_ok {
        assert!(
            lines.len() <= 1 && lines.iter().all(|l| l.starts_with("ffind: warning: ")),
            "{what}: at most one warning: {}",
            run.stderr
        );
    } else {
        assert!(lines.is_empty(), "{what}: {}", run.stderr);
    }
}

/// A user id no other test runs as (`ulimit -u` counts every process of the user).
const THREADS_TEST_UID: u32 = 61_234;

#[test]
fn every_method_finishes_when_threads_cannot_start() {
    if !crate::fixture::is_root() || !have("setpriv") || !have("bash") {
        return;
    }
    let t = tree();
    let normal = t.run(&["-u"]).sorted();
    for m in methods() {
        for limit in [4, 6] {
            // Threads count against the user's process limit: most of 64 cannot start. A user
            // of this test's own (nobody's processes of tests running beside it would count).
            let run = t
                .run_script_as(
                    THREADS_TEST_UID,
                    &format!("ulimit -u {limit} && exec \"$FFIND\" -u --method {m} -j 64"),
                )
                .unwrap();
            assert_complete(&format!("{m} ulimit -u {limit}"), &run, &normal, true);
        }
    }
}

#[test]
fn small_stacks_let_32_threads_run_in_100_mb_of_address_space() {
    if let Some(emulated) = crate::fixture::emulated() {
        eprintln!("{emulated}: its translation buffer alone takes 128 MiB of address space");
        return;
    }
    if !have("bash") {
        return;
    }
    let t = tree();
    let normal = t.run(&["-u"]).sorted();
    for m in methods() {
        // -j 4096: no more workers than the address space holds (a thread that starts and
        // then cannot allocate aborts the process).
        for j in ["32", "4096"] {
            let run = t.run_script(&format!(
                "ulimit -v 100000 && exec \"$FFIND\" -u --method {m} -j {j}"
            ));
            assert_complete(&format!("{m} -j {j} ulimit -v"), &run, &normal, false);
        }
    }
}

#[test]
fn work_stealing_methods_bound_their_threads() {
    if let Some(emulated) = crate::fixture::emulated() {
        eprintln!("{emulated}: qemu-arm reserves the whole 4 GiB guest address space first, which the limit here refuses");
        return;
    }
    if !have("bash") {
        return;
    }
    let t = tree();
    let normal = t.run(&["-u"]).sorted();
    // 4096 threads would reserve 2 GiB of stacks; the bounded (work-stealing) methods start at
    // most 64, which fit in 2 GB (with glibc's per-thread malloc arenas, 64 MiB each) without a
    // warning.
    for m in methods_with("stealing") {
        let run = t.run_script(&format!(
            "ulimit -v 2000000 && exec \"$FFIND\" -u --method {m} -j 4096"
        ));
        assert_complete(&format!("{m} -j 4096"), &run, &normal, false);
    }
    // queue takes -j as given (it parks idle workers): it may start fewer, and says so.
    let run = t.run_script("ulimit -v 2000000 && exec \"$FFIND\" -u --method queue -j 4096");
    assert_complete("queue -j 4096", &run, &normal, true);
}

/// The threads a method's pool started have ended when ffind exits, under every way a walk
/// stops early (`--max-results`, `-1`, `-q`, the reader gone): seen as each thread's own
/// `exit` before the process's `exit_group` (strace). A method that returned under running
/// workers left the process to end under them, which hung in Wine's process exit (jwalk: 27
/// of 200 runs); here, without the wait, no worker's `exit` is seen at all.
#[cfg(target_os = "linux")]
#[test]
fn a_methods_pool_threads_end_before_ffind_does() {
    if !crate::fixture::need("strace") {
        return;
    }
    // strace then traces qemu-user's host threads, whose exits follow the emulator's own
    // timing (under qemu-aarch64 a jwalk worker of `-q` once ended after ffind's
    // exit_group): what is seen natively is what this test holds.
    if let Some(why) = crate::fixture::emulated() {
        eprintln!("{why}: the threads' exits are not ffind's to count there");
        return;
    }
    let t = Tree::new();
    for i in 0..300 {
        t.files(&[&format!("d{i}/e/g"), &format!("d{i}/f")]);
    }
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("trace");
    let stops: [&[&str]; 4] = [&["--max-results", "2"], &["-1"], &["-q"], &[]];
    for m in ["jwalk", "rayon"] {
        for stop in stops {
            let mut args = vec!["-f", "-qq", "-e", "trace=exit,exit_group", "-o"];
            args.push(trace.to_str().unwrap());
            args.push("--");
            let bin = crate::fixture::bin();
            args.push(bin.to_str().unwrap());
            args.extend(["--method", m, "-j", "8"]);
            args.extend(stop);
            let mut child = std::process::Command::new("strace")
                .args(&args)
                .current_dir(t.root())
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            // With no stop of its own, the reader goes away after the first line.
            let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
            let mut first = String::new();
            std::io::BufRead::read_line(&mut out, &mut first).unwrap();
            drop(out);
            crate::fixture::wait_or_hang(&mut child, std::time::Duration::from_secs(120), m);
            let lines = std::fs::read_to_string(&trace).unwrap();
            let ended = lines.find("exit_group(").unwrap_or(lines.len());
            let exits = lines[..ended].matches(" exit(").count();
            assert!(
                exits >= 8,
                "{m} {stop:?}: {exits} threads ended before ffind did:\n{lines}"
            );
        }
    }
}
