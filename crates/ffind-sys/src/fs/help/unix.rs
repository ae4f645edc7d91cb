//! Unix's words for the help, the manual and the completions (Linux, macOS, the BSDs): its
//! places (the XDG directories, `/etc/gitconfig`), its programs in the examples. Linux's texts
//! are the committed completions and `docs/ffind.1`.

/// ffind's config file, in a sentence's parenthesis.
pub const CONFIG: &str = "$XDG_CONFIG_HOME/ffind/config (by default ~/.config/ffind/config)";
/// ffind's config file, in a list of places.
pub const CONFIG_LISTED: &str = "$XDG_CONFIG_HOME/ffind/config, by default ~/.config/ffind/config";
/// ffind's global ignore file, and fd's.
pub const GLOBAL_IGNORE: &str = "$XDG_CONFIG_HOME/ffind/ignore (by default ~/.config/ffind/ignore)";
pub const FD_IGNORE: &str = "$XDG_CONFIG_HOME/fd/ignore";
/// git's global excludes when `core.excludesFile` is not set.
pub const GIT_EXCLUDES: &str = "$XDG_CONFIG_HOME/git/ignore";
/// What hides an entry.
pub const HIDDEN: &str = "names starting with a dot";
/// What a `!` rule cannot reveal, after "shows a hidden entry even without -H".
pub const NOT_REVEALED: &str = "";
/// The separator printed between components.
pub const SEPARATOR: &str = "/";
/// Where the memo is, and what it must be.
pub const CACHE_DIR: &str = "$FFIND_CACHE_DIR, else $XDG_CACHE_HOME/ffind, else \
    ~/.cache/ffind). It must be the user's own directory, which no one else may write to, \
    and not a symbolic link; ffind creates it 0700";
/// What the system refuses of an option, after its short help, and as a paragraph of its
/// long help: nothing here.
pub const NO_OWNERS: Option<(&str, &str)> = None;
pub const NO_MPI: Option<(&str, &str)> = None;
pub const NO_CACHE: Option<(&str, &str)> = None;
/// The same for the memo's other options (--cache-dir, --cache-list, ...).
pub const NO_MEMO: Option<(&str, &str)> = None;

/// Phrases of the help (clap's, written for Unix) and the system's own words for them: none.
pub const PHRASES: &[(&str, &str)] = &[];

/// Where a package installs the documents the manual's SEE ALSO names.
pub const INSTALLED_DOCS: Option<&str> = Some("/usr/share/doc/ffind");

/// EXAMPLES: a command line, and what it does.
pub const EXAMPLES: &[(&str, &str)] = &[
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
pub const ENVIRONMENT: &[(&str, &str)] = &[
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
pub const FILES: &[(&str, &str)] = &[
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

/// SEE ALSO.
pub const SEE_ALSO: &[&str] = &[
    "fd(1)",
    "find(1)",
    "bfs(1)",
    "fzf(1)",
    "hyperfine(1)",
    "gitignore(5)",
    "dircolors(1)",
    "mpirun(1)",
];
