//! Windows' words for the help, the manual and the completions: its places (%APPDATA%,
//! %LOCALAPPDATA%, git for Windows' home), what hides an entry there, and its own programs and
//! quoting in the examples (cmd's and PowerShell's: no single quotes, no `\;`).

pub const CONFIG: &str = r"%APPDATA%\ffind\config";
pub const CONFIG_LISTED: &str = r"%APPDATA%\ffind\config";
pub const GLOBAL_IGNORE: &str = r"%APPDATA%\ffind\ignore";
pub const FD_IGNORE: &str = r"%APPDATA%\fd\ignore";
pub const GIT_EXCLUDES: &str =
    r".config\git\ignore in git's home: %HOME%, else %HOMEDRIVE%%HOMEPATH%, else %USERPROFILE%";
pub const HIDDEN: &str = "names starting with a dot, and entries with the hidden attribute";
pub const NOT_REVEALED: &str = " (one hidden by its dot; never one with the hidden attribute)";
pub const SEPARATOR: &str = r"\";
pub const CACHE_DIR: &str = r"%FFIND_CACHE_DIR%, else %LOCALAPPDATA%\ffind)";
pub const NO_OWNERS: Option<(&str, &str)> = Some((
    " (refused on Windows)",
    "Refused on Windows, where files have no user and group ids.",
));
pub const NO_MPI: Option<(&str, &str)> = Some((
    " (refused on Windows)",
    "Refused on Windows: --mpi runs on Linux only.",
));
pub const NO_CACHE: Option<(&str, &str)> = Some((
    " (off on Windows)",
    "Off on Windows: --cache says so once and the search runs without the memo.",
));
pub const NO_MEMO: Option<(&str, &str)> = Some((
    "; the memo is off on Windows",
    "The memo is off on Windows (see --cache).",
));

