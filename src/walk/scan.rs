//! The per-directory loop of the methods that read directories themselves (`serial`, `queue`,
//! `rayon`): open relative to the parent's descriptor (kept by the descriptor cache,
//! `descriptors.rs`), `getdents64`, judge each entry with the shared decision in `visit.rs`, print,
//! and hand back the subdirectories as [`DirJob`]s for the method to schedule. The buffers
//! ([`Scanner`]) are a worker's own and reused.

use std::cell::Cell;
use std::ffi::CStr;
use std::sync::{Arc, Weak};

use crate::config::Root;
use crate::filter::ignore::{read_reported, say_of_file, IgnoreFiles, Unread, IGNORE_FILE_LIMIT};
use crate::filter::Meta;
use crate::fs::path::{base_len, join_into};
use crate::fs::{Dir, DirInUse, Fault, Kind, Listed, Listing, Stat};
use crate::memo::rules::{self as remembered_rules, Section};
use crate::memo::{Fresh, Hit, Look};
use crate::output::printer::Batch;
use crate::output::sort::fd_order;
use crate::walk::contract::Walk;
use crate::walk::descriptors::{self, CachedDir};
use crate::walk::remembered::{self, Chain, Deferred, Kept, UNJUDGED};
use crate::walk::visit::{Action, DirState};

/// Metadata of an entry, fetched relative to its directory's descriptor (opened first when
/// the memo served the directory).
struct MetaAt<'a, 'd> {
    dir: &'a DirInUse<'d>,
    name: &'a CStr,
    follow: bool,
    stat: Option<Option<Stat>>,
    /// The listing marked it hidden (Windows' hidden attribute).
    hidden: bool,
    /// Its verdict's byte in the memo's record, when the memo serves or remembers them.
    code: Option<&'a mut u8>,
}

impl Meta for MetaAt<'_, '_> {
    fn stat(&mut self) -> Option<Stat> {
        let (dir, name, follow) = (self.dir, self.name, self.follow);
        *self
            .stat
            .get_or_insert_with(|| dir.stat_at(name, follow).ok())
    }

    fn executable(&mut self) -> bool {
        self.dir.executable_at(self.name)
    }

    fn is_empty(&mut self, kind: Kind) -> bool {
        match kind {
            Kind::Dir => self
                .dir
                .is_empty_dir_at(self.name, self.follow)
                .unwrap_or(false),
            Kind::File => self.stat().is_some_and(|st| st.size == 0),
            _ => false,
        }
    }

    fn contains(&mut self, name: &CStr) -> bool {
        // "entry/name" relative to the open parent: one fstatat, no descriptor opened.
        let mut rel = Vec::with_capacity(self.name.count_bytes() + name.count_bytes() + 2);
        rel.extend_from_slice(self.name.to_bytes());
        rel.push(b'/');
        rel.extend_from_slice(name.to_bytes_with_nul());
        CStr::from_bytes_with_nul(&rel).is_ok_and(|rel| self.dir.stat_at(rel, true).is_ok())
    }

    fn marked_hidden(&mut self) -> bool {
        self.hidden
    }

    fn remembered_verdict(&mut self) -> Option<crate::filter::ignore::Verdict> {
        self.code
            .as_deref()
            .and_then(|&c| remembered::verdict_of(c))
    }

    fn verdict_given(&mut self, verdict: crate::filter::ignore::Verdict) {
        if let Some(code) = self.code.as_deref_mut() {
            *code = remembered::code_of(verdict);
        }
    }
}

/// A directory waiting to be read.
#[derive(Debug)]
pub struct DirJob {
    /// The display path, followed by a NUL so that the name part is a `CStr`.
    path: Vec<u8>,
    /// Where the directory's own name starts in `path`.
    name_start: usize,
    /// The parent (`None` for a search root), its descriptor held by the cache or not.
    parent: Option<Arc<CachedDir>>,
    /// Reached through a symlink (`-L`): open it following the link.
    via_link: bool,
    /// The parent's state (its ignore rules become this directory's once it is read).
    state: DirState,
}

