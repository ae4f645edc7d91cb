//! Splits `ffind --bench`'s command line in three: bench's own options, the search options passed
//! through to every run, and the PATHs.
//!
//! clap cannot parse two option sets interleaved, and the pass-through options must reach the
//! runs as typed, so that every filter ffind has (or gains later) works under `--bench` without a
//! change here. So each token is looked up in the two clap definitions, bench's first (there
//! `--concurrency`, `-j` and `--method` take lists), to learn whose it is and whether it takes a
//! value. Parsing and validating stay clap's job.

use std::ffi::OsString;

use clap::{Arg, Command};

/// The three parts of the command line, each in the order given.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Split {
    /// Bench's own options and their values.
    pub bench: Vec<OsString>,
    /// Options for every run (filters), as typed.
    pub search: Vec<OsString>,
    /// The positional arguments: the directories to search.
    pub paths: Vec<OsString>,
}

/// How an option takes a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Takes {
    Nothing,
    /// `--opt VALUE` or `--opt=VALUE`.
    Value,
    /// `--opt`, `--opt=VALUE`, or `--opt VALUE` when VALUE does not start with "-" (clap's rule).
    OptionalValue,
}

/// Whose an option is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Owner {
    Bench,
    Search,
}

/// Splits `args` (without the program name and `--bench`). Both commands must be built
/// (`Command::build`), so that every argument knows how many values it takes.
pub fn split(args: impl IntoIterator<Item = OsString>, bench: &Command, search: &Command) -> Split {
    let mut out = Split::default();
    let mut args = args.into_iter().peekable();
    while let Some(token) = args.next() {
        let Some(text) = token.to_str().filter(|t| t.starts_with('-') && *t != "-") else {
            out.paths.push(token);
            continue;
        };
        if text == "--" {
            out.paths.extend(args.by_ref());
            break;
        }
        let (owner, takes, inline_value) = if let Some(long) = text.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((name, _)) => (name, true),
                None => (long, false),
            };
            let (owner, takes) = lookup(bench, search, |a| has_long(a, name));
            out.list(owner).push(token.clone());
            (owner, takes, value)
        } else {
            let (owner, takes, rest) = split_shorts(text, bench, search, &mut out);
            (owner, takes, rest)
        };
        let wants_next = match takes {
            Takes::Nothing => false,
            Takes::Value => !inline_value,
            Takes::OptionalValue => {
                !inline_value
                    && args
                        .peek()
                        .is_some_and(|next| !next.to_string_lossy().starts_with('-'))
            }
        };
        if wants_next {
            if let Some(value) = args.next() {
                out.list(owner).push(value);
            }
        }
    }
    out
}

impl Split {
    fn list(&mut self, owner: Owner) -> &mut Vec<OsString> {
        match owner {
            Owner::Bench => &mut self.bench,
            Owner::Search => &mut self.search,
        }
    }
}

/// Handles a cluster of short options (`-HI`, `-e`, `-j4`, `-Hj4`). A cluster whose letters are
/// all the search's is passed on as typed; a mixed one is cut into one token per owner. Returns
/// the last option's owner, how it takes a value, and whether the value was in the cluster.
fn split_shorts(
    text: &str,
    bench: &Command,
    search: &Command,
    out: &mut Split,
) -> (Owner, Takes, bool) {
    let letters = &text[1..];
    let mut pieces: Vec<(Owner, String)> = Vec::new();
    let mut last = (Owner::Search, Takes::Nothing, false);
    for (i, c) in letters.char_indices() {
        let (owner, takes) = lookup(bench, search, |a| has_short(a, c));
        match pieces.last_mut() {
            Some((o, piece)) if *o == owner => piece.push(c),
            _ => pieces.push((owner, format!("-{c}"))),
        }
        if takes != Takes::Nothing {
            // The rest of the cluster, if any, is this option's value (`-j4`, `-e=rs`).
            let rest = &letters[i + c.len_utf8()..];
            pieces.last_mut().expect("just pushed").1.push_str(rest);
            last = (owner, takes, !rest.is_empty());
            break;
        }
        last = (owner, takes, false);
    }
    if pieces.iter().all(|(o, _)| *o == Owner::Search) {
        out.search.push(text.into());
    } else {
        for (owner, piece) in pieces {
            out.list(owner).push(piece.into());
        }
    }
    last
}

