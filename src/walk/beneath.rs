//! Keeping the walker-crate methods inside the search root when links are not followed.
//!
//! The methods without `OwnReader` (walker crates) list a directory by its path: if the directory is
//! swapped for a symlink between its parent's listing and its own (a race anyone who can write
//! in the tree can run), the crate lists the link's target, outside the root. So every entry
//! such a crate lists is checked here before it is printed or descended: its directory is
//! opened from the search root's descriptor without following any symlink
//! ([`Dir::open_beneath`]), and the entry must be there, under the same name, of the same kind
//! and (where the crate gives it) with the same inode: in that directory's own listing (read
//! once for all the threads of a walk, when the descriptor budget allows keeping it), else by
//! `fstatat`. An entry the crate read elsewhere fails
//! the check and is dropped silently, as an entry that vanished. The methods that read
//! directories themselves never need this: they open each directory relative to its parent's
//! descriptor with `O_NOFOLLOW`.

use std::collections::HashMap;
use std::ffi::CStr;
use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use crate::config::Root;
use crate::fs::{is_separator, Dir, Fault, Kind, Listing};
use crate::walk::contract::Walk;
use crate::walk::visit::display_path;

/// Directories held open at once for one search root, at most, by all its threads together (the
/// descriptor budget may allow fewer, or none between checks). A directory is let go as soon
/// as every entry of its listing has been checked, so those held are the ones whose entries
/// are still on their way: a crate's worker walks depth first and comes back to a directory
/// after the ones below it, which must not have pushed it out (re-reading a wide directory for
/// each of its subdirectories would be quadratic), and at `-j 64` each of 64 workers has such
/// a chain of directories under way.
const CACHED: usize = 256;

/// Checks entries a walker crate listed against the real directories below one search root.
/// One per thread ([`Beneath::again`]); the directories they open and list are shared, so a
/// directory whose entries the crate hands to many threads is listed and held once, not once
/// per thread (200,000 files in one directory took 1.4 GB at `-j 64`).
pub struct Beneath {
    shared: Arc<Shared>,
    /// The directory this thread checked an entry of last: the crates hand out a directory's
    /// entries in runs, so most checks find their directory here, without a lock.
    last: Option<Arc<Held>>,
    /// The entry's name with its NUL, reused.
    name: Vec<u8>,
}

/// What the threads checking one search root share.
struct Shared {
    /// The search root's path as the crate was given it (its entries' paths start with it).
    root_path: Box<Path>,
    root: Arc<Dir>,
    /// Directories opened beneath the root, the most recently used last.
    slots: Mutex<Vec<Arc<Slot>>>,
    /// How many of them to keep open: a share of the descriptor budget, the rest being the
    /// crate's and walkdir's (`max_open`); each thread may hold one more, its `last`.
    keep: usize,
    /// The id of the next slot.
    next_id: AtomicUsize,
}

/// A directory of [`Shared::slots`]: its path below the root and, once opened, the directory.
struct Slot {
    /// Tells this slot from a later one of the same path.
    id: usize,
    path: Box<[u8]>,
    held: Mutex<Option<Arc<Held>>>,
}

impl Beneath {
    /// A checker for the search root `root` (opened by `root_path`, links followed: a search
    /// root may be a link).
    pub fn new(root_path: &Path, root: Arc<Dir>) -> Beneath {
        let keep = (crate::fs::fd_budget() / 2).min(CACHED);
        Beneath::keeping(root_path, root, keep)
    }

    /// [`Beneath::new`], keeping up to `keep` directories.
    fn keeping(root_path: &Path, root: Arc<Dir>, keep: usize) -> Beneath {
        Beneath {
            shared: Arc::new(Shared {
                root_path: root_path.into(),
                root,
                slots: Mutex::new(Vec::new()),
                keep,
                next_id: AtomicUsize::new(0),
            }),
            last: None,
            name: Vec::new(),
        }
    }

    /// A checker for another thread, sharing the directories this one holds.
    pub fn again(&self) -> Beneath {
        Beneath {
            shared: self.shared.clone(),
            last: None,
            name: Vec::new(),
        }
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
        if self.shared.keep == 0 {
            self.last = None;
        }
        held
    }