impl DirJob {
    /// The job for a search root.
    pub fn root(root: &Root, state: DirState) -> DirJob {
        let mut path = root.display.clone();
        path.push(0);
        DirJob {
            path,
            name_start: 0,
            parent: None,
            via_link: true,
            state,
        }
    }

    /// The jobs for every search root that can be entered (those that cannot are said by
    /// [`Walk::root_state`]), in command-line order.
    pub fn roots<'w>(walk: &'w Walk<'_>) -> impl Iterator<Item = DirJob> + 'w {
        walk.config
            .roots
            .iter()
            .filter_map(|root| Some(DirJob::root(root, walk.root_state(root)?)))
    }

    /// The job for the directory `path` (its display path) whose name starts at `name_start`,
    /// below `parent`, made by another process (`--mpi`): the parent is rebuilt here, and
    /// `state` too.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))] // used by walk/mpi only
    pub fn below(
        mut path: Vec<u8>,
        name_start: usize,
        parent: Arc<CachedDir>,
        via_link: bool,
        state: DirState,
    ) -> DirJob {
        path.push(0);
        DirJob {
            path,
            name_start,
            parent: Some(parent),
            via_link,
            state,
        }
    }

    /// What a scan takes of the job: its path (with the NUL), its parent, whether it was
    /// reached through a link, and its parent's state.
    fn into_parts(self) -> (Vec<u8>, Option<Arc<CachedDir>>, bool, DirState) {
        (self.path, self.parent, self.via_link, self.state)
    }

    /// The directory's display path.
    pub fn path(&self) -> &[u8] {
        &self.path[..self.path.len() - 1]
    }

    /// The directory's own name (its whole path for a search root).
    pub fn name(&self) -> &[u8] {
        &self.path[self.name_start..self.path.len() - 1]
    }

    /// Where the directory's own name starts in [`DirJob::path`].
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))] // used by walk/mpi only
    pub fn name_start(&self) -> usize {
        self.name_start
    }

    /// Whether the directory was reached through a symbolic link (`-L`).
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))] // used by walk/mpi only
    pub fn via_link(&self) -> bool {
        self.via_link
    }

    /// Whether each directory above it, from its search root down, was reached through a
    /// symbolic link (empty for a search root).
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))] // used by walk/mpi only
    pub fn links_above(&self) -> Vec<bool> {
        self.parent.as_ref().map_or_else(Vec::new, |p| p.links())
    }

    /// Its parent's state, one level down.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))] // used by walk/mpi only
    pub fn state(&self) -> &DirState {
        &self.state
    }
}

/// Per-worker buffers for reading directories: reused across every directory a worker reads.
#[derive(Debug, Default)]
pub struct Scanner {
    listing: Listing,
    /// Output waiting for the printer.
    pub batch: Batch,
    path: Vec<u8>,
    /// The directory this worker last reopened (the descriptor cache climbs from it).
    reopened: Weak<CachedDir>,
    /// Where the memo copies the records it serves (`--cache`), reused.
    record: Vec<u8>,
    /// The verdicts of the directory's entries the memo serves or remembers, reused.
    codes: Vec<u8>,
}

/// The ignore files of a directory being scanned: presence from its listing, contents read
/// relative to its descriptor.
struct ListedFiles<'a> {
    /// The ignore files' names the directory holds, and their kinds in its listing
    /// (`Kind::Unknown` when looked up by name instead).
    names: &'a [(&'static str, Kind)],
    dir: &'a Dir,
    /// The directory's display path and the reporter: an ignore file that is there but
    /// cannot be read is said, never silently dropped.
    dir_path: &'a [u8],
    walk: &'a Walk<'a>,
    /// What the rules read, for the memo (`remembered.rs`).
    kept: Option<&'a mut Kept>,
}

