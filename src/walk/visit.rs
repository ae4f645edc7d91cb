//! The decision every method shares: for each entry, print it? descend into it? And the
//! per-directory state ([`DirState`]) a directory hands to its children: its depth, the ignore
//! rules in force, its ancestors (for loop detection with `-L`) and its search root.
//!
//! The methods that read directories themselves drive this from `scan.rs`; the walker-crate
//! methods through [`Walk::enter_by_path`], [`MetaPath`] and [`display_path`].

use std::ffi::CStr;
use std::path::Path;
use std::sync::Arc;

use crate::config::Root;
use crate::filter::ignore::{FilesByPath, Hit, IgnoreNode, Verdict};
use crate::filter::{Entry, Meta};
use crate::fs::path::{base_len, join_into};
use crate::fs::{stat_path, Dir, Kind, Stat};
use crate::walk::contract::Walk;
use crate::walk::remembered::Chain;
use crate::walk::why::{Hints, Skipped, Trace, Why};

/// A directory's identity, linked to its parent's, for loop detection under `-L`.
#[derive(Debug)]
pub struct Ancestor {
    dev: u64,
    ino: u64,
    parent: Option<Arc<Ancestor>>,
}

/// What a directory hands down to its children.
#[derive(Debug, Clone)]
pub struct DirState {
    /// The directory's depth (a search root is 0; its children are at 1).
    pub depth: usize,
    /// The ignore rules in force for the directory's children.
    pub ignore: Chain,
    /// The key of those rules, when the memo may serve or remember the verdicts of the
    /// directory's entries (`remembered.rs`).
    pub rules_key: Option<u64>,
    /// The directory's entries' verdicts are served or remembered: asked of each entry's
    /// [`Meta`] first, and told to it.
    pub verdicts: bool,
    /// With `-L`: this directory and its ancestors, by device and inode.
    pub ancestors: Option<Arc<Ancestor>>,
    /// Where the part of a display path below the search root starts.
    pub root_base: usize,
    /// The search root's device, for `--one-file-system`, and its inode: what opening the
    /// root again must find ([`crate::config::Root::is_same`]).
    pub root_dev: u64,
    pub root_ino: u64,
    /// The search root's place in [`crate::config::Config::roots`] (the memo of `--cache` is
    /// kept per root).
    pub root: usize,
    /// Whether a rule on paths in `ignore` may match one of the directory's entries
    /// ([`DirState::screen_paths`]); when not, each entry is screened by its name alone.
    pub path_rules: bool,
}

impl DirState {
    /// Whether `st` is the search root this state descends from, as the search met it first.
    pub fn is_root(&self, st: &Stat) -> bool {
        (st.dev, st.ino) == self.root_id()
    }

    /// The search root's device and inode, as the search met it first.
    pub fn root_id(&self) -> (u64, u64) {
        (self.root_dev, self.root_ino)
    }
}

/// What to do with one entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Neither printed nor descended into (hidden, ignored, excluded).
    Skip,
    /// Passed the hiding rules.
    Visit {
        /// Print it.
        print: bool,
        /// Descend into it (a directory within the depth limit).
        descend: bool,
    },
}

