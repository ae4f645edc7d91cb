//! Running commands on Windows, where there are no process groups and no signals.
//!
//! A console's Ctrl-C (or Ctrl-Break, or its closing) goes to every process attached to the
//! console, so the running commands get it from the console with ffind: ffind catches it
//! (`SetConsoleCtrlHandler`), starts no more commands, waits for the running ones and exits
//! with 130, as on Unix; a second one terminates them (`TerminateProcess`, with the status a
//! console program ends with on Ctrl-C) and ffind exits at once. What a command started
//! itself is not reached by that second one (no job object holds them: one with
//! `KILL_ON_JOB_CLOSE` would also end, at ffind's exit, what a command left running on
//! purpose); it got both Ctrl-Cs from the console already.
//!
//! A child's handle, unlike a pid, cannot be reused while it is open: std's `Child` holds it
//! until it is dropped, which is after `Children::wait` has taken the child off the list.

use std::ffi::OsStr;
use std::io::{self, Read};
use std::os::windows::ffi::OsStrExt;
use std::os::windows::io::AsRawHandle;
use std::process::{Child, ChildStderr, ChildStdout, Command};
use std::sync::OnceLock;
use std::time::Duration;

use crossbeam_channel::{unbounded, Receiver, RecvTimeoutError, Sender};
use windows_sys::core::BOOL;
use windows_sys::Win32::Foundation::{
    ERROR_FILENAME_EXCED_RANGE, ERROR_INTERNAL_ERROR, FILETIME, HANDLE, STATUS_CONTROL_C_EXIT,
    WAIT_OBJECT_0,
};
use windows_sys::Win32::System::Console::{SetConsoleCtrlHandler, CTRL_BREAK_EVENT, CTRL_C_EVENT};
use windows_sys::Win32::System::ProcessStatus::{K32GetProcessMemoryInfo, PROCESS_MEMORY_COUNTERS};
use windows_sys::Win32::System::Threading::{
    GetProcessTimes, TerminateProcess, WaitForSingleObject, INFINITE,
};

use crate::exec::sys::cmd::{runs_through_cmd, std_quoted_marked, CMD_SPECIAL};
use crate::exec::usage::Usage;
use crate::exit::Outcome;

/// A console control event (`CTRL_C_EVENT`, `CTRL_BREAK_EVENT`, `CTRL_CLOSE_EVENT`, ...).
pub type Interrupt = u32;

/// The handle of a child std still holds.
fn handle_of(child: &Child) -> HANDLE {
    child.as_raw_handle() as HANDLE
}

/// Whether `child` has exited (its handle is signalled); it is left for `Child::wait`.
pub fn has_exited(child: &Child) -> bool {
    // SAFETY: the handle is the child's, open as long as `child` is.
    unsafe { WaitForSingleObject(handle_of(child), 0) == WAIT_OBJECT_0 }
}

/// Waits for `child` to exit, leaving it to `Child::wait`.
pub fn wait_exit(child: &Child) {
    // SAFETY: as in `has_exited`.
    unsafe { WaitForSingleObject(handle_of(child), INFINITE) };
}

/// Nothing to set up: a Windows process has no group that ffind would give it (a new
/// console process group, `CREATE_NEW_PROCESS_GROUP`, would turn its Ctrl-C off).
pub fn prepare(_cmd: &mut Command, _own_group: bool) {}

/// No process is stopped on Windows: none to continue.
pub fn continue_stopped_unlisted(_listed: impl Fn(u32) -> bool) -> Vec<u32> {
    Vec::new()
}

/// A running child, as ffind reaches it: its id, and its process handle (kept as an integer,
/// so that the list of children can be shared between threads).
#[derive(Debug, Clone, Copy)]
pub struct Process {
    id: u32,
    handle: usize,
}

impl Process {
    /// The child just started (`own_group` means nothing here).
    pub fn new(child: &Child, _own_group: bool) -> Process {
        Process {
            id: child.id(),
            handle: handle_of(child) as usize,
        }
    }

    /// The child's process id.
    pub fn id(&self) -> u32 {
        self.id
    }

    /// Nothing to pass on: the console sent the event to the command with ffind.
    pub fn interrupt(&self, _event: Interrupt) {}

    /// Terminates a command that started as the event came: the console sent the event
    /// before the command was there to get it, and it has done nothing yet.
    pub fn interrupt_late(&self, _event: Interrupt) {
        self.kill();
    }

    /// Terminates the command (a second Ctrl-C), with the status of a console program ended
    /// by Ctrl-C.
    pub fn kill(&self) {
        // SAFETY: the handle stays open while the child is listed (see the module's doc);
        // terminating a process that has exited already fails harmlessly.
        unsafe { TerminateProcess(self.handle as HANDLE, STATUS_CONTROL_C_EXIT as u32) };
    }

