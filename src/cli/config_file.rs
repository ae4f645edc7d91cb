//! The config file: default arguments the user always wants (fd #362), as ripgrep reads them.
//!
//! `$FFIND_CONFIG_PATH` names it (set but empty: no file), else `$XDG_CONFIG_HOME/ffind/config`
//! (by default `~/.config/ffind/config`) when that exists. One argument per line, with the
//! whitespace around it trimmed (spaces inside stay: a line is one argument, with no shell
//! quoting); blank lines and lines starting with `#` are skipped; a UTF-8 byte order mark at
//! the start is ignored. Its arguments go before the command line's, so the command line wins.
//!
//! Only options belong there: a pattern, a path, `--` or a command (`-x`, `-X`, which would
//! take the command line's arguments as their own) is refused, naming the file and the line.
//! The file is read like an ignore file ([`read_small_file`]): a FIFO, a device or a file
//! over [`CONFIG_FILE_LIMIT`] is refused at once instead of being waited on.
//!
//! This is not `config.rs`, which resolves the whole command line into the walk's `Config`;
//! this module only adds words to that command line.

use std::ffi::OsString;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

use clap::error::{ContextKind, ContextValue};
use clap::parser::ValueSource;
use clap::CommandFactory;

use super::args::Cli;
use crate::fs::escape::shell_quote;
use crate::fs::read_small_file;
use crate::report::describe;

/// The environment variable that names the config file.
pub const CONFIG_PATH_VAR: &str = "FFIND_CONFIG_PATH";

/// The largest config file read: a list of options, never this long.
pub const CONFIG_FILE_LIMIT: u64 = 1 << 20;

/// The config file's arguments, and the line each came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigFile {
    /// Where it was read from.
    pub path: PathBuf,
    /// Its arguments, in order.
    pub args: Vec<OsString>,
    /// The line (from 1) of each argument.
    pub lines: Vec<usize>,
}

/// Where the config file is, from the environment: `None` when there is none to read (nothing
/// is opened yet: `--no-config` may still say not to).
pub fn locate() -> Option<PathBuf> {
    locate_in(
        std::env::var_os(CONFIG_PATH_VAR),
        crate::fs::xdg::config_home(),
    )
}

/// [`locate`] given `$FFIND_CONFIG_PATH` (`var`) and `$XDG_CONFIG_HOME` or `~/.config`
/// (`home_config`).
fn locate_in(var: Option<OsString>, home_config: Option<PathBuf>) -> Option<PathBuf> {
    match var {
        Some(named) if named.is_empty() => None,
        Some(named) => Some(PathBuf::from(named)),
        None => {
            let default = home_config?.join("ffind").join("config");
            // A missing default file is no error; anything else there is read (and refused
            // if it is not a regular file).
            default.symlink_metadata().is_ok().then_some(default)
        }
    }
}

/// Reads the config file at `path` ([`locate`]). An error is the message to show: the file
/// was named, or exists, but cannot be used.
pub fn read(path: PathBuf) -> Result<ConfigFile, String> {
    let bytes = read_small_file(path.as_os_str().as_bytes(), CONFIG_FILE_LIMIT, false)
        .map_err(|e| format!("config file {}: {}", shown(&path), describe(&e)))?;
    let (args, lines) = split_lines(&bytes);
    Ok(ConfigFile { path, args, lines })
}

/// The arguments of a config file's text, and the line of each.
pub fn split_lines(text: &[u8]) -> (Vec<OsString>, Vec<usize>) {
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    let mut args = Vec::new();
    let mut lines = Vec::new();
    for (i, line) in text.split(|&b| b == b'\n').enumerate() {
        let line = line.trim_ascii();
        if line.is_empty() || line.starts_with(b"#") {
            continue;
        }
        args.push(OsString::from_vec(line.to_vec()));
        lines.push(i + 1);
    }
    (args, lines)
}

/// A path as messages show it (escaped: one line, no escape sequences).
pub fn shown(path: &Path) -> String {
    crate::fs::escape::escaped(path.as_os_str().as_bytes())
}

impl ConfigFile {
    /// "config file PATH, line N" for the argument at `index`.
    pub fn at(&self, index: usize) -> String {
        let line = self.lines.get(index).or(self.lines.last()).copied();
        match line {
            Some(line) => format!("config file {}, line {line}", shown(&self.path)),
            None => format!("config file {}", shown(&self.path)),
        }
    }

