//! `--json`: one JSON object per result and line (NDJSON), written with serde_json.
//!
//! `{"path": "src/main.rs", "type": "file"}`; a path that is not UTF-8 comes as
//! `"path_bytes": [98, 97, 100, 255]` instead of `"path"`. `--json-fields` adds `size`,
//! `mtime` (RFC 3339, UTC), `mode` ("0644"), `uid`/`gid`/`user`/`group`, `nlink`, `inode`;
//! each is `null` when the entry's metadata cannot be read. The metadata is that of what
//! `type` names: under `-L` a link's target, or the link itself when it cannot be followed
//! (a dangling link, `"type":"symlink"`), as `-l` shows it.
//!
//! Strings escape, besides what JSON must (C0, `"`, `\`), every character the terminal listing
//! escapes ([`needs_escape`]: DEL, C1, invisible and direction-changing ones) as `\uXXXX`, piped
//! or not: a parser reads the same string, and no line can act on a terminal it reaches
//! (`tail -f`, `less -R`, a pipe into `tee`). Only names holding such characters grow.

use std::io;

use serde::Serialize;

use crate::filter::Meta;
use crate::fs::escape::needs_escape;
use crate::fs::Kind;
use crate::output::details::own_stat;
use crate::output::owners::Owners;

/// The metadata `--json-fields` asked for.
#[derive(Debug, Default, Clone, Copy)]
pub struct JsonFields {
    pub size: bool,
    pub mtime: bool,
    pub mode: bool,
    pub owner: bool,
    pub nlink: bool,
    pub inode: bool,
}

impl JsonFields {
    /// From `--json-fields` values (validated by clap).
    pub fn from_names(names: &[String]) -> JsonFields {
        let mut f = JsonFields::default();
        for name in names {
            match name.as_str() {
                "size" => f.size = true,
                "mtime" => f.mtime = true,
                "mode" => f.mode = true,
                "owner" => f.owner = true,
                "nlink" => f.nlink = true,
                "inode" => f.inode = true,
                _ => {}
            }
        }
        f
    }

    fn any(&self) -> bool {
        self.size || self.mtime || self.mode || self.owner || self.nlink || self.inode
    }
}

/// The name `"type"` gives a kind (the `-t` spellings).
pub fn type_name(kind: Kind) -> &'static str {
    match kind {
        Kind::File => "file",
        Kind::Dir => "directory",
        Kind::Symlink => "symlink",
        Kind::Fifo => "pipe",
        Kind::Socket => "socket",
        Kind::BlockDevice => "block-device",
        Kind::CharDevice => "char-device",
        Kind::Unknown => "unknown",
    }
}

/// A field that is either absent (not asked for) or present, possibly null.
type Field<T> = Option<Option<T>>;

#[derive(Serialize)]
struct Record<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    path_bytes: Option<&'a [u8]>,
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    size: Field<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mtime: Field<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mode: Field<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    uid: Field<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    gid: Field<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    user: Field<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    group: Field<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nlink: Field<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    inode: Field<u64>,
}

/// Appends the object for one result (without the line end).
pub fn write(
    out: &mut Vec<u8>,
    path: &[u8],
    kind: Kind,
    meta: &mut dyn Meta,
    fields: JsonFields,
    owners: &Owners,
) {
    let text = std::str::from_utf8(path).ok();
    let st = if !fields.any() {
        None
    } else if kind == Kind::Symlink {
        // Still a link after the walk's look: without -L its own metadata is the walk's;
        // under -L it cannot be followed, so its own is all there is to show.
        meta.stat().or_else(|| own_stat(path))
    } else {
        meta.stat()
    };
    let get = |asked: bool| asked.then_some(st);
    let record = Record {
        path: text,
        path_bytes: if text.is_none() { Some(path) } else { None },
        kind: type_name(kind),
        size: get(fields.size).map(|s| s.map(|s| s.size)),
        mtime: get(fields.mtime).map(|s| {
            s.and_then(|s| jiff::Timestamp::new(s.mtime, s.mtime_nsec as i32).ok())
                .map(|t| t.to_string())
        }),
        mode: get(fields.mode).map(|s| s.map(|s| format!("{:04o}", s.mode & 0o7777))),
        uid: get(fields.owner).map(|s| s.map(|s| s.uid)),
        gid: get(fields.owner).map(|s| s.map(|s| s.gid)),
        user: get(fields.owner).map(|s| s.and_then(|s| owners.user(s.uid))),
        group: get(fields.owner).map(|s| s.and_then(|s| owners.group(s.gid))),
        nlink: get(fields.nlink).map(|s| s.map(|s| s.nlink)),
        inode: get(fields.inode).map(|s| s.map(|s| s.ino)),
    };
    // Writing to a Vec cannot fail, and every field serializes. The strings that come from
    // outside are nearly always plain: then serde_json's own formatter is enough (the check
    // is a few instructions a record; looking at every string costs 20% of a --json listing).
    let names = [&record.user, &record.group].map(|f| f.as_ref().and_then(Option::as_deref));
    if below_del(path)
        && names
            .iter()
            .all(|n| n.is_none_or(|n| below_del(n.as_bytes())))
    {
        let _ = serde_json::to_writer(&mut *out, &record);
    } else {
        write_inert(out, &record);
    }
}