    /// No job control on Windows.
    pub fn job_control(&self, _stop: bool) {}

    /// No job control on Windows.
    pub fn job_control_alone(&self, _stop: bool) {}
}

/// The console's events, as the handler sends them to the watching thread.
fn events() -> &'static (Sender<Interrupt>, Receiver<Interrupt>) {
    static EVENTS: OnceLock<(Sender<Interrupt>, Receiver<Interrupt>)> = OnceLock::new();
    EVENTS.get_or_init(unbounded)
}

/// The console control handler: runs on a thread the system starts for each event.
///
/// # Safety
///
/// Called by the system only, as `SetConsoleCtrlHandler`'s handler (it reads no pointer).
unsafe extern "system" fn on_console_event(event: u32) -> BOOL {
    let _ = events().0.send(event);
    match event {
        CTRL_C_EVENT | CTRL_BREAK_EVENT => 1,
        // The console is closing (or the user logging off, the system shutting down): the
        // system ends the process as soon as this returns, so it waits here for the watching
        // thread to exit once the commands have ended (the system's own limit, some
        // seconds, ends it otherwise).
        _ => loop {
            std::thread::park();
        },
    }
}

/// The console's interrupting events, caught from [`Interrupts::watch`] on.
pub struct Interrupts {
    events: Receiver<Interrupt>,
}

impl Interrupts {
    /// Catches Ctrl-C, Ctrl-Break and the console's closing: they no longer end ffind by
    /// themselves.
    pub fn watch() -> io::Result<Interrupts> {
        let events = events().1.clone();
        // SAFETY: the handler is a plain function that lives as long as the process.
        if unsafe { SetConsoleCtrlHandler(Some(on_console_event), 1) } == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(Interrupts { events })
    }

    /// Waits for the next event.
    #[allow(clippy::should_implement_trait)] // blocks, as Unix's: not an `Iterator`
    pub fn next(&mut self) -> Option<Interrupt> {
        self.events.recv().ok()
    }

    /// Whether another event came since the last one asked for.
    pub fn another(&mut self) -> bool {
        self.events.try_recv().is_ok()
    }
}

/// Ends ffind after an interrupt: 130, whatever the event (fd's code for its Ctrl-C, whose
/// handler takes Ctrl-Break too).
pub fn exit_interrupted(_event: Interrupt) -> ! {
    std::process::exit(Outcome::Interrupted.code().into())
}

/// No job control on Windows: `pass_on` is never called.
pub fn watch_job_control(pass_on: impl Fn(bool) + Send + 'static) -> io::Result<()> {
    drop(pass_on);
    Ok(())
}

/// What a reading thread sends: from stdout (true) or stderr, the bytes read (none at the
/// end of the stream), or the read's error.
type Piece = (bool, io::Result<Vec<u8>>);

/// A child's stdout and stderr, each read by a thread of its own (Windows has no `poll` for
/// pipes). A thread blocked on a pipe that a process the command left running holds open
/// stays blocked after ffind has stopped reading, until that process closes it.
pub struct Pipes {
    pieces: Receiver<Piece>,
    out_open: bool,
    err_open: bool,
}

impl Pipes {
    /// Starts the two reading threads.
    pub fn new(out: ChildStdout, err: ChildStderr) -> io::Result<Pipes> {
        let (sender, pieces) = unbounded();
        reader(out, true, sender.clone())?;
        reader(err, false, sender)?;
        Ok(Pipes {
            pieces,
            out_open: true,
            err_open: true,
        })
    }

    /// Whether either pipe is still open.
    pub fn open(&self) -> bool {
        self.out_open || self.err_open
    }

    /// Waits up to `timeout` for output and takes what came into `stdout` and `stderr`:
    /// whether anything came.
    pub fn read(
        &mut self,
        timeout: Duration,
        stdout: &mut Vec<u8>,
        stderr: &mut Vec<u8>,
    ) -> io::Result<bool> {
        let first = match self.pieces.recv_timeout(timeout) {
            Ok(piece) => piece,
            Err(RecvTimeoutError::Timeout) => return Ok(false),
            Err(RecvTimeoutError::Disconnected) => {
                (self.out_open, self.err_open) = (false, false);
                return Ok(false);
            }
        };
        self.take(first, stdout, stderr)?;
        while let Ok(piece) = self.pieces.try_recv() {
            self.take(piece, stdout, stderr)?;
        }
        Ok(true)
    }

