//! A directory handed over by another process, made a job here: what its entries are judged
//! against is rebuilt from its path, with the code the walk itself runs.
//!
//! A job carries its parent's state ([`DirState`]: depth, ignore rules, `-L` ancestors, search
//! root) and its parent's open descriptor, neither of which can cross to another process (and
//! device numbers differ between the nodes that mount one network file system). So a
//! [`Handed`] directory carries only its path, its search root, its depth and which of its
//! ancestors were reached through links, and the process it is handed to rebuilds the rest:
//!
//! - the search root's state as `Walk::root_state` makes it (the ignore files above the root,
//!   whether it is in a git repository), once per process;
//! - then, from the root down to the parent, each directory as a scan enters it: opened one
//!   component at a time below the root (never following a link the walk did not follow),
//!   `Walk::entered` (its device and inode under `-L`) and its own ignore files read by
//!   [`add_own_rules`], the function `Scanner::scan` calls, looking them up by name as a scan
//!   of a huge directory does;
//! - the parent's node in the descriptor cache, so that the directory and its siblings open
//!   relative to their parent, as any job's.
//!
//! Same code on the same bytes: every entry gets the verdict one process would give it. What
//! the rebuild reads was read, and any error in it said, by the process that found the
//! directory, so it is read without a word here ([`Reporter::sending`] to nowhere). The levels
//! rebuilt are kept by path (up to [`LEVELS_KEPT`]): a directory's siblings, handed over with
//! it or later, cost no system call.

use std::collections::HashMap;
use std::ffi::CString;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};

use crate::config::Root;
use crate::fs::path::base_len;
use crate::fs::{stat_path, Dir};
use crate::report::Reporter;
use crate::walk::contract::Walk;
use crate::walk::descriptors::{replaced, CachedDir};
use crate::walk::mpi::wire::Handed;
use crate::walk::scan::{add_own_rules, is_root, said_replaced, DirJob};
use crate::walk::visit::DirState;

/// Rebuilt directories kept at most; past this the table is emptied (it is a cache: a
/// directory not found in it is rebuilt again).
pub const LEVELS_KEPT: usize = 4096;

/// One directory rebuilt: its state once entered (its own rules added), and its node.
struct Level {
    state: DirState,
    node: Weak<CachedDir>,
}

/// A directory entered (its own rules added), and its node.
type Entered = (DirState, Arc<CachedDir>);

/// What this process has rebuilt.
pub struct Rebuild {
    /// Each search root's state here, made once (`None`: it cannot be searched here).
    roots: Vec<OnceLock<Option<DirState>>>,
    /// Each search root entered (its own rules added) and its node, made once and kept for
    /// the whole search, as a walk in one process keeps its root's node: every chain rebuilt
    /// below it shares it, so the root found replaced on a reopening is said once here.
    entered: Vec<OnceLock<Option<Entered>>>,
    /// Whether this process said already that a search root cannot be searched here (once per
    /// root, not once per directory handed over below it).
    said: Vec<AtomicBool>,
    levels: Mutex<HashMap<Vec<u8>, Level>>,
    /// Messages about what is read again go nowhere.
    silent: Reporter,
}

impl Rebuild {
    /// Nothing rebuilt yet, for a search of `roots` search paths.
    pub fn new(roots: usize) -> Rebuild {
        Rebuild {
            roots: (0..roots).map(|_| OnceLock::new()).collect(),
            entered: (0..roots).map(|_| OnceLock::new()).collect(),
            said: (0..roots).map(|_| AtomicBool::new(false)).collect(),
            levels: Mutex::new(HashMap::new()),
            silent: Reporter::sending(Box::new(|_| {})),
        }
    }

