//! A directory that vanished between being listed and being read is gone, not unreadable
//!: no message and no error status, under every method and both ways of reading
//! (with ignore rules and without); what exists and cannot be read is still reported. The
//! vanishing is strace's fault injection on the reads of one directory (`-P`): ENOENT for a
//! removed directory; ESRCH and EINVAL for a `/proc/PID` directory whose process went away
//! (`/proc/PID/fd: No such process`, `/proc/PID/net: Invalid argument`), which count only on
//! procfs.

use std::path::Path;
use std::process::{Child, Command, Stdio};

use crate::fixture::{need, Run, Spawn, Tree};
use crate::methods::methods;

/// ffind with `args` in `t`, every read of `dir` failing with `errno` (`None`: no fault).
fn failing_reads(t: &Tree, dir: &Path, errno: Option<&str>, args: &[&str]) -> Run {
    let mut c = Command::new("strace");
    c.args(["-f", "-qq", "-o", "/dev/null", "-P"])
        .arg(dir)
        .args(["-e", "trace=getdents64"]);
    if let Some(errno) = errno {
        c.args(["-e", &format!("inject=getdents64:error={errno}")]);
    }
    c.arg("--")
        .arg(crate::fixture::bin())
        .args(args)
        .current_dir(t.root())
        .stdin(Stdio::null());
    crate::fixture::clean_env(&mut c, &t.home());
    Run::from(c.output_ok())
}

/// A process that lives until it is dropped, for its `/proc/PID` directory.
struct Sleeper(Child);

impl Drop for Sleeper {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_proc_directory_whose_process_went_away_is_not_an_error() {
    if !need("strace") || !Path::new("/proc/self/fd").is_dir() {
        return;
    }
    let t = Tree::new();
    let sleeper = Sleeper(Command::new("sleep").arg("600").spawn().unwrap());
    let proc_dir = format!("/proc/{}", sleeper.0.id());
    let fd = Path::new(&proc_dir).join("fd");
    for m in methods() {
        for ignore in ["--no-ignore", "--ignore"] {
            let args = ["--method", m, ignore, "--max-depth", "2", ".", &proc_dir];
            // What reading this process's directory says without a fault (as an ordinary
            // user, some of its directories may be unreadable: said, and said again below).
            let plain = failing_reads(&t, &fd, None, &args);
            for errno in ["ESRCH", "EINVAL"] {
                let run = failing_reads(&t, &fd, Some(errno), &args);
                assert_eq!(
                    (run.code, &run.stderr),
                    (plain.code, &plain.stderr),
                    "{m} {ignore} {errno}"
                );
            }
            // Any other error is reported.
            let run = failing_reads(&t, &fd, Some("EIO"), &args);
            assert_eq!(run.code, 1, "{m} {ignore}: {}", run.stderr);
            let said = format!(
                "ffind: {}: {}",
                fd.display(),
                crate::fixture::os_text(libc::EIO)
            );
            assert!(run.stderr.contains(&said), "{m} {ignore}: {}", run.stderr);
        }
    }
}

#[test]
fn a_removed_directory_is_gone_and_elsewhere_einval_is_reported() {
    if !need("strace") {
        return;
    }
    let t = Tree::new();
    t.files(&["a/b/f", "c/g"]);
    let a = t.root().join("a");
    for m in methods() {
        for ignore in ["--no-ignore", "--ignore"] {
            let args = ["--method", m, ignore];
            let run = failing_reads(&t, &a, Some("ENOENT"), &args);
            assert_eq!(run.code, 0, "{m} {ignore}: {}", run.stderr);
            assert!(run.stderr.is_empty(), "{m} {ignore}: {}", run.stderr);
            run.assert_listing(&["a/", "c/", "c/g"]);
            // Off procfs, ESRCH and EINVAL say nothing of a process: the directory exists
            // and cannot be read.
            for (errno, why) in [("EINVAL", "Invalid argument"), ("ESRCH", "No such process")] {
                let run = failing_reads(&t, &a, Some(errno), &args);
                assert_eq!(run.code, 1, "{m} {ignore} {errno}: {}", run.stderr);
                assert_eq!(run.stderr, format!("ffind: a: {why}\n"), "{m} {ignore}");
                run.assert_listing(&["a/", "c/", "c/g"]);
            }
        }
    }
}