impl IgnoreFiles for ListedFiles<'_> {
    fn has(&self, name: &str) -> bool {
        // A `.git` makes a repository only if it can be looked up: in a directory that may be
        // listed but not searched (`r--`) it cannot, for git either, and the walker-crate
        // methods (which look it up by path) see no repository there.
        self.names.iter().any(|(n, _)| *n == name)
            && (name != ".git" || self.dir.stat_at(c".git", false).is_ok())
    }

    fn path(&self) -> std::path::PathBuf {
        // The display path names the directory from the working directory (ffind never
        // changes it); the root "." may be shown as nothing.
        match self.dir_path {
            b"" => ".".into(),
            p => crate::fs::os_path(p).into_owned(),
        }
    }

    fn read(&mut self, rel: &str) -> Result<Vec<u8>, Unread> {
        let (dir, dir_path, report) = (self.dir, self.dir_path, self.walk.report);
        // A regular file in the listing needs no look before it is opened.
        let listed_regular = self.names.contains(&(rel, Kind::File));
        let read = || {
            let read = if listed_regular {
                dir.read_listed_file_at(rel.as_bytes(), IGNORE_FILE_LIMIT)
            } else {
                dir.read_file_at(rel.as_bytes(), IGNORE_FILE_LIMIT)
            };
            read_reported(read, dir_path, rel, report)
        };
        match self.kept.as_deref_mut() {
            Some(kept) => {
                if rel == ".git/info/exclude" || rel == ".git" {
                    // Read only at a repository's root.
                    kept.has(".git", true);
                }
                kept.read(dir, rel, read)
            }
            None => read(),
        }
    }

    fn say(&mut self, rel: &str, what: &str) {
        if let Some(kept) = self.kept.as_deref_mut() {
            kept.said();
        }
        say_of_file(self.walk.report, self.dir_path, rel, what);
    }

    fn shown(&self) -> &[u8] {
        self.dir_path
    }
}

/// The names that matter to ignore rules.
const IGNORE_NAMES: [&str; 5] = [".git", ".gitignore", ".ignore", ".fdignore", ".ffindignore"];

/// Above this, a worker's listing buffer is freed after use (one huge directory should not
/// pin megabytes in every worker).
const LISTING_KEEP_BYTES: usize = 1 << 20;

impl Scanner {
    /// A scanner with empty buffers.
    pub fn new() -> Scanner {
        Scanner::default()
    }

    /// Reads one directory: prints what passes, and gives each subdirectory to descend into
    /// to `push` as a new job.
    pub fn scan(&mut self, walk: &Walk<'_>, job: DirJob, push: &mut dyn FnMut(DirJob)) {
        let printer = walk.printer;
        if job.state.depth > 0 || walk.config.roots.len() > 1 || !printer.holding() {
            return self.scan_dir(walk, job, push);
        }
        // The one search path, its results held: once it is read, those that sort before
        // everything below its subdirectories are known (`Printer::root_read`).
        let mut least: Option<Vec<u8>> = None;
        printer.reading_root();
        self.scan_dir(walk, job, &mut |sub: DirJob| {
            let name = sub.name();
            if printer.holding() && least.as_deref().is_none_or(|l| fd_order(name, l).is_lt()) {
                least = Some(name.to_vec());
            }
            push(sub);
        });
        printer.root_read(&mut self.batch, least.as_deref());
    }