    fn take(
        &mut self,
        (from_out, read): Piece,
        stdout: &mut Vec<u8>,
        stderr: &mut Vec<u8>,
    ) -> io::Result<()> {
        let open = if from_out {
            &mut self.out_open
        } else {
            &mut self.err_open
        };
        match read {
            Ok(bytes) if bytes.is_empty() => *open = false,
            Ok(bytes) => {
                let into = if from_out { stdout } else { stderr };
                into.extend_from_slice(&bytes);
            }
            Err(e) => {
                *open = false;
                return Err(e);
            }
        }
        Ok(())
    }
}

/// A thread reading `pipe` to its end (or until nobody listens), sending what it reads.
fn reader(
    mut pipe: impl Read + Send + 'static,
    from_out: bool,
    to: Sender<Piece>,
) -> io::Result<()> {
    std::thread::Builder::new()
        .name("ffind-exec-pipe".into())
        .spawn(move || {
            let mut buf = vec![0u8; 64 * 1024];
            loop {
                let read = match pipe.read(&mut buf) {
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    // A broken pipe is how Windows says the writer closed it.
                    Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(Vec::new()),
                    read => read.map(|n| buf[..n].to_vec()),
                };
                let end = !matches!(&read, Ok(bytes) if !bytes.is_empty());
                if to.send((from_out, read)).is_err() || end {
                    return;
                }
            }
        })?;
    Ok(())
}

/// Whether stdout is a pipe whose reader has gone: Windows offers no way to ask without
/// writing (a write of nothing may block until the reader reads), so a command's failure
/// there counts as a failure, as in fd.
pub fn stdout_gone() -> bool {
    false
}

/// Whether a command could not start because its command line is too long: `CreateProcessW`
/// says so as "The filename or extension is too long".
pub fn is_too_long(e: &io::Error) -> bool {
    e.raw_os_error() == Some(ERROR_FILENAME_EXCED_RANGE as i32)
}

/// Whether a command failed to start for a reason that may pass when it is started again:
/// `ERROR_INTERNAL_ERROR` (1359), which Wine's process start gives now and then (`wine client
/// error: sendmsg`), more often when several programs start at once; Windows gives it for no
/// lasting reason either.
pub fn start_again(e: &io::Error) -> bool {
    e.raw_os_error() == Some(ERROR_INTERNAL_ERROR as i32)
}

/// `CreateProcessW`'s limit on a command line: 32,767 UTF-16 units, its NUL included.
const COMMAND_LINE_MAX: usize = 32_767;

/// cmd.exe's limit on its command line (what it runs a `.bat` or `.cmd` file with, or a
/// command given to it, `-X cmd /c ...`): 8,191 characters.
const CMD_LINE_MAX: usize = 8_191;

/// What std puts before a batch file's name: `cmd.exe /e:ON /v:OFF /d /c "`.
const CMD_PREFIX: usize = 27;

/// The batch file's full path, which std puts in place of the name given: counted as at
/// least this long, since the search along PATH that finds it is std's.
const BATCH_PATH_MIN: usize = 260;

/// How long a command line may be, counted in UTF-16 units as std builds it: the program in
/// quotes, then each argument after a space, quoted when it holds a space or a tab (or is
/// empty) and its backslashes doubled where a quote follows them. A `.bat` or `.cmd` file
/// runs through cmd.exe, with its own quoting (`%` becomes `%%cd:~,%`), and cmd.exe's
/// shorter limit, which counts for cmd.exe itself too; those are counted high. fd counts
/// 8 KiB for every program (argmax's guess for systems other than Unix); this is what the
/// system takes.
#[derive(Debug, Clone, Copy)]
pub struct LineLimit {
    /// The program is a `.bat` or `.cmd` file, run by std through cmd.exe.
    batch_file: bool,
    /// The program is cmd.exe itself, or a batch file.
    cmd: bool,
}

impl LineLimit {
    /// The limit for a command line that starts `program`.
    pub fn for_program(program: &OsStr) -> LineLimit {
        let (batch_file, cmd) = runs_through_cmd(program);
        LineLimit { batch_file, cmd }
    }

    /// What the whole command line may cost, program included (not its NUL).
    pub fn room(&self) -> usize {
        if self.cmd {
            CMD_LINE_MAX - 1
        } else {
            COMMAND_LINE_MAX - 1
        }
    }

    /// No argument is too long by itself: only the whole line is.
    pub fn longest(&self) -> usize {
        usize::MAX
    }

    /// What the program costs.
    pub fn program_cost(&self, program: &OsStr) -> usize {
        let units = program.encode_wide().count();
        if self.batch_file {
            // cmd.exe /e:ON /v:OFF /d /c ""C:\path\name.cmd" ... "
            CMD_PREFIX + 2 + units.max(BATCH_PATH_MIN) + 1
        } else {
            2 + units
        }
    }

