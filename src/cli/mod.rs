//! The command line: clap's definition and parse ([`args`]), the config file of default
//! options that goes before it ([`config_file`]), and what a parse error shows. `config.rs`
//! turns the parsed [`Cli`] into the one resolved configuration.

pub mod args;
pub mod config_file;
pub mod help;
pub mod hint;

use std::ffi::OsString;

use clap::error::{ContextKind, ContextValue};
use clap::parser::ValueSource;
use clap::CommandFactory;

pub use args::{parse, Cli, OrderArg, SortArg};
use config_file::ConfigFile;

use crate::exit::Outcome;

/// Why a command line could not be parsed.
#[derive(Debug)]
pub enum ParseError {
    /// clap's own error (or `--help`, `--version`), and a note to print after it: which
    /// arguments the config file added, when they are part of the problem.
    Clap(clap::Error, Option<String>),
    /// The config file cannot be read, or holds an argument that has no place there: the
    /// message, naming the file and the line.
    Config(String),
}

impl ParseError {
    /// Shows the error (or clap's help or version) on the stream clap chooses, and gives the
    /// outcome: a usage error, or success for `--help` and `--version`.
    pub fn report(self) -> Outcome {
        match self {
            ParseError::Clap(mut e, note) => {
                escape_quoted(&mut e);
                let _ = e.print();
                if let Some(note) = note {
                    crate::report::say!("{note}");
                }
                if e.use_stderr() {
                    Outcome::Usage
                } else {
                    Outcome::Success
                }
            }
            ParseError::Config(message) => {
                crate::report::say!("ffind: {}", crate::fs::escape::escaped_lines(&message));
                crate::report::say!("(ffind --no-config skips the config file)");
                Outcome::Usage
            }
        }
    }
}

/// Escapes the values a clap error quotes from the command line, as names are shown on a
/// terminal (clap's own colors stay): a value cannot send escape sequences to the terminal.
fn escape_quoted(e: &mut clap::Error) {
    let shown = |s: &String| crate::fs::escape::escaped(s.as_bytes());
    let quoted: Vec<(ContextKind, ContextValue)> = e
        .context()
        .filter_map(|(kind, value)| {
            let value = match value {
                ContextValue::String(s) => ContextValue::String(shown(s)),
                ContextValue::Strings(list) => {
                    ContextValue::Strings(list.iter().map(shown).collect())
                }
                _ => return None,
            };
            Some((kind, value))
        })
        .collect();
    for (kind, value) in quoted {
        e.insert(kind, value);
    }
}

/// Parses the command line after the config file's arguments ([`config_file`]), and
/// gives the file read, if any. `--no-config` (and `--gen-completions`, `--gen-man`, `--help`,
/// `--version`, whose output the file must not change) skip it.
pub fn parse_with_config(args: Vec<OsString>) -> Result<(Cli, Option<ConfigFile>), ParseError> {
    let Some(path) = config_file::locate().filter(|_| wants_config(&args)) else {
        return parse(args)
            .map(|cli| (cli, None))
            .map_err(|e| ParseError::Clap(e, None));
    };
    let file = config_file::read(path).map_err(ParseError::Config)?;
    let mut args = args.into_iter();
    let program = args.next().unwrap_or_else(|| "ffind".into());
    // Each line read as clap reads it (cheap); clap's own verdict on the file alone only
    // when the whole command line is refused (one parse of a long file, not two).
    let full_check = || config_file::check(&file, &program).map_err(ParseError::Config);
    let file_args = match config_file::check_lines(&file) {
        Ok(args) => args,
        Err(_) => {
            full_check()?;
            file.args.clone()
        }
    };
    let given: Vec<OsString> = args.collect();
    let combined = std::iter::once(program.clone())
        .chain(file_args)
        .chain(given.iter().cloned());
    match parse(combined) {
        Ok(cli) => Ok((cli, Some(file))),
        Err(mut e) => {
            full_check()?;
            // The usage line shows the command line as typed, and the note the file's part:
            // not the file's options as if the user had typed them.
            let alone = parse(std::iter::once(program).chain(given));
            let usage = match &alone {
                Err(alone) => alone.get(ContextKind::Usage).cloned(),
                Ok(_) => Some(ContextValue::StyledStr(Cli::command().render_usage())),
            };
            let shows_usage = e.get(ContextKind::Usage).is_some();
            if let Some(usage) = usage.filter(|_| shows_usage) {
                e.insert(ContextKind::Usage, usage);
            }
            // Said when the file is to blame (the command line alone parses), or when the
            // usage line leaves the file's part out.
            let note = (alone.is_ok() || (shows_usage && !file.args.is_empty())).then(|| {
                format!(
                    "(the config file {} adds: {}; --no-config skips it)",
                    crate::fs::escape::escaped_path(&file.path),
                    file.summary()
                )
            });
            Err(ParseError::Clap(e, note))
        }
    }
}

/// Whether the config file that applies to this command line holds `--mpi` (so that under an
/// MPI launcher only process 0 says why the command line is refused, as for `--mpi` given on
/// it).
pub fn config_asks_mpi(args: &[OsString]) -> bool {
    config_file::locate()
        .filter(|_| wants_config(args))
        .and_then(|path| config_file::read(path).ok())
        .is_some_and(|file| file.args.iter().any(|a| a == "--mpi"))
}

/// Whether the config file applies to this command line: not with `--no-config`, nor for
/// output the file must not change (completions, the manual, help, the version).
fn wants_config(args: &[OsString]) -> bool {
    let Ok(m) = Cli::command()
        .ignore_errors(true)
        .try_get_matches_from(args)
    else {
        // --help, --version
        return false;
    };
    let given = |id: &str| m.value_source(id) == Some(ValueSource::CommandLine);
    !(given("no_config") || given("gen_completions") || given("gen_man"))
}