    /// [`Scanner::scan`] of any directory: opened, then served by the memo or read.
    fn scan_dir(&mut self, walk: &Walk<'_>, job: DirJob, push: &mut dyn FnMut(DirJob)) {
        if walk.printer.stopped() {
            return;
        }
        // Every result of this directory, read or served, is one level below it (a held
        // breadth-first search is sorted by it).
        self.batch.depth = job.state.depth + 1;
        let Some(dir) = self.open_dir(walk, &job) else {
            return;
        };
        // The directory open, so the kernel has judged this process's open of it (its modes,
        // capabilities, LSMs, Landlock, user namespaces: docs/SECURITY.md): only now may the
        // memo serve its listing, validated by the descriptor's own stat, or keep the listing
        // read.
        let mut fresh = None;
        if let Some(memo) = walk.memo {
            let dir_path = job.path();
            let rel = dir_path.get(job.state.root_base..).unwrap_or_default();
            let buffer = &mut self.record;
            match memo.look(job.state.root, rel, dir_path, &dir, walk.report, buffer) {
                Look::Hit(hit) => {
                    self.remembered(walk, job, dir, &hit, push);
                    self.record = hit.into_buffer();
                    return;
                }
                Look::Read(f) => fresh = Some(f),
                Look::Plain => {}
            }
        }
        self.read_dir(walk, job, dir, fresh, push);
    }

    /// Opens the directory of `job`: relative to its parent's descriptor, or a search root by
    /// its path. `None` when it cannot be (said, unless it is gone since it was listed).
    fn open_dir(&mut self, walk: &Walk<'_>, job: &DirJob) -> Option<Dir> {
        let dir_path = job.path();
        let state = &job.state;
        let opened = match &job.parent {
            Some(p) => match CStr::from_bytes_with_nul(&job.path[job.name_start..]) {
                Ok(name) => p.open_child(&job.path, name, job.via_link, &mut self.reopened),
                Err(_) => Err(Fault::Invalid.error()),
            },
            // A search root (which may be a link), by the path it was given: the directory
            // found there when the search was set up, or none.
            None => Dir::open_path(dir_path).and_then(|d| is_root(d, state, dir_path)),
        };
        match opened {
            Ok(d) => Some(d),
            Err(e) if descriptors::replaced(&e).is_some() => {
                said_replaced(walk, &e);
                None
            }
            // Removed since its parent was listed (or replaced by a file, or by a link, which
            // O_NOFOLLOW refuses, or its /proc process went away): nothing there to list, and
            // nothing that exists is lost.
            Err(e) if state.depth > 0 && is_vanished(dir_path, &e, job.via_link) => None,
            Err(e) => {
                walk.report.path_error(dir_path, &e);
                None
            }
        }
    }

