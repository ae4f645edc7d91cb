//! ffind: a parallel file finder with fd's command line.
//!
//! argv → clap ([`cli`]) → one resolved [`config::Config`] → a traversal method ([`walk`]) →
//! filters ([`filter`]) → the one writer ([`output::printer`]) → an exit code ([`exit`]).
//! With `--mpi` under an MPI launcher, every process of the job runs this, and the search is
//! spread over them ([`walk::mpi`]).

#![forbid(unsafe_code)]

mod bench;
mod cli;
mod completions;
mod config;
mod exec;
mod filter;
mod manual;
mod memo;
mod output;
mod template;
mod walk;

// The ground floor (crates/ffind-sys), by the names its modules had here.
use ffind_sys::{exit, fs, report};

use std::ffi::OsString;
use std::io::{self, Write};
use std::process::ExitCode;

use crate::cli::{Cli, OrderArg, SortArg};
use crate::config::Config;
use crate::exit::Outcome;
use crate::output::printer::{Printer, Stopped};
use crate::output::style::Style;
use crate::report::{describe, strip_os_error, Reporter};
use crate::walk::methods::AUTO;
use crate::walk::mpi::launch::{self, Launch};

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    ExitCode::from(run(args).code())
}

fn run(args: Vec<OsString>) -> Outcome {
    if args.get(1).is_some_and(|a| a == "--bench") {
        return bench::main(args);
    }
    // Under an MPI launcher, only process 0 speaks before the search: not N copies of one
    // usage error, of the help, of the completions.
    let silent = || launch::detect().is_some_and(|l| !l.speaks());
    // --mpi on the command line, or in the config file.
    let asked_mpi = |args: &[OsString]| launch::asked(args) || cli::config_asks_mpi(args);
    let (mut cli, file) = match cli::parse_with_config(args.clone()) {
        Ok(parsed) => parsed,
        Err(_) if silent() && asked_mpi(&args) => return Outcome::Success,
        Err(e) => return e.report(),
    };
    cli.cache_on_command_line = args
        .iter()
        .skip(1)
        .take_while(|a| *a != "--")
        .any(|a| a == "--cache");
    // --mpi is for Linux clusters (docs/SCALE.md): refused elsewhere, by process 0 alone
    // under a launcher.
    if cli.mpi && !crate::fs::HAS_MPI {
        if silent() {
            return Outcome::Success;
        }
        crate::report::say!(
            "ffind: --mpi is not supported on {}: it runs on Linux only (docs/SCALE.md)",
            crate::fs::SYSTEM
        );
        return Outcome::Usage;
    }
    // The config file is to blame for a value the whole command line cannot resolve when
    // the command line alone resolves (an error path: the second resolution costs nothing).
    let blame = |message: &str| {
        let file = file.as_ref()?;
        let alone = cli::parse(args.iter().cloned()).ok()?;
        Config::from_cli(&alone, cli.mpi).ok()?;
        file.blame_value(message)
    };
    let launched = if cli.mpi { launch::detect() } else { None };
    if (cli.gen_completions.is_some() || cli.gen_man) && launched.is_some_and(|l| !l.speaks()) {
        return Outcome::Success;
    }
    if let Some(shell) = cli.gen_completions {
        return match completions::write(shell, cli.gen_system.as_deref(), &mut io::stdout()) {
            Ok(()) => Outcome::Success,
            Err(e) => {
                crate::report::say!("ffind: cannot write the completions: {}", describe(&e));
                Outcome::Errors
            }
        };
    }
    if cli.list_methods {
        return match io::stdout().write_all(crate::walk::methods::listing().as_bytes()) {
            Ok(()) => Outcome::Success,
            Err(e) => {
                crate::report::say!("ffind: cannot write the methods: {}", describe(&e));
                Outcome::Errors
            }
        };
    }
    if cli.gen_man {
        return match manual::render(&mut io::stdout()) {
            Ok(()) => Outcome::Success,
            Err(e) => {
                crate::report::say!("ffind: cannot write the manual: {}", describe(&e));
                Outcome::Errors
            }
        };
    }
    if let Some(task) = memo_task(&cli) {
        // They search nothing: a word after one is a path meant for it without its '='
        // (`--cache-clear /x` must not forget every search path's memo).
        if cli.pattern.is_some() || !cli.paths.is_empty() {
            crate::report::say!(
                "ffind: --cache-list, --cache-clear and --cache-check search nothing: give \
                 their path after '=' (--cache-clear=PATH, --cache-check=PATH)"
            );
            return Outcome::Usage;
        }
        let Some((dir, _)) = config::cache_dir(cli.cache_dir.clone()) else {
            crate::report::say!(
                "ffind: no cache directory: set $FFIND_CACHE_DIR, $XDG_CACHE_HOME or $HOME"
            );
            return Outcome::Usage;
        };
        return memo::manage::run(&task, &dir);
    }
    match launched {
        Some(launch) => distributed(&cli, &blame, launch),
        None => alone(&cli, &blame),
    }
}