    /// The job for a directory another process handed over; `None` when it is gone (or cannot
    /// be reached from here, which is said).
    pub fn job(&self, walk: &Walk<'_>, handed: Handed) -> Option<DirJob> {
        let root = walk.config.roots.get(handed.root as usize)?;
        let quiet = Walk {
            report: &self.silent,
            ..*walk
        };
        let root_state = self.roots[handed.root as usize]
            .get_or_init(|| quiet.root_state(root))
            .clone();
        let Some(root_state) = root_state else {
            if !self.said[handed.root as usize].swap(true, Ordering::Relaxed) {
                // Replaced since the search began (a link to another tree, say), or not there.
                let replaced = stat_path(root.open_path(), true).is_ok_and(|st| !root.is_same(&st));
                match replaced {
                    true => walk
                        .report
                        .message(root.open_path(), crate::config::REPLACED),
                    false => walk.report.message(
                        &handed.path,
                        "its search path cannot be searched by this process (is it there on \
                         every node?)",
                    ),
                }
            }
            return None;
        };
        if handed.depth == 0 {
            return Some(DirJob::root(root, root_state));
        }
        // Where each directory from the root down to the job's own path ends in it.
        let rel = handed.path.get(base_len(&root.display)..)?;
        let mut ends = vec![root.display.len()];
        let mut at = base_len(&root.display);
        for part in rel.split(|&b| b == b'/') {
            at += part.len();
            ends.push(at);
            at += 1;
        }
        let depth = handed.depth as usize;
        let well_formed = ends.len() == depth + 1
            && handed.links.len() == depth
            && handed.name_start as usize == base_len(&handed.path[..ends[depth - 1]]);
        if !well_formed {
            walk.report
                .message(&handed.path, "handed over malformed by another process");
            return None;
        }
        let (state, parent) = self.level(walk, &quiet, &root_state, &handed, &ends)?;
        Some(DirJob::below(
            handed.path,
            handed.name_start as usize,
            parent,
            handed.via_link,
            state.below(),
        ))
    }

    /// The state and node of the job's parent, rebuilt from the deepest directory above it
    /// that is known here (or from the search root).
    fn level(
        &self,
        walk: &Walk<'_>,
        quiet: &Walk<'_>,
        root_state: &DirState,
        handed: &Handed,
        ends: &[usize],
    ) -> Option<Entered> {
        let parent = ends.len() - 2;
        let path = &handed.path;
        let root = self.entered[handed.root as usize]
            .get_or_init(|| self.enter_root(walk, quiet, root_state, handed, &path[..ends[0]]))
            .clone()?;
        // Levels known here, from the parent up: a live node stops the search; a state whose
        // node has gone saves reading that directory again.
        let mut from: Option<(usize, DirState, Arc<CachedDir>)> = None;
        let mut known: Vec<(usize, DirState)> = Vec::new();
        {
            let levels = self.levels.lock().unwrap_or_else(|e| e.into_inner());
            for k in (1..=parent).rev() {
                if let Some(level) = levels.get(&path[..ends[k]]) {
                    match level.node.upgrade() {
                        Some(node) => {
                            from = Some((k, level.state.clone(), node));
                            break;
                        }
                        None => known.push((k, level.state.clone())),
                    }
                }
            }
        }
        let (start, mut above) = match from {
            Some((k, state, node)) => (k + 1, (state, node)),
            None => (1, root),
        };
        let reads = walk.config.ignore.is_some() || walk.config.follow;
        for k in start..=parent {
            let dir_path = &path[..ends[k]];
            let via_link = handed.links[k];
            let node = CachedDir::new(
                Some(above.1.clone()),
                base_len(dir_path),
                via_link,
                root_state.root_id(),
            );
            let state = match known.iter().position(|(j, _)| *j == k) {
                Some(i) => known.swap_remove(i).1,
                None if reads => {
                    let name = CString::new(&dir_path[base_len(&path[..ends[k - 1]])..]).ok()?;
                    let opened = above
                        .1
                        .open_child(dir_path, &name, via_link, &mut Weak::new());
                    let dir = match opened {
                        Ok(dir) => dir,
                        Err(e) if replaced(&e).is_some() => {
                            said_replaced(walk, &e);
                            return None;
                        }
                        Err(e) => {
                            // Gone since it was listed, as a scan says nothing of it.
                            if !vanished(&e, via_link) {
                                walk.report.path_error(dir_path, &e);
                            }
                            return None;
                        }
                    };
                    entered(walk, quiet, above.0.below(), &node, dir, dir_path)
                }
                None => above.0.below(),
            };
            let mut levels = self.levels.lock().unwrap_or_else(|e| e.into_inner());
            if levels.len() >= LEVELS_KEPT {
                levels.clear();
            }
            levels.insert(
                dir_path.to_vec(),
                Level {
                    state: state.clone(),
                    node: Arc::downgrade(&node),
                },
            );
            drop(levels);
            above = (state, node);
        }
        Some(above)
    }