    /// Reads the directory `dir` of `job` (not served by the memo) and visits its entries;
    /// the listing goes to the memo as `fresh`, when it asked for it and the listing is whole.
    fn read_dir(
        &mut self,
        walk: &Walk<'_>,
        job: DirJob,
        dir: Dir,
        mut fresh: Option<Fresh>,
        push: &mut dyn FnMut(DirJob),
    ) {
        let config = walk.config;
        let printer = walk.printer;
        let (job_path, parent, via_link, state) = job.into_parts();
        let dir_path = &job_path[..job_path.len() - 1];
        // With ignore rules, a directory's own ignore files must be read before any of its
        // entries is judged. Most directories end within the first chunk: their listing says
        // which ignore files are there. A huge one is streamed like any other, after asking
        // for the ignore files by name (a 1,000,000-entry directory needs no 30 MB buffer).
        // Without rules, every directory is streamed 64 KiB at a time.
        let mut pending = config.ignore.is_some();
        let mut complete = false;
        if pending {
            match self.listing.read_start(&dir) {
                Ok(whole) => complete = whole,
                // getdents64 says ENOENT once the directory has been removed (and /proc
                // ESRCH or EINVAL once its process has gone).
                Err(e) if crate::fs::is_gone(dir_path, &e) => return,
                Err(e) => return walk.report.path_error(dir_path, &e),
            }
        } else {
            self.listing.begin();
        }
        let dir_stat = if config.follow { dir.stat().ok() } else { None };
        let mut state = walk.entered(state, dir_stat.as_ref());
        // With the memo, what the rules read is kept: the key of the entries' verdicts, and
        // the record's remembered rules (`remembered.rs`).
        let mut kept = state.rules_key.map(|_| Kept::new());
        if config.ignore.is_some() {
            let listed = complete.then_some(&self.listing);
            let present = present_files(&dir, listed);
            add_rules_of(walk, &mut state, &dir, dir_path, &present, kept.as_mut());
        }
        state.rules_key = kept
            .as_ref()
            .zip(state.rules_key)
            .and_then(|(k, p)| k.key(p));
        state.verdicts = state.rules_key.is_some() && fresh.is_some();
        self.codes.clear();
        // Entries' paths are built on this prefix: "dir/" once, then only the name per entry.
        join_into(&mut self.path, dir_path, b"");
        if config.ignore.is_some() {
            state.screen_paths(walk, &self.path);
        }
        let node = CachedDir::new(parent, base_len(dir_path), via_link, state.root_id());
        let reading = node.read(dir);
        let here = Here {
            dir: &reading,
            subdirs: Cell::new(0),
            node: &node,
            state: &state,
            child_base: base_len(dir_path),
        };
        'chunks: loop {
            if pending {
                pending = false;
            } else {
                match self.listing.read_next(&reading) {
                    Ok(true) => {}
                    Ok(false) => break,
                    Err(e) => {
                        // getdents64 says ENOENT once the directory has been removed (and
                        // /proc ESRCH or EINVAL once its process has gone).
                        if !crate::fs::is_gone(dir_path, &e) {
                            walk.report.path_error(dir_path, &e);
                        }
                        fresh = None;
                        break;
                    }
                }
            }
            if let Some(fresh) = &mut fresh {
                for e in self.listing.entries() {
                    fresh.push(e.name, e.kind);
                }
            }
            for e in self.listing.entries() {
                let code = here.state.verdicts.then(|| {
                    self.codes.push(UNJUDGED);
                    self.codes.last_mut()
                });
                let (path, batch) = (&mut self.path, &mut self.batch);
                if !visit_entry(walk, &here, e, path, batch, push, code.flatten()) {
                    // Stopped: the listing is not whole.
                    fresh = None;
                    break 'chunks;
                }
            }
        }
        let subdirs = here.subdirs.get();
        node.done(reading, subdirs);
        if let (Some(memo), Some(mut fresh)) = (walk.memo, fresh) {
            if let (Some(kept), Some(key)) = (&kept, state.rules_key) {
                if let Some(rules) = kept.section(key, &self.codes, |st| fresh.settled(st)) {
                    fresh.remember_rules(rules);
                }
            }
            memo.keep(fresh);
        }
        printer.directory_done(&mut self.batch);
        if self.listing.capacity_bytes() > LISTING_KEEP_BYTES {
            self.listing.release();
        }
    }

    /// Scans a directory that the memo serves (`--cache`): its entries come from the memo.
    /// `dir`: the directory, opened by the walk before the memo served it (the kernel judged
    /// that open), whose descriptor its ignore files, its entries' metadata and its
    /// subdirectories are opened through.
    fn remembered(
        &mut self,
        walk: &Walk<'_>,
        job: DirJob,
        dir: Dir,
        hit: &Hit,
        push: &mut dyn FnMut(DirJob),
    ) {
        let config = walk.config;
        let (job_path, parent, via_link, state) = job.into_parts();
        let dir_path = &job_path[..job_path.len() - 1];
        let Scanner {
            batch, path, codes, ..
        } = self;
        let node = CachedDir::new(parent, base_len(dir_path), via_link, state.root_id());
        let reading = node.read(dir);
        let mut state = walk.entered(state, config.follow.then_some(&hit.stat));
        join_into(path, dir_path, b"");
        codes.clear();
        let mut rules = Remembering::Nothing;
        if config.ignore.is_some() {
            rules = serve_rules(walk, &mut state, &reading, dir_path, hit, codes);
            if !matches!(rules, Remembering::Served(_)) {
                state.screen_paths(walk, path);
            }
        }
        let here = Here {
            dir: &reading,
            subdirs: Cell::new(0),
            node: &node,
            state: &state,
            child_base: base_len(dir_path),
        };
        let mut whole = true;
        let mut codes_left = if state.verdicts {
            &mut codes[..]
        } else {
            &mut [][..]
        };
        for (name, kind) in hit.entries() {
            let listed = Listed {
                name,
                kind,
                ino: 0,
                hidden: false,
            };
            let code = std::mem::take(&mut codes_left)
                .split_first_mut()
                .map(|(code, rest)| {
                    codes_left = rest;
                    code
                });
            if !visit_entry(walk, &here, listed, path, batch, push, code) {
                whole = false;
                break;
            }
        }
        let subdirs = here.subdirs.get();
        node.done(reading, subdirs);
        walk.printer.directory_done(batch);
        if let (Some(memo), true) = (walk.memo, whole) {
            if let Some(section) = rules.section(state.rules_key, codes) {
                memo.remember_rules(hit, &section);
            }
        }
    }
}

