//! The hint a search that found nothing gives on stderr when the command line holds a likely
//! slip: a glob given to `-e` (`-e '*.rs'`, which takes an extension), or a plain word given
//! as a `-g` pattern (`-g main`, a glob that must match the whole name). Only ever said after a
//! search without results: a search that found something is never second-guessed.

use std::ffi::OsStr;

use super::Cli;
use crate::fs::escape::{escaped, shell_quote};

/// Characters that make a word a glob rather than a name.
const GLOB_CHARS: &[char] = &['*', '?', '[', '{'];

/// What to say after a search of `cli` that found nothing, if its command line looks like a
/// slip; one line per slip.
pub fn for_no_results(cli: &Cli) -> Option<String> {
    let mut lines: Vec<String> = cli.extension.iter().filter_map(|e| extension(e)).collect();
    if cli.glob && !cli.full_path {
        lines.extend(cli.pattern.as_deref().and_then(plain_glob));
    }
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// `-e '*.rs'`: -e takes the extension itself.
fn extension(value: &str) -> Option<String> {
    if !value.contains(GLOB_CHARS) {
        return None;
    }
    let bare = value.trim_start_matches('*').trim_start_matches('.');
    let given = quoted(value);
    if bare.is_empty() || bare.contains(GLOB_CHARS) {
        return Some(format!(
            "ffind: hint: -e takes an extension, not a glob: for names that match {given}, \
             write -g {given}"
        ));
    }
    Some(format!(
        "ffind: hint: -e takes an extension, not a glob: -e {} (or -g {given})",
        quoted(bare)
    ))
}

/// `-g main`: a glob without wildcards matches only the whole name.
fn plain_glob(pattern: &str) -> Option<String> {
    if pattern.is_empty() || pattern.contains(GLOB_CHARS) {
        return None;
    }
    Some(format!(
        "ffind: hint: a glob matches the whole name: -g {} finds names that contain {}, and \
         so does {} without -g",
        quoted(&format!("*{pattern}*")),
        quoted(pattern),
        quoted(pattern)
    ))
}

/// A word as the user would type it, safe on a terminal.
fn quoted(word: &str) -> String {
    escaped(shell_quote(OsStr::new(word)).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    fn hint(args: &[&str]) -> Option<String> {
        let argv = std::iter::once("ffind").chain(args.iter().copied());
        for_no_results(&super::super::parse(argv.map(OsString::from)).unwrap())
    }

    /// `word` quoted for the system's shell, as the hints write it (fs::escape tests the
    /// quoting: `'*.rs'` in a POSIX shell, `"*.rs"` on Windows).
    fn q(word: &str) -> String {
        let quoted = shell_quote(OsStr::new(word));
        assert_ne!(quoted, word, "{word} needs quoting");
        quoted
    }

    #[test]
    fn a_glob_given_to_e_gets_the_extension() {
        assert_eq!(
            hint(&["-e", "*.rs"]),
            Some(format!(
                "ffind: hint: -e takes an extension, not a glob: -e rs (or -g {})",
                q("*.rs")
            ))
        );
        assert_eq!(
            hint(&["-e", "*.tar.gz"]),
            Some(format!(
                "ffind: hint: -e takes an extension, not a glob: -e tar.gz (or -g {})",
                q("*.tar.gz")
            ))
        );
        assert_eq!(
            hint(&["-e", "test_*"]),
            Some(format!(
                "ffind: hint: -e takes an extension, not a glob: for names that match {0}, \
                 write -g {0}",
                q("test_*")
            ))
        );
    }

    #[test]
    fn a_plain_word_given_to_g_gets_wildcards() {
        assert_eq!(
            hint(&["-g", "main"]),
            Some(format!(
                "ffind: hint: a glob matches the whole name: -g {} finds names that contain \
                 main, and so does main without -g",
                q("*main*")
            ))
        );
    }

    #[test]
    fn nothing_to_say_on_ordinary_command_lines() {
        for args in [
            &["-e", "rs"][..],
            &["-g", "*.rs"],
            &["main"],
            &["-g", "ma?n"],
            &["-g", ""],
            &["-p", "-g", "src"],
        ] {
            assert_eq!(hint(args), None, "{args:?}");
        }
    }
}
