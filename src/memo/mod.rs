//! The directory memo behind `--cache` (docs/CACHE.md): the listings of the
//! directories a search read, kept per tree in the user's cache directory, and given
//! back to the next search for every directory whose stamp (device, inode, mtime, ctime,
//! size, mode, links, owner) is unchanged and was settled when it was listed (the racy rule,
//! [`MARGIN_SECS`]), on file systems whose directory times are trusted ([`trust`]).
//!
//! The walk asks [`Session::look`] once per directory, before opening it: a [`Look::Hit`]
//! gives the names and kinds, and the directory is neither opened nor read (unless an ignore
//! file or an entry's metadata needs it); a [`Look::Read`] is read as always and its listing
//! handed back ([`Session::keep`]). Everything after the listing is the walk's own. This is
//! not `walk/descriptors.rs`, the cache of open descriptors.

pub mod format;
pub mod manage;
pub mod place;
mod rewrite;
pub mod rules;
mod trust;

use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::SystemTime;

use crate::fs::packed::PackedBuf;
use crate::fs::{ClockReading, Kind, Mapped, Stat};
use crate::report::Reporter;
use format::{Header, Index, NewRecord, Record, Stamp, Unusable};

/// A listing is trusted only if its directory last changed at least this long before the
/// listing began (git's racy-timestamp rule, with a margin). A change after the listing
/// leaves the stamp equal only if it falls within the same tick of the file system's
/// timestamps as the change before: the kernel's coarse clock (1-10 ms), file systems of
/// 1-second times, FAT's 2 seconds. Three seconds covers them with a second to spare for the
/// coarse clock lagging the one read here; clocks of other machines (NFS) are not trusted at
/// all ([`trust`]). The cost: a directory changed in the last three seconds is read again.
/// A listing's time is taken back by as far as the clock was set back since ([`settled`]).
pub const MARGIN_SECS: i64 = 3;

/// A directory, as the memo has it or not.
pub enum Look {
    /// The memo does not serve this directory (no memo for its tree, a file system not
    /// trusted, a path too long, a stat that failed): read it as without `--cache`.
    Plain,
    /// Remembered and unchanged: its entries, and its stat (followed where the walk follows).
    Hit(Hit),
    /// To read, and to hand its listing back with [`Session::keep`].
    Read(Fresh),
}

/// A directory the memo serves.
pub struct Hit {
    /// Its record's entries, in the buffer the record was copied into out of the memo file
    /// and checked there (a file cut short by another program while mapped cannot change
    /// what was checked).
    names: PackedBuf,
    /// The directory's stat, taken to validate it.
    pub stat: Stat,
    /// Its tree, for [`Session::remember_rules`].
    tree: usize,
}

impl Hit {
    /// How many entries it has.
    pub fn count(&self) -> usize {
        self.names.packed().count() as usize
    }

    /// The rules its record remembers (`rules.rs`), if it has them whole.
    pub fn rules(&self) -> Option<rules::Section<'_>> {
        let after = self.names.after();
        if after.is_empty() {
            return None;
        }
        rules::read(after, self.names.packed().count())
    }

    /// The buffer its record was copied into, for the next lookup ([`Session::look`]).
    pub fn into_buffer(self) -> Vec<u8> {
        self.names.into_vec()
    }

    /// Its entries: raw names (NUL-terminated) and kinds as `getdents64` gave them.
    pub fn entries(&self) -> impl Iterator<Item = (&std::ffi::CStr, Kind)> + '_ {
        // Every entry was checked once when the record was served.
        self.names
            .packed()
            .iter()
            .map(|(name, code)| (name, Kind::from_dtype(code)))
    }
}

/// A directory being read, for the memo.
pub struct Fresh {
    tree: usize,
    /// Its record, stamped by the stat of the directory read, taken after the time its
    /// listing began.
    record: NewRecord,
    listed: ClockReading,
    /// Its remembered rules (`rules.rs`), when the walk gave them.
    rules: Vec<u8>,
}