/// What `--cache-list`, `--cache-clear` or `--cache-check` ask of the memo, if any.
fn memo_task(cli: &Cli) -> Option<memo::manage::Task> {
    use memo::manage::Task;
    if cli.cache_list {
        Some(Task::List)
    } else if let Some(paths) = &cli.cache_clear {
        Some(Task::Clear(paths.clone()))
    } else {
        cli.cache_check.clone().map(Task::Check)
    }
}

/// Where a message about a value should point, when the config file gave it: "config file
/// PATH, line N" ([`cli::config_file::ConfigFile::blame_value`]).
type Blame<'a> = &'a dyn Fn(&str) -> Option<String>;

/// Why a search cannot start: the outcome, and the whole message.
type Refused = (Outcome, String);

/// Everything that can refuse a search before it starts: the base directory, the
/// configuration, the output file (`opens_output`: only the process that writes opens it).
fn prepare(
    cli: &Cli,
    blame: Blame,
    distributed: bool,
    opens_output: bool,
) -> Result<(&'static Config, Box<dyn Write + Send>), Refused> {
    if let Some(base) = &cli.base_directory {
        if let Err(e) = std::env::set_current_dir(base) {
            return Err((
                Outcome::Usage,
                format!(
                    "ffind: {}: cannot use as base directory: {}",
                    crate::fs::escape::escaped_path(base),
                    describe(&e)
                ),
            ));
        }
    }
    let config = Config::from_cli(cli, distributed).map_err(|e| {
        let why = strip_os_error(&format!("{e:#}"));
        // The message may quote a pattern or a value as given: escaped, line by line.
        let message = match blame(&why) {
            Some(at) => format!(
                "ffind: {at}: {}\n(ffind --no-config skips the config file)",
                crate::fs::escape::escaped_lines(&why)
            ),
            None => format!("ffind: {}", crate::fs::escape::escaped_lines(&why)),
        };
        (Outcome::Usage, message)
    })?;
    if distributed {
        refuse_distributed(cli)?;
    }
    let out: Box<dyn Write + Send> = match (&config.output, opens_output) {
        (Some(path), true) => match std::fs::File::create(path) {
            Ok(file) => crate::fs::text_output(Box::new(file)),
            Err(e) => {
                return Err((
                    Outcome::Usage,
                    format!(
                        "ffind: {}: cannot write the results there: {}",
                        crate::fs::escape::escaped_path(path),
                        describe(&e)
                    ),
                ))
            }
        },
        _ => crate::fs::text_output(Box::new(io::stdout())),
    };
    // The configuration lives as long as the process; leaking it gives the walker threads
    // (jwalk's callbacks need 'static) plain references.
    Ok((Box::leak(Box::new(config)), out))
}

/// What `--mpi` cannot do when it runs distributed.
fn refuse_distributed(cli: &Cli) -> Result<(), Refused> {
    if !cli.exec.is_empty() || !cli.exec_batch.is_empty() {
        return Err((
            Outcome::Usage,
            "ffind: --mpi cannot run commands (-x, -X): the results are found on many nodes; \
             write them with --output and run the commands on that list"
                .into(),
        ));
    }
    if cli.method.is_some_and(|m| m != AUTO) {
        return Err((
            Outcome::Usage,
            "ffind: --mpi walks with its own distributed queue: --method cannot choose another"
                .into(),
        ));
    }
    let sorted = matches!(cli.sort, Some(SortArg::Path | SortArg::Depth));
    if cli.order == Some(OrderArg::Breadth) && !sorted {
        return Err((
            Outcome::Usage,
            "ffind: --mpi walks depth first only: --order breadth would hold every process at \
             the end of each level; --sort depth gives the results nearest first once the \
             walk ends"
                .into(),
        ));
    }
    Ok(())
}

