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

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::PathBuf;

use clap::error::{ContextKind, ContextValue};
use clap::parser::ValueSource;
use clap::{Arg, Command, CommandFactory};

use super::args::Cli;
use crate::fs::escape::{escaped, escaped_path, shell_quote};
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
/// The null device (`FFIND_CONFIG_PATH=/dev/null`, as `GIT_CONFIG_GLOBAL=/dev/null` for git)
/// is an empty file: no config.
pub fn read(path: PathBuf) -> Result<ConfigFile, String> {
    if crate::fs::is_null_device(&path) {
        let (args, lines) = (Vec::new(), Vec::new());
        return Ok(ConfigFile { path, args, lines });
    }
    let bytes = read_small_file(
        path.as_os_str().as_encoded_bytes(),
        CONFIG_FILE_LIMIT,
        false,
    )
    .map_err(|e| format!("config file {}: {}", escaped_path(&path), describe(&e)))?;
    if crate::fs::text::is_utf16(&bytes) {
        use crate::fs::text::{SAVE_AS_UTF8, UTF16};
        return Err(format!(
            "config file {}: {UTF16}: {SAVE_AS_UTF8}",
            escaped_path(&path)
        ));
    }
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
        args.push(crate::fs::os_string(line.to_vec()));
        lines.push(i + 1);
    }
    (args, lines)
}

impl ConfigFile {
    /// "config file PATH, line N" for the argument at `index`.
    pub fn at(&self, index: usize) -> String {
        let line = self.lines.get(index).or(self.lines.last()).copied();
        match line {
            Some(line) => format!("config file {}, line {line}", escaped_path(&self.path)),
            None => format!("config file {}", escaped_path(&self.path)),
        }
    }