impl Fresh {
    /// Whether a file stamped `stamp` (an ignore file, its stamp taken after this listing
    /// began) had settled by then: its contents may be remembered with its stamp (the racy
    /// rule, [`MARGIN_SECS`]).
    pub fn settled(&self, stamp: &Stamp) -> bool {
        settled_as_read(stamp, self.listed)
    }

    /// Gives the directory's remembered rules ([`rules::write`]'s bytes) to its record.
    pub fn remember_rules(&mut self, rules: Vec<u8>) {
        self.rules = rules;
    }

    /// One entry of the listing.
    #[inline]
    pub fn push(&mut self, name: &std::ffi::CStr, kind: Kind) {
        self.record.push(name, kind);
    }
}

impl Tree {
    /// Keeps a record this search made.
    fn keep(&self, bytes: Vec<u8>) {
        self.fresh
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(bytes);
    }
}

/// One search root's memo.
struct Tree {
    /// The root as the user gave it, for messages.
    shown: Vec<u8>,
    /// Its canonical path: what the file is of.
    canonical: Vec<u8>,
    /// Its device, on a trusted file system (a tree is made only then): directories on it
    /// need no look in [`Session::trusts`]'s list.
    dev: u64,
    file: PathBuf,
    /// The file read at the start, checked (header, index, journal): `None` when there was
    /// none or it was refused.
    map: Option<Loaded>,
    /// A directory stands where the file should be, with something in it (said when found):
    /// nothing is written.
    blocked: bool,
    /// A record that failed its check: the file is used no more and rewritten whole.
    damaged: AtomicBool,
    /// The listings read by this search.
    fresh: Mutex<Vec<Vec<u8>>>,
}

/// A tree's memo file as read at the start of the search.
struct Loaded {
    map: Mapped,
    /// The file itself, whose time of last use is set, and which the journal is appended to.
    file: std::fs::File,
    /// Where the first part's index is, and where it ends.
    index_at: usize,
    base_end: usize,
    /// Where the journal's segments' indexes are, oldest first ([`format::segments`]).
    journal: Vec<std::ops::Range<usize>>,
    /// Where the last whole segment ends: short of the file's length when a search's append
    /// was cut short (the next write is then a whole file).
    valid_end: usize,
}

impl Loaded {
    /// The indexes to look a path up in: the newest segment's first, the first part's last.
    fn indexes(&self) -> impl Iterator<Item = Index<'_>> {
        format::newest_first(
            self.map.bytes(),
            self.index_at,
            self.base_end,
            &self.journal,
        )
    }

    /// Whether `segment` goes at the end of the journal: the file is whole (no append was cut
    /// short), the journal has fewer than [`MOST_SEGMENTS`] segments, and with it it stays no
    /// larger than the rest of the file (past that, lookups would pass through too many
    /// records of directories read again, and a whole write folds them in).
    fn has_room_for(&self, segment: &[u8]) -> bool {
        self.valid_end == self.map.bytes().len()
            && self.journal.len() < MOST_SEGMENTS
            && self.valid_end - self.base_end + segment.len() <= self.base_end
    }
}

/// Most segments a journal may have: past it, the next change writes the file whole.
const MOST_SEGMENTS: usize = 32;

impl Tree {
    /// Whether the directory of the record `r` is still at its path below the tree's root:
    /// the same directory (device and inode), not followed through a link. One that cannot
    /// be told (a path too long to stat, an error) counts as gone: dropping a record costs a
    /// read, keeping a stale one costs room.
    fn still_there(&self, r: &Record<'_>) -> bool {
        let path = join(&self.canonical, r.rel());
        if path.len() > LONGEST_PATH {
            return false;
        }
        let stamp = r.stamp();
        crate::fs::raw_stat_path(&path, false).is_ok_and(|st| {
            st.stat.kind() == Kind::Dir && (st.stat.dev, st.stat.ino) == (stamp.dev, stamp.ino)
        })
    }