/// The printer of the results: to `out` (stdout or `--output`), in the configured style.
fn results_printer(config: &'static Config, out: Box<dyn Write + Send>) -> Printer {
    Printer::new(
        out,
        config.terminator,
        config.quiet,
        config.max_results,
        config.eager_output,
    )
    .with_style(config.style.as_ref(), config.dash_guard)
}

/// One process searches (the usual case, and `--mpi` without an MPI launcher).
fn alone(cli: &Cli, blame: Blame) -> Outcome {
    let (config, out) = match prepare(cli, blame, false, true) {
        Ok(prepared) => prepared,
        Err((outcome, message)) => {
            crate::report::say!("{message}");
            return outcome;
        }
    };
    if !config.explain.is_empty() {
        return explain(config, out);
    }
    // Before the first thread starts (commands', the hold's, the signals').
    walk::prepare::grow_descriptors(config, crate::fs::raise_fd_limit());
    let runner = match &config.exec {
        Some(spec) => match exec::start(spec) {
            Ok(runner) => Some(runner),
            Err(e) => {
                crate::report::say!("ffind: cannot watch for Ctrl-C: {}", describe(&e));
                return Outcome::Errors;
            }
        },
        None => None,
    };
    let printer = match &runner {
        // Commands get NUL-terminated paths, as soon as each directory is read.
        Some(runner) => Printer::new(runner.sink(), 0, false, None, true),
        None => match config.hold {
            Some((order, window)) => results_printer(config, out).held(order, window),
            None => results_printer(config, out),
        },
    };
    // The writer and the error sink live as long as the process, as the configuration.
    // With --sort, commands too get the results in order (once the walk ends).
    let printer: &'static Printer = Box::leak(Box::new(printer.sorted(config.sort)));
    printer.close_window();
    if runner.is_none() {
        // Colors or links on: a signal must not leave the terminal in one. And where the
        // system would end ffind under the walk's threads, the walk is stopped first.
        let reset = config.style.as_ref().and_then(Style::reset);
        let reset = reset.or_else(|| crate::fs::CATCH_ENDINGS.then(Vec::new));
        if let Some(reset) = reset {
            if let Err(e) = output::interrupted::end_cleanly(printer, reset) {
                crate::report::say!("ffind: cannot watch for Ctrl-C: {}", describe(&e));
            }
        }
    }
    let report: &'static Reporter = Box::leak(Box::new(reporter(config)));
    // Counted only where the hint can be said (a terminal, neither -q nor --no-hints).
    let hints: Option<&'static walk::why::Hints> =
        config.hints.then(|| &*Box::leak(Box::default()));
    walk::run(config, printer, report, hints);
    output::interrupted::walk_ended();
    printer.finish();
    output::interrupted::settle();
    say_hidden(config, report);
    say_hint(cli, config, printer);
    say_skipped(hints, printer);
    if let Some(runner) = runner {
        let commands_ok = runner.finish();
        return Outcome::of_walk(false, true, report.had_errors() || !commands_ok);
    }
    outcome(config, printer, report.had_errors())
}

/// `--explain`: what the command line does with each path, instead of searching.
fn explain(config: &'static Config, mut out: Box<dyn Write + Send>) -> Outcome {
    let report = reporter(config);
    if let Err(e) = walk::explain::run(config, &report, &mut out) {
        report::say_stdout_error(&e);
        return Outcome::Errors;
    }
    Outcome::of_walk(false, true, report.had_errors())
}

/// The error reporter of a search: what `--no-errors` hides is counted instead of said, but
/// for the messages about a search path.
fn reporter(config: &Config) -> Reporter {
    if !config.hide_errors {
        return Reporter::new();
    }
    let paths: Vec<&[u8]> = config.roots.iter().map(|r| r.open_path()).collect();
    Reporter::new().hiding(&paths)
}

/// A search that found nothing says what its arguments may have meant (`-e '*.rs'`: see
/// [`cli::hint::for_no_results`]); never one that found something, nor a quiet one.
fn say_hint(cli: &Cli, config: &Config, printer: &Printer) {
    if !printer.matched() && !config.quiet && !cli.no_hints {
        if let Some(hint) = cli::hint::for_no_results(cli) {
            crate::report::say!("{hint}");
        }
    }
}

