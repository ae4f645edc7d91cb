//! The commands that are running, and what Ctrl-C does to them.
//!
//! Every child is started and reaped here, so that an interrupting signal (SIGINT, SIGTERM,
//! SIGHUP) can reach all of them: the signal stops new commands from starting, is passed on to
//! the running ones, and once they have ended ffind exits with 130 (SIGINT) or dies of the same
//! signal. A second signal kills them (SIGKILL) and ffind ends at once.
//!
//! A command runs in a process group of its own ([`Group::Own`]), and the signal goes to the
//! whole group: what the command started gets it too (`sh -c 'sleep 70'` is two processes; a
//! signal to the shell alone left the sleep running, holding the output pipe that ffind read,
//! issue 18). The exception is a command that shares ffind's terminal ([`Group::Ffinds`]): it
//! stays in ffind's group, the terminal's foreground, where it may read the terminal and
//! change its settings (in a group of its own it would be stopped by SIGTTIN or SIGTTOU) and
//! where a Ctrl-C at the terminal reaches it and what it started; a signal sent to ffind alone
//! is passed on to that command only. (After a Ctrl-C at a terminal such a command gets the
//! signal twice, which programs take as one.)
//!
//! Job control: a Ctrl-Z at the terminal stops its foreground group, ffind's, and so not the
//! commands in groups of their own. ffind passes SIGTSTP on to those groups, then stops itself
//! (the default action it replaced); the SIGCONT that continues it (`fg`, `bg`, `kill -CONT`)
//! is passed on to them too. A stopped job thus holds no command running behind it.
//!
//! A child's pid leaves the list as it is reaped, under the list's lock, after `waitid` with
//! `WNOWAIT` has seen it exit: a signal never reaches a reused pid (nor a reused group: a
//! group's id is its first process's pid), and a child has been reaped by the time ffind exits
//! after the first signal. What a command left running after it ended is not ffind's.

use std::io;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

use nix::errno::Errno;
use nix::sys::signal::{kill, killpg, Signal};
use nix::unistd::Pid;
use signal_hook::consts::{SIGCONT, SIGHUP, SIGINT, SIGTERM, SIGTSTP};
use signal_hook::iterator::Signals;

use crate::exit::Outcome;

/// `waitid` for the child `pid` with `flags`, again when a signal interrupts it: whether the
/// child has exited (with `WNOHANG`, false while it runs). POSIX's call, made directly: nix
/// offers it on Linux and FreeBSD only, and macOS has it too.
fn exited(pid: u32, flags: libc::c_int) -> Result<bool, Errno> {
    // SAFETY: `siginfo_t` is plain integers, for which zero is a valid value; zeroed, since
    // with `WNOHANG` and nothing to report a system may leave it as it was.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: waitid writes one `siginfo_t` into the one we own.
        let ret = unsafe { libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, flags) };
        if ret == 0 {
            // SAFETY: filled by waitid (or still zero: no child to report, `si_pid` 0).
            return Ok(unsafe { info.si_pid() } != 0);
        }
        match Errno::last() {
            Errno::EINTR => continue,
            e => return Err(e),
        }
    }
}

/// The running children and the signal that interrupted ffind, if one did.
#[derive(Debug, Default)]
pub struct Children {
    state: Mutex<State>,
    /// Told when a child leaves the list.
    ended: Condvar,
}

/// Which process group a command runs in (see the module's doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// A group of its own, signalled whole.
    Own,
    /// ffind's own group: the command shares ffind's terminal.
    Ffinds,
}

/// How long ffind waits, after a second signal has killed every command, for them to be
/// reaped before it exits anyway (a process stuck in the kernel cannot die at once).
const AFTER_KILL: Duration = Duration::from_millis(500);

/// A command that has not been reaped.
#[derive(Debug, Clone, Copy)]
struct Running {
    pid: u32,
    group: Group,
}

impl Running {
    /// Sends `sig` to the command, and to its whole group when it has one of its own; that
    /// group is continued too, as a shell's `kill` does to a stopped job, since a command
    /// stopped there (by SIGTTIN, reading the terminal from outside its foreground) would
    /// not end before.
    fn send(self, sig: i32) {
        let Ok(sig) = Signal::try_from(sig) else {
            return;
        };
        let pid = Pid::from_raw(self.pid as i32);
        match self.group {
            Group::Own => {
                let _ = killpg(pid, sig);
                if sig != Signal::SIGKILL {
                    let _ = killpg(pid, Signal::SIGCONT);
                }
            }
            Group::Ffinds => {
                let _ = kill(pid, sig);
            }
        }
    }
}

#[derive(Debug, Default)]
struct State {
    running: Vec<Running>,
    /// Children being started: not listed yet, but the signal must wait for them too.
    starting: usize,
    signal: Option<i32>,
    /// ffind was stopped (SIGTSTP) and not continued yet: a command that starts now stops too.
    stopped: bool,
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