/// Finds the option in bench's definition, then the search's. An unknown option goes to the
/// search, whose parser reports it.
fn lookup(bench: &Command, search: &Command, matches: impl Fn(&Arg) -> bool) -> (Owner, Takes) {
    for (owner, cmd) in [(Owner::Bench, bench), (Owner::Search, search)] {
        if let Some(arg) = cmd
            .get_arguments()
            .find(|a| !a.is_positional() && matches(a))
        {
            return (owner, takes(arg));
        }
    }
    (Owner::Search, Takes::Nothing)
}

fn takes(arg: &Arg) -> Takes {
    let range = arg.get_num_args().unwrap_or_default();
    if !range.takes_values() {
        Takes::Nothing
    } else if range.min_values() == 0 {
        Takes::OptionalValue
    } else {
        Takes::Value
    }
}

fn has_long(arg: &Arg, name: &str) -> bool {
    arg.get_long() == Some(name)
        || arg
            .get_all_aliases()
            .is_some_and(|aliases| aliases.contains(&name))
}

fn has_short(arg: &Arg, c: char) -> bool {
    arg.get_short() == Some(c)
        || arg
            .get_all_short_aliases()
            .is_some_and(|aliases| aliases.contains(&c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::args::BenchArgs;
    use crate::cli::Cli;
    use clap::CommandFactory;

    fn run(args: &[&str]) -> (Vec<String>, Vec<String>, Vec<String>) {
        let mut bench = BenchArgs::command();
        bench.build();
        let mut search = Cli::command();
        search.build();
        let s = split(args.iter().map(OsString::from), &bench, &search);
        let text = |v: Vec<OsString>| v.into_iter().map(|s| s.into_string().unwrap()).collect();
        (text(s.bench), text(s.search), text(s.paths))
    }

    #[test]
    fn filters_with_values_are_not_paths() {
        let (bench, search, paths) = run(&["-e", "rs", "-H", "~/src", "--type=f", "-t", "d"]);
        assert!(bench.is_empty());
        assert_eq!(search, ["-e", "rs", "-H", "--type=f", "-t", "d"]);
        assert_eq!(paths, ["~/src"]);
    }

    #[test]
    fn bench_options_win_over_the_search_ones() {
        let (bench, search, paths) = run(&[
            "--methods",
            "queue",
            "-j",
            "1,2",
            "--method=serial",
            "--threads",
            "4",
            "/x",
            "--runs",
            "3",
        ]);
        assert_eq!(
            bench,
            [
                "--methods",
                "queue",
                "-j",
                "1,2",
                "--method=serial",
                "--threads",
                "4",
                "--runs",
                "3"
            ]
        );
        assert!(search.is_empty());
        assert_eq!(paths, ["/x"]);
    }

    #[test]
    fn values_that_look_like_options_stay_values() {
        let (_, search, paths) = run(&["-S", "-10k", "--exclude", "-x", "dir"]);
        assert_eq!(search, ["-S", "-10k", "--exclude", "-x"]);
        assert_eq!(paths, ["dir"]);
    }

    #[test]
    fn short_clusters_are_cut_between_owners_only() {
        let (bench, search, paths) = run(&["-HI", "-Hj4", "-ers", "a"]);
        assert_eq!(search, ["-HI", "-H", "-ers"]);
        assert_eq!(bench, ["-j4"]);
        assert_eq!(paths, ["a"]);
    }

    #[test]
    fn optional_values_take_the_next_word_only_when_it_is_not_an_option() {
        let (_, search, paths) = run(&["--strip-cwd-prefix", "-H", "p"]);
        assert_eq!(search, ["--strip-cwd-prefix", "-H"]);
        assert_eq!(paths, ["p"]);
        let (_, search, _) = run(&["--strip-cwd-prefix", "never"]);
        assert_eq!(search, ["--strip-cwd-prefix", "never"]);
    }

    #[test]
    fn everything_after_double_dash_is_a_path() {
        let (_, search, paths) = run(&["-u", "--", "-odd", "--runs"]);
        assert_eq!(search, ["-u"]);
        assert_eq!(paths, ["-odd", "--runs"]);
    }

    #[test]
    fn unknown_options_go_to_the_search_parser() {
        let (bench, search, _) = run(&["--frobnicate"]);
        assert!(bench.is_empty());
        assert_eq!(search, ["--frobnicate"]);
    }
}
