//! The manual page, `docs/ffind.1` (`ffind --gen-man`): NAME, SYNOPSIS, DESCRIPTION and
//! OPTIONS are clap_mangen's, from the same definition as `--help`; the benchmark's section
//! from `ffind --bench`'s own definition; EXAMPLES, ENVIRONMENT, FILES, EXIT STATUS and SEE
//! ALSO, which clap does not know, from the tables here. A test holds the committed page to
//! what this writes, and another holds ENVIRONMENT to the variables the source reads.

use std::io::{self, Write};

use clap::CommandFactory;
use clap_mangen::Man;
use roff::{bold, italic, roman, Inline, Roff};

use crate::bench;
use crate::cli::Cli;

/// The SYNOPSIS: the search, and the benchmark (whose word must come first).
const SYNOPSIS: &str = "ffind [OPTIONS] [PATTERN] [PATH]...\n\
                        ffind --bench [BENCHMARK OPTIONS] [OPTIONS] [PATH]...";

/// EXAMPLES: a command line, and what it does.
const EXAMPLES: &[(&str, &str)] = &[
    (
        "ffind",
        "Every entry below the current directory that is not hidden or ignored.",
    ),
    (
        "ffind -e rs -t f",
        "The Rust files below the current directory.",
    ),
    (
        "ffind -u . /usr",
        "Every entry below /usr, hidden and ignored ones too (like find /usr -mindepth 1).",
    ),
    (
        "ffind '^Makefile$' ~/src",
        "The files named Makefile below ~/src, by regular expression.",
    ),
    (
        "ffind -g '*.py' tests",
        "The Python files below tests, by glob: it must match the whole name.",
    ),
    (
        "ffind -E node_modules -e js",
        "JavaScript files, skipping node_modules and what it holds.",
    ),
    (
        "ffind -0 -e log | xargs -0 rm",
        "Remove the .log files: names end with NUL, for xargs -0.",
    ),
    (
        "ffind -e jpg -x convert {} {.}.png",
        "Convert each JPEG file to PNG, one command per file.",
    ),
    (
        "ffind -e rs -X wc -l",
        "Count the lines of all Rust files with one wc.",
    ),
    (
        "ffind --json -t f --json-fields size,mtime",
        "One JSON object per file and line, with its size and modification time.",
    ),
    (
        "ffind --order breadth -t f | fzf",
        "Files nearest first, so that those next to you are on fzf's first screen.",
    ),
    (
        "ffind --bench --methods queue,rayon --concurrency 1,2,8 --export-json b.json ~/src",
        "Time two traversal methods at 1, 2 and 8 threads on ~/src, and write hyperfine's JSON.",
    ),
];

/// ENVIRONMENT: every variable ffind reads.
const ENVIRONMENT: &[(&str, &str)] = &[
    (
        "LS_COLORS",
        "The colors of results, as ls(1) reads them (dircolors(1) sets it); unset, fd's default \
         theme.",
    ),
    (
        "NO_COLOR",
        "Set and not empty: no colors with --color=auto (the default); --color=always still \
         colors.",
    ),
    (
        "FFIND_CONFIG_PATH",
        "The config file of default options to read instead of $XDG_CONFIG_HOME/ffind/config \
         (see FILES); set but empty, or /dev/null, none.",
    ),
    (
        "FFIND_CACHE_DIR",
        "Where --cache keeps its memo when --cache-dir does not say; unset or empty, \
         $XDG_CACHE_HOME/ffind (when absolute), else ~/.cache/ffind.",
    ),
    (
        "XDG_CACHE_HOME",
        "Where --cache keeps its memo (in ffind/) when neither --cache-dir nor \
         $FFIND_CACHE_DIR says; unset, empty or relative, ~/.cache.",
    ),
    (
        "XDG_CONFIG_HOME",
        "Where the config file, the global ignore file and git's global excludes are looked \
         for; unset or empty, ~/.config.",
    ),
    (
        "HOME",
        "The home directory: ~/.config, and git's ~/.gitconfig, read for core.excludesFile.",
    ),
    (
        "GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM, GIT_CONFIG_NOSYSTEM",
        "Read as git reads them, to find the global git excludes (core.excludesFile).",
    ),
    (
        "APPDATA, LOCALAPPDATA",
        "On Windows, where the config file and the global ignore file (APPDATA: ffind\\config, \
         ffind\\ignore, fd\\ignore) and --cache's memo (LOCALAPPDATA: ffind) are, as fd finds \
         them; unset, AppData\\Roaming and AppData\\Local in the home directory. \
         XDG_CONFIG_HOME is not read there.",
    ),
    (
        "HOMEDRIVE, HOMEPATH, USERPROFILE",
        "On Windows, the home directory of git's files (.gitconfig, .config\\git\\ignore) \
         when HOME is unset, as git for Windows finds it: HOMEDRIVE and HOMEPATH joined when \
         that is a directory (not System32), else USERPROFILE, which is also where \
         AppData is when APPDATA or LOCALAPPDATA is unset.",
    ),
    (
        "TERM",
        "On Windows, set: colors with --color=auto on a console that cannot switch on escape \
         sequences itself (mintty and other terminals read them), as fd does.",
    ),
    (
        "MSYSTEM",
        "On Windows, set and not empty (MSYS2, Git Bash): results are shown with '/' between \
         their components when --path-separator does not say, as fd does.",
    ),
    (
        "WSL_DISTRO_NAME",
        "Under WSL, --hyperlink's file:// URLs name the host as wsl$/DISTRO.",
    ),
    (
        "RUST_MIN_STACK",
        "The stack size of the ignore method's threads; unset, ffind sets what its other \
         threads use.",
    ),
    (
        "OMPI_COMM_WORLD_RANK, OMPI_COMM_WORLD_SIZE, PMIX_RANK, PMI_RANK, PMI_SIZE, \
         SLURM_PROCID, SLURM_NTASKS, SLURM_STEP_NUM_TASKS, SLURM_STEP_ID",
        "Set by MPI launchers (mpirun, srun): with --mpi, they tell ffind that it is one \
         process of a job, and which.",
    ),
    (
        "FFIND_MPI_DEBUG",
        "With --mpi, in a build with MPI support: share-all hands most directories to another \
         process, stats prints each process's counts (for testing the distribution).",
    ),
];