    fn loaded(&self) -> Option<&Loaded> {
        if self.damaged.load(Ordering::Relaxed) {
            return None;
        }
        self.map.as_ref()
    }

    /// The record of the directory `rel`, copied out of the file and checked (a damaged one
    /// marks the tree damaged): the newest one, the journal's before the first part's.
    /// `record` is the buffer it is copied into.
    fn find(&self, rel: &[u8], report: &Reporter, record: &mut Vec<u8>) -> bool {
        let Some(loaded) = self.loaded() else {
            return false;
        };
        let bytes = loaded.map.bytes();
        let hash = format::index_hash(rel);
        for at in loaded.indexes().flat_map(|index| index.offsets_of(hash)) {
            // Checked once copied: what is served is what was checked, whatever happens to
            // the file meanwhile.
            let parsed = format::record_at(bytes, at, record)
                .then(|| Record::parse_head(record))
                .flatten();
            match parsed {
                Some(r) => {
                    if r.rel() == rel {
                        return true;
                    }
                }
                None => {
                    self.say_damaged(loaded, report);
                    return false;
                }
            }
        }
        false
    }

    /// [`Tree::say_damaged`] of a record served from this tree's loaded file.
    fn damaged(&self, report: &Reporter) {
        if let Some(loaded) = self.loaded() {
            self.say_damaged(loaded, report);
        }
    }

    /// Marks the tree's file damaged, and says so once: cut short while mapped (another
    /// program truncated it during the search), or a record failing its check.
    fn say_damaged(&self, loaded: &Loaded, report: &Reporter) {
        if !self.damaged.swap(true, Ordering::Relaxed) {
            let why = if loaded.map.cut_short() {
                "cut short by another program during this search"
            } else {
                "damaged (a record fails its check)"
            };
            report.warning(&format!(
                "--cache: {}: {why}; ignored and written again",
                self.file.display()
            ));
        }
    }
}

/// The directory memo's settings (`--cache`).
#[derive(Debug, Clone)]
pub struct Settings {
    /// The directory holding the memo files.
    pub dir: PathBuf,
    /// The home directory `dir` is in by default (the configuration's default place): it must
    /// be the effective user's for the memo to be kept there.
    pub home: Option<PathBuf>,
    /// `--cache` was given on the command line: the search says where and why the memo was
    /// not used (file systems it does not trust, a seccomp filter or a tracer); from the
    /// config file it says nothing of them.
    pub on_command_line: bool,
    /// The most bytes its files may take; the least recently used go first.
    pub limit: u64,
}

/// The memo of one search: a tree per distinct search root.
pub struct Session {
    settings: Settings,
    trees: Vec<Tree>,
    /// The tree of each of the configuration's roots, and the root's path below the tree's
    /// root (empty when they are one).
    of_root: Vec<Option<(usize, Vec<u8>)>>,
    /// Whether each device met is on a trusted file system.
    devices: Mutex<Vec<(u64, bool)>>,
    credentials: u64,
    /// A write failed: said once.
    write_failed: AtomicBool,
    /// The file systems met that the memo does not trust, as said at the end: where, and
    /// their type.
    untrusted: Mutex<Vec<String>>,
}

/// Who reads: a listing is only served to the reader it was read by, since what a
/// directory's permissions let through depends on who asks. A hash of everything the kernel
/// consults ([`crate::fs::reader_identity`]: ids and groups, effective capabilities, user
/// namespace, security labels, sandboxing); an error when that cannot be told.
pub fn credentials() -> std::io::Result<u64> {
    crate::fs::reader_identity().map(|id| format::path_hash(&id))
}

