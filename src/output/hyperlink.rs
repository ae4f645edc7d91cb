//! `--hyperlink`: each result wrapped in an OSC 8 terminal hyperlink to its `file://` URL, as
//! fd 10 writes it: the host name, then the absolute path with every byte other than
//! `[0-9A-Za-z/:._~-]` percent-encoded.

use std::io::Write as _;

/// What a URL is built from, resolved once.
#[derive(Debug)]
pub struct Hyperlink {
    /// `file://HOST`, for absolute results.
    start: Vec<u8>,
    /// `file://HOST/CWD/`, the working directory encoded once, for relative results.
    start_in_cwd: Vec<u8>,
}

impl Hyperlink {
    /// Links on host `host`, relative results taken from `cwd`.
    pub fn new(host: &str, cwd: &[u8]) -> Hyperlink {
        let start = format!("file://{host}").into_bytes();
        let mut start_in_cwd = start.clone();
        encode(&mut start_in_cwd, cwd);
        if cwd.last() != Some(&b'/') {
            start_in_cwd.push(b'/');
        }
        Hyperlink {
            start,
            start_in_cwd,
        }
    }

    /// Opens the link for the result `path`.
    pub fn open(&self, out: &mut Vec<u8>, path: &[u8]) {
        out.extend_from_slice(b"\x1b]8;;");
        if path.first() == Some(&b'/') {
            out.extend_from_slice(&self.start);
        } else {
            out.extend_from_slice(&self.start_in_cwd);
        }
        let mut rel = path;
        while let Some(rest) = rel.strip_prefix(b"./") {
            rel = rest;
        }
        if rel == b"." {
            rel = b"";
        }
        encode(out, rel);
        out.extend_from_slice(b"\x1b\\");
    }

    /// Closes the link.
    pub fn close(out: &mut Vec<u8>) {
        out.extend_from_slice(b"\x1b]8;;\x1b\\");
    }
}

fn encode(out: &mut Vec<u8>, bytes: &[u8]) {
    for &b in bytes {
        match b {
            b'0'..=b'9' | b'A'..=b'Z' | b'a'..=b'z' | b'/' | b':' | b'-' | b'.' | b'_' | b'~' => {
                out.push(b)
            }
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
    }
}
