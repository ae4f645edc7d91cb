//! What only Windows has, run under Wine in CI: the hidden attribute (set with
//! `attrib +h`, as a user sets it) hides an entry as a leading dot does, and a `.gitignore`
//! negation does not reveal it (fd #2096); paths are printed with `\` (`--path-separator /`
//! gives `/`), search paths with a drive letter, verbatim (`\\?\`) ones and ones typed with `/`
//! print as typed, as fd prints them; paths longer than 260 characters are listed; a junction
//! or a directory link is a link, not entered without `-L`; `-x`/`-X` run `.cmd` and `.bat`
//! files (std runs them through cmd.exe) with their arguments intact (cmd.exe itself:
//! `windows_cmd.rs`); what ffind does not do there is refused or said once (`--owner`,
//! `--mpi`, `--cache`); a missing search path is an error naming it, with exit code 1, as
//! fd's. The comparison with fd's own Windows build is `fd_windows.rs`.

use std::fs;
use std::os::windows::fs::MetadataExt;
use std::process::{Command, Stdio};

use crate::fd_parity::{assert_everywhere, methods_agree};
use crate::fixture::{native, not_found, Run, Spawn, Tree};
use crate::methods::methods;

/// FILE_ATTRIBUTE_HIDDEN.
const HIDDEN: u32 = 0x2;
/// FILE_ATTRIBUTE_REPARSE_POINT: a junction or a symbolic link.
const REPARSE_POINT: u32 = 0x400;

/// Runs `command` quietly (no input, its output dropped): whether it succeeded.
pub fn succeeds_quietly(command: &mut Command) -> bool {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .output_ok()
        .status
        .success()
}

/// Runs `cmd /c LINE...` in the tree's root (cmd.exe's own commands: attrib, mklink), quietly;
/// whether it succeeded.
fn cmd(t: &Tree, line: &[&str]) -> bool {
    succeeds_quietly(
        Command::new("cmd")
            .arg("/c")
            .args(line)
            .current_dir(t.root()),
    )
}

/// Sets the hidden attribute of `rel` with `attrib +h`, as a user does, and checks that the
/// file system kept it (Wine keeps it in an extended attribute, `user.DOSATTRIB`).
pub fn hide(t: &Tree, rel: &str) {
    let path = t.root().join(rel);
    assert!(cmd(t, &["attrib", "+h", &native(rel)]), "attrib +h {rel}");
    let attributes = fs::symlink_metadata(&path).unwrap().file_attributes();
    assert!(
        attributes & HIDDEN != 0,
        "attrib +h {rel} left the attributes {attributes:#x}"
    );
}

/// A tree with entries hidden by attribute (a file, a directory with a file below it, a file
/// deeper down) and by a leading dot, beside visible ones.
fn hidden_tree() -> Tree {
    let t = Tree::new();
    t.files(&[
        "visible.txt",
        "secret.txt",
        "cloak/inside.txt",
        "dir/shown.txt",
        "dir/tucked.txt",
        ".dotfile",
    ]);
    hide(&t, "secret.txt");
    hide(&t, "cloak");
    hide(&t, "dir/tucked.txt");
    t
}

/// Every entry of [`hidden_tree`].
const EVERY_HIDDEN_ENTRY: [&str; 9] = [
    "visible.txt",
    "secret.txt",
    "cloak",
    "cloak/inside.txt",
    "dir",
    "dir/shown.txt",
    "dir/tucked.txt",
    ".dotfile",
    // The repository's, in the tests that make one.
    ".gitignore",
];

/// The hidden attribute hides an entry, and what is below a hidden directory, as a leading dot
/// does, under every method: `-H` and `-u` show them, `--no-hidden` takes `-H` back.
#[test]
fn the_hidden_attribute_hides_as_a_leading_dot_does() {
    let t = hidden_tree();
    let visible = ["visible.txt", "dir", "dir/shown.txt"];
    assert_everywhere(&t, &[], &visible);
    let all = &EVERY_HIDDEN_ENTRY[..8];
    assert_everywhere(&t, &["-H"], all);
    assert_everywhere(&t, &["-u"], all);
    assert_everywhere(&t, &["-H", "--no-hidden"], &visible);
    // A hidden search path is searched: only what is below it counts.
    assert_everywhere(&t, &[".", "cloak"], &["cloak/inside.txt"]);
    // A pattern that names a hidden file finds it only with -H.
    assert_everywhere(&t, &["secret"], &[]);
    assert_everywhere(&t, &["-H", "secret"], &["secret.txt"]);
}

