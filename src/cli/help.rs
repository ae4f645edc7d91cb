//! The help texts that name what differs between systems (places, what hides an entry, the
//! separator, what the system refuses), made from the ground floor's words
//! ([`crate::fs::help`]), so that `--help`, `-h`, the manual and the completions say what the
//! system running them does. The other options' help is `args.rs`'s doc comments.

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Arg, Command};

use crate::fs::help::{self as words, var};
use crate::walk::methods::{names_where, Capability};

/// A text of the help in the system's own words: each phrase of [`words::PHRASES`] (written
/// for Unix in the doc comments) replaced by the system's (none on Unix).
fn spoken(text: &str) -> String {
    words::PHRASES
        .iter()
        .fold(text.to_owned(), |text, (unix, here)| {
            text.replace(unix, here)
        })
}

/// An argument's help in the system's own words ([`spoken`]), and, where the memo is off, each
/// of the memo's options saying so (`mut_args` of the search's and the benchmark's commands).
pub fn in_system_words(mut arg: Arg) -> Arg {
    let memo_off = words::NO_MEMO.filter(|_| arg.get_id().as_str().starts_with("cache_"));
    if words::PHRASES.is_empty() && memo_off.is_none() {
        return arg;
    }
    if let Some(help) = arg.get_help() {
        let mut help = spoken(&help.to_string());
        // After a clause, or after a sentence's full stop.
        if let Some((after_short, paragraph)) = memo_off {
            match help.ends_with('.') || help.ends_with(".)") {
                true => help.extend([" ", paragraph]),
                false => help.push_str(after_short),
            }
        }
        arg = arg.help(help);
    }
    if let Some(long) = arg.get_long_help() {
        let mut long = spoken(&long.to_string());
        if let Some((_, paragraph)) = memo_off {
            long.push_str("\n\n");
            long.push_str(paragraph);
        }
        arg = arg.long_help(long);
    }
    arg
}

/// A command's description and closing text, and its arguments' help, in the system's own
/// words (the benchmark's command: its text is not made here).
pub fn command_in_system_words(mut cmd: Command) -> Command {
    if words::PHRASES.is_empty() {
        return cmd;
    }
    if let Some(about) = cmd.get_about().map(|t| spoken(&t.to_string())) {
        cmd = cmd.about(about);
    }
    if let Some(long) = cmd.get_long_about().map(|t| spoken(&t.to_string())) {
        cmd = cmd.long_about(long);
    }
    if let Some(after) = cmd.get_after_help().map(|t| spoken(&t.to_string())) {
        cmd = cmd.after_help(after);
    }
    if let Some(after) = cmd.get_after_long_help().map(|t| spoken(&t.to_string())) {
        cmd = cmd.after_long_help(after);
    }
    cmd.mut_args(in_system_words)
}

/// --json-fields' values: `owner` is not offered where files have no owners (it stays
/// accepted, for its message).
pub fn json_fields() -> PossibleValuesParser {
    let owner = PossibleValue::new("owner").hide(!crate::fs::HAS_OWNERS);
    PossibleValuesParser::new([
        PossibleValue::new("size"),
        PossibleValue::new("mtime"),
        PossibleValue::new("mode"),
        owner,
        PossibleValue::new("nlink"),
        PossibleValue::new("inode"),
    ])
}

/// Short help, and the long help's paragraphs, with what the system refuses of the option
/// (`refused`) added to each.
fn with_refusal(short: &str, paragraphs: &[&str], refused: Option<(&str, &str)>) -> [String; 2] {
    let mut long = paragraphs.join("\n\n");
    let mut short = short.to_owned();
    if let Some((after_short, paragraph)) = refused {
        short.push_str(after_short);
        long.push_str("\n\n");
        long.push_str(paragraph);
    }
    [short, long]
}

/// ffind's own description (`about`, and `long_about`).
pub fn long_about() -> String {
    format!(
        "A parallel file finder with fd's command line.\n\n\
         Lists the entries below each PATH whose file name matches PATTERN (a regular \
         expression, case-insensitive unless it contains an uppercase letter). Hidden entries, \
         and those that ignore files (.gitignore, .ignore, .fdignore, .ffindignore) name, are \
         skipped unless asked for.\n\n\
         Options you always want can go in a config file, one per line ('#' starts a comment): \
         {} names it, else {} is read when it exists. The command line comes after it and \
         wins; --no-config skips it.\n\n\
         `ffind --bench [OPTIONS] [PATH]...` times the traversal methods instead (see `ffind \
         --bench --help`).",
        var("FFIND_CONFIG_PATH"),
        words::CONFIG
    )
}

/// -H's long help.
pub fn hidden() -> String {
    format!(
        "Include hidden files and directories ({}).\n\n\
         Entries that ignore files hide stay hidden (see -I, -u); a \"!\" rule in an ignore \
         file shows a hidden entry even without -H{}. Overridden by --no-hidden.",
        words::HIDDEN,
        words::NOT_REVEALED
    )
}