/// What a directory the memo serves does with its remembered rules.
enum Remembering<'h> {
    /// Nothing remembered, or nothing to remember (no key).
    Nothing,
    /// Its files unchanged, as remembered: its verdicts served when their key is the key
    /// now, else judged again (and remembered with the key now).
    Served(Section<'h>),
    /// Its files changed, or none remembered: read, judged, remembered if they had settled
    /// by the clock read before their stamps were taken.
    Read(Kept, crate::fs::ClockReading),
}

impl Remembering<'_> {
    /// The section to remember in place of the record's, if it differs: the same files
    /// with the verdicts and the key now.
    fn section(&self, key: Option<u64>, codes: &[u8]) -> Option<Vec<u8>> {
        let key = key?;
        match self {
            Remembering::Nothing => None,
            Remembering::Served(section) => {
                if section.key == key && section.verdicts == codes {
                    return None;
                }
                let mut out = Vec::new();
                remembered_rules::write(&mut out, key, section.has_git, &section.files, codes);
                Some(out)
            }
            Remembering::Read(kept, clock) => {
                let memo = crate::memo::settled_as_read;
                kept.section(key, codes, |st| memo(st, *clock))
            }
        }
    }
}

/// Sets the rules of a directory the memo serves, `hit`, in `state`: remembered (and its
/// verdicts put in `codes`, one per entry) when its files are unchanged, else read.
fn serve_rules<'h>(
    walk: &Walk<'_>,
    state: &mut DirState,
    dir: &Dir,
    dir_path: &[u8],
    hit: &'h Hit,
    codes: &mut Vec<u8>,
) -> Remembering<'h> {
    let present = ignore_files_in(
        hit.entries()
            .filter(|(n, _)| n.to_bytes().first() == Some(&b'.')),
    );
    let Some(parent) = state.rules_key else {
        add_rules_of(walk, state, dir, dir_path, &present, None);
        return Remembering::Nothing;
    };
    let count = hit.count();
    match hit.rules() {
        Some(section) if remembered::unchanged(dir, &section) => {
            let key = remembered::section_key(parent, &section);
            if !present.is_empty() || !section.files.is_empty() {
                let below = std::mem::take(&mut state.ignore);
                let rules = Deferred::new(
                    below,
                    dir_path,
                    base_len(dir_path),
                    state.root_base,
                    &present,
                    &section,
                );
                state.ignore = Chain::Deferred(Arc::new(rules));
            }
            state.rules_key = Some(key);
            state.verdicts = true;
            // Not screened (its rules are not compiled unless an entry needs them): an entry
            // the rules judge is asked of every rule.
            state.path_rules = true;
            if key == section.key {
                codes.extend_from_slice(section.verdicts);
            } else {
                codes.resize(count, UNJUDGED);
            }
            Remembering::Served(section)
        }
        _ => {
            // An ignore file edited in place leaves the directory's stamp as it was: read.
            let clock = crate::memo::clock();
            let mut kept = Kept::new();
            add_rules_of(walk, state, dir, dir_path, &present, Some(&mut kept));
            state.rules_key = kept.key(parent);
            state.verdicts = state.rules_key.is_some();
            if state.verdicts {
                codes.resize(count, UNJUDGED);
            }
            Remembering::Read(kept, clock)
        }
    }
}

