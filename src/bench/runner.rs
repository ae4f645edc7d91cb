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
#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// How a child is told what to do: a word of its command line (a test filter that matches
    /// no test).
    const ORDER: &str = "runner-child=";

    /// This test binary, run again as the child (on every system, as ffind is run): its
    /// [`the_child`] test does what `order` says. Entries end with NUL: the harness writes its
    /// own lines to stdout before the child's.
    fn child(order: &str) -> (Runner, Vec<OsString>) {
        let exe = std::env::current_exe().unwrap();
        let args = [
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
            "bench::runner::tests::the_child",
            &format!("{ORDER}{order}"),
        ];
        (
            Runner::new(exe, 0),
            args.iter().map(OsString::from).collect(),
        )
    }

    /// Not a test of its own: the child the tests below start, which ends the process as told.
    #[test]
    #[ignore = "the child process of the runner's tests, started by them"]
    fn the_child() {
        let Some(order) = std::env::args().find_map(|a| a.strip_prefix(ORDER).map(str::to_owned))
        else {
            return;
        };
        match order.as_str() {
            "sleep-exit-3" => {
                thread::sleep(Duration::from_millis(50));
                std::process::exit(3)
            }
            "busy" => {
                // A tenth of a second of work, on this thread only.
                let start = Instant::now();
                let mut x = 1u64;
                while start.elapsed() < Duration::from_millis(100) {
                    x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
                }
                std::process::exit(0)
            }
            "three-and-oops" => {
                use std::io::Write;
                let mut out = io::stdout().lock();
                out.write_all(b"a\0b\0c\0").unwrap();
                out.flush().unwrap();
                eprintln!("oops");
                std::process::exit(1)
            }
            other => panic!("no such order: {other}"),
        }
    }

    #[test]
    fn times_a_process_and_reads_its_exit_code() {
        let (runner, args) = child("sleep-exit-3");
        let run = runner.time(&args).unwrap();
        assert!(run.wall >= 0.05 && run.wall < 10.0, "{run:?}");
        assert_eq!(run.exit_code, Some(3));
    }

    #[test]
    fn measures_the_childs_own_cpu_time() {
        // A busy loop of a tenth of a second shows up as CPU time of that child. (Under Wine a
        // child's times read 0.03 to 0.06 s, nearly all of it system time, whatever it did;
        // what real Windows reads, no machine here can say.)
        let (runner, args) = child("busy");
        let run = runner.time(&args).unwrap();
        assert_eq!(run.exit_code, Some(0));
        assert!(run.user + run.system > 0.0, "{run:?}");
        assert!(run.user + run.system <= run.wall * 1.5 + 0.01, "{run:?}");
    }

    #[test]
    fn counts_terminators_and_keeps_stderr() {
        let (runner, args) = child("three-and-oops");
        let count = runner.count(&args).unwrap();
        assert_eq!((count.entries, count.exit_code), (3, Some(1)));
        assert_eq!(count.stderr, "oops\n");
    }
}
