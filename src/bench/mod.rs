//! `ffind --bench`: times the traversal methods at several concurrency levels, the way hyperfine
//! times commands, and exports what hyperfine exports.
//!
//! ffind is a black box here: every run is a fresh process of this very binary, started with
//! `--method M --concurrency N` and the user's filters, so a benchmark's `command` can be
//! rerun on its own or under hyperfine. The pieces: [`args`] (bench's options), [`split`]
//! (telling them from the pass-through filters), [`plan`] (the benchmarks and their command
//! lines), [`runner`] (spawning and measuring), [`result`] and [`stats`] (the numbers),
//! [`report`] (the terminal) and [`export`] (the files).
//!
//! What bench says about paths and commands (its report, its messages, clap's) is escaped as
//! ffind escapes names on a terminal ([`shown`]), piped too: the report is for people, and the
//! exports are the data.

mod args;
mod export;
mod format;
mod plan;
mod report;
mod result;
mod runner;
mod split;
mod stats;

use std::ffi::OsString;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::{CommandFactory, FromArgMatches};

use crate::cli::{self, Cli};
use crate::exit::Outcome;
use crate::fs::escape::escaped;
use crate::report::describe;
use crate::walk::methods::Method;
use args::BenchArgs;
use export::Caption;
use plan::Search;
use result::BenchmarkResult;
use runner::Runner;

/// `ffind --bench`'s own options as clap defines them (for the manual and the completions).
pub fn command() -> clap::Command {
    crate::cli::help::command_in_system_words(BenchArgs::command())
}

/// Runs `ffind --bench`; `argv` is the whole command line, program name and `--bench` included.
pub fn main(argv: Vec<OsString>) -> Outcome {
    let (args, search, terminator) = match parse(argv) {
        Ok(parsed) => parsed,
        Err(outcome) => return outcome,
    };
    match run(&args, &search, terminator) {
        Ok(outcome) => outcome,
        // As a search whose reader went away (`ffind --bench | head`): not a failure.
        Err(e) if e.is::<ReaderGone>() => Outcome::Success,
        Err(e) => {
            // check_paths has already put the system error in words (`describe`).
            crate::report::say!("ffind --bench: {e:#}");
            Outcome::Errors
        }
    }
}

/// Parses both halves of the command line; on an error (or --help) prints and gives the outcome.
fn parse(argv: Vec<OsString>) -> Result<(BenchArgs, Search, u8), Outcome> {
    let mut argv = argv.into_iter();
    let program = argv.next().unwrap_or_else(|| "ffind".into());
    argv.next(); // "--bench"
    let mut bench_cmd = BenchArgs::command();
    bench_cmd.build();
    // clap's messages about the filters show bench's usage line, not the search's.
    let usage = bench_cmd.render_usage().to_string();
    let usage = usage.strip_prefix("Usage: ").unwrap_or(&usage).to_owned();
    let mut search_cmd = Cli::command()
        .bin_name("ffind --bench")
        .override_usage(usage);
    search_cmd.build();
    let parts = split::split(argv, &bench_cmd, &search_cmd);

    let bench_argv = std::iter::once(OsString::from("ffind --bench"))
        .chain(parts.bench)
        .chain(std::iter::once("--".into()))
        .chain(parts.paths.iter().cloned());
    let args = command()
        .try_get_matches_from(bench_argv)
        .and_then(|m| BenchArgs::from_arg_matches(&m))
        .map_err(print_clap_error)?;
    let search_argv: Vec<OsString> = std::iter::once(program.clone())
        .chain(parts.search.iter().cloned())
        .collect();
    // Each run reads the config file as ffind does; bench reads it too, to know what the runs
    // search for (a --glob there changes the match-all pattern) and to say that it applies.
    // clap's errors show bench's own usage (`search_cmd` is named `ffind --bench`).
    let checked = search_cmd
        .try_get_matches_from_mut(&search_argv)
        .map_err(|e| cli::ParseError::Clap(e, None));
    let parsed = checked.and_then(|_| cli::parse_with_config(search_argv));
    let (cli, config_file) = parsed.map_err(|e| {
        let clap_usage = matches!(&e, cli::ParseError::Clap(e, _) if e.use_stderr());
        let outcome = e.report();
        if clap_usage {
            crate::report::say!(
                "(ffind --bench passes the options it does not know to each run: see ffind --help)"
            );
        }
        outcome
    })?;
    if !cli.exec.is_empty() || !cli.exec_batch.is_empty() {
        // Timing them would time the commands; and the words after -x are the command's up
        // to a ';', so the PATHs given after it would run as its arguments.
        crate::report::say!(
            "ffind --bench: -x/--exec and -X/--exec-batch cannot be benchmarked: bench times the \
             search itself, with its output sent to /dev/null"
        );
        return Err(Outcome::Usage);
    }
    // `--cache` on bench's own command line times the memo; one that comes from the config
    // file does not apply: the benchmark times walks (each run is given --no-cache).
    let cache_given = parts
        .search
        .iter()
        .rev()
        .find(|w| *w == "--cache" || *w == "--no-cache")
        .is_some_and(|w| w == "--cache");
    let mut options = parts.search;
    if cli.cache && !cache_given {
        options.push("--no-cache".into());
    }
    if let Some(file) = &config_file {
        // Not println!, which panics when stdout's reader has gone: the benchmark's own
        // first write then fails and says so.
        let _ = writeln!(
            io::stdout(),
            "The config file {} applies to every run: {} (pass --no-config to time without it){}",
            crate::fs::escape::escaped_path(&file.path),
            file.summary(),
            if cli.cache && !cache_given {
                "; not its --cache: the benchmark times walks (give --cache to time the memo)"
            } else {
                ""
            }
        );
    }
    if let Err(e) = check_paths(&args.paths, cli.base_directory.as_deref()) {
        // check_paths has already put the system error in words (`describe`).
        crate::report::say!("ffind --bench: {e:#}");
        return Err(Outcome::Usage);
    }
    if let Err(e) = check_exports(&args) {
        crate::report::say!("ffind --bench: {e}");
        return Err(Outcome::Usage);
    }
    if cli.exact {
        // Each run searches with a pattern that matches everything: --exact has none.
        crate::report::say!(
            "ffind --bench: --exact cannot be timed (no exact pattern matches every name)"
        );
        return Err(Outcome::Usage);
    }
    let match_all = if cli.glob {
        "*"
    } else if cli.fixed_strings {
        ""
    } else {
        "."
    };
    let search = Search {
        program,
        options,
        paths: parts.paths,
        match_all,
        cache: cache_given,
    };
    Ok((args, search, if cli.print0 { 0 } else { b'\n' }))
}

