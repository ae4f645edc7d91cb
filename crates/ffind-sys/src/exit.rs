//! The exit codes, one place: what happened → the number the shell sees.

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Everything was read (or the reader went away, which is not our failure).
    Success,
    /// `-q` found nothing.
    NoMatch,
    /// Some path could not be read, or output could not be written.
    Errors,
    /// The command line was wrong; nothing was searched.
    Usage,
    /// Ctrl-C (SIGINT) stopped the run, after the commands of -x/-X had ended.
    Interrupted,
}

impl Outcome {
    /// The process exit code.
    pub fn code(self) -> u8 {
        match self {
            Outcome::Success => 0,
            Outcome::NoMatch | Outcome::Errors => 1,
            Outcome::Usage => 2,
            Outcome::Interrupted => 130,
        }
    }

    /// Combines what the walk saw. With `-q` the answer is whether anything matched, as in fd.
    pub fn of_walk(quiet: bool, matched: bool, errors: bool) -> Outcome {
        match (quiet, matched, errors) {
            (true, true, _) => Outcome::Success,
            (true, false, _) => Outcome::NoMatch,
            (false, _, true) => Outcome::Errors,
            (false, _, false) => Outcome::Success,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes() {
        assert_eq!(Outcome::Success.code(), 0);
        assert_eq!(Outcome::Errors.code(), 1);
        assert_eq!(Outcome::NoMatch.code(), 1);
        assert_eq!(Outcome::Usage.code(), 2);
        // 128 + SIGINT, what a shell reports for a command that Ctrl-C stopped.
        assert_eq!(Outcome::Interrupted.code(), 128 + 2);
    }

    #[test]
    fn quiet_answers_whether_anything_matched() {
        assert_eq!(Outcome::of_walk(true, true, true), Outcome::Success);
        assert_eq!(Outcome::of_walk(true, false, false), Outcome::NoMatch);
        assert_eq!(Outcome::of_walk(false, false, false), Outcome::Success);
        assert_eq!(Outcome::of_walk(false, true, true), Outcome::Errors);
    }
}