/// Now, or a little earlier: the realtime clock, and where it stands against the time since
/// boot (what tells, later, whether it was set back meanwhile). A listing's time must be read
/// before the stat that stamps it; an earlier reading is as good (it only makes a listing
/// look younger beside its directory's last change, which the racy rule then trusts later),
/// so each thread reads the clock once per [`CLOCK_REUSE`] directories: on a repeated search
/// the reading goes unused (a directory served needs none), and was a tenth of its own work.
fn now() -> ClockReading {
    thread_local! {
        static LAST: std::cell::Cell<Option<(ClockReading, u32)>> =
            const { std::cell::Cell::new(None) };
    }
    LAST.with(|last| {
        let (reading, used) = match last.get() {
            Some((reading, used)) if used < CLOCK_REUSE => (reading, used + 1),
            _ => (ClockReading::now(), 1),
        };
        last.set(Some((reading, used)));
        reading
    })
}

/// A clock reading no later than now, for [`settled_as_read`].
pub fn clock() -> ClockReading {
    now()
}

/// Whether a file stamped `stamp`, its stamp taken after the clock read `clock`, had settled
/// by then ([`Fresh::settled`]): its contents may be remembered with its stamp.
pub fn settled_as_read(stamp: &Stamp, clock: ClockReading) -> bool {
    settled_as_of(stamp, clock, &clock)
}

/// How many directories' listings one clock reading of a thread is the time of ([`now`]).
const CLOCK_REUSE: u32 = 32;

/// The clock as this search first compared a listing's time with it: what every remembered
/// listing's time is compared with ([`settled`]).
fn clock_of_this_search() -> &'static ClockReading {
    static READ: std::sync::OnceLock<ClockReading> = std::sync::OnceLock::new();
    READ.get_or_init(ClockReading::now)
}

/// Whether a listing that began at `listed` of a directory stamped `stamp` can be trusted
/// (see [`MARGIN_SECS`]), on the clock as this search reads it.
fn settled(stamp: &Stamp, listed: ClockReading) -> bool {
    settled_as_of(stamp, listed, clock_of_this_search())
}

/// Whether a listing that began at `listed` of a directory stamped `stamp` can be trusted on
/// the clock as it read at `now`: its directory's last change is more than [`MARGIN_SECS`]
/// older than the listing, the listing's time taken back by as far as the clock was set back
/// since (a change stamped after the clock was set back may carry a time as early as that).
/// Never when that cannot be told (a listing of another boot: the clock may have been set
/// anywhere in between; without the boot's clock, a clock reading earlier than the listing):
/// [`ClockReading::as_of`].
fn settled_as_of(stamp: &Stamp, listed: ClockReading, now: &ClockReading) -> bool {
    let Some(listed) = listed.as_of(now) else {
        return false;
    };
    let (s, ns) = stamp.changed();
    (s.saturating_add(MARGIN_SECS), ns) < listed
}

/// Paths longer than this are not stat'ed by path (one `statx` cannot take them): their
/// directories are opened, and looked up by their descriptor.
const LONGEST_PATH: usize = 4000;

impl Session {
    /// Opens the memo for the search paths `roots` (as given; "." for the current directory):
    /// `None`, after a warning, when its directory cannot be used.
    pub fn open(settings: &Settings, roots: &[&[u8]], report: &Reporter) -> Option<Session> {
        // The memo serves a directory once this process has opened it, never reading it:
        // where something could judge the read itself, there is no memo. Said when --cache
        // was asked for on the command line (left on in the config file, inside a container
        // whose runtime filters system calls, it must not talk on every search).
        match crate::fs::supervised() {
            Ok(None) => {}
            Ok(Some(what)) => {
                if settings.on_command_line {
                    report.warning(&format!(
                        "--cache: this process runs under {what}, which may refuse reading a \
                         directory that opening it does not: searching without the cache"
                    ));
                }
                return None;
            }
            Err(e) => {
                report.warning(&format!(
                    "--cache: cannot tell what may judge this process's reads \
                     (/proc/self/status: {}); searching without the cache",
                    crate::report::describe(&e)
                ));
                return None;
            }
        }
        let credentials = match credentials() {
            Ok(c) => c,
            Err(e) => {
                report.warning(&format!(
                    "--cache: cannot tell what this process may read (/proc/self/status: {}); \
                     searching without the cache",
                    crate::report::describe(&e)
                ));
                return None;
            }
        };
        if let Err(why) = settings
            .home
            .as_deref()
            .map_or(Ok(()), place::home_is_ours)
            .and_then(|()| place::open_dir(&settings.dir, credentials))
        {
            report.warning(&format!("--cache: {why}; searching without the cache"));
            return None;
        }
        let mut session = Session {
            settings: settings.clone(),
            trees: Vec::new(),
            of_root: Vec::new(),
            devices: Mutex::new(Vec::new()),
            credentials,
            write_failed: AtomicBool::new(false),
            untrusted: Mutex::new(Vec::new()),
        };
        // Outer roots first: a root inside another of the same command line is then served
        // by the outer one's tree, whichever comes first on the command line.
        let mut outer_first: Vec<(PathBuf, usize)> = roots
            .iter()
            .enumerate()
            .filter_map(|(i, root)| {
                let path = crate::fs::os_path(root);
                Some((std::fs::canonicalize(path).ok()?, i))
            })
            .collect();
        outer_first.sort_unstable_by_key(|(canonical, _)| canonical.as_os_str().len());
        session.of_root = vec![None; roots.len()];
        for (canonical, i) in outer_first {
            session.of_root[i] = session.tree_of(roots[i], &canonical, report);
        }
        Some(session)
    }