/// --no-ignore-vcs's long help.
pub fn no_ignore_vcs() -> String {
    format!(
        "Show entries that git's ignore files would hide.\n\n\
         That is .gitignore, .git/info/exclude and the global git excludes (core.excludesFile, \
         by default {}); .ignore, .fdignore, .ffindignore and ffind's global ignore file still \
         apply. Overridden by --ignore-vcs.",
        words::GIT_EXCLUDES
    )
}

/// --no-global-ignore-file's help.
pub fn no_global_ignore_file() -> String {
    format!(
        "Do not read the global ignore file: {}, or fd's, {}, when ffind's does not exist",
        words::GLOBAL_IGNORE,
        words::FD_IGNORE
    )
}

/// --owner's short and long help.
pub fn owner() -> [String; 2] {
    with_refusal(
        "Owned by this user and/or group",
        &[
            "Only entries owned by this user and/or group: \"user\", \"user:group\", \":group\", \
             ids accepted; \"!\" negates a part (\"!root\", \":!wheel\").",
            "Examples: --owner john, --owner :students, --owner '!john:students', --owner 1000.",
        ],
        words::NO_OWNERS,
    )
}

/// --path-separator's help.
pub fn path_separator() -> String {
    format!(
        "Print this instead of \"{}\" between path components (and after directories)",
        words::SEPARATOR
    )
}

/// --mpi's short and long help.
pub fn mpi() -> [String; 2] {
    let first = "Spread the search over the processes of an MPI job, on as many nodes as it \
                 has: mpirun -n N ffind --mpi [OPTIONS] [PATTERN] [PATH]... (or srun)";
    with_refusal(
        first,
        &[
            &format!("{first}."),
            "Directories are shared out between the processes as they are found; process 0 \
             prints every result and error, and the output is what one process would print. \
             Every process needs this ffind and the search paths at the same place. Started \
             without an MPI launcher, ffind runs as one process. Needs ffind built with \
             `--features mpi`; -x, -X and --method other than auto or queue do not go with it. \
             See docs/SCALE.md.",
        ],
        words::NO_MPI,
    )
}

/// --cache's short and long help.
pub fn cache() -> [String; 2] {
    let methods = format!(
        "A repeated search of an unchanged tree then costs one stat per directory instead of \
         reading it, and prints exactly what a search without --cache prints: a directory \
         changed since, or within 3 seconds of being remembered, is read again, and ignore \
         files are always read. The memo is the user's own (--cache-dir), one file per tree, \
         which a search of a directory inside it also uses; file systems whose directory times \
         cannot be trusted (NFS, SMB, FUSE, 9P, FAT, proc) are searched without it, with a \
         warning. Only for --method auto, {}. See docs/CACHE.md.",
        names_where(Capability::OwnReader, true, "and")
    );
    with_refusal(
        "Remember directories; reread only those that changed",
        &[
            "Remember the directories read, and read again next time only those that changed \
             (a directory's stat tells: device, inode, mtime, ctime, size, mode).",
            &methods,
        ],
        words::NO_CACHE,
    )
}

/// --order's long help, which names the methods that walk depth first only.
pub fn order() -> String {
    format!(
        "The order results stream in: depth (the default: each directory's subtree as the \
         workers reach it, mostly depth first) or breadth (nearest first: every entry at one \
         depth below its search path before any deeper one).\n\n\
         With breadth the directories of one level are read in parallel and their output is \
         written before the next level is read, so that a file next to you comes before \
         thousands of deep ones (for fzf: FZF_DEFAULT_COMMAND='ffind --order breadth'), and \
         --max-results N gives N of the nearest. Memory grows with the directories waiting at \
         the next level, not with the results. With several search paths, depth counts below \
         each entry's own. The {} methods walk depth first only: breadth there is a usage \
         error. --sort decides the order itself (--order is then ignored).",
        names_where(Capability::Breadth, false, "and")
    )
}

/// -j's help, which names the methods that use at most 64 threads.
pub fn concurrency() -> String {
    format!(
        "How many directories are read at once (threads). Default: the number of CPUs, more on \
         network and FUSE file systems. Up to 4096; the {} methods use at most 64 (their \
         schedulers slow down with more)",
        names_where(Capability::Stealing, true, "and")
    )
}

/// --cache-dir's help.
pub fn cache_dir() -> String {
    format!(
        "Where --cache keeps its memo (default: {}",
        words::CACHE_DIR
    )
}

/// --no-config's long help (its first paragraph is the short one).
pub fn no_config() -> [String; 2] {
    let first = format!(
        "Do not read the config file of default options ({}, else {})",
        var("FFIND_CONFIG_PATH"),
        words::CONFIG_LISTED
    );
    let long = format!(
        "{first}.\n\n\
         That file holds one option per line (blank lines and lines starting with '#' \
         skipped), read before the command line's, so the command line wins: a config file's \
         -H is undone by --no-hidden."
    );
    [first, long]
}
