//! `-x/--exec` and `-X/--exec-batch`: running a command on the results, never through a shell.
//!
//! The walk and the printer stay as they are; with exec, the printer's output goes to an
//! [`ExecSink`] instead of stdout. The printer writes whole batches of NUL-terminated paths
//! (NUL, so that names holding newlines split right); the sink turns each into the path a
//! command gets and hands it to the per-result pool ([`per_result`]) or to the batcher
//! ([`batch`]). Every child is started and reaped through [`children::Children`], which also
//! stops them on Ctrl-C. Placeholders are those of `--format` ([`crate::template`]).
//!
//! What a command gets, as in fd: the path as it would be printed, "./" kept when no search
//! path was given, no "/" after directories; and where a placeholder's value would begin an
//! argument with '-' (`{/}` of `-rf`, or any part of a path that begins so), "./" goes in
//! front, so that no command can take a file name for an option
//! ([`Template::expand_argument`]). On Windows the paths are as printed there, with `\` after
//! the "./" that fd writes on every system (`./src\main.rs`), and the command is started by
//! std directly, as fd starts it: its program found as std finds it (`.exe` added to a bare
//! name, no `PATHEXT`), a `.bat` or `.cmd` named with its extension run through cmd.exe with
//! std's own quoting.
//!
//! What differs between systems (process groups and signals, or console events and process
//! handles; reading pipes; the command line's limit) is in [`sys`], chosen by `cfg`.

pub mod batch;
pub mod children;
pub mod per_result;
pub use ffind_sys::exec::sys;

pub use self::sys::wait_with_usage;

use std::ffi::{OsStr, OsString};
use std::io::{self, IsTerminal, Write};
use std::process::{Command, ExitStatus};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

use anyhow::{bail, Result};

use crate::fs::escape::escaped;
use crate::fs::SEPARATOR;
use crate::report::describe;
use crate::template::Template;

use self::batch::Batcher;
use self::children::{Children, Group};
use self::per_result::Pool;

/// One command line to run: the program and its arguments, each a template.
#[derive(Debug, Clone)]
pub struct CommandTemplate {
    /// The program (`args[0]`) and its arguments.
    args: Vec<Template>,
    /// `--path-separator`: written for each `/` of a placeholder's value.
    separator: Option<Box<[u8]>>,
}

impl CommandTemplate {
    /// The command as given after -x/-X; without any placeholder, `{}` is appended (fd).
    pub fn parse(words: &[OsString], separator: Option<&[u8]>) -> CommandTemplate {
        let mut args: Vec<Template> = words
            .iter()
            .map(|w| Template::parse(w.as_encoded_bytes()))
            .collect();
        if !args.iter().any(Template::has_placeholder) {
            args.push(Template::parse(b"{}"));
        }
        CommandTemplate {
            args,
            separator: separator.map(Into::into),
        }
    }

    /// One argument, `t`, expanded for `path`.
    fn expand(&self, t: &Template, path: &[u8]) -> OsString {
        crate::fs::os_string(t.expand_argument(path, self.separator.as_deref()))
    }

    /// One argument, `t`, expanded for `path`, with where the result's values lie in it.
    fn expand_marked(&self, t: &Template, path: &[u8]) -> sys::Argument {
        let (text, values) = t.expand_argument_marked(path, self.separator.as_deref());
        sys::Argument {
            text: crate::fs::os_string(text),
            values,
        }
    }

    /// Whether the program itself is fixed (no placeholder in it): then a program that cannot
    /// be started will not start for any other result either.
    pub fn fixed_program(&self) -> bool {
        !self.args[0].has_placeholder()
    }

    /// How the values of results reach `program` ([`sys::ResultArgs`]), given each argument's
    /// own text (the same for every result) and whether it has no placeholder.
    fn result_args(&self, program: &OsStr) -> sys::ResultArgs {
        let own: Vec<(OsString, bool)> = self.args[1..]
            .iter()
            .map(|t| (crate::fs::os_string(t.expand(b"")), !t.has_placeholder()))
            .collect();
        sys::ResultArgs::for_command(program, own.iter().map(|(t, f)| (t.as_os_str(), *f)))
    }

