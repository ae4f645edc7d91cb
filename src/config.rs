//! The one resolved configuration: everything the command line, the environment and the
//! terminal say, decided once, before any directory is read. The walk never sees clap and never
//! reads the environment.

use std::ffi::CString;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{anyhow, bail, Result};
use ignore::overrides::{Override, OverrideBuilder};

use crate::cli::{Cli, OrderArg, SortArg};
use crate::exec::ExecSpec;
use crate::filter::ignore::{
    global_matcher, matcher_from_file, note_skipped, IgnoreOptions, PerRepoExcludes,
};
use crate::filter::owner::OwnerFilter;
use crate::filter::rules::Rules;
use crate::filter::size::SizeFilter;
use crate::filter::time::{parse_instant, TimeFilter};
use crate::filter::{self, Filters, Syntax, TypeFilter};
use crate::fs::path::without_verbatim;
use crate::fs::{is_separator, SEPARATOR};
use crate::output::colors::Colors;
use crate::output::details::Details;
use crate::output::hyperlink::Hyperlink;
use crate::output::json::JsonFields;
use crate::output::owners::Owners;
use crate::output::sort::Order;
use crate::output::style::{Record, Style};
use crate::report::describe;
use crate::template::Template;
use crate::walk::methods::{names_where, Capability, Method, AUTO};

/// The order a walk reads directories in, and so the order results stream in (`--order`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WalkOrder {
    /// Each method's own: mostly depth first, each worker down its own subtree.
    Depth,
    /// Level by level: every entry at depth d below its search root is printed before any at
    /// depth d + 1 (the directories of one level read in parallel).
    Breadth,
}

/// One search path.
#[derive(Debug, Clone)]
pub struct Root {
    /// What is printed before each entry's relative path ("" for the current directory when
    /// no path was given, so that entries print without "./").
    pub display: Vec<u8>,
    /// The absolute path, for ignore files in the directories above it.
    pub absolute: PathBuf,
    /// The directory the path named when the search was set up (device and inode, links
    /// followed as for any search root; `None` if there was none): whatever opens the root
    /// again must find this very directory there (docs/SECURITY.md).
    pub identity: Option<(u64, u64)>,
}

impl Root {
    /// The path to open: the display path, or "." for an empty one.
    pub fn open_path(&self) -> &[u8] {
        if self.display.is_empty() {
            b"."
        } else {
            &self.display
        }
    }

    /// A root found at `display` (shown so), `absolute` for the directories above it.
    fn at(display: Vec<u8>, absolute: PathBuf) -> Root {
        let mut root = Root {
            display,
            absolute,
            identity: None,
        };
        root.identity = crate::fs::stat_path(root.open_path(), true)
            .ok()
            .map(|st| (st.dev, st.ino));
        root
    }

    /// Whether `st` (of the directory found at the root's path) is the directory that was
    /// there when the search was set up.
    pub fn is_same(&self, st: &crate::fs::Stat) -> bool {
        self.identity
            .is_none_or(|(dev, ino)| st.dev == dev && st.ino == ino)
    }
}

/// What is said of a directory that was replaced during the search (a search root swapped
/// for a link to another tree, say): it is skipped, as a directory that vanished.
pub const REPLACED: &str =
    "replaced during the search (it is not the directory the search met there first): skipped";