    /// The tree `root` (the search path as given) is searched in, and where the root is below
    /// that tree's root: the tree of the nearest memo file of the root or an ancestor
    /// ([`place::nearest`]: a search of a subdirectory of a remembered tree is served by the
    /// tree's records, and adds to them), else the nearest tree of this search the root is in,
    /// else a new tree of the root (`canonical`: the root's canonical path).
    fn tree_of(
        &mut self,
        root: &[u8],
        canonical: &std::path::Path,
        report: &Reporter,
    ) -> Option<(usize, Vec<u8>)> {
        // The directory itself, asked through its descriptor: its path may be too long for a
        // `statfs` by path, or lead elsewhere by now.
        let dir = crate::fs::Dir::open_path(canonical.as_os_str().as_encoded_bytes()).ok()?;
        let dev = dir.stat().ok()?.dev;
        if !self.trusts(dev, || dir.fs_magic(), root) {
            return None;
        }
        let (base, below) = place::nearest(&self.settings.dir, canonical, self.credentials)
            .map(|(_, base, below)| (base, below))
            .or_else(|| {
                canonical.ancestors().find_map(|base| {
                    let bytes = base.as_os_str().as_encoded_bytes();
                    self.trees
                        .iter()
                        .any(|t| t.canonical == bytes)
                        .then(|| (bytes.to_vec(), place::below(canonical, base)))
                })
            })
            .unwrap_or_else(|| {
                (
                    canonical.as_os_str().as_encoded_bytes().to_vec(),
                    Vec::new(),
                )
            });
        if let Some(i) = self.trees.iter().position(|t| t.canonical == base) {
            return Some((i, below));
        }
        let file = place::file_of(&self.settings.dir, &base, self.credentials);
        Some((self.add_tree(root, &base, dev, file, report), below))
    }

    /// A tree of this search: the one at `canonical`, whose memo is `file`.
    fn add_tree(
        &mut self,
        root: &[u8],
        canonical: &[u8],
        dev: u64,
        file: PathBuf,
        report: &Reporter,
    ) -> usize {
        let blocked = Self::blocked(&file, canonical, report);
        let map = (!blocked)
            .then(|| self.load(&file, canonical, report))
            .flatten();
        self.trees.push(Tree {
            shown: root.to_vec(),
            canonical: canonical.to_vec(),
            dev,
            file,
            map,
            blocked,
            damaged: AtomicBool::new(false),
            fresh: Mutex::new(Vec::new()),
        });
        self.trees.len() - 1
    }

