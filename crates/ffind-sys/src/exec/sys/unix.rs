//! Running commands on Unix: process groups and signals (see [`crate::exec::children`] for
//! what they are for), `waitid` and `wait4`, `poll` on the children's pipes, and the
//! kernel's limits on a command line.

use std::ffi::OsStr;
use std::io::{self, Read};
use std::os::fd::AsFd;
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStderr, ChildStdout, Command};
use std::time::Duration;

use nix::errno::Errno;
use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
use nix::sys::signal::{kill, killpg, Signal};
use nix::unistd::{sysconf, Pid, SysconfVar};
use signal_hook::consts::{SIGCONT, SIGHUP, SIGINT, SIGTERM, SIGTSTP};
use signal_hook::iterator::Signals;

use crate::exec::sys::argument::Argument;
use crate::exec::usage::Usage;
use crate::exit::Outcome;

/// An interrupting signal's number.
pub type Interrupt = i32;

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

/// Whether `child`, not reaped yet, has exited; it is left for `Child::wait` to reap.
pub fn has_exited(child: &Child) -> bool {
    let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
    exited(child.id(), flags).unwrap_or(true)
}

/// Waits for `child` to exit without reaping it: until it is reaped, its pid (and its group's
/// id) cannot be reused, so a signal sent meanwhile reaches no one else.
pub fn wait_exit(child: &Child) {
    let _ = exited(child.id(), libc::WEXITED | libc::WNOWAIT);
}

/// Continues the children of this process that have stopped since last asked (`waitid` with
/// `WSTOPPED`, which reports each stop once and reaps nothing) and that `listed` does not
/// know: children stopped before they ran their program. Returns their pids.
pub fn continue_stopped_unlisted(listed: impl Fn(u32) -> bool) -> Vec<u32> {
    let mut continued = Vec::new();
    loop {
        // SAFETY: as in `exited`: zeroed plain integers, filled by waitid.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: waitid writes one `siginfo_t` into the one we own.
        let ret =
            unsafe { libc::waitid(libc::P_ALL, 0, &mut info, libc::WSTOPPED | libc::WNOHANG) };
        // SAFETY: filled by waitid, or still zero (no stop to report).
        let pid = unsafe { info.si_pid() };
        if ret != 0 {
            if Errno::last() == Errno::EINTR {
                continue;
            }
            return continued;
        }
        if pid == 0 {
            return continued;
        }
        let pid = pid as u32;
        if !listed(pid) {
            // Not reaped (a stop reaps nothing), so the pid is still this child's.
            let _ = kill(Pid::from_raw(pid as i32), Signal::SIGCONT);
            continued.push(pid);
        }
    }
}

/// Sets up `cmd` before it starts: in a process group of its own when `own_group`.
pub fn prepare(cmd: &mut Command, own_group: bool) {
    if own_group {
        // setpgid in the child before exec: the group exists once spawn returns.
        cmd.process_group(0);
    }
}

/// A running child, as signals reach it: its pid, and whether it leads a group of its own.
#[derive(Debug, Clone, Copy)]
pub struct Process {
    pid: u32,
    own_group: bool,
}

impl Process {
    /// The child just started, in a group of its own when `own_group`.
    pub fn new(child: &Child, own_group: bool) -> Process {
        Process {
            pid: child.id(),
            own_group,
        }
    }

    /// The child's process id.
    pub fn id(&self) -> u32 {
        self.pid
    }

    /// Passes the interrupting signal on.
    pub fn interrupt(&self, sig: Interrupt) {
        self.send(sig);
    }

    /// Passes the interrupting signal on to a command that started as it came.
    pub fn interrupt_late(&self, sig: Interrupt) {
        self.send(sig);
    }

    /// Kills the command and its group (a second interrupt).
    pub fn kill(&self) {
        self.send(libc::SIGKILL);
    }