/// Everything a walk needs to know, resolved.
#[derive(Debug)]
pub struct Config {
    /// The search paths, in command-line order.
    pub roots: Vec<Root>,
    /// The traversal method (`auto` already resolved).
    pub method: Method,
    /// Directories read at once (worker threads) for the parallel methods.
    pub concurrency: usize,
    /// The workers `--method auto` may grow to when it sees reads block on the disk (a cold
    /// cache): [`BLOCKING_CONCURRENCY`] when neither `-j` nor a method is given, else
    /// `concurrency`.
    pub concurrency_max: usize,
    /// Show hidden entries.
    pub hidden: bool,
    /// Which ignore files apply; `None` when none are read (`-I`, `-u`).
    pub ignore: Option<IgnoreOptions>,
    /// Follow symbolic links.
    pub follow: bool,
    /// Print only entries at least this deep (the search path's children are at depth 1).
    pub min_depth: usize,
    /// Print and descend only down to this depth.
    pub max_depth: usize,
    /// Do not descend into directories that are printed.
    pub prune: bool,
    /// Do not descend into directories on another file system.
    pub one_file_system: bool,
    /// `-E` globs, matched against the path below the search path.
    pub excludes: Option<Override>,
    /// What decides whether an entry is printed.
    pub filters: Filters,
    /// The byte after each result.
    pub terminator: u8,
    /// Stop after this many results.
    pub max_results: Option<u64>,
    /// Print nothing; the exit code says whether anything matched.
    pub quiet: bool,
    /// Flush output at every directory (stdout is a terminal).
    pub eager_output: bool,
    /// How results are shown when more than their raw path (terminal escapes, colors, links,
    /// `--format`, `-l`, `--json`); `None` keeps the plain listing's fast path.
    pub style: Option<Style>,
    /// Results start with "./" when they would start with '-' (no search path given).
    pub dash_guard: bool,
    /// `--sort`: print the results in this order once the walk ends.
    pub sort: Option<Order>,
    /// fd's rule for a small search (`output/hold.rs`): the results found within this long
    /// are held, and written in this order when the walk ends in time (nearest first under
    /// `--order breadth`). `None` streams from the start: with `--sort` (`none` too: as found,
    /// from the first), `-q`, `-x`/`-X` and `--mpi`, which order or send results themselves,
    /// and with `--max-buffer-time 0`.
    pub hold: Option<(Order, Duration)>,
    /// `--order`: the order directories are read in (always `Depth` with `--sort`, which
    /// decides the printed order itself).
    pub order: WalkOrder,
    /// `--ignore-contain`: skip directories holding an entry of one of these names.
    pub ignore_contain: Vec<CString>,
    /// `-x`/`-X`: the commands results are given to instead of being printed.
    pub exec: Option<ExecSpec>,
    /// `--output`: the file results are written to instead of stdout.
    pub output: Option<PathBuf>,
    /// `--cache`: where the directory memo lives and how large it may grow (`None`: no memo).
    pub cache: Option<crate::memo::Settings>,
    /// `--no-errors`: errors about what the walk meets are counted, not shown (those about a
    /// search path still are).
    pub hide_errors: bool,
    /// With `hide_errors`, one line at the end says how many were hidden: when stderr is a
    /// terminal, where a person reads it (scripts that asked for silence get silence and the
    /// exit status).
    pub count_hidden: bool,
    /// `--explain`'s paths: said of instead of searched.
    pub explain: Vec<PathBuf>,
    /// The `-E` globs as given, for `--explain` to name the one that excluded an entry.
    pub exclude_globs: Vec<String>,
    /// Count what the hiding rules skip, for the hint after a search that printed nothing:
    /// stderr is a terminal, and neither `-q` nor `--no-hints` is given.
    pub hints: bool,
}

/// The working directory, with a clear error if it is gone. It is read only when a search
/// path is relative to it (none given, or a relative one): with every search path absolute, a
/// deleted working directory is no error, as in fd, and "/" stands in for it, since nothing is
/// joined to it then (with -a and -p the absolute search paths are used as they are).
fn current_dir(cli: &Cli) -> Result<PathBuf> {
    let mut given = cli.paths.iter().chain(&cli.search_path).peekable();
    if given.peek().is_some() && given.all(|p| p.is_absolute()) {
        return Ok(PathBuf::from("/"));
    }
    std::env::current_dir()
        .map_err(|e| anyhow!("cannot read the current directory: {}", describe(&e)))
}

/// `cwd/path`, without "." components and trailing slashes (".." is kept: it may cross a link).
pub fn absolute(cwd: &Path, path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        cwd.join(path)
    };
    joined
        .components()
        .filter(|c| !matches!(c, std::path::Component::CurDir))
        .collect()
}