/// Appends `value` as compact JSON, every string escaped as a record's are (`Inert`).
pub fn write_inert<T: Serialize>(out: &mut Vec<u8>, value: &T) {
    // Writing to a Vec cannot fail.
    let _ = value.serialize(&mut serde_json::Serializer::with_formatter(
        &mut *out, Inert,
    ));
}

/// serde_json's compact output, with the characters a terminal could act on escaped.
struct Inert;

impl serde_json::ser::Formatter for Inert {
    /// `fragment` holds no C0 character, quote or backslash: serde_json escaped those.
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        if below_del(fragment.as_bytes()) {
            return writer.write_all(fragment.as_bytes());
        }
        let mut kept = 0;
        for (at, c) in fragment.char_indices() {
            if needs_escape(c) {
                writer.write_all(&fragment.as_bytes()[kept..at])?;
                for unit in c.encode_utf16(&mut [0; 2]) {
                    write!(writer, "\\u{unit:04x}")?;
                }
                kept = at + c.len_utf8();
            }
        }
        writer.write_all(&fragment.as_bytes()[kept..])
    }
}

/// Whether every byte is below DEL (0x7f), so that nothing in `bytes` needs an escape beyond
/// JSON's own: the common case, checked eight bytes at a time. A byte from 0x7f up sets its
/// top bit in `w | (w + 0x0101...)`; one below does not, and so carries into no other byte.
fn below_del(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const TOPS: u64 = u64::from_ne_bytes([0x80; 8]);
    let mut words = bytes.chunks_exact(8);
    let mut seen = 0;
    for word in &mut words {
        let w = u64::from_ne_bytes(word.try_into().expect("eight bytes"));
        seen |= w | w.wrapping_add(ONES);
    }
    seen & TOPS == 0 && words.remainder().iter().all(|&b| b < 0x7f)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(text: &str) -> String {
        let mut out = Vec::new();
        let _ = text.serialize(&mut serde_json::Serializer::with_formatter(&mut out, Inert));
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn below_del_finds_any_byte_from_del_up_in_any_place() {
        assert!(below_del(b"") && below_del(b"src/main.rs and some more ~~~~~"));
        for len in 1..20 {
            for at in 0..len {
                for b in [0x7f, 0x80, 0xc2, 0xff] {
                    let mut bytes = vec![b'~'; len];
                    bytes[at] = b;
                    assert!(!below_del(&bytes), "{bytes:?}");
                }
            }
        }
    }

    #[test]
    fn escapes_what_the_terminal_listing_escapes_and_reads_back() {
        for (text, want) in [
            ("plain", r#""plain""#),
            ("esc\u{1b}[2J\t\"q\"", r#""esc\u001b[2J\t\"q\"""#),
            ("del\u{7f}c1\u{9b}", r#""del\u007fc1\u009b""#),
            ("rlo\u{202e}txt caf\u{e9}", "\"rlo\\u202etxt caf\u{e9}\""),
            ("tag\u{e0041}!", r#""tag\udb40\udc41!""#),
        ] {
            let got = json(text);
            assert_eq!(got, want, "{text:?}");
            assert_eq!(serde_json::from_str::<String>(&got).unwrap(), text);
        }
    }
}