    /// Whether a directory with something in it stands where the memo file `file` of the tree
    /// at `canonical` should be (made by hand, or by another program): said once. The memo's
    /// directory is this user's own, so an empty one is taken away, and the file written in
    /// its place.
    fn blocked(file: &std::path::Path, canonical: &[u8], report: &Reporter) -> bool {
        let blocked = std::fs::symlink_metadata(file).is_ok_and(|md| md.is_dir())
            && std::fs::remove_dir(file).is_err();
        if blocked {
            report.warning(&format!(
                "--cache: {}: a directory, not a memo file; the memo of {} is not kept until \
                 it is removed",
                file.display(),
                crate::fs::escape::escaped(canonical)
            ));
        }
        blocked
    }

    /// Maps the memo file `file` of the tree at `canonical` and checks it.
    fn load(&self, file: &std::path::Path, canonical: &[u8], report: &Reporter) -> Option<Loaded> {
        let warn = |what: &str| {
            report.warning(&format!(
                "--cache: {}: {what}; ignored and written again",
                file.display()
            ));
        };
        let opened = match place::open_file(file) {
            Ok(Some(f)) => f,
            Ok(None) => return None,
            Err(e) => {
                warn(&crate::report::describe(&e));
                return None;
            }
        };
        let map = match Mapped::new(&opened) {
            Ok(m) => m,
            Err(e) => {
                warn(&crate::report::describe(&e));
                return None;
            }
        };
        let (index_at, base_end) = match Header::parse(map.bytes()) {
            Ok(h) if h.root != canonical => return None,
            // Written by other credentials (the groups changed): silently read afresh.
            Ok(h) if h.credentials != self.credentials => return None,
            Ok(h) => (h.index_at, h.base_end),
            Err(Unusable::Corrupt) => {
                warn("not a memo file, or damaged or cut short");
                return None;
            }
            Err(Unusable::Version(v)) => {
                warn(&format!("written by another version of ffind (format {v})"));
                return None;
            }
        };
        let (journal, valid_end) = format::segments(map.bytes(), base_end);
        Some(Loaded {
            map,
            file: opened,
            index_at,
            base_end,
            journal,
            valid_end,
        })
    }

