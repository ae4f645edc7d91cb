//! A directory's remembered rules (docs/CACHE.md, "Remembered rules"): the section a record
//! may carry after its entries (format 5), so that a repeated search in a git tree neither
//! reads nor compiles an ignore file whose stamp is unchanged, nor matches an entry whose
//! verdict is known.
//!
//! The section holds the key of the rules that judged the directory's entries (a hash of the
//! options, the global and command-line files, and every ignore file from the search root's
//! ancestors down to this directory, `walk/remembered.rs` makes it), whether the directory
//! holds a `.git`, each ignore file the directory's rules were read from (its name, its stamp
//! or none when it was not there, a hash of its bytes, and the bytes), and one verdict per
//! entry ([`Code`]). Little-endian, as the record around it, whose CRC covers it. Nothing here
//! touches the file system.

use super::format::Stamp;

/// The bytes a stamp takes in a section.
const STAMP: usize = 64;

/// One entry's verdict, as the rules gave it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Code {
    /// No rule speaks of it.
    None = 0,
    /// A rule hides it.
    Ignore = 1,
    /// A `!` rule brings it back.
    Whitelist = 2,
    /// Not judged by the rules (a name the pattern turned away first).
    Unjudged = 3,
}

impl Code {
    /// The code of a stored byte; `None` for a byte no code has.
    pub fn of(byte: u8) -> Option<Code> {
        [Code::None, Code::Ignore, Code::Whitelist, Code::Unjudged]
            .get(usize::from(byte))
            .copied()
    }
}

/// One ignore file as a directory's rules were read from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleFile<'a> {
    /// Its path relative to the directory (`.gitignore`, `.git/info/exclude`).
    pub name: &'a [u8],
    /// Its stamp before it was read, followed through links; `None`: nothing was there.
    pub stamp: Option<Stamp>,
    /// [`content_hash`] of its bytes.
    pub hash: u64,
    /// Its bytes.
    pub bytes: &'a [u8],
}

/// A hash of an ignore file's bytes, for the key of the rules read from it: the one the
/// index hashes a path with ([`super::format::index_hash`]), its length and its bytes.
pub fn content_hash(bytes: &[u8]) -> u64 {
    super::format::index_hash(bytes)
}

/// A section, read back.
#[derive(Debug, PartialEq, Eq)]
pub struct Section<'a> {
    /// The key of the rules that judged the entries.
    pub key: u64,
    /// The directory holds a `.git` (a repository's root).
    pub has_git: bool,
    pub files: Vec<RuleFile<'a>>,
    /// One byte per entry, in the record's order: a [`Code`].
    pub verdicts: &'a [u8],
}

/// Appends a section to `out`.
pub fn write(out: &mut Vec<u8>, key: u64, has_git: bool, files: &[RuleFile<'_>], verdicts: &[u8]) {
    out.extend_from_slice(&key.to_le_bytes());
    out.push(u8::from(has_git));
    out.push(u8::try_from(files.len()).unwrap_or(u8::MAX));
    for f in files.iter().take(usize::from(u8::MAX)) {
        out.push(u8::try_from(f.name.len()).unwrap_or(u8::MAX));
        out.extend_from_slice(&f.name[..f.name.len().min(255)]);
        match &f.stamp {
            Some(s) => {
                out.push(1);
                put_stamp(out, s);
            }
            None => out.push(0),
        }
        out.extend_from_slice(&f.hash.to_le_bytes());
        out.extend_from_slice(&u32::try_from(f.bytes.len()).unwrap_or(0).to_le_bytes());
        out.extend_from_slice(f.bytes);
    }
    out.extend_from_slice(verdicts);
}

/// Reads the section `bytes` of a record of `count` entries: `None` when it does not parse
/// whole (a record without one has no bytes here).
pub fn read(bytes: &[u8], count: u32) -> Option<Section<'_>> {
    let mut r = Reader(bytes);
    let key = u64::from_le_bytes(r.take(8)?.try_into().ok()?);
    let has_git = match r.take(1)?[0] {
        0 => false,
        1 => true,
        _ => return None,
    };
    let n = r.take(1)?[0];
    let mut files = Vec::with_capacity(usize::from(n));
    for _ in 0..n {
        let len = r.take(1)?[0];
        let name = r.take(usize::from(len))?;
        let stamp = match r.take(1)?[0] {
            0 => None,
            1 => Some(get_stamp(r.take(STAMP)?)),
            _ => return None,
        };
        let hash = u64::from_le_bytes(r.take(8)?.try_into().ok()?);
        let len = u32::from_le_bytes(r.take(4)?.try_into().ok()?);
        let bytes = r.take(usize::try_from(len).ok()?)?;
        files.push(RuleFile {
            name,
            stamp,
            hash,
            bytes,
        });
    }
    let verdicts = r.0;
    let whole = verdicts.len() == usize::try_from(count).ok()?
        && verdicts.iter().all(|&b| Code::of(b).is_some());
    whole.then_some(Section {
        key,
        has_git,
        files,
        verdicts,
    })
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, rest) = (self.0.get(..n)?, self.0.get(n..)?);
        self.0 = rest;
        Some(head)
    }
}

fn put_stamp(out: &mut Vec<u8>, s: &Stamp) {
    for v in [s.dev, s.ino] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for (secs, ns) in [s.mtime, s.ctime] {
        out.extend_from_slice(&secs.to_le_bytes());
        out.extend_from_slice(&ns.to_le_bytes());
    }
    out.extend_from_slice(&s.size.to_le_bytes());
    for v in [s.mode, s.nlink, s.uid, s.gid] {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

fn get_stamp(b: &[u8]) -> Stamp {
    let u64_at = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"));
    let u32_at = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"));
    let i64_at = |at: usize| i64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"));
    Stamp {
        dev: u64_at(0),
        ino: u64_at(8),
        mtime: (i64_at(16), u32_at(24)),
        ctime: (i64_at(28), u32_at(36)),
        size: u64_at(40),
        mode: u32_at(48),
        nlink: u32_at(52),
        uid: u32_at(56),
        gid: u32_at(60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_section_reads_back_as_written_and_a_cut_one_not_at_all() {
        let stamp = Stamp {
            dev: 1,
            ino: 2,
            mtime: (3, 4),
            ctime: (-5, 6),
            size: 7,
            mode: 8,
            nlink: 9,
            uid: 10,
            gid: 11,
        };
        let files = [
            RuleFile {
                name: b".gitignore",
                stamp: Some(stamp),
                hash: content_hash(b"*.o\n"),
                bytes: b"*.o\n",
            },
            RuleFile {
                name: b".git/info/exclude",
                stamp: None,
                hash: content_hash(b""),
                bytes: b"",
            },
        ];
        let verdicts = [0, 1, 2, 3];
        let mut out = Vec::new();
        write(&mut out, 42, true, &files, &verdicts);
        let back = read(&out, 4).expect("whole");
        assert_eq!(
            back,
            Section {
                key: 42,
                has_git: true,
                files: files.to_vec(),
                verdicts: &verdicts,
            }
        );
        // Another entry count, a byte short or one more, a verdict no code has: refused.
        assert!(read(&out, 3).is_none());
        assert!(read(&out[..out.len() - 1], 4).is_none());
        for cut in 0..out.len() - 4 {
            assert!(read(&out[..cut], 0).is_none(), "cut at {cut}");
        }
        let last = out.len() - 1;
        out[last] = 4;
        assert!(read(&out, 4).is_none());
    }
}
