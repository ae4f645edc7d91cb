//! The commands that are running, and what Ctrl-C does to them.
//!
//! Every child is started and reaped here, so that an interrupting signal (SIGINT, SIGTERM,
//! SIGHUP) can reach all of them: the signal stops new commands from starting, is passed on to
//! the running ones (`kill -INT` aimed at ffind alone would otherwise leave them running; after
//! a Ctrl-C at a terminal they get it twice, which programs take as one), and once they have
//! ended ffind exits with 130 (SIGINT) or dies of the same signal. A second signal while
//! waiting kills them (SIGKILL).
//!
//! A child's pid leaves the list as it is reaped, under the list's lock, after `waitid` with
//! `WNOWAIT` has seen it exit: a signal never reaches a reused pid, and a child has been
//! reaped by the time ffind exits.

use std::io;
use std::process::{Child, Command, ExitStatus};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

use nix::errno::Errno;
use nix::sys::signal::{kill, Signal};
use nix::sys::wait::{waitid, Id, WaitPidFlag};
use nix::unistd::Pid;
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use crate::exit::Outcome;

/// The running children and the signal that interrupted ffind, if one did.
#[derive(Debug, Default)]
pub struct Children {
    state: Mutex<State>,
    /// Told when a child leaves the list.
    ended: Condvar,
}

#[derive(Debug, Default)]
struct State {
    running: Vec<u32>,
    /// Children being started: not listed yet, but the signal must wait for them too.
    starting: usize,
    signal: Option<i32>,
}

impl Children {
    /// No children yet, no signal watched.
    pub fn new() -> Children {
        Children::default()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether an interrupting signal came: no new command starts.
    pub fn interrupted(&self) -> bool {
        self.lock().signal.is_some()
    }

    /// Starts `cmd`, unless ffind is being interrupted (`Ok(None)`). A child that starts just
    /// as the signal comes gets the signal too.
    pub fn spawn(&self, cmd: &mut Command) -> io::Result<Option<Child>> {
        {
            let mut state = self.lock();
            if state.signal.is_some() {
                return Ok(None);
            }
            state.starting += 1;
        }
        let spawned = cmd.spawn();
        let mut state = self.lock();
        state.starting -= 1;
        self.ended.notify_all();
        let child = spawned?;
        state.running.push(child.id());
        if let Some(sig) = state.signal {
            send(child.id(), sig);
        }
        Ok(Some(child))
    }

    /// Waits for a child started by [`Children::spawn`] and reaps it.
    pub fn wait(&self, child: &mut Child) -> io::Result<ExitStatus> {
        let pid = Pid::from_raw(child.id() as i32);
        // Wait for the exit without reaping: until the pid leaves the list, it cannot be reused.
        let exited = || waitid(Id::Pid(pid), WaitPidFlag::WEXITED | WaitPidFlag::WNOWAIT);
        while let Err(Errno::EINTR) = exited() {}
        // Reaped (at once: it has exited) and unlisted together, so that a signal never goes
        // to a pid that is no longer ours, and ffind never exits leaving a zombie behind.
        let mut state = self.lock();
        let status = child.wait();
        state.running.retain(|&p| p != child.id());
        self.ended.notify_all();
        status
    }

    /// Marks ffind interrupted by `sig` and passes it on to every running child.
    fn interrupt(&self, sig: i32) {
        let mut state = self.lock();
        state.signal.get_or_insert(sig);
        for &pid in &state.running {
            send(pid, sig);
        }
    }

    /// Waits up to `timeout` for the last child to end; true when none is left.
    fn wait_all(&self, timeout: Duration) -> bool {
        let state = self.lock();
        let (state, _) = self
            .ended
            .wait_timeout_while(state, timeout, |s| !s.running.is_empty() || s.starting > 0)
            .unwrap_or_else(|e| e.into_inner());
        state.running.is_empty() && state.starting == 0
    }

    /// Watches SIGINT, SIGTERM and SIGHUP on a thread of its own (see the module's doc).
    pub fn watch_signals(&'static self) -> io::Result<()> {
        let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP])?;
        std::thread::Builder::new()
            .name("ffind-signals".into())
            .spawn(move || {
                let Some(sig) = signals.forever().next() else {
                    return;
                };
                self.interrupt(sig);
                while !self.wait_all(Duration::from_millis(50)) {
                    if signals.pending().next().is_some() {
                        self.interrupt(libc::SIGKILL);
                    }
                }
                if sig == SIGINT {
                    std::process::exit(Outcome::Interrupted.code().into());
                }
                let _ = signal_hook::low_level::emulate_default_handler(sig);
                std::process::exit(128 + sig);
            })?;
        Ok(())
    }
}

/// Sends `sig` to `pid` (a child that has not been reaped; it may have exited already).
fn send(pid: u32, sig: i32) {
    if let Ok(sig) = Signal::try_from(sig) {
        let _ = kill(Pid::from_raw(pid as i32), sig);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interrupt_reaches_running_children_and_stops_new_ones() {
        let children: &'static Children = Box::leak(Box::new(Children::new()));
        let mut child = children
            .spawn(Command::new("sleep").arg("10"))
            .unwrap()
            .unwrap();
        children.interrupt(libc::SIGTERM);
        let status = children.wait(&mut child).unwrap();
        assert_eq!(
            std::os::unix::process::ExitStatusExt::signal(&status),
            Some(libc::SIGTERM)
        );
        assert!(children.wait_all(Duration::ZERO));
        assert!(children.spawn(&mut Command::new("true")).unwrap().is_none());
    }
}