    /// The command for one result, or why the result cannot be passed to it (on Windows, a
    /// name cmd.exe would read otherwise: [`sys::ResultArgs`]).
    pub fn for_path(&self, path: &[u8]) -> Result<Command, &'static str> {
        let program = self.expand(&self.args[0], path);
        let results = self.result_args(&program);
        let args: Vec<sys::Argument> = self.args[1..]
            .iter()
            .map(|t| self.expand_marked(t, path))
            .collect();
        for arg in &args {
            results.check(arg)?;
        }
        Ok(results.command(&program, &args))
    }

    /// Checks the rules of -X (fd's): one argument with placeholders, not the program.
    fn check_batch(&self) -> Result<()> {
        if !self.fixed_program() {
            bail!("the first argument of --exec-batch must be a fixed program, not a placeholder");
        }
        if self.args.iter().filter(|a| a.has_placeholder()).count() > 1 {
            bail!("only one argument with placeholders is allowed in --exec-batch");
        }
        Ok(())
    }
}

/// How the commands run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `-x`: once per result, `jobs` at a time.
    PerResult,
    /// `-X`: once per batch of results.
    Batch,
}

/// The resolved `-x`/`-X` settings (part of [`crate::config::Config`]).
#[derive(Debug, Clone)]
pub struct ExecSpec {
    /// Once per result or once per batch.
    pub mode: Mode,
    /// The commands, run in turn for each result (or batch).
    pub commands: Vec<CommandTemplate>,
    /// Commands run at once under `-x` (above 1, each one's output is captured and printed in
    /// one piece).
    pub jobs: usize,
    /// At most this many results per `-X` command (`--batch-size`; 0: only the system's
    /// argument-length limit).
    pub batch_size: usize,
    /// `-0`: under `-x`, each result's output is followed by a NUL (as fd does).
    pub nul_after_output: bool,
    /// ffind's stdin, stdout or stderr is a terminal: the commands that share them (`-j1`,
    /// `-X`) stay in ffind's process group, where they may use the terminal ([`children`]).
    pub terminal: bool,
}

impl ExecSpec {
    /// Resolves the command lines of `-x` (`per_result`) or `-X` (`batch`); clap makes sure
    /// only one of them is given. `None` without either.
    pub fn resolve(
        per_result: &[Vec<OsString>],
        batch: &[Vec<OsString>],
        jobs: usize,
        batch_size: usize,
        print0: bool,
        separator: Option<&[u8]>,
    ) -> Result<Option<ExecSpec>> {
        let (mode, given) = match (per_result.is_empty(), batch.is_empty()) {
            (false, _) => (Mode::PerResult, per_result),
            (true, false) => (Mode::Batch, batch),
            (true, true) => return Ok(None),
        };
        let commands: Vec<CommandTemplate> = given
            .iter()
            .filter(|words| !words.is_empty())
            .map(|words| CommandTemplate::parse(words, separator))
            .collect();
        if commands.is_empty() {
            bail!("-x/-X needs a command");
        }
        if mode == Mode::Batch {
            for c in &commands {
                c.check_batch()?;
            }
        }
        Ok(Some(ExecSpec {
            mode,
            commands,
            jobs: jobs.max(1),
            batch_size,
            nul_after_output: print0,
            terminal: io::stdin().is_terminal()
                || io::stdout().is_terminal()
                || io::stderr().is_terminal(),
        }))
    }

    /// The process group of a command that gets ffind's stdin, stdout and stderr (`-j1` and
    /// `-X`; with more jobs, commands get /dev/null and pipes, and a group of their own). On
    /// Windows, which has no process groups, the answer changes nothing.
    pub fn group_sharing_stdio(&self) -> Group {
        if self.terminal {
            Group::Ffinds
        } else {
            Group::Own
        }
    }
}