/// The display form of a given search path: as typed, without trailing separators (but for a
/// root's: "/"). Where the separator is `\` (Windows), as fd shows it there: `.` however typed
/// is "./", and one trailing separator stays as typed (`sub/` shows `sub/x`, where the walk's
/// own join would show `sub\x`).
fn display_of(path: &Path) -> Vec<u8> {
    let bytes = path.as_os_str().as_encoded_bytes();
    let trimmed = bytes.len() - bytes.iter().rev().take_while(|&&b| is_separator(b)).count();
    if SEPARATOR != b'/' {
        return if bytes == b"." || bytes == b"./" || bytes == b".\\" {
            crate::fs::CURRENT_DIR.to_vec()
        } else {
            bytes[..(trimmed + 1).min(bytes.len())].to_vec()
        };
    }
    if trimmed == 0 && !bytes.is_empty() {
        bytes[..1].to_vec()
    } else {
        bytes[..trimmed].to_vec()
    }
}

fn resolve_roots(cli: &Cli, cwd: &Path) -> Vec<Root> {
    let given: Vec<&PathBuf> = cli.paths.iter().chain(&cli.search_path).collect();
    let strip = match cli.strip_cwd_prefix.as_deref() {
        Some("always") => true,
        Some("never") => false,
        // fd keeps "./" for -0, for -l (its `ls -l` batch) and for commands (-x, -X), so
        // that no name begins with '-'.
        _ => !(cli.print0 || cli.list_details) && cli.exec.is_empty() && cli.exec_batch.is_empty(),
    };
    if given.is_empty() {
        let display = if cli.absolute_path {
            cwd.as_os_str().as_encoded_bytes().to_vec()
        } else if strip {
            Vec::new()
        } else if crate::fs::SEPARATOR == b'/' {
            b".".to_vec()
        } else {
            // Joined with `\`, "." would give ".\src": fd writes "./src\main.rs" there.
            crate::fs::CURRENT_DIR.to_vec()
        };
        return vec![Root::at(display, cwd.to_path_buf())];
    }
    given
        .into_iter()
        .map(|p| {
            let absolute = absolute(cwd, p);
            let display = if cli.absolute_path {
                // As fd: the search path resolved (no "..", links followed), when it exists;
                // a missing one is reported by the walk under the name it was given.
                let resolved = std::fs::canonicalize(p).unwrap_or_else(|_| absolute.clone());
                without_verbatim(resolved.into_os_string().into_encoded_bytes())
            } else {
                let display = display_of(p);
                // No result may begin with '-' (it would be read as an option): a search path
                // such as "-" or "-d" is shown as "./-", "./-d" (fd 10.5 does this for "-").
                if display.first() == Some(&b'-') {
                    [crate::fs::CURRENT_DIR, &display].concat()
                } else {
                    display
                }
            };
            Root::at(display, absolute)
        })
        .collect()
}

fn resolve_ignore(cli: &Cli, first_root: &Path) -> Result<Option<IgnoreOptions>> {
    // `cli::parse` has folded -u into `hidden` and `no_ignore`.
    let use_files = !cli.no_ignore;
    let vcs = use_files && !cli.no_ignore_vcs;
    let mut explicit: Vec<Arc<Rules>> = Vec::new();
    let mut unread = Vec::new();
    if use_files && !cli.no_global_ignore_file {
        // ffind's own global ignore file, else fd's, so that fd users keep their ignores.
        let global = crate::fs::xdg::config_home().and_then(|c| {
            [c.join("ffind").join("ignore"), c.join("fd").join("ignore")]
                .into_iter()
                .find(|f| f.exists())
        });
        if let Some(m) = global.and_then(|g| global_matcher(&g, &mut unread)) {
            explicit.push(Arc::new(m));
        }
    }
    for file in &cli.ignore_file {
        if !file.exists() {
            bail!("the ignore file '{}' does not exist", file.display());
        }
        // Named on the command line: a file that cannot be read is a usage error.
        match matcher_from_file(file, true) {
            Ok(Some(m)) => {
                note_skipped(file, Some(&m), &mut unread);
                explicit.push(Arc::new(m))
            }
            Ok(None) => {}
            Err(e) => bail!("the ignore file '{}': {}", file.display(), describe(&e)),
        }
    }
    // The last one given takes precedence, as in fd.
    explicit.reverse();
    // git's global excludes (`core.excludesFile`, else `$XDG_CONFIG_HOME/git/ignore`), found
    // and read the way every ignore file is (not through the `ignore` crate, which would block
    // on a FIFO); `includeIf` conditions are evaluated for the first search path's repository.
    let (global, global_per_repo) = if vcs {
        let excludes = crate::filter::gitconfig::excludes(first_root);
        let global = excludes
            .path
            .as_ref()
            .and_then(|path| global_matcher(path, &mut unread))
            .map(Arc::new);
        // An includeIf on the repository: each repository the walk meets asks again.
        let per_repo = excludes
            .per_repository
            .then(|| Arc::new(PerRepoExcludes::new(excludes.path, global.clone())));
        (global, per_repo)
    } else {
        (None, None)
    };
    let opts = IgnoreOptions {
        vcs,
        dot_ignore: use_files,
        require_git: !cli.no_require_git,
        parents: !cli.no_ignore_parent,
        global,
        global_per_repo,
        explicit,
        unread,
    };
    Ok(opts.enabled().then_some(opts))
}