    /// Where a message about a value should point (`'nosuchuser' is not a valid owner`, said
    /// once the whole command line is resolved, when the file is to blame): "config file
    /// PATH, line N" for the last line that gives a value the message quotes; `None` when
    /// no line does.
    pub fn blame_value(&self, message: &str) -> Option<String> {
        let quoted = |value: &[u8]| {
            std::str::from_utf8(value).is_ok_and(|v| message.contains(&format!("'{v}'")))
        };
        let mut cmd = Cli::command();
        cmd.build();
        let reading = Reading::of(&cmd, &self.args).ok()?;
        let line = (0..self.args.len()).rev().find(|&i| {
            reading
                .value(i, self.args[i].as_encoded_bytes())
                .is_some_and(quoted)
        })?;
        Some(self.at(line))
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
/// a command (`-x`, `-X` would swallow the command line), an option that names where to search
/// (`--search-path`, `-C`) or an action of the command line (`--help`, `--version`,
/// `--gen-man`, `--gen-completions`, `--bench`, `--cache-list`, `--cache-clear`,
/// `--cache-check`): the message names its line, with a hint where one helps.
/// `program` is the command line's first word, for clap.
///
/// Linear in the file: its lines are read once the way clap reads them ([`Reading`]), to know
/// what each is and which line to blame; clap parses the whole file once, for its verdict.
/// [`check_lines`] is the first half alone.
pub fn check(file: &ConfigFile, program: &OsString) -> Result<(), String> {
    let refuse = |index: usize, why: String| format!("{}: {why}", file.at(index));
    let mut cmd = Cli::command();
    cmd.build();
    let reading = Reading::of(&cmd, &file.args).map_err(|(i, why)| refuse(i, why))?;
    if !reading.complete {
        let why = "an option at the end of the file has no value (it would take the command \
                   line's first argument)";
        return Err(refuse(file.args.len().saturating_sub(1), why.into()));
    }
    let parse = |lenient: bool| {
        Cli::command()
            .ignore_errors(lenient)
            .try_get_matches_from(std::iter::once(program.clone()).chain(file.args.iter().cloned()))
    };
    // A `requires` that the command line may still meet (--json-fields wants --json) is no
    // fault of the file's.
    let parsed = match parse(false) {
        Err(e) if e.kind() == clap::error::ErrorKind::MissingRequiredArgument => parse(true),
        parsed => parsed,
    };
    match parsed {
        Err(e) => {
            let at = reading.blame(&e, &file.args);
            let hint = file
                .args
                .get(at)
                .and_then(|line| reading.hint(line.as_encoded_bytes()))
                .or_else(|| similar(&e));
            let why = clap_reason(&e);
            Err(refuse(
                at,
                hint.map_or(why.clone(), |hint| format!("{why} ({hint})")),
            ))
        }
        // Every positional argument was refused above; clap agreeing is what makes it so.
        Ok(m) => match ["pattern", "paths"]
            .iter()
            .any(|id| m.value_source(id) == Some(ValueSource::CommandLine))
        {
            true => Err(refuse(
                file.args.len().saturating_sub(1),
                nothing_but_options(),
            )),
            false => Ok(()),
        },
    }
}

/// What [`check`] refuses without asking clap: every line is read as clap would read it, and
/// a line that is no option, or an option refused there, is named. Once the command line
/// with the file's options before it parses, the file needs no more than this: clap has
/// taken each of its lines as an option or an option's value.
///
/// Gives the arguments for clap: the file's, with a run of one flag repeated on consecutive
/// lines given once (`-H` a thousand times is `-H`: flags override themselves), so that even
/// a file of 349,000 `-H` lines at the size limit parses in well under a second.
pub fn check_lines(file: &ConfigFile) -> Result<Vec<OsString>, String> {
    let mut cmd = Cli::command();
    cmd.build();
    let refuse = |index: usize, why: String| format!("{}: {why}", file.at(index));
    let reading = Reading::of(&cmd, &file.args).map_err(|(i, why)| refuse(i, why))?;
    if !reading.complete {
        // Said by `check`, which knows the words.
        return Err(String::new());
    }
    let flag = |line: &[u8]| {
        let (named, next) = reading.options(line);
        !next
            && !line.contains(&b'=')
            && !named.is_empty()
            && named.iter().all(|a| {
                matches!(
                    a.get_action(),
                    clap::ArgAction::SetTrue | clap::ArgAction::SetFalse
                )
            })
    };
    let mut args: Vec<OsString> = Vec::with_capacity(file.args.len());
    for (i, arg) in file.args.iter().enumerate() {
        let repeated =
            i > 0 && file.args[i - 1] == *arg && reading.roles[i - 1] == reading.roles[i];
        if !(repeated && flag(arg.as_encoded_bytes())) {
            args.push(arg.clone());
        }
    }
    Ok(args)
}

/// Why a pattern or a path is refused.
fn nothing_but_options() -> String {
    "a pattern or a path has no place in a config file (only options do)".into()
}

/// The options the config file cannot hold (by clap id), as messages name them, and why.
const REFUSED: [(&str, &str, &str); 12] = [
    ("exec", "-x/--exec", "only options do"),
    ("exec_batch", "-X/--exec-batch", "only options do"),
    (
        "search_path",
        "--search-path",
        "it names what to search: give paths on the command line",
    ),
    (
        "base_directory",
        "-C/--base-directory",
        "it says where to search: give it on the command line",
    ),
    (
        "help",
        "-h/--help",
        "it is an action of the command line, not an option",
    ),
    (
        "version",
        "-V/--version",
        "it is an action of the command line, not an option",
    ),
    (
        "gen_man",
        "--gen-man",
        "it is an action of the command line, not an option",
    ),
    (
        "bench",
        "--bench",
        "it is an action of the command line, not an option",
    ),
    (
        "gen_completions",
        "--gen-completions",
        "it is an action of the command line, not an option",
    ),
    (
        "cache_list",
        "--cache-list",
        "it is an action of the command line, not an option",
    ),
    (
        "cache_clear",
        "--cache-clear",
        "it is an action of the command line, not an option",
    ),
    (
        "cache_check",
        "--cache-check",
        "it is an action of the command line, not an option",
    ),
];

/// What each line of a config file is, read the way clap reads a command line: an option, the
/// value of the option before it, or an argument clap will not take.
struct Reading<'c> {
    /// The options by long name (and alias) and by short name.
    longs: HashMap<&'c str, &'c Arg>,
    shorts: HashMap<char, &'c Arg>,
    /// For each line, the option it names or gives a value to (`None`: clap will not take it).
    roles: Vec<Option<&'c Arg>>,
    /// For each line, whether it is the value of the option on the line before.
    values: Vec<bool>,
    /// False when the last line is an option that takes the next line as its value.
    complete: bool,
}

impl<'c> Reading<'c> {
    /// Reads `args` (a built command's), or gives the line to refuse and why: `--`, a pattern
    /// or a path, an option of [`REFUSED`].
    fn of(cmd: &'c Command, args: &[OsString]) -> Result<Reading<'c>, (usize, String)> {
        let mut longs = HashMap::new();
        let mut shorts = HashMap::new();
        for arg in cmd.get_arguments().filter(|a| !a.is_positional()) {
            for long in arg
                .get_long()
                .into_iter()
                .chain(arg.get_all_aliases().unwrap_or_default())
            {
                longs.insert(long, arg);
            }
            for short in arg
                .get_short()
                .into_iter()
                .chain(arg.get_all_short_aliases().unwrap_or_default())
            {
                shorts.insert(short, arg);
            }
        }
        let mut reading = Reading {
            longs,
            shorts,
            roles: Vec::with_capacity(args.len()),
            values: Vec::with_capacity(args.len()),
            complete: true,
        };
        let refused = |i: usize, named: &[&Arg]| {
            named.iter().find_map(|arg| {
                let id = arg.get_id().as_str();
                REFUSED
                    .iter()
                    .find(|(r, _, _)| *r == id)
                    .map(|(_, what, why)| {
                        (i, format!("{what} has no place in a config file ({why})"))
                    })
            })
        };
        let mut i = 0;
        while i < args.len() {
            let line = args[i].as_encoded_bytes();
            if line == b"--" {
                return Err((i, "'--' has no place in a config file".into()));
            }
            let (named, takes_next) = reading.options(line);
            // `--search-path /etc` on one line is refused for what it names, before clap
            // says that it does not take the line as one argument.
            let head = line.split(u8::is_ascii_whitespace).next().unwrap_or(line);
            let named_by_head = reading.options(head).0;
            if let Some(refusal) = refused(i, &named).or_else(|| refused(i, &named_by_head)) {
                return Err(refusal);
            }
            if named.is_empty() && (!line.starts_with(b"-") || line == b"-") {
                return Err((i, nothing_but_options()));
            }
            if let Some(why) = reading.value_on_the_line(line) {
                return Err((i, why));
            }
            let role = named.last().copied();
            reading.roles.push(role);
            reading.values.push(false);
            if takes_next && i + 1 < args.len() {
                reading.roles.push(role);
                reading.values.push(true);
                i += 1;
            } else if takes_next {
                reading.complete = false;
            }
            i += 1;
        }
        Ok(reading)
    }

    /// The options a line names (a cluster of short ones names several), if clap takes them
    /// all, and whether the last one's value is the next line.
    fn options(&self, line: &[u8]) -> (Vec<&'c Arg>, bool) {
        if let Some(long) = line.strip_prefix(b"--") {
            let (name, attached) = match long.iter().position(|&b| b == b'=') {
                Some(eq) => (&long[..eq], true),
                None => (long, false),
            };
            let arg = std::str::from_utf8(name)
                .ok()
                .and_then(|n| self.longs.get(n))
                .copied();
            let next = arg.is_some_and(|a| !attached && takes_next(a));
            return (arg.into_iter().collect(), next);
        }
        let Some(cluster) = line.strip_prefix(b"-").filter(|c| !c.is_empty()) else {
            return (Vec::new(), false);
        };
        let mut named = Vec::new();
        for (k, &b) in cluster.iter().enumerate() {
            match self.shorts.get(&char::from(b)).filter(|_| b.is_ascii()) {
                None => return (Vec::new(), false),
                Some(arg) => {
                    named.push(*arg);
                    if takes_value(arg) {
                        // The rest of the line is its value, or the next line is.
                        return (named, k + 1 == cluster.len() && takes_next(arg));
                    }
                }
            }
        }
        (named, false)
    }

    /// The value a line gives an option: all of it when it is the value of the line before,
    /// else what follows `=` (`--owner=x`) or the short option that takes it (`-Hox`).
    fn value<'l>(&self, i: usize, line: &'l [u8]) -> Option<&'l [u8]> {
        if self.values[i] {
            return Some(line);
        }
        if let Some(long) = line.strip_prefix(b"--") {
            let eq = long.iter().position(|&b| b == b'=')?;
            return Some(&long[eq + 1..]);
        }
        let cluster = line.strip_prefix(b"-")?;
        let k = cluster.iter().position(|&b| {
            b.is_ascii()
                && self
                    .shorts
                    .get(&char::from(b))
                    .is_some_and(|a| takes_value(a))
        })?;
        Some(&cluster[k + 1..])
    }