    fn check(&mut self, entry_path: &Path, kind: Kind, ino: Option<u64>) -> io::Result<bool> {
        // The crate built the path on the root's: what follows it is the path below the root.
        let full = entry_path.as_os_str().as_encoded_bytes();
        let root = self.shared.root_path.as_os_str().as_encoded_bytes();
        let rel = match full.strip_prefix(root) {
            Some([sep, rest @ ..]) if is_separator(*sep) => rest,
            Some(rest) => rest,
            None => full,
        };
        let (dir, name) = match rel.iter().rposition(|&b| is_separator(b)) {
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
        let shared = &*self.shared;
        let held = match shared.find_or_open(&mut self.last, dir) {
            Ok(held) => held,
            Err(e) if is_not_beneath(&e) => return Ok(false),
            Err(e) => return Err(e),
        };
        // The real directory's own listing, read once: its (name, inode, type) against the
        // crate's, without a system call per entry.
        let listed = held.names.as_ref().and_then(|n| n.get(name.to_bytes()));
        // The crates hand out each entry once: after the last, no check needs the listing.
        let finished = listed.is_some() && held.unchecked.fetch_sub(1, Ordering::Relaxed) == 1;
        if finished {
            shared.forget(held.slot);
        }
        let found = match listed {
            Some(&(listed_ino, listed_kind)) if listed_kind != Kind::Unknown => {
                Ok(listed_kind == kind && ino.is_none_or(|ino| ino == listed_ino))
            }
            _ => shared.look_up(held, dir, name, kind, ino),
        };
        if finished {
            self.last = None;
        }
        found
    }
}

impl Shared {
    /// Whether `name` is, now, an entry of kind `kind` (and inode `ino`) in `held`, the
    /// directory `dir`, looked up by name: it is not in the listing (created since, or nothing
    /// kept under a tight descriptor budget), or the listing does not say its type.
    fn look_up(
        &self,
        held: &Held,
        dir: &[u8],
        name: &CStr,
        kind: Kind,
        ino: Option<u64>,
    ) -> io::Result<bool> {
        match held.dir.stat_at(name, false) {
            Ok(st) => {
                Ok(st.kind() == kind && ino.is_none_or(|ino| st.ino == ino || st.dev != held.dev))
            }
            Err(e) if is_not_beneath(&e) => Ok(false),
            // A directory that may be listed but not searched (r--): its listing says.
            Err(e) if Fault::Denied.is(&e) => {
                let dir = self.root.open_beneath(dir)?;
                let mut listing = Listing::default();
                listing.read_all(&dir)?;
                let found = listing.entries().any(|e| {
                    e.name == name
                        && (e.kind == kind || e.kind == Kind::Unknown)
                        && ino.is_none_or(|ino| ino == e.ino)
                });
                Ok(found)
            }
            Err(e) => Err(e),
        }
    }

    /// The directory `dir` below the root, made a thread's `last`: that one if it is `dir`,
    /// else [`Shared::held`].
    fn find_or_open<'a>(
        &self,
        last: &'a mut Option<Arc<Held>>,
        dir: &[u8],
    ) -> io::Result<&'a Held> {
        let held = match last.take() {
            Some(held) if *held.path == *dir => held,
            other => {
                drop(other);
                self.held(dir)?
            }
        };
        Ok(last.insert(held))
    }

    /// The directory `dir` below the root as the threads share it, opened and listed by the
    /// first to ask while the others that ask wait; when the budget keeps none, opened for
    /// one check.
    fn held(&self, dir: &[u8]) -> io::Result<Arc<Held>> {
        if self.keep == 0 {
            return self.open(dir, None).map(Arc::new);
        }
        let slot = self.slot(dir);
        let mut cell = slot.held.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(held) = &*cell {
            return Ok(held.clone());
        }
        match self.open(dir, Some(slot.id)) {
            Ok(held) => Ok(cell.insert(Arc::new(held)).clone()),
            Err(e) => {
                drop(cell);
                self.forget(Some(slot.id));
                Err(e)
            }
        }
    }

    /// The slot of the directory `dir`, made the most recently used; a new, empty one (the
    /// least recently used out) when it is not held.
    fn slot(&self, dir: &[u8]) -> Arc<Slot> {
        let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        // Searched from the newest: a depth-first walk asks about the directory it just opened.
        if let Some(i) = slots.iter().rposition(|s| &*s.path == dir) {
            // Least recently used first: a depth-first walk comes back to its parents.
            let slot = slots.remove(i);
            slots.push(slot.clone());
            return slot;
        }
        if slots.len() >= self.keep {
            slots.remove(0);
        }
        let slot = Arc::new(Slot {
            id: self.next_id.fetch_add(1, Ordering::Relaxed),
            path: dir.into(),
            held: Mutex::new(None),
        });
        slots.push(slot.clone());
        slot
    }

    /// Lets go of the slot `id` (its entries are all checked, or its directory could not be
    /// opened, for the next check to try again); threads that hold its directory keep it until
    /// they move on.
    fn forget(&self, id: Option<usize>) {
        let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(i) = slots.iter().rposition(|s| Some(s.id) == id) {
            slots.remove(i);
        }
    }

    /// Opens `dir` beneath the root and, for the slot `slot`, reads its listing.
    fn open(&self, dir: &[u8], slot: Option<usize>) -> io::Result<Held> {
        let opened = self.root.open_beneath(dir)?;
        let dev = opened.stat()?.dev;
        let names: Option<HashMap<_, _>> = if slot.is_some() {
            let mut listing = Listing::default();
            listing.read_all(&opened)?;
            Some(
                listing
                    .entries()
                    .map(|e| (e.name.to_bytes().to_vec(), (e.ino, e.kind)))
                    .collect(),
            )
        } else {
            None
        };
        Ok(Held {
            path: dir.into(),
            slot,
            dir: opened,
            dev,
            unchecked: AtomicUsize::new(names.as_ref().map_or(0, HashMap::len)),
            names,
        })
    }
}

