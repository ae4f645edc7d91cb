//! The rules a `--cache` search remembers (docs/CACHE.md, "Remembered rules"): for each
//! directory the memo serves, its ignore files and its entries' verdicts, so that a repeated
//! search in a git tree neither opens an ignore file whose stamp is unchanged nor asks the
//! rules of an entry whose verdict is known.
//!
//! Never stale, by a key: each directory's state carries the key of the rules in force for
//! its entries ([`DirState::rules_key`](crate::walk::visit::DirState)), a hash of the
//! options, the global and command-line files and the files above the search root
//! ([`IgnoreOptions::fingerprint`]), then of each directory's own files from the root down
//! (their bytes' hashes, [`own_key`]). A directory's files are known without being read only
//! when each one's stamp (device, inode, size, times, taken following links) is the one
//! remembered, a file that was not there is still not there, and each had settled when it
//! was read (the racy rule of the listings). Its verdicts are served only when the key
//! they were given under is the key now: an edit in place, a file added or removed above, a
//! global file changed each change the key of every directory below.
//!
//! A directory whose verdicts are served does not compile its rules: they are compiled
//! ([`Deferred`]) only when a directory below needs them (its listing changed, its verdicts
//! are stale), from the bytes remembered, as the walk would have compiled them.

use std::ffi::CString;
use std::hash::Hasher;
use std::sync::{Arc, OnceLock};

use crate::filter::ignore::{say_of_file, IgnoreFiles, IgnoreNode, Unread, Verdict};
use crate::filter::rules::FxHasher;
use crate::fs::{Dir, Fault, Kind};
use crate::memo::format::Stamp;
use crate::memo::rules::{self, content_hash, Code, RuleFile, Section};
use crate::walk::contract::Walk;

/// The ignore rules in force for a directory's entries: compiled, or remembered and compiled
/// when first needed.
#[derive(Debug, Clone)]
pub enum Chain {
    Ready(Option<Arc<IgnoreNode>>),
    Deferred(Arc<Deferred>),
}

impl Default for Chain {
    fn default() -> Chain {
        Chain::Ready(None)
    }
}

impl Chain {
    /// The compiled rules (compiled now when they were deferred).
    pub fn node(&self, walk: &Walk<'_>) -> Option<&Arc<IgnoreNode>> {
        match self {
            Chain::Ready(node) => node.as_ref(),
            Chain::Deferred(d) => d.compiled(walk).as_ref(),
        }
    }
}

/// A directory's rules, remembered and not yet compiled.
#[derive(Debug)]
pub struct Deferred {
    parent: Chain,
    /// The directory as messages show it.
    dir_path: Vec<u8>,
    base_len: usize,
    root_base: usize,
    /// The ignore files (and `.git`) its listing holds.
    present: Vec<&'static str>,
    has_git: bool,
    /// Each file its rules were read from.
    files: Vec<StoredFile>,
    node: OnceLock<Option<Arc<IgnoreNode>>>,
}