    /// Why a line that holds an option and, after a space, its value (`-E src`, `--exclude
    /// .git`, `-S +1k`) is refused: clap would take `" src"` as `-E`'s value and exclude
    /// nothing, or refuse `--exclude .git` as an unknown option. Every option that takes the
    /// next argument as its value, short or long, as clap defines it; `None` for other lines.
    fn value_on_the_line(&self, line: &[u8]) -> Option<String> {
        let space = line.iter().position(u8::is_ascii_whitespace)?;
        let (named, takes_next) = self.options(&line[..space]);
        if named.is_empty() || !takes_next {
            return None;
        }
        let what = match line[space..].trim_ascii_start().starts_with(b"#") {
            true => "an option and a comment",
            false => "an option and its value",
        };
        let hint = self.hint(line)?;
        Some(format!(
            "'{}' is {what} on one line ({hint})",
            escaped(line)
        ))
    }

    /// The line a clap error is about: the argument clap did not take, the line that holds
    /// the value it refused, or the option it names; else the last line.
    fn blame(&self, e: &clap::Error, args: &[OsString]) -> usize {
        let text = |kind| match e.get(kind) {
            Some(ContextValue::String(s)) => Some(s.as_str()),
            _ => None,
        };
        let found = if e.kind() == clap::error::ErrorKind::UnknownArgument {
            self.roles.iter().position(Option::is_none)
        } else if let Some(value) = text(ContextKind::InvalidValue).filter(|v| !v.is_empty()) {
            // Its own line (`--color`, then `sometimes`), or attached (`--color=sometimes`).
            let own = |i: usize| args[i].as_encoded_bytes() == value.as_bytes();
            let attached = |i: usize| {
                self.roles[i].is_some() && args[i].as_encoded_bytes().ends_with(value.as_bytes())
            };
            (0..self.roles.len())
                .find(|&i| own(i) && i > 0 && self.roles[i - 1] == self.roles[i])
                .or_else(|| (0..self.roles.len()).find(|&i| attached(i)))
        } else {
            None
        };
        let named = || {
            // clap names an option as "--max-depth <DEPTH>" or "-1".
            let name = text(ContextKind::InvalidArg)?.split(' ').next()?;
            self.roles.iter().position(|r| {
                r.is_some_and(|a| {
                    a.get_long()
                        .is_some_and(|l| name.strip_prefix("--") == Some(l))
                        || a.get_short().is_some_and(|s| name == format!("-{s}"))
                })
            })
        };
        found.or_else(named).unwrap_or(args.len().saturating_sub(1))
    }

