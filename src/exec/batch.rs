//! `-X`: the commands run with many results at once, with ffind's stdin, stdout and stderr.
//!
//! Paths gather until one more would pass `--batch-size` or the system's limit on the length
//! of a command line (`sysconf(_SC_ARG_MAX)`, less the environment and a margin, counting each
//! argument's bytes, its NUL and its pointer as the kernel does); then every `-X` command runs
//! on the batch, in turn, and the next batch starts. Without results nothing runs (as in fd).
//! A result whose argument could not be passed even alone (Linux takes no argument of 32 pages
//! or more, `MAX_ARG_STRLEN`: a path of 128 KiB) is reported by itself and left out, so that
//! it does not take the rest of its batch down with it (issue 18).

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::process::Command;

use nix::unistd::{sysconf, SysconfVar};

use super::{CommandTemplate, ExecSpec, Runner};
use crate::template::Template;

/// Room left for what the kernel adds and for the environment changing under us.
const ARG_MARGIN: usize = 4096;

/// Where the kernel stops whatever the stack limit says (a quarter of its 8 MiB stack
/// default, times three: `fs/exec.c`).
const KERNEL_ARG_CAP: usize = 6 << 20;

/// Used when sysconf cannot tell: POSIX's minimum is far lower, Linux's floor is 128 KiB.
const FALLBACK_ARG_MAX: usize = 128 * 1024;

/// Bytes one argument costs in the new program's memory: its text, its NUL, its pointer.
fn arg_cost(len: usize) -> usize {
    len + 1 + std::mem::size_of::<usize>()
}

/// The longest argument Linux passes, in bytes without its NUL: `MAX_ARG_STRLEN` is 32 pages,
/// the NUL included (`include/uapi/linux/binfmts.h`).
pub fn longest_argument() -> usize {
    let page = sysconf(SysconfVar::PAGE_SIZE)
        .ok()
        .flatten()
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(4096);
    32 * page - 1
}

/// The bytes a command line may take, what the environment takes already subtracted.
pub fn argument_room() -> usize {
    let arg_max = sysconf(SysconfVar::ARG_MAX)
        .ok()
        .flatten()
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(FALLBACK_ARG_MAX)
        .min(KERNEL_ARG_CAP);
    let env: usize = std::env::vars_os()
        .map(|(k, v)| arg_cost(k.len() + 1 + v.len()))
        .sum();
    arg_max.saturating_sub(env + ARG_MARGIN)
}

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
    args: Vec<OsString>,
    /// Bytes the command line takes with them.
    used: usize,
}

impl Line {
    fn new(command: &'static CommandTemplate) -> Line {
        let args = &command.args;
        let fixed = |t: &Template| OsString::from_vec(t.expand(b""));
        // One argument has placeholders (`CommandTemplate::parse` appends `{}` to a command
        // without any), never the program (`check_batch`).
        let at = args
            .iter()
            .position(Template::has_placeholder)
            .expect("every command has a placeholder");
        let mut line = Line {
            command,
            program: fixed(&args[0]),
            before: args[1..at].iter().map(fixed).collect(),
            after: args[at + 1..].iter().map(fixed).collect(),
            each: &args[at],
            args: Vec::new(),
            used: 0,
        };
        line.used = line.fixed_cost();
        line
    }

    /// The bytes of the fixed part.
    fn fixed_cost(&self) -> usize {
        std::iter::once(&self.program)
            .chain(&self.before)
            .chain(&self.after)
            .map(|a| arg_cost(a.len()))
            .sum()
    }

    /// What a result adds to the line: its argument.
    fn expand(&self, path: &[u8]) -> OsString {
        self.command.expand(self.each, path)
    }

    fn command(&self) -> Command {
        let mut cmd = Command::new(&self.program);
        cmd.args(&self.before).args(&self.args).args(&self.after);
        cmd
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
    room: usize,
    /// [`longest_argument`], looked up once.
    longest: usize,
    lines: Vec<Line>,
}

impl Batcher {
    /// An empty batch.
    pub fn new(spec: &'static ExecSpec) -> Batcher {
        Batcher {
            spec,
            room: argument_room(),
            longest: longest_argument(),
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
        let expanded: Vec<OsString> = self.lines.iter().map(|l| l.expand(&path)).collect();
        let never_fits = self.lines.iter().zip(&expanded).any(|(line, arg)| {
            arg.len() > self.longest || line.fixed_cost() + arg_cost(arg.len()) > self.room
        });
        if never_fits {
            runner.too_long(&path);
            return;
        }
        let full = self.spec.batch_size > 0 && self.count() >= self.spec.batch_size;
        let too_long = self
            .lines
            .iter()
            .zip(&expanded)
            .any(|(line, arg)| line.used + arg_cost(arg.len()) > self.room);
        if self.count() > 0 && (full || too_long) {
            self.run(runner);
        }
        for (line, arg) in self.lines.iter_mut().zip(expanded) {
            line.used += arg_cost(arg.len());
            line.args.push(arg);
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
            line.used += arg_cost(arg.len());
            line.args.push(arg);
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

    #[test]
    fn costs_count_text_nul_and_pointer() {
        let ptr = std::mem::size_of::<usize>();
        let l = line(&["echo"], &[]);
        assert_eq!(l.used, 4 + 1 + ptr);
        let l = line(&["echo", "{}"], &[b"abc"]);
        assert_eq!(l.used, (4 + 1 + ptr) + (3 + 1 + ptr));
        assert!(argument_room() > 64 * 1024);
        assert!(longest_argument() >= 128 * 1024 - 1);
    }
}
