//! `--no-errors`: the errors met on the way are not shown, the exit status still
//! says they happened, an error about a search path is still shown, the option works from the
//! config file and `--show-errors` undoes it; on a terminal one line says how many were hidden.
//!
//! The errors: symbolic link loops under `-L` (which root meets as well as anyone), and, when
//! the tests run as root, unreadable directories read as nobody.

use crate::fixture::{Run, Tree};
use crate::methods::methods;
use crate::terminal::once_on_terminal;

/// Two loops under -L ("loop" and "sub/back" lead to their own ancestors), beside results.
fn loops() -> Tree {
    let t = Tree::new();
    t.files(&["a.txt", "sub/b.txt"])
        .link(".", "loop")
        .link("..", "sub/back");
    t
}

/// The lines of `text`, sorted.
fn sorted_lines(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.lines().collect();
    lines.sort_unstable();
    lines
}

fn assert_silent_failure(what: &str, run: &Run, listed: &Run) {
    assert_eq!(run.code, 1, "{what}: {}", run.stderr);
    assert!(run.stderr.is_empty(), "{what}: stderr {:?}", run.stderr);
    assert_eq!(run.sorted(), listed.sorted(), "{what}: other results");
}

#[test]
fn errors_are_hidden_and_the_exit_status_stays_one() {
    let t = loops();
    for method in methods() {
        let said = t.run(&["--method", method, "-L"]);
        assert_eq!(said.code, 1, "{method}");
        assert_eq!(said.stderr.lines().count(), 2, "{method}: {}", said.stderr);
        assert!(said.stdout.len() > 10, "{method}");
        for quiet in ["--no-errors", "--no-messages"] {
            let run = t.run(&["--method", method, "-L", quiet]);
            assert_silent_failure(&format!("{method} {quiet}"), &run, &said);
        }
        // The last of the two wins (the errors in any order: parallel methods meet the two
        // loops in either).
        let run = t.run(&["--method", method, "-L", "--no-errors", "--show-errors"]);
        assert_eq!(
            (run.code, sorted_lines(&run.stderr)),
            (1, sorted_lines(&said.stderr)),
            "{method}"
        );
        // Without errors, no change.
        let run = t.run(&["--method", method, "--no-errors"]);
        assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{method}");
    }
}

#[test]
fn from_the_config_file_and_undone_by_show_errors() {
    let t = loops();
    let said = t.run(&["-L"]);
    let config = t.home().join(".config/ffind/config");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(&config, "# quiet, please\n--no-errors\n").unwrap();
    assert_silent_failure("config file", &t.run(&["-L"]), &said);
    for undone in [["-L", "--show-errors"], ["-L", "--no-config"]] {
        let run = t.run(&undone);
        assert_eq!(
            (run.code, sorted_lines(&run.stderr)),
            (1, sorted_lines(&said.stderr)),
            "{undone:?}"
        );
    }
}

#[test]
fn an_error_about_a_search_path_is_still_shown() {
    let t = loops();
    for method in methods() {
        let run = t.run(&["--method", method, "--no-errors", "-L", ".", ".", "missing"]);
        assert_eq!(run.code, 1, "{method}");
        assert_eq!(
            run.stderr, "ffind: missing: No such file or directory\n",
            "{method}"
        );
        let run = t.run(&["--method", method, "--no-errors", ".", "a.txt"]);
        assert_eq!(
            (run.code, run.stderr.as_str()),
            (1, "ffind: a.txt: Not a directory\n"),
            "{method}"
        );
    }
}

#[test]
fn unreadable_directories_are_hidden_for_an_ordinary_user() {
    let t = Tree::new();
    t.files(&["open/f", "shut/g", "deep/er/shut/h"])
        .chmod("shut", 0o000)
        .chmod("deep/er/shut", 0o000);
    let Some(said) = t.run_unprivileged(&[]) else {
        eprintln!("skipped: needs root and setpriv to run as nobody");
        return;
    };
    assert_eq!(said.code, 1, "{}", said.stderr);
    assert_eq!(said.stderr.matches("Permission denied").count(), 2);
    let run = t.run_unprivileged(&["--no-errors"]).unwrap();
    assert_silent_failure("as nobody", &run, &said);
}

#[test]
fn on_a_terminal_one_line_counts_what_was_hidden() {
    let t = loops();
    let Some((text, code)) = once_on_terminal(&t, &["-L", "--no-errors", "-c", "never"]) else {
        return;
    };
    assert_eq!(code, 1);
    assert!(!text.contains("loop"), "{text:?}");
    assert!(
        text.ends_with("ffind: 2 errors not shown (--no-errors)\n"),
        "{text:?}"
    );
    let (text, _) = once_on_terminal(&t, &["-L", "--no-errors", "-c", "never", "-d", "1"]).unwrap();
    assert!(
        text.ends_with("ffind: 1 error not shown (--no-errors)\n"),
        "{text:?}"
    );
    // Nothing hidden, nothing said.
    let (text, code) = once_on_terminal(&t, &["--no-errors", "-c", "never"]).unwrap();
    assert_eq!((text.contains("not shown"), code), (false, 0), "{text:?}");
    // Piped (above), stderr holds nothing at all.
}
