//! Messages about single paths on stderr (`ffind: PATH: Permission denied`) and the record that
//! one was given, which turns into exit code 1. The walk goes on after every one.
//!
//! With `--no-errors` the messages are counted instead of written, except those about a search
//! path itself (a path mistyped, in a config file's search too, must not go unsaid); the
//! record of an error stays, and so does exit code 1.
//!
//! Under `--mpi` only process 0 writes to stderr: the others' reporters hand each message, a
//! whole line, to a [`Reporter::sending`] sink that carries it there (`walk/mpi/`), so that no
//! two processes' lines interleave and each error is said once.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::fs::escape::escaped;

/// `eprintln!` that cannot panic: a line stderr will not take (a pipe whose reader has gone)
/// is dropped, as [`Reporter`]'s lines are, and the exit status still says what happened.
/// (`eprintln!` panics there, and with `panic = "abort"` ffind would die of SIGABRT.)
#[macro_export]
#[doc(hidden)]
macro_rules! __say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}
pub use __say as say;

/// Where a reporter's lines go instead of stderr.
pub type Sink = Box<dyn Fn(&[u8]) + Send + Sync>;

/// Collects what went wrong during a walk.
#[derive(Default)]
pub struct Reporter {
    errors: AtomicBool,
    /// Where messages go instead of stderr (`None`: stderr).
    sink: Option<Sink>,
    /// `--no-errors`: which messages are still said, and how many were not.
    hide: Option<Hide>,
}

/// What `--no-errors` hides.
#[derive(Debug, Default)]
struct Hide {
    /// The beginnings of the lines still said: "ffind: PATH: " for each search path.
    said: Vec<Vec<u8>>,
    /// Messages not said.
    hidden: AtomicUsize,
}

impl std::fmt::Debug for Reporter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reporter")
            .field("errors", &self.errors)
            .field("sink", &self.sink.is_some())
            .field("hide", &self.hide)
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

/// An error's text without Rust's " (os error N)" (also inside other libraries' messages),
/// and without the full stop Windows' texts end with ("Access is denied."), which the message
/// around it may not end with.
pub fn strip_os_error(text: &str) -> String {
    match text.find(" (os error ") {
        Some(i) => {
            let rest = &text[i + 1..];
            let close = rest.find(')').map_or(text.len(), |j| i + 1 + j + 1);
            let said = &text[..i];
            format!(
                "{}{}",
                said.strip_suffix('.').unwrap_or(said),
                &text[close..]
            )
        }
        None => text.to_owned(),
    }
}

/// How a warning's line begins.
const WARNING: &[u8] = b"ffind: warning: ";

/// A path as messages show it: escaped always (stderr is read by people and logs), so that one
/// message is one line and a name cannot send escape sequences to the terminal; "." for the
/// current directory.
fn shown(path: &[u8]) -> String {
    if path.is_empty() {
        ".".into()
    } else {
        escaped(path)
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
            hide: None,
        }
    }

    /// The same reporter not saying its errors but counting them (`--no-errors`), except the
    /// messages about one of `search_paths` (as shown: "." for the current directory).
    pub fn hiding(self, search_paths: &[&[u8]]) -> Reporter {
        let said = search_paths
            .iter()
            .map(|p| format!("ffind: {}: ", shown(p)).into_bytes())
            .collect();
        Reporter {
            hide: Some(Hide {
                said,
                hidden: AtomicUsize::new(0),
            }),
            ..self
        }
    }

    /// Says an error's line, unless `--no-errors` hides it.
    fn say_error(&self, line: &[u8]) {
        if let Some(hide) = &self.hide {
            if !hide.said.iter().any(|p| line.starts_with(p)) {
                hide.hidden.fetch_add(1, Ordering::Relaxed);
                return;
            }
        }
        self.say(line);
    }

    /// Says the lines another process's reporter sent (`--mpi`, on process 0): its warnings,
    /// and its errors unless `--no-errors` hides them, as this reporter's own.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))] // used by walk/mpi only
    pub fn relay(&self, lines: &[u8]) {
        for line in lines.split_inclusive(|&b| b == b'\n') {
            if line.starts_with(WARNING) {
                self.say(line);
            } else {
                self.say_error(line);
            }
        }
    }

    /// How many error messages `--no-errors` kept unsaid.
    pub fn hidden(&self) -> usize {
        self.hide
            .as_ref()
            .map_or(0, |h| h.hidden.load(Ordering::Relaxed))
    }

    /// Writes one line: to the sink, or to stderr in one write, so that messages from
    /// different workers do not interleave.
    fn say(&self, line: &[u8]) {
        match &self.sink {
            Some(sink) => sink(line),
            None => {
                let _ = io::stderr().lock().write_all(line);
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
        self.say_error(format!("ffind: {}: {what}\n", shown(path)).as_bytes());
    }

    /// Says something on stderr that does not change the outcome (the walk stays complete).
    pub fn warning(&self, what: &str) {
        let mut line = WARNING.to_vec();
        line.extend_from_slice(what.as_bytes());
        line.push(b'\n');
        self.say(&line);
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
        // "Permission denied (os error 13)" on Linux, "Access is denied. (os error 5)" on
        // Windows (shown without its full stop).
        let e = crate::fs::Fault::Denied.error();
        let code = e.raw_os_error().unwrap();
        let said = e.to_string().replace(&format!(". (os error {code})"), "");
        let said = said.replace(&format!(" (os error {code})"), "");
        assert!(!said.is_empty() && !said.contains("os error"));
        assert_eq!(describe(&e), said);
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
        assert_eq!(
            strip_os_error("Access is denied. (os error 5)"),
            "Access is denied"
        );
    }

    #[test]
    fn remembers_errors() {
        let r = Reporter::new();
        assert!(!r.had_errors());
        r.message(b"x", "test message from a unit test");
        assert!(r.had_errors());
    }

    #[test]
    fn hiding_counts_errors_but_says_warnings_and_search_paths() {
        let lines = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let to = lines.clone();
        let r = Reporter::sending(Box::new(move |l| to.lock().unwrap().push(l.to_vec())))
            .hiding(&[b"", b"src"]);
        r.message(b"src/x", "Permission denied");
        r.message(b"srcx", "Permission denied");
        r.warning("careful");
        r.message(b"src", "Permission denied");
        r.message(b"", "Not a directory");
        r.relay(b"ffind: a: No such file or directory\nffind: warning: w\nffind: b: x\n");
        assert!(r.had_errors());
        assert_eq!(r.hidden(), 4);
        assert_eq!(
            *lines.lock().unwrap(),
            [
                b"ffind: warning: careful\n".to_vec(),
                b"ffind: src: Permission denied\n".to_vec(),
                b"ffind: .: Not a directory\n".to_vec(),
                b"ffind: warning: w\n".to_vec(),
            ]
        );
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