/// Starts running commands for `spec`, with Ctrl-C watched (see [`children`]).
pub fn start(spec: &'static ExecSpec) -> io::Result<&'static Runner> {
    let children: &'static Children = Box::leak(Box::new(Children::new()));
    children.watch_interrupts()?;
    Ok(Runner::start(spec, children))
}

/// The running side of exec: the commands, what has gone wrong, and whether to go on.
pub struct Runner {
    spec: &'static ExecSpec,
    children: &'static Children,
    /// The `-x` job threads (set once, right after the runner is made: they need it 'static).
    pool: OnceLock<Pool>,
    batcher: Option<Mutex<Batcher>>,
    /// A command failed, could not start, or output could not be written.
    failed: AtomicBool,
    /// Stop taking results: the reader of our output went away, or the program cannot start.
    stopped: AtomicBool,
    /// Serialises what goes to stdout and stderr, so that each job's output stays in one piece.
    output: Mutex<()>,
}

impl Runner {
    /// Starts the runner (the `-x` job threads, or the `-X` batcher). `children` watches the
    /// interrupts.
    pub fn start(spec: &'static ExecSpec, children: &'static Children) -> &'static Runner {
        let runner: &'static Runner = Box::leak(Box::new(Runner {
            spec,
            children,
            pool: OnceLock::new(),
            batcher: (spec.mode == Mode::Batch).then(|| Mutex::new(Batcher::new(spec))),
            failed: AtomicBool::new(false),
            stopped: AtomicBool::new(false),
            output: Mutex::new(()),
        }));
        if spec.mode == Mode::PerResult {
            let _ = runner.pool.set(Pool::start(runner));
        }
        runner
    }

    /// The sink the printer writes results to.
    pub fn sink(&'static self) -> Box<dyn Write + Send> {
        Box::new(ExecSink {
            runner: self,
            partial: Vec::new(),
        })
    }

    /// Runs what is left (the last batch), waits for every command, and says whether all of
    /// them succeeded. Does not return when an interrupt (Ctrl-C) came.
    pub fn finish(&self) -> bool {
        // Called once the walk has returned.
        self.children.walk_ended();
        if let Some(pool) = self.pool.get() {
            pool.finish();
        }
        if let Some(batcher) = &self.batcher {
            let mut b = batcher.lock().unwrap_or_else(|e| e.into_inner());
            b.run(self);
        }
        if self.children.interrupted() {
            // The interrupts' thread ends the process once the children have ended.
            loop {
                std::thread::park();
            }
        }
        !self.failed.load(Ordering::Relaxed)
    }

    /// Takes one result.
    fn take(&self, path: Vec<u8>) {
        if let Some(pool) = self.pool.get() {
            pool.send(path);
        } else if let Some(batcher) = &self.batcher {
            let mut b = batcher.lock().unwrap_or_else(|e| e.into_inner());
            b.add(path, self);
        }
    }

    /// Whether results are still wanted.
    fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed) || self.children.interrupted()
    }

    /// Remembers that a command failed.
    fn fail(&self) {
        self.failed.store(true, Ordering::Relaxed);
    }

    /// Takes the outcome of a command that wrote to ffind's own stdout. When it failed because
    /// the reader went away (`ffind -j1 -x echo | head`), everything stops quietly, as a plain
    /// listing does, instead of running the command for every other result in vain.
    fn finished(&self, status: io::Result<ExitStatus>) -> bool {
        if status.is_ok_and(|s| s.success()) {
            return true;
        }
        if sys::stdout_gone() {
            self.stopped.store(true, Ordering::Relaxed);
        } else {
            self.fail();
        }
        false
    }

    /// Reports a command that could not be started, saying so and why. When its program is
    /// fixed and missing or refused, nothing else would start either: everything stops after
    /// one message (fd repeats it per result); other failures stop only that command.
    fn cannot_start(&self, command: &CommandTemplate, cmd: &Command, err: &io::Error) {
        self.fail();
        let fatal = command.fixed_program()
            && matches!(
                err.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::PermissionDenied
            );
        if fatal && self.stopped.swap(true, Ordering::Relaxed) {
            return;
        }
        let what = if err.kind() == io::ErrorKind::NotFound {
            "command not found".to_owned()
        } else if sys::start_again(err) {
            format!(
                "could not be started: {} (tried {} times)",
                describe(err),
                children::START_TRIES
            )
        } else {
            format!("could not be started: {}", describe(err))
        };
        // Escaped as every path in a message is: with `-x {}` the program is a file name.
        let program = escaped(cmd.get_program().as_encoded_bytes());
        let line = format!("ffind: {program}: {what}\n");
        let _lock = self.output.lock().unwrap_or_else(|e| e.into_inner());
        let _ = io::stderr().lock().write_all(line.as_bytes());
    }

    /// Reports a result that cannot be passed to a command: its path (or what a placeholder
    /// made of it) is longer than the system takes (`E2BIG`; on Windows, a command line past
    /// 32,767 units). The other results go on.
    fn too_long(&self, path: &[u8]) {
        self.refused(
            path,
            "cannot be passed to a command: Argument list too long",
        );
    }

    /// Reports a result that is not passed to a command, and why ([`sys::ResultArgs`]). The
    /// other results go on.
    fn refused(&self, path: &[u8], why: &str) {
        self.fail();
        let line = format!("ffind: {}: {why}\n", escaped(path));
        let _lock = self.output.lock().unwrap_or_else(|e| e.into_inner());
        let _ = io::stderr().lock().write_all(line.as_bytes());
    }

    /// Writes one job's captured output, stdout then stderr, in one piece.
    fn write_output(&self, stdout: &[u8], stderr: &[u8], nul: bool) {
        if stdout.is_empty() && stderr.is_empty() && !nul {
            return;
        }
        let _lock = self.output.lock().unwrap_or_else(|e| e.into_inner());
        if self.stopped() {
            return;
        }
        let mut out = io::stdout().lock();
        let written = out
            .write_all(stdout)
            .and_then(|()| if nul { out.write_all(b"\0") } else { Ok(()) })
            .and_then(|()| out.flush());
        if let Err(e) = written {
            self.stopped.store(true, Ordering::Relaxed);
            if e.kind() != io::ErrorKind::BrokenPipe && !crate::fs::Fault::BrokenPipe.is(&e) {
                self.fail();
                crate::report::say_stdout_error(&e);
            }
        }
        let _ = io::stderr().lock().write_all(stderr);
    }
}