/// Adds the ignore files of the directory `dir`, shown as `dir_path`, to the rules in
/// `state` (its parent's). Its `listing`, when read whole, says which ignore files it holds;
/// else they are looked up by name. Also how another process rebuilds the rules of a
/// directory it is handed (`--mpi`).
#[cfg_attr(not(feature = "mpi"), allow(dead_code))] // used by walk/mpi only
pub fn add_own_rules(
    walk: &Walk<'_>,
    state: &mut DirState,
    dir: &Dir,
    dir_path: &[u8],
    listing: Option<&Listing>,
) {
    if walk.config.ignore.is_none() {
        return;
    }
    let present = present_files(dir, listing);
    add_rules_of(walk, state, dir, dir_path, &present, None);
}

/// The ignore files (and `.git`) of `dir`: from its `listing` when read whole, else looked
/// up by name.
fn present_files(dir: &Dir, listing: Option<&Listing>) -> Vec<(&'static str, Kind)> {
    match listing {
        Some(listing) => ignore_files_in(listing.dot_entries().map(|e| (e.name, e.kind))),
        None => IGNORE_NAMES
            .iter()
            .filter(|n| dir.exists_at(n))
            .map(|n| (*n, Kind::Unknown))
            .collect(),
    }
}

/// The ignore files (and `.git`) among a directory's entries, with their listed kinds.
fn ignore_files_in<'n>(
    entries: impl Iterator<Item = (&'n CStr, Kind)>,
) -> Vec<(&'static str, Kind)> {
    let mut present = Vec::new();
    for (name, kind) in entries {
        let n = name.to_bytes();
        if let Some(known) = IGNORE_NAMES.iter().find(|k| k.as_bytes() == n) {
            present.push((*known, kind));
        }
    }
    present
}