/// A search that printed nothing says on a terminal when entries it skipped (hidden, ignored,
/// excluded) would have been printed: how many, why, what shows them ([`walk::why::Hints`]).
fn say_skipped(hints: Option<&walk::why::Hints>, printer: &Printer) {
    if printer.matched() {
        return;
    }
    let example = |path: &[u8]| {
        let path = crate::fs::os_path(path);
        crate::fs::escape::escaped(crate::fs::escape::shell_quote(path.as_os_str()).as_bytes())
    };
    if let Some(hint) = hints.and_then(|h| h.message(example)) {
        crate::report::say!("{hint}");
    }
}

/// Says, on a terminal, how many errors `--no-errors` hid (see [`Config::count_hidden`]).
fn say_hidden(config: &Config, report: &Reporter) {
    let n = report.hidden();
    if config.count_hidden && n > 0 {
        let errors = if n == 1 { "error" } else { "errors" };
        crate::report::say!("ffind: {n} {errors} not shown (--no-errors)");
    }
}

/// What a search that printed through `printer` ends with.
fn outcome(config: &Config, printer: &Printer, errors: bool) -> Outcome {
    if printer.why() == Stopped::WriteError {
        if let Some(e) = printer.take_error() {
            match &config.output {
                Some(path) => crate::report::say!(
                    "ffind: {}: cannot write the results there: {}",
                    crate::fs::escape::escaped_path(path),
                    describe(&e)
                ),
                None => report::say_stdout_error(&e),
            }
        }
        return Outcome::Errors;
    }
    Outcome::of_walk(config.quiet, printer.matched(), errors)
}

/// One process of an `--mpi` search: MPI up, every process agreed that it can search, the
/// search, and (on process 0) the sorted output and the job's outcome; MPI is finalized on
/// every path out.
#[cfg(feature = "mpi")]
fn distributed(cli: &Cli, blame: Blame, launch: Launch) -> Outcome {
    // Said by process 0 alone; the others succeed, so that the launcher shows its status.
    let refuse = |message: &str| {
        if launch.speaks() {
            crate::report::say!("{message}");
            return Outcome::Usage;
        }
        Outcome::Success
    };
    if launch.without_pmi {
        return refuse(
            "ffind: --mpi: srun started these tasks without a process-management interface \
             (--mpi=none), so MPI cannot join them into one job: use srun --mpi=pmix (Open MPI) \
             or --mpi=pmi2 (MPICH) (docs/SCALE.md)",
        );
    }
    let Some(session) = walk::mpi::Session::start() else {
        if launch.speaks() {
            crate::report::say!("ffind: --mpi: MPI was started already");
        }
        return Outcome::Errors;
    };
    // N copies of one search, each printing every result, unless refused.
    if let Some(launched) = launch.size.filter(|&n| n > 1 && session.size() == 1) {
        return refuse(&launch::alone_message(launched));
    }
    let first = session.is_first();
    let (config, out) = match session.agree(prepare(cli, blame, true, first)) {
        Ok(prepared) => prepared,
        Err(outcome) => return session.exit(outcome),
    };
    if !first {
        session.search(config, None);
        return session.exit(Outcome::Success);
    }
    let printer: &'static Printer =
        Box::leak(Box::new(results_printer(config, out).sorted(config.sort)));
    let report: &'static Reporter = Box::leak(Box::new(reporter(config)));
    let errors = session.search(config, Some((printer, report)));
    // MPI_Finalize: the other processes may end while the sorted results are written.
    drop(session);
    printer.finish();
    say_hidden(config, report);
    say_hint(cli, config, printer);
    outcome(config, printer, errors)
}

/// Without MPI support, a launched `--mpi` says so once (process 0) rather than running N
/// copies of one search, each printing every result.
#[cfg(not(feature = "mpi"))]
fn distributed(_cli: &Cli, _blame: Blame, launch: Launch) -> Outcome {
    if launch.speaks() {
        crate::report::say!(
            "ffind: --mpi: this ffind was built without MPI support: build it with \
             `cargo build --release --features mpi` (docs/SCALE.md), or run it without an \
             MPI launcher"
        );
        return Outcome::Usage;
    }
    Outcome::Success
}