    /// What to write instead of a line clap refused, when the line looks like a command line's
    /// words: an option and its value, or an option and a comment, on one line.
    fn hint(&self, line: &[u8]) -> Option<String> {
        let space = line.iter().position(u8::is_ascii_whitespace)?;
        let (head, rest) = (&line[..space], line[space..].trim_ascii());
        let (named, _) = self.options(head);
        let arg = *named.last()?;
        let head = escaped(head);
        if rest.starts_with(b"#") {
            return Some(format!(
                "a comment goes on a line of its own: '{head}' alone, and '#' at the start of \
                 the next line"
            ));
        }
        let rest = escaped(rest);
        if !takes_value(arg) {
            return Some(format!(
                "one argument per line: '{head}', and '{rest}' on the next line"
            ));
        }
        let joined = match head.starts_with("--") {
            true => format!("{head}={rest}"),
            false => format!("{head}{rest}"),
        };
        Some(format!(
            "one argument per line, without quotes: write '{joined}', or '{head}' and '{rest}' \
             on the next line"
        ))
    }
}

/// Whether an option takes a value.
fn takes_value(arg: &Arg) -> bool {
    arg.get_action().takes_values()
}

/// Whether an option given without `=` takes the next argument as its value (`--color` takes
/// `always`; `--hyperlink` needs `--hyperlink=always`).
fn takes_next(arg: &Arg) -> bool {
    takes_value(arg)
        && !arg.is_require_equals_set()
        && arg.get_num_args().is_none_or(|n| n.min_values() > 0)
}

