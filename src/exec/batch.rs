//! `-X`: the commands run with many results at once, with ffind's stdin, stdout and stderr.
//!
//! Paths gather until one more would pass `--batch-size` or the system's limit on the length
//! of a command line ([`LineLimit`]: on Unix `sysconf(_SC_ARG_MAX)`, less the environment and
//! a margin, counting each argument's bytes, its NUL and its pointer as the kernel does; on
//! Windows 32,767 UTF-16 units, each argument counted as std quotes it, and cmd.exe's 8,191
//! for a `.bat` or `.cmd` file); then every `-X` command runs on the batch, in turn, and the
//! next batch starts. Without results nothing runs (as in fd). A result whose argument could
//! not be passed even alone (Linux takes no argument of 32 pages or more, `MAX_ARG_STRLEN`: a
//! path of 128 KiB) is reported by itself and left out, so that it does not take the rest of
//! its batch down with it.

use std::ffi::OsString;
use std::process::Command;

use super::sys::{Argument, LineLimit, ResultArgs};
use super::{CommandTemplate, ExecSpec, Runner};
use crate::template::Template;

/// One `-X` command, split around its argument with placeholders (at most one: the command
/// line says so), with the arguments gathered for the batch.
struct Line {
    command: &'static CommandTemplate,
    /// The program and the arguments before and after the one with placeholders, expanded
    /// once (they have none).
    program: OsString,
    before: Vec<OsString>,
    after: Vec<OsString>,
    /// The argument each result expands.
    each: &'static Template,
    /// What the batch's results expanded to, in order.
    args: Vec<Argument>,
    /// How long the command line may be, and what each argument costs in it.
    limit: LineLimit,
    /// How the results' values reach the program.
    results: ResultArgs,
    /// What the command line costs with them.
    used: usize,
}

impl Line {
    fn new(command: &'static CommandTemplate) -> Line {
        let args = &command.args;
        let fixed = |t: &Template| crate::fs::os_string(t.expand(b""));
        // One argument has placeholders (`CommandTemplate::parse` appends `{}` to a command
        // without any), never the program (`check_batch`).
        let at = args
            .iter()
            .position(Template::has_placeholder)
            .expect("every command has a placeholder");
        let program = fixed(&args[0]);
        let mut line = Line {
            command,
            limit: LineLimit::for_program(&program),
            results: command.result_args(&program),
            program,
            before: args[1..at].iter().map(fixed).collect(),
            after: args[at + 1..].iter().map(fixed).collect(),
            each: &args[at],
            args: Vec::new(),
            used: 0,
        };
        line.used = line.fixed_cost();
        line
    }

    /// What the fixed part costs.
    fn fixed_cost(&self) -> usize {
        self.limit.program_cost(&self.program)
            + self
                .before
                .iter()
                .chain(&self.after)
                .map(|a| self.limit.cost(a))
                .sum::<usize>()
    }

    /// Whether `arg` could not be passed even alone.
    fn never_fits(&self, arg: &Argument) -> bool {
        arg.text.len() > self.limit.longest()
            || self.fixed_cost() + self.limit.cost(&arg.text) > self.limit.room()
    }

    /// Whether `arg` would make the line too long.
    fn too_long_with(&self, arg: &Argument) -> bool {
        self.used + self.limit.cost(&arg.text) > self.limit.room()
    }

    /// Adds a result's argument.
    fn push(&mut self, arg: Argument) {
        self.used += self.limit.cost(&arg.text);
        self.args.push(arg);
    }

    /// What a result adds to the line: its argument.
    fn expand(&self, path: &[u8]) -> Argument {
        self.command.expand_marked(self.each, path)
    }

    fn command(&self) -> Command {
        let fixed = |args: &[OsString]| args.iter().cloned().map(Argument::fixed).collect();
        let before: Vec<Argument> = fixed(&self.before);
        let after: Vec<Argument> = fixed(&self.after);
        let args = [before, self.args.clone(), after].concat();
        self.results.command(&self.program, &args)
    }

    /// Empties the batch's arguments.
    fn reset(&mut self) {
        self.args.clear();
        self.used = self.fixed_cost();
    }
}

/// The batch being gathered.
pub struct Batcher {
    spec: &'static ExecSpec,
    lines: Vec<Line>,
}

impl Batcher {
    /// An empty batch.
    pub fn new(spec: &'static ExecSpec) -> Batcher {
        Batcher {
            spec,
            lines: spec.commands.iter().map(Line::new).collect(),
        }
    }