fn resolve_filters(cli: &Cli, cwd: &Path) -> Result<Filters> {
    // In this order, so that of two mistakes the same one is said first.
    let patterns = resolve_patterns(cli)?;
    let times = resolve_times(cli)?;
    Ok(Filters {
        patterns,
        full_path_base: cli
            .full_path
            .then(|| cwd.as_os_str().as_encoded_bytes().to_vec()),
        full_path_slashed: cli.full_path && cli.glob && SEPARATOR != b'/',
        extensions: filter::compile_extensions(&cli.extension)?,
        types: TypeFilter::from_args(&cli.file_type),
        sizes: cli
            .size
            .iter()
            .map(|s| SizeFilter::parse(s))
            .collect::<Result<_>>()?,
        times,
        owner: match cli.owner.as_deref() {
            // As fd, which has no --owner there. The value is quoted, so that a config file's
            // line giving it is named (`ConfigFile::blame_value`).
            Some(value) if !crate::fs::HAS_OWNERS => bail!(
                "--owner is not supported on {}: files there have no user and group ids \
                 (asked for '{value}')",
                crate::fs::SYSTEM
            ),
            owner => owner.map(OwnerFilter::parse).transpose()?.flatten(),
        },
    })
}

/// The search patterns (the pattern and `--and`'s), compiled in their syntax and case; none
/// for a pattern that matches everything. Refuses, with the way out, a pattern that could
/// match no name: one with a path separator (without `--full-path`), or one that matches
/// only hidden names while they are skipped.
fn resolve_patterns(cli: &Cli) -> Result<Vec<filter::Pattern>> {
    let syntax = if cli.glob {
        Syntax::Glob
    } else if cli.fixed_strings {
        Syntax::Fixed
    } else if cli.exact {
        Syntax::Exact
    } else {
        Syntax::Regex
    };
    let mut sources: Vec<&str> = cli.pattern.iter().map(String::as_str).collect();
    sources.extend(cli.and.iter().map(String::as_str));
    if !cli.full_path {
        // A pattern that would match no file name ([`crate::fs::pattern_separator`]).
        let named = sources
            .iter()
            .find_map(|p| crate::fs::pattern_separator(p).map(|sep| (p, sep)));
        if let Some((p, sep)) = named {
            // Quoted as it would show on a terminal: a line break in it stays in one line.
            let p = crate::fs::escape::escaped(p.as_bytes());
            bail!(
                "the search pattern '{p}' contains a path separator ('{sep}') and would match no file \
                 name.\nTo search all entries below '{p}', use a match-all pattern: ffind . '{p}'\n\
                 To match the pattern against the full path, use: ffind --full-path '{p}'"
            );
        }
    }
    let regexes = sources
        .iter()
        .map(|p| Ok((*p, filter::pattern_regex(p, syntax, cli.full_path)?)))
        .collect::<Result<Vec<_>>>()?;
    if !cli.hidden {
        if let Some((p, _)) = regexes
            .iter()
            .find(|(_, re)| filter::only_matches_hidden(re))
        {
            bail!(
                "the pattern '{p}' only matches names that start with a dot, but hidden entries \
                 are skipped by default.\nAdd -H/--hidden to search them, or change the pattern."
            );
        }
    }
    let case_insensitive = if cli.case_sensitive {
        false
    } else if cli.ignore_case {
        true
    } else {
        !regexes.iter().any(|(_, re)| filter::has_uppercase(re))
    };
    regexes
        .iter()
        .filter(|(p, _)| !filter::matches_everything(p, syntax))
        .map(|(_, re)| filter::Pattern::new(re, case_insensitive))
        .collect()
}