/// The first line of a clap error, without its "error: ".
fn clap_reason(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let first = text.lines().next().unwrap_or("");
    first.strip_prefix("error: ").unwrap_or(first).to_owned()
}

/// clap's tip of a similar argument (`--hiden`: `--hidden`), as the command line gets it.
fn similar(e: &clap::Error) -> Option<String> {
    match e.get(ContextKind::SuggestedArg) {
        Some(ContextValue::String(similar)) => {
            Some(format!("a similar argument exists: '{similar}'"))
        }
        _ => None,
    }
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

    // A line's bytes become the argument the system makes of them: the same bytes on Unix,
    // where arguments are bytes; U+FFFD for what is not UTF-8 on Windows (fs::os_string).
    #[test]
    fn bytes_that_are_not_utf8_are_kept() {
        let (args, _) = split_lines(b"--and=caf\xe9\n");
        assert_eq!(args[0], crate::fs::os_string(b"--and=caf\xe9".to_vec()));
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
    fn a_run_of_one_flag_is_given_to_clap_once() {
        let file = |text: &[u8]| {
            let (args, lines) = split_lines(text);
            let path = PathBuf::from("config");
            ConfigFile { path, args, lines }
        };
        let given = |text: &[u8]| check_lines(&file(text)).unwrap();
        assert_eq!(strings(&given(b"-H\n-H\n-H\n-I\n-H\n")), ["-H", "-I", "-H"]);
        // Counted flags, values and a flag given as a value stay as they are.
        assert_eq!(strings(&given(b"-u\n-u\n")), ["-u", "-u"]);
        assert_eq!(strings(&given(b"-E\n-H\n-H\n")), ["-E", "-H", "-H"]);
        assert_eq!(
            strings(&given(b"--and=x\n--and=x\n")),
            ["--and=x", "--and=x"]
        );
        assert_eq!(strings(&given(b"-Hu\n-Hu\n")), ["-Hu", "-Hu"]);
    }

    #[test]
    fn messages_name_the_line() {
        let cf = ConfigFile {
            path: PathBuf::from("/h/.config/ffind/config"),
            args: vec!["-H".into(), "it's here".into()],
            lines: vec![3, 7],
        };
        assert_eq!(cf.at(1), "config file /h/.config/ffind/config, line 7");
        // Quoted for the system's shell (fs::escape tests the quoting).
        let quoted = shell_quote(std::ffi::OsStr::new("it's here"));
        assert_ne!(quoted, "it's here");
        assert_eq!(cf.summary(), format!("-H {quoted}"));
    }
}