/// `--explain` says that the system marks an entry hidden, and that what is below a hidden
/// directory is not searched; its verdict is the search's, under every method.
#[test]
fn explain_names_the_hidden_attribute() {
    let t = hidden_tree();
    let paths = ["secret.txt", r"cloak\inside.txt", "visible.txt"];
    let run = t.run(&[&["--explain"][..], &paths].concat());
    let text = String::from_utf8_lossy(&run.stdout).replace("\r\n", "\n");
    for want in [
        "secret.txt: not printed\n  secret.txt: hidden: the system marks it so (-H shows it)",
        r"cloak\inside.txt: not printed",
        "  cloak: hidden: the system marks it so (-H shows it)",
        "visible.txt: printed",
    ] {
        assert!(
            text.contains(want),
            "{want:?} not in:\n{text}{}",
            run.stderr
        );
    }
    for m in methods() {
        let printed = String::from_utf8_lossy(&t.run(&["--method", m]).stdout).into_owned();
        for path in paths {
            let says = text.contains(&format!("{path}: printed"));
            assert_eq!(printed.lines().any(|l| l == path), says, "{m}: {path}");
        }
    }
}

/// A `.gitignore` negation (`!name`) in a repository does not reveal an entry hidden by its
/// attribute without `-H` (fd #2096: fd shows it); with `-H` it is shown, and an ignored one
/// stays ignored.
#[test]
fn a_gitignore_negation_does_not_reveal_an_attribute_hidden_entry() {
    let t = hidden_tree();
    assert!(t.git_init("."));
    t.write(
        ".gitignore",
        "*.txt\n!secret.txt\n!tucked.txt\n!visible.txt\n!cloak/\n!inside.txt\n",
    );
    assert_everywhere(&t, &[], &["visible.txt", "dir"]);
    assert_everywhere(&t, &["-t", "f", "-E", ".git"], &["visible.txt"]);
    let with_hidden: Vec<&str> = EVERY_HIDDEN_ENTRY
        .into_iter()
        .filter(|p| *p != "dir/shown.txt")
        .collect();
    assert_everywhere(&t, &["-H", "-E", ".git"], &with_hidden);
    // Ignored and hidden: -H alone does not show it.
    t.write(".gitignore", "secret.txt\n");
    assert_everywhere(
        &t,
        &["-H", "-E", ".git", "-t", "f"],
        &[
            "visible.txt",
            "cloak/inside.txt",
            "dir/shown.txt",
            "dir/tucked.txt",
            ".dotfile",
            ".gitignore",
        ],
    );
}