    /// Stops (SIGTSTP) or continues (SIGCONT) a command in a group of its own; one in ffind's
    /// group got the terminal's signal with ffind.
    pub fn job_control(&self, stop: bool) {
        if self.own_group {
            let sig = if stop {
                Signal::SIGTSTP
            } else {
                Signal::SIGCONT
            };
            let _ = killpg(Pid::from_raw(self.pid as i32), sig);
        }
    }

    /// Stops (SIGTSTP) or continues (SIGCONT) the command alone, whatever its group: one that
    /// the terminal's stop reached before it ran, and that ffind continued so that it could.
    pub fn job_control_alone(&self, stop: bool) {
        let sig = if stop {
            Signal::SIGTSTP
        } else {
            Signal::SIGCONT
        };
        let _ = kill(Pid::from_raw(self.pid as i32), sig);
    }

    /// Sends `sig` to the command, and to its whole group when it has one of its own; that
    /// group is continued too, as a shell's `kill` does to a stopped job, since a command
    /// stopped there (by SIGTTIN, reading the terminal from outside its foreground) would
    /// not end before.
    fn send(self, sig: i32) {
        let Ok(sig) = Signal::try_from(sig) else {
            return;
        };
        let pid = Pid::from_raw(self.pid as i32);
        if self.own_group {
            let _ = killpg(pid, sig);
            if sig != Signal::SIGKILL {
                let _ = killpg(pid, Signal::SIGCONT);
            }
        } else {
            let _ = kill(pid, sig);
        }
    }
}

/// The interrupting signals (SIGINT, SIGTERM, SIGHUP), caught from [`Interrupts::watch`] on.
pub struct Interrupts(Signals);

impl Interrupts {
    /// Catches the interrupting signals: they no longer end ffind by themselves.
    pub fn watch() -> io::Result<Interrupts> {
        Ok(Interrupts(Signals::new([SIGINT, SIGTERM, SIGHUP])?))
    }

    /// Waits for the next signal (`None` if none can come any more). Not an `Iterator`: it
    /// blocks, and one thread asks it, as Windows' console handler is asked.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<Interrupt> {
        self.0.forever().next()
    }

    /// Whether another signal came since the last one asked for.
    pub fn another(&mut self) -> bool {
        self.0.pending().next().is_some()
    }
}

/// Ends ffind as `sig` asked: 130 for SIGINT (fd's exit code), dying of the signal itself
/// otherwise (a shell sees 128 + its number).
pub fn exit_interrupted(sig: Interrupt) -> ! {
    if sig == SIGINT {
        std::process::exit(Outcome::Interrupted.code().into());
    }
    let _ = signal_hook::low_level::emulate_default_handler(sig);
    std::process::exit(128 + sig)
}

/// Watches job control on a thread of its own: `pass_on(true)` on SIGTSTP, before ffind stops
/// itself (the default action it replaced), `pass_on(false)` on the SIGCONT that continues it.
/// Where ffind was started with SIGTSTP ignored (by a supervisor, or a parent that wants no
/// stop), it stays ignored, as a shell leaves a signal ignored on entry: nothing stops ffind,
/// and its commands inherit the ignoring, so there is nothing to pass on.
pub fn watch_job_control(pass_on: impl Fn(bool) + Send + 'static) -> io::Result<()> {
    if stops_ignored() {
        return Ok(());
    }
    let mut jobs = Signals::new([SIGTSTP, SIGCONT])?;
    std::thread::Builder::new()
        .name("ffind-jobs".into())
        .spawn(move || {
            for sig in jobs.forever() {
                if sig == SIGTSTP {
                    pass_on(true);
                    // Stops the whole process here, until a SIGCONT.
                    let _ = signal_hook::low_level::emulate_default_handler(SIGTSTP);
                } else {
                    pass_on(false);
                }
            }
        })?;
    Ok(())
}

