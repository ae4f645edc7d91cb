//! The hint on stderr after a search that found nothing, when the command line looks like a
//! slip: a glob given to -e, a plain word given to -g. Never after a search that found
//! something, and never with -q.

use crate::fixture::Tree;

/// The quote a hint puts around a glob: `'` as Unix shells take it, `"` on Windows (cmd.exe
/// does not take `'`).
const Q: char = if cfg!(windows) { '"' } else { '\'' };

fn tree() -> Tree {
    let t = Tree::new();
    t.files(&["src/main.rs", "src/lib.rs", "README.md"]);
    t
}

#[test]
fn a_glob_given_to_e_is_answered_with_the_extension() {
    let t = tree();
    let run = t.run(&["-e", "*.rs"]);
    assert_eq!(run.code, 0, "nothing found is no error: {}", run.stderr);
    assert!(run.stdout.is_empty());
    assert_eq!(
        run.stderr,
        format!("ffind: hint: -e takes an extension, not a glob: -e rs (or -g {Q}*.rs{Q})\n")
    );
    // The suggestion finds what was meant.
    t.run(&["-e", "rs"])
        .assert_paths(&["src/lib.rs", "src/main.rs"]);
}

#[test]
fn a_plain_word_given_to_g_is_answered_with_wildcards() {
    let t = tree();
    let run = t.run(&["-g", "mai"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.is_empty());
    assert_eq!(
        run.stderr,
        format!(
            "ffind: hint: a glob matches the whole name: -g {Q}*mai*{Q} finds names that contain \
             mai, and so does mai without -g\n"
        )
    );
    t.run(&["-g", "*mai*"]).assert_paths(&["src/main.rs"]);
}

#[test]
fn no_hint_when_something_was_found_or_when_quiet() {
    let t = tree();
    // -g main.rs is a plain word, but it matches: nothing to say.
    t.run(&["-g", "main.rs"]).assert_paths(&["src/main.rs"]);
    // A glob given to -e beside an extension that matches.
    t.run(&["-e", "*.txt", "-e", "md"])
        .assert_paths(&["README.md"]);
    // -q asks for silence.
    let run = t.run(&["-q", "-e", "*.rs"]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    // Nothing found without a slip: no hint.
    let run = t.run(&["-e", "txt"]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
}
