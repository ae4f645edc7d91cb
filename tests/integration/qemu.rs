//! ffind run by qemu-user in a tree (`Tree::run`, a release archive's binary of another
//! architecture): qemu's emulation of `fork` in a program with threads now and then leaves the
//! child stuck before its `exec` (on a lock qemu's own threads held at the fork; seen once in
//! about six runs of the aarch64 suite, in a `-x` under `--method rayon -j 8`, never
//! natively). Such a run is ended and tried again, saying so; any other run that does not end
//! fails the test. Part of the fixture (`fixture.rs`), which the MPI tests share.

use std::io::Read;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Longer than any run of the suite under qemu: only a hang passes it.
const BOUND: Duration = Duration::from_secs(240);

pub fn output_watched(cmd: &mut Command, shown: &str) -> Output {
    for _ in 0..3 {
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let drain = |mut pipe: Box<dyn Read + Send>| {
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                let _ = pipe.read_to_end(&mut bytes);
                bytes
            })
        };
        let out = drain(Box::new(child.stdout.take().unwrap()));
        let err = drain(Box::new(child.stderr.take().unwrap()));
        let start = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break Some(status);
            }
            if start.elapsed() > BOUND {
                break None;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        if let Some(status) = status {
            return Output {
                status,
                stdout: out.join().unwrap(),
                stderr: err.join().unwrap(),
            };
        }
        let stuck = forks_stuck_before_exec(child.id());
        for pid in stuck.iter().chain([&child.id()]) {
            // SAFETY: kill takes a pid and a signal; a pid gone by now is refused.
            unsafe { libc::kill(*pid as libc::pid_t, libc::SIGKILL) };
        }
        let _ = child.wait();
        assert!(
            !stuck.is_empty(),
            "{shown} still running after {BOUND:?}: it hangs"
        );
        eprintln!("{shown}: a child qemu forked never reached its exec: trying again");
    }
    panic!("{shown}: qemu's fork hung three times");
}

#[test]
fn a_fork_not_yet_on_to_its_exec_is_told_from_a_child_that_ran_another_program() {
    let forks = "import os, time\nos.fork()\ntime.sleep(30)";
    let runs = "import subprocess\nsubprocess.run(['sleep', '30'])";
    for (script, stuck) in [(forks, 1), (runs, 0)] {
        let mut parent = Command::new("python3")
            .args(["-c", script])
            .spawn()
            .unwrap();
        let start = Instant::now();
        // Once the child is there (and, not forked alone, has run its program).
        let found = loop {
            std::thread::sleep(Duration::from_millis(300));
            let children = children_of(parent.id());
            let ran = children.iter().any(|(_, same)| !same);
            if (stuck == 1 && !children.is_empty()) || ran {
                break forks_stuck_before_exec(parent.id());
            }
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "no child: {script}"
            );
        };
        for pid in found.iter().chain([&parent.id()]) {
            // SAFETY: kill takes a pid and a signal.
            unsafe { libc::kill(*pid as libc::pid_t, libc::SIGKILL) };
        }
        let _ = parent.wait();
        assert_eq!(found.len(), stuck, "{script}");
    }
}

/// The children of `pid` still running `pid`'s own program with its own arguments: forked,
/// and not (yet) on to their `exec`.
fn forks_stuck_before_exec(pid: u32) -> Vec<u32> {
    children_of(pid)
        .into_iter()
        .filter_map(|(p, same)| same.then_some(p))
        .collect()
}

/// The children of `pid`, each with whether it runs `pid`'s program with its arguments.
fn children_of(pid: u32) -> Vec<(u32, bool)> {
    let cmdline = |p: u32| std::fs::read(format!("/proc/{p}/cmdline")).ok();
    let own = cmdline(pid);
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    procs
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&p| {
            let stat = std::fs::read_to_string(format!("/proc/{p}/stat")).unwrap_or_default();
            // "pid (comm) state ppid ...": the comm may hold spaces, the last ')' ends it.
            let ppid = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok());
            ppid == Some(pid)
        })
        .map(|p| (p, own.is_some() && cmdline(p) == own))
        .collect()
}