    /// What one argument costs, with the space before it.
    pub fn cost(&self, arg: &OsStr) -> usize {
        if self.batch_file {
            return 1
                + 2
                + arg
                    .encode_wide()
                    .map(|u| match u {
                        0x25 => 8,        // % → %%cd:~,%
                        0x22 | 0x5C => 2, // " → "", and a \ that may be doubled
                        _ => 1,
                    })
                    .sum::<usize>();
        }
        // With the space before it; for cmd.exe, counted as if all of it were a value, in
        // quotes.
        let quoted: Vec<(u16, bool)> = arg.encode_wide().map(|u| (u, false)).collect();
        let units = std_quoted_marked(&quoted, self.cmd).len();
        let escapes = if self.cmd {
            arg.encode_wide()
                .map(|u| match u {
                    0x25 => 7,
                    u if CMD_SPECIAL.contains(&u) => 1,
                    _ => 0,
                })
                .sum()
        } else {
            0
        };
        1 + units + escapes
    }
}

/// Seconds in a FILETIME's 100-nanosecond ticks.
fn seconds(t: FILETIME) -> f64 {
    ((u64::from(t.dwHighDateTime) << 32) | u64::from(t.dwLowDateTime)) as f64 / 1e7
}

/// Waits for `child` and measures it through its handle, open until `child` is dropped:
/// its own user and kernel times (`GetProcessTimes`), and its peak working set
/// (`K32GetProcessMemoryInfo`), absent when the system does not tell it of a process that
/// has exited.
pub fn wait_with_usage(mut child: Child) -> io::Result<Usage> {
    let status = child.wait()?;
    let handle = handle_of(&child);
    let zero = FILETIME {
        dwLowDateTime: 0,
        dwHighDateTime: 0,
    };
    let (mut created, mut exited, mut kernel, mut user) = (zero, zero, zero, zero);
    // SAFETY: the handle is the child's, open while `child` lives; the four pointers are to
    // FILETIMEs we own.
    let timed =
        unsafe { GetProcessTimes(handle, &mut created, &mut exited, &mut kernel, &mut user) };
    if timed == 0 {
        return Err(io::Error::last_os_error());
    }
    let mut memory = PROCESS_MEMORY_COUNTERS {
        cb: std::mem::size_of::<PROCESS_MEMORY_COUNTERS>() as u32,
        ..Default::default()
    };
    // SAFETY: as above; `memory` is a PROCESS_MEMORY_COUNTERS of the size `cb` says.
    let measured = unsafe { K32GetProcessMemoryInfo(handle, &mut memory, memory.cb) };
    Ok(Usage {
        exit_code: status.code(),
        user: seconds(user),
        system: seconds(kernel),
        max_rss: (measured != 0 && memory.PeakWorkingSetSize > 0)
            .then_some(memory.PeakWorkingSetSize as u64),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wines_failed_start_is_tried_again_and_nothing_else() {
        assert!(start_again(&io::Error::from_raw_os_error(1359)));
        for lasting in [2, 5, 193] {
            assert!(
                !start_again(&io::Error::from_raw_os_error(lasting)),
                "{lasting}"
            );
        }
    }

    #[test]
    fn arguments_cost_what_std_writes() {
        let plain = LineLimit::for_program(OsStr::new("echo"));
        assert_eq!(plain.program_cost(OsStr::new("echo")), 6);
        let cost = |a: &str| plain.cost(OsStr::new(a));
        assert_eq!(cost("abc"), 4);
        assert_eq!(cost(""), 3);
        assert_eq!(cost("a b"), 6);
        // a\"b is written a\\\"b; "a b\" is written "a b\\".
        assert_eq!(cost("a\\\"b"), 1 + 6);
        assert_eq!(cost("a b\\"), 1 + 2 + 5);
        assert_eq!(cost("d\\e"), 4);
        let bat = LineLimit::for_program(OsStr::new("x.CMD"));
        assert!(bat.room() < 8_191);
        assert_eq!(bat.cost(OsStr::new("5%")), 1 + 2 + 1 + 8);
        assert!(bat.program_cost(OsStr::new("x.CMD")) >= 260);
        let cmd = LineLimit::for_program(OsStr::new(r"C:\Windows\system32\CMD.exe"));
        // Counted as a value, quoted and escaped: "5%%cd:~,%".
        assert_eq!((cmd.room(), cmd.cost(OsStr::new("5%"))), (8_190, 12));
        assert_eq!(cmd.cost(OsStr::new("a&b")), 7);
        assert_eq!(LineLimit::for_program(OsStr::new("cmdx")).room(), 32_766);
    }
}