/// `--changed-within` and `--changed-before`, as instants.
fn resolve_times(cli: &Cli) -> Result<Vec<TimeFilter>> {
    // Only when asked for: the current zoned time loads the time-zone database (a dozen
    // directory reads under /usr/share/zoneinfo), which a plain listing must not pay for.
    let now = if cli.changed_within.is_some() || cli.changed_before.is_some() {
        jiff::Zoned::now()
    } else {
        jiff::Zoned::default()
    };
    let mut times = Vec::new();
    if let Some(s) = &cli.changed_within {
        times.push(TimeFilter::After(parse_instant(s, &now)?));
    }
    if let Some(s) = &cli.changed_before {
        times.push(TimeFilter::Before(parse_instant(s, &now)?));
    }
    Ok(times)
}

fn resolve_excludes(cli: &Cli) -> Result<Option<Override>> {
    if cli.exclude.is_empty() {
        return Ok(None);
    }
    exclude_override(&cli.exclude).map(Some)
}

/// The matcher of `-E` globs (as given): all of them for the walk, or one for `--explain` to
/// say which glob excluded an entry.
pub fn exclude_override(globs: &[String]) -> Result<Override> {
    // Root "/" never prefixes the relative paths matched against it (see filter/ignore.rs).
    let mut builder = OverrideBuilder::new("/");
    for glob in globs {
        // Where `\` separates paths (Windows), it does in an exclude too (`-E src\gen`, which
        // fd takes for "srcgen"): no name there holds a character a `\` would escape.
        let written = if crate::fs::SEPARATOR == b'\\' {
            glob.replace('\\', "/")
        } else {
            glob.clone()
        };
        builder.add(&format!("!{written}")).map_err(|e| {
            // The crate's message quotes the glob with the '!' added here: name what was
            // written instead.
            let why = match e {
                ignore::Error::Glob { err, .. } => err,
                other => other.to_string(),
            };
            let glob = crate::fs::escape::escaped(glob.as_bytes());
            anyhow!("invalid exclude pattern '{glob}': {why}")
        })?;
    }
    Ok(builder.build()?)
}

/// The output style: what the terminal, `--color`, `NO_COLOR`, `LS_COLORS`, `--hyperlink`,
/// `--path-separator`, `--format`, `-l` and `--json` ask for. `None` for the plain listing.
fn resolve_style(cli: &Cli, cwd: &Path, terminal: bool) -> Option<Style> {
    let color = match cli.color.as_str() {
        "always" => true,
        "never" => false,
        // https://no-color.org: a NO_COLOR that is set and not empty turns automatic color off;
        // a Windows console without escape sequences cannot show colors (fd's rule).
        _ => {
            terminal
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && crate::fs::enable_ansi_colors()
        }
    };
    let record = if let Some(format) = &cli.format {
        Record::Format(Template::parse(format.as_bytes()))
    } else if cli.list_details {
        let now = jiff::Timestamp::now().as_second();
        Record::Details(Details::new(jiff::tz::TimeZone::system(), now, cli.follow))
    } else if cli.json {
        Record::Json(JsonFields::from_names(&cli.json_fields))
    } else {
        Record::Path
    };
    let colored = color && matches!(record, Record::Path | Record::Details(_));
    let colors = colored.then(|| Colors::new(std::env::var("LS_COLORS").ok().as_deref()));
    // As fd: "auto" links when colors are on.
    let hyperlink = match cli.hyperlink.as_deref() {
        Some("always") => true,
        Some("auto") => color,
        _ => false,
    };
    let hyperlink = hyperlink.then(|| {
        let host = match std::env::var("WSL_DISTRO_NAME") {
            Ok(distro) => format!("wsl$/{distro}"),
            Err(_) => crate::fs::link_host(),
        };
        Hyperlink::new(&host, cwd.as_os_str().as_encoded_bytes())
    });
    let separator = resolve_separator(cli).map(|s| s.as_bytes().to_vec());
    let plain = matches!(record, Record::Path)
        && !terminal
        && colors.is_none()
        && hyperlink.is_none()
        && separator.is_none();
    (!plain).then(|| Style {
        record,
        escape: terminal,
        colors,
        hyperlink,
        separator,
        owners: Owners::default(),
    })
}

