//! The config file of default options (fd #362): `$FFIND_CONFIG_PATH`, else
//! `$XDG_CONFIG_HOME/ffind/config`; one argument per line before the command line's, so the
//! command line wins; `--no-config` skips it; a wrong line is a usage error naming the file and
//! the line; a FIFO, a device, a huge or unreadable file is refused without a wait.
//!
//! On Windows the default file is `%APPDATA%\ffind\config` (fd's place there), which the
//! fixture points at the same `home/.config/ffind/config`; FIFOs, devices and mode bits are
//! Unix's, and so is `--bench`.

use std::fs;
use std::path::PathBuf;

use crate::fd_parity::{assert_everywhere, assert_listing};
#[cfg(unix)]
use crate::fixture::is_root;
use crate::fixture::{utf16, Run, Spawn, Tree, SAVE_AS_UTF8, UTF16};
use crate::hostile_ignore::bounded;
#[cfg(unix)]
use crate::hostile_ignore::mkfifo;

/// A tree with a hidden directory, an ignored file and a plain one.
fn tree() -> Tree {
    let t = Tree::new();
    t.write(".ignore", "ign\n")
        .files(&["a.rs", "b.txt", "ign", ".hid/c.rs"]);
    t
}

/// Writes the default config file (`$XDG_CONFIG_HOME/ffind/config` in the test's home; on
/// Windows `%APPDATA%\ffind\config`, the same file), its path as ffind shows it.
fn write_default(t: &Tree, text: &[u8]) -> PathBuf {
    let path = t.home().join(".config").join("ffind").join("config");
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, text).unwrap();
    path
}

/// Runs ffind with `FFIND_CONFIG_PATH` set to `config`.
fn run_with(t: &Tree, config: &str, args: &[&str]) -> Run {
    Run::from(
        t.cmd(args)
            .env("FFIND_CONFIG_PATH", config)
            .stdin(std::process::Stdio::null())
            .output_ok(),
    )
}

/// Asserts a usage error whose first line is `first`, and that nothing was listed.
fn assert_refused(run: &Run, first: &str) {
    assert_eq!(run.code, 2, "stderr: {}", run.stderr);
    assert!(
        run.stdout.is_empty(),
        "nothing is searched: {:?}",
        run.sorted()
    );
    assert_eq!(run.stderr.lines().next(), Some(first), "{}", run.stderr);
    assert!(
        run.stderr.contains("--no-config"),
        "says how to skip it: {}",
        run.stderr
    );
}

#[test]
fn the_default_file_applies_under_every_method() {
    let t = tree();
    assert_everywhere(&t, &["-t", "f"], &["a.rs", "b.txt"]);
    write_default(&t, b"# show what is hidden\n-H\n\n  --exclude=*.txt  \n");
    assert_everywhere(&t, &["-t", "f"], &[".hid/c.rs", ".ignore", "a.rs"]);
}

#[test]
fn the_command_line_wins_and_lists_add_up() {
    let t = tree();
    write_default(&t, b"-H\n-E\n*.txt\n--color=always\n");
    // The last of two opposing flags wins: the command line's, which comes after the file's.
    assert_everywhere(&t, &["-t", "f", "--no-hidden", "--color=never"], &["a.rs"]);
    // -u at its place: after the file's -H, and --no-hidden after it again.
    assert_everywhere(
        &t,
        &["-t", "f", "-c", "never", "-u"],
        &[".hid/c.rs", ".ignore", "a.rs", "ign"],
    );
    assert_everywhere(
        &t,
        &["-t", "f", "-c", "never", "-u", "--no-hidden"],
        &["a.rs", "ign"],
    );
    // Excludes given in both places all apply.
    assert_everywhere(
        &t,
        &["-t", "f", "--color=never", "-E", "*.rs"],
        &[".ignore"],
    );
}