/// Prints clap's message (or help), its quoted values escaped, and gives the outcome.
fn print_clap_error(e: clap::Error) -> Outcome {
    cli::ParseError::Clap(e, None).report()
}

/// A path, command or other text as bench shows it: escaped as ffind shows names on a terminal.
fn shown(text: impl AsRef<[u8]>) -> String {
    escaped(text.as_ref())
}

/// Bench takes only PATHs, so a pattern given where ffind takes one would be timed as a
/// missing directory: say so before spending any time.
fn check_paths(paths: &[PathBuf], base: Option<&Path>) -> Result<()> {
    for path in paths {
        let full = base.map_or_else(|| path.clone(), |b| b.join(path));
        if let Err(e) = std::fs::metadata(&full) {
            bail!(
                "{}: {}\n(bench takes only directories; to time a pattern search, pass the \
                 pattern with --and PATTERN)",
                shown(path.as_os_str().as_encoded_bytes()),
                describe(&e)
            );
        }
    }
    Ok(())
}

/// Every export file must be writable before the first run (see [`export::check_writable`]).
fn check_exports(args: &BenchArgs) -> Result<(), String> {
    for (_, option, path) in args.exports() {
        export::check_writable(path).map_err(|e| {
            format!(
                "{option} {}: cannot write this file: {}",
                shown(path.as_os_str().as_encoded_bytes()),
                describe(&e)
            )
        })?;
    }
    Ok(())
}

/// Bench's stdout was closed by its reader: it stops there, quietly, as a search does.
#[derive(Debug)]
struct ReaderGone;

impl std::fmt::Display for ReaderGone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stdout's reader has gone")
    }
}

impl std::error::Error for ReaderGone {}

/// Writes `text` to stdout at once (the progress of a run that takes minutes); its reader gone,
/// the error is [`ReaderGone`].
fn show(stdout: &mut io::Stdout, text: &str) -> Result<()> {
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe || crate::fs::Fault::BrokenPipe.is(&e) => {
            Err(ReaderGone.into())
        }
        Err(e) => Err(anyhow::Error::new(e).context("cannot write to stdout")),
    }
}