/// Whether this process was started with SIGTSTP ignored (asked before any handler is set).
pub fn stops_ignored() -> bool {
    // SAFETY: a zeroed sigaction is a valid out-parameter; sigaction with a null new action
    // only reads the current one into it.
    let mut old: libc::sigaction = unsafe { std::mem::zeroed() };
    // SAFETY: as above: `old` is ours, the new action is null.
    let ret = unsafe { libc::sigaction(libc::SIGTSTP, std::ptr::null(), &mut old) };
    ret == 0 && old.sa_sigaction == libc::SIG_IGN
}

/// A child's stdout and stderr, read both at once with `poll` (one could fill its pipe while
/// ffind waits on the other).
pub struct Pipes {
    out: Option<ChildStdout>,
    err: Option<ChildStderr>,
    buf: Vec<u8>,
}

impl Pipes {
    /// Reads from `out` and `err` from now on.
    pub fn new(out: ChildStdout, err: ChildStderr) -> io::Result<Pipes> {
        Ok(Pipes {
            out: Some(out),
            err: Some(err),
            buf: vec![0u8; 64 * 1024],
        })
    }

    /// Whether either pipe is still open.
    pub fn open(&self) -> bool {
        self.out.is_some() || self.err.is_some()
    }

    /// Waits up to `timeout` for output and reads what came into `stdout` and `stderr`:
    /// whether anything came (or a signal cut the wait short).
    pub fn read(
        &mut self,
        timeout: Duration,
        stdout: &mut Vec<u8>,
        stderr: &mut Vec<u8>,
    ) -> io::Result<bool> {
        let (out_ready, err_ready) = {
            let mut fds = Vec::with_capacity(2);
            if let Some(out) = &self.out {
                fds.push(PollFd::new(out.as_fd(), PollFlags::POLLIN));
            }
            if let Some(err) = &self.err {
                fds.push(PollFd::new(err.as_fd(), PollFlags::POLLIN));
            }
            let timeout = PollTimeout::try_from(timeout).unwrap_or(PollTimeout::MAX);
            match poll(&mut fds, timeout) {
                Err(Errno::EINTR) => return Ok(true),
                Err(e) => return Err(e.into()),
                Ok(0) => return Ok(false),
                Ok(_) => {}
            }
            let ready: Vec<bool> = fds
                .iter()
                .map(|f| f.revents().is_some_and(|r| !r.is_empty()))
                .collect();
            let out_ready = self.out.is_some() && ready[0];
            let err_ready = self.err.is_some() && ready[usize::from(self.out.is_some())];
            (out_ready, err_ready)
        };
        if out_ready {
            if let Some(out) = &mut self.out {
                if !read_some(out, &mut self.buf, stdout)? {
                    self.out = None;
                }
            }
        }
        if err_ready {
            if let Some(err) = &mut self.err {
                if !read_some(err, &mut self.buf, stderr)? {
                    self.err = None;
                }
            }
        }
        Ok(true)
    }
}