    /// The arguments as one line for messages, shell-quoted where needed, and escaped.
    pub fn summary(&self) -> String {
        self.args
            .iter()
            .map(|a| crate::fs::escape::escaped(shell_quote(a).as_bytes()))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Refuses a config file that holds an argument clap does not take, a pattern or a path, `--`,
/// or a command (`-x`, `-X` would swallow the command line): the message names its line.
/// `program` is the command line's first word, for clap.
pub fn check(file: &ConfigFile, program: &OsString) -> Result<(), String> {
    let refuse = |index: usize, why: String| Err(format!("{}: {why}", file.at(index)));
    if let Some(i) = file.args.iter().position(|a| a == "--") {
        return refuse(i, "'--' has no place in a config file".into());
    }
    let parse = |k: usize, lenient: bool| {
        Cli::command().ignore_errors(lenient).try_get_matches_from(
            std::iter::once(program.clone()).chain(file.args[..k].iter().cloned()),
        )
    };
    // A `requires` that the command line may still meet (--json-fields wants --json) is no
    // fault of the file's: what the first `k` lines hold is then what clap makes of them
    // without the check.
    let transient = |e: &clap::Error| e.kind() == clap::error::ErrorKind::MissingRequiredArgument;
    let prefix = |k: usize| match parse(k, false) {
        Err(e) if transient(&e) => parse(k, true),
        parsed => parsed,
    };
    let n = file.args.len();
    match prefix(n) {
        Err(e) => {
            // The argument after the longest run of lines that parses (an option may take its
            // value from the next line: `-j` then `64`).
            let mut at = (0..n).rev().find(|&k| prefix(k).is_ok()).unwrap_or(0);
            // A value clap refuses is blamed on its own line when it has one (`--color`, then
            // `sometimes`).
            if let Some(ContextValue::String(value)) = e.get(ContextKind::InvalidValue) {
                if file
                    .args
                    .get(at + 1)
                    .is_some_and(|a| a.as_bytes() == value.as_bytes())
                {
                    at += 1;
                }
            }
            refuse(at, clap_reason(&e))
        }
        Ok(m) => {
            // A first positional argument is the pattern, so a path never comes alone.
            for (id, what) in [
                ("pattern", "a pattern or a path"),
                ("exec", "-x/--exec"),
                ("exec_batch", "-X/--exec-batch"),
            ] {
                if m.value_source(id) == Some(ValueSource::CommandLine) {
                    // The first line that brings it in (clap's indices count attached values
                    // apart, so they are no positions in the file).
                    let has = |k: usize| {
                        prefix(k)
                            .is_ok_and(|m| m.value_source(id) == Some(ValueSource::CommandLine))
                    };
                    let mut at = (1..=n).find(|&k| has(k)).unwrap_or(n) - 1;
                    if id.starts_with("exec") {
                        // A command's word: blame the -x that took it.
                        while at > 0 && !file.args[at].as_bytes().starts_with(b"-") {
                            at -= 1;
                        }
                    }
                    return refuse(
                        at,
                        format!("{what} has no place in a config file (only options do)"),
                    );
                }
            }
            Ok(())
        }
    }
}

/// The first line of a clap error, without its "error: ".
fn clap_reason(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let first = text.lines().next().unwrap_or("");
    first.strip_prefix("error: ").unwrap_or(first).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[OsString]) -> Vec<&str> {
        args.iter().map(|a| a.to_str().unwrap()).collect()
    }

    #[test]
    fn one_argument_per_line_without_comments_or_blank_lines() {
        let text = b"\xEF\xBB\xBF# defaults\n-H\n\n  --exclude .git  \r\n#--no-ignore\n\t--method=queue\n-j\n64";
        let (args, lines) = split_lines(text);
        assert_eq!(
            strings(&args),
            ["-H", "--exclude .git", "--method=queue", "-j", "64"]
        );
        assert_eq!(lines, [2, 4, 6, 7, 8]);
    }

    #[test]
    fn bytes_that_are_not_utf8_are_kept() {
        let (args, _) = split_lines(b"--and=caf\xe9\n");
        assert_eq!(args[0].as_bytes(), b"--and=caf\xe9");
    }

    #[test]
    fn the_variable_wins_and_empty_means_none() {
        let home = tempfile::tempdir().unwrap();
        let dflt = home.path().join("ffind/config");
        assert_eq!(locate_in(None, Some(home.path().to_path_buf())), None);
        std::fs::create_dir_all(dflt.parent().unwrap()).unwrap();
        std::fs::write(&dflt, "-H\n").unwrap();
        assert_eq!(
            locate_in(None, Some(home.path().to_path_buf())),
            Some(dflt.clone())
        );
        assert_eq!(
            locate_in(Some("/x/y".into()), Some(home.path().to_path_buf())),
            Some(PathBuf::from("/x/y"))
        );
        assert_eq!(
            locate_in(Some("".into()), Some(home.path().to_path_buf())),
            None
        );
    }

    #[test]
    fn messages_name_the_line() {
        let cf = ConfigFile {
            path: PathBuf::from("/h/.config/ffind/config"),
            args: vec!["-H".into(), "it's here".into()],
            lines: vec![3, 7],
        };
        assert_eq!(cf.at(1), "config file /h/.config/ffind/config, line 7");
        assert_eq!(cf.summary(), r"-H 'it'\''s here'");
    }
}