fn run(args: &BenchArgs, search: &Search, terminator: u8) -> Result<Outcome> {
    let cpus = std::thread::available_parallelism().map_or(1, usize::from);
    let benchmarks = plan::benchmarks(&args.methods(), &args.levels(cpus), search);
    let exe = std::env::current_exe().context("cannot find the ffind binary to run")?;
    let runner = Runner::new(exe, terminator);
    let mut stdout = io::stdout();
    let mut results: Vec<BenchmarkResult> = Vec::new();
    let mut warned = false;
    // A run that fails is said, and the others go on: what finished is exported, and the
    // exit status says that one failed.
    let mut failed = false;
    for (i, benchmark) in benchmarks.iter().enumerate() {
        if search.cache && !benchmark.method.takes_cache() {
            show(
                &mut stdout,
                &format!(
                    "Skipped: --method {} (--cache needs a method that reads directories \
                     itself: auto, {})\n\n",
                    benchmark.method.name(),
                    Method::all()
                        .filter(|m| m.takes_cache())
                        .map(Method::name)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )?;
            continue;
        }
        show(&mut stdout, &report::header(i + 1, &benchmark.command))?;
        let count = runner
            .count(&benchmark.args)
            .with_context(|| format!("cannot run {}", shown(&benchmark.command)))?;
        match count.exit_code {
            Some(0) => {}
            Some(1) if !warned => {
                // Unreadable entries: every method meets the same ones, so the timings still
                // compare; hyperfine would stop here, but a system tree rarely reads cleanly.
                warned = true;
                crate::report::say!(
                    "ffind --bench: warning: the search reported errors (exit code 1); first:"
                );
                crate::report::say!("  {}", shown(count.stderr.lines().next().unwrap_or("")));
            }
            Some(1) => {}
            code => {
                let how = code.map_or("was killed by a signal".to_owned(), |c| {
                    format!("exited with {c}")
                });
                let stderr: Vec<String> = count.stderr.trim_end().lines().map(shown).collect();
                crate::report::say!(
                    "ffind --bench: {} {how}:\n{}",
                    shown(&benchmark.command),
                    stderr.join("\n")
                );
                failed = true;
                continue;
            }
        }
        if let Some(first) = results.first().filter(|f| f.entries != count.entries) {
            // Tell a method that is wrong from a tree that changed: count again the way the
            // first benchmark did.
            let again = runner
                .count(&benchmarks[0].args)
                .with_context(|| format!("cannot run {}", shown(&first.command)))?;
            let complaint = disagreement(first, again.entries, &benchmark.command, count.entries);
            crate::report::say!("ffind --bench: {complaint}");
            failed = true;
            continue;
        }
        let runs = runner.measure(benchmark, args.warmup, args.runs)?;
        let result = BenchmarkResult::new(benchmark, count.entries, &runs);
        show(&mut stdout, &report::benchmark(&result))?;
        results.push(result);
    }
    result::set_parameters(&mut results);
    show(&mut stdout, &report::summary(&results))?;
    let caption = caption(args, search, &results);
    for (format, _, path) in args.exports() {
        format.write(path, &results, &caption)?;
    }
    Ok(if failed {
        Outcome::Errors
    } else {
        Outcome::Success
    })
}

/// Every benchmark must list as many entries as the first: otherwise its speed means nothing.
/// `first_now` is what the first benchmark lists when asked again: if that changed too, the
/// tree changed under the benchmark (a path appeared or vanished), and no method is to blame;
/// else the methods disagree. Says which.
fn disagreement(first: &BenchmarkResult, first_now: u64, command: &str, entries: u64) -> String {
    let (first_command, command) = (shown(&first.command), shown(command));
    if first_now != first.entries {
        format!(
            "the tree changed while benchmarking (a path appeared or vanished): {} listed {} \
             entries, then {first_now}; {command} listed {entries}. Benchmark a tree that \
             nothing else writes to.",
            first_command, first.entries
        )
    } else {
        format!(
            "{command} listed {entries} entries, but {} listed {} (and still does): the methods \
             disagree.",
            first_command, first.entries
        )
    }
}

/// The chart's title and conditions: what was searched, how often, how many entries.
fn caption(args: &BenchArgs, search: &Search, results: &[BenchmarkResult]) -> Caption {
    let words: Vec<String> = search
        .options
        .iter()
        .chain(&search.paths)
        .map(|w| plan::shell_quote(w))
        .collect();
    let target = if words.is_empty() {
        ".".to_owned()
    } else {
        words.join(" ")
    };
    let entries = results.first().map_or(0, |r| r.entries);
    Caption {
        title: format!("ffind --bench {target}"),
        subtitle: format!(
            "mean ± σ of {} timed runs each, caches warm ({} warm-up run{} + a counting run); \
             {entries} entries; {} CPUs",
            args.runs,
            args.warmup,
            if args.warmup == 1 { "" } else { "s" },
            std::thread::available_parallelism().map_or(1, usize::from)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::result::tests::sample;
    use crate::walk::methods::Method;

    #[test]
    fn a_different_entry_count_is_named() {
        let first = sample(Method::Serial, 1, &[0.1]);
        let complaint = disagreement(
            &first,
            first.entries,
            "ffind --method queue --concurrency 4 . /t",
            8,
        );
        assert_eq!(
            complaint,
            "ffind --method queue --concurrency 4 . /t listed 8 entries, but \
             ffind --method serial --concurrency 1 . /t listed 7 (and still does): the methods \
             disagree."
        );
    }

    #[test]
    fn a_tree_that_changed_is_not_blamed_on_the_methods() {
        let first = sample(Method::Serial, 1, &[0.1]);
        let complaint = disagreement(&first, 6, "ffind --method queue --concurrency 4 . /t", 6);
        assert_eq!(
            complaint,
            "the tree changed while benchmarking (a path appeared or vanished): \
             ffind --method serial --concurrency 1 . /t listed 7 entries, then 6; \
             ffind --method queue --concurrency 4 . /t listed 6. Benchmark a tree that nothing \
             else writes to."
        );
    }
}
