//! Where git's global excludes file is: `core.excludesFile` from git's configuration files,
//! else `$XDG_CONFIG_HOME/git/ignore`.
//!
//! Found as fd finds it (the `ignore` crate's `gitconfig_excludes_path`): the same files in the
//! same order, and the same reading of a line, which the crate does with the regex
//! `(?im-u)^\s*excludesfile\s*=\s*"?\s*(\S+?)\s*"?\s*$` (any section, the first such line).
//! Here that is a few byte comparisons, not a regex compiled at every start (a third of a
//! millisecond), and the files are read as every ignore file is ([`read_small_file`]: a
//! regular file only, without blocking), so a FIFO at `~/.gitconfig` cannot hang the walk.

use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

use crate::filter::ignore::IGNORE_FILE_LIMIT;
use crate::walk::dir::read_small_file;

/// The global excludes file git would use, if any can be named.
pub fn excludes_path() -> Option<PathBuf> {
    let non_empty = |var: &str| std::env::var_os(var).filter(|v| !v.is_empty());
    let config_home = || crate::config::config_home_in(home());
    let setting_in = |path: Option<PathBuf>| -> Option<PathBuf> {
        let bytes = read_small_file(path?.as_os_str().as_bytes(), IGNORE_FILE_LIMIT, false).ok()?;
        excludes_file_setting(&bytes)
    };
    // `$GIT_CONFIG_GLOBAL`, `~/.gitconfig`, `$XDG_CONFIG_HOME/git/config`, then the system's
    // (`$GIT_CONFIG_SYSTEM` or `/etc/gitconfig`): the first that sets it wins.
    setting_in(non_empty("GIT_CONFIG_GLOBAL").map(PathBuf::from))
        .or_else(|| setting_in(home().map(|h| h.join(".gitconfig"))))
        .or_else(|| setting_in(config_home().map(|c| c.join("git/config"))))
        .or_else(|| {
            setting_in(Some(
                non_empty("GIT_CONFIG_SYSTEM")
                    .map_or_else(|| "/etc/gitconfig".into(), PathBuf::from),
            ))
        })
        .or_else(|| config_home().map(|c| c.join("git/ignore")))
}

/// The user's home directory.
fn home() -> Option<PathBuf> {
    std::env::home_dir()
}

/// ASCII whitespace, as `\s` without Unicode.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r')
}

/// The value of the first `excludesfile = VALUE` line (any case, any section), `~` expanded.
/// A value holding a space does not count (the crate's regex wants one word, in quotes or
/// not, then the end of the line), nor does one that is not UTF-8.
fn excludes_file_setting(data: &[u8]) -> Option<PathBuf> {
    let line_starts = std::iter::once(0).chain(
        data.iter()
            .enumerate()
            .filter(|(_, &b)| b == b'\n')
            .map(|(i, _)| i + 1),
    );
    let value = line_starts
        .filter_map(|start| value_at(data, start))
        .next()?;
    let value = std::str::from_utf8(value).ok()?;
    Some(PathBuf::from(expand_tilde(value)))
}

/// The regex's match from the line starting at `start`, if it matches there.
fn value_at(data: &[u8], start: usize) -> Option<&[u8]> {
    let skip_space = |mut i: usize| {
        while i < data.len() && is_space(data[i]) {
            i += 1;
        }
        i
    };
    let key = b"excludesfile";
    let mut i = skip_space(start);
    if !data.get(i..i + key.len())?.eq_ignore_ascii_case(key) {
        return None;
    }
    i = skip_space(i + key.len());
    if data.get(i) != Some(&b'=') {
        return None;
    }
    i = skip_space(i + 1);
    // An opening quote is taken if the rest then matches, else it is part of the word.
    if data.get(i) == Some(&b'"') {
        if let Some(word) = word_at(data, skip_space(i + 1)) {
            return Some(word);
        }
    }
    word_at(data, i)
}

/// The shortest word at `i` after which only spaces, a quote and spaces come before the line
/// ends (`(\S+?)\s*"?\s*$`).
fn word_at(data: &[u8], i: usize) -> Option<&[u8]> {
    let mut end = i;
    while end < data.len() && !is_space(data[end]) {
        end += 1;
        if ends_line(data, end) {
            return Some(&data[i..end]);
        }
    }
    None
}