impl Walk<'_> {
    /// Sets up a search root: checks it, and reads the ignore files above it. `None` (after a
    /// message) when it cannot be searched.
    pub fn root_state(&self, root: &Root) -> Option<DirState> {
        self.checked_root(root).map(|(state, _)| state)
    }

    /// A search root entered for the walker-crate methods: [`Walk::root_state`] with the root's
    /// own ignore files read and, under `-L`, the root first in the ancestor chain.
    pub fn root_entered_by_path(&self, root: &Root) -> Option<DirState> {
        let (state, st) = self.checked_root(root)?;
        let path = crate::fs::os_path(root.open_path());
        Some(self.enter_by_path(state, root, &path, Some(&st)))
    }

    /// [`Walk::root_state`] and the root's own (followed) `stat`.
    fn checked_root(&self, root: &Root) -> Option<(DirState, Stat)> {
        let st = match stat_path(root.open_path(), true) {
            Ok(st) => st,
            Err(e) => {
                self.report.path_error(root.open_path(), &e);
                return None;
            }
        };
        if st.kind() != Kind::Dir {
            self.report.message(root.open_path(), "Not a directory");
            return None;
        }
        if !root.is_same(&st) {
            self.report
                .message(root.open_path(), crate::config::REPLACED);
            return None;
        }
        // As fd: a search root holding one of --ignore-contain's names is skipped whole.
        let root_path = crate::fs::os_path(root.open_path());
        let mut meta = MetaPath {
            path: &root_path,
            follow: true,
            stat: None,
            hidden: None,
        };
        if self.config.ignore_contain.iter().any(|n| meta.contains(n)) {
            return None;
        }
        let root_base = base_len(&root.display);
        let ignore = match &self.config.ignore {
            // The directories above the root always count (they say whether it is in a
            // repository); `IgnoreOptions::parents` decides whether their rules apply.
            Some(opts) => {
                let mut node: Option<Arc<IgnoreNode>> = None;
                // From "/" down to the root's parent; each sees paths below the search root
                // prefixed with the way from itself to the root.
                let ancestors: Vec<&Path> = root.absolute.ancestors().skip(1).collect();
                for dir in ancestors.into_iter().rev() {
                    let rel = root.absolute.strip_prefix(dir).unwrap_or(&root.absolute);
                    let mut prefix = rel.as_os_str().as_encoded_bytes().to_vec();
                    prefix.push(b'/');
                    node = opts.for_dir(
                        node.as_ref(),
                        root_base,
                        root_base,
                        prefix,
                        &mut FilesByPath {
                            dir,
                            shown: dir.as_os_str().as_encoded_bytes(),
                            report: self.report,
                            above_root: true,
                        },
                    );
                }
                node
            }
            None => None,
        };
        let rules_key = crate::walk::remembered::root_key(self, ignore.as_deref());
        let state = DirState {
            depth: 0,
            ignore: Chain::Ready(ignore),
            rules_key,
            verdicts: false,
            ancestors: None,
            root_base,
            root_dev: st.dev,
            root_ino: st.ino,
            root: self
                .config
                .roots
                .iter()
                .position(|r| std::ptr::eq(r, root))
                .unwrap_or(usize::MAX),
            // Asked again of every directory as it is entered; until then, rules on paths
            // are never screened out.
            path_rules: true,
        };
        Some((state, st))
    }

    /// The shared decision for one entry of a directory in state `parent`.
    #[inline]
    pub fn judge(
        &self,
        parent: &DirState,
        path: &[u8],
        name: &[u8],
        kind: Kind,
        meta: &mut dyn Meta,
    ) -> Action {
        if self.lists_all {
            // Nothing to ask but the depth: decided where the entry is read, without a call.
            let depth = parent.depth + 1;
            let config = self.config;
            return Action::Visit {
                print: depth >= config.min_depth && depth <= config.max_depth,
                descend: kind == Kind::Dir && depth < config.max_depth,
            };
        }
        self.judge_filtered(parent, path, name, kind, meta)
    }

    /// [`Walk::judge`] when rules or filters have a say.
    #[inline(never)]
    fn judge_filtered(
        &self,
        parent: &DirState,
        path: &[u8],
        name: &[u8],
        kind: Kind,
        meta: &mut dyn Meta,
    ) -> Action {
        self.judge_traced(parent, path, name, kind, meta, &mut ())
    }

    /// [`Walk::judge`], each step said to `trace` (`--explain`'s; the walk's is `()`, which
    /// keeps nothing). One judge for both, so that `--explain` never disagrees with a search.
    #[inline(always)]
    pub fn judge_traced<T: Trace>(
        &self,
        parent: &DirState,
        path: &[u8],
        name: &[u8],
        kind: Kind,
        meta: &mut dyn Meta,
        trace: &mut T,
    ) -> Action {
        let config = self.config;
        // A file the pattern or `-e` turns away is printed by no rule: the walk asks them
        // before the ignore files (`--explain` asks every step in order, to name each rule).
        // A link stays judged in order: whether one that cannot be followed is reported
        // depends on the hiding rules alone (`Walk::unfollowable`).
        let names_judged = !T::EVERY_STEP && kind == Kind::File && config.filters.names_first();
        if names_judged && config.filters.name_refusal(path, name).is_some() {
            return Action::Skip;
        }
        let is_dir = kind == Kind::Dir;
        let dotted = name.first() == Some(&b'.');
        let hidden = !config.hidden && dotted;
        // Hidden by the system's mark (Windows' attribute): never shown without --hidden,
        // whatever an ignore file's `!pattern` says (fd #2096 shows such a file). A dotfile
        // keeps a dotfile's rule (a negation that names it shows it, as in fd), marked or not:
        // Wine marks every dotfile so, which Windows does not.
        if !config.hidden && !dotted && crate::fs::MARKS_HIDDEN && meta.marked_hidden() {
            trace.note(Why::MarkedHidden);
            return self.skipped(Skipped::Hidden, parent, path, name, kind, meta);
        }
        match &config.ignore {
            Some(opts) => {
                let remembered = if parent.verdicts {
                    meta.remembered_verdict()
                } else {
                    None
                };
                let verdict = match remembered {
                    Some(verdict) => verdict,
                    None => {
                        let node = parent.ignore.node(self).map(|n| &**n);
                        let hit = opts.decide_name(
                            node,
                            path,
                            name,
                            parent.root_base,
                            is_dir,
                            parent.path_rules,
                        );
                        if let Some(hit) = hit {
                            trace.note(Why::Rule(hit.rule()));
                        }
                        let verdict = Hit::verdict(hit);
                        if parent.verdicts {
                            meta.verdict_given(verdict);
                        }
                        verdict
                    }
                };
                match verdict {
                    Verdict::Ignore => {
                        return self.skipped(Skipped::Ignored, parent, path, name, kind, meta)
                    }
                    Verdict::None if hidden => {
                        trace.note(Why::DotName);
                        return self.skipped(Skipped::Hidden, parent, path, name, kind, meta);
                    }
                    Verdict::None | Verdict::Whitelist => {}
                }
            }
            None if hidden => {
                trace.note(Why::DotName);
                return self.skipped(Skipped::Hidden, parent, path, name, kind, meta);
            }
            None => {}
        }
        if let Some(excludes) = &config.excludes {
            let below_root = crate::fs::os_path(&path[parent.root_base.min(path.len())..]);
            if excludes.matched(&below_root, is_dir).is_ignore() {
                trace.note(Why::Excluded);
                return self.skipped(Skipped::Excluded, parent, path, name, kind, meta);
            }
        }
        // Only asked when given: a plain walk pays nothing for it.
        if is_dir && !config.ignore_contain.is_empty() {
            if let Some(n) = config.ignore_contain.iter().find(|n| meta.contains(n)) {
                trace.note(Why::Contains(n.to_bytes()));
                return Action::Skip;
            }
        }
        let depth = parent.depth + 1;
        let print = if depth < config.min_depth {
            trace.note(Why::BelowMinDepth {
                depth,
                min: config.min_depth,
            });
            false
        } else if depth > config.max_depth {
            trace.note(Why::PastMaxDepth {
                depth,
                max: config.max_depth,
            });
            false
        } else {
            let mut entry = Entry {
                path,
                name,
                kind,
                meta: &mut *meta,
            };
            // A name that passed above is not judged again.
            let refusal = if names_judged {
                config.filters.refusal_past_names(&mut entry)
            } else {
                config.filters.refusal(&mut entry)
            };
            trace.note(refusal.map_or(Why::Passed, Why::Refused));
            refusal.is_none()
        };
        let mut descend = is_dir && depth < config.max_depth && !(config.prune && print);
        if is_dir && depth >= config.max_depth {
            trace.note(Why::DepthLimit {
                max: config.max_depth,
            });
        } else if is_dir && config.prune && print {
            trace.note(Why::Pruned);
        }
        if descend && config.one_file_system {
            descend = meta.stat().is_some_and(|st| st.dev == parent.root_dev);
            if !descend {
                trace.note(Why::OtherFileSystem);
            }
        }
        Action::Visit { print, descend }
    }

    /// An entry the hiding rules skip (hidden, ignored, excluded): with the hint on, counted,
    /// and judged by the pattern and the filters as if it had not been skipped. Only entries
    /// already skipped pay for it.
    #[inline(always)]
    fn skipped(
        &self,
        why: Skipped,
        parent: &DirState,
        path: &[u8],
        name: &[u8],
        kind: Kind,
        meta: &mut dyn Meta,
    ) -> Action {
        if let Some(hints) = self.hints {
            self.count_skipped(hints, why, parent, path, name, kind, meta);
        }
        Action::Skip
    }

    /// [`Walk::skipped`]'s count, out of the judge's way.
    #[cold]
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn count_skipped(
        &self,
        hints: &Hints,
        why: Skipped,
        parent: &DirState,
        path: &[u8],
        name: &[u8],
        kind: Kind,
        meta: &mut dyn Meta,
    ) {
        let config = self.config;
        // Ignored and hidden: -I alone would not show it.
        let why = match why {
            Skipped::Ignored if !config.hidden && name.first() == Some(&b'.') => {
                Skipped::IgnoredHidden
            }
            why => why,
        };
        if kind == Kind::Dir {
            hints.skipped_dir(why, path, name);
        }
        let depth = parent.depth + 1;
        if depth >= config.min_depth
            && depth <= config.max_depth
            && config.filters.matches(&mut Entry {
                path,
                name,
                kind,
                meta,
            })
        {
            hints.would_print(why, path);
        }
    }

    /// With `-L`, find -L's rule: whether the entry `path` of a directory in state `parent` is
    /// a directory (links followed) with the device and inode of that directory or one of its
    /// ancestors up to the search root. Such an entry closes a loop: it is said on stderr here,
    /// and is neither listed nor descended, whether or not it would have been descended (`-d`,
    /// `--prune`). Asked only of entries that passed the hiding rules.
    pub fn closes_loop(
        &self,
        parent: &DirState,
        path: &[u8],
        kind: Kind,
        meta: &mut dyn Meta,
    ) -> bool {
        if !self.config.follow || kind != Kind::Dir {
            return false;
        }
        match meta.stat() {
            Some(st) => self.is_loop(parent, path, &st),
            None => false,
        }
    }

    /// With `-L`: whether a directory is one of its own ancestors. Says so on stderr when it is.
    pub fn is_loop(&self, parent: &DirState, path: &[u8], target: &Stat) -> bool {
        let mut cur = parent.ancestors.as_deref();
        while let Some(a) = cur {
            if a.dev == target.dev && a.ino == target.ino {
                self.report.message(path, LOOP_MESSAGE);
                return true;
            }
            cur = a.parent.as_deref();
        }
        false
    }

    /// Enters a directory for the methods that read ignore files by path (the walker-crate
    /// methods): `state` is the parent's state one level down (or a root's state), `stat` the
    /// directory's own, needed with `-L`. Returns the state its entries are judged against.
    pub fn enter_by_path(
        &self,
        state: DirState,
        root: &Root,
        path: &Path,
        stat: Option<&Stat>,
    ) -> DirState {
        let state = match &self.config.ignore {
            Some(opts) => {
                // Matching works on display paths: where this directory's children start in
                // theirs (the crate's path may carry a "./" the display path does not).
                let mut display = Vec::new();
                display_path(&mut display, root, path);
                let base = base_len(&display);
                let root_base = state.root_base;
                let ignore = opts.for_dir(
                    state.ignore.node(self),
                    base,
                    root_base,
                    Vec::new(),
                    &mut FilesByPath {
                        dir: path,
                        shown: &display,
                        report: self.report,
                        above_root: false,
                    },
                );
                let mut state = DirState {
                    ignore: Chain::Ready(ignore),
                    ..state
                };
                if base != display.len() {
                    display.push(crate::fs::SEPARATOR);
                }
                state.screen_paths(self, &display);
                state
            }
            None => state,
        };
        self.entered(state, stat)
    }

    /// Under `-L`, an entry whose link cannot be followed (a link to itself, a target that
    /// cannot be looked at): not listed, and said on stderr unless the rules skip it anyway
    /// (hidden, ignored, excluded: never asked for, so never reported). Judged as the link it
    /// is, every method alike.
    pub fn unfollowable(
        &self,
        parent: &DirState,
        path: &[u8],
        name: &[u8],
        meta: &mut dyn Meta,
        err: &std::io::Error,
    ) {
        if self.judge(parent, path, name, Kind::Symlink, meta) != Action::Skip {
            self.report.path_error(path, err);
        }
    }

    /// Under `-L`, for the walker-crate methods: a symlink entry becomes what it leads to
    /// (`kind` and `meta` are its target's). Whether it was followed; `None` when its target
    /// cannot be looked at ([`Walk::unfollowable`], with `shown` and `name` the entry's display
    /// path and name in `parent`). A dangling link stays a link, as in fd and find -L.
    pub fn follow_by_path(
        &self,
        parent: &DirState,
        shown: &[u8],
        name: &[u8],
        kind: &mut Kind,
        meta: &mut MetaPath<'_>,
    ) -> Option<bool> {
        if !self.config.follow || *kind != Kind::Symlink {
            return Some(false);
        }
        // By the system's own stat (std's metadata has no file id on Windows, which the loop
        // check needs).
        match stat_path(meta.path.as_os_str().as_encoded_bytes(), true) {
            Ok(st) => {
                *kind = st.kind();
                meta.stat = Some(Some(st));
                Some(true)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(false),
            Err(e) => {
                self.unfollowable(parent, shown, name, meta, &e);
                None
            }
        }
    }

    /// Adds the directory itself to the ancestor chain under `-L`.
    pub(super) fn entered(&self, mut state: DirState, stat: Option<&Stat>) -> DirState {
        if let (true, Some(st)) = (self.config.follow, stat) {
            let parent = state.ancestors.take();
            state.ancestors = Some(Arc::new(Ancestor {
                dev: st.dev,
                ino: st.ino,
                parent,
            }));
        }
        state
    }
}