/// FILES: what ffind reads besides the tree.
const FILES: &[(&str, &str)] = &[
    (
        "$XDG_CONFIG_HOME/ffind/config (~/.config/ffind/config)",
        "The config file of default options, one argument per line, read before the command \
         line (which wins); lines starting with '#' and blank lines are skipped. \
         $FFIND_CONFIG_PATH names another; --no-config skips it. On Windows, \
         %APPDATA%\\ffind\\config.",
    ),
    (
        "$XDG_CONFIG_HOME/ffind/ignore (~/.config/ffind/ignore)",
        "The global ignore file, in .gitignore format, applied to every search; fd's, \
         $XDG_CONFIG_HOME/fd/ignore, when ffind's does not exist. --no-global-ignore-file \
         skips it. On Windows, %APPDATA%\\ffind\\ignore, else %APPDATA%\\fd\\ignore.",
    ),
    (
        ".gitignore, .git/info/exclude, core.excludesFile",
        "git's ignore files, inside a git repository (see --no-ignore-vcs, --no-require-git); \
         core.excludesFile is found as git finds it (~/.gitconfig, \
         $XDG_CONFIG_HOME/git/config, /etc/gitconfig; by default $XDG_CONFIG_HOME/git/ignore).",
    ),
    (
        ".ignore, .fdignore, .ffindignore",
        "Ignore files in .gitignore format, in every directory (see --no-ignore).",
    ),
];

/// EXIT STATUS: each code, and when ffind exits with it.
const EXIT_STATUS: &[(u8, &str)] = &[
    (0, "Success: the search ran and every path could be read."),
    (
        1,
        "A path could not be read (each is reported on stderr, and the search goes on), the \
         output could not be written, a command of -x or -X failed, or -q found nothing.",
    ),
    (2, "A usage error: nothing was searched."),
    (
        130,
        "Ctrl-C stopped ffind, after the commands of -x or -X had ended.",
    ),
];

/// SEE ALSO.
const SEE_ALSO: &[&str] = &[
    "fd(1)",
    "find(1)",
    "bfs(1)",
    "fzf(1)",
    "hyperfine(1)",
    "gitignore(5)",
    "dircolors(1)",
    "mpirun(1)",
];

/// Writes the manual page (roff).
pub fn render(out: &mut dyn Write) -> io::Result<()> {
    let search = Man::new(Cli::command().override_usage(SYNOPSIS));
    let bench = Man::new(
        bench::command()
            .disable_help_flag(true)
            .disable_version_flag(true)
            .mut_args(|a| a.help_heading("Benchmark options")),
    );
    let mut page = Vec::new();
    search.render_title(&mut page)?;
    let mut sections = Sections {
        page,
        preamble: Roff::new().render(),
    };
    sections.add(|w| search.render_name_section(w))?;
    sections.add(|w| search.render_synopsis_section(w))?;
    sections.add(|w| search.render_description_section(w))?;
    sections.add(|w| search.render_options_section(w))?;
    sections.add(|w| benchmark(&bench::command()).to_writer(w))?;
    sections.add(|w| bench.render_options_section(w))?;
    sections.add(|w| tail().to_writer(w))?;
    out.write_all(&sections.page)
}

/// Sections rendered one by one, each with roff's preamble, which the page needs once.
struct Sections {
    page: Vec<u8>,
    preamble: String,
}

impl Sections {
    fn add(&mut self, render: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
        let mut section = Vec::new();
        render(&mut section)?;
        let body = section
            .strip_prefix(self.preamble.as_bytes())
            .unwrap_or(&section);
        self.page.extend_from_slice(&bold_quoted(body));
        Ok(())
    }
}

