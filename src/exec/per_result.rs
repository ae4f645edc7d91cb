//! `-x`: the commands run once per result, by `jobs` threads taking paths from a bounded
//! channel (bounded, so that slow commands make the walk wait instead of piling up paths).
//!
//! As in fd: with one job, commands run one after another with ffind's stdin, stdout and
//! stderr; with more, each gets /dev/null for stdin and its stdout and stderr are captured and
//! written out when it ends, stdout then stderr, in one piece, so that the output of jobs
//! running side by side never interleaves. Of several `-x` commands, each runs in turn for a
//! result, and a failure skips the rest for that result.
//!
//! A captured command's output is read until its pipes close, or until shortly after the
//! command itself has ended: a process it left running keeps the pipes open, and ffind does not
//! wait for that (fd does: `-x sh -c 'sleep 60 &'` holds it a minute per result).

use std::io;
use std::process::{Child, Stdio};
use std::sync::Mutex;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{bounded, Receiver, Sender};

use super::children::{Children, Group};
use super::sys::{self, Pipes};
use super::Runner;

/// Paths waiting for a job, per job thread.
const QUEUE_PER_JOB: usize = 16;

/// How often a job waiting on its command's output looks whether the command has ended.
const LOOK_EVERY: Duration = Duration::from_millis(100);

/// How long a command's output is still read after it has ended, when a process it left
/// running holds the pipes open (none after a signal: then only what is there is read).
const AFTER_END: Duration = Duration::from_millis(100);

/// The job threads and the channel that feeds them.
pub struct Pool {
    runner: &'static Runner,
    /// `None` once closed, or when no job thread could start (then jobs run in [`Pool::send`]).
    sender: Mutex<Option<Sender<Vec<u8>>>>,
    workers: Mutex<Vec<JoinHandle<()>>>,
}

impl Pool {
    /// Starts `runner.spec.jobs` job threads, or as many as the system allows.
    pub fn start(runner: &'static Runner) -> Pool {
        let jobs = runner.spec.jobs;
        let (sender, receiver) = bounded::<Vec<u8>>(jobs.saturating_mul(QUEUE_PER_JOB));
        let mut workers = Vec::with_capacity(jobs);
        for i in 0..jobs {
            let receiver = receiver.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("ffind-exec-{i}"))
                .spawn(move || work(runner, &receiver));
            match spawned {
                Ok(handle) => workers.push(handle),
                Err(_) => break,
            }
        }
        Pool {
            runner,
            sender: Mutex::new((!workers.is_empty()).then_some(sender)),
            workers: Mutex::new(workers),
        }
    }

    /// Queues one result (waits while the queue is full).
    pub fn send(&self, path: Vec<u8>) {
        let sender = self.sender.lock().unwrap_or_else(|e| e.into_inner());
        match sender.as_ref() {
            Some(sender) => {
                let _ = sender.send(path);
            }
            None if self.workers.lock().is_ok_and(|w| w.is_empty()) => {
                run_one(self.runner, &path);
            }
            None => {}
        }
    }

    /// Closes the queue and waits for every job to end.
    pub fn finish(&self) {
        self.sender.lock().unwrap_or_else(|e| e.into_inner()).take();
        let workers = std::mem::take(&mut *self.workers.lock().unwrap_or_else(|e| e.into_inner()));
        for handle in workers {
            let _ = handle.join();
        }
    }
}

/// One job thread: runs the commands for each path until the queue closes.
fn work(runner: &'static Runner, receiver: &Receiver<Vec<u8>>) {
    for path in receiver {
        if runner.stopped() {
            continue;
        }
        run_one(runner, &path);
    }
}

/// Runs every command for one result and writes their output.
fn run_one(runner: &Runner, path: &[u8]) {
    let capture = runner.spec.jobs > 1;
    let mut stdout = Vec::new();
    let mut stderr = Vec::new();
    for command in &runner.spec.commands {
        let mut cmd = match command.for_path(path) {
            Ok(cmd) => cmd,
            Err(why) => {
                runner.refused(path, why);
                break;
            }
        };
        let group = if capture {
            cmd.stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            Group::Own
        } else {
            runner.spec.group_sharing_stdio()
        };
        let mut child = match runner.children.spawn(&mut cmd, group) {
            Ok(Some(child)) => child,
            Ok(None) => return,
            Err(e) if sys::is_too_long(&e) => {
                runner.too_long(path);
                break;
            }
            Err(e) => {
                runner.cannot_start(command, &cmd, &e);
                break;
            }
        };
        if capture {
            // A read error leaves what was read; the command's status still counts.
            let _ = read_both(runner.children, &mut child, &mut stdout, &mut stderr);
        }
        let status = runner.children.wait(&mut child);
        if runner.children.interrupted() {
            return;
        }
        let ok = if capture {
            let ok = status.is_ok_and(|s| s.success());
            if !ok {
                runner.fail();
            }
            ok
        } else {
            runner.finished(status)
        };
        if !ok {
            break;
        }
    }
    if capture || runner.spec.nul_after_output {
        runner.write_output(&stdout, &stderr, runner.spec.nul_after_output);
    }
}

/// Reads a child's stdout and stderr to their ends, both at once (one could fill its pipe
/// while we wait on the other), or until [`AFTER_END`] after the child has ended.
fn read_both(
    children: &Children,
    child: &mut Child,
    stdout: &mut Vec<u8>,
    stderr: &mut Vec<u8>,
) -> io::Result<()> {
    let (Some(out), Some(err)) = (child.stdout.take(), child.stderr.take()) else {
        return Ok(());
    };
    let mut pipes = Pipes::new(out, err)?;
    let mut looked = Instant::now();
    // Set once the child has ended: read until then, at most.
    let mut until: Option<Instant> = None;
    while pipes.open() {
        let wait = until.map_or(LOOK_EVERY, |t| t.saturating_duration_since(Instant::now()));
        let ready = pipes.read(wait, stdout, stderr)?;
        match until {
            // What was there once the time was up has been read.
            Some(t) if Instant::now() >= t => break,
            Some(_) => {}
            // Looked at when the pipes are quiet, and between reads of a steady stream.
            None if !ready || looked.elapsed() >= LOOK_EVERY => {
                looked = Instant::now();
                if children.has_ended(child) {
                    let after = if children.interrupted() {
                        Duration::ZERO
                    } else {
                        AFTER_END
                    };
                    until = Some(Instant::now() + after);
                }
            }
            None => {}
        }
    }
    Ok(())
}