impl Deferred {
    /// The rules of the directory `dir_path` (its children's names start at `base_len`)
    /// holding the ignore files `present`, below `parent`, read from `section`.
    pub fn new(
        parent: Chain,
        dir_path: &[u8],
        base_len: usize,
        root_base: usize,
        present: &[(&'static str, Kind)],
        section: &Section<'_>,
    ) -> Deferred {
        Deferred {
            parent,
            dir_path: dir_path.to_vec(),
            base_len,
            root_base,
            present: present.iter().map(|(n, _)| *n).collect(),
            has_git: section.has_git,
            files: section
                .files
                .iter()
                .map(|f| (f.name.into(), f.stamp.map(|_| f.bytes.to_vec())))
                .collect(),
            node: OnceLock::new(),
        }
    }

    /// Its compiled rules, and those of the deferred directories above it first.
    pub fn compiled(&self, walk: &Walk<'_>) -> &Option<Arc<IgnoreNode>> {
        if let Some(node) = self.node.get() {
            return node;
        }
        // Top down, and without recursion: a deep tree may defer thousands.
        let mut above = Vec::new();
        let mut cur = &self.parent;
        while let Chain::Deferred(d) = cur {
            if d.node.get().is_some() {
                break;
            }
            above.push(d);
            cur = &d.parent;
        }
        for d in above.into_iter().rev() {
            d.compile(walk);
        }
        self.compile(walk)
    }

    /// Compiles its rules, its parent's compiled already.
    fn compile(&self, walk: &Walk<'_>) -> &Option<Arc<IgnoreNode>> {
        self.node.get_or_init(|| {
            let parent = match &self.parent {
                Chain::Ready(node) => node.clone(),
                Chain::Deferred(d) => d.compile(walk).clone(),
            };
            let opts = walk.config.ignore.as_ref()?;
            opts.for_dir(
                parent.as_ref(),
                self.base_len,
                self.root_base,
                Vec::new(),
                &mut Stored { rules: self, walk },
            )
        })
    }
}

/// A file a directory's rules were read from: its name, and its bytes (`None`: not there).
type StoredFile = (Box<[u8]>, Option<Vec<u8>>);

/// A deferred directory's files, as the rules read them.
struct Stored<'a> {
    rules: &'a Deferred,
    walk: &'a Walk<'a>,
}

impl IgnoreFiles for Stored<'_> {
    fn has(&self, name: &str) -> bool {
        if name == ".git" {
            self.rules.has_git
        } else {
            self.rules.present.contains(&name)
        }
    }

    fn path(&self) -> std::path::PathBuf {
        match self.rules.dir_path.as_slice() {
            b"" => ".".into(),
            p => crate::fs::os_path(p).into_owned(),
        }
    }

    fn read(&mut self, rel: &str) -> Result<Vec<u8>, Unread> {
        let file = self
            .rules
            .files
            .iter()
            .find(|(n, _)| **n == *rel.as_bytes());
        file.and_then(|(_, bytes)| bytes.clone())
            .ok_or(Unread::Absent)
    }

    fn say(&mut self, rel: &str, what: &str) {
        say_of_file(self.walk.report, &self.rules.dir_path, rel, what);
    }

    fn shown(&self) -> &[u8] {
        &self.rules.dir_path
    }
}

/// The key a search root's entries are judged under, or `None` when verdicts are neither
/// served nor remembered: no memo, links followed (an entry's kind is its target's, which
/// may change without its directory changing), or global excludes that depend on the
/// repository.
pub fn root_key(walk: &Walk<'_>, node: Option<&IgnoreNode>) -> Option<u64> {
    if walk.memo.is_none() || walk.config.follow {
        return None;
    }
    walk.config.ignore.as_ref()?.fingerprint(node)
}

/// The key of a directory's entries: its parent's, then its own files.
pub fn own_key<'f>(
    parent: u64,
    has_git: bool,
    files: impl Iterator<Item = (&'f [u8], bool, u64)>,
) -> u64 {
    let mut h = FxHasher::default();
    h.write_u64(parent);
    h.write_u8(u8::from(has_git));
    for (name, there, hash) in files {
        h.write(name);
        h.write_u8(u8::from(there));
        h.write_u64(hash);
    }
    h.finish()
}

/// What a directory's ignore files were as its rules read them, for its key and its record.
#[derive(Debug, Default)]
pub struct Kept {
    /// Each file read: its name, its stamp before the read (`None`: not there), its bytes.
    files: Vec<(String, Option<Stamp>, Vec<u8>)>,
    has_git: bool,
    /// Every read was one the memo can stand for (a file there and read, or not there): no
    /// failure, no message, no path outside the directory.
    whole: bool,
    asked: bool,
}

impl Kept {
    /// Ready to keep what a directory's rules read.
    pub fn new() -> Kept {
        Kept {
            whole: true,
            ..Kept::default()
        }
    }

    /// A `.git` was asked for, and found or not.
    pub fn has(&mut self, name: &str, found: bool) {
        if name == ".git" && found {
            self.has_git = true;
        }
    }