    /// The search root entered, as a scan enters it, and its node; `None` (said here, once)
    /// when it cannot be.
    fn enter_root(
        &self,
        walk: &Walk<'_>,
        quiet: &Walk<'_>,
        root_state: &DirState,
        handed: &Handed,
        root_path: &[u8],
    ) -> Option<Entered> {
        let node = CachedDir::new(
            None,
            base_len(root_path),
            handed.links[0],
            root_state.root_id(),
        );
        if !(walk.config.ignore.is_some() || walk.config.follow) {
            // Opened when a directory below it is, and checked then to be the root.
            return Some((root_state.clone(), node));
        }
        let opened = Dir::open_path(root_path).and_then(|d| is_root(d, root_state, root_path));
        match opened {
            Ok(dir) => {
                let state = entered(walk, quiet, root_state.clone(), &node, dir, root_path);
                Some((state, node))
            }
            Err(e) => {
                match replaced(&e) {
                    Some(_) => said_replaced(walk, &e),
                    None => walk.report.path_error(root_path, &e),
                }
                None
            }
        }
    }
}

/// The state of `dir` (opened at `dir_path`, `node`'s directory) once entered from `state`:
/// under `-L` its device and inode, and its own ignore rules, read without a word (`quiet`:
/// what they say was said by the process that found it).
fn entered(
    walk: &Walk<'_>,
    quiet: &Walk<'_>,
    state: DirState,
    node: &Arc<CachedDir>,
    dir: Dir,
    dir_path: &[u8],
) -> DirState {
    // Kept by the descriptor cache when the budget allows, for the directories below it.
    let reading = node.read(dir);
    let stat = if walk.config.follow {
        reading.stat().ok()
    } else {
        None
    };
    let mut state = walk.entered(state, stat.as_ref());
    add_own_rules(quiet, &mut state, &reading, dir_path, None);
    state
}

/// A directory found here, as another process is handed it: `None` if it is below none of
/// `roots` (it always is below one).
pub fn hand(roots: &[Root], job: &DirJob) -> Option<Handed> {
    let path = job.path();
    let state = job.state();
    // Its search root: the one whose children's paths start where the job's do. Two search
    // paths shown alike are the same directory, so either will do.
    let root = roots
        .iter()
        .position(|r| base_len(&r.display) == state.root_base && path.starts_with(&r.display))?;
    Some(Handed {
        root: root as u32,
        depth: state.depth as u32,
        name_start: job.name_start() as u32,
        via_link: job.via_link(),
        links: job.links_above(),
        path: path.to_vec(),
    })
}

/// Whether opening a directory failed because it is no longer one there (as `scan.rs` judges
/// it): removed, replaced by a file, or by a link where links are not followed.
fn vanished(e: &std::io::Error, via_link: bool) -> bool {
    match e.raw_os_error() {
        Some(libc::ENOENT | libc::ENOTDIR) => true,
        Some(libc::ELOOP) => !via_link,
        _ => false,
    }
}