/// The separator results are shown with: `--path-separator`, else `/` where fd defaults to it
/// (MSYS2 on Windows), else the system's own (`None`).
fn resolve_separator(cli: &Cli) -> Option<&str> {
    match cli.path_separator.as_deref() {
        Some(sep) => Some(sep),
        None => crate::fs::default_separator(),
    }
}

/// `--path-separator` checked as fd checks it on Windows: one byte (an MSYS shell turns a
/// lone '/' into a Windows path before ffind sees it).
fn check_separator(cli: &Cli) -> Result<()> {
    match cli.path_separator.as_deref() {
        Some(sep) if SEPARATOR != b'/' && sep.len() > 1 => bail!(
            "a path separator must be exactly one byte, but the given separator is {} bytes: \
             '{sep}'.\nIn some shells on Windows, '/' is automatically expanded. Try to use \
             '//' instead.",
            sep.len()
        ),
        _ => Ok(()),
    }
}

/// `--ignore-contain` names, checked: one file name each (no separator, not empty).
fn resolve_ignore_contain(cli: &Cli) -> Result<Vec<CString>> {
    cli.ignore_contain
        .iter()
        .map(|name| {
            if name.is_empty() || name.bytes().any(is_separator) || name == "." || name == ".." {
                bail!("--ignore-contain takes a file name, not '{name}'");
            }
            CString::new(name.as_str()).map_err(|_| anyhow!("invalid name '{name}'"))
        })
        .collect()
}

/// Directories read at once when `-j` is not given: one per CPU on local disks; on network and
/// FUSE file systems, where each read waits on a round trip rather than a core, at least
/// [`SLOW_FS_CONCURRENCY`].
fn default_concurrency(roots: &[Root], cpus: usize) -> usize {
    if roots
        .iter()
        .any(|r| crate::fs::is_slow_filesystem(r.open_path()))
    {
        cpus.max(SLOW_FS_CONCURRENCY)
    } else {
        cpus
    }
}

/// The default concurrency on network and FUSE file systems (docs/PERFORMANCE.md has the
/// sweep on a FUSE mount behind the number).
pub const SLOW_FS_CONCURRENCY: usize = 64;

/// What `auto` grows to when reads block on the disk (docs/PERFORMANCE.md has the cold-cache
/// measurements behind the number).
pub const BLOCKING_CONCURRENCY: usize = 64;

/// The walk order `--order` asks for, checked against the method: with `--sort` the walk
/// order is moot (the results are sorted once the walk ends), so it is the cheapest, depth.
fn resolve_order(cli: &Cli, method: Method) -> Result<WalkOrder> {
    let sorted = matches!(cli.sort, Some(SortArg::Path | SortArg::Depth));
    match cli.order {
        Some(OrderArg::Breadth) if !sorted => {
            if !method.walks_breadth_first() {
                bail!(
                    "--order breadth: the {} method walks depth first only; use --method auto, \
                     {} (or --order depth)",
                    method.name(),
                    names_where(Capability::Breadth, true, "or")
                );
            }
            Ok(WalkOrder::Breadth)
        }
        _ => Ok(WalkOrder::Depth),
    }
}