#[test]
fn the_variable_names_the_file_and_empty_means_none() {
    let t = tree();
    write_default(&t, b"-H\n");
    let other = t.home().join("other");
    fs::write(&other, "--exclude\nb.txt\n").unwrap();
    let run = run_with(&t, other.to_str().unwrap(), &["-t", "f"]);
    assert_listing(&run, &["FFIND_CONFIG_PATH=other"], &["a.rs"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = run_with(&t, "", &["-t", "f"]);
    assert_listing(&run, &["FFIND_CONFIG_PATH="], &["a.rs", "b.txt"]);
    // Named but missing: said, not passed over.
    let missing = "/nonexistent/ffind-config";
    let run = run_with(&t, missing, &["-t", "f"]);
    let why = crate::fixture::error_text(&fs::File::open(missing).unwrap_err());
    assert_refused(&run, &format!("ffind: config file {missing}: {why}"));
}

#[test]
fn no_config_skips_even_a_broken_file() {
    let t = tree();
    write_default(&t, b"-H\n--no-such-option\n");
    let run = t.run(&["--no-config", "-t", "f"]);
    assert_listing(&run, &["--no-config"], &["a.rs", "b.txt"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // Anywhere on the command line, not within a command's words.
    let run = t.run(&["-t", "f", "--no-config"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn a_wrong_line_is_a_usage_error_that_names_it() {
    let t = tree();
    let path = write_default(&t, b"-H\n# comment\n\n--no-such-option\n");
    let shown = path.display();
    assert_refused(
        &t.run(&["-t", "f"]),
        &format!(
            "ffind: config file {shown}, line 4: unexpected argument '--no-such-option' found"
        ),
    );
    // An option whose value is on the next line is fine; a bad value names its line.
    write_default(&t, b"-j\n4\n--color\nsometimes\n");
    assert_refused(
        &t.run(&[]),
        &format!(
            "ffind: config file {shown}, line 4: invalid value 'sometimes' for '--color <WHEN>'"
        ),
    );
    write_default(&t, b"-j\n4\n-d\n");
    let run = t.run(&[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with(&format!("ffind: config file {shown}, line 3: ")),
        "{}",
        run.stderr
    );
}

#[test]
fn patterns_paths_and_commands_are_refused() {
    let t = tree();
    let path = write_default(&t, b"");
    let shown = path.display();
    for (text, line, what) in [
        (&b"-H\n\\.rs$\n"[..], 2, "a pattern or a path"),
        (b"-H\n.\n/tmp\n", 2, "a pattern or a path"),
        (b"-e\nrs\n-x\necho\n", 3, "-x/--exec"),
        (b"--exec-batch=ls\n", 1, "-X/--exec-batch"),
        // Beside an option whose requirement the command line may still meet.
        (b"--json-fields=size\n\\.rs$\n", 2, "a pattern or a path"),
        (b"--batch-size=2\n-H\n.\n", 3, "a pattern or a path"),
    ] {
        write_default(&t, text);
        assert_refused(
            &t.run(&["-t", "f"]),
            &format!(
                "ffind: config file {shown}, line {line}: {what} has no place in a config file \
                 (only options do)"
            ),
        );
    }
    write_default(&t, b"-H\n--\n");
    assert_refused(
        &t.run(&[]),
        &format!("ffind: config file {shown}, line 2: '--' has no place in a config file"),
    );
}

#[test]
fn a_requirement_may_be_met_on_the_command_line() {
    let t = tree();
    write_default(&t, b"--json-fields=size\n");
    let run = t.run(&["--json", "-t", "f", "a.rs"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        String::from_utf8_lossy(&run.stdout),
        "{\"path\":\"a.rs\",\"type\":\"file\",\"size\":0}\n"
    );
    // Without it, clap says what is missing, and ffind what the file added.
    let run = t.run(&["-t", "f"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("adds: --json-fields=size; --no-config skips it"),
        "{}",
        run.stderr
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_a_device_a_directory_or_a_huge_file_is_refused_at_once() {
    let t = tree();
    let fifo = t.home().join("fifo");
    mkfifo(&fifo);
    let mut cmd = t.cmd(&[]);
    cmd.env("FFIND_CONFIG_PATH", &fifo);
    let run = bounded(cmd);
    assert_refused(
        &run,
        &format!("ffind: config file {}: not a regular file", fifo.display()),
    );
    let mut cmd = t.cmd(&[]);
    cmd.env("FFIND_CONFIG_PATH", "/dev/zero");
    assert_refused(
        &bounded(cmd),
        "ffind: config file /dev/zero: not a regular file",
    );
    let dir = t.home().join(".config/ffind/config");
    fs::create_dir_all(&dir).unwrap();
    assert_refused(
        &t.run(&[]),
        &format!("ffind: config file {}: Is a directory", dir.display()),
    );
    let huge = t.home().join("huge");
    fs::write(&huge, "-H\n".repeat(400_000)).unwrap();
    let run = run_with(&t, huge.to_str().unwrap(), &[]);
    assert_refused(
        &run,
        &format!("ffind: config file {}: larger than 1 MiB", huge.display()),
    );
}

#[cfg(unix)]
#[test]
fn an_unreadable_file_is_refused() {
    if !is_root() {
        eprintln!("skipped: needs root to drop privileges (setpriv)");
        return;
    }
    let t = tree();
    let path = write_default(&t, b"-H\n");
    // Reachable by nobody (the test's home is root's), but not readable.
    use std::os::unix::fs::PermissionsExt;
    for dir in [
        t.home(),
        t.home().join(".config"),
        t.home().join(".config/ffind"),
    ] {
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
    }
    fs::set_permissions(&path, fs::Permissions::from_mode(0o200)).unwrap();
    let Some(run) = t.run_unprivileged_script(r#"exec "$FFIND" -t f"#) else {
        eprintln!("skipped: setpriv is missing");
        return;
    };
    assert_refused(
        &run,
        &format!("ffind: config file {}: Permission denied", path.display()),
    );
}

/// A config file in UTF-16 (Windows PowerShell 5.1's `>`: a byte-order mark,
/// CRLF) is refused for its encoding, saying how to mend it, not for a line it seems to hold;
/// so is one without the mark, or big-endian.
#[test]
fn a_utf16_config_file_is_refused_for_its_encoding() {
    let t = tree();
    for (big, mark) in [(false, true), (false, false), (true, true)] {
        let path = write_default(&t, &utf16("--hidden\r\n-e\r\nrs\r\n", big, mark));
        assert_refused(
            &t.run(&[]),
            &format!(
                "ffind: config file {}: {UTF16}: {SAVE_AS_UTF8}",
                path.display()
            ),
        );
    }
    // Saved as UTF-8, with Windows' CRLF and a mark, it applies.
    write_default(&t, b"\xEF\xBB\xBF--hidden\r\n-e\r\nrs\r\n");
    t.run(&[]).assert_paths(&["a.rs", ".hid/c.rs"]);
}

#[test]
fn completions_and_the_manual_ignore_the_file() {
    let t = tree();
    let clean = t.run(&["--gen-completions", "bash"]);
    assert_eq!(clean.code, 0, "{}", clean.stderr);
    write_default(&t, b"--no-such-option\n");
    let with_file = t.run(&["--gen-completions", "bash"]);
    assert_eq!(with_file.code, 0, "{}", with_file.stderr);
    assert_eq!(with_file.stdout, clean.stdout);
    let help = t.run(&["--help"]);
    assert_eq!(help.code, 0, "{}", help.stderr);
    assert!(String::from_utf8_lossy(&help.stdout).contains("--no-config"));
}

#[cfg(unix)]
/// `ffind --bench` on `-t f` with one method and one run, and `extra`: its report.
fn bench_files(t: &Tree, extra: &[&str]) -> String {
    let mut args = vec![
        "--bench",
        "--methods",
        "serial",
        "-r",
        "1",
        "-w",
        "0",
        "-t",
        "f",
    ];
    args.extend_from_slice(extra);
    let run = t.run(&args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    String::from_utf8_lossy(&run.stdout).into_owned()
}

#[cfg(unix)]
#[test]
fn bench_applies_the_file_and_says_so() {
    let t = tree();
    let path = write_default(&t, b"-H\n--exclude=*.txt\n");
    let out = bench_files(&t, &[]);
    assert!(
        out.contains(&format!(
            "The config file {} applies to every run: -H '--exclude=*.txt'",
            path.display()
        )),
        "{out}"
    );
    // What the runs listed: the hidden files, not the excluded one.
    assert!(out.contains("Every benchmark listed 3 entries"), "{out}");
    let out = bench_files(&t, &["--no-config"]);
    assert!(!out.contains("The config file"), "{out}");
    assert!(out.contains("Every benchmark listed 2 entries"), "{out}");
}

#[test]
fn options_that_say_what_or_where_to_search_are_refused() {
    let t = tree();
    let path = write_default(&t, b"");
    let shown = path.display();
    let searched = "it names what to search: give paths on the command line";
    let base = "it says where to search: give it on the command line";
    for (text, line, what, why) in [
        (
            &b"-H\n--search-path=/etc/ssl\n"[..],
            2,
            "--search-path",
            searched,
        ),
        (b"--search-path\n/etc/ssl\n", 1, "--search-path", searched),
        (b"-C\n/tmp\n", 1, "-C/--base-directory", base),
        (b"-HC/tmp\n", 1, "-C/--base-directory", base),
        (
            b"-H\n--base-directory /tmp\n",
            2,
            "-C/--base-directory",
            base,
        ),
        (b"--base-directory=/tmp\n", 1, "-C/--base-directory", base),
    ] {
        write_default(&t, text);
        assert_refused(
            &t.run(&["-t", "f"]),
            &format!("ffind: config file {shown}, line {line}: {what} has no place in a config file ({why})"),
        );
    }
}

#[test]
fn actions_of_the_command_line_are_refused() {
    let t = tree();
    let path = write_default(&t, b"");
    let shown = path.display();
    for (text, what) in [
        (&b"--gen-man\n"[..], "--gen-man"),
        (b"--gen-completions=bash\n", "--gen-completions"),
        (b"--gen-completions\nzsh\n", "--gen-completions"),
        (b"--help\n", "-h/--help"),
        (b"-Hh\n", "-h/--help"),
        (b"--version\n", "-V/--version"),
        (b"-V\n", "-V/--version"),
        (b"--bench\n", "--bench"),
    ] {
        write_default(&t, text);
        let run = t.run(&["-t", "f"]);
        assert_refused(
            &run,
            &format!(
                "ffind: config file {shown}, line 1: {what} has no place in a config file (it \
                 is an action of the command line, not an option)"
            ),
        );
    }
    // On the command line they still act, and the file is not read.
    write_default(&t, b"--gen-man\n");
    assert_eq!(t.run(&["--version"]).code, 0);
}

#[test]
fn a_huge_config_file_is_judged_in_one_pass() {
    // Judging each line by parsing every prefix of the file took hours at the size limit;
    // one pass takes well under a second (benches: the config-file row).
    let t = tree();
    let path = write_default(&t, b"");
    let shown = path.display();
    let mut text = "-H\n".repeat(40_000);
    text.push_str("pattern\n");
    fs::write(&path, &text).unwrap();
    assert_refused(
        &bounded(t.cmd(&[])),
        &format!(
            "ffind: config file {shown}, line 40001: a pattern or a path has no place in a \
             config file (only options do)"
        ),
    );
    let mut text = "--bogus\n".to_owned();
    text.push_str(&"--exclude=x\n".repeat(40_000));
    fs::write(&path, &text).unwrap();
    assert_refused(
        &bounded(t.cmd(&[])),
        &format!("ffind: config file {shown}, line 1: unexpected argument '--bogus' found"),
    );
    // Accepted at that size too.
    fs::write(&path, "-H\n".repeat(40_000)).unwrap();
    let run = bounded(t.cmd(&["-t", "f"]));
    assert_listing(
        &run,
        &["40,000 lines of -H"],
        &[".hid/c.rs", ".ignore", "a.rs", "b.txt"],
    );
}

#[test]
fn mistakes_of_shell_habit_get_a_hint() {
    let t = tree();
    let path = write_default(&t, b"");
    let shown = path.display();
    for (text, first) in [
        (
            &b"--exclude .git\n"[..],
            "'--exclude .git' is an option and its value on one line (one argument per line, \
             without quotes: write '--exclude=.git', or '--exclude' and '.git' on the next line)",
        ),
        (
            b"-j 4\n",
            "'-j 4' is an option and its value on one line (one argument per line, without \
             quotes: write '-j4', or '-j' and '4' on the next line)",
        ),
        (
            b"-E # not src\n",
            "'-E # not src' is an option and a comment on one line (a comment goes on a line of \
             its own: '-E' alone, and '#' at the start of the next line)",
        ),
        (
            b"-H # show hidden\n",
            "unexpected argument '- ' found (a comment goes on a line of its own: '-H' alone, \
             and '#' at the start of the next line)",
        ),
        (
            b"--hidden --follow\n",
            "unexpected argument '--hidden --follow' found (one argument per line: '--hidden', \
             and '--follow' on the next line)",
        ),
    ] {
        write_default(&t, text);
        assert_refused(
            &t.run(&[]),
            &format!("ffind: config file {shown}, line 1: {first}"),
        );
    }
}

/// The null device (`/dev/null`; `NUL` on Windows) reads as an empty file.
#[test]
fn the_null_device_is_an_empty_config_file() {
    let t = tree();
    write_default(&t, b"-H\n");
    let null = if cfg!(windows) { "NUL" } else { "/dev/null" };
    let run = run_with(&t, null, &["-t", "f"]);
    assert_listing(&run, &["FFIND_CONFIG_PATH", null], &["a.rs", "b.txt"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
}

#[test]
fn what_a_file_or_a_user_supplied_reaches_stderr_escaped() {
    let t = tree();
    let path = write_default(&t, b"");
    let shown = path.display();
    // A carriage return inside a line, in clap's message.
    write_default(&t, b"--bogus\rX\n");
    assert_refused(
        &t.run(&[]),
        &format!("ffind: config file {shown}, line 1: unexpected argument '--bogus\\x0DX' found"),
    );
    // A title-setting sequence in a regular expression, from the file or the command line.
    let osc = "\x1b]0;pwned\x07(";
    write_default(&t, format!("--and={osc}\n").as_bytes());
    let from_file = t.run(&[]);
    write_default(&t, b"");
    let from_args = t.run(&[osc]);
    for run in [from_file, from_args] {
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(
            !run.stderr.contains('\x1b') && !run.stderr.contains('\x07'),
            "{:?}",
            run.stderr
        );
        assert!(
            run.stderr.contains("\\x1B]0;pwned\\x07("),
            "{:?}",
            run.stderr
        );
    }
    // And in an invalid glob.
    let run = t.run(&["-g", "[\x1b"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("'[\\x1B'"), "{:?}", run.stderr);
}

#[test]
fn every_option_and_its_value_on_one_line_is_refused() {
    // clap takes `-E src` as `-E` with the value " src", which excludes nothing, and `-e rs`
    // as the extension " rs", which matches nothing: both passed silently.
    let t = tree();
    let path = write_default(&t, b"");
    let shown = path.display();
    for (line, joined, head, value) in [
        ("-E src", "-Esrc", "-E", "src"),
        ("-e rs", "-ers", "-e", "rs"),
        ("-S +1k", "-S+1k", "-S", "+1k"),
        ("-HE src", "-HEsrc", "-HE", "src"),
        ("--extension rs", "--extension=rs", "--extension", "rs"),
        ("--owner root", "--owner=root", "--owner", "root"),
        (
            "--changed-within 1d",
            "--changed-within=1d",
            "--changed-within",
            "1d",
        ),
        ("--and x", "--and=x", "--and", "x"),
    ] {
        write_default(&t, format!("-H\n{line}\n").as_bytes());
        assert_refused(
            &t.run(&[]),
            &format!(
                "ffind: config file {shown}, line 2: '{line}' is an option and its value on one \
                 line (one argument per line, without quotes: write '{joined}', or '{head}' and \
                 '{value}' on the next line)"
            ),
        );
    }
    // The value attached, or on the next line, is taken.
    write_default(&t, b"-ers\n");
    assert_everywhere(&t, &[], &["a.rs"]);
    write_default(&t, b"-e\nrs\n");
    assert_everywhere(&t, &[], &["a.rs"]);
}

#[test]
fn a_misspelled_option_gets_the_tip_of_a_similar_one() {
    let t = tree();
    let path = write_default(&t, b"--hiden\n");
    assert_refused(
        &t.run(&[]),
        &format!(
            "ffind: config file {}, line 1: unexpected argument '--hiden' found (a similar \
             argument exists: '--hidden')",
            path.display()
        ),
    );
}

#[test]
fn an_invalid_value_from_the_file_names_its_line() {
    let t = tree();
    let path = write_default(&t, b"");
    let shown = path.display();
    // --owner is refused on Windows, from the file too: the message names the file and line.
    let owner = if cfg!(windows) {
        "--owner is not supported on Windows"
    } else {
        "'nosuchuser' is not a valid owner: no user is named 'nosuchuser'"
    };
    for (text, line, first) in [
        (&b"-H\n--owner\nnosuchuser\n"[..], 3, owner),
        (b"--size=x\n", 1, "'x' is not a valid size: use [+-]NUMBER"),
        (
            b"-HS\n+1q\n",
            2,
            "'+1q' is not a valid size: use [+-]NUMBER",
        ),
    ] {
        write_default(&t, text);
        // A pattern that the message could quote too: still the file's value.
        let run = t.run(&["x"]);
        assert_refused(&run, run.stderr.lines().next().unwrap());
        assert!(
            run.stderr
                .starts_with(&format!("ffind: config file {shown}, line {line}: {first}")),
            "{}",
            run.stderr
        );
    }
    // The same value on the command line is the command line's.
    write_default(&t, b"-H\n");
    let run = t.run(&["--size=x"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.starts_with("ffind: 'x' is not a valid size"),
        "{}",
        run.stderr
    );
}

#[test]
fn the_usage_line_shows_the_command_line_and_the_file_apart() {
    let t = tree();
    let path = write_default(&t, b"--hidden\n--exclude\n.git\n--json\n");
    let note = format!(
        "(the config file {} adds: --hidden --exclude .git --json; --no-config skips it)",
        path.display()
    );
    // The command line's mistake, and the file's options beside it.
    let run = t.run(&["--max-depht", "2"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let usage = run.stderr.lines().find(|l| l.starts_with("Usage:"));
    // clap names the program as it was run: `ffind.exe` on Windows (fd's says `fd.exe` there),
    // or as ffind names it.
    let usage_is = |usage: Option<&str>, rest: &str| {
        let named = |program: &str| usage == Some(format!("Usage: {program} {rest}").as_str());
        named("ffind") || (cfg!(windows) && named("ffind.exe"))
    };
    assert!(
        usage_is(usage, "--max-depth <DEPTH> [PATTERN] [PATH]..."),
        "{}",
        run.stderr
    );
    assert!(run.stderr.trim_end().ends_with(&note), "{}", run.stderr);
    // A conflict with the file's options: the usage names none of them.
    let run = t.run(&["--list-details"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with("error: the argument '--json' cannot be used with '--list-details'"),
        "{}",
        run.stderr
    );
    let usage = run.stderr.lines().find(|l| l.starts_with("Usage:"));
    assert!(
        usage_is(usage, "[OPTIONS] [PATTERN] [PATH]..."),
        "{}",
        run.stderr
    );
    assert!(run.stderr.trim_end().ends_with(&note), "{}", run.stderr);
}