    /// Starts `cmd` in `group`, unless ffind is being interrupted (`Ok(None)`). A child that
    /// starts just as the signal comes gets the signal too.
    pub fn spawn(&self, cmd: &mut Command, group: Group) -> io::Result<Option<Child>> {
        if group == Group::Own {
            // setpgid in the child before exec: the group exists once spawn returns.
            cmd.process_group(0);
        }
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
        let running = Running {
            pid: child.id(),
            group,
        };
        state.running.push(running);
        if let Some(sig) = state.signal {
            running.send(sig);
        } else if state.stopped && group == Group::Own {
            let _ = killpg(Pid::from_raw(running.pid as i32), Signal::SIGTSTP);
        }
        Ok(Some(child))
    }

    /// Whether `child` (started by [`Children::spawn`], not yet reaped) has ended; it is left
    /// for [`Children::wait`] to reap.
    pub fn has_ended(&self, child: &Child) -> bool {
        let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
        exited(child.id(), flags).unwrap_or(true)
    }

    /// Waits for a child started by [`Children::spawn`] and reaps it.
    pub fn wait(&self, child: &mut Child) -> io::Result<ExitStatus> {
        // Wait for the exit without reaping: until the pid leaves the list, it cannot be reused.
        let _ = exited(child.id(), libc::WEXITED | libc::WNOWAIT);
        // Reaped (at once: it has exited) and unlisted together, so that a signal never goes
        // to a pid that is no longer ours, and ffind never exits leaving a zombie behind.
        let mut state = self.lock();
        let status = child.wait();
        state.running.retain(|r| r.pid != child.id());
        self.ended.notify_all();
        status
    }

    /// Marks ffind interrupted by `sig` and passes it on to every running child.
    fn interrupt(&self, sig: i32) {
        let mut state = self.lock();
        state.signal.get_or_insert(sig);
        for running in &state.running {
            running.send(sig);
        }
    }

    /// Passes a stop (SIGTSTP) or a continue (SIGCONT) on to the commands in groups of their
    /// own (see the module's doc); those in ffind's group got it from the terminal with ffind.
    fn pass_on_job_control(&self, sig: Signal) {
        let mut state = self.lock();
        state.stopped = sig == Signal::SIGTSTP;
        for running in state.running.iter().filter(|r| r.group == Group::Own) {
            let _ = killpg(Pid::from_raw(running.pid as i32), sig);
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

    /// Watches SIGINT, SIGTERM and SIGHUP on a thread of its own, SIGTSTP and SIGCONT on
    /// another (see the module's doc).
    pub fn watch_signals(&'static self) -> io::Result<()> {
        let mut jobs = Signals::new([SIGTSTP, SIGCONT])?;
        std::thread::Builder::new()
            .name("ffind-jobs".into())
            .spawn(move || {
                for sig in jobs.forever() {
                    if sig == SIGTSTP {
                        self.pass_on_job_control(Signal::SIGTSTP);
                        // Stops the whole process here, until a SIGCONT.
                        let _ = signal_hook::low_level::emulate_default_handler(SIGTSTP);
                    } else {
                        self.pass_on_job_control(Signal::SIGCONT);
                    }
                }
            })?;
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
                        // The second: every command and its group die, and ffind goes.
                        self.interrupt(libc::SIGKILL);
                        self.wait_all(AFTER_KILL);
                        break;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interrupt_reaches_running_children_and_stops_new_ones() {
        let children: &'static Children = Box::leak(Box::new(Children::new()));
        // A shell waiting for a sleep of its own, in a group of its own, and a sleep in ffind's.
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "sleep 10 & echo $!; wait"])
            .stdout(std::process::Stdio::piped());
        let mut shell = children.spawn(&mut cmd, Group::Own).unwrap().unwrap();
        let mut line = String::new();
        io::BufRead::read_line(
            &mut io::BufReader::new(shell.stdout.take().unwrap()),
            &mut line,
        )
        .unwrap();
        let grandchild = Pid::from_raw(line.trim().parse().unwrap());
        let mut sleep = Command::new("sleep");
        let mut sleep = children
            .spawn(sleep.arg("10"), Group::Ffinds)
            .unwrap()
            .unwrap();
        assert!(!children.has_ended(&shell));
        children.interrupt(libc::SIGTERM);
        for child in [&mut shell, &mut sleep] {
            let status = children.wait(child).unwrap();
            assert_eq!(
                std::os::unix::process::ExitStatusExt::signal(&status),
                Some(libc::SIGTERM)
            );
        }
        assert!(children.wait_all(Duration::ZERO));
        let mut cmd = Command::new("true");
        assert!(children.spawn(&mut cmd, Group::Own).unwrap().is_none());
        // The shell's sleep got the signal too (its parent now init, or a subreaper, which
        // reaps it): give it a few seconds to go.
        let gone = || {
            std::fs::read_to_string(format!("/proc/{grandchild}/stat")).map_or(true, |s| {
                s.rsplit(") ").next().is_some_and(|r| r.starts_with('Z'))
            })
        };
        let start = std::time::Instant::now();
        while !gone() && start.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(10));
        }
        if !gone() {
            let _ = kill(grandchild, Signal::SIGKILL);
            panic!("the shell's sleep was not signalled");
        }
    }
}