    /// Whether directories on the device `dev` (where `path` is) are trusted, `magic` giving
    /// its file system's type (asked of a descriptor: a path may lead elsewhere by now, or be
    /// too long to ask by). One that is not is noted for [`Session::finish`] to say (the
    /// kernel's own file systems are not).
    fn trusts(&self, dev: u64, magic: impl FnOnce() -> Option<i64>, path: &[u8]) -> bool {
        let mut devices = self.devices.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&(_, trusted)) = devices.iter().find(|(d, _)| *d == dev) {
            return trusted;
        }
        let magic = magic();
        let trusted = magic.is_some_and(trust::trusted);
        if !trusted && !magic.is_some_and(trust::kernel_own) {
            let name = crate::fs::mount_type(dev)
                .or_else(|| magic.map(trust::name))
                .unwrap_or_else(|| "a file system ffind cannot name".into());
            let shown = crate::fs::escape::escaped(if path.is_empty() { b"." } else { path });
            self.untrusted
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(format!("{shown} ({name})"));
        }
        devices.push((dev, trusted));
        trusted
    }

    /// What the memo has for the directory `dir`, shown as `path`, `rel` below the search
    /// root `root` (an index into the configuration's roots): `dir` is the directory the walk
    /// opened to read, so the kernel has just said that this process may open it (its modes,
    /// Landlock, SELinux, AppArmor and the like check the open), and what is served or kept
    /// is of that very directory, validated by its `fstat` (a path may lead elsewhere by now).
    ///
    /// A remembered record is served when that stat matches its stamp. Otherwise the stat is
    /// taken (again) after the listing's time ([`now`]), before the read: a listing kept is
    /// stamped by it, so it is only ever kept with the stamp of the directory it was read
    /// from. `buffer`: where a remembered record is copied (a hit takes it; give it back
    /// with [`Hit::into_buffer`]).
    pub fn look(
        &self,
        root: usize,
        rel: &[u8],
        path: &[u8],
        dir: &crate::fs::Dir,
        report: &Reporter,
        buffer: &mut Vec<u8>,
    ) -> Look {
        let Some((t, rel)) = self.in_tree(root, rel) else {
            return Look::Plain;
        };
        let rel = &*rel;
        let tree = &self.trees[t];
        let stat = || {
            let st = dir
                .raw_stat()
                .ok()
                .filter(|st| st.stat.kind() == Kind::Dir)?;
            let stamp = Stamp::of_raw(&st);
            (stamp.dev == tree.dev || self.trusts(stamp.dev, || dir.fs_magic(), path))
                .then_some((st, stamp))
        };
        // A remembered record is served on the stat alone: no clock is read (one read a
        // directory was 1% of a search the memo serves).
        if tree.find(rel, report, buffer) {
            let Some((st, stamp)) = stat() else {
                return Look::Plain;
            };
            let r = Record::built(buffer);
            if r.stamp() == stamp && settled(&stamp, r.listed()) {
                let (start, count) = r.names_at();
                match PackedBuf::check(std::mem::take(buffer), start, count) {
                    Ok(names) => {
                        return Look::Hit(Hit {
                            names,
                            stat: st.stat,
                            tree: t,
                        })
                    }
                    Err(back) => {
                        *buffer = back;
                        tree.damaged(report);
                    }
                }
            }
        }
        // Nothing remembered (a first search, a new directory), changed or damaged: read it,
        // stamped by a stat taken after the listing's time. Before that stat: a change after
        // this instant is either in the stamp or in a directory time at least this late (see
        // `settled`).
        let listed = now();
        let Some((_, stamp)) = stat() else {
            return Look::Plain;
        };
        Look::Read(Fresh {
            tree: t,
            record: NewRecord::new(rel, &stamp, listed),
            listed,
            rules: Vec::new(),
        })
    }

    /// The tree of the search root `root` (an index into the configuration's roots) and the
    /// record path there of its directory `rel`: `None` when the memo has no tree for it.
    fn in_tree<'r>(&self, root: usize, rel: &'r [u8]) -> Option<(usize, Cow<'r, [u8]>)> {
        let (t, below) = self.of_root.get(root).and_then(Option::as_ref)?;
        let rel = if below.is_empty() {
            Cow::Borrowed(rel)
        } else {
            Cow::Owned(join(below, rel))
        };
        Some((*t, rel))
    }

    /// Keeps the whole listing of a directory read.
    pub fn keep(&self, fresh: Fresh) {
        if let Some(bytes) = fresh.record.finish(&fresh.rules) {
            self.trees[fresh.tree].keep(bytes);
        }
    }

    /// Keeps the record of a directory served, `hit`, with the rules the walk now gives it
    /// ([`rules::write`]'s bytes) in place of those it had.
    pub fn remember_rules(&self, hit: &Hit, rules: &[u8]) {
        let (record, names_end) = hit.names.with_prefix();
        if let Some(bytes) = format::with_rules(record, names_end, rules) {
            self.trees[hit.tree].keep(bytes);
        }
    }

    /// Whether a tree that `tree` is in has a file of this reader by now.
    fn inside_a_remembered_tree(&self, tree: &Tree) -> bool {
        crate::fs::os_path(&tree.canonical)
            .parent()
            .and_then(|above| place::nearest(&self.settings.dir, above, self.credentials))
            .is_some()
    }

    /// Says once that a tree's memo could not be written.
    fn say_write_failed(&self, tree: &Tree, e: &std::io::Error, report: &Reporter) {
        if !self.write_failed.swap(true, Ordering::Relaxed) {
            report.warning(&format!(
                "--cache: cannot write the cache of {} in {}: {}",
                crate::fs::escape::escaped(&tree.shown),
                self.settings.dir.display(),
                crate::report::describe(e)
            ));
        }
    }

    /// Writes what changed (appended to each tree's journal, or the file replaced whole),
    /// marks the files used, and keeps the memo within its bound. A failure is said once; the
    /// search's results are whole.
    pub fn finish(&self, report: &Reporter) {
        let untrusted = self.untrusted.lock().unwrap_or_else(|e| e.into_inner());
        if self.settings.on_command_line && !untrusted.is_empty() {
            report.warning(&format!(
                "--cache: not used on {}, whose directory times ffind does not trust (see {})",
                untrusted.join(", "),
                docs("CACHE.md")
            ));
        }
        let mut wrote = false;
        for tree in &self.trees {
            let fresh = tree.fresh.lock().unwrap_or_else(|e| e.into_inner());
            // Cut short while this search read it (its lost pages read as zeros: lookups found
            // nothing there, or a record failing its check): none of it is kept.
            if let Some(loaded) = tree.map.as_ref().filter(|l| l.map.cut_short()) {
                tree.say_damaged(loaded, report);
            }
            let damaged = tree.damaged.load(Ordering::Relaxed);
            if fresh.is_empty() && !damaged && tree.map.is_some() {
                // Unchanged: only its last use is recorded, for the size bound.
                if let Some(loaded) = &tree.map {
                    let _ = loaded.file.set_modified(SystemTime::now());
                }
                continue;
            }
            if (fresh.is_empty() && tree.map.is_none()) || tree.blocked {
                continue;
            }
            let old = tree.map.as_ref().filter(|_| !damaged);
            // What this search read goes at the end of the journal when the file is whole
            // and the journal small beside the rest: a search writes what changed, not the
            // whole memo. Else, or when another search wrote the file meanwhile,
            // the file is written again whole, the journal folded in.
            if let Some(loaded) = old {
                let records: Vec<&[u8]> = fresh.iter().map(Vec::as_slice).collect();
                let len = loaded.map.bytes().len();
                let segment = format::segment(&records, len as u64);
                let appended = if loaded.has_room_for(&segment) {
                    place::append(&tree.file, &loaded.file, len, &segment)
                } else {
                    Ok(false)
                };
                match appended {
                    Ok(true) => {
                        wrote = true;
                        continue;
                    }
                    Ok(false) => {}
                    Err(e) => {
                        self.say_write_failed(tree, &e, report);
                        continue;
                    }
                }
            }
            // A tree first remembered by this search: if a search of a tree it is in wrote
            // that tree's file meanwhile, that file serves it from now on (one file per tree).
            let first = tree.map.is_none();
            if first && self.inside_a_remembered_tree(tree) {
                continue;
            }
            let live = old
                .map(|l| format::live_records(l.map.bytes(), l.indexes()))
                .unwrap_or_default();
            let records = rewrite::merged(live, &fresh, |r| tree.still_there(r));
            let intact = || old.is_none_or(|l| !l.map.cut_short());
            match place::replace(
                &tree.file,
                &tree.canonical,
                self.credentials,
                &records,
                intact,
            ) {
                Ok(()) => {
                    wrote = true;
                    if first {
                        let dir = &self.settings.dir;
                        place::one_file_per_tree(
                            dir,
                            &tree.file,
                            &tree.canonical,
                            self.credentials,
                        );
                    }
                }
                Err(e) => self.say_write_failed(tree, &e, report),
            }
        }
        if wrote {
            place::prune(&self.settings.dir, self.credentials, self.settings.limit);
        }
    }
}

/// Where the document `name` of ffind's docs is: installed by the Debian package, or in
/// the source tree.
pub fn docs(name: &str) -> String {
    let installed = std::path::Path::new("/usr/share/doc/ffind").join(name);
    if installed.is_file() {
        installed.display().to_string()
    } else {
        format!("docs/{name} in ffind's source")
    }
}

/// The record path of `rel` below a directory whose record path is `dir`.
fn join(dir: &[u8], rel: &[u8]) -> Vec<u8> {
    if rel.is_empty() {
        return dir.to_vec();
    }
    let mut joined = Vec::with_capacity(dir.len() + 1 + rel.len());
    joined.extend_from_slice(dir);
    joined.push(b'/');
    joined.extend_from_slice(rel);
    joined
}

#[cfg(test)]
mod tests;