/// `--cache`'s settings: the memo directory (`--cache-dir`, else `$FFIND_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/ffind`, else `~/.cache/ffind`) and its bound (`--cache-limit`, 1 GiB).
/// Only the methods with ffind's own directory reader can use it.
fn resolve_cache(cli: &Cli, method: Method) -> Result<Option<crate::memo::Settings>> {
    if !cli.cache || cli.no_cache {
        return Ok(None);
    }
    if !crate::fs::HAS_MEMO {
        // Off, said once when asked for on the command line; a config file's `--cache` (one
        // config shared between systems) searches without a word (docs/CACHE.md).
        if cli.cache_on_command_line {
            crate::report::say!(
                "ffind: --cache is not supported on {}: searching without the memo (see \
                 docs/CACHE.md)",
                crate::fs::SYSTEM
            );
        }
        return Ok(None);
    }
    if !method.takes_cache() {
        bail!(
            "--cache: the {} method does not read directories with ffind's own reader; use \
             --method auto, {} (or --no-cache)",
            method.name(),
            names_where(Capability::OwnReader, true, "or")
        );
    }
    if cli.mpi {
        bail!("--cache does not go with --mpi: each process would keep a memo of its own part");
    }
    let Some((dir, home)) = cache_dir(cli.cache_dir.clone()) else {
        // As any other memo directory that cannot be used: one warning, and the search.
        crate::report::say!(
            "ffind: warning: --cache: no cache directory (set $FFIND_CACHE_DIR, $XDG_CACHE_HOME \
             or $HOME to an absolute path); searching without the cache"
        );
        return Ok(None);
    };
    Ok(Some(crate::memo::Settings {
        dir,
        home,
        on_command_line: cli.cache_on_command_line,
        limit: cli.cache_limit.unwrap_or(DEFAULT_CACHE_LIMIT_MIB) << 20,
    }))
}

/// The memo's default bound: 1 GiB.
pub const DEFAULT_CACHE_LIMIT_MIB: u64 = 1024;

/// Where the memo lives: `given` (`--cache-dir`), else `$FFIND_CACHE_DIR`, else the XDG cache
/// home's `ffind` (`$XDG_CACHE_HOME` when absolute, else `~/.cache` of an absolute home).
/// With the home directory it was found in, when it is (the default, or `$XDG_CACHE_HOME`
/// below the home): the memo is kept there only if the home is the effective user's (root
/// with a user's `$HOME`, under `sudo -E` or `su`, must not make that user's `~/.cache`).
pub fn cache_dir(given: Option<PathBuf>) -> Option<(PathBuf, Option<PathBuf>)> {
    if let Some(dir) = given.or_else(|| {
        std::env::var_os("FFIND_CACHE_DIR")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    }) {
        return Some((dir, None));
    }
    let cache = crate::fs::xdg::cache_home()?;
    let home = crate::fs::xdg::home().filter(|h| cache.starts_with(h));
    Some((cache.join("ffind"), home))
}

/// How results are held at the start of a search (see [`Config::hold`]).
fn resolve_hold(cli: &Cli, distributed: bool) -> Option<(Order, Duration)> {
    // `--sort none` asks for results as they are found, from the first.
    let sorted = cli.sort.is_some();
    let commands = !cli.exec.is_empty() || !cli.exec_batch.is_empty();
    let window = cli
        .max_buffer_time
        .map_or(crate::output::hold::WINDOW, Duration::from_millis);
    if sorted || cli.quiet || commands || distributed || window.is_zero() {
        return None;
    }
    let order = match cli.order {
        Some(OrderArg::Breadth) => Order::FdNearest,
        _ => Order::Fd,
    };
    Some((order, window))
}

