//! The walk shared by the methods that read directories by path through a walker crate (the
//! table's methods without `OwnReader`). Each crate's method keeps
//! what differs, how it iterates and what its entries say (kind, inode, the hidden mark), and
//! hands every entry to [`visit`] (or, where the crate prints later, to [`judge`]), which runs
//! the same steps for all of them:
//!
//! 1. without `-L`, the check that the entry is beneath the root ([`Beneath`]);
//! 2. its display path and name;
//! 3. its metadata, fetched by path when asked ([`MetaPath`]);
//! 4. under `-L`, a link to follow becomes what it leads to ([`Walk::follow_by_path`]), unless
//!    the crate follows links itself;
//! 5. the shared judgement ([`Walk::judge`]);
//! 6. under `-L`, the loop check ([`Walk::closes_loop`]);
//! 7. printing;
//! 8. entering a directory to descend ([`Walk::enter_by_path`]).
//!
//! And [`report_io`], which decides which of a crate's I/O errors are errors.

use std::path::Path;

use crate::config::Root;
use crate::filter::Meta;
use crate::fs::{Fault, Kind};
use crate::output::printer::Batch;
use crate::walk::beneath::Beneath;
use crate::walk::contract::Walk;
use crate::walk::visit::{display_path, Action, DirState, MetaPath};

/// One entry as a crate listed it: what differs between the crates.
pub struct CrateEntry<'p> {
    /// Its path, as the crate built it on the root's open path.
    pub path: &'p Path,
    /// Its kind, as the crate's entry says (links not followed, unless the crate follows them).
    pub kind: Kind,
    /// Its inode, where the crate's entry says it (for the beneath check).
    pub ino: Option<u64>,
    /// The system's hidden mark, where the crate's entry holds it.
    pub hidden: Option<bool>,
}

/// Where one walk by path stands: the walk, the root it is below, the beneath check (without
/// `-L`) and the buffer that holds each entry's display path.
pub struct ByPath<'a, 'w> {
    pub walk: &'a Walk<'w>,
    pub root: &'a Root,
    pub beneath: Option<&'a mut Beneath>,
    /// The last entry's display path.
    pub shown: Vec<u8>,
}

/// What [`judge`] decided about an entry.
pub enum Judged<'p> {
    /// Not there as listed (not beneath the root, or its target could not be looked at, said
    /// on stderr): nothing more to do with it.
    Gone,
    /// Judged: neither printed nor descended (its kind after following a link, step 4).
    Skip(Kind),
    /// Judged: to be printed, descended, or both.
    Visit {
        kind: Kind,
        print: bool,
        descend: bool,
        /// Reached through a link the walk followed (step 4): the crate will not descend it.
        via_link: bool,
        meta: MetaPath<'p>,
    },
}

/// What [`visit`] did with an entry.
pub enum Step {
    /// Not there as listed ([`Judged::Gone`]).
    Gone,
    /// Judged, and printed if it was to be: its kind (after following a link), and the state
    /// to descend into it with, if it is to be descended.
    Done {
        kind: Kind,
        descend: Option<Descend>,
    },
    /// The printer stopped (enough results, or the reader went away): the walk ends.
    Stop,
}

/// A directory to descend: its entered state, and whether it was reached through a link the
/// walk followed (then the crate does not descend it: the method walks it on its own).
pub struct Descend {
    pub state: DirState,
    pub via_link: bool,
}

impl ByPath<'_, '_> {
    /// Steps 1 to 6 for `entry`, of a directory in state `parent` (`None`: unknown, as for an
    /// entry the crate lists after its directory was dropped). `crate_follows`: the crate
    /// follows links itself (jwalk), so step 4 is its.
    pub fn judge<'p>(
        &mut self,
        parent: Option<&DirState>,
        entry: CrateEntry<'p>,
        crate_follows: bool,
    ) -> Judged<'p> {
        let walk = self.walk;
        let CrateEntry {
            path,
            mut kind,
            ino,
            hidden,
        } = entry;
        if let Some(beneath) = self.beneath.as_deref_mut() {
            if !beneath.holds_or_say(walk, self.root, path, kind, ino, &mut self.shown) {
                return Judged::Gone;
            }
        }
        let Some(parent) = parent else {
            return Judged::Gone;
        };
        display_path(&mut self.shown, self.root, path);
        let name = path.file_name().map_or(&[][..], |n| n.as_encoded_bytes());
        let mut meta = MetaPath {
            path,
            follow: walk.config.follow,
            stat: None,
            hidden,
        };
        let via_link = if crate_follows {
            false
        } else {
            match walk.follow_by_path(parent, &self.shown, name, &mut kind, &mut meta) {
                Some(via_link) => via_link,
                None => return Judged::Gone,
            }
        };
        match walk.judge(parent, &self.shown, name, kind, &mut meta) {
            Action::Skip => Judged::Skip(kind),
            Action::Visit { .. } if walk.closes_loop(parent, &self.shown, kind, &mut meta) => {
                Judged::Skip(kind)
            }
            Action::Visit { print, descend } => Judged::Visit {
                kind,
                print,
                descend,
                via_link,
                meta,
            },
        }
    }

    /// All eight steps for `entry`, of a directory in state `parent`: printed into `batch`.
    pub fn visit(
        &mut self,
        parent: Option<&DirState>,
        entry: CrateEntry<'_>,
        batch: &mut Batch,
    ) -> Step {
        let walk = self.walk;
        let (kind, print, descend, via_link, mut meta) = match self.judge(parent, entry, false) {
            Judged::Gone => return Step::Gone,
            Judged::Skip(kind) => {
                return Step::Done {
                    kind,
                    descend: None,
                }
            }
            Judged::Visit {
                kind,
                print,
                descend,
                via_link,
                meta,
            } => (kind, print, descend, via_link, meta),
        };
        if print && !walk.printer.push(batch, &self.shown, kind, &mut meta) {
            return Step::Stop;
        }
        let descend = match parent {
            Some(parent) if descend => {
                let stat = if walk.config.follow {
                    meta.stat()
                } else {
                    None
                };
                let state = walk.enter_by_path(parent.below(), self.root, meta.path, stat.as_ref());
                Some(Descend { state, via_link })
            }
            _ => None,
        };
        Step::Done { kind, descend }
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
