//! Runs the ffind binary itself, as hyperfine would, and measures each run.
//!
//! Wall-clock time runs from spawning the process to reaping it. User time, system time and
//! peak memory are the child's own, as the system tells them when it is reaped
//! ([`crate::exec::wait_with_usage`]: `wait4`'s `rusage` on Unix; on Windows the process's
//! times and peak working set), so nothing else this process started can leak into the
//! numbers. Timed runs write to the null device: every entry is still produced and written,
//! none is kept.

use std::ffi::OsString;
use std::io::{self, Read};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::thread;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};

use super::format::Unit;
use super::plan::Benchmark;
use super::result::Run;

/// What the untimed counting run saw.
#[derive(Debug, Clone)]
pub struct Count {
    /// The entries listed (terminators on stdout).
    pub entries: u64,
    /// The exit code; `None` when a signal ended the process.
    pub exit_code: Option<i32>,
    /// What the run wrote to stderr.
    pub stderr: String,
}

/// Starts ffind processes: the binary this process runs, in the current directory.
#[derive(Debug, Clone)]
pub struct Runner {
    exe: PathBuf,
    terminator: u8,
}

impl Runner {
    /// A runner for `exe`, whose entries end with `terminator` (newline, or NUL with -0).
    pub fn new(exe: PathBuf, terminator: u8) -> Runner {
        Runner { exe, terminator }
    }

    fn command(&self, args: &[OsString]) -> Command {
        let mut cmd = Command::new(&self.exe);
        cmd.args(args).stdin(Stdio::null());
        cmd
    }

    /// Runs once with the output discarded and measures it.
    pub fn time(&self, args: &[OsString]) -> io::Result<Run> {
        let mut cmd = self.command(args);
        cmd.stdout(Stdio::null()).stderr(Stdio::null());
        let start = Instant::now();
        let child = cmd.spawn()?;
        let usage = crate::exec::wait_with_usage(child)?;
        let wall = start.elapsed().as_secs_f64();
        Ok(Run {
            wall,
            user: usage.user,
            system: usage.system,
            max_rss: usage.max_rss,
            exit_code: usage.exit_code,
        })
    }

    /// Runs once with the output piped here, and counts the entries without keeping them.
    pub fn count(&self, args: &[OsString]) -> io::Result<Count> {
        let mut child = self
            .command(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let mut stderr = child.stderr.take().expect("stderr is piped");
        let errors = thread::spawn(move || {
            let mut text = Vec::new();
            let _ = stderr.read_to_end(&mut text);
            String::from_utf8_lossy(&text).into_owned()
        });
        let mut stdout = child.stdout.take().expect("stdout is piped");
        let mut buf = vec![0u8; 64 * 1024];
        let mut entries = 0u64;
        loop {
            match stdout.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    entries += buf[..n].iter().filter(|&&b| b == self.terminator).count() as u64
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(e);
                }
            }
        }
        let status = child.wait()?;
        let stderr = errors.join().unwrap_or_default();
        Ok(Count {
            entries,
            exit_code: status.code(),
            stderr,
        })
    }

    /// The warm-up runs, then the timed ones, with a progress bar (hidden unless stderr is a
    /// terminal).
    pub fn measure(&self, benchmark: &Benchmark, warmup: u32, runs: u32) -> io::Result<Vec<Run>> {
        let bar = progress_bar(u64::from(warmup) + u64::from(runs));
        bar.set_message("Performing warm-up runs");
        for _ in 0..warmup {
            self.time(&benchmark.args)?;
            bar.inc(1);
        }
        let mut measured: Vec<Run> = Vec::with_capacity(runs as usize);
        for _ in 0..runs {
            measured.push(self.time(&benchmark.args)?);
            let mean = measured.iter().map(|r| r.wall).sum::<f64>() / measured.len() as f64;
            bar.set_message(format!(
                "Current estimate: {}",
                Unit::for_seconds(mean).format(mean)
            ));
            bar.inc(1);
        }
        bar.finish_and_clear();
        Ok(measured)
    }
}

/// A bar on stderr when it is a terminal; a hidden one otherwise (no output at all).
fn progress_bar(len: u64) -> ProgressBar {
    use std::io::IsTerminal;
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    let style =
        ProgressStyle::with_template("{spinner} {msg:<30} {wide_bar} {pos}/{len} ETA {eta}")
            .expect("the template is valid")
            .progress_chars("█▉▊▋▌▍▎▏ ");
    bar.set_style(style);
    bar.enable_steady_tick(std::time::Duration::from_millis(80));
    bar
}

// The runs are of /bin/sh.
#[cfg(unix)]
#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> (Runner, Vec<OsString>) {
        (
            Runner::new("/bin/sh".into(), b'\n'),
            vec!["-c".into(), script.into()],
        )
    }

    #[test]
    fn times_a_process_and_reads_its_exit_code() {
        let (runner, args) = sh("sleep 0.05; exit 3");
        let run = runner.time(&args).unwrap();
        assert!(run.wall >= 0.05 && run.wall < 5.0, "{run:?}");
        assert_eq!(run.exit_code, Some(3));
        assert!(run.max_rss.is_some_and(|m| m > 0), "{run:?}");
    }

    #[test]
    fn measures_the_childs_own_cpu_time() {
        // A busy loop of a few tens of milliseconds shows up as user time of that child.
        let (runner, args) = sh("i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done");
        let run = runner.time(&args).unwrap();
        assert!(run.user + run.system > 0.0, "{run:?}");
        assert!(run.user + run.system <= run.wall * 1.5 + 0.01, "{run:?}");
    }

    #[test]
    fn a_signal_is_no_exit_code() {
        let (runner, args) = sh("kill -9 $$");
        assert_eq!(runner.time(&args).unwrap().exit_code, None);
    }

    #[test]
    fn counts_terminators_and_keeps_stderr() {
        let (runner, args) = sh("printf 'a\\nb\\nc\\n'; echo oops >&2; exit 1");
        let count = runner.count(&args).unwrap();
        assert_eq!((count.entries, count.exit_code), (3, Some(1)));
        assert_eq!(count.stderr, "oops\n");
        let nul = Runner::new("/bin/sh".into(), 0);
        assert_eq!(
            nul.count(&["-c".into(), "printf 'a\\0b\\0'".into()])
                .unwrap()
                .entries,
            2
        );
    }
}
