//! `--json`: one JSON object per result and line (NDJSON), written with serde_json.
//!
//! `{"path": "src/main.rs", "type": "file"}`; a path that is not UTF-8 comes as
//! `"path_bytes": [98, 97, 100, 255]` instead of `"path"`. `--json-fields` adds `size`,
//! `mtime` (RFC 3339, UTC), `mode` ("0644"), `uid`/`gid`/`user`/`group`, `nlink`, `inode`;
//! each is `null` when the entry's metadata cannot be read.

use serde::Serialize;

use crate::filter::Meta;
use crate::output::owners::Owners;
use crate::walk::dir::Kind;

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
    let st = if fields.any() { meta.stat() } else { None };
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
    // Writing to a Vec cannot fail, and every field serializes.
    let _ = serde_json::to_writer(&mut *out, &record);
}