impl Config {
    /// Resolves a parsed command line. Errors here are usage errors (exit code 2).
    /// `distributed`: one process of an `--mpi` search, whose stdout is a pseudo-terminal
    /// that mpirun reads (it says it is a terminal wherever mpirun's own output goes), so
    /// that results are printed as to a pipe, as they are with `--output`.
    pub fn from_cli(cli: &Cli, distributed: bool) -> Result<Config> {
        check_separator(cli)?;
        if cli.mpi && !cli.explain.is_empty() {
            bail!("--explain says what one search does with a path: run it without --mpi");
        }
        if !crate::fs::HAS_OWNERS && cli.json_fields.iter().any(|f| f == "owner") {
            bail!(
                "--json-fields owner is not supported on {}: files there have no user and group \
                 ids",
                crate::fs::SYSTEM
            );
        }
        let cwd = current_dir(cli)?;
        let (min_depth, max_depth) = match cli.exact_depth {
            Some(d) => (d, d),
            None => (
                cli.min_depth.unwrap_or(0),
                cli.max_depth.unwrap_or(usize::MAX),
            ),
        };
        let quiet = cli.quiet;
        let max_results = if quiet || cli.max_one_result {
            Some(1)
        } else {
            cli.max_results
        };
        let roots = resolve_roots(cli, &cwd);
        let ignore = resolve_ignore(cli, &roots[0].absolute)?;
        let dash_guard = roots.iter().any(|r| r.display.is_empty());
        // -j, else the CPUs: looked at once (it reads the cgroup's CPU quota).
        let jobs = cli.concurrency.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |n| n as usize,
        );
        let concurrency = match cli.concurrency {
            Some(_) => jobs,
            None => default_concurrency(&roots, jobs),
        };
        // Results written to a file (--output) or through mpirun are never for a terminal.
        let terminal = !distributed && cli.output.is_none() && std::io::stdout().is_terminal();
        let concurrency_max = if cli.concurrency.is_none() && cli.method.is_none() {
            concurrency.max(BLOCKING_CONCURRENCY)
        } else {
            concurrency
        };
        // `auto` (no method named) is the table's choice.
        let method = cli.method.unwrap_or(AUTO);
        Ok(Config {
            roots,
            method,
            concurrency,
            concurrency_max,
            hidden: cli.hidden,
            ignore,
            follow: cli.follow,
            min_depth,
            max_depth,
            prune: cli.prune,
            one_file_system: cli.one_file_system,
            excludes: resolve_excludes(cli)?,
            filters: resolve_filters(cli, &cwd)?,
            terminator: if cli.print0 { 0 } else { b'\n' },
            max_results: max_results.filter(|&n| n > 0),
            quiet,
            eager_output: terminal,
            style: resolve_style(cli, &cwd, terminal),
            dash_guard,
            sort: match cli.sort {
                Some(SortArg::Path) => Some(Order::Path),
                Some(SortArg::Depth) => Some(Order::Depth),
                Some(SortArg::None) | None => None,
            },
            hold: resolve_hold(cli, distributed),
            order: resolve_order(cli, method)?,
            ignore_contain: resolve_ignore_contain(cli)?,
            exec: ExecSpec::resolve(
                &cli.exec,
                &cli.exec_batch,
                // fd's -j counts commands too; the FUSE default of many readers does not.
                jobs,
                cli.batch_size,
                cli.print0,
                resolve_separator(cli).map(str::as_bytes),
            )?,
            output: cli.output.clone(),
            cache: resolve_cache(cli, method)?,
            hide_errors: cli.no_errors,
            count_hidden: cli.no_errors && std::io::stderr().is_terminal(),
            explain: cli.explain.clone(),
            exclude_globs: cli.exclude.clone(),
            hints: !cli.no_hints && !cli.quiet && std::io::stderr().is_terminal(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_paths_lose_trailing_slashes_only() {
        if SEPARATOR == b'/' {
            assert_eq!(display_of(Path::new("foo/")), b"foo");
            assert_eq!(display_of(Path::new("foo//")), b"foo");
        } else {
            // As fd shows them on Windows: one trailing separator as typed, "." as "./".
            assert_eq!(display_of(Path::new("foo/")), b"foo/");
            assert_eq!(display_of(Path::new("foo\\\\")), b"foo\\");
            assert_eq!(display_of(Path::new(".")), b"./");
            assert_eq!(display_of(Path::new(".\\")), b"./");
            assert_eq!(display_of(Path::new("C:")), b"C:");
        }
        assert_eq!(display_of(Path::new("/")), b"/");
        assert_eq!(display_of(Path::new("./a")), b"./a");
    }

    #[test]
    fn absolute_drops_dot_components() {
        assert_eq!(
            absolute(Path::new("/h/u"), Path::new("./a/./b")),
            PathBuf::from("/h/u/a/b")
        );
        assert_eq!(
            absolute(Path::new("/h/u"), Path::new("/x")),
            PathBuf::from("/x")
        );
        assert_eq!(
            absolute(Path::new("/h/u"), Path::new(".")),
            PathBuf::from("/h/u")
        );
    }
}