impl DirState {
    /// Looks up, for the directory whose entries' display paths begin with `child_prefix`
    /// ("dir/"), whether a rule on paths may match one of them (once per directory).
    pub fn screen_paths(&mut self, walk: &Walk<'_>, child_prefix: &[u8]) {
        self.path_rules = self
            .ignore
            .node(walk)
            .is_some_and(|n| n.paths_may_match(child_prefix));
    }

    /// The state a subdirectory starts from: one level deeper, the same rules and ancestors.
    pub fn below(&self) -> DirState {
        DirState {
            depth: self.depth + 1,
            verdicts: false,
            ..self.clone()
        }
    }
}

/// Metadata of an entry, fetched by path (walker-crate methods).
pub struct MetaPath<'a> {
    /// The entry's path.
    pub path: &'a Path,
    /// Follow a symlink.
    pub follow: bool,
    /// Metadata the walker already had, or what was fetched.
    pub stat: Option<Option<Stat>>,
    /// The system's hidden mark, when the walker's entry holds it ([`Meta::marked_hidden`]),
    /// or once asked.
    pub hidden: Option<bool>,
}

impl Meta for MetaPath<'_> {
    fn stat(&mut self) -> Option<Stat> {
        let (path, follow) = (self.path, self.follow);
        *self
            .stat
            .get_or_insert_with(|| stat_path(path.as_os_str().as_encoded_bytes(), follow).ok())
    }

    fn executable(&mut self) -> bool {
        let mut c = self.path.as_os_str().as_encoded_bytes().to_vec();
        c.push(0);
        CStr::from_bytes_with_nul(&c)
            .ok()
            .and_then(|c| Dir::open_path(b".").ok().map(|d| d.executable_at(c)))
            .unwrap_or(false)
    }

    fn is_empty(&mut self, kind: Kind) -> bool {
        match kind {
            Kind::Dir => std::fs::read_dir(self.path).is_ok_and(|mut d| d.next().is_none()),
            Kind::File => self.stat().is_some_and(|st| st.size == 0),
            _ => false,
        }
    }

    fn contains(&mut self, name: &CStr) -> bool {
        std::fs::metadata(self.path.join(crate::fs::os_path(name.to_bytes()))).is_ok()
    }

    fn marked_hidden(&mut self) -> bool {
        let path = self.path;
        *self
            .hidden
            .get_or_insert_with(|| crate::fs::marked_hidden(path))
    }
}

/// The message for a symlink that leads back to one of its ancestors under `-L`.
pub const LOOP_MESSAGE: &str =
    "File system loop detected (the same directory as one of its parents)";

/// For the walker-crate methods: an entry's display path, from the path the crate built on
/// the root's open path (so "./x" under an empty display root prints as "x").
pub fn display_path(buf: &mut Vec<u8>, root: &Root, entry_path: &Path) {
    let open = crate::fs::os_path(root.open_path());
    let rel = entry_path.strip_prefix(&open).unwrap_or(entry_path);
    if rel.as_os_str().is_empty() {
        buf.clear();
        buf.extend_from_slice(&root.display);
    } else {
        join_into(buf, &root.display, rel.as_os_str().as_encoded_bytes());
    }
}

/// Whether an error a walker crate gave for `path` is really a dangling symlink met while
/// following links: such an entry is listed as a link, as the other methods do.
pub fn is_dangling_link(path: &Path, err: Option<&std::io::Error>) -> bool {
    err.is_some_and(|e| e.kind() == std::io::ErrorKind::NotFound)
        && path
            .symlink_metadata()
            .is_ok_and(|m| m.file_type().is_symlink())
}
