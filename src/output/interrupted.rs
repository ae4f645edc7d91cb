//! Ctrl-C with colors on leaves the terminal as it was: as fd does, ffind catches
//! the signals that end it at a terminal (SIGINT, SIGTERM, SIGHUP, SIGQUIT; Ctrl-C and
//! Ctrl-Break on Windows: [`crate::fs::Endings`]) when its results carry escape sequences
//! (colors, hyperlinks), and ends its output cleanly first. Where the system would end the
//! process under the walk's running threads ([`crate::fs::CATCH_ENDINGS`]: Windows), every
//! search catches them, with nothing to write last.
//!
//! Without this, the signal ends ffind wherever its writes are: a batch cut anywhere, in the
//! middle of a name or of an escape sequence ("\e[1;34m/home/u/src/li"), and the prompt and
//! everything typed after it stay bold blue. The kernel may also drop output already written
//! when it turns Ctrl-C into SIGINT (a terminal's queue is flushed unless `noflsh`), at any
//! byte. So here, on the first signal, a thread of its own stops the walk, waits for the write
//! in progress (a batch always ends with a whole record, whose sequences are closed), writes
//! the style's reset after it (each sequence of it begins with ESC, which also ends a sequence
//! cut short by the kernel's flush), keeps the output's lock so that nothing follows, waits
//! for the walk to end (its threads stopped; [`PATIENCE`] more at most), and then
//! ffind dies of the same signal, as it would have (a shell sees exit status 130 for Ctrl-C).
//!
//! A write that cannot end (a terminal stopped with Ctrl-S, a reader that does not read) is
//! waited for [`PATIENCE`] at most, and not at all after a second signal: ffind then dies as
//! before, without the reset. SIGPIPE needs nothing: Rust ignores it, so it never ends ffind
//! (a closed pipe is an error of the write, a quiet exit).

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::output::printer::Printer;

/// How long the write in progress may take to end before ffind dies without the reset.
const PATIENCE: Duration = Duration::from_secs(1);

/// A signal was caught: its thread ends the process, and nothing else may (see [`settle`]).
static CAUGHT: AtomicBool = AtomicBool::new(false);

/// The walk has returned: every thread it started has ended ([`walk_ended`]).
static WALK_ENDED: AtomicBool = AtomicBool::new(false);

/// Catches the signals that end ffind, so that `reset` (the style's) is the last thing
/// `printer` writes before ffind dies of them.
pub fn end_cleanly(printer: &'static Printer, reset: Vec<u8>) -> io::Result<()> {
    let mut endings = crate::fs::Endings::catch()?;
    std::thread::Builder::new()
        .name("ffind-signals".into())
        .spawn(move || {
            let Some(sig) = endings.wait() else {
                return;
            };
            CAUGHT.store(true, Ordering::SeqCst);
            printer.write_last(&reset, PATIENCE, &mut || endings.another());
            // The walk stopped: let its threads end before the process does.
            let until = std::time::Instant::now() + PATIENCE;
            while !WALK_ENDED.load(Ordering::SeqCst)
                && !endings.another()
                && std::time::Instant::now() < until
            {
                std::thread::sleep(Duration::from_millis(2));
            }
            crate::fs::die_of(sig);
        })?;
    Ok(())
}

/// Called by `main` once the walk has returned (its threads ended): a caught signal's thread
/// may end the process now.
pub fn walk_ended() {
    WALK_ENDED.store(true, Ordering::SeqCst);
}

/// Called by `main` before it returns: once a signal was caught, the walk that it stopped ends
/// too, and `main` must not end the process with its own exit status (nor before the reset is
/// written): it waits for the signal's thread to end it.
pub fn settle() {
    if CAUGHT.load(Ordering::SeqCst) {
        loop {
            std::thread::park();
        }
    }
}
