//! Output on a terminal: names escaped as fd 10 escapes them (`\x1B`, `\u{202E}`),
//! colors on by default unless NO_COLOR, hyperlinks with `--hyperlink`. ffind runs inside a
//! pseudo-terminal made by util-linux `script`, under every method at `-j 1` and `-j 8`; the
//! tests are skipped (with a note) where `script` is missing.

use std::os::unix::ffi::OsStrExt;
use std::process::Stdio;

use crate::fixture::{bin, clean_env, have, Spawn, Tree};
use crate::methods::methods;

/// `word` quoted for `sh -c`.
fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', "'\\''"))
}

/// ffind run on a terminal in the tree's root, with `env` set, under every method at `-j 1`
/// and `-j 8` (all must agree); the sorted lines (split on `sep`, "\r\n" made "\n").
/// `None` without `script`.
fn on_terminal(t: &Tree, args: &[&str], env: &[(&str, &str)], sep: u8) -> Option<Vec<String>> {
    if !have("script") {
        eprintln!("skipped: util-linux script is not installed");
        return None;
    }
    let mut first: Option<(String, Vec<String>)> = None;
    for method in methods() {
        for j in ["1", "8"] {
            let mut words = vec![bin().to_str().unwrap().to_owned()];
            words.extend(crate::fixture::held_whole().iter().map(|a| a.to_string()));
            words.extend(["--method", method, "-j", j].map(String::from));
            words.extend(args.iter().map(|a| a.to_string()));
            let line: Vec<String> = words.iter().map(|w| quote(w)).collect();
            let mut c = std::process::Command::new("script");
            c.args(["-qec", &line.join(" "), "/dev/null"])
                .current_dir(t.root())
                .stdin(Stdio::null());
            clean_env(&mut c, &t.home());
            for (k, v) in env {
                c.env(k, v);
            }
            let out = c.output_ok();
            assert!(out.status.success(), "{args:?} under {method}: {out:?}");
            let text = String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n");
            let mut got: Vec<String> = text
                .split(sep as char)
                .filter(|l| !l.is_empty())
                .map(String::from)
                .collect();
            got.sort();
            let name = format!("--method {method} -j {j}");
            match &first {
                None => first = Some((name, got)),
                Some((first_name, want)) => {
                    assert_eq!(&got, want, "{args:?}: {name} differs from {first_name}")
                }
            }
        }
    }
    first.map(|(_, lines)| lines)
}