/// The help's `quoted` commands (`ffind --bench --help`) in bold, as a manual writes a command
/// to type: roff shows a backtick as it is. Pairs on one line; a lone backtick stays.
fn bold_quoted(roff: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(roff.len());
    for line in roff.split_inclusive(|&b| b == b'\n') {
        let quotes = line.iter().filter(|&&b| b == b'`').count();
        let mut seen = 0;
        for &b in line {
            if b == b'`' && seen < quotes - quotes % 2 {
                out.extend_from_slice(if seen % 2 == 0 { b"\\fB" } else { b"\\fR" });
                seen += 1;
            } else {
                out.push(b);
            }
        }
    }
    out
}

/// BENCHMARK: what `ffind --bench` does, from its own `--help` text.
fn benchmark(cmd: &clap::Command) -> Roff {
    let mut roff = Roff::new();
    roff.control("SH", ["BENCHMARK"]);
    roff.text([
        bold("ffind --bench"),
        roman(" [BENCHMARK OPTIONS] [OPTIONS] [PATH]..."),
    ]);
    let about = cmd.get_long_about().or(cmd.get_about());
    let after = cmd.get_after_long_help().or(cmd.get_after_help());
    for text in [about, after].into_iter().flatten() {
        for paragraph in text.to_string().split("\n\n") {
            roff.control("PP", []);
            roff.text([roman(paragraph.replace('\n', " "))]);
        }
    }
    roff
}

/// The sections after the options.
fn tail() -> Roff {
    let mut roff = Roff::new();
    roff.control("SH", ["EXAMPLES"]);
    terms(&mut roff, EXAMPLES);
    roff.control("SH", ["ENVIRONMENT"]);
    terms(&mut roff, ENVIRONMENT);
    roff.control("SH", ["FILES"]);
    terms(&mut roff, FILES);
    roff.control("SH", ["EXIT STATUS"]);
    for (code, when) in EXIT_STATUS {
        roff.control("TP", [])
            .text([bold(code.to_string())])
            .text([roman(*when)]);
    }
    roff.control("SH", ["SEE ALSO"]);
    let mut refs: Vec<Inline> = Vec::new();
    for (i, page) in SEE_ALSO.iter().enumerate() {
        let (name, section) = page.split_once('(').unwrap_or((page, ""));
        if i > 0 {
            refs.push(roman(", "));
        }
        refs.push(bold(name));
        refs.push(roman(format!("({section}")));
    }
    roff.text(refs);
    roff.control("PP", []);
    roff.text([
        roman("The README and "),
        italic("USAGE.md"),
        roman(", "),
        italic("CACHE.md"),
        roman(", "),
        italic("SECURITY.md"),
        roman(", "),
        italic("DIFFERENCES.md"),
        roman(" and "),
        italic("SCALE.md"),
        roman(" say more: in "),
        italic("/usr/share/doc/ffind"),
        roman(" where ffind was installed by its package, else in "),
        italic("docs/"),
        roman(" of ffind's source."),
    ]);
    roff
}

/// A list of terms (variables, files), each with its description.
fn terms(roff: &mut Roff, list: &[(&str, &str)]) {
    for (term, what) in list {
        roff.control("TP", [])
            .text([bold(*term)])
            .text([roman(*what)]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exit::Outcome;

    #[test]
    fn quoted_commands_are_bold() {
        let roff = b"see `ffind \\-\\-bench \\-\\-help` or `x`.\nA lone ` stays\n";
        assert_eq!(
            String::from_utf8(bold_quoted(roff)).unwrap(),
            "see \\fBffind \\-\\-bench \\-\\-help\\fR or \\fBx\\fR.\nA lone ` stays\n"
        );
        assert!(!page().contains('`'), "no backtick is left in the page");
    }

    fn page() -> String {
        let mut out = Vec::new();
        render(&mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn every_section_once_in_order() {
        let page = page();
        let sections: Vec<&str> = page
            .lines()
            .filter_map(|l| l.strip_prefix(".SH "))
            .collect();
        assert_eq!(
            sections,
            [
                "NAME",
                "SYNOPSIS",
                "DESCRIPTION",
                "OPTIONS",
                "BENCHMARK",
                "\"BENCHMARK OPTIONS\"",
                "EXAMPLES",
                "ENVIRONMENT",
                "FILES",
                "\"EXIT STATUS\"",
                "\"SEE ALSO\""
            ]
        );
        assert_eq!(page.matches(".ds Aq").count(), 2, "one preamble");
        assert!(!page.contains("[\\fB\\-1 "), "clap's synopsis of -1");
    }

    #[test]
    fn exit_status_names_every_outcome() {
        let codes: Vec<u8> = EXIT_STATUS.iter().map(|(c, _)| *c).collect();
        for outcome in [
            Outcome::Success,
            Outcome::NoMatch,
            Outcome::Errors,
            Outcome::Usage,
            Outcome::Interrupted,
        ] {
            assert!(codes.contains(&outcome.code()), "{outcome:?}");
        }
    }

    #[test]
    fn benchmark_options_are_in_the_page() {
        let page = page();
        for option in [
            "\\-\\-methods",
            "\\-\\-runs",
            "\\-\\-export\\-json",
            "\\-\\-warmup",
        ] {
            assert!(page.contains(option), "{option}");
        }
    }
}
