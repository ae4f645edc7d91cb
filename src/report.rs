//! Messages about single paths on stderr (`ffind: PATH: Permission denied`) and the record that
//! one was given, which turns into exit code 1. The walk goes on after every one.
//!
//! Under `--mpi` only process 0 writes to stderr: the others' reporters hand each message, a
//! whole line, to a [`Reporter::sending`] sink that carries it there (`walk/mpi/`), so that no
//! two processes' lines interleave and each error is said once.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::fs::escape::escaped;

/// Where a reporter's lines go instead of stderr.
pub type Sink = Box<dyn Fn(&[u8]) + Send + Sync>;

/// Collects what went wrong during a walk.
#[derive(Default)]
pub struct Reporter {
    errors: AtomicBool,
    /// Where messages go instead of stderr (`None`: stderr).
    sink: Option<Sink>,
}

impl std::fmt::Debug for Reporter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reporter")
            .field("errors", &self.errors)
            .field("sink", &self.sink.is_some())
            .finish()
    }
}

/// The OS's description of an error, without Rust's " (os error N)" suffix.
pub fn describe(err: &io::Error) -> String {
    strip_os_error(&err.to_string())
}

/// Says that standard output cannot be written to (a full disk, a closed descriptor): once,
/// by whichever part of ffind met it.
pub fn say_stdout_error(err: &io::Error) {
    let _ = writeln!(
        io::stderr(),
        "ffind: cannot write to standard output: {}",
        describe(err)
    );
}

/// An error's text without Rust's " (os error N)" (also inside other libraries' messages).
pub fn strip_os_error(text: &str) -> String {
    match text.find(" (os error ") {
        Some(i) => {
            let rest = &text[i + 1..];
            let close = rest.find(')').map_or(text.len(), |j| i + 1 + j + 1);
            format!("{}{}", &text[..i], &text[close..])
        }
        None => text.to_owned(),
    }
}

impl Reporter {
    /// A reporter that has seen nothing yet.
    pub fn new() -> Reporter {
        Reporter::default()
    }

    /// A reporter that hands each message (one line, with its newline) to `sink` instead of
    /// writing it to stderr: another process's stderr under `--mpi`, or nowhere when a state
    /// is rebuilt whose errors were said already.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))] // used by walk/mpi only
    pub fn sending(sink: Sink) -> Reporter {
        Reporter {
            errors: AtomicBool::new(false),
            sink: Some(sink),
        }
    }

    /// Writes one line: to the sink, or to stderr in one write, so that messages from
    /// different workers do not interleave.
    fn say(&self, line: &str) {
        match &self.sink {
            Some(sink) => sink(line.as_bytes()),
            None => {
                let _ = io::stderr().lock().write_all(line.as_bytes());
            }
        }
    }

    /// Reports a failure about `path` (raw bytes, shown escaped) and remembers it.
    pub fn path_error(&self, path: &[u8], err: &io::Error) {
        self.message(path, &describe(err));
    }

    /// Reports `what` about `path` and remembers it.
    pub fn message(&self, path: &[u8], what: &str) {
        self.errors.store(true, Ordering::Relaxed);
        // Escaped always (stderr is read by people and logs): one message is one line, and a
        // name cannot send escape sequences to the terminal.
        let shown = if path.is_empty() {
            ".".into()
        } else {
            escaped(path)
        };
        self.say(&format!("ffind: {shown}: {what}\n"));
    }

    /// Says something on stderr that does not change the outcome (the walk stays complete).
    pub fn warning(&self, what: &str) {
        self.say(&format!("ffind: warning: {what}\n"));
    }

    /// Whether any error was reported.
    pub fn had_errors(&self) -> bool {
        self.errors.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describes_without_the_os_error_number() {
        let e = io::Error::from_raw_os_error(libc::EACCES);
        assert_eq!(describe(&e), "Permission denied");
    }

    #[test]
    fn strips_os_error_numbers_inside_messages() {
        assert_eq!(
            strip_os_error("Resource temporarily unavailable (os error 11)"),
            "Resource temporarily unavailable"
        );
        assert_eq!(
            strip_os_error("spawn failed: No such file (os error 2), retrying"),
            "spawn failed: No such file, retrying"
        );
        assert_eq!(strip_os_error("plain"), "plain");
    }

    #[test]
    fn remembers_errors() {
        let r = Reporter::new();
        assert!(!r.had_errors());
        r.message(b"x", "test message from a unit test");
        assert!(r.had_errors());
    }

    #[test]
    fn a_sending_reporter_hands_over_whole_lines() {
        let lines = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let to = lines.clone();
        let r = Reporter::sending(Box::new(move |l| to.lock().unwrap().push(l.to_vec())));
        r.message(b"a\nb", "Permission denied");
        r.warning("careful");
        assert!(r.had_errors());
        assert_eq!(
            *lines.lock().unwrap(),
            [
                b"ffind: a\\x0Ab: Permission denied\n".to_vec(),
                b"ffind: warning: careful\n".to_vec()
            ]
        );
    }
}
