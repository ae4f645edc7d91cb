//! ffind: a parallel file finder with fd's command line.
//!
//! argv → clap ([`cli`]) → one resolved [`config::Config`] → a traversal method ([`walk`]) →
//! filters ([`filter`]) → the one writer ([`output::printer`]) → an exit code ([`exit`]).

mod bench;
mod cli;
mod config;
mod exec;
mod exit;
mod filter;
mod fs;
mod output;
mod report;
mod template;
mod walk;

use std::ffi::OsString;
use std::io::{self, Write};
use std::process::ExitCode;

use crate::cli::Cli;
use crate::config::Config;
use crate::exit::Outcome;
use crate::output::printer::{Printer, Stopped};
use crate::report::{describe, strip_os_error, Reporter};

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    ExitCode::from(run(args).code())
}

fn run(args: Vec<OsString>) -> Outcome {
    if args.get(1).is_some_and(|a| a == "bench") {
        return bench::main(args);
    }
    let cli = match cli::parse_with_config(args) {
        Ok((cli, _)) => cli,
        Err(e) => return e.report(),
    };
    if let Some(shell) = cli.gen_completions {
        let mut cmd = <cli::Cli as clap::CommandFactory>::command();
        clap_complete::generate(shell, &mut cmd, "ffind", &mut io::stdout());
        return Outcome::Success;
    }
    if cli.gen_man {
        return match cli::manual(&mut io::stdout()) {
            Ok(()) => Outcome::Success,
            Err(e) => {
                eprintln!("ffind: cannot write the manual: {}", describe(&e));
                Outcome::Errors
            }
        };
    }
    alone(&cli)
}

/// Why a search cannot start: the outcome, and the whole message.
type Refused = (Outcome, String);

/// Everything that can refuse a search before it starts: the base directory, the
/// configuration, the output file.
fn prepare(cli: &Cli) -> Result<(&'static Config, Box<dyn Write + Send>), Refused> {
    if let Some(base) = &cli.base_directory {
        if let Err(e) = std::env::set_current_dir(base) {
            return Err((
                Outcome::Usage,
                format!(
                    "ffind: {}: cannot use as base directory: {}",
                    crate::fs::escape::escaped(base.as_os_str().as_encoded_bytes()),
                    describe(&e)
                ),
            ));
        }
    }
    let config = Config::from_cli(cli).map_err(|e| {
        (
            Outcome::Usage,
            format!("ffind: {}", strip_os_error(&format!("{e:#}"))),
        )
    })?;
    let out: Box<dyn Write + Send> = match &config.output {
        Some(path) => match std::fs::File::create(path) {
            Ok(file) => Box::new(file),
            Err(e) => {
                return Err((
                    Outcome::Usage,
                    format!(
                        "ffind: {}: cannot write the results there: {}",
                        crate::fs::escape::escaped(path.as_os_str().as_encoded_bytes()),
                        describe(&e)
                    ),
                ))
            }
        },
        None => Box::new(io::stdout()),
    };
    // The configuration lives as long as the process; leaking it gives the walker threads
    // (jwalk's callbacks need 'static) plain references.
    Ok((Box::leak(Box::new(config)), out))
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

/// One process searches.
fn alone(cli: &Cli) -> Outcome {
    let (config, out) = match prepare(cli) {
        Ok(prepared) => prepared,
        Err((outcome, message)) => {
            eprintln!("{message}");
            return outcome;
        }
    };
    let runner = match &config.exec {
        Some(spec) => match exec::start(spec) {
            Ok(runner) => Some(runner),
            Err(e) => {
                eprintln!("ffind: cannot watch for Ctrl-C: {}", describe(&e));
                return Outcome::Errors;
            }
        },
        None => None,
    };
    let printer = match &runner {
        // Commands get NUL-terminated paths, as soon as each directory is read.
        Some(runner) => Printer::new(runner.sink(), 0, false, None, true),
        None => results_printer(config, out),
    };
    // The writer and the error sink live as long as the process, as the configuration.
    // With --sort, commands too get the results in order (once the walk ends).
    let printer: &'static Printer = Box::leak(Box::new(printer.sorted(config.sort)));
    let report: &'static Reporter = Box::leak(Box::new(Reporter::new()));
    walk::run(config, printer, report);
    printer.finish();
    if let Some(runner) = runner {
        let commands_ok = runner.finish();
        return Outcome::of_walk(false, true, report.had_errors() || !commands_ok);
    }
    outcome(config, printer, report.had_errors())
}

/// What a search that printed through `printer` ends with.
fn outcome(config: &Config, printer: &Printer, errors: bool) -> Outcome {
    if printer.why() == Stopped::WriteError {
        if let Some(e) = printer.take_error() {
            match &config.output {
                Some(path) => eprintln!(
                    "ffind: {}: cannot write the results there: {}",
                    crate::fs::escape::escaped(path.as_os_str().as_encoded_bytes()),
                    describe(&e)
                ),
                None => report::say_stdout_error(&e),
            }
        }
        return Outcome::Errors;
    }
    Outcome::of_walk(config.quiet, printer.matched(), errors)
}