/// Paths are printed with `\` between names, a directory with a `\` after it, as fd prints
/// them; `--path-separator /` (or any other) replaces each.
#[test]
fn paths_are_printed_with_backslashes_and_path_separator_replaces_them() {
    let t = Tree::new();
    t.files(&["a/b/c.txt", "top.txt"]);
    let run = methods_agree(&t, &[]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(run.sorted(), ["a\\", "a\\b\\", "a\\b\\c.txt", "top.txt"]);
    for sep in ["/", "#"] {
        let run = methods_agree(&t, &["--path-separator", sep]).unwrap_or_else(|e| panic!("{e}"));
        let want: Vec<String> = ["a/", "a/b/", "a/b/c.txt", "top.txt"]
            .iter()
            .map(|p| p.replace('/', sep))
            .collect();
        assert_eq!(run.sorted(), want, "--path-separator {sep}");
    }
    // Placeholders and -0 too.
    let run = t.run(&["-0", "--path-separator", "/", "-t", "f", "c"]);
    assert_eq!(run.stdout, b"./a/b/c.txt\0");
    let run = t.run(&["--format", "{//}|{/}|{.}", "c"]);
    assert_eq!(run.stdout, b"a\\b|c.txt|a\\b\\c\n");
}

/// `--full-path` and `--exclude` take either separator (fd matches `-p` against `\` paths
/// only, and reads `\` in `-E` as an escape): a regex or a glob on the full path written with
/// `/` or with `\` finds the same entries, and an exclude written either way skips them.
#[test]
fn full_path_and_exclude_take_either_separator() {
    let t = Tree::new();
    t.files(&["sub/deep/d.rs", "sub/s.txt", "x/in_x.txt"]);
    for pattern in ["sub/deep", "sub\\\\deep"] {
        assert_everywhere(&t, &["-p", pattern], &["sub/deep", "sub/deep/d.rs"]);
    }
    for glob in ["**/sub/deep/*", "**\\sub\\deep\\*"] {
        assert_everywhere(&t, &["-p", "-g", glob], &["sub/deep/d.rs"]);
    }
    for exclude in ["sub/deep", "sub\\deep"] {
        assert_everywhere(
            &t,
            &["-E", exclude],
            &["sub", "sub/s.txt", "x", "x/in_x.txt"],
        );
    }
}

/// A search path with a drive letter (`C:\...`, as the current directory gives it), one written
/// with `/`, and a verbatim one (`\\?\C:\...`) are printed as typed, the names below them
/// joined with `\` (fd: the search path as given, then `\`-joined names).
#[test]
fn drive_letter_and_verbatim_search_paths_print_as_typed() {
    let t = Tree::new();
    t.files(&["sub/f.txt"]);
    let root = t.root();
    let root = root.to_str().unwrap();
    assert_eq!(root.as_bytes()[1], b':', "{root}: a drive letter");
    let drive = format!("{root}\\sub");
    let typed_with_slashes = drive.replace('\\', "/");
    let verbatim = format!("\\\\?\\{drive}");
    for typed in [&drive, &typed_with_slashes, &verbatim] {
        let run = methods_agree(&t, &["-t", "f", ".", typed]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(run.code, 0, "{typed}: {}", run.stderr);
        assert_eq!(run.sorted(), [format!("{typed}\\f.txt")], "{typed}");
    }
    // The current directory's drive and path, as a Windows program gets it (under Wine, the
    // tests' own directory is on Z:, where Wine shows the Linux root).
    let here = std::env::current_dir().unwrap();
    let here = here.to_str().unwrap();
    assert_eq!(here.as_bytes()[1], b':', "{here}");
    let run = t.run(&["-d", "1", "-t", "d", "^tests$", here]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.sorted(), [format!("{here}\\tests\\")]);
    // -a makes a relative search path absolute on the drive of the working directory.
    let run = t.run(&["-a", "-t", "f", ".", "sub"]);
    assert_eq!(run.sorted(), [format!("{root}\\sub\\f.txt")]);
}

/// Paths longer than 260 characters (MAX_PATH) below the search path are listed, relative and
/// absolute, under every method.
#[test]
fn paths_longer_than_max_path_are_listed() {
    let t = Tree::new();
    let name = "d".repeat(60);
    let deep: Vec<String> = (1..=6).map(|i| vec![name.as_str(); i].join("/")).collect();
    let file = format!("{}/end.txt", deep[5]);
    t.files(&[&file]);
    assert!(file.len() > 300, "{}", file.len());
    let mut want: Vec<&str> = deep.iter().map(String::as_str).collect();
    want.push(&file);
    assert_everywhere(&t, &[], &want);
    let run = methods_agree(&t, &["-a", "end"]).unwrap_or_else(|e| panic!("{e}"));
    let root = t.root();
    assert_eq!(
        run.sorted(),
        [format!("{}\\{}", root.display(), native(&file))]
    );
}

/// A directory link (`std::os::windows::fs::symlink_dir`) and a junction (`mklink /J`) are
/// links: `-t l` lists them, the walk does not enter them without `-L`, and does with it.
/// Where neither can be made (Wine 8 reports a link made and makes none; Windows wants
/// developer mode or a privilege for links), says so and stops.
#[test]
fn a_junction_or_a_directory_link_is_a_link_not_entered_without_follow() {
    let t = Tree::new();
    t.files(&["real/inner.txt"]);
    let made = |rel: &str| {
        fs::symlink_metadata(t.root().join(rel))
            .is_ok_and(|m| m.file_attributes() & REPARSE_POINT != 0)
    };
    let mut links = Vec::new();
    if std::os::windows::fs::symlink_dir("real", t.root().join("link")).is_ok() && made("link") {
        links.push("link");
    }
    if cmd(&t, &["mklink", "/J", "junction", "real"]) && made("junction") {
        links.push("junction");
    }
    if links.is_empty() {
        eprintln!(
            "skipped: no directory link or junction can be made here (Wine 8 makes none; \
             Windows needs developer mode for links)"
        );
        return;
    }
    let mut plain = vec!["real", "real/inner.txt"];
    plain.extend(&links);
    assert_everywhere(&t, &[], &plain);
    assert_everywhere(&t, &["-t", "l"], &links);
    let below: Vec<String> = links.iter().map(|l| format!("{l}/inner.txt")).collect();
    let mut followed: Vec<&str> = vec!["real/inner.txt"];
    followed.extend(below.iter().map(String::as_str));
    assert_everywhere(&t, &["-L", "-t", "f"], &followed);
}

/// Under Wine, a Unix symbolic link to a directory (made on the Linux side by .ci/windows.sh,
/// since Wine 8 makes no link itself; `FFIND_WINE_LINKS` names the tree) is a reparse point
/// with tag 0, which Windows never has, and a link to a file is the file: every method takes
/// them for what they lead to, as std, the walker crates and fd's Windows build do, with or
/// without `-L`. Says it is skipped where no such tree was made.
#[test]
fn unix_links_under_wine_are_what_they_lead_to_under_every_method() {
    let Some(dir) = std::env::var_os("FFIND_WINE_LINKS") else {
        eprintln!("skipped: FFIND_WINE_LINKS not set (.ci/windows.sh makes the tree)");
        return;
    };
    let dir = crate::fixture::host_path(dir);
    let run = |args: &[&str]| {
        let out = Command::new(crate::fixture::bin())
            .args(args)
            .current_dir(&dir)
            .stdin(Stdio::null())
            .output_ok();
        let mut lines: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_owned)
            .collect();
        lines.sort();
        (
            lines,
            String::from_utf8_lossy(&out.stderr).into_owned(),
            out.status.code(),
        )
    };
    let every = [
        "flink",
        "link\\",
        "link\\in\\",
        "link\\in\\f",
        "real\\",
        "real\\in\\",
        "real\\in\\f",
    ];
    for method in methods() {
        let m = format!("--method={method}");
        for follow in [&[][..], &["-L"]] {
            let args: Vec<&str> = ["-u", m.as_str()].iter().chain(follow).copied().collect();
            let (all, err, code) = run(&args);
            assert_eq!(all, every, "{args:?}: {err}");
            assert_eq!((err.as_str(), code), ("", Some(0)), "{args:?}");
        }
        let (links, err, _) = run(&["-u", "-t", "l", &m]);
        assert!(links.is_empty(), "{method}: {links:?} {err}");
    }
}

/// A directory holding `show.cmd` and `show.bat`, which print their first two arguments as
/// cmd.exe sees them, one line each (`[%~1] [%~2]`), and a PATH for ffind that has it first.
fn tools(t: &Tree) -> std::ffi::OsString {
    let tools = t.home().join("tools");
    fs::create_dir_all(&tools).unwrap();
    for script in ["show.cmd", "show.bat"] {
        fs::write(tools.join(script), "@echo [%~1] [%~2]\r\n").unwrap();
    }
    let mut path = std::ffi::OsString::from(tools.as_os_str());
    path.push(";");
    path.push(std::env::var_os("PATH").unwrap_or_default());
    path
}

/// Runs ffind with `args` and `PATH` set to `path`; the CR that cmd.exe's `echo` ends each
/// line with is taken off.
///
/// Wine's cmd now and then fails to start a second cmd under load (its `CreateProcessW`
/// fails, and it says "Can't recognize 'cmd ...'", the words of Wine's cmd only: Windows
/// says "is not recognized"), which failed one CI run (with the qemu release build beside
/// it); such a run is made again, at most twice. Anything ffind says is never retried.
pub fn run_with_path(t: &Tree, path: &std::ffi::OsStr, args: &[&str]) -> Run {
    let mut attempts = 0;
    loop {
        let mut c = t.cmd(args);
        c.env("PATH", path).stdin(Stdio::null());
        let mut run = Run::from(c.output_ok());
        run.stdout.retain(|&b| b != b'\r');
        attempts += 1;
        let wine_failed_to_start_cmd =
            run.stderr.starts_with("Can't recognize 'cmd ") && run.stderr.lines().count() == 1;
        if !wine_failed_to_start_cmd || attempts == 3 {
            return run;
        }
        eprintln!("Wine's cmd failed to start a second cmd; run again: {args:?}");
    }
}

/// `-x` and `-X` run a `.cmd` or `.bat` file found on PATH by its name with its extension, as
/// fd does (Rust's Command runs it through cmd.exe, its arguments quoted for it): each result,
/// and an argument beginning with `-`, reach it intact; a result that begins with `-` gets the
/// `./` that keeps it from reading as an option.
#[test]
fn exec_runs_cmd_and_bat_files_with_their_arguments_intact() {
    let t = Tree::new();
    t.files(&["a.txt", "sub/b.txt", "sp ace.txt", "-dash.txt"]);
    let path = tools(&t);
    for script in ["show.cmd", "show.bat"] {
        for j in ["1", "8"] {
            let run = run_with_path(&t, &path, &["-j", j, "-e", "txt", "-x", script, "-n", "{}"]);
            assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{script} -j {j}");
            let mut want: Vec<String> = ["./a.txt", "./sub/b.txt", "./sp ace.txt", "./-dash.txt"]
                .iter()
                .map(|p| format!("[-n] [{}]", native(p)))
                .collect();
            want.sort();
            assert_eq!(run.sorted(), want, "{script} -x -j {j}");
        }
        // -X: one command line; its first two arguments are the fixed one and a result.
        let run = run_with_path(&t, &path, &["-e", "txt", "-X", script, "--flag"]);
        assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{script} -X");
        let lines = run.sorted();
        assert_eq!(lines.len(), 1, "{script} -X: {lines:?}");
        assert!(lines[0].starts_with("[--flag] ["), "{script} -X: {lines:?}");
        // The file name placeholder of a name that begins with '-' is guarded too.
        let run = run_with_path(&t, &path, &["dash", "-x", script, "{/}", "{//}"]);
        assert_eq!(run.sorted(), ["[./-dash.txt] [.]"], "{script} {{/}}");
    }
    // Without its extension it is not found (Rust's Command does not try PATHEXT; neither
    // does fd), and that is said once, with exit code 1.
    let run = run_with_path(&t, &path, &["-e", "txt", "-x", "show", "{}"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.stderr, "ffind: show: command not found\n");
}

/// A command's exit code counts as on Unix: a `.cmd` that exits 1 makes ffind's status 1.
#[test]
fn a_failing_cmd_file_makes_exit_status_1() {
    let t = Tree::new();
    t.files(&["a.txt", "b.txt"]);
    let path = tools(&t);
    let tools = t.home().join("tools");
    fs::write(tools.join("fail.cmd"), "@exit /b 1\r\n").unwrap();
    fs::write(tools.join("pass.cmd"), "@exit /b 0\r\n").unwrap();
    let run = run_with_path(&t, &path, &["-x", "fail.cmd"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let run = run_with_path(&t, &path, &["-X", "pass.cmd"]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
}

/// `--owner` is refused with a message saying why, before any walk, and exit code 2 (fd has no
/// `--owner` on Windows: clap refuses it there).
#[test]
fn owner_is_refused_with_a_clear_message() {
    let t = Tree::new();
    t.files(&["a"]);
    for args in [&["--owner", "root"][..], &["-o", ":users"], &["-o", "!0"]] {
        let run = t.run(args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}");
        assert_eq!(
            run.stderr,
            format!(
                "ffind: --owner is not supported on Windows: files there have no user and group \
                 ids (asked for '{}')\n",
                args[1]
            ),
            "{args:?}"
        );
    }
}

/// `--mpi` is refused, saying where it runs.
#[test]
fn mpi_is_refused_with_a_clear_message() {
    let t = Tree::new();
    t.files(&["a"]);
    let run = t.run(&["--mpi"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stdout.is_empty());
    assert_eq!(
        run.stderr,
        "ffind: --mpi is not supported on Windows: it runs on Linux only (docs/SCALE.md)\n"
    );
}

/// `--cache` (off on Windows) says so once, however often it is given, and the search runs
/// without it; from the config file it says nothing.
#[test]
fn cache_says_once_that_it_is_off_and_the_search_runs() {
    let t = Tree::new();
    t.files(&["a", "d/b"]);
    for args in [&["--cache"][..], &["--cache", "--cache", "-j", "8"]] {
        let run = t.run(args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        assert_eq!(
            run.stderr,
            "ffind: --cache is not supported on Windows: searching without the memo (see \
             docs/CACHE.md)\n",
            "{args:?}"
        );
        run.assert_listing(&["a", "d/", "d/b"]);
    }
    let config = t.home().join(".config").join("ffind");
    fs::create_dir_all(&config).unwrap();
    fs::write(config.join("config"), "--cache\n").unwrap();
    t.run(&[]).assert_paths(&["a", "d/", "d/b"]);
    t.run(&["--no-cache"]).assert_paths(&["a", "d/", "d/b"]);
}

/// A missing search path is an error naming it, with exit code 1 (as fd: "Search path 'nope'
/// is not a directory.", exit 1); the other search paths are still searched.
#[test]
fn a_missing_search_path_is_named_with_exit_code_1() {
    let t = Tree::new();
    t.files(&["d/f"]);
    for m in methods() {
        let run = t.run(&["--method", m, ".", "nope"]);
        assert_eq!(run.code, 1, "{m}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{m}");
        assert_eq!(run.stderr, format!("ffind: nope: {}\n", not_found()), "{m}");
        let run = t.run(&["--method", m, ".", "nope", "d"]);
        assert_eq!(run.code, 1, "{m}: {}", run.stderr);
        assert_eq!(run.sorted(), [native("d/f")], "{m}");
    }
}

/// The global ignore file is `%APPDATA%\ffind\ignore` (fd's: `%APPDATA%\fd\ignore`); a relative
/// `%APPDATA%` is not used (as a relative `$XDG_CONFIG_HOME` is not on Unix), so that a tree's
/// own files cannot hide its entries from a search run in it.
#[test]
fn the_global_ignore_file_is_in_appdata_and_a_relative_appdata_is_not_used() {
    let t = Tree::new();
    t.files(&["a.log", "b.txt", "c.tmp"]);
    let appdata = t.home().join("roaming");
    fs::create_dir_all(appdata.join("ffind")).unwrap();
    fs::write(appdata.join("ffind").join("ignore"), "*.log\n").unwrap();
    let mut c = t.cmd(&["-t", "f"]);
    c.env("APPDATA", &appdata);
    crate::fixture::Run::from(c.output_ok()).assert_paths(&["b.txt", "c.tmp"]);
    // fd's file when ffind has none.
    fs::remove_dir_all(appdata.join("ffind")).unwrap();
    fs::create_dir_all(appdata.join("fd")).unwrap();
    fs::write(appdata.join("fd").join("ignore"), "*.tmp\n").unwrap();
    let mut c = t.cmd(&["-t", "f"]);
    c.env("APPDATA", &appdata);
    crate::fixture::Run::from(c.output_ok()).assert_paths(&["a.log", "b.txt"]);
    // Relative: not used, whatever the tree holds there.
    t.write(".conf/ffind/ignore", "*.txt\n");
    for relative in [".conf", ".\\.conf"] {
        let mut c = t.cmd(&["-t", "f"]);
        c.env("APPDATA", relative);
        let run = crate::fixture::Run::from(c.output_ok());
        run.assert_paths(&["a.log", "b.txt", "c.tmp"]);
    }
}

/// A rule on paths (`src/exec`) in an ignore file outside the tree matches
/// as in the tree's own `.gitignore` (and as fd.exe matches it): in `--ignore-file`,
/// `%APPDATA%\ffind\ignore`, `%APPDATA%\fd\ignore`, and git's global excludes under
/// `--no-require-git`; the walk joins with `\`, and those files were given the path so.
#[test]
fn path_rules_of_ignore_files_outside_the_tree_match() {
    let t = Tree::new();
    t.files(&["src/exec/a.rs", "src/exec/sub/b.rs", "src/c.rs", "d.rs"]);
    let outside = t.home().join("ign.txt");
    fs::write(&outside, "src/exec\n").unwrap();
    let want = ["d.rs", "src/c.rs"];
    let run = t.run(&["--ignore-file", outside.to_str().unwrap(), "-e", "rs"]);
    run.assert_paths(&want);
    let config = t.home().join(".config");
    for (file, args) in [
        (config.join("ffind").join("ignore"), &["-e", "rs"][..]),
        (config.join("fd").join("ignore"), &["-e", "rs"]),
        (
            config.join("git").join("ignore"),
            &["--no-require-git", "-e", "rs"],
        ),
    ] {
        fs::create_dir_all(file.parent().unwrap()).unwrap();
        fs::write(&file, "src/exec\n").unwrap();
        t.run(args).assert_paths(&want);
        // Anchored, and a directory rule, the same.
        fs::write(&file, "/src/exec/\n").unwrap();
        t.run(args).assert_paths(&want);
        fs::remove_file(&file).unwrap();
    }
    // Every method reads them alike.
    for m in methods() {
        let run = t.run(&[
            "--method",
            m,
            "--ignore-file",
            outside.to_str().unwrap(),
            "-e",
            "rs",
        ]);
        run.assert_paths(&want);
    }
}

/// `-t x` finds what fd.exe finds (its faccess crate's rule): a file that
/// opens for execution whose name has no extension or `exe`, `com`, `bat` or `cmd` written in
/// lower case (`PATHEXT` unread; `UPPER.EXE` is not one), under every method; a directory only
/// with `-t d` as well.
#[test]
fn executables_are_found_by_extension_as_fd_finds_them() {
    let t = Tree::new();
    t.files(&[
        "run.bat",
        "script.cmd",
        "tool.exe",
        "old.com",
        "noext",
        ".profile",
        "notes.txt",
        "UPPER.EXE",
        "x.ps1",
        "bin/inner.exe",
        "bin/inner.dll",
    ]);
    let want = [
        "bin/inner.exe",
        "noext",
        "old.com",
        "run.bat",
        "script.cmd",
        "tool.exe",
    ];
    for m in methods() {
        t.run(&["--method", m, "-t", "x"]).assert_paths(&want);
        let mut hidden = want.to_vec();
        hidden.push(".profile");
        t.run(&["--method", m, "-H", "-t", "x"])
            .assert_paths(&hidden);
        let mut dirs = want.to_vec();
        dirs.push("bin/");
        t.run(&["--method", m, "-t", "x", "-t", "d"])
            .assert_listing(&dirs);
    }
}

/// A `/` in a pattern is taken, as fd.exe takes it (its check is for `\`):
/// `-g '**/*.rs'` matches names, exit 0; a pattern with `\` that names a directory is refused
/// as fd.exe refuses it (exit 2 here, fd's 1: docs/DIFFERENCES.md).
#[test]
fn a_slash_in_a_pattern_is_taken_and_a_backslash_directory_refused() {
    let t = Tree::new();
    t.files(&["a.rs", "src/b.rs", "src/sub/c.rs", "x.txt"]);
    t.run(&["-g", "**/*.rs"])
        .assert_paths(&["a.rs", "src/b.rs", "src/sub/c.rs"]);
    let run = t.run(&["src/b"]);
    assert_eq!((run.code, run.stdout.len()), (0, 0), "{}", run.stderr);
    t.run(&["-p", "src/b"]).assert_paths(&["src/b.rs"]);
    let run = t.run(&["src\\sub"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with("ffind: the search pattern 'src\\sub' contains a path separator ('\\')"),
        "{}",
        run.stderr
    );
    // A '\' that names no directory is a regex's escape.
    t.run(&["\\.rs$"])
        .assert_paths(&["a.rs", "src/b.rs", "src/sub/c.rs"]);
}

/// A program that cannot be started is said to be so, with the system's
/// why (here a text file, which is no program: Wine's "Bad EXE format"), exit 1, once per
/// command line that failed; a start that fails for a passing reason (Wine's
/// ERROR_INTERNAL_ERROR) is tried again (the unit tests of exec/children.rs and
/// exec/sys/windows.rs).
#[test]
fn a_program_that_cannot_start_is_said_to_have_failed_to_start() {
    let t = Tree::new();
    t.write("notes.txt", "not a program\r\n").files(&["b.txt"]);
    for (args, lines) in [
        (&["-e", "txt", "-X", "./notes.txt"][..], 1),
        (&["-e", "txt", "-j", "1", "-x", "./notes.txt"], 2),
    ] {
        let run = t.run(args);
        assert_eq!(run.code, 1, "{args:?}: {}", run.stderr);
        assert_eq!(
            run.stderr.lines().count(),
            lines,
            "{args:?}: {}",
            run.stderr
        );
        for line in run.stderr.lines() {
            assert!(
                line.starts_with("ffind: ./notes.txt: could not be started: ")
                    && line.len() > "ffind: ./notes.txt: could not be started: ".len(),
                "{args:?}: {line}"
            );
        }
    }
}

/// What ffind.exe writes with `args` (`--help`, `--gen-man`, ...), which must succeed quietly.
fn written(t: &Tree, args: &[&str]) -> String {
    let run = t.run(args);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{args:?}");
    String::from_utf8(run.stdout).unwrap()
}

/// The manual's roff as it reads: a backslash is written \\, a dash \-, a quote \*(Aq.
fn unroffed(text: &str) -> String {
    text.replace(r"\-", "-")
        .replace(r"\*(Aq", "'")
        .replace(r"\\", r"\")
}

/// `--help`, `-h`, the manual and the PowerShell completion's descriptions
/// name what Windows does, from one source (cli/help.rs on fs::help): the config file and
/// the ignore files in %APPDATA%, the memo in %LOCALAPPDATA% (and --cache off), the hidden
/// attribute, `\` as the separator, --owner and --mpi refused; nothing of Unix's places.
#[test]
fn the_help_says_what_windows_does() {
    let t = Tree::new();
    let out = |args: &[&str]| written(&t, args);
    let long = out(&["--help"]);
    let man = out(&["--gen-man"]);
    for (what, text) in [("--help", &long), ("--gen-man", &man)] {
        // Lines are wrapped.
        let text = unroffed(text);
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        for want in [
            r"%APPDATA%\ffind\config",
            "%FFIND_CONFIG_PATH%",
            "with the hidden attribute",
            r".config\git\ignore in git's home",
            "Refused on Windows, where files have no user and group ids",
            "Refused on Windows: --mpi runs on Linux only",
            "Off on Windows",
        ] {
            assert!(text.contains(want), "{what} lacks {want:?}");
        }
        // The manual shows no text for an option with a short help only (clap_mangen's way,
        // on every system): these are --help's.
        if what == "--help" {
            for want in [
                r"%APPDATA%\ffind\ignore, or fd's, %APPDATA%\fd\ignore",
                r"%LOCALAPPDATA%\ffind",
                r#"instead of "\" between"#,
            ] {
                assert!(text.contains(want), "{what} lacks {want:?}");
            }
        }
        for unix in ["~/.config", "~/.cache", "$XDG_", "0700", "$FFIND_"] {
            assert!(!text.contains(unix), "{what} says {unix:?}");
        }
    }
    let short = out(&["-h"])
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for want in [
        "Owned by this user and/or group (refused on Windows)",
        "(off on",
    ] {
        assert!(short.contains(want), "-h lacks {want:?}:\n{short}");
    }
    let ps = out(&["--gen-completions", "powershell"]);
    assert!(
        ps.contains(r"%APPDATA%\ffind\ignore"),
        "the PowerShell completion"
    );
    assert!(
        !ps.contains("$XDG_"),
        "the PowerShell completion says $XDG_"
    );
}

/// Every text ffind.exe writes about itself (`--help`, `-h`, `--bench --help`, the manual and
/// the five completion scripts) speaks Windows: no Unix program or place in its examples
/// (`convert`, `wc`, `vim`, `gzip`, `unzip`, `xargs -0`, `~/src`, `/dev/null`, `/usr`,
/// `/etc/gitconfig`, a Unix shell's `\;` and single quotes), no Unix-only variable in the
/// manual's ENVIRONMENT, no `owner` among --json-fields' values; Windows' own programs and
/// places instead, and each of the memo's options saying that the memo is off.
#[test]
fn every_text_names_windows_programs_and_places() {
    let t = Tree::new();
    let out = |args: &[&str]| unroffed(&written(&t, args));
    let mut texts = vec![
        ("--help", out(&["--help"])),
        ("-h", out(&["-h"])),
        ("--bench --help", out(&["--bench", "--help"])),
        ("--gen-man", out(&["--gen-man"])),
    ];
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        texts.push((shell, out(&["--gen-completions", shell])));
    }
    let unix = [
        "-x convert",
        "-x unzip",
        "-X wc",
        "-X vim",
        "-X gzip",
        "xargs",
        "~/",
        "/dev/null",
        "/usr",
        "/etc/",
        "$XDG",
        "$HOME",
        r"with \;",
        "'-foo'",
        "'{/.}'",
        "'test_*.py'",
        "'!john",
        "='ffind",
        "find /usr",
        "dircolors",
        "WSL_DISTRO_NAME",
        "OMPI_",
        "XDG_CACHE_HOME",
    ];
    for (what, text) in &texts {
        // A Unix shell's script redirects to its own /dev/null (Git Bash, MSYS2 and Cygwin,
        // where those shells run on Windows, have one); PowerShell's names none.
        let unix_shell = ["bash", "zsh", "fish", "elvish"].contains(what);
        for word in unix.iter().filter(|w| !(unix_shell && **w == "/dev/null")) {
            assert!(!text.contains(word), "{what} says {word:?}");
        }
    }
    let [help, _, bench, man] =
        [0, 1, 2, 3].map(|i| texts[i].1.split_whitespace().collect::<Vec<_>>().join(" "));
    for want in [
        r#"-x magick "{}" "{.}.png""#,
        "-x tar -xf",
        "-X findstr /n TODO",
        "-X compact /c",
        r#"("**\src\*.rs")"#,
        "[possible values: size, mtime, mode, nlink, inode]",
        "end it with ;, which PowerShell takes quoted: ';'",
        r"%LOCALAPPDATA%\ffind); the memo is off on Windows",
        "Searches nothing; the memo is off on Windows",
    ] {
        assert!(help.contains(want), "--help lacks {want:?}");
    }
    assert!(bench.contains(r"--runs 5 C:\src"), "--bench --help");
    for want in [
        r"ffind -u . C:\Windows",
        r#"ffind "^Makefile$" C:\src"#,
        r".TP \fBAPPDATA, LOCALAPPDATA\fR Where the config file",
        r".SH FILES .TP \fB%APPDATA%\ffind\config\fR",
        r"say more: in \fIdocs/\fR of ffind's source.",
    ] {
        assert!(man.contains(want), "the manual lacks {want:?}");
    }
    // --owner is not offered, nor --json-fields' owner (their scripts on Linux name it).
    for (shell, text) in &texts[4..] {
        assert!(
            text.contains("mtime"),
            "{shell}: no values for --json-fields"
        );
        assert!(!text.contains("owner"), "{shell} offers owner");
    }
}

/// Ffind.exe's PowerShell completion, written from the table the bash and
/// fish scripts come from, lists the values of -t, --color, --sort, --hyperlink and
/// --json-fields, completes a command after -x and -X (then its own arguments), and does not
/// offer --owner and --mpi, which Windows refuses. (PowerShell cannot run here: the script's
/// text is what is tested, and the table in src/completions/powershell.rs.)
#[test]
fn the_powershell_completion_has_values_and_commands_and_not_what_windows_refuses() {
    let t = Tree::new();
    let run = t.run(&["--gen-completions", "powershell"]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    let ps = String::from_utf8(run.stdout).unwrap();
    let line = |names: &str| {
        ps.lines()
            .find(|l| l.contains(&format!("Names = @({names})")))
            .unwrap_or_else(|| panic!("no line for {names}"))
            .to_owned()
    };
    for (names, values) in [
        (
            "'-t', '--type'",
            &["'f'", "'d'", "'x'", "'executable'", "'e'"][..],
        ),
        ("'-c', '--color'", &["'auto'", "'always'", "'never'"]),
        ("'--sort'", &["'path'", "'depth'", "'none'"]),
        ("'--hyperlink'", &["'auto'", "'always'", "'never'"]),
        ("'--json-fields'", &["'size'", "'mtime'", "'mode'"]),
    ] {
        let l = line(names);
        for v in values {
            assert!(
                l.contains(&format!("Name = {v};")),
                "{names} lacks {v}: {l}"
            );
        }
    }
    for names in ["'-x', '--exec'", "'-X', '--exec-batch'"] {
        assert!(line(names).contains("Command = $true"), "{names}");
    }
    assert!(ps.contains("Get-Command -CommandType Application, ExternalScript"));
    assert!(ps.contains("TabExpansion2"));
    for refused in ["'--owner'", "'--mpi'"] {
        assert!(!ps.contains(refused), "offers {refused}");
    }
}
