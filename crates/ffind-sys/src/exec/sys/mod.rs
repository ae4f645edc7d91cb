//! What running commands asks of each system, behind one interface, as std keeps its
//! `sys/{unix,windows}` (`unix.rs`: process groups, signals, `waitid`, `poll`, `sysconf`;
//! `windows.rs`: the console's control events, process handles, threads reading pipes, the
//! command-line limit of `CreateProcessW`; `cmd.rs`, on Windows too: what cmd.exe is given to
//! read). The rest of `exec/` and `bench/` never name a system.
//!
//! - [`Process`]: how a running child is reached (interrupted, killed, stopped), [`prepare`]
//!   before it starts, [`has_exited`] and [`wait_exit`] without reaping it,
//!   [`continue_stopped_unlisted`] for children stopped before they ran.
//! - [`Interrupts`]: the events that interrupt ffind (SIGINT, SIGTERM, SIGHUP; Ctrl-C,
//!   Ctrl-Break, the console closing), [`exit_interrupted`], and [`watch_job_control`].
//! - [`Pipes`]: a child's stdout and stderr read both at once.
//! - [`LineLimit`]: how long a command line may be, argument by argument.
//! - [`ResultArgs`]: how an argument made from a result reaches the program (escaped for
//!   cmd.exe on Windows, or refused there).
//! - [`stdout_gone`], [`is_too_long`], [`wait_with_usage`].

mod argument;
#[cfg(windows)]
mod cmd;
#[cfg(unix)]
mod unix;
#[cfg(windows)]
mod windows;

pub use self::argument::Argument;
#[cfg(windows)]
pub use self::cmd::ResultArgs;
#[cfg(all(unix, any(test, feature = "testing")))]
pub use self::unix::stops_ignored;
#[cfg(unix)]
pub use self::unix::{
    continue_stopped_unlisted, exit_interrupted, has_exited, is_too_long, prepare, start_again,
    stdout_gone, wait_exit, wait_with_usage, watch_job_control, Interrupt, Interrupts, LineLimit,
    Pipes, Process, ResultArgs,
};
#[cfg(windows)]
pub use self::windows::{
    continue_stopped_unlisted, exit_interrupted, has_exited, is_too_long, prepare, start_again,
    stdout_gone, wait_exit, wait_with_usage, watch_job_control, Interrupt, Interrupts, LineLimit,
    Pipes, Process,
};
