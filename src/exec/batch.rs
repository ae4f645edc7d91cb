//! `-X`: the commands run with many results at once, with ffind's stdin, stdout and stderr.
//!
//! Paths gather until one more would pass `--batch-size` or the system's limit on the length
//! of a command line (`sysconf(_SC_ARG_MAX)`, less the environment and a margin, counting each
//! argument's bytes, its NUL and its pointer as the kernel does); then every `-X` command runs
//! on the batch, in turn, and the next batch starts. Without results nothing runs (as in fd).

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
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

/// One `-X` command split around its argument with placeholders.
struct Split<'a> {
    /// The whole command (its separator for the paths).
    command: &'a CommandTemplate,
    program: &'a Template,
    before: &'a [Template],
    each: Option<&'a Template>,
    after: &'a [Template],
}

impl<'a> Split<'a> {
    fn of(command: &'a CommandTemplate) -> Split<'a> {
        let args = &command.args;
        let at = args.iter().position(Template::has_placeholder);
        match at {
            Some(i) => Split {
                command,
                program: &args[0],
                before: &args[1..i],
                each: Some(&args[i]),
                after: &args[i + 1..],
            },
            None => Split {
                command,
                program: &args[0],
                before: &args[1..],
                each: None,
                after: &[],
            },
        }
    }

    /// The bytes of the fixed part.
    fn fixed_cost(&self) -> usize {
        std::iter::once(self.program)
            .chain(self.before)
            .chain(self.after)
            .map(|t| arg_cost(t.expand(b"").len()))
            .sum()
    }

    /// The bytes one path adds.
    fn path_cost(&self, path: &[u8]) -> usize {
        self.each
            .map_or(0, |t| arg_cost(self.command.expand(t, path).len()))
    }

    fn command(&self, paths: &[Vec<u8>]) -> Command {
        let fixed = |t: &Template| OsStr::from_bytes(&t.expand(b"")).to_os_string();
        let mut cmd = Command::new(fixed(self.program));
        cmd.args(self.before.iter().map(fixed));
        if let Some(each) = self.each {
            cmd.args(paths.iter().map(|p| self.command.expand(each, p)));
        }
        cmd.args(self.after.iter().map(fixed));
        cmd
    }
}

/// The batch being gathered.
pub struct Batcher {
    spec: &'static ExecSpec,
    room: usize,
    paths: Vec<Vec<u8>>,
    /// Bytes each command's line takes with the paths so far.
    used: Vec<usize>,
}

impl Batcher {
    /// An empty batch.
    pub fn new(spec: &'static ExecSpec) -> Batcher {
        let mut b = Batcher {
            spec,
            room: argument_room(),
            paths: Vec::new(),
            used: Vec::new(),
        };
        b.reset();
        b
    }

    fn reset(&mut self) {
        self.paths.clear();
        self.used = self
            .spec
            .commands
            .iter()
            .map(|c| Split::of(c).fixed_cost())
            .collect();
    }

    /// Adds a result, first running the batch if the result would not fit in it.
    pub fn add(&mut self, path: Vec<u8>, runner: &Runner) {
        let costs: Vec<usize> = self
            .spec
            .commands
            .iter()
            .map(|c| Split::of(c).path_cost(&path))
            .collect();
        let full = self.spec.batch_size > 0 && self.paths.len() >= self.spec.batch_size;
        let too_long = self
            .used
            .iter()
            .zip(&costs)
            .any(|(used, cost)| used + cost > self.room);
        if !self.paths.is_empty() && (full || too_long) {
            self.run(runner);
        }
        for (used, cost) in self.used.iter_mut().zip(costs) {
            *used += cost;
        }
        self.paths.push(path);
    }

    /// Runs every command on the batch (if it has any path), in turn, and empties it.
    pub fn run(&mut self, runner: &Runner) {
        if self.paths.is_empty() {
            return;
        }
        for command in &self.spec.commands {
            if runner.stopped() {
                break;
            }
            let mut cmd = Split::of(command).command(&self.paths);
            match runner.children.spawn(&mut cmd) {
                Ok(Some(mut child)) => {
                    let status = runner.children.wait(&mut child);
                    if !runner.children.interrupted() {
                        runner.finished(status);
                    }
                }
                Ok(None) => break,
                Err(e) => runner.cannot_start(command, &cmd, &e),
            }
        }
        self.reset();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::{ExecSpec, Mode};
    use std::ffi::OsString;

    fn spec(words: &[&str]) -> &'static ExecSpec {
        let words: Vec<OsString> = words.iter().map(OsString::from).collect();
        Box::leak(Box::new(ExecSpec {
            mode: Mode::Batch,
            commands: vec![CommandTemplate::parse(&words, None)],
            jobs: 1,
            batch_size: 0,
            nul_after_output: false,
        }))
    }

    #[test]
    fn the_placeholder_argument_repeats_in_place() {
        let s = spec(&["cp", "-t", "dest", "{/}", "--", "end"]);
        let cmd = Split::of(&s.commands[0]).command(&[b"a/x".to_vec(), b"b/y".to_vec()]);
        let args: Vec<&OsStr> = cmd.get_args().collect();
        assert_eq!(args, ["-t", "dest", "x", "y", "--", "end"]);
    }

    #[test]
    fn costs_count_text_nul_and_pointer() {
        let s = spec(&["echo"]);
        let split = Split::of(&s.commands[0]);
        let ptr = std::mem::size_of::<usize>();
        assert_eq!(split.fixed_cost(), 4 + 1 + ptr);
        assert_eq!(split.path_cost(b"abc"), 3 + 1 + ptr);
        assert!(argument_room() > 64 * 1024);
    }
}