/// Whether `\s*"?\s*$` matches at `i` (multi-line: `$` is before a newline or at the end). A
/// newline crossed by `\s*` is never needed: the `$` before it matches first.
fn ends_line(data: &[u8], mut i: usize) -> bool {
    let skip_blanks = |mut i: usize| {
        while i < data.len() && data[i] != b'\n' && is_space(data[i]) {
            i += 1;
        }
        i
    };
    i = skip_blanks(i);
    if data.get(i) == Some(&b'"') {
        i = skip_blanks(i + 1);
    }
    i == data.len() || data[i] == b'\n'
}

/// A leading `~` (alone or before a `/`) becomes the home directory.
fn expand_tilde(path: &str) -> OsString {
    match (path.strip_prefix('~'), home()) {
        (Some(rest), Some(home)) if rest.is_empty() || rest.starts_with('/') => {
            let mut out = home.into_os_string();
            out.push(rest);
            out
        }
        _ => path.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex::bytes::Regex;

    /// The `ignore` crate's reading, the reference.
    fn reference(data: &[u8]) -> Option<PathBuf> {
        static RE: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
        let re = RE.get_or_init(|| {
            Regex::new(r#"(?im-u)^\s*excludesfile\s*=\s*"?\s*(\S+?)\s*"?\s*$"#).unwrap()
        });
        let value = re.captures(data)?.get(1)?.as_bytes();
        Some(PathBuf::from(expand_tilde(
            std::str::from_utf8(value).ok()?,
        )))
    }

    #[test]
    fn reads_the_setting_as_the_ignore_crate_does() {
        let home = home().map(|h| h.into_os_string().into_string().unwrap());
        let at_home = |rest: &str| home.as_ref().map(|h| PathBuf::from(format!("{h}{rest}")));
        let cases: [(&str, Option<PathBuf>); 8] = [
            ("[core]\nexcludesFile = /foo/bar", Some("/foo/bar".into())),
            ("[core]\nexcludesFile = ~/foo/bar", at_home("/foo/bar")),
            ("[core]\nexcludeFile = /foo/bar", None),
            ("[core]\nexcludesFile = \"~/foo/bar\"", at_home("/foo/bar")),
            ("[core]\nexcludesFile = \" \"~/foo/bar \" \"", None),
            (
                "[core]\nexcludesFile = C:/Users/RUNNER~1/foo/bar",
                Some("C:/Users/RUNNER~1/foo/bar".into()),
            ),
            (
                "[core]\n\tEXCLUDESFILE=/a b\n  excludesfile = /second\r\n",
                Some("/second".into()),
            ),
            (
                "[user]\n\tname = x\n[core]\n\texcludesfile =\n   /next/line\n",
                Some("/next/line".into()),
            ),
        ];
        for (text, want) in cases {
            assert_eq!(excludes_file_setting(text.as_bytes()), want, "{text:?}");
            assert_eq!(reference(text.as_bytes()), want, "reference, {text:?}");
        }
    }

    #[test]
    fn agrees_with_the_crates_regex_on_random_lines() {
        const PREFIX: [&str; 4] = ["", "[core]\n", "\t", "x = 1\n  "];
        const KEY: [&str; 4] = [
            "excludesfile",
            "ExcludesFile",
            "excludesfil",
            "xexcludesfile",
        ];
        const SPACE: [&str; 5] = ["", " ", "\t", "\n", "\r"];
        const VALUE: [&str; 9] = ["\"", "/a", "~", "~/b", "x y", "\u{e9}", "\"\"", "", "<FF>"];
        const TAIL: [&str; 8] = [
            "",
            " ",
            "\"",
            " \" ",
            "\r\n",
            "\n",
            "\nexcludesfile = /later\n",
            " junk",
        ];
        let mut seed = 0x1234_5678_9abc_def1_u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut found = 0;
        for _ in 0..20_000 {
            let mut text = String::new();
            text += PREFIX[next(PREFIX.len())];
            text += KEY[next(KEY.len())];
            text += SPACE[next(SPACE.len())];
            if next(8) != 0 {
                text += "=";
            }
            text += SPACE[next(SPACE.len())];
            for _ in 0..1 + next(3) {
                text += VALUE[next(VALUE.len())];
            }
            text += TAIL[next(TAIL.len())];
            // "<FF>" stands for a byte that is not UTF-8.
            let text: Vec<u8> = text
                .split("<FF>")
                .collect::<Vec<_>>()
                .join("\u{1}")
                .bytes()
                .map(|b| if b == 1 { 0xff } else { b })
                .collect();
            found += usize::from(reference(&text).is_some());
            assert_eq!(
                excludes_file_setting(&text),
                reference(&text),
                "{:?}",
                String::from_utf8_lossy(&text)
            );
        }
        assert!(
            found > 5_000,
            "only {found} lines set the file: the draws test little"
        );
    }
}