/// What the printer writes to under exec: NUL-terminated paths in, commands out.
struct ExecSink {
    runner: &'static Runner,
    /// The start of a path whose NUL has not come yet.
    partial: Vec<u8>,
}

/// The path a command gets for a printed record: without the separator the printer puts
/// after directories. (The "./" before a name that would read as an option is put by
/// [`Template::expand_argument`], for the values of every placeholder.)
pub fn command_path(record: &[u8]) -> Vec<u8> {
    match record {
        [rest @ .., last] if *last == SEPARATOR && !rest.is_empty() => rest.to_vec(),
        _ => record.to_vec(),
    }
}

impl Write for ExecSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.runner.stopped() {
            // The printer takes a broken pipe as "stop quietly", which is what this is.
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        let mut rest = buf;
        while let Some(end) = rest.iter().position(|&b| b == 0) {
            let record = if self.partial.is_empty() {
                command_path(&rest[..end])
            } else {
                self.partial.extend_from_slice(&rest[..end]);
                command_path(&std::mem::take(&mut self.partial))
            };
            self.runner.take(record);
            rest = &rest[end + 1..];
        }
        self.partial.extend_from_slice(rest);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(w: &[&str]) -> Vec<OsString> {
        w.iter().map(OsString::from).collect()
    }

    fn argv(c: &Command) -> Vec<String> {
        std::iter::once(c.get_program())
            .chain(c.get_args())
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn without_placeholder_the_path_is_appended() {
        let c = CommandTemplate::parse(&words(&["echo", "-n"]), None);
        assert_eq!(
            argv(&c.for_path(b"a/b.c").unwrap()),
            ["echo", "-n", "a/b.c"]
        );
        let c = CommandTemplate::parse(&words(&["mv", "{}", "{.}.bak", "{{}}"]), None);
        assert_eq!(
            argv(&c.for_path(b"x.txt").unwrap()),
            ["mv", "x.txt", "x.bak", "{}"]
        );
    }

    /// `text` with the system's separator for each "/" (the printer's records use it), but
    /// for a leading "./", which is "./" on every system (`crate::fs::CURRENT_DIR`, as fd
    /// writes `./sub\d.rs` on Windows).
    fn native(text: &str) -> String {
        let (current, rest) = match text.strip_prefix("./") {
            Some(rest) => ("./", rest),
            None => ("", text),
        };
        current.to_owned() + &rest.replace('/', &char::from(SEPARATOR).to_string())
    }

    #[test]
    fn records_become_safe_arguments() {
        let path = |r: &str| command_path(native(r).as_bytes());
        assert_eq!(path("dir/"), native("dir").as_bytes());
        assert_eq!(path("/"), native("/").as_bytes());
        assert_eq!(path("a\nb"), b"a\nb");
        let c = CommandTemplate::parse(&words(&["echo", "{}", "{/}"]), None);
        for (record, want) in [
            ("-rf", ["echo", "./-rf", "./-rf"]),
            ("-d/", ["echo", "./-d", "./-d"]),
            ("./-x", ["echo", "./-x", "./-x"]),
            ("d/-x", ["echo", "d/-x", "./-x"]),
        ] {
            assert_eq!(argv(&c.for_path(&path(record)).unwrap()), want.map(native));
        }
    }

    #[test]
    fn batch_rules() {
        let spec = |w: &[&str]| ExecSpec::resolve(&[], &[words(w)], 1, 0, false, None);
        assert!(spec(&["{}"]).is_err());
        assert!(spec(&["cp", "{}", "{/}"]).is_err());
        assert!(spec(&["echo", "a", "{/}"]).is_ok());
        assert!(ExecSpec::resolve(&[], &[], 1, 0, false, None)
            .unwrap()
            .is_none());
    }
}
