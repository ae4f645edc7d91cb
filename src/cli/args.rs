//! The command line, as clap sees it: the [`Cli`] struct, whose doc comments are the `--help`
//! text, the values of `--sort`, `--order` and `--method`, and clap's parse with `-u` folded in.
//!
//! Nothing here is interpreted: `config.rs` turns a parsed [`Cli`] into the one resolved
//! [`crate::config::Config`] the rest of the program reads.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::error::ErrorKind;
use clap::parser::ValueSource;
use clap::{ArgAction, ArgMatches, CommandFactory, FromArgMatches, Parser, ValueEnum, ValueHint};

use super::help;
use crate::walk::methods::{self, Method};

// ffind's description is cli/help.rs's (it names the config file's place).
#[derive(Debug, Parser)]
#[command(
    name = "ffind",
    version,
    about = "A parallel file finder with fd's command line",
    long_about = help::long_about(),
    max_term_width = 100,
    args_override_self = true,
    mut_args = help::in_system_words,
    after_long_help = "Exit status: 0 on success, 1 when a path could not be read (or, with -q, \
                  nothing matched), 2 on a usage error, 130 when interrupted."
)]
pub struct Cli {
    /// The search pattern: a regular expression matched against the file name (or the whole
    /// path with --full-path), unless --glob or --fixed-strings is given. Omitted or "", it
    /// matches everything.
    ///
    /// Smart case: the search ignores case unless the pattern spells an uppercase letter (see
    /// -s, -i). A pattern that starts with '-' goes after '--': ffind -- '-foo'.
    #[arg(
        help = "A regular expression for the file name (a glob with -g)",
        long_help
    )]
    #[arg(value_name = "PATTERN")]
    pub pattern: Option<String>,

    /// The directories to search (default: the current directory, whose entries are then
    /// printed without a "./" prefix).
    #[arg(
        help = "The directories to search (default: the current directory)",
        long_help
    )]
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Another pattern that every result must match too (repeatable).
    ///
    /// Written like PATTERN: a regular expression, or a glob or literal string with --glob or
    /// --fixed-strings; an uppercase letter in any pattern makes them all case-sensitive.
    #[arg(hide_short_help = true)]
    #[arg(long = "and", value_name = "PATTERN", action = ArgAction::Append)]
    pub and: Vec<String>,

    #[arg(help = "Search hidden entries too", long_help = help::hidden())]
    #[arg(short = 'H', long, overrides_with = "no_hidden")]
    pub hidden: bool,

    /// Skip hidden files and directories (the default; overrides --hidden).
    #[arg(long, hide = true, overrides_with = "hidden")]
    pub no_hidden: bool,

    /// Show entries that ignore files would hide.
    ///
    /// That is .gitignore, .git/info/exclude, the global git excludes, .ignore, .fdignore,
    /// .ffindignore and ffind's global ignore file; files given with --ignore-file still apply.
    /// Hidden entries stay hidden (see -H, -u). Overridden by --ignore.
    #[arg(help = "Show entries that ignore files hide", long_help)]
    #[arg(short = 'I', long, overrides_with = "ignore")]
    pub no_ignore: bool,

    /// Respect ignore files (the default; overrides --no-ignore).
    #[arg(long, hide = true, overrides_with = "no_ignore")]
    pub ignore: bool,

    #[arg(hide_short_help = true, long_help = help::no_ignore_vcs())]
    #[arg(help = "Show entries that git's ignore files would hide")]
    #[arg(long, overrides_with = "ignore_vcs")]
    pub no_ignore_vcs: bool,

    /// Respect git's ignore files (the default; overrides --no-ignore-vcs).
    #[arg(long, hide = true, overrides_with = "no_ignore_vcs")]
    pub ignore_vcs: bool,

    /// Do not apply the ignore files of the directories above a search path.
    ///
    /// Those in the search path and below it still apply, and a search path inside a git
    /// repository is still treated as inside it. Overridden by --ignore-parent.
    #[arg(hide_short_help = true)]
    #[arg(long, overrides_with = "ignore_parent")]
    pub no_ignore_parent: bool,

    /// Apply the ignore files above a search path (the default; overrides --no-ignore-parent).
    #[arg(long, hide = true, overrides_with = "no_ignore_parent")]
    pub ignore_parent: bool,

    #[arg(hide_short_help = true, help = help::no_global_ignore_file())]
    #[arg(long)]
    pub no_global_ignore_file: bool,

    /// Apply git's ignore files even outside a git repository.
    ///
    /// By default .gitignore files, .git/info/exclude and the global git excludes apply only
    /// inside a git repository. Either way a nested repository is not subject to the rules of
    /// the one around it. Overridden by --require-git.
    #[arg(hide_short_help = true)]
    #[arg(long, overrides_with = "require_git")]
    pub no_require_git: bool,

    /// Apply .gitignore files only inside a git work tree (the default).
    #[arg(long, hide = true, overrides_with = "no_require_git")]
    pub require_git: bool,

    /// Add an ignore file in .gitignore format (repeatable).
    ///
    /// Its patterns are relative to each search path, not to the current directory (as fd
    /// reads them): a rule src/exec hides ./src/exec under `ffind --ignore-file FILE`, and
    /// nothing under `ffind --ignore-file FILE . src` (it names src/src/exec there). It has
    /// the lowest precedence: any other ignore file overrides it, and of two --ignore-file
    /// the later wins. It applies even with -I and -u.
    #[arg(hide_short_help = true)]
    #[arg(long, value_name = "FILE", action = ArgAction::Append)]
    pub ignore_file: Vec<PathBuf>,

    /// Unrestricted: search hidden and ignored entries too (an alias for -HI; may be repeated,
    /// as -uu, for fd compatibility).
    ///
    /// Files given with --ignore-file still apply. Like -H and -I it holds until the opposite
    /// flag: -u --no-hidden skips hidden entries (ignored ones stay shown), --no-hidden -u
    /// shows them.
    #[arg(help = "Search hidden and ignored entries too", long_help)]
    #[arg(short = 'u', long = "unrestricted", action = ArgAction::Count)]
    pub unrestricted: u8,

    /// Match case-sensitively.
    ///
    /// By default the search ignores case unless a pattern spells an uppercase letter: a
    /// literal ("Foo", "\x46") or a class ("[A-Z]", "[[:upper:]]", "\p{Lu}"), but not an escape
    /// such as "\S" or "\W" (smart case). Overrides -i given before it.
    // The text is --help's, verbatim: "[[:upper:]]" is a regex class, not a rustdoc link.
    #[allow(rustdoc::broken_intra_doc_links)]
    #[arg(help = "Match case-sensitively", long_help)]
    #[arg(short = 's', long, overrides_with = "ignore_case")]
    pub case_sensitive: bool,

    /// Match case-insensitively, even when a pattern holds an uppercase letter.
    ///
    /// Overrides -s given before it.
    #[arg(help = "Match case-insensitively", long_help)]
    #[arg(short = 'i', long, overrides_with = "case_sensitive")]
    pub ignore_case: bool,

    /// Treat the pattern as a glob ("*.rs") rather than a regular expression.
    ///
    /// The glob must match the whole file name; with --full-path, the whole absolute path,
    /// where "*" stops at "/" and "**" does not ("**/src/*.rs").
    #[arg(help = "Treat the pattern as a glob (\"*.rs\")", long_help)]
    #[arg(
        short = 'g',
        long,
        conflicts_with = "fixed_strings",
        overrides_with = "regex"
    )]
    pub glob: bool,

    /// Treat the pattern as a regular expression (the default; overrides --glob).
    #[arg(hide_short_help = true)]
    #[arg(long, overrides_with = "glob")]
    pub regex: bool,

    /// Treat the pattern as a literal string, found anywhere in the name, instead of a regular
    /// expression.
    #[arg(hide_short_help = true)]
    #[arg(short = 'F', long, alias = "literal")]
    pub fixed_strings: bool,

    /// Match the whole file name (with --full-path, the whole path) exactly: like
    /// --fixed-strings, the pattern is literal, but it must be all of the name, not a part.
    ///
    /// Smart case still applies. Example: ffind --exact Makefile
    #[arg(hide_short_help = true)]
    #[arg(long, conflicts_with_all = ["glob", "fixed_strings"])]
    pub exact: bool,

    /// Match the pattern against the full absolute path, not just the file name.
    ///
    /// Relative search paths are made absolute first. Example: ffind -p 'tests/.*\.rs$'.
    #[arg(help = "Match the full path, not the name", long_help)]
    #[arg(short = 'p', long)]
    pub full_path: bool,

    /// Follow symbolic links: list what they point to and descend into linked directories.
    ///
    /// Links then count as what they point to for --type, --size and the other filters; a
    /// link that points nowhere stays a link, and one that leads back to its own parent is
    /// reported and not entered. Overridden by --no-follow.
    #[arg(help = "Follow symbolic links", long_help)]
    #[arg(short = 'L', long, alias = "dereference", overrides_with = "no_follow")]
    pub follow: bool,

    /// Do not follow symbolic links (the default; overrides --follow).
    #[arg(long, hide = true, overrides_with = "follow")]
    pub no_follow: bool,

    /// Descend at most this many levels below the search path (its entries are at level 1).
    ///
    /// By default there is no limit.
    #[arg(help = "Descend at most this many levels", long_help)]
    #[arg(short = 'd', long, value_name = "DEPTH", alias = "maxdepth")]
    pub max_depth: Option<usize>,

    /// Show only entries at least this many levels below the search path.
    ///
    /// Shallower directories are still searched. See also --max-depth and --exact-depth.
    #[arg(hide_short_help = true)]
    #[arg(long, value_name = "DEPTH", alias = "mindepth")]
    pub min_depth: Option<usize>,

    /// Show only entries exactly this many levels below the search path.
    ///
    /// The same as --min-depth N --max-depth N.
    #[arg(hide_short_help = true)]
    #[arg(long, value_name = "DEPTH", conflicts_with_all = ["max_depth", "min_depth"])]
    pub exact_depth: Option<usize>,

    /// Exclude entries that match this glob, and everything below them (repeatable).
    ///
    /// Nothing brings them back, not even a "!" rule in an ignore file. The glob reads as a
    /// .gitignore line: without "/", it matches the name at any depth ("*.pyc",
    /// "node_modules"); with "/" (leading or in the middle), the path below the search path
    /// ("/build", "src/gen"); "**/" matches any number of directories; a trailing "/" matches
    /// directories only ("cache/").
    #[arg(help = "Skip entries that match this glob", long_help)]
    #[arg(short = 'E', long, value_name = "GLOB", action = ArgAction::Append)]
    pub exclude: Vec<String>,

    /// Skip directories that hold an entry of this name, and everything in them (repeatable).
    ///
    /// For example --ignore-contain CACHEDIR.TAG skips cache directories, or
    /// --ignore-contain .nobackup. Such a directory is not printed either, as in fd.
    #[arg(hide_short_help = true)]
    #[arg(long, value_name = "NAME", action = ArgAction::Append)]
    pub ignore_contain: Vec<String>,

    /// Do not descend into directories that match the search.
    ///
    /// They are printed; what they hold is not searched. To skip directories without printing
    /// them, use --exclude.
    #[arg(hide_short_help = true)]
    #[arg(long)]
    pub prune: bool,

    /// Filter by type (repeatable): f/file, d/dir/directory, l/symlink, x/executable,
    /// e/empty, s/socket, p/pipe, b/block-device, c/char-device.
    ///
    /// Entries of any type given are shown: -t f -t l shows files and symbolic links. Two
    /// types narrow the others instead: x (files we may execute) implies f, and e shows empty
    /// files and directories, or only the empty files (or directories) when -t f (or -t d) is
    /// given too. With -L, a link counts as what it points to.
    #[arg(help = "Filter by type: f, d, l, x, e, s, p, ...", long_help)]
    #[arg(short = 't', long = "type", value_name = "TYPE", action = ArgAction::Append,
          value_parser = file_types(),
          hide_possible_values = true)]
    pub file_type: Vec<String>,

    /// Filter by extension (repeatable, case-insensitive; "tar.gz" and ".rs" work).
    ///
    /// Directories whose names end with the extension match too; add -t f for files only. A
    /// name that is only an extension, such as ".rs", has none.
    #[arg(help = "Filter by extension: rs, tar.gz, ...", long_help)]
    #[arg(short = 'e', long, value_name = "EXT", action = ArgAction::Append)]
    pub extension: Vec<String>,

    /// Filter by size: +N at least, -N at most, N exactly; units b, k, m, g, t (powers of
    /// 1000) and ki, mi, gi, ti (powers of 1024), e.g. +1M, -10k, 500b (repeatable).
    ///
    /// Units are case-insensitive and may end in "b" (kb, KiB). Only files pass: directories,
    /// links (unless followed with -L) and special files never do. Each -S given must hold.
    #[arg(help = "Filter by size: +1M, -10k, 500b, ...", long_help)]
    #[arg(short = 'S', long, value_name = "SIZE", allow_hyphen_values = true,
          action = ArgAction::Append)]
    pub size: Vec<String>,

    /// Only entries modified within this duration ("2weeks", "10h", "1d 2h") or since this
    /// date ("2024-06-01", "2024-06-01 12:00:00", "@1717200000").
    ///
    /// Dates are local time, midnight when no time is given; RFC 3339 timestamps work too.
    /// Aliases: --change-newer-than, --newer, --changed-after.
    #[arg(help = "Modified within 2weeks, 10h, since a date", long_help)]
    #[arg(
        long,
        alias = "change-newer-than",
        alias = "newer",
        alias = "changed-after",
        value_name = "DATE|DURATION"
    )]
    pub changed_within: Option<String>,

    /// Only entries modified before this date, or longer ago than this duration.
    ///
    /// The same formats as --changed-within ("2weeks", "2024-06-01 12:00:00", "@1717200000").
    /// Aliases: --change-older-than, --older.
    #[arg(help = "Modified before a date, or longer ago", long_help)]
    #[arg(
        long,
        alias = "change-older-than",
        alias = "older",
        value_name = "DATE|DURATION"
    )]
    pub changed_before: Option<String>,

    #[arg(help = &help::owner()[0], long_help = &help::owner()[1])]
    #[arg(short = 'o', long, value_name = "USER:GROUP")]
    pub owner: Option<String>,

    /// Do not descend into directories on another file system than the search path's.
    ///
    /// Mount points are listed but not entered, as with find -xdev. Aliases: --mount, --xdev.
    #[arg(hide_short_help = true)]
    #[arg(long, aliases = ["mount", "xdev"])]
    pub one_file_system: bool,

    /// Separate results with NUL instead of newline (for xargs -0).
    #[arg(hide_short_help = true)]
    #[arg(short = '0', long)]
    pub print0: bool,

    /// Print absolute paths. Overridden by --relative-path.
    #[arg(help = "Print absolute paths", long_help)]
    #[arg(short = 'a', long, overrides_with = "relative_path")]
    pub absolute_path: bool,

    /// Print paths as given, relative to the working directory (the default; overrides -a).
    #[arg(long, hide = true, overrides_with = "absolute_path")]
    pub relative_path: bool,

    /// Do not print the "./" prefix for entries of the current directory (the default when
    /// no PATH is given). WHEN is always (the default), never or auto, and goes after "=":
    /// --strip-cwd-prefix=never.
    #[arg(hide_short_help = true)]
    #[arg(long, value_name = "WHEN", num_args = 0..=1, require_equals = true,
          default_missing_value = "always", value_parser = ["always", "never", "auto"])]
    pub strip_cwd_prefix: Option<String>,

    /// Print the results sorted: by path, or by depth (fewer components in the printed path
    /// first, then by path).
    ///
    /// Paths compare byte by byte, one component at a time, so a directory's entries follow
    /// it directly ("a/b" before "a-b", as in a tree listing). The output is then the same
    /// under every method and concurrency, but it comes only when the walk has ended: ffind
    /// holds every result in memory meanwhile (the output's size plus about 64 bytes a
    /// result) and sorts them (n log n). --max-results and -1 apply after sorting: the first
    /// N in order. "none" prints results as they are found, from the first; without --sort, a
    /// search that ends within 100 ms with at most 1,000 results prints them sorted by path,
    /// as fd does, and a bigger one streams them as they are found.
    #[arg(help = "Print the results sorted: path, depth, none", long_help)]
    #[arg(long, value_name = "ORDER", value_enum, hide_possible_values = true)]
    pub sort: Option<SortArg>,

    /// The order results stream in: depth or breadth (nearest first; [`help::order`]).
    #[arg(help = "Stream depth first, or breadth (nearest first)", long_help = help::order())]
    #[arg(long, value_name = "ORDER", value_enum, hide_possible_values = true)]
    pub order: Option<OrderArg>,

    /// How long results are held before they stream, in milliseconds (default 100; 0: they
    /// stream from the start): a search that ends within it, with at most 1,000 results,
    /// prints them sorted by path, as fd does (fd's hidden option of the same name).
    #[arg(long, value_name = "MS", hide = true)]
    pub max_buffer_time: Option<u64>,

    /// Stop after this many results. Overridden by -1.
    #[arg(hide_short_help = true)]
    #[arg(long, value_name = "COUNT", overrides_with = "max_one_result")]
    pub max_results: Option<u64>,

    /// Stop after the first result (same as --max-results=1).
    #[arg(hide_short_help = true)]
    #[arg(short = '1', overrides_with = "max_results")]
    pub max_one_result: bool,

    /// Print nothing; exit 0 if anything matches, 1 otherwise. Stops at the first match.
    ///
    /// Alias: --has-results.
    #[arg(hide_short_help = true)]
    #[arg(short = 'q', long, alias = "has-results")]
    pub quiet: bool,

    /// Print each result through a template instead of as its path: {} the path, {/} its
    /// file name, {//} its parent directory, {.} the path without extension, {/.} the file
    /// name without extension; {{ and }} are literal braces.
    ///
    /// Example: ffind -e rs --format '{/.}'. Names are inserted byte for byte (escaped on a
    /// terminal); the template's own text is printed as given.
    #[arg(help = "Print each result through a template", long_help)]
    #[arg(long, value_name = "FMT", conflicts_with_all = ["list_details", "json"])]
    pub format: Option<String>,

    /// List results with details, like 'ls -l': mode, links, owner, group, size (1024-based
    /// units, as ls -h), modification time, path, and "-> target" for symbolic links.
    ///
    /// Produced by ffind itself (no ls process). A small search is held and sorted, as fd
    /// does, and its columns aligned as ls aligns them; a bigger one streams, its columns
    /// padded to the widest value so far (at least links 2, owner 8, group 8, size 4).
    /// Not with -0, as in fd: a long listing is lines for a reader, not names for xargs.
    #[arg(help = "List details, like ls -l", long_help)]
    #[arg(
        short = 'l',
        long,
        conflicts_with_all = ["json", "exec", "exec_batch", "quiet", "print0"]
    )]
    pub list_details: bool,

    /// Print one JSON object per result and line (NDJSON), for scripts.
    ///
    /// Each object has "path" (a string; when the path is not valid UTF-8, "path_bytes", an
    /// array of its bytes, instead) and "type" (file, directory, symlink, pipe, socket,
    /// block-device, char-device, unknown). --json-fields adds metadata. "path" is the path
    /// the plain listing prints without a directory's trailing '/' ("type" says what it is):
    /// a name that begins with '-' keeps its "./" ("./-dash.txt"), so that a script passing
    /// paths on to a command never passes an option.
    #[arg(help = "Print one JSON object per result", long_help)]
    #[arg(long, conflicts_with_all = ["exec", "exec_batch"])]
    pub json: bool,

    /// With --json: metadata to add to each object, comma-separated: size (bytes), mtime
    /// (RFC 3339, UTC), mode (octal string, "0644"), owner (uid, gid, and the names "user",
    /// "group" when known), nlink, inode.
    ///
    /// A field that cannot be read (the entry vanished) is null.
    #[arg(hide_short_help = true)]
    #[arg(long, value_name = "FIELDS", requires = "json", value_delimiter = ',',
          value_parser = help::json_fields())]
    pub json_fields: Vec<String>,

    #[arg(hide_short_help = true, help = help::path_separator())]
    #[arg(long, value_name = "SEP")]
    pub path_separator: Option<String>,

    /// When to color results: auto (the default: on a terminal, unless NO_COLOR is set and
    /// not empty), always, never. Colors come from LS_COLORS, or fd's default theme when it is
    /// not set.
    #[arg(help = "When to color: auto, always, never", long_help)]
    #[arg(short = 'c', long, value_name = "WHEN", default_value = "auto",
          value_parser = ["auto", "always", "never"], hide_possible_values = true,
          hide_default_value = true)]
    pub color: String,

    /// Make each result a terminal hyperlink (OSC 8) to its file:// URL: auto (when colors
    /// are on; the default when given without a value), always, never (the default).
    ///
    /// Alias: --hyper (fd's).
    #[arg(hide_short_help = true)]
    #[arg(long, alias = "hyper", value_name = "WHEN", num_args = 0..=1, require_equals = true,
          default_missing_value = "auto", value_parser = ["auto", "always", "never"])]
    pub hyperlink: Option<String>,

    /// Run a command for each result, -j at a time: every argument after -x, up to a lone
    /// ';', is part of it (put -x last, or end it with \;).
    ///
    /// The command runs directly, never through a shell, and each file name reaches it as one
    /// argument, intact. Placeholders: {} the path, {/} its file name, {//} its parent
    /// directory, {.} the path without extension, {/.} the file name without extension ({{
    /// and }} are literal braces); without any, {} is appended. Paths keep "./" before names
    /// of the current directory, so that none begins with '-'. With more than one job, each
    /// command's output is printed in one piece when it ends. Repeat -x to run several
    /// commands in turn for each result. Exit status 1 if any command fails.
    ///
    /// Examples: ffind -e zip -x unzip; ffind -e jpg -x convert {} {.}.png
    #[arg(help = "Run a command for each result", long_help)]
    #[arg(id = "exec", short = 'x', long = "exec", value_name = "CMD", num_args = 1..,
          value_hint = ValueHint::CommandName,
          allow_hyphen_values = true, value_terminator = ";",
          value_parser = clap::value_parser!(OsString), action = ArgAction::Append,
          group = "any_exec",
          conflicts_with_all = ["exec_batch", "quiet", "max_results", "max_one_result"])]
    exec_words: Vec<OsString>,

    /// The commands of -x, one per occurrence ([`parse`] fills it: clap's derive flattens them).
    #[arg(skip)]
    pub exec: Vec<Vec<OsString>>,

    /// Run a command once with all the results as arguments (more than once when they do not
    /// fit in one command line, or with --batch-size): every argument after -X, up to a lone
    /// ';', is part of it.
    ///
    /// The same placeholders as -x, in one argument, which repeats for each result; the program
    /// must be fixed. Without results the command does not run. Repeat -X to run several
    /// commands in turn on each batch. Exit status 1 if any command fails.
    ///
    /// Examples: ffind -e rs -X wc -l; ffind -g 'test_*.py' -X vim
    #[arg(help = "Run a command with all the results", long_help)]
    #[arg(id = "exec_batch", short = 'X', long = "exec-batch", value_name = "CMD",
          value_hint = ValueHint::CommandName,
          num_args = 1.., allow_hyphen_values = true, value_terminator = ";",
          value_parser = clap::value_parser!(OsString), action = ArgAction::Append,
          group = "any_exec", conflicts_with_all = ["quiet", "max_results", "max_one_result"])]
    exec_batch_words: Vec<OsString>,

    /// The commands of -X, one per occurrence (as `exec`).
    #[arg(skip)]
    pub exec_batch: Vec<Vec<OsString>>,

    /// Give each -X command at most this many results (0, the default: as many as fit in a
    /// command line).
    ///
    /// Example: ffind -e log --batch-size 100 -X gzip
    #[arg(hide_short_help = true)]
    #[arg(long, value_name = "SIZE", default_value_t = 0, requires = "any_exec")]
    pub batch_size: usize,

    /// The traversal method. All give the same results; they differ in speed.
    // `None`: auto, the method table's choice (`crate::walk::methods::AUTO`); the full path
    // `std::option::Option` tells clap that the value is optional, not the option.
    #[arg(hide_short_help = true)]
    #[arg(long, value_parser = method_values(), default_value = "auto")]
    pub method: std::option::Option<Method>,

    /// How many directories are read at once (threads) ([`help::concurrency`]).
    #[arg(hide_short_help = true, help = help::concurrency())]
    #[arg(short = 'j', long = "concurrency", alias = "threads", value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub concurrency: Option<u32>,

    /// Change the working directory before searching; results are relative to it.
    #[arg(hide_short_help = true)]
    #[arg(short = 'C', long, value_name = "PATH")]
    pub base_directory: Option<PathBuf>,

    /// More search paths, for patterns that look like paths (repeatable).
    #[arg(hide_short_help = true)]
    #[arg(long, value_name = "PATH", action = ArgAction::Append)]
    pub search_path: Vec<PathBuf>,

    /// Write the results to FILE instead of standard output (it is created, or emptied
    /// first).
    ///
    /// The same bytes as standard output would get, as they are found (with --sort, at the
    /// end); never colored or escaped unless --color=always. Under mpirun, the results then
    /// bypass mpirun's slow forwarding of standard output (see --mpi).
    #[arg(hide_short_help = true)]
    #[arg(long, value_name = "FILE", conflicts_with_all = ["exec", "exec_batch"])]
    pub output: Option<PathBuf>,

    #[arg(hide_short_help = true, help = &help::mpi()[0], long_help = &help::mpi()[1])]
    #[arg(long)]
    pub mpi: bool,

    #[arg(help = &help::cache()[0], long_help = &help::cache()[1])]
    #[arg(long, overrides_with = "no_cache")]
    pub cache: bool,

    /// `--cache` was given on the command line itself, not only by the config file: the
    /// file systems it is not used on are then said (set by `main`, not by clap).
    #[arg(skip)]
    pub cache_on_command_line: bool,

    /// Do not use the directory memo (undoes --cache, in the config file for example).
    #[arg(long, overrides_with = "cache", hide_short_help = true)]
    pub no_cache: bool,

    #[arg(long, value_name = "DIR", hide_short_help = true, help = help::cache_dir())]
    pub cache_dir: Option<PathBuf>,

    /// The most the memo may take on disk, in MiB (default 1024); past it, the search paths
    /// least recently searched are forgotten first.
    #[arg(
        long,
        value_name = "MIB",
        hide_short_help = true,
        allow_negative_numbers = true,
        value_parser = cache_limit_mib
    )]
    pub cache_limit: Option<u64>,

    /// List what the memo of --cache holds for this reader (this process's user, groups,
    /// capabilities and sandbox): each search path, its file's size and when it was last
    /// used, their total, then what other readers of the user hold, and the total. Searches
    /// nothing.
    #[arg(long, hide_short_help = true, conflicts_with_all = ["cache_clear", "cache_check"])]
    pub cache_list: bool,

    /// Forget what --cache remembers: everything, or with =PATH what it remembers of PATH
    /// and below (given again for more paths). Searches nothing. (Removing the cache
    /// directory by hand is as safe.)
    #[arg(
        long,
        value_name = "PATH",
        num_args = 0..=1,
        require_equals = true,
        action = clap::ArgAction::Append,
        hide_short_help = true,
        conflicts_with = "cache_check"
    )]
    pub cache_clear: Option<Vec<PathBuf>>,

    /// Test whether --cache can be trusted on the file system of PATH (default .): its type,
    /// and whether creating, renaming and removing entries in a directory made there change
    /// its mtime and ctime (as git update-index --test-untracked-cache). Exit 0 when safe, 1
    /// when not. Searches nothing.
    #[arg(
        long,
        value_name = "PATH",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = ".",
        hide_short_help = true
    )]
    pub cache_check: Option<PathBuf>,

    #[arg(hide_short_help = true, help = &help::no_config()[0])]
    #[arg(long_help = &help::no_config()[1])]
    #[arg(long)]
    pub no_config: bool,

    /// Do not show the errors met on the way: an unreadable directory, a symbolic link loop,
    /// an ignore file that cannot be read.
    ///
    /// The exit status is still 1 after them, and on a terminal (stderr) one line at the end
    /// says how many were not shown. An error about a search path itself is still shown.
    /// Fits in the config file; --show-errors undoes it. Alias: --no-messages (grep's and
    /// ripgrep's name).
    #[arg(hide_short_help = true)]
    #[arg(long, alias = "no-messages", overrides_with = "show_errors")]
    pub no_errors: bool,

    /// Show file-system errors (the default: unlike fd, ffind always reports them on stderr,
    /// and exits with 1 after them); undoes --no-errors.
    #[arg(hide_short_help = true)]
    #[arg(long, overrides_with = "no_errors")]
    pub show_errors: bool,

    /// Say what this command line does with each PATH, and why, instead of searching.
    ///
    /// For each PATH, the verdict (printed or not), then one line per decision: the ignore
    /// rule that decided, named as git check-ignore -v names it (".gitignore:12: target/"),
    /// whatever file it came from; a hidden name; -E; the depth limits; the pattern and the
    /// filters; --prune; --one-file-system; for an entry below a directory the search does
    /// not enter, that directory and why. The search's own judge decides, so --explain never
    /// disagrees with the search. Give the pattern and the search paths before it (ffind
    /// '^ffind$' --explain target/release/ffind). With --json, one object per PATH.
    #[arg(
        help = "Say why each PATH is printed or not, instead of searching",
        long_help
    )]
    #[arg(hide_short_help = true)]
    #[arg(long, value_name = "PATH", num_args = 1.., action = ArgAction::Append,
          value_hint = ValueHint::AnyPath,
          conflicts_with_all = ["exec", "exec_batch", "quiet", "bench"])]
    pub explain: Vec<PathBuf>,

    /// Give no hints after a search that printed nothing.
    ///
    /// On a terminal, a search that prints nothing says when hidden or ignored entries (or
    /// -E) hid every match, and how many, and says when an argument looks like a slip (-e
    /// '*.rs'). Fits in the config file (a line "--no-hints"), for those who know.
    #[arg(hide_short_help = true)]
    #[arg(long)]
    pub no_hints: bool,

    /// Time the traversal methods on PATH instead of searching, as hyperfine would: ffind
    /// --bench [OPTIONS] [PATH]... (first on the command line).
    ///
    /// Every (method, concurrency) pair is timed over fresh ffind processes; the results can be
    /// exported as hyperfine's JSON, Markdown and CSV, and as an SVG chart. Its own options
    /// (--methods, --concurrency, --runs, --warmup, --export-json, ...): ffind --bench --help.
    #[arg(help = "Time the traversal methods instead", long_help)]
    #[arg(long)]
    pub bench: bool,

    /// Print a shell completion script for SHELL and exit.
    #[arg(long, value_name = "SHELL", value_enum, hide = true)]
    pub gen_completions: Option<clap_complete::Shell>,

    /// Print the traversal methods, one a line with their capabilities (tab-separated), and
    /// exit: the method table (`walk/methods.rs`) for the tests and benches/suites.py.
    #[arg(long, hide = true)]
    pub list_methods: bool,

    /// Print the manual page (roff, for docs/ffind.1) and exit.
    #[arg(long, hide = true)]
    pub gen_man: bool,

    /// With --gen-completions: the scripts of this system (a release archive's, for a system
    /// that does not run where it is built; `fs::help::SYSTEMS`). Default: this one.
    #[arg(long, hide = true, value_name = "SYSTEM", requires = "gen_completions",
          value_parser = crate::fs::help::SYSTEMS)]
    pub gen_system: Option<String>,
}

