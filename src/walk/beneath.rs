//! Keeping the walker-crate methods inside the search root when links are not followed.
//!
//! walkdir, jwalk and the ignore crate list a directory by its path: if the directory is
//! swapped for a symlink between its parent's listing and its own (a race anyone who can write
//! in the tree can run), the crate lists the link's target, outside the root. So every entry
//! such a crate lists is checked here before it is printed or descended: its directory is
//! opened from the search root's descriptor without following any symlink
//! ([`Dir::open_beneath`]), and the entry must be there, under the same name, of the same kind
//! and (where the crate gives it) with the same inode: in that directory's own listing (read
//! once, when the descriptor budget allows keeping it), else by `fstatat`. An entry the crate read elsewhere fails
//! the check and is dropped silently, as an entry that vanished. The methods that read
//! directories themselves never need this: they open each directory relative to its parent's
//! descriptor with `O_NOFOLLOW`.

use std::collections::HashMap;
use std::ffi::CStr;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::Arc;

use crate::config::Root;
use crate::walk::dir::{Dir, Kind, Listing};
use crate::walk::visit::display_path;
use crate::walk::Walk;

/// Directories held open at once by one checker, at most (the descriptor budget shared by up
/// to 64 threads may allow fewer, or none between checks). A crate's worker walks depth
/// first: it comes back to a directory after the ones below it, which must not have pushed it
/// out (re-reading a wide directory for each of its subdirectories would be quadratic).
const CACHED: usize = 16;

/// Checks entries a walker crate listed against the real directories below one search root.
/// One per thread; cheap to create.
pub struct Beneath {
    /// The search root's path as the crate was given it (its entries' paths start with it).
    root_path: Box<Path>,
    root: Arc<Dir>,
    /// Directories opened beneath the root, by their path below it; the newest last.
    open: Vec<Held>,
    /// How many of them to keep open.
    keep: usize,
    /// The entry's name with its NUL, reused.
    name: Vec<u8>,
}

impl Beneath {
    /// A checker for the search root `root` (opened by `root_path`, links followed: a search
    /// root may be a link).
    pub fn new(root_path: &Path, root: Arc<Dir>) -> Beneath {
        Beneath {
            root_path: root_path.into(),
            root,
            open: Vec::new(),
            name: Vec::new(),
            keep: (crate::walk::dir::fd_budget() / crate::walk::threads::STEALING_MAX).min(CACHED),
        }
    }

    /// A checker for the same root with nothing open yet, for another thread.
    pub fn again(&self) -> Beneath {
        Beneath::new(&self.root_path, self.root.clone())
    }

    /// [`Beneath::holds`] for the walk: an entry that cannot be checked is said on stderr (at
    /// its display path, built into `shown`) and counts as not there. Read from elsewhere (a
    /// directory swapped for a link), an entry is not beneath the root, and not an error.
    pub fn holds_or_say(
        &mut self,
        walk: &Walk<'_>,
        root: &Root,
        entry_path: &Path,
        kind: Kind,
        ino: Option<u64>,
        shown: &mut Vec<u8>,
    ) -> bool {
        self.holds(entry_path, kind, ino).unwrap_or_else(|e| {
            display_path(shown, root, entry_path);
            walk.report.path_error(shown, &e);
            false
        })
    }

    /// Whether `entry_path` (as the crate built it) is, now, an entry of the real directory
    /// beneath the root, of kind `kind` (links not followed) and, when `ino` is given, that
    /// inode (or a mount point there, whose inode the listing cannot know). `Ok(false)` when
    /// it is not there (read elsewhere, or vanished); an error when it cannot be checked.
    pub fn holds(&mut self, entry_path: &Path, kind: Kind, ino: Option<u64>) -> io::Result<bool> {
        let held = self.check(entry_path, kind, ino);
        if self.keep == 0 {
            self.open.clear();
        }
        held
    }

    fn check(&mut self, entry_path: &Path, kind: Kind, ino: Option<u64>) -> io::Result<bool> {
        // The crate built the path on the root's: what follows it is the path below the root.
        let full = entry_path.as_os_str().as_bytes();
        let root = self.root_path.as_os_str().as_bytes();
        let rel = match full.strip_prefix(root) {
            Some(rest) => rest.strip_prefix(b"/").unwrap_or(rest),
            None => full,
        };
        let (dir, name) = match rel.iter().rposition(|&b| b == b'/') {
            Some(i) => (&rel[..i], &rel[i + 1..]),
            None => (&b""[..], rel),
        };
        let mut name_buf = std::mem::take(&mut self.name);
        name_buf.clear();
        name_buf.extend_from_slice(name);
        name_buf.push(0);
        let held = match CStr::from_bytes_with_nul(&name_buf) {
            Ok(name) => self.check_in(dir, name, kind, ino),
            Err(_) => Ok(false),
        };
        self.name = name_buf;
        held
    }