/// One read into `into`; false at the end of the stream.
fn read_some(from: &mut impl Read, buf: &mut [u8], into: &mut Vec<u8>) -> io::Result<bool> {
    loop {
        match from.read(buf) {
            Ok(0) => return Ok(false),
            Ok(n) => {
                into.extend_from_slice(&buf[..n]);
                return Ok(true);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Whether stdout is a pipe whose reader has gone (the kernel flags its end with POLLERR).
pub fn stdout_gone() -> bool {
    let stdout = io::stdout();
    let mut fds = [PollFd::new(stdout.as_fd(), PollFlags::empty())];
    poll(&mut fds, PollTimeout::ZERO).is_ok()
        && fds[0]
            .revents()
            .is_some_and(|r| r.contains(PollFlags::POLLERR))
}

/// Whether a command could not start because its arguments are too long (`E2BIG`).
pub fn is_too_long(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::ArgumentListTooLong
}

/// Room left for what the kernel adds and for the environment changing under us.
const ARG_MARGIN: usize = 4096;

/// Where the kernel stops whatever the stack limit says (a quarter of its 8 MiB stack
/// default, times three: `fs/exec.c`).
const KERNEL_ARG_CAP: usize = 6 << 20;

/// Used when sysconf cannot tell: POSIX's minimum is far lower, Linux's floor is 128 KiB.
const FALLBACK_ARG_MAX: usize = 128 * 1024;

/// What the kernel lets a command line and its environment take. On Linux its own rule
/// (`fs/exec.c`): a quarter of the stack limit, at least 128 KiB ([`FALLBACK_ARG_MAX`]), at
/// most [`KERNEL_ARG_CAP`], as glibc's `sysconf(_SC_ARG_MAX)` says it; musl's says 128 KiB
/// whatever the limit, which cut `-X`'s command lines (and the static release builds') to a
/// sixteenth of what the kernel takes.
#[cfg(target_os = "linux")]
fn arg_max() -> usize {
    let mut stack = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one `struct rlimit` into the one we own.
    let known = unsafe { libc::getrlimit(libc::RLIMIT_STACK, &mut stack) } == 0;
    if !known || stack.rlim_cur == libc::RLIM_INFINITY {
        return KERNEL_ARG_CAP;
    }
    usize::try_from(stack.rlim_cur / 4)
        .unwrap_or(usize::MAX)
        .max(FALLBACK_ARG_MAX)
}

/// What the system lets a command line and its environment take: `sysconf(_SC_ARG_MAX)`.
#[cfg(not(target_os = "linux"))]
fn arg_max() -> usize {
    sysconf(SysconfVar::ARG_MAX)
        .ok()
        .flatten()
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(FALLBACK_ARG_MAX)
}

/// How long a command line may be: what the kernel lets it take ([`arg_max`]), less the environment and a
/// margin, each argument counted as the kernel counts it (its bytes, its NUL, its pointer);
/// no argument longer than Linux's `MAX_ARG_STRLEN`.
#[derive(Debug, Clone, Copy)]
pub struct LineLimit {
    room: usize,
    longest: usize,
}

impl LineLimit {
    /// The limit for a command line that starts `program` (the same for every program).
    pub fn for_program(_program: &OsStr) -> LineLimit {
        let arg_max = arg_max().min(KERNEL_ARG_CAP);
        let env: usize = std::env::vars_os()
            .map(|(k, v)| arg_bytes(k.len() + 1 + v.len()))
            .sum();
        // MAX_ARG_STRLEN is 32 pages, the NUL included (`include/uapi/linux/binfmts.h`).
        let page = sysconf(SysconfVar::PAGE_SIZE)
            .ok()
            .flatten()
            .and_then(|n| usize::try_from(n).ok())
            .unwrap_or(4096);
        LineLimit {
            room: arg_max.saturating_sub(env + ARG_MARGIN),
            longest: 32 * page - 1,
        }
    }

    /// What the whole command line may cost, program included.
    pub fn room(&self) -> usize {
        self.room
    }

    /// The longest argument passed at all, in bytes.
    pub fn longest(&self) -> usize {
        self.longest
    }

    /// What the program costs.
    pub fn program_cost(&self, program: &OsStr) -> usize {
        arg_bytes(program.len())
    }

    /// What one argument costs.
    pub fn cost(&self, arg: &OsStr) -> usize {
        arg_bytes(arg.len())
    }
}

/// Whether a command failed to start for a reason that may pass: none on Unix, whose
/// `fork`/`exec` failures (no memory, too many processes, a bad program) say something lasting.
pub fn start_again(_e: &io::Error) -> bool {
    false
}

/// How an argument made from a result reaches the program: as it is, on Unix, where a program
/// gets its arguments as a list and no shell reads them.
#[derive(Debug, Clone, Copy)]
pub struct ResultArgs;

impl ResultArgs {
    /// For a command that starts `program` with `args` (each argument's own text, and whether
    /// it has no placeholder).
    pub fn for_command<'a>(
        _program: &OsStr,
        _args: impl IntoIterator<Item = (&'a OsStr, bool)>,
    ) -> ResultArgs {
        ResultArgs
    }

    /// Every argument can be passed.
    pub fn check(&self, _arg: &Argument) -> Result<(), &'static str> {
        Ok(())
    }

    /// The command: `program` with `args`, as they are.
    pub fn command(&self, program: &OsStr, args: &[Argument]) -> Command {
        let mut cmd = Command::new(program);
        cmd.args(args.iter().map(|a| &a.text));
        cmd
    }
}

/// Bytes one argument of `len` bytes costs in the new program's memory: its text, its NUL,
/// its pointer, which Linux counts as its own pointer's size, 8 bytes on a 64-bit kernel even
/// for a 32-bit program (i686 on x86_64, an armv7 program under qemu-user): so 8 wherever we
/// run (a 32-bit kernel's 4 leave a little room unused).
fn arg_bytes(len: usize) -> usize {
    len + 1 + std::mem::size_of::<usize>().max(8)
}

/// `wait4` as the system call itself on 32-bit musl: musl's `wait4` for programs built with a
/// 32-bit `time_t` (its `__wait4_time32`, which the libc crate calls there) copies the resource
/// usage back only when no child was reaped (`if (!r && usage)`), so that a reaped child's
/// usage read as zeros (`--bench`'s user and system times and peak memory). The kernel's own
/// `struct rusage` on those systems is the one the libc crate declares (32-bit `long`s).
///
/// # Safety
///
/// As for wait4(2): `status` and `usage` are each null or valid for writes of their type.
#[cfg(all(target_os = "linux", target_env = "musl", target_pointer_width = "32"))]
unsafe fn wait4(
    pid: libc::pid_t,
    status: *mut libc::c_int,
    options: libc::c_int,
    usage: *mut libc::rusage,
) -> libc::pid_t {
    // SAFETY: the caller's pointers, as for wait4(2).
    unsafe { libc::syscall(libc::SYS_wait4, pid, status, options, usage) as libc::pid_t }
}

#[cfg(not(all(target_os = "linux", target_env = "musl", target_pointer_width = "32")))]
use libc::wait4;

/// Waits for `child` with `wait4`, which reaps it and returns its own resource usage (so
/// nothing else this process started can leak into the numbers). The child is reaped: it is
/// not to be waited for again.
pub fn wait_with_usage(child: Child) -> io::Result<Usage> {
    let pid = child.id() as libc::pid_t;
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain old data, for which all zeroes is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: `pid` is our child, not yet waited for (std waits only when asked, and we
        // never ask); both pointers are valid for writes for the duration of the call.
        let reaped = unsafe { wait4(pid, &mut status, 0, &mut usage) };
        if reaped == pid {
            break;
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    // Linux and the BSDs report ru_maxrss in KiB, macOS in bytes.
    let rss_unit = if cfg!(target_vendor = "apple") {
        1
    } else {
        1024
    };
    Ok(Usage {
        exit_code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
        user: seconds(usage.ru_utime),
        system: seconds(usage.ru_stime),
        max_rss: u64::try_from(usage.ru_maxrss)
            .ok()
            .map(|kib| kib * rss_unit),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usage_of(script: &str) -> Usage {
        let child = Command::new("/bin/sh")
            .args(["-c", script])
            .spawn()
            .unwrap();
        wait_with_usage(child).unwrap()
    }

    #[test]
    fn a_childs_usage_is_its_own_with_its_peak_memory() {
        let usage = usage_of("exit 3");
        assert_eq!(usage.exit_code, Some(3));
        assert!(usage.max_rss.is_some_and(|m| m > 0), "{usage:?}");
    }

    #[test]
    fn a_signal_is_no_exit_code() {
        assert_eq!(usage_of("kill -9 $$").exit_code, None);
    }
}