/// The `--type` values, each with what it selects (shell completions show it).
fn file_types() -> PossibleValuesParser {
    let types = [
        (["f", "file"], "regular files"),
        (["d", "directory"], "directories"),
        (["l", "symlink"], "symbolic links"),
        (["x", "executable"], "files we may execute"),
        (["e", "empty"], "empty files or directories"),
        (["s", "socket"], "sockets"),
        (["p", "pipe"], "named pipes (FIFOs)"),
        (["b", "block-device"], "block devices"),
        (["c", "char-device"], "character devices"),
    ];
    let mut values: Vec<PossibleValue> = Vec::new();
    for (names, help) in types {
        values.extend(names.map(|name| PossibleValue::new(name).help(help)));
    }
    // fd's spelling of directory, not offered by completions.
    values.push(PossibleValue::new("dir").help("directories").hide(true));
    PossibleValuesParser::new(values)
}

/// The `--sort` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SortArg {
    /// By path, component by component.
    Path,
    /// Shallower entries first, then by path.
    Depth,
    /// As found, from the first (without --sort, a small search comes sorted, as in fd).
    None,
}

/// The `--order` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OrderArg {
    /// As the workers reach them, mostly depth first (the default).
    Depth,
    /// Nearest first: depth by depth below the search path.
    Breadth,
}