    fn check_in(
        &mut self,
        dir: &[u8],
        name: &CStr,
        kind: Kind,
        ino: Option<u64>,
    ) -> io::Result<bool> {
        let held = match self.find_or_open(dir) {
            Ok(held) => held,
            Err(e) if is_not_beneath(&e) => return Ok(false),
            Err(e) => return Err(e),
        };
        // The real directory's own listing, read once: its (name, inode, type) against the
        // crate's, without a system call per entry.
        if let Some(listed) = held.names.as_ref().and_then(|n| n.get(name.to_bytes())) {
            let (listed_ino, listed_kind) = *listed;
            if listed_kind != Kind::Unknown {
                return Ok(listed_kind == kind && ino.is_none_or(|ino| ino == listed_ino));
            }
        }
        // Not listed (created since, or nothing kept under a tight descriptor budget), or of a
        // type the listing does not say: look it up.
        match held.dir.stat_at(name, false) {
            Ok(st) => {
                Ok(st.kind() == kind && ino.is_none_or(|ino| st.ino == ino || st.dev != held.dev))
            }
            Err(e) if is_not_beneath(&e) => Ok(false),
            // A directory that may be listed but not searched (r--): its listing says.
            Err(e) if e.raw_os_error() == Some(libc::EACCES) => {
                let dir = self.root.open_beneath(dir)?;
                let mut listing = Listing::default();
                listing.read_all(&dir)?;
                let found = listing.entries().any(|(n, k, i)| {
                    n == name && (k == kind || k == Kind::Unknown) && ino.is_none_or(|ino| ino == i)
                });
                Ok(found)
            }
            Err(e) => Err(e),
        }
    }

    /// The directory `dir` below the root, opened (and, when it is kept, listed) if it is not
    /// held yet.
    fn find_or_open(&mut self, dir: &[u8]) -> io::Result<&Held> {
        // Searched from the newest: a depth-first walk asks about the directory it just opened.
        if let Some(i) = self.open.iter().rposition(|h| &*h.path == dir) {
            // Least recently used first: a depth-first walk comes back to its parents.
            let last = self.open.len() - 1;
            if i != last {
                let held = self.open.remove(i);
                self.open.push(held);
            }
            return Ok(&self.open[last]);
        }
        let opened = self.root.open_beneath(dir)?;
        let dev = opened.stat()?.dev;
        let names = if self.keep > 0 {
            let mut listing = Listing::default();
            listing.read_all(&opened)?;
            Some(
                listing
                    .entries()
                    .map(|(n, k, i)| (n.to_bytes().to_vec(), (i, k)))
                    .collect(),
            )
        } else {
            None
        };
        if self.open.len() >= self.keep.max(1) {
            self.open.remove(0);
        }
        self.open.push(Held {
            path: dir.into(),
            dir: opened,
            dev,
            names,
        });
        Ok(&self.open[self.open.len() - 1])
    }
}

/// A directory beneath the root, held open for checks.
struct Held {
    /// Its path below the root.
    path: Box<[u8]>,
    dir: Dir,
    dev: u64,
    /// Its entries when it was opened: name to inode and type.
    names: Option<HashMap<Vec<u8>, (u64, Kind)>>,
}

/// Errors that mean the path is no longer (or never was) a directory beneath the root: a link
/// on the way (`ELOOP`), removed, replaced by a file.
fn is_not_beneath(e: &io::Error) -> bool {
    matches!(
        e.raw_os_error(),
        Some(libc::ELOOP | libc::ENOENT | libc::ENOTDIR | libc::EXDEV)
    )
}

/// The checker for a search root of a walker-crate method: `None` under `-L` (links are
/// followed by request), or when the root cannot be opened, which is then said and `Err`.
pub fn for_root(
    walk: &crate::walk::Walk<'_>,
    root: &crate::config::Root,
) -> Result<Option<Beneath>, ()> {
    if walk.config.follow {
        return Ok(None);
    }
    match Dir::open_path(root.open_path()) {
        Ok(dir) => {
            let path = Path::new(std::ffi::OsStr::from_bytes(root.open_path()));
            Ok(Some(Beneath::new(path, Arc::new(dir))))
        }
        Err(e) => {
            walk.report.path_error(root.open_path(), &e);
            Err(())
        }
    }
}
