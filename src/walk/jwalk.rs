//! `--method jwalk`: the jwalk crate (rayon underneath, results in order), for comparison.
//!
//! Decisions are made where jwalk reads each directory (`process_read_dir`, on its worker
//! threads): entries that are hidden or ignored are dropped there and directories not to be
//! descended are marked, with the per-directory state carried in jwalk's `ReadDirState`. The
//! calling thread only prints what was marked.

use std::path::Path;
use std::sync::Arc;

use ::jwalk::{DirEntry, Parallelism, WalkDirGeneric};

use crate::config::Root;
use crate::fs::{stat_path, Dir, Kind};
use crate::output::printer::Batch;
use crate::walk::beneath::Beneath;
use crate::walk::by_path::{report_io, ByPath, CrateEntry, Judged};
use crate::walk::contract::Walk;
use crate::walk::threads;
use crate::walk::visit::{
    display_path, is_dangling_link, Action, DirState, MetaPath, LOOP_MESSAGE,
};

/// jwalk's states: a directory's (the rules and depth its entries are judged by), an entry's
/// (whether it is printed).
type Client = (Option<DirState>, bool);

/// Walks every root with jwalk.
pub fn walk(walk: &Walk<'static>) {
    let config = walk.config;
    let mut batch = Batch::new();
    let mut path = Vec::new();
    // A pool built here rather than jwalk's `RayonNewPool`, which panics (abort, no output)
    // when a thread cannot start: fewer threads instead, or jwalk's serial mode.
    // Its threads are waited for when `pool` goes, after every clone of it jwalk holds (the
    // walk's iterators, `parallelism`): the method returns once they have ended.
    let pool = threads::rayon_pool(walk, threads::stealing_threads(walk), "jwalk");
    let parallelism = match &pool {
        Some(pool) => Parallelism::RayonExistingPool {
            pool: pool.shared(),
            busy_timeout: None,
        },
        None => Parallelism::Serial,
    };
    for root in &config.roots {
        let Some(root_state) = walk.root_state(root) else {
            continue;
        };
        // jwalk's error reading the root comes with the root's entry, which min_depth(1)
        // drops: find out first.
        let opened = Dir::open_path(root.open_path())
            .and_then(|d| crate::walk::scan::is_root(d, &root_state, root.open_path()));
        let root_dir = match opened {
            Ok(dir) => Arc::new(dir),
            Err(e) => {
                walk.report.path_error(root.open_path(), &e);
                continue;
            }
        };
        // Without -L, what jwalk lists by path is checked to be beneath the root.
        let anchor = (!config.follow).then_some(root_dir);
        let root_path = crate::fs::os_path(root.open_path()).into_owned();
        let w = *walk;
        let root_for_cb = root.clone();
        let root_path_cb = root_path.clone();
        let mut builder = WalkDirGeneric::<Client>::new(&root_path)
            .skip_hidden(false)
            .sort(false)
            .follow_links(config.follow)
            .min_depth(1)
            .parallelism(parallelism.clone())
            .root_read_dir_state(Some(root_state))
            .process_read_dir(move |depth, dir_path, state, children| {
                if depth.is_none() {
                    return;
                }
                let Some(inherited) = state.take() else {
                    return;
                };
                let stat = if w.config.follow {
                    stat_path(dir_path.as_os_str().as_encoded_bytes(), true).ok()
                } else {
                    None
                };
                let here = w.enter_by_path(inherited, &root_for_cb, dir_path, stat.as_ref());
                let mut beneath = anchor
                    .as_ref()
                    .map(|a| Beneath::new(&root_path_cb, a.clone()));
                let mut by_path = ByPath {
                    walk: &w,
                    root: &root_for_cb,
                    beneath: beneath.as_mut(),
                    shown: Vec::new(),
                };
                children.retain_mut(|child| keep_child(&mut by_path, &here, dir_path, child));
                *state = Some(here.below());
            });
        if config.max_depth != usize::MAX {
            builder = builder.max_depth(config.max_depth);
        }
        print_marked(walk, root, builder, &mut batch, &mut path);
        walk.printer.directory_done(&mut batch);
    }
    walk.printer.flush(&mut batch);
    drop(parallelism);
    drop(pool);
}