/// The `--method` values, from the method table: `auto` (`None`), then each method (shell
/// completions and the manual offer them, with their help).
fn method_values() -> impl TypedValueParser<Value = std::option::Option<Method>> {
    let auto = PossibleValue::new("auto").help(format!(
        "The fastest method for this machine: currently `{}`",
        methods::AUTO.name()
    ));
    let rows = methods::TABLE
        .iter()
        .map(|row| PossibleValue::new(row.name).help(row.help));
    PossibleValuesParser::new(std::iter::once(auto).chain(rows)).map(|name| Method::named(&name))
}

/// Parses the command line (one that starts with `--bench` goes to [`crate::bench`] instead).
pub fn parse<I: IntoIterator<Item = OsString>>(args: I) -> Result<Cli, clap::Error> {
    let args: Vec<OsString> = args.into_iter().collect();
    let matches = match Cli::command().try_get_matches_from(&args) {
        // `ffind -H --bench --runs 3`: the benchmark's options are unknown to the search, and
        // the error that matters is where --bench stands.
        // `--bench=x`: the benchmark's usage, not the search's.
        Err(e) if names_bench(&e) => {
            return Err(bench_error(
                e.kind(),
                "--bench takes no value: it starts the benchmark, whose options follow it",
            ))
        }
        Err(e) if !bench_given(&args) => return Err(e),
        Err(_) => return Err(bench_not_first()),
        Ok(m) if m.get_flag("bench") => return Err(bench_not_first()),
        Ok(m) => m,
    };
    let commands = |id: &str| -> Vec<Vec<OsString>> {
        matches
            .get_occurrences::<OsString>(id)
            .map(|o| o.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default()
    };
    let (exec, exec_batch) = (commands("exec"), commands("exec_batch"));
    let mut cli = Cli::from_arg_matches(&matches)?;
    cli.exec = exec;
    cli.exec_batch = exec_batch;
    cli.resolve_unrestricted(&matches);
    Ok(cli)
}

/// Whether clap, skipping what it cannot parse, finds `--bench` among the options.
fn bench_given(args: &[OsString]) -> bool {
    Cli::command()
        .ignore_errors(true)
        .try_get_matches_from(args)
        .is_ok_and(|m| m.value_source("bench") == Some(ValueSource::CommandLine))
}

/// The usage error of a `--bench` that is not the first argument: main only sends a command
/// line that starts with it to the benchmark.
fn bench_not_first() -> clap::Error {
    bench_error(
        ErrorKind::ArgumentConflict,
        "--bench starts the benchmark and must come first",
    )
}

/// A usage error about `--bench`, with the benchmark's usage line (not the search's).
fn bench_error(kind: ErrorKind, message: &str) -> clap::Error {
    Cli::command()
        .override_usage("ffind --bench [OPTIONS] [PATH]...")
        .error(kind, message)
}

/// Whether a clap error is about `--bench` itself (`--bench=x`).
fn names_bench(e: &clap::Error) -> bool {
    use clap::error::{ContextKind, ContextValue};
    matches!(e.get(ContextKind::InvalidArg),
        Some(ContextValue::String(arg)) if arg.split(' ').next() == Some("--bench"))
}

impl Cli {
    /// Folds -u into -H and -I where it stands on the command line: of -H, -u and --no-hidden
    /// (and of -I, -u and --ignore) the last one given wins. clap's `overrides_with` cannot say
    /// this, since -u sets two flags that are overridden separately.
    fn resolve_unrestricted(&mut self, m: &ArgMatches) {
        let last = |id: &str| -> Option<usize> {
            (m.value_source(id) == Some(ValueSource::CommandLine))
                .then(|| m.indices_of(id).and_then(Iterator::max))
                .flatten()
        };
        let u = last("unrestricted");
        let winner = |on: &str, off: &str| -> bool {
            [(last(on), true), (u, true), (last(off), false)]
                .into_iter()
                .filter_map(|(at, value)| at.map(|at| (at, value)))
                .max_by_key(|&(at, _)| at)
                .is_some_and(|(_, value)| value)
        };
        self.hidden = winner("hidden", "no_hidden");
        self.no_ignore = winner("no_ignore", "ignore");
    }
}

/// The largest `--cache-limit`: its bytes must fit in 64 bits.
const MAX_CACHE_LIMIT_MIB: u64 = u64::MAX >> 20;

/// `--cache-limit`'s value: a number of MiB whose bytes fit in 64 bits.
fn cache_limit_mib(value: &str) -> Result<u64, String> {
    let max = MAX_CACHE_LIMIT_MIB;
    value
        .parse::<u64>()
        .ok()
        .filter(|&mib| mib <= max)
        .ok_or_else(|| format!("a whole number of MiB from 0 to {max} is expected"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn pattern_then_paths() {
        let cli = parse(["ffind", "x", "a", "b"].map(OsString::from)).unwrap();
        assert_eq!(cli.pattern.as_deref(), Some("x"));
        assert_eq!(cli.paths, [PathBuf::from("a"), PathBuf::from("b")]);
    }

    #[test]
    fn threads_is_an_alias_of_concurrency() {
        let cli = parse(["ffind", "--threads", "8"].map(OsString::from)).unwrap();
        assert_eq!(cli.concurrency, Some(8));
        assert!(parse(["ffind", "-j", "0"].map(OsString::from)).is_err());
    }

    #[test]
    fn each_exec_is_one_command_up_to_a_semicolon() {
        let cli = parse(
            [
                "ffind", "-x", "echo", "-n", ";", "-x", "wc", "{}", ";", "-e", "rs",
            ]
            .map(OsString::from),
        )
        .unwrap();
        assert_eq!(cli.exec, [vec!["echo", "-n"], vec!["wc", "{}"]]);
        assert_eq!(cli.extension, ["rs"]);
        let cli = parse(["ffind", "-X", "ls", "-e", "rs"].map(OsString::from)).unwrap();
        assert_eq!(cli.exec_batch, [vec!["ls", "-e", "rs"]]);
        assert!(cli.extension.is_empty());
    }

    #[test]
    fn size_accepts_leading_minus() {
        let cli = parse(["ffind", "-S", "-10k"].map(OsString::from)).unwrap();
        assert_eq!(cli.size, ["-10k"]);
    }
}