/// Phrases of the help (clap's doc comments, written for Unix) and Windows' words for them:
/// its programs (ImageMagick's magick, tar, findstr, compact), its quoting (double quotes, which
/// cmd and PowerShell both take), `\` beside `/` in a glob, and no `owner` among --json-fields.
pub const PHRASES: &[(&str, &str)] = &[
    ("ffind -- '-foo'", "ffind -- -foo"),
    (
        r#"where "*" stops at "/" and "**" does not ("**/src/*.rs")"#,
        r#"where "*" stops at "\" and "/" and "**" does not ("**\src\*.rs")"#,
    ),
    (
        "(for xargs -0)",
        "(for a program that reads names ended by NUL)",
    ),
    ("--format '{/.}'", r#"--format "{/.}""#),
    ("not names for xargs", "not names for another program"),
    (
        r#", owner (uid, gid, and the names "user", "group" when known)"#,
        "",
    ),
    (
        r"(put -x last, or end it with \;)",
        "(put -x last, or end it with ;, which PowerShell takes quoted: ';')",
    ),
    (
        "Examples: ffind -e zip -x unzip; ffind -e jpg -x convert {} {.}.png",
        r#"Examples: ffind -e zip -x tar -xf; ffind -e jpg -x magick "{}" "{.}.png""#,
    ),
    (
        "Examples: ffind -e rs -X wc -l; ffind -g 'test_*.py' -X vim",
        r#"Examples: ffind -e txt -X findstr /n TODO; ffind -g "test_*.py" -X code"#,
    ),
    ("--batch-size 100 -X gzip", "--batch-size 100 -X compact /c"),
    (
        "FZF_DEFAULT_COMMAND='ffind --order breadth'",
        "set FZF_DEFAULT_COMMAND=ffind --order breadth",
    ),
    ("--owner '!john:students'", r#"--owner "!john:students""#),
    ("sent to /dev/null", "sent to NUL"),
    (
        "-H ~/src` times `ffind -e rs -H . ~/src`",
        r"-H C:\src` times `ffind -e rs -H . C:\src`",
    ),
    ("--runs 5 ~/src", r"--runs 5 C:\src"),
    (
        "(ffind '^ffind$' --explain target/release/ffind)",
        r#"(ffind "^ffind$" --explain target\release\ffind.exe)"#,
    ),
    ("a slip (-e '*.rs')", r#"a slip (-e "*.rs")"#),
];

/// Where a package installs the documents the manual's SEE ALSO names: no package here.
pub const INSTALLED_DOCS: Option<&str> = None;

/// EXAMPLES: a command line, as cmd and PowerShell both take it, and what it does.
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
        r"ffind -u . C:\Windows",
        r"Every entry below C:\Windows, hidden and ignored ones too (like dir /s /b /a C:\Windows).",
    ),
    (
        r#"ffind "^Makefile$" C:\src"#,
        r"The files named Makefile below C:\src, by regular expression.",
    ),
    (
        r#"ffind -g "*.py" tests"#,
        "The Python files below tests, by glob: it must match the whole name.",
    ),
    (
        "ffind -E node_modules -e js",
        "JavaScript files, skipping node_modules and what it holds.",
    ),
    (
        "ffind -e log -X cmd /c del",
        "Remove the .log files, with one of cmd's del for all of them.",
    ),
    (
        r#"ffind -e jpg -x magick "{}" "{.}.png""#,
        "Convert each JPEG file to PNG with ImageMagick, one command per file (the placeholders \
         quoted: bare, PowerShell would take {} for a script block).",
    ),
    (
        "ffind -e txt -X findstr /n TODO",
        "The lines of all text files that say TODO, with one findstr.",
    ),
    (
        "ffind --json -t f --json-fields size,mtime",
        "One JSON object per file and line, with its size and modification time.",
    ),
    (
        "ffind --order breadth -t f | fzf",
        "Files nearest first, so that those next to you are on fzf's first screen.",
    ),
];

/// ENVIRONMENT: every variable ffind reads on Windows.
pub const ENVIRONMENT: &[(&str, &str)] = &[
    (
        "LS_COLORS",
        "The colors of results, as ls reads them; unset, fd's default theme.",
    ),
    (
        "NO_COLOR",
        "Set and not empty: no colors with --color=auto (the default); --color=always still \
         colors.",
    ),
    (
        "TERM",
        "Set: colors with --color=auto on a console that cannot switch on escape sequences \
         itself (mintty and other terminals read them), as fd does.",
    ),
    (
        "FFIND_CONFIG_PATH",
        "The config file of default options to read instead of %APPDATA%\\ffind\\config (see \
         FILES); set but empty, or NUL, none.",
    ),
    (
        "APPDATA, LOCALAPPDATA",
        "Where the config file and the global ignore file (APPDATA: ffind\\config, \
         ffind\\ignore, fd\\ignore) and --cache's memo (LOCALAPPDATA: ffind) are, as fd finds \
         them; unset, AppData\\Roaming and AppData\\Local in the home directory.",
    ),
    (
        "FFIND_CACHE_DIR",
        "Where --cache-list and --cache-clear look for the memo when --cache-dir does not say; \
         unset or empty, %LOCALAPPDATA%\\ffind. --cache itself is off on Windows.",
    ),
    (
        "HOME, HOMEDRIVE, HOMEPATH, USERPROFILE",
        "The home directory of git's files (.gitconfig, .config\\git\\ignore), as git for \
         Windows finds it: HOME, else HOMEDRIVE and HOMEPATH joined when that is a directory \
         (not System32), else USERPROFILE, which is also where AppData is when APPDATA or \
         LOCALAPPDATA is unset.",
    ),
    (
        "XDG_CONFIG_HOME",
        "Set and not empty: where git's global excludes are looked for (git\\ignore in it), as \
         git does; the config file and the global ignore file stay in %APPDATA%.",
    ),
    (
        "GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM, GIT_CONFIG_NOSYSTEM",
        "Read as git reads them, to find the global git excludes (core.excludesFile).",
    ),
    (
        "MSYSTEM",
        "Set and not empty (MSYS2, Git Bash): results are shown with '/' between their \
         components when --path-separator does not say, as fd does.",
    ),
    (
        "RUST_MIN_STACK",
        "The stack size of the ignore method's threads; unset, ffind sets what its other \
         threads use.",
    ),
];

/// FILES: what ffind reads besides the tree.
pub const FILES: &[(&str, &str)] = &[
    (
        r"%APPDATA%\ffind\config",
        "The config file of default options, one argument per line, read before the command \
         line (which wins); lines starting with '#' and blank lines are skipped. \
         %FFIND_CONFIG_PATH% names another; --no-config skips it.",
    ),
    (
        r"%APPDATA%\ffind\ignore",
        "The global ignore file, in .gitignore format, applied to every search; fd's, \
         %APPDATA%\\fd\\ignore, when ffind's does not exist. --no-global-ignore-file skips it.",
    ),
    (
        r".gitignore, .git\info\exclude, core.excludesFile",
        "git's ignore files, inside a git repository (see --no-ignore-vcs, --no-require-git); \
         core.excludesFile is found as git for Windows finds it (.gitconfig and \
         .config\\git\\config in git's home, see HOME; by default .config\\git\\ignore there). \
         The system-wide gitconfig below git's installation is not read.",
    ),
    (
        ".ignore, .fdignore, .ffindignore",
        "Ignore files in .gitignore format, in every directory (see --no-ignore).",
    ),
];

/// SEE ALSO.
pub const SEE_ALSO: &[&str] = &["fd(1)", "fzf(1)", "hyperfine(1)", "gitignore(5)"];