/// A directory beneath the root, held open for checks.
struct Held {
    /// Its path below the root.
    path: Box<[u8]>,
    /// The id of its [`Slot`], if it has one (it is listed).
    slot: Option<usize>,
    dir: Dir,
    dev: u64,
    /// Its entries when it was opened: name to inode and type.
    names: Option<HashMap<Vec<u8>, (u64, Kind)>>,
    /// How many of them no check has asked about yet.
    unchecked: AtomicUsize,
}

/// Errors that mean the path is no longer (or never was) a directory beneath the root: a link
/// on the way (`ELOOP`), removed, replaced by a file.
fn is_not_beneath(e: &io::Error) -> bool {
    [
        Fault::Loop,
        Fault::NotFound,
        Fault::NotADirectory,
        Fault::CrossDevice,
    ]
    .iter()
    .any(|f| f.is(e))
}

/// The checker for a search root of a walker-crate method: `None` under `-L` (links are
/// followed by request), or when the root cannot be opened, which is then said and `Err`.
pub fn for_root(
    walk: &crate::walk::contract::Walk<'_>,
    root: &crate::config::Root,
) -> Result<Option<Beneath>, ()> {
    if walk.config.follow {
        return Ok(None);
    }
    let opened = Dir::open_path(root.open_path()).and_then(|dir| {
        // The directory the search met there first, or none.
        match root.is_same(&dir.stat()?) {
            true => Ok(dir),
            false => Err(io::Error::other(crate::config::REPLACED)),
        }
    });
    match opened {
        Ok(dir) => {
            let path = crate::fs::os_path(root.open_path());
            Ok(Some(Beneath::new(&path, Arc::new(dir))))
        }
        Err(e) => {
            walk.report.path_error(root.open_path(), &e);
            Err(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// A search root holding `wide/` with `n` files, and a checker for it keeping `keep`.
    fn tree(n: usize, keep: usize) -> (tempfile::TempDir, PathBuf, Beneath) {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("root");
        std::fs::create_dir_all(root.join("wide")).unwrap();
        for i in 0..n {
            std::fs::write(root.join(format!("wide/f{i}")), "").unwrap();
        }
        let dir = Dir::open_path(root.as_os_str().as_encoded_bytes()).unwrap();
        let beneath = Beneath::keeping(&root, Arc::new(dir), keep);
        (tmp, root, beneath)
    }

    /// Whether the file `rel` below `root` holds.
    fn holds_file(b: &mut Beneath, root: &Path, rel: &str) -> bool {
        b.holds(&root.join(rel), Kind::File, None).unwrap()
    }

    #[test]
    fn threads_share_one_listing_of_a_directory() {
        let (_tmp, root, mut one) = tree(10, 16);
        let mut other = one.again();
        assert!(holds_file(&mut one, &root, "wide/f0"));
        assert!(holds_file(&mut other, &root, "wide/f1"));
        let (a, b) = (one.last.as_ref().unwrap(), other.last.as_ref().unwrap());
        assert!(Arc::ptr_eq(a, b), "each thread listed the directory");
        assert_eq!(one.shared.next_id.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn a_directory_is_let_go_once_every_entry_is_checked() {
        let (_tmp, root, mut one) = tree(10, 16);
        let mut other = one.again();
        for i in 0..10 {
            let checker = if i % 2 == 0 { &mut one } else { &mut other };
            assert!(holds_file(checker, &root, &format!("wide/f{i}")));
            let slots = one.shared.slots.lock().unwrap().len();
            assert_eq!(slots, usize::from(i < 9), "after {} checks", i + 1);
        }
        assert!(other.last.is_none(), "still held by the last to check");
    }

    #[test]
    fn an_entry_must_be_listed_with_its_kind_and_inode() {
        let (_tmp, root, mut b) = tree(2, 16);
        let f0 = root.join("wide/f0");
        let ino = crate::fs::stat_path(f0.as_os_str().as_encoded_bytes(), false)
            .unwrap()
            .ino;
        assert!(b.holds(&f0, Kind::File, Some(ino)).unwrap());
        assert!(!b.holds(&f0, Kind::File, Some(ino + 1)).unwrap());
        assert!(!b.holds(&f0, Kind::Dir, None).unwrap());
        assert!(!holds_file(&mut b, &root, "wide/none"));
        assert!(b.holds(&root.join("wide"), Kind::Dir, None).unwrap());
    }

    #[test]
    fn an_entry_read_through_a_link_is_not_beneath() {
        for keep in [0, 16] {
            let (tmp, root, mut b) = tree(2, keep);
            let outside = tmp.path().join("outside");
            std::fs::create_dir(&outside).unwrap();
            std::fs::write(outside.join("secret"), "").unwrap();
            if let Err(e) = crate::fs::symlink(&outside, &root.join("link")) {
                // Windows without the privilege, and Wine: nothing to swap in.
                return eprintln!("not run: {e}");
            }
            assert!(!holds_file(&mut b, &root, "link/secret"));
            assert!(holds_file(&mut b, &root, "wide/f0"));
            assert_eq!(b.last.is_some(), keep > 0, "keep {keep}");
        }
    }
}
