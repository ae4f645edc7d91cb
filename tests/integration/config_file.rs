//! The config file of default options (issue 17, fd #362): `$FFIND_CONFIG_PATH`, else
//! `$XDG_CONFIG_HOME/ffind/config`; one argument per line before the command line's, so the
//! command line wins; `--no-config` skips it; a wrong line is a usage error naming the file and
//! the line; a FIFO, a device, a huge or unreadable file is refused without a wait.

use std::fs;
use std::path::PathBuf;

use crate::fd_parity::{assert_everywhere, assert_listing};
use crate::fixture::{is_root, Run, Tree};
use crate::hostile_ignore::{bounded, mkfifo};

/// A tree with a hidden directory, an ignored file and a plain one.
fn tree() -> Tree {
    let t = Tree::new();
    t.write(".ignore", "ign\n")
        .files(&["a.rs", "b.txt", "ign", ".hid/c.rs"]);
    t
}

/// Writes the default config file (`$XDG_CONFIG_HOME/ffind/config` in the test's home).
fn write_default(t: &Tree, text: &[u8]) -> PathBuf {
    let path = t.home().join(".config/ffind/config");
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
            .output()
            .unwrap(),
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
    let run = run_with(&t, "/nonexistent/ffind-config", &["-t", "f"]);
    assert_refused(
        &run,
        "ffind: config file /nonexistent/ffind-config: No such file or directory",
    );
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