fn sorted(items: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = items.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn hostile() -> Tree {
    let t = Tree::new();
    t.raw_file(".", b"esc\x1b]0;title\x07x")
        .raw_file(".", b"cr\rfake")
        .raw_file(".", b"nl\nname")
        .raw_file(".", b"del\x7f")
        .raw_file(".", "c1\u{9b}31m".as_bytes())
        .raw_file(".", "rlo\u{202e}txt.exe".as_bytes())
        .raw_file(".", b"bad\xff")
        .raw_file(".", b"tab\tx")
        .files(&["caf\u{e9}"]);
    t
}

#[test]
fn names_are_escaped_on_a_terminal() {
    let t = hostile();
    let want = sorted(&[
        "esc\\x1B]0;title\\x07x",
        "cr\\x0Dfake",
        "nl\\x0Aname",
        "del\\x7F",
        "c1\\x9B31m",
        "rlo\\u{202E}txt.exe",
        "bad\\xFF",
        "tab\tx",
        "caf\u{e9}",
    ]);
    let Some(got) = on_terminal(&t, &["--color=never"], &[], b'\n') else {
        return;
    };
    assert_eq!(got, want);
    // With -0 too, as fd does: a terminal is read by a person.
    let got = on_terminal(&t, &["--color=never", "-0"], &[], 0).unwrap();
    let dotted: Vec<String> = want.iter().map(|w| format!("./{w}")).collect();
    assert_eq!(got, dotted);
    // Templates: the values are escaped, the template's own text is not.
    let got = on_terminal(&t, &["--format", "[{/}]", "^(cr|del)"], &[], b'\n').unwrap();
    assert_eq!(got, sorted(&["[cr\\x0Dfake]", "[del\\x7F]"]));
    // JSON escapes by its own rules, DEL, C1 and the characters escaped above included, and
    // is never colored.
    let got = on_terminal(&t, &["--json", "^(esc|del|c1|rlo|tab)"], &[], b'\n').unwrap();
    assert_eq!(
        got,
        sorted(&[
            r#"{"path":"esc\u001b]0;title\u0007x","type":"file"}"#,
            r#"{"path":"del\u007f","type":"file"}"#,
            r#"{"path":"c1\u009b31m","type":"file"}"#,
            r#"{"path":"rlo\u202etxt.exe","type":"file"}"#,
            r#"{"path":"tab\tx","type":"file"}"#,
        ])
    );
}

/// `-l` and `--format` show the same characters escaped as the plain listing does, the
/// target of a link included; JSON escapes them in every string it writes.
#[test]
fn details_templates_and_json_escape_the_same_characters() {
    let t = Tree::new();
    t.raw_file(".", "c1\u{85}\u{9b}x".as_bytes())
        .raw_file(".", "iso\u{2066}x\u{200f}".as_bytes())
        .raw_file(".", "tag\u{e0041}".as_bytes());
    std::os::unix::fs::symlink(
        std::ffi::OsStr::from_bytes(b"to\x1b[2J\xff"),
        t.root().join("link"),
    )
    .unwrap();
    let Some(got) = on_terminal(&t, &["-l", "-c", "never"], &[], b'\n') else {
        return;
    };
    let mut ends: Vec<&str> = got.iter().map(|l| l.split_once(" ./").unwrap().1).collect();
    ends.sort_unstable();
    assert_eq!(
        ends,
        [
            "c1\\x85\\x9Bx",
            "iso\\u{2066}x\\u{200F}",
            "link -> to\\x1B[2J\\xFF",
            "tag\\u{E0041}",
        ]
    );
    let got = on_terminal(&t, &["--format", "<{/}>", "-t", "f"], &[], b'\n').unwrap();
    assert_eq!(
        got,
        sorted(&[
            "<c1\\x85\\x9Bx>",
            "<iso\\u{2066}x\\u{200F}>",
            "<tag\\u{E0041}>"
        ])
    );
    // Characters past U+FFFF as a surrogate pair, as JSON spells them.
    let got = on_terminal(&t, &["--json", "-t", "f"], &[], b'\n').unwrap();
    assert_eq!(
        got,
        sorted(&[
            r#"{"path":"c1\u0085\u009bx","type":"file"}"#,
            r#"{"path":"iso\u2066x\u200f","type":"file"}"#,
            r#"{"path":"tag\udb40\udc41","type":"file"}"#,
        ])
    );
}

#[test]
fn colors_are_on_by_default_on_a_terminal_unless_no_color() {
    let t = Tree::new();
    t.files(&["dir/x.rs"]);
    let colored = sorted(&[
        "\x1b[38;5;81mdir\x1b[0m\x1b[38;5;81m/\x1b[0m",
        "\x1b[38;5;81mdir/\x1b[0m\x1b[38;5;48mx.rs\x1b[0m",
    ]);
    let Some(got) = on_terminal(&t, &[], &[], b'\n') else {
        return;
    };
    assert_eq!(got, colored);
    let plain = sorted(&["dir/", "dir/x.rs"]);
    assert_eq!(
        on_terminal(&t, &[], &[("NO_COLOR", "1")], b'\n').unwrap(),
        plain
    );
    assert_eq!(
        on_terminal(&t, &["-c", "never"], &[], b'\n').unwrap(),
        plain
    );
    // An empty NO_COLOR does not count (no-color.org).
    assert_eq!(
        on_terminal(&t, &[], &[("NO_COLOR", "")], b'\n').unwrap(),
        colored
    );
    assert_eq!(
        on_terminal(&t, &["--color=always"], &[("NO_COLOR", "1")], b'\n').unwrap(),
        colored
    );
}

#[test]
fn hyperlinks_auto_follow_colors_on_a_terminal() {
    let t = Tree::new();
    t.files(&["f"]);
    let root = t.root();
    let root = root.to_str().unwrap();
    let Some(got) = on_terminal(&t, &["--hyperlink", "-c", "never"], &[], b'\n') else {
        return;
    };
    assert_eq!(got, sorted(&["f"]), "auto: no colors, no links");
    let got = on_terminal(&t, &["--hyperlink"], &[], b'\n').unwrap();
    assert_eq!(got.len(), 1);
    assert!(
        got[0].starts_with("\x1b]8;;file://")
            && got[0].ends_with(&format!("{root}/f\x1b\\f\x1b]8;;\x1b\\")),
        "{:?}",
        got[0]
    );
}

/// ffind run once on a terminal (util-linux `script`: stdout and stderr both go to it) in the
/// tree's root: what the terminal showed ("\r\n" made "\n") and the exit code. `None`
/// without `script`.
pub fn once_on_terminal(t: &Tree, args: &[&str]) -> Option<(String, i32)> {
    if !have("script") {
        eprintln!("skipped: util-linux script is not installed");
        return None;
    }
    let mut line = quote(bin().to_str().unwrap());
    for a in args {
        line.push(' ');
        line.push_str(&quote(a));
    }
    let mut c = std::process::Command::new("script");
    c.args(["-qec", &line, "/dev/null"])
        .current_dir(t.root())
        .stdin(Stdio::null());
    clean_env(&mut c, &t.home());
    let out = c.output_ok();
    let text = String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n");
    Some((text, out.status.code().unwrap_or(-1)))
}

#[test]
fn usage_errors_escape_the_values_they_quote_on_a_terminal() {
    let t = Tree::new();
    // A value clap quotes back ("invalid value '...'"): on a terminal it used to arrive raw,
    // escape sequence and all.
    let Some((text, _)) = once_on_terminal(&t, &["-t", "f\x1b]0;pwn\x07"]) else {
        return;
    };
    assert!(text.contains("invalid value"), "{text:?}");
    assert!(!text.contains("\x1b]0;pwn"), "raw: {text:?}");
    assert!(text.contains(r"f\x1B]0;pwn\x07"), "escaped: {text:?}");
}