    /// Results in the batch: each added one argument to every line.
    fn count(&self) -> usize {
        self.lines.first().map_or(0, |l| l.args.len())
    }

    /// Adds a result, first running the batch if the result would not fit in it. A result
    /// that would not fit in any command line is reported instead.
    pub fn add(&mut self, path: Vec<u8>, runner: &Runner) {
        let expanded: Vec<Argument> = self.lines.iter().map(|l| l.expand(&path)).collect();
        let never_fits = self
            .lines
            .iter()
            .zip(&expanded)
            .any(|(line, arg)| line.never_fits(arg));
        if never_fits {
            runner.too_long(&path);
            return;
        }
        let refused = self
            .lines
            .iter()
            .zip(&expanded)
            .find_map(|(line, arg)| line.results.check(arg).err());
        if let Some(why) = refused {
            runner.refused(&path, why);
            return;
        }
        let full = self.spec.batch_size > 0 && self.count() >= self.spec.batch_size;
        let too_long = self
            .lines
            .iter()
            .zip(&expanded)
            .any(|(line, arg)| line.too_long_with(arg));
        if self.count() > 0 && (full || too_long) {
            self.run(runner);
        }
        for (line, arg) in self.lines.iter_mut().zip(expanded) {
            line.push(arg);
        }
    }

    /// Runs every command on the batch (if it has any result), in turn, and empties it.
    pub fn run(&mut self, runner: &Runner) {
        if self.count() == 0 {
            return;
        }
        for line in &self.lines {
            if runner.stopped() {
                break;
            }
            let mut cmd = line.command();
            match runner
                .children
                .spawn(&mut cmd, runner.spec.group_sharing_stdio())
            {
                Ok(Some(mut child)) => {
                    let status = runner.children.wait(&mut child);
                    if !runner.children.interrupted() {
                        runner.finished(status);
                    }
                }
                Ok(None) => break,
                Err(e) => runner.cannot_start(line.command, &cmd, &e),
            }
        }
        for line in &mut self.lines {
            line.reset();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::{ExecSpec, Mode};
    use std::ffi::{OsStr, OsString};

    fn spec(words: &[&str]) -> &'static ExecSpec {
        let words: Vec<OsString> = words.iter().map(OsString::from).collect();
        Box::leak(Box::new(ExecSpec {
            mode: Mode::Batch,
            commands: vec![CommandTemplate::parse(&words, None)],
            jobs: 1,
            batch_size: 0,
            nul_after_output: false,
            terminal: false,
        }))
    }

    /// The line for `words` with the results `paths` added.
    fn line(words: &[&str], paths: &[&[u8]]) -> Line {
        let mut line = Line::new(&spec(words).commands[0]);
        for p in paths {
            let arg = line.expand(p);
            line.push(arg);
        }
        line
    }

    #[test]
    fn the_placeholder_argument_repeats_in_place() {
        let l = line(&["cp", "-t", "dest", "{/}", "--", "end"], &[b"a/x", b"b/y"]);
        let cmd = l.command();
        assert_eq!(cmd.get_program(), "cp");
        let args: Vec<&OsStr> = cmd.get_args().collect();
        assert_eq!(args, ["-t", "dest", "x", "y", "--", "end"]);
        // Without a placeholder the results go last, as fd puts them.
        let l = line(&["echo", "x"], &[b"a", b"b"]);
        assert_eq!(l.command().get_args().collect::<Vec<_>>(), ["x", "a", "b"]);
    }

    #[cfg(unix)]
    #[test]
    fn costs_count_text_nul_and_pointer() {
        // A pointer counts 8 bytes even in a 32-bit build (a 64-bit kernel counts its own).
        let ptr = 8;
        let l = line(&["echo"], &[]);
        assert_eq!(l.used, 4 + 1 + ptr);
        let l = line(&["echo", "{}"], &[b"abc"]);
        assert_eq!(l.used, (4 + 1 + ptr) + (3 + 1 + ptr));
        assert!(l.limit.room() > 64 * 1024);
        assert!(l.limit.longest() >= 128 * 1024 - 1);
    }

    #[cfg(windows)]
    #[test]
    fn costs_count_the_quoted_command_line() {
        // "echo" abc "a b"
        let l = line(&["echo", "{}"], &[b"abc", b"a b"]);
        assert_eq!(l.used, 6 + 4 + 6);
        assert_eq!(l.limit.room(), 32_766);
    }
}
