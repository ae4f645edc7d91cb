//! What the shared judgement ([`Walk::judge`](crate::walk::contract::Walk)) decided of one
//! entry, and why, step by step: `--explain` follows an entry through the very judge the
//! walk asks ([`Trace`]), and the hint of a search that printed nothing counts the entries
//! the hiding rules skipped ([`Hints`]). The walk itself traces into `()`, which keeps
//! nothing: its judge compiles to what it was without a trace.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use crate::filter::rules::Rule;
use crate::filter::Refusal;

/// One step of a decision about an entry, in the order the judge takes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why<'a> {
    /// The system marks it hidden (Windows' attribute), and `-H` is not given.
    MarkedHidden,
    /// An ignore rule decided: it hides the entry, or (a negation) brings it back.
    Rule(Rule<'a>),
    /// Its name starts with `.`, `-H` is not given, and no rule brings it back.
    DotName,
    /// An `-E` glob excludes it (which one, [`crate::config::exclude_override`] tells).
    Excluded,
    /// A directory holding a name `--ignore-contain` gave.
    Contains(&'a [u8]),
    /// Its depth (a search path's entries are at 1) is below `--min-depth`.
    BelowMinDepth { depth: usize, min: usize },
    /// Its depth is past `--max-depth`.
    PastMaxDepth { depth: usize, max: usize },
    /// A filter turned it away.
    Refused(Refusal),
    /// Every filter let it through: printed.
    Passed,
    /// A directory not descended: `--max-depth` reached.
    DepthLimit { max: usize },
    /// A directory not descended: printed, and `--prune` given.
    Pruned,
    /// A directory not descended: on another file system than its search path
    /// (`--one-file-system`).
    OtherFileSystem,
}

/// Where the judge says what decided an entry.
pub trait Trace {
    /// Every step is taken, in order, so that each is noted (`--explain`'s); without it, the
    /// judge may take a shortcut to the same verdict.
    const EVERY_STEP: bool = true;

    fn note(&mut self, why: Why<'_>);
}

/// The walk's trace: nothing kept, nothing paid.
impl Trace for () {
    const EVERY_STEP: bool = false;

    #[inline(always)]
    fn note(&mut self, _: Why<'_>) {}
}

/// Why the hiding rules skipped an entry, as the hint counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Skipped {
    /// A leading `.`, or the system's hidden mark: `-H` shows it.
    Hidden,
    /// An ignore file: `-I` shows it.
    Ignored,
    /// An ignore file, and a hidden name too: `-u` shows it.
    IgnoredHidden,
    /// An `-E` glob: a change of the command line shows it.
    Excluded,
}

/// What the hiding rules skipped during a search, counted only for the entries they skip
/// (each judged by the pattern and the other filters there and then): the hint a search
/// that printed nothing gives on a terminal ([`Hints::message`]).
#[derive(Debug, Default)]
pub struct Hints {
    /// Skipped entries that the pattern and the filters would have printed, by reason.
    hidden: AtomicU64,
    ignored: AtomicU64,
    ignored_hidden: AtomicU64,
    excluded: AtomicU64,
    /// Skipped directories, matching or not: not searched.
    dirs: AtomicU64,
    /// Of them, those an ignore file skipped ([`Hints::skipped_dir`] says which).
    ignored_dirs: AtomicU64,
    /// The first skipped entry that would have been printed, to name in the hint.
    example: OnceLock<Vec<u8>>,
    /// The first directory an ignore file skipped, to name when nothing skipped matched.
    ignored_dir: OnceLock<Vec<u8>>,
}

impl Hints {
    /// Counts a skipped directory, shown as `path`, named `name`. Named in the hint when no
    /// skipped entry matches: one an ignore file hid, but not one a hidden name hides anyway
    /// (`.*` in the Linux tree's `.gitignore` hides `.git` and the like), nor `.git` itself.
    pub fn skipped_dir(&self, why: Skipped, path: &[u8], name: &[u8]) {
        self.dirs.fetch_add(1, Ordering::Relaxed);
        if why == Skipped::Ignored && name != b".git" {
            self.ignored_dirs.fetch_add(1, Ordering::Relaxed);
            self.ignored_dir.get_or_init(|| path.to_vec());
        }
    }

    /// Counts a skipped entry that would have been printed, shown as `path`.
    pub fn would_print(&self, why: Skipped, path: &[u8]) {
        let counter = match why {
            Skipped::Hidden => &self.hidden,
            Skipped::Ignored => &self.ignored,
            Skipped::IgnoredHidden => &self.ignored_hidden,
            Skipped::Excluded => &self.excluded,
        };
        counter.fetch_add(1, Ordering::Relaxed);
        self.example.get_or_init(|| path.to_vec());
    }

    /// What to say after a search that printed nothing, when skipped entries would have been
    /// printed: how many and why, which option shows them, the directories not searched,
    /// and `--explain` on one of them (shown as `example` shows a path: escaped). When none
    /// would have, but an ignore file kept the search out of directories, that (a match may
    /// be inside: `ffind '^ffind$'` in a Rust project, whose `target/` is ignored).
    pub fn message(&self, example: impl Fn(&[u8]) -> String) -> Option<String> {
        let n = |c: &AtomicU64| c.load(Ordering::Relaxed);
        let (hidden, ignored, excluded) = (n(&self.hidden), n(&self.ignored), n(&self.excluded));
        let both = n(&self.ignored_hidden);
        let total = hidden + ignored + both + excluded;
        if total == 0 {
            let dirs = n(&self.ignored_dirs);
            let dir = self.ignored_dir.get()?;
            let (files, what) = if dirs == 1 {
                ("an ignore file", format!("1 directory, {}", example(dir)))
            } else {
                (
                    "ignore files",
                    format!("{dirs} directories, such as {}", example(dir)),
                )
            };
            return Some(format!(
                "ffind: hint: nothing printed; {files} kept the search out of {what} (-u \
                 searches everything; add --explain PATH to say why a path is not printed)"
            ));
        }
        let mut why = Vec::new();
        if ignored > 0 {
            why.push(format!("{ignored} ignored by ignore files (-I shows them)"));
        }
        if both > 0 {
            why.push(format!("{both} ignored and hidden (-u shows them)"));
        }
        if hidden > 0 {
            why.push(format!("{hidden} hidden (-H shows them)"));
        }
        if excluded > 0 {
            why.push(format!("{excluded} excluded by -E"));
        }
        let mut text = format!(
            "ffind: hint: nothing printed, but {total} {} skipped: {}",
            if total == 1 {
                "entry that matches was"
            } else {
                "entries that match were"
            },
            why.join(", ")
        );
        let dirs = n(&self.dirs);
        if dirs > 0 {
            let d = if dirs == 1 {
                "directory"
            } else {
                "directories"
            };
            text.push_str(&format!(
                "; {dirs} hidden or ignored {d} not searched (-u searches everything)"
            ));
        }
        if let Some(path) = self.example.get() {
            text.push_str(&format!("; add --explain {} to say why", example(path)));
        }
        Some(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hint_counts_each_reason_and_names_the_first_path() {
        let hints = Hints::default();
        let show = |p: &[u8]| String::from_utf8_lossy(p).into_owned();
        assert_eq!(hints.message(show), None, "nothing skipped matched");
        hints.skipped_dir(Skipped::Hidden, b".git", b".git");
        hints.skipped_dir(Skipped::Excluded, b"gen", b"gen");
        hints.skipped_dir(Skipped::IgnoredHidden, b".venv", b".venv");
        hints.skipped_dir(Skipped::Ignored, b"sub/.git", b".git");
        assert_eq!(
            hints.message(show),
            None,
            "a hidden, excluded or .git directory is no hint"
        );
        hints.skipped_dir(Skipped::Ignored, b"target", b"target");
        assert_eq!(
            hints.message(show).unwrap(),
            "ffind: hint: nothing printed; an ignore file kept the search out of 1 directory, \
             target (-u searches everything; add --explain PATH to say why a path is not \
             printed)"
        );
        hints.skipped_dir(Skipped::Ignored, b"sub/build", b"build");
        assert_eq!(
            hints.message(show).unwrap(),
            "ffind: hint: nothing printed; ignore files kept the search out of 2 directories, \
             such as target (-u searches everything; add --explain PATH to say why a path is \
             not printed)"
        );
        hints.would_print(Skipped::Excluded, b"a/x");
        assert_eq!(
            hints.message(show).unwrap(),
            "ffind: hint: nothing printed, but 1 entry that matches was skipped: 1 excluded by \
             -E; 6 hidden or ignored directories not searched (-u searches everything); add \
             --explain a/x to say why"
        );
        hints.would_print(Skipped::Ignored, b"b");
        hints.would_print(Skipped::Hidden, b".c");
        hints.would_print(Skipped::IgnoredHidden, b".d");
        hints.skipped_dir(Skipped::Hidden, b".e", b".e");
        assert_eq!(
            hints.message(show).unwrap(),
            "ffind: hint: nothing printed, but 4 entries that match were skipped: 1 ignored by \
             ignore files (-I shows them), 1 ignored and hidden (-u shows them), 1 hidden (-H \
             shows them), 1 excluded by -E; 7 hidden or ignored directories not searched (-u \
             searches everything); add --explain a/x to say why"
        );
    }
}
