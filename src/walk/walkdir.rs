//! `--method walkdir`: the walkdir crate, one thread, for comparison.
//!
//! walkdir opens directories by path (so paths longer than PATH_MAX fail, as they do for every
//! walker crate). The state each directory hands down lives on a stack indexed by depth, which
//! walkdir's depth-first order makes exact.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use ::walkdir::WalkDir;

use crate::filter::Meta;
use crate::output::printer::Batch;
use crate::walk::dir::Kind;
use crate::walk::visit::{
    display_path, is_dangling_link, Action, DirState, MetaPath, LOOP_MESSAGE,
};
use crate::walk::Walk;

/// Walks every root with walkdir.
pub fn walk(walk: &Walk<'_>) {
    let config = walk.config;
    let mut batch = Batch::new();
    let mut path = Vec::new();
    for root in &config.roots {
        let Some(entered) = walk.root_entered_by_path(root) else {
            continue;
        };
        let root_path = Path::new(OsStr::from_bytes(root.open_path()));
        let mut states: Vec<DirState> = vec![entered];
        let mut builder = WalkDir::new(root_path)
            .follow_links(config.follow)
            .min_depth(1);
        if config.max_depth != usize::MAX {
            builder = builder.max_depth(config.max_depth);
        }
        let mut it = builder.into_iter();
        while let Some(next) = it.next() {
            if walk.printer.stopped() {
                break;
            }
            let (entry_path, depth, kind, pushed) = match &next {
                Ok(e) => {
                    let kind = Kind::from_file_type(e.file_type());
                    // walkdir opened it for reading iff it is a directory above its max depth.
                    let pushed = e.file_type().is_dir() && e.depth() < config.max_depth;
                    (e.path(), e.depth(), kind, pushed)
                }
                Err(err) => match err.path() {
                    Some(p) if err.loop_ancestor().is_some() => (p, err.depth(), Kind::Dir, false),
                    Some(p) if is_dangling_link(p, err.io_error()) => {
                        (p, err.depth(), Kind::Symlink, false)
                    }
                    Some(p) => {
                        display_path(&mut path, root, p);
                        report_io(walk, &path, err.io_error());
                        continue;
                    }
                    None => continue,
                },
            };
            states.truncate(depth);
            let Some(parent) = states.last() else {
                continue;
            };
            display_path(&mut path, root, entry_path);
            let name = entry_path.file_name().map_or(&[][..], |n| n.as_bytes());
            let mut meta = MetaPath {
                path: entry_path,
                follow: config.follow,
                stat: None,
            };
            let action = walk.judge(parent, &path, name, kind, &mut meta);
            if next.as_ref().is_err_and(|e| e.loop_ancestor().is_some()) {
                if let Action::Visit { descend: true, .. } = action {
                    walk.report.message(&path, LOOP_MESSAGE);
                }
                continue;
            }
            let descend = match action {
                Action::Skip => false,
                Action::Visit { print, descend } => {
                    if print && !walk.printer.push(&mut batch, &path, kind, &mut meta) {
                        break;
                    }
                    descend
                }
            };
            if descend {
                let stat = if config.follow { meta.stat() } else { None };
                let child = walk.enter_by_path(parent.below(), root, entry_path, stat.as_ref());
                states.push(child);
            } else if pushed {
                it.skip_current_dir();
            }
            if kind == Kind::Dir {
                walk.printer.directory_done(&mut batch);
            }
        }
    }
    walk.printer.flush(&mut batch);
}

/// Reports an I/O error a walker crate gave for a path below a root. An entry that vanished
/// since its directory was listed is not an error: it no longer exists.
pub fn report_io(walk: &Walk<'_>, path: &[u8], err: Option<&std::io::Error>) {
    match err {
        Some(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Some(e) => walk.report.path_error(path, e),
        None => walk.report.message(path, "cannot be read"),
    }
}