/// Judges one child of the directory `dir_path` (in state `here`) where jwalk has read it, on
/// its thread: whether jwalk keeps it, marked to be printed and descended or not. The shared
/// steps; jwalk follows links itself (-L), and prints later, on the calling thread, what is
/// marked here.
fn keep_child(
    by_path: &mut ByPath<'_, '_>,
    here: &DirState,
    dir_path: &Path,
    child: &mut ::jwalk::Result<DirEntry<Client>>,
) -> bool {
    let w = by_path.walk;
    let root = by_path.root;
    match child {
        Ok(e) => {
            let path = e.path();
            let listed = CrateEntry {
                path: &path,
                kind: Kind::from_file_type(e.file_type),
                ino: crate::fs::ListedEntry::listed_ino(&*e),
                hidden: None,
            };
            match by_path.judge(Some(here), listed, true) {
                Judged::Gone | Judged::Skip(_) => false,
                Judged::Visit { print, descend, .. } => {
                    e.client_state = print;
                    if !descend {
                        e.read_children_path = None;
                    }
                    true
                }
            }
        }
        // A link to an ancestor, or a dangling link, met while following links.
        Err(err)
            if err.path().is_some_and(|p| {
                err.loop_ancestor().is_some() || is_dangling_link(p, err.io_error())
            }) =>
        {
            let Some(p) = err.path() else {
                return false;
            };
            let is_loop = err.loop_ancestor().is_some();
            let kind = if is_loop { Kind::Dir } else { Kind::Symlink };
            let buf = &mut by_path.shown;
            display_path(buf, root, p);
            let name = p.file_name().map_or(&[][..], |n| n.as_encoded_bytes());
            let mut meta = MetaPath {
                path: p,
                follow: w.config.follow,
                stat: None,
                hidden: None,
            };
            match w.judge(here, buf, name, kind, &mut meta) {
                Action::Skip => false,
                Action::Visit { .. } if is_loop => {
                    w.report.message(buf, LOOP_MESSAGE);
                    false
                }
                // A dangling link: kept as an error, printed by the iterator.
                Action::Visit { print, .. } => print,
            }
        }
        Err(err) => match err.path() {
            // Reported by the iterator, unless the rules skip it anyway (a hidden link to
            // itself: never asked for, never said).
            Some(p) => {
                let buf = &mut by_path.shown;
                display_path(buf, root, p);
                let name = p.file_name().map_or(&[][..], |n| n.as_encoded_bytes());
                let mut meta = MetaPath {
                    path: p,
                    follow: false,
                    stat: None,
                    hidden: None,
                };
                w.judge(here, buf, name, Kind::Symlink, &mut meta) != Action::Skip
            }
            // A read error mid-listing: about the directory itself.
            None => {
                let buf = &mut by_path.shown;
                display_path(buf, root, dir_path);
                report_io(w, buf, err.io_error());
                false
            }
        },
    }
}

/// Prints, on the calling thread and in jwalk's order, what `entries` (the walk of `root`)
/// marked to be printed, the dangling links its iterator gives as errors, and says the other
/// errors; until the printer stops.
fn print_marked(
    walk: &Walk<'static>,
    root: &Root,
    entries: WalkDirGeneric<Client>,
    batch: &mut Batch,
    path: &mut Vec<u8>,
) {
    let config = walk.config;
    for next in entries {
        if walk.printer.stopped() {
            return;
        }
        match next {
            Ok(e) => {
                if let Some(err) = &e.read_children_error {
                    display_path(path, root, &e.path());
                    report_io(walk, path, err.io_error());
                }
                if e.client_state {
                    let entry_path = e.path();
                    display_path(path, root, &entry_path);
                    let mut meta = MetaPath {
                        path: &entry_path,
                        follow: config.follow,
                        stat: None,
                        hidden: None,
                    };
                    let kind = Kind::from_file_type(e.file_type);
                    if !walk.printer.push(batch, path, kind, &mut meta) {
                        return;
                    }
                }
                if e.file_type.is_dir() {
                    walk.printer.directory_done(batch);
                }
            }
            Err(err) => {
                if let Some(p) = err.path() {
                    display_path(path, root, p);
                    if is_dangling_link(p, err.io_error()) {
                        let mut meta = MetaPath {
                            path: p,
                            follow: false,
                            stat: None,
                            hidden: None,
                        };
                        if !walk.printer.push(batch, path, Kind::Symlink, &mut meta) {
                            return;
                        }
                    } else {
                        report_io(walk, path, err.io_error());
                    }
                }
            }
        }
    }
}
