//! Messages about single paths on stderr (`ffind: PATH: Permission denied`) and the record that
//! one was given, which turns into exit code 1. The walk goes on after every one.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::fs::escape::escaped;

/// Collects what went wrong during a walk.
#[derive(Debug, Default)]
pub struct Reporter {
    errors: AtomicBool,
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
        let line = format!("ffind: {shown}: {what}\n");
        // One write per message, so that messages from different workers do not interleave.
        let _ = io::stderr().lock().write_all(line.as_bytes());
    }

    /// Says something on stderr that does not change the outcome (the walk stays complete).
    pub fn warning(&self, what: &str) {
        let _ = io::stderr()
            .lock()
            .write_all(format!("ffind: warning: {what}\n").as_bytes());
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
}