/// Adds the rules of the ignore files `present` in the directory `dir` (see
/// [`add_own_rules`]).
fn add_rules_of(
    walk: &Walk<'_>,
    state: &mut DirState,
    dir: &Dir,
    dir_path: &[u8],
    present: &[(&'static str, Kind)],
    kept: Option<&mut Kept>,
) {
    let Some(opts) = &walk.config.ignore else {
        return;
    };
    if present.is_empty() {
        return;
    }
    let files = &mut ListedFiles {
        names: present,
        dir,
        dir_path,
        walk,
        kept,
    };
    let node = opts.for_dir(
        state.ignore.node(walk),
        base_len(dir_path),
        state.root_base,
        Vec::new(),
        files,
    );
    state.ignore = Chain::Ready(node);
}

/// The directory a scan is reading, as its entries need it.
struct Here<'a, 'd> {
    /// Its descriptor, which the descriptor cache keeps once a subdirectory needs it.
    dir: &'a DirInUse<'d>,
    /// The subdirectories handed out as jobs (at the first, the cache is asked to keep the
    /// descriptor).
    subdirs: Cell<usize>,
    /// Its node in the descriptor cache, the parent of its subdirectories' jobs.
    node: &'a Arc<CachedDir>,
    state: &'a DirState,
    child_base: usize,
}

/// Judges one entry of the directory being scanned, prints it and queues it. `path` holds the
/// directory's prefix ("dir/") on entry and is left with it. False when the walk must stop.
fn visit_entry(
    walk: &Walk<'_>,
    here: &Here<'_, '_>,
    listed: Listed<'_>,
    path: &mut Vec<u8>,
    batch: &mut Batch,
    push: &mut dyn FnMut(DirJob),
    code: Option<&mut u8>,
) -> bool {
    let Listed {
        name,
        kind: listed,
        hidden,
        ..
    } = listed;
    let config = walk.config;
    let name_bytes = name.to_bytes();
    path.truncate(here.child_base);
    path.extend_from_slice(name_bytes);
    let mut kind = listed;
    let mut stat = None;
    if kind == Kind::Unknown {
        match here.dir.stat_at(name, false) {
            Ok(st) => {
                kind = st.kind();
                stat = Some(Some(st));
            }
            // Gone since it was listed: nothing to print.
            Err(e) if Fault::NotFound.is(&e) => return true,
            Err(e) => {
                walk.report.path_error(path, &e);
                return true;
            }
        }
    }
    let mut via_link = false;
    if config.follow && kind == Kind::Symlink {
        match here.dir.stat_at(name, true) {
            Ok(st) => {
                kind = st.kind();
                stat = Some(Some(st));
                via_link = true;
            }
            // A dangling link stays a link, as in fd and find -L.
            Err(e) if Fault::NotFound.is(&e) => {}
            // A link to itself (ELOOP) and the like: not listed, and said unless the rules
            // skip it anyway, as every method does.
            Err(e) => {
                let mut meta = MetaAt {
                    dir: here.dir,
                    name,
                    follow: true,
                    stat: Some(None),
                    hidden,
                    code: None,
                };
                walk.unfollowable(here.state, path, name_bytes, &mut meta, &e);
                return true;
            }
        }
    }
    let mut meta = MetaAt {
        dir: here.dir,
        name,
        follow: config.follow,
        stat,
        hidden,
        code,
    };
    let (print, descend) = match walk.judge(here.state, path, name_bytes, kind, &mut meta) {
        Action::Skip => return true,
        Action::Visit { print, descend } => (print, descend),
    };
    if walk.closes_loop(here.state, path, kind, &mut meta) {
        return true;
    }
    if print && !walk.printer.push(batch, path, kind, &mut meta) {
        return false;
    }
    if descend {
        if here.subdirs.replace(here.subdirs.get() + 1) == 0 {
            here.node.wanted(here.dir);
        }
        let mut child = Vec::with_capacity(path.len() + 1);
        child.extend_from_slice(path);
        child.push(0);
        push(DirJob {
            path: child,
            name_start: here.child_base,
            parent: Some(here.node.clone()),
            via_link,
            state: here.state.below(),
        });
    }
    true
}

/// `dir`, a search root opened by its path, if it is the root the search met there first
/// (`state`'s); else the error of a directory [`descriptors::Replaced`] (at `path`).
pub fn is_root(dir: Dir, state: &DirState, path: &[u8]) -> std::io::Result<Dir> {
    let st = dir.stat()?;
    if state.is_root(&st) {
        return Ok(dir);
    }
    let path = path.to_vec();
    Err(std::io::Error::other(descriptors::Replaced {
        path,
        said: false,
    }))
}

/// Says (once) that a directory reopened was found replaced ([`descriptors::Replaced`]), as
/// `walk` reports.
pub fn said_replaced(walk: &Walk<'_>, e: &std::io::Error) {
    if let Some(replaced) = descriptors::replaced(e).filter(|r| !r.said) {
        walk.report.message(&replaced.path, crate::config::REPLACED);
    }
}

/// Whether opening the listed subdirectory `path` failed because it is no longer a directory
/// there: gone ([`crate::fs::is_gone`]: removed, or its /proc process went away), replaced by
/// a file (ENOTDIR) or, when links are not followed, by a link (ELOOP from O_NOFOLLOW).
fn is_vanished(path: &[u8], e: &std::io::Error, via_link: bool) -> bool {
    if Fault::NotADirectory.is(e) {
        true
    } else if Fault::Loop.is(e) {
        !via_link
    } else {
        crate::fs::is_gone(path, e)
    }
}
