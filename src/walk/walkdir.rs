//! `--method walkdir`: the walkdir crate, one thread, for comparison.
//!
//! walkdir opens directories by path (so paths longer than PATH_MAX fail, as they do for every
//! walker crate). The state each directory hands down lives on a stack indexed by depth, which
//! walkdir's depth-first order makes exact.
//!
//! Links are never followed by the crate: under `-L` a link to a directory that is to be
//! descended becomes a walk of its own, started after the current one, so that loops, links to
//! unreadable directories and the rest follow ffind's rules (visit.rs) rather than the crate's.

use std::path::{Path, PathBuf};

use ::walkdir::WalkDir;

use crate::config::Root;
use crate::filter::Meta;
use crate::fs::{Fault, Kind};
use crate::output::printer::Batch;
use crate::walk::beneath::{self, Beneath};
use crate::walk::contract::Walk;
use crate::walk::visit::{display_path, Action, DirState, MetaPath};

/// Descriptors walkdir may keep open for the directories above the one it reads (its
/// `max_open`): a share of the budget, so that a low `ulimit -n` closes (and later re-reads)
/// ancestors instead of failing to open directories.
fn max_open() -> usize {
    (crate::fs::fd_budget() / 2).clamp(1, 64)
}

/// Walks every root with walkdir.
pub fn walk(walk: &Walk<'_>) {
    let config = walk.config;
    let mut batch = Batch::new();
    for root in &config.roots {
        let Some(entered) = walk.root_entered_by_path(root) else {
            continue;
        };
        let Ok(mut beneath) = beneath::for_root(walk, root) else {
            continue;
        };
        let root_path = crate::fs::os_path(root.open_path()).into_owned();
        // The root, then the links to directories met under -L, each walked on its own.
        let mut pending = vec![(root_path, entered)];
        while let Some((start, state)) = pending.pop() {
            if walk.printer.stopped() {
                break;
            }
            let mut one = One {
                walk,
                root,
                beneath: beneath.as_mut(),
                pending: &mut pending,
                batch: &mut batch,
            };
            one.walk(&start, state);
        }
    }
    walk.printer.flush(&mut batch);
}

/// One walk of the crate, from a root or (under `-L`) a followed link.
struct One<'a, 'w> {
    walk: &'a Walk<'w>,
    root: &'a Root,
    /// Without `-L`: the check that what the crate lists is beneath the root.
    beneath: Option<&'a mut Beneath>,
    /// Links to directories to descend, walked after this walk.
    pending: &'a mut Vec<(PathBuf, DirState)>,
    batch: &'a mut Batch,
}

impl One<'_, '_> {
    /// Walks the directory `start` (a root, or a followed link), whose entered state is `state`.
    fn walk(&mut self, start: &Path, state: DirState) {
        let walk = self.walk;
        let root = self.root;
        let config = walk.config;
        let mut path = Vec::new();
        let base = state.depth;
        let mut states: Vec<DirState> = vec![state];
        // The directory each state is of: a read error the crate gives mid-listing names no
        // path, only the depth of the entries it was reading.
        let mut dirs: Vec<PathBuf> = vec![start.to_path_buf()];
        let mut builder = WalkDir::new(start)
            .follow_links(false)
            .min_depth(1)
            .max_open(max_open());
        if config.max_depth != usize::MAX {
            builder = builder.max_depth(config.max_depth.saturating_sub(base));
        }
        let mut it = builder.into_iter();
        while let Some(next) = it.next() {
            if walk.printer.stopped() {
                break;
            }
            let e = match next {
                Ok(e) => e,
                Err(err) => {
                    let dir = || dirs.get(err.depth().checked_sub(1)?);
                    if let Some(p) = err.path().or_else(|| dir().map(PathBuf::as_path)) {
                        display_path(&mut path, root, p);
                        report_io(walk, &path, err.io_error());
                    }
                    continue;
                }
            };
            let entry_path = e.path();
            let depth = e.depth();
            let mut kind = Kind::from_file_type(e.file_type());
            // walkdir opened it for reading iff it is a directory above its max depth.
            let pushed = e.file_type().is_dir() && base + depth < config.max_depth;
            if let Some(beneath) = self.beneath.as_deref_mut() {
                if !beneath.holds_or_say(
                    walk,
                    root,
                    entry_path,
                    kind,
                    crate::fs::ino_of_walkdir_entry(&e),
                    &mut path,
                ) {
                    if pushed {
                        it.skip_current_dir();
                    }
                    continue;
                }
            }
            states.truncate(depth);
            dirs.truncate(depth);
            let Some(parent) = states.last() else {
                continue;
            };
            display_path(&mut path, root, entry_path);
            let mut meta = MetaPath {
                path: entry_path,
                follow: config.follow,
                stat: None,
                hidden: crate::fs::hidden_of_entry(|| e.metadata()),
            };
            let name = entry_path
                .file_name()
                .map_or(&[][..], |n| n.as_encoded_bytes());
            let Some(via_link) = walk.follow_by_path(parent, &path, name, &mut kind, &mut meta)
            else {
                continue;
            };
            let (print, descend) = match walk.judge(parent, &path, name, kind, &mut meta) {
                Action::Visit { .. } if walk.closes_loop(parent, &path, kind, &mut meta) => {
                    (false, false)
                }
                Action::Skip => (false, false),
                Action::Visit { print, descend } => (print, descend),
            };
            if print && !walk.printer.push(self.batch, &path, kind, &mut meta) {
                break;
            }
            if descend {
                let stat = if config.follow { meta.stat() } else { None };
                let child = walk.enter_by_path(parent.below(), root, entry_path, stat.as_ref());
                if via_link {
                    self.pending.push((entry_path.to_path_buf(), child));
                } else {
                    states.push(child);
                    dirs.push(entry_path.to_path_buf());
                }
            } else if pushed {
                it.skip_current_dir();
            }
            if kind == Kind::Dir {
                walk.printer.directory_done(self.batch);
            }
        }
    }
}

/// Reports an I/O error a walker crate gave for a path below a root. An entry that vanished
/// since its directory was listed (removed, replaced by a file, or a /proc directory whose
/// process went away: [`crate::fs::is_gone`]) is not an error: it no longer exists as what
/// was listed, as the other methods say.
pub fn report_io(walk: &Walk<'_>, path: &[u8], err: Option<&std::io::Error>) {
    match err {
        Some(e) if e.kind() == std::io::ErrorKind::NotFound || crate::fs::is_gone(path, e) => {}
        Some(e) if Fault::NotADirectory.is(e) => {}
        Some(e) => walk.report.path_error(path, e),
        None => walk.report.message(path, "cannot be read"),
    }
}
