//! Names made safe to show on a terminal: control characters (C0, DEL, C1) and invisible or
//! direction-changing characters are written as `\xHH` or `\u{HHHH}`, as fd 10 does, so that a
//! file name cannot move the cursor, rewrite a line, set the window title or hide a part of
//! itself. Bytes that are not UTF-8 are written as `\xHH` too (fd shows U+FFFD). Tabs stay.
//!
//! Used for results on a terminal and for every path in a message on stderr; piped output is
//! never escaped. `--json` escapes the same characters its own way (`\u202e`), see
//! [`crate::output::json`].

use std::io::Write as _;

/// Whether `c` is shown escaped: it could act on a terminal or hide itself.
pub fn needs_escape(c: char) -> bool {
    c != '\t'
        && (c.is_control()
            || matches!(c,
                '\u{00AD}'                      // soft hyphen
                | '\u{180E}'                    // Mongolian vowel separator
                | '\u{200B}'..='\u{200F}'       // zero-width characters, LRM, RLM
                | '\u{202A}'..='\u{202E}'       // bidirectional embeddings and overrides
                | '\u{2060}'..='\u{206F}'       // word joiner, invisible operators, isolates
                | '\u{FEFF}'                    // byte-order mark
                | '\u{FFF9}'..='\u{FFFB}'       // interlinear annotations
                | '\u{E0000}'..='\u{E007F}'     // tags
            ))
}

/// Appends `bytes` to `out`, escaped for a terminal.
pub fn push_escaped(out: &mut Vec<u8>, bytes: &[u8]) {
    // The common case: printable ASCII only.
    if bytes.iter().all(|&b| (0x20..0x7f).contains(&b)) {
        out.extend_from_slice(bytes);
        return;
    }
    let mut rest = bytes;
    while !rest.is_empty() {
        let (valid, bad) = match std::str::from_utf8(rest) {
            Ok(s) => (s, 0),
            Err(e) => {
                let valid = std::str::from_utf8(&rest[..e.valid_up_to()]).unwrap_or_default();
                let bad = e.error_len().unwrap_or(rest.len() - e.valid_up_to());
                (valid, bad)
            }
        };
        for c in valid.chars() {
            if !needs_escape(c) {
                let mut utf8 = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
            } else if (c as u32) <= 0xff {
                let _ = write!(out, "\\x{:02X}", c as u32);
            } else {
                let _ = write!(out, "\\u{{{:04X}}}", c as u32);
            }
        }
        let after = &rest[valid.len()..];
        for b in &after[..bad] {
            let _ = write!(out, "\\x{b:02X}");
        }
        rest = &after[bad..];
    }
}

/// `bytes` escaped for a terminal, as a string (for messages on stderr).
pub fn escaped(bytes: &[u8]) -> String {
    let mut out = Vec::with_capacity(bytes.len());
    push_escaped(&mut out, bytes);
    // Everything pushed is UTF-8: valid characters and ASCII escapes.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// A path escaped for a terminal, as every path in a message shows (one line, no escape
/// sequences).
pub fn escaped_path(path: &std::path::Path) -> String {
    escaped(path.as_os_str().as_encoded_bytes())
}

/// A message escaped for a terminal line by line: its own line breaks stay (a regular
/// expression's error draws a caret under the pattern), every other control character that a
/// user or a file put in it is escaped, as in [`escaped`].
pub fn escaped_lines(text: &str) -> String {
    text.split('\n')
        .map(|line| escaped(line.as_bytes()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Quotes a word for a POSIX shell, leaving plain words bare (for commands shown to be read and
/// rerun by hand: bench's, the config file's). A name that is not UTF-8 is shown lossily.
#[cfg(unix)]
pub fn shell_quote(word: &std::ffi::OsStr) -> String {
    let word = word.to_string_lossy();
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-+=.,/:@%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.into_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// Quotes a word for Windows' command line (cmd.exe, PowerShell, and hyperfine, which runs
/// commands through cmd.exe there), leaving plain words bare: in double quotes, an inner
/// double quote written `\"` as programs' argument parsers read it. Backslashes stay as they
/// are (`C:\bin\ffind.exe` is a plain word).
#[cfg(windows)]
pub fn shell_quote(word: &std::ffi::OsStr) -> String {
    let word = word.to_string_lossy();
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-+=.,/:@\\".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.into_owned()
    } else {
        format!("\"{}\"", word.replace('"', "\\\""))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_as_fd_does() {
        assert_eq!(escaped(b"esc\x1bname"), "esc\\x1Bname");
        assert_eq!(escaped(b"a\nb\rc\x07\x7f"), "a\\x0Ab\\x0Dc\\x07\\x7F");
        assert_eq!(escaped("c1\u{9b}x".as_bytes()), "c1\\x9Bx");
        assert_eq!(escaped("bidi\u{202e}abc".as_bytes()), "bidi\\u{202E}abc");
        assert_eq!(escaped(b"tab\tx"), "tab\tx");
    }

    #[test]
    #[cfg(unix)]
    fn words_are_quoted_for_a_posix_shell() {
        use std::ffi::OsStr;
        assert_eq!(shell_quote(OsStr::new("plain/path-1.2")), "plain/path-1.2");
        assert_eq!(shell_quote(OsStr::new("")), "''");
        assert_eq!(shell_quote(OsStr::new("it's")), r"'it'\''s'");
        assert_eq!(shell_quote(OsStr::new("*.rs")), "'*.rs'");
        assert_eq!(shell_quote(OsStr::new("a|b")), "'a|b'");
        assert_eq!(
            shell_quote(OsStr::new("/home/me/my src")),
            "'/home/me/my src'"
        );
    }

    #[test]
    #[cfg(windows)]
    fn words_are_double_quoted_for_cmd_and_powershell() {
        use std::ffi::OsStr;
        assert_eq!(shell_quote(OsStr::new("plain/path-1.2")), "plain/path-1.2");
        assert_eq!(
            shell_quote(OsStr::new(r"C:\bin\ffind.exe")),
            r"C:\bin\ffind.exe"
        );
        assert_eq!(shell_quote(OsStr::new("")), r#""""#);
        assert_eq!(shell_quote(OsStr::new("it's here")), r#""it's here""#);
        assert_eq!(shell_quote(OsStr::new("*.rs")), r#""*.rs""#);
        assert_eq!(shell_quote(OsStr::new(r#"say "hi""#)), r#""say \"hi\"""#);
    }

    #[test]
    fn other_text_is_kept_and_bad_bytes_are_shown() {
        assert_eq!(escaped("résumé 文档 🦀".as_bytes()), "résumé 文档 🦀");
        assert_eq!(escaped(b"bad\xff\xfe.x"), "bad\\xFF\\xFE.x");
        assert_eq!(escaped(b"cut\xe2\x82"), "cut\\xE2\\x82");
        assert_eq!(escaped(b"back\\x1Bslash"), "back\\x1Bslash");
    }
}
