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

use crate::fs::Kind;
use crate::output::printer::Batch;
use crate::walk::beneath;
use crate::walk::by_path::{report_io, ByPath, Descend, CrateEntry, Step};
use crate::walk::contract::Walk;
use crate::walk::visit::{display_path, DirState};

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
            let by_path = ByPath {
                walk,
                root,
                beneath: beneath.as_mut(),
                shown: Vec::new(),
            };
            one_walk(by_path, &start, state, &mut pending, &mut batch);
        }
    }
    walk.printer.flush(&mut batch);
}

/// One walk of the crate, from the directory `start` (a root, or under `-L` a followed link),
/// whose entered state is `state`; links to directories to descend go to `pending`, walked
/// after this walk.
fn one_walk(
    mut by_path: ByPath<'_, '_>,
    start: &Path,
    state: DirState,
    pending: &mut Vec<(PathBuf, DirState)>,
    batch: &mut Batch,
) {
    let walk = by_path.walk;
    let config = walk.config;
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
                    display_path(&mut by_path.shown, by_path.root, p);
                    report_io(walk, &by_path.shown, err.io_error());
                }
                continue;
            }
        };
        let depth = e.depth();
        // walkdir opened it for reading iff it is a directory above its max depth.
        let pushed = e.file_type().is_dir() && base + depth < config.max_depth;
        // The states of the directories above it (a stack: walkdir walks depth first).
        states.truncate(depth);
        dirs.truncate(depth);
        let listed = CrateEntry {
            path: e.path(),
            kind: Kind::from_file_type(e.file_type()),
            ino: crate::fs::ListedEntry::listed_ino(&e),
            hidden: crate::fs::hidden_of_entry(|| e.metadata()),
        };
        match by_path.visit(states.last(), listed, batch) {
            Step::Stop => break,
            Step::Gone => {
                if pushed {
                    it.skip_current_dir();
                }
            }
            Step::Done { kind, descend } => {
                match descend {
                    Some(Descend {
                        state,
                        via_link: true,
                    }) => pending.push((e.path().to_path_buf(), state)),
                    Some(Descend { state, .. }) => {
                        states.push(state);
                        dirs.push(e.path().to_path_buf());
                    }
                    None if pushed => it.skip_current_dir(),
                    None => {}
                }
                if kind == Kind::Dir {
                    walk.printer.directory_done(batch);
                }
            }
        }
    }
}
