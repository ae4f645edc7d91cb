//! `--hyperlink`: each result wrapped in an OSC 8 terminal hyperlink to its `file://` URL, as
//! fd 10 writes it: the host name, then the absolute path with every byte other than
//! `[0-9A-Za-z/:._~-]` percent-encoded.

use std::io::Write as _;
use std::path::Component;

use crate::fs::{is_separator, CURRENT_DIR, SEPARATOR};

/// What a URL is built from, resolved once.
#[derive(Debug)]
pub struct Hyperlink {
    /// `file://HOST`, for absolute results.
    start: Vec<u8>,
    /// `file://HOST/CWD/`, the working directory encoded once, for relative results.
    start_in_cwd: Vec<u8>,
    /// The working directory, for the results that are relative to it only in part (Windows'
    /// `\src`, from the root of its drive).
    cwd: Vec<u8>,
}

impl Hyperlink {
    /// Links on host `host`, relative results taken from `cwd`.
    pub fn new(host: &str, cwd: &[u8]) -> Hyperlink {
        let start = format!("file://{host}").into_bytes();
        let mut start_in_cwd = start.clone();
        encode(&mut start_in_cwd, cwd);
        if !cwd.last().is_some_and(|&b| is_separator(b)) {
            start_in_cwd.push(b'/');
        }
        Hyperlink {
            start,
            start_in_cwd,
            cwd: cwd.to_vec(),
        }
    }

    /// Opens the link for the result `path`.
    pub fn open(&self, out: &mut Vec<u8>, path: &[u8]) {
        out.extend_from_slice(b"\x1b]8;;");
        let joined;
        let (start, rest): (&[u8], &[u8]) = if SEPARATOR == b'/' {
            if path.first() == Some(&b'/') {
                (&self.start, path)
            } else {
                (&self.start_in_cwd, below_cwd(path))
            }
        } else {
            let p = crate::fs::os_path(path);
            if p.is_absolute() {
                (&self.start, path)
            } else if p.has_root() || matches!(p.components().next(), Some(Component::Prefix(_))) {
                // Windows' `\src` (from the root of the working directory's drive) and `D:src`
                // (from drive D:'s own working directory, which fd and std take for the path
                // as it is): joined to the working directory as std joins them, as fd does.
                joined = crate::fs::os_path(&self.cwd).join(&p);
                (&self.start, joined.as_os_str().as_encoded_bytes())
            } else {
                (&self.start_in_cwd, below_cwd(path))
            }
        };
        out.extend_from_slice(start);
        encode(out, rest);
        out.extend_from_slice(b"\x1b\\");
    }

    /// Closes the link.
    pub fn close(out: &mut Vec<u8>) {
        out.extend_from_slice(b"\x1b]8;;\x1b\\");
    }
}

/// A relative result's path below the working directory: without its "./" ("." is the
/// directory itself).
fn below_cwd(path: &[u8]) -> &[u8] {
    let mut rel = path;
    while let Some(rest) = rel
        .strip_prefix(b"./")
        .or_else(|| rel.strip_prefix(CURRENT_DIR))
    {
        rel = rest;
    }
    if rel == b"." {
        b""
    } else {
        rel
    }
}

fn encode(out: &mut Vec<u8>, bytes: &[u8]) {
    for &b in bytes {
        match b {
            b'0'..=b'9' | b'A'..=b'Z' | b'a'..=b'z' | b'/' | b':' | b'-' | b'.' | b'_' | b'~' => {
                out.push(b)
            }
            // Windows' separator is '/' in a URL, as fd writes it.
            b if b == SEPARATOR => out.push(b'/'),
            _ => {
                let _ = write!(out, "%{b:02X}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_absolute_and_percent_encoded() {
        let h = Hyperlink::new("vm", b"/tmp/o");
        let mut out = Vec::new();
        h.open(&mut out, b"./esc\x1bname");
        assert_eq!(out, b"\x1b]8;;file://vm/tmp/o/esc%1Bname\x1b\\");
        out.clear();
        h.open(&mut out, "/x/sp ace/é".as_bytes());
        assert_eq!(out, b"\x1b]8;;file://vm/x/sp%20ace/%C3%A9\x1b\\");
        out.clear();
        h.open(&mut out, b"../o/sub");
        assert_eq!(out, b"\x1b]8;;file://vm/tmp/o/../o/sub\x1b\\");
        if SEPARATOR == b'\\' {
            // Windows: `\` is `/` in the URL; a path from the root takes the working
            // directory's drive (as fd joins it).
            let h = Hyperlink::new("/", br"C:\Users\u");
            let url = |path: &[u8]| {
                let mut out = Vec::new();
                h.open(&mut out, path);
                String::from_utf8(out).unwrap()
            };
            assert_eq!(
                url(br"./src\a b"),
                "\x1b]8;;file:///C:/Users/u/src/a%20b\x1b\\"
            );
            assert_eq!(url(br"\etc\x"), "\x1b]8;;file:///C:/etc/x\x1b\\");
            assert_eq!(url(br"D:\x"), "\x1b]8;;file:///D:/x\x1b\\");
            assert_eq!(url(b"."), "\x1b]8;;file:///C:/Users/u/\x1b\\");
        }
    }
}
