//! `--method ignore`: the ignore crate's parallel walker (fd's engine), with all its own
//! filtering turned off and ffind's rules applied instead, for a side-by-side comparison.
//!
//! The crate hands entries to visitors one at a time with no per-directory state, so each
//! directory's [`DirState`] is kept in a map by path, written when the directory is entered
//! and read by its entries.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, RwLock};

use ::ignore::{DirEntry, ParallelVisitor, ParallelVisitorBuilder, WalkBuilder, WalkState};

use crate::config::Root;
use crate::fs::Kind;
use crate::output::printer::Batch;
use crate::report::strip_os_error;
use crate::walk::beneath::{self, Beneath};
use crate::walk::by_path::{report_io, ByPath, CrateEntry, Step};
use crate::walk::contract::Walk;
use crate::walk::threads;
use crate::walk::visit::{display_path, DirState};

/// Walks every root with the ignore crate.
pub fn walk(walk: &Walk<'_>) {
    let config = walk.config;
    // The crate spawns its threads with std's default stack size and panics when one does not
    // start. Default stacks as small as ours (std reads RUST_MIN_STACK at the first spawn that
    // names no size, and nothing spawned one yet), and no more threads than start now.
    if std::env::var_os("RUST_MIN_STACK").is_none() {
        std::env::set_var("RUST_MIN_STACK", threads::STACK_SIZE.to_string());
    }
    let workers = threads::startable(walk, threads::stealing_threads(walk));
    if workers == 0 {
        return crate::walk::serial::walk(walk);
    }
    for root in &config.roots {
        let Some(entered) = walk.root_entered_by_path(root) else {
            continue;
        };
        let Ok(beneath) = beneath::for_root(walk, root) else {
            continue;
        };
        let root_path = crate::fs::os_path(root.open_path()).into_owned();
        let states = RwLock::new(HashMap::from([(root_path.clone(), entered)]));
        let links = Mutex::new(Vec::new());
        // The root, then (under -L) the links to directories it met, walked together, and so
        // on: the crate never follows a link itself, so ffind's rules decide about each.
        let mut starts = vec![root_path];
        while let Some((first, rest)) = starts.split_first() {
            let mut builder = WalkBuilder::new(first);
            for more in rest {
                builder.add(more);
            }
            builder
                .standard_filters(false)
                .hidden(false)
                .parents(false)
                .ignore(false)
                .git_ignore(false)
                .git_global(false)
                .git_exclude(false)
                .require_git(false)
                .follow_links(false)
                .threads(workers);
            let mut visitors = Visitors {
                walk,
                root,
                states: &states,
                links: &links,
                beneath: beneath.as_ref(),
            };
            builder.build_parallel().visit(&mut visitors);
            if walk.printer.stopped() {
                return;
            }
            starts = std::mem::take(&mut *links.lock().unwrap_or_else(|e| e.into_inner()));
        }
    }
}

struct Visitors<'a, 'w> {
    walk: &'a Walk<'w>,
    root: &'a Root,
    states: &'a RwLock<HashMap<PathBuf, DirState>>,
    /// Links to directories to walk next (`-L`).
    links: &'a Mutex<Vec<PathBuf>>,
    /// Without `-L`: the root's checker, from which each visitor gets its own, sharing the
    /// directories it holds.
    beneath: Option<&'a Beneath>,
}

impl<'s> ParallelVisitorBuilder<'s> for Visitors<'s, '_> {
    fn build(&mut self) -> Box<dyn ParallelVisitor + 's> {
        Box::new(Visitor {
            walk: self.walk,
            root: self.root,
            states: self.states,
            links: self.links,
            beneath: self.beneath.map(Beneath::again),
            batch: Batch::new(),
            path: Vec::new(),
        })
    }
}

struct Visitor<'a, 'w> {
    walk: &'a Walk<'w>,
    root: &'a Root,
    states: &'a RwLock<HashMap<PathBuf, DirState>>,
    links: &'a Mutex<Vec<PathBuf>>,
    beneath: Option<Beneath>,
    batch: Batch,
    path: Vec<u8>,
}

impl Drop for Visitor<'_, '_> {
    fn drop(&mut self) {
        self.walk.printer.flush(&mut self.batch);
    }
}

impl Visitor<'_, '_> {
    fn state_of(&self, dir: &Path) -> Option<DirState> {
        self.states
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(dir)
            .cloned()
    }

    /// An entry below the root, as the crate listed it.
    fn handle(&mut self, entry: CrateEntry<'_>) -> WalkState {
        let walk = self.walk;
        let parent = entry.path.parent().and_then(|p| self.state_of(p));
        let entry_path = entry.path;
        let mut by_path = ByPath {
            walk,
            root: self.root,
            beneath: self.beneath.as_mut(),
            shown: std::mem::take(&mut self.path),
        };
        let step = by_path.visit(parent.as_ref(), entry, &mut self.batch);
        self.path = by_path.shown;
        let descend = match step {
            Step::Stop => return WalkState::Quit,
            Step::Gone | Step::Done { descend: None, .. } => return WalkState::Skip,
            Step::Done {
                descend: Some(descend),
                ..
            } => descend,
        };
        self.states
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(entry_path.to_path_buf(), descend.state);
        walk.printer.directory_done(&mut self.batch);
        if descend.via_link {
            self.links
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(entry_path.to_path_buf());
            // The crate does not follow it: it is walked in the next round.
            return WalkState::Skip;
        }
        WalkState::Continue
    }
}

impl ParallelVisitor for Visitor<'_, '_> {
    fn visit(&mut self, result: Result<DirEntry, ::ignore::Error>) -> WalkState {
        if self.walk.printer.stopped() {
            return WalkState::Quit;
        }
        match result {
            Ok(entry) if entry.depth() == 0 => WalkState::Continue,
            Ok(entry) => {
                let kind = entry
                    .file_type()
                    .map_or(Kind::Unknown, Kind::from_file_type);
                self.handle(CrateEntry {
                    path: entry.path(),
                    kind,
                    ino: crate::fs::ListedEntry::listed_ino(&entry),
                    hidden: crate::fs::hidden_of_entry(|| entry.metadata()),
                })
            }
            Err(err) => {
                let (path, io) = unpack(&err);
                match path {
                    Some(p) => {
                        display_path(&mut self.path, self.root, &p);
                        report_io(self.walk, &self.path, io);
                        WalkState::Continue
                    }
                    None => {
                        self.walk
                            .report
                            .message(b"", &strip_os_error(&err.to_string()));
                        WalkState::Continue
                    }
                }
            }
        }
    }
}

/// The path and I/O error inside the ignore crate's nested error. (It follows no link, so it
/// meets no loop; a `Loop` still gives its path.)
fn unpack(err: &::ignore::Error) -> (Option<PathBuf>, Option<&std::io::Error>) {
    match err {
        ::ignore::Error::WithPath { path, err } => (Some(path.clone()), unpack(err).1),
        ::ignore::Error::WithDepth { err, .. } | ::ignore::Error::WithLineNumber { err, .. } => {
            unpack(err)
        }
        ::ignore::Error::Loop { child, .. } => (Some(child.clone()), None),
        ::ignore::Error::Io(io) => (None, Some(io)),
        _ => (None, None),
    }
}