    /// Reads the file `rel` of `dir` with `read`, its stamp taken first.
    pub fn read(
        &mut self,
        dir: &Dir,
        rel: &str,
        read: impl FnOnce() -> Result<Vec<u8>, Unread>,
    ) -> Result<Vec<u8>, Unread> {
        self.asked = true;
        let stamp = match CString::new(rel) {
            Ok(c) if !rel.starts_with('/') => dir.raw_stat_at(&c, true),
            _ => {
                self.whole = false;
                return read();
            }
        };
        let result = read();
        match (&result, stamp) {
            (Ok(bytes), Ok(st)) if st.stat.kind() == Kind::File => {
                self.files
                    .push((rel.to_owned(), Some(Stamp::of_raw(&st)), bytes.clone()));
            }
            (Err(Unread::Absent), st) if absent(st.as_ref().map(|st| st.stat.kind())) => {
                self.files.push((rel.to_owned(), None, Vec::new()));
            }
            _ => self.whole = false,
        }
        result
    }

    /// Something was said of a file: the memo cannot stand for reading it.
    pub fn said(&mut self) {
        self.whole = false;
    }

    /// The key of the directory's entries below a parent keyed `parent`; `None` when its
    /// files cannot be stood for.
    pub fn key(&self, parent: u64) -> Option<u64> {
        self.whole.then(|| {
            own_key(
                parent,
                self.has_git,
                self.files
                    .iter()
                    .map(|(n, st, b)| (n.as_bytes(), st.is_some(), content_hash(b))),
            )
        })
    }

    /// The record's section for these files and `verdicts` under `key`, if each file there
    /// had settled (`settled`) when it was read.
    pub fn section(
        &self,
        key: u64,
        verdicts: &[u8],
        settled: impl Fn(&Stamp) -> bool,
    ) -> Option<Vec<u8>> {
        if !self.whole || self.files.iter().flat_map(|f| &f.1).any(|st| !settled(st)) {
            return None;
        }
        let files: Vec<RuleFile<'_>> = self
            .files
            .iter()
            .map(|(name, stamp, bytes)| RuleFile {
                name: name.as_bytes(),
                stamp: *stamp,
                hash: content_hash(bytes),
                bytes,
            })
            .collect();
        let mut out = Vec::new();
        rules::write(&mut out, key, self.has_git, &files, verdicts);
        Some(out)
    }
}

/// Whether a stat's outcome (a kind, or the error) means no file to read there: nothing, or a
/// directory (which a read finds absent too).
fn absent(st: Result<Kind, &std::io::Error>) -> bool {
    match st {
        Ok(kind) => kind == Kind::Dir,
        Err(e) => Fault::NotFound.is(e) || Fault::NotADirectory.is(e),
    }
}

/// Whether each file a section remembers is as it was: the same stamp, or still not there.
pub fn unchanged(dir: &Dir, section: &Section<'_>) -> bool {
    section.files.iter().all(|f| {
        let Ok(name) = CString::new(f.name) else {
            return false;
        };
        let st = dir.raw_stat_at(&name, true);
        match (&f.stamp, st) {
            (Some(stamp), Ok(st)) => Stamp::of_raw(&st) == *stamp,
            (Some(_), Err(_)) => false,
            (None, st) => absent(st.as_ref().map(|st| st.stat.kind())),
        }
    })
}

/// The key of a section's directory below a parent keyed `parent`.
pub fn section_key(parent: u64, section: &Section<'_>) -> u64 {
    own_key(
        parent,
        section.has_git,
        section
            .files
            .iter()
            .map(|f| (f.name, f.stamp.is_some(), f.hash)),
    )
}

/// A served verdict, from its stored byte (`None` when not judged then).
pub fn verdict_of(code: u8) -> Option<Verdict> {
    match Code::of(code)? {
        Code::None => Some(Verdict::None),
        Code::Ignore => Some(Verdict::Ignore),
        Code::Whitelist => Some(Verdict::Whitelist),
        Code::Unjudged => None,
    }
}

/// The byte a verdict is stored as.
pub fn code_of(verdict: Verdict) -> u8 {
    (match verdict {
        Verdict::None => Code::None,
        Verdict::Ignore => Code::Ignore,
        Verdict::Whitelist => Code::Whitelist,
    }) as u8
}

/// The byte of an entry not judged (yet).
pub const UNJUDGED: u8 = Code::Unjudged as u8;
