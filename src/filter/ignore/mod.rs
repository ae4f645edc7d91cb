//! Ignore rules: the per-directory stack of `.gitignore`, `.ignore`, `.fdignore` and
//! `.ffindignore` files, `.git/info/exclude` and the global git excludes, and the verdict they
//! give an entry.
//!
//! Each file is compiled into [`Rules`] (git's semantics: negation, anchoring, `**`,
//! directory-only patterns; `filter/rules/`); the precedence between files is the one the
//! `ignore` crate (and so fd) applies: custom (`.fdignore`, `.ffindignore`) over `.ignore` over
//! `.gitignore` over `.git/info/exclude` over the global git excludes over `--ignore-file`, and
//! within each kind the deepest directory first. `.gitignore` rules apply only inside a git
//! work tree (unless `--no-require-git`) and stop at the repository's root; the global
//! excludes are matched from the root of the repository that holds the entry, as git does.
//!
//! A node is made only for a directory that holds an ignore file or a `.git`; every other
//! directory shares its parent's node, so the stack costs nothing where there are no rules. The
//! node travels with the directory's work item: no method re-reads a directory's ignore files.
//! Each node also carries the merged [`Screen`] of its chain, and each directory learns once
//! whether a rule on paths can match there ([`IgnoreNode::paths_may_match`]), so that most
//! entries are judged by one look instead of one per file.
//!
//! How the files are read, and what is said when one cannot be (a FIFO, a device, a link to
//! `/dev/zero`, planted in the tree or above it: reported once and skipped, exit code 1), is
//! `files.rs`.

use std::collections::HashMap;
use std::hash::Hasher;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use crate::filter::rules::screen::Screen;
use crate::filter::rules::{FxHasher, Rule, Rules};
#[cfg(doc)]
use crate::fs::Dir;
use crate::fs::{read_small_file, SEPARATOR};
use crate::report::Reporter;
use files::{file_shown, gitdir_of, read_linked_exclude};
pub use files::{
    global_matcher, matcher_from_file, note_skipped, read_reported, say_of_file, FilesByPath,
    IgnoreFiles, Unread, IGNORE_FILE_LIMIT,
};

mod files;

/// The custom ignore file names, lowest precedence first.
const CUSTOM_FILES: [&str; 2] = [".fdignore", ".ffindignore"];

/// Which ignore files are read; resolved once from the command line.
#[derive(Debug, Clone)]
pub struct IgnoreOptions {
    /// Read `.gitignore`, `.git/info/exclude` and the global git excludes.
    pub vcs: bool,
    /// Read `.ignore`, `.fdignore` and `.ffindignore`.
    pub dot_ignore: bool,
    /// `.gitignore` rules apply only inside a git work tree.
    pub require_git: bool,
    /// Apply the ignore files of the directories above a search root (not `--no-ignore-parent`).
    /// Those directories are looked at either way: whether a root lies inside a git work tree
    /// decides whether its own `.gitignore` applies, as in fd.
    pub parents: bool,
    /// The global git excludes file (`core.excludesFile`, else `$XDG_CONFIG_HOME/git/ignore`).
    pub global: Option<Arc<Rules>>,
    /// Set when the global excludes file depends on the repository (an `includeIf` in git's
    /// configuration): it is then looked up for each repository the walk meets.
    pub global_per_repo: Option<Arc<PerRepoExcludes>>,
    /// `--ignore-file` files and ffind's global ignore file, last added first.
    pub explicit: Vec<Arc<Rules>>,
    /// Global ignore files that are there but could not be read, and why: reported once when
    /// the walk starts ([`IgnoreOptions::report_unread`]).
    pub unread: Vec<(PathBuf, String)>,
}

/// Feeds `h` a file's rules, or that there are none.
fn rules_fingerprint(h: &mut FxHasher, rules: Option<&Rules>) {
    match rules {
        Some(r) => {
            h.write_u8(1);
            r.fingerprint(h);
        }
        None => h.write_u8(0),
    }
}

/// One directory's rules, linked to its nearest ancestor that has rules.
#[derive(Debug)]
pub struct IgnoreNode {
    parent: Option<Arc<IgnoreNode>>,
    /// Bytes of an entry's display path to skip to get the path relative to this directory.
    base_len: usize,
    /// For directories above the search root: the path from this directory to the root,
    /// prepended to the path below the root. Empty for the root and below.
    prefix: Vec<u8>,
    /// Offset in a display path where the part below the search root starts.
    root_base_len: usize,
    custom: Option<Rules>,
    dot_ignore: Option<Rules>,
    git: Option<Rules>,
    git_exclude: Option<Rules>,
    /// This directory holds `.git`: the repository root, where `.gitignore` rules stop.
    has_git: bool,
    /// This directory or an ancestor holds `.git`.
    in_git: bool,
    /// The nearest repository root at or above this directory, which anchors the global
    /// excludes (git matches them relative to the repository's root, not the search path's).
    repo_root: Option<Arc<RepoRoot>>,
    /// The rules on names of this node's files and its ancestors', merged: most entries are
    /// judged by one look into it instead of one per file.
    screen: Screen,
    /// This node's own files hold rules on paths.
    path_rules: bool,
}

/// A repository's root directory, as [`IgnoreNode::rel`] needs it to make paths relative to it.
#[derive(Debug)]
struct RepoRoot {
    base_len: usize,
    prefix: Vec<u8>,
    root_base_len: usize,
    /// git's global excludes as they apply in this repository.
    global: Option<Arc<Rules>>,
}

/// git's global excludes files by the repositories that name them: each compiled (and, if it
/// cannot be read, reported) once.
#[derive(Debug, Default)]
pub struct PerRepoExcludes {
    compiled: Mutex<HashMap<PathBuf, Option<Arc<Rules>>>>,
}

impl PerRepoExcludes {
    /// Knowing `rules` as the compiled file at `path` (the one found for the first search
    /// path, read already).
    pub fn new(path: Option<PathBuf>, rules: Option<Arc<Rules>>) -> PerRepoExcludes {
        PerRepoExcludes {
            compiled: Mutex::new(path.into_iter().map(|p| (p, rules.clone())).collect()),
        }
    }

    /// The global excludes of the repository whose root is the directory of `files`.
    fn for_repo(&self, files: &mut dyn IgnoreFiles) -> Option<Arc<Rules>> {
        let dot_git = files.path().join(".git");
        let git_dir = if dot_git.is_dir() {
            dot_git
        } else {
            // Read without a word: what is wrong with it was said when its exclude file was
            // looked for.
            let link = read_small_file(
                dot_git.as_os_str().as_encoded_bytes(),
                IGNORE_FILE_LIMIT,
                false,
            );
            dot_git.with_file_name(gitdir_of(&link.ok()?)?)
        };
        let git_dir = std::path::absolute(git_dir).ok()?;
        let path = crate::filter::gitconfig::excludes_path_for(&git_dir)?;
        let mut compiled = self.compiled.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(rules) = compiled.get(&path) {
            return rules.clone();
        }
        let bytes = match path.to_str() {
            Some(p) => files.read(p).ok(),
            None => read_small_file(
                path.as_os_str().as_encoded_bytes(),
                IGNORE_FILE_LIMIT,
                false,
            )
            .ok(),
        };
        let rules = bytes.and_then(|b| Rules::parse(&[&b])).map(|mut rules| {
            rules.name_files([path.as_os_str().as_encoded_bytes().to_vec()]);
            Arc::new(rules)
        });
        compiled.insert(path, rules.clone());
        rules
    }
}

impl RepoRoot {
    /// An entry's path relative to the repository's root.
    fn rel<'a>(&'a self, path: &'a [u8], scratch: &'a mut Vec<u8>) -> &'a [u8] {
        rel_to(
            self.base_len,
            &self.prefix,
            self.root_base_len,
            path,
            scratch,
        )
    }
}

/// An entry's display path made relative to a directory whose children's names start at
/// `base_len` in theirs, or, above the search root, through `prefix` (the way from that
/// directory to the root) and the part below the root, which starts at `root_base_len`.
/// `scratch` holds the path when it has to be built.
fn rel_to<'a>(
    base_len: usize,
    prefix: &'a [u8],
    root_base_len: usize,
    path: &'a [u8],
    scratch: &'a mut Vec<u8>,
) -> &'a [u8] {
    // Rules speak of paths with '/': where the system joins names with another separator
    // (Windows' '\'), the path is given to them with '/' (a constant test, gone on Unix).
    if SEPARATOR != b'/' {
        let (before, rest) = if prefix.is_empty() {
            (&b""[..], &path[base_len.min(path.len())..])
        } else {
            (prefix, &path[root_base_len.min(path.len())..])
        };
        if before.contains(&SEPARATOR) || rest.contains(&SEPARATOR) {
            scratch.clear();
            scratch.extend(before.iter().chain(rest).map(|&b| match b {
                SEPARATOR => b'/',
                b => b,
            }));
            return scratch;
        }
    }
    if prefix.is_empty() {
        &path[base_len.min(path.len())..]
    } else {
        scratch.clear();
        scratch.extend_from_slice(prefix);
        scratch.extend_from_slice(&path[root_base_len.min(path.len())..]);
        scratch
    }
}

impl IgnoreNode {
    /// An entry's path as this node's rules see it: relative to its directory (or, above the
    /// search root, through `prefix`). `scratch` holds it when it has to be built.
    fn rel<'a>(&'a self, path: &'a [u8], scratch: &'a mut Vec<u8>) -> &'a [u8] {
        rel_to(
            self.base_len,
            &self.prefix,
            self.root_base_len,
            path,
            scratch,
        )
    }

    /// The node's files, in precedence order.
    fn files(&self) -> impl Iterator<Item = &Rules> {
        [&self.custom, &self.dot_ignore, &self.git, &self.git_exclude]
            .into_iter()
            .flatten()
    }

    /// Whether a rule on paths of this node or an ancestor (or of git's global excludes, from
    /// the repository's root) may match an entry of the directory whose entries' display
    /// paths begin with `child_prefix` ("dir/", as
    /// [`join_into`](crate::fs::path::join_into) makes it for an empty name). Asked once
    /// per directory; when false, its entries are screened by name alone.
    pub fn paths_may_match(&self, child_prefix: &[u8]) -> bool {
        let mut scratch = Vec::new();
        let mut cur = Some(self);
        while let Some(n) = cur {
            if n.path_rules {
                let rel = n.rel(child_prefix, &mut scratch);
                let dir = rel.strip_suffix(b"/").unwrap_or(rel);
                if n.files().any(|r| r.paths_may_match_in(dir)) {
                    return true;
                }
            }
            cur = n.parent.as_deref();
        }
        // git's global excludes, from the repository's root.
        match &self.repo_root {
            Some(repo) => repo.global.as_ref().is_some_and(|g| {
                g.has_path_rules() && {
                    let rel = repo.rel(child_prefix, &mut scratch);
                    g.paths_may_match_in(rel.strip_suffix(b"/").unwrap_or(rel))
                }
            }),
            None => false,
        }
    }
}

/// The outcome of matching one path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// No rule speaks of it.
    None,
    /// A rule hides it.
    Ignore,
    /// A `!` rule brings it back (even a hidden entry, as in fd).
    Whitelist,
}

impl IgnoreOptions {
    /// Reports the global ignore files that could not be read (once, when the walk starts).
    pub fn report_unread(&self, report: &Reporter) {
        for (path, why) in &self.unread {
            report.message(path.as_os_str().as_encoded_bytes(), why);
        }
    }

    /// A hash of what decides the verdicts of a search root's entries before the files of
    /// the root and below are read: these options, the global and command-line files, and the
    /// rules of the directories above the root, `node` (the key the memo's remembered
    /// verdicts start from, `walk/remembered.rs`). `None` when the global excludes depend on
    /// the repository (looked up as each one is met).
    pub fn fingerprint(&self, node: Option<&IgnoreNode>) -> Option<u64> {
        if self.global_per_repo.is_some() {
            return None;
        }
        let mut h = FxHasher::default();
        for flag in [self.vcs, self.dot_ignore, self.require_git, self.parents] {
            h.write_u8(u8::from(flag));
        }
        rules_fingerprint(&mut h, self.global.as_deref());
        h.write_usize(self.explicit.len());
        for rules in &self.explicit {
            rules.fingerprint(&mut h);
        }
        let mut cur = node;
        while let Some(n) = cur {
            h.write_usize(n.base_len);
            h.write(&n.prefix);
            h.write_usize(n.root_base_len);
            h.write_u8(u8::from(n.has_git) | u8::from(n.in_git) << 1);
            for rules in [&n.custom, &n.dot_ignore, &n.git, &n.git_exclude] {
                rules_fingerprint(&mut h, rules.as_ref());
            }
            rules_fingerprint(
                &mut h,
                n.repo_root.as_ref().and_then(|r| r.global.as_deref()),
            );
            cur = n.parent.as_deref();
        }
        Some(h.finish())
    }

    /// Whether any rules are read at all.
    pub fn enabled(&self) -> bool {
        self.vcs || self.dot_ignore || !self.explicit.is_empty()
    }

    /// The node for a directory: a new one if it holds rules or a `.git`, else its parent's.
    /// `base_len` is where its children's names start in their display paths.
    pub fn for_dir(
        &self,
        parent: Option<&Arc<IgnoreNode>>,
        base_len: usize,
        root_base_len: usize,
        prefix: Vec<u8>,
        files: &mut dyn IgnoreFiles,
    ) -> Option<Arc<IgnoreNode>> {
        let has_git = self.vcs && files.has(".git");
        // A directory above the search root sees the root's entries through `prefix`; with
        // --no-ignore-parent it only tells whether the root is inside a repository.
        let rules = prefix.is_empty() || self.parents;
        let read = |files: &mut dyn IgnoreFiles, name: &str| -> Option<Vec<u8>> {
            if rules && files.has(name) {
                files.read(name).ok()
            } else {
                None
            }
        };
        // Compiled, and what was not applied of them said under `name`; each rule knows the
        // file it was read from (`names`, in the order of `texts`).
        let compile = |files: &mut dyn IgnoreFiles, name: &str, names: &[&str], texts: &[&[u8]]| {
            let mut rules = Rules::parse(texts)?;
            if let Some(message) = rules.skipped_message() {
                files.say(name, &message);
            }
            rules.name_files(names.iter().map(|n| file_shown(files, n)));
            Some(rules)
        };
        let (custom, dot_ignore) = if self.dot_ignore {
            let custom: Vec<(&str, Vec<u8>)> = CUSTOM_FILES
                .iter()
                .filter_map(|n| read(files, n).map(|b| (*n, b)))
                .collect();
            let texts: Vec<&[u8]> = custom.iter().map(|(_, b)| b.as_slice()).collect();
            let names: Vec<&str> = custom.iter().map(|(n, _)| *n).collect();
            // The two custom files are compiled as one, the later (`.ffindignore`) named.
            let last = custom.last().map_or(".fdignore", |(n, _)| n);
            let ignore = read(files, ".ignore");
            (
                compile(files, last, &names, &texts),
                ignore.and_then(|b| compile(files, ".ignore", &[".ignore"], &[&b])),
            )
        } else {
            (None, None)
        };
        let git = if self.vcs {
            read(files, ".gitignore")
                .and_then(|b| compile(files, ".gitignore", &[".gitignore"], &[&b]))
        } else {
            None
        };
        let git_exclude = if has_git && rules {
            const EXCLUDE: &str = ".git/info/exclude";
            files
                .read(EXCLUDE)
                .ok()
                .map(|b| (EXCLUDE.to_owned(), b))
                .or_else(|| read_linked_exclude(files))
                .and_then(|(file, b)| compile(files, EXCLUDE, &[&file], &[&b]))
        } else {
            None
        };
        if !has_git && custom.is_none() && dot_ignore.is_none() && git.is_none() {
            return parent.cloned();
        }
        let in_git = has_git || parent.is_some_and(|p| p.in_git);
        let repo_root = if has_git {
            Some(Arc::new(RepoRoot {
                base_len,
                prefix: prefix.clone(),
                root_base_len,
                global: match &self.global_per_repo {
                    Some(per_repo) => per_repo.for_repo(files),
                    None => self.global.clone(),
                },
            }))
        } else {
            parent.and_then(|p| p.repo_root.clone())
        };
        let mut node = IgnoreNode {
            parent: parent.cloned(),
            base_len,
            prefix,
            root_base_len,
            custom,
            dot_ignore,
            git,
            git_exclude,
            has_git,
            in_git,
            repo_root,
            screen: parent.map(|p| p.screen.clone()).unwrap_or_default(),
            path_rules: false,
        };
        let mut screen = std::mem::take(&mut node.screen);
        for rules in node.files() {
            screen.add(rules);
        }
        node.screen = screen;
        let path_rules = node.files().any(Rules::has_path_rules);
        node.path_rules = path_rules;
        Some(Arc::new(node))
    }

    /// Matches an entry's display path against the rules of `node` and its ancestors and the
    /// global files. `root_base_len` is where the part below the search root starts.
    #[cfg(test)]
    pub fn matched(
        &self,
        node: Option<&IgnoreNode>,
        path: &[u8],
        root_base_len: usize,
        is_dir: bool,
    ) -> Verdict {
        let name_start = path
            .iter()
            .rposition(|&b| crate::fs::is_separator(b))
            .map_or(0, |i| i + 1);
        let paths = node.is_some_and(|n| n.paths_may_match(&path[..name_start]));
        self.matched_name(
            node,
            path,
            &path[name_start..],
            root_base_len,
            is_dir,
            paths,
        )
    }

    /// `IgnoreOptions::matched` (a test helper) for a caller that has the entry's name (the end
    /// of `path`) at hand. `paths` says whether a rule on paths may match in the entry's
    /// directory ([`IgnoreNode::paths_may_match`]); when it may not, and the node's [`Screen`]
    /// says no rule on names can match `name`, the files are not asked.
    #[cfg(test)]
    pub fn matched_name(
        &self,
        node: Option<&IgnoreNode>,
        path: &[u8],
        name: &[u8],
        root_base_len: usize,
        is_dir: bool,
        paths: bool,
    ) -> Verdict {
        Hit::verdict(self.decide_name(node, path, name, root_base_len, is_dir, paths))
    }

    /// The rule that decides an entry ([`IgnoreOptions::matched_name`]'s), if one does: the
    /// walk asks this for every entry, and `--explain` names the rule it gives.
    pub fn decide_name<'a>(
        &'a self,
        node: Option<&'a IgnoreNode>,
        path: &[u8],
        name: &[u8],
        root_base_len: usize,
        is_dir: bool,
        paths: bool,
    ) -> Option<Hit<'a>> {
        let mut m_custom: Option<Hit<'a>> = None;
        let mut m_ignore: Option<Hit<'a>> = None;
        let mut m_git: Option<Hit<'a>> = None;
        let mut m_exclude: Option<Hit<'a>> = None;
        let any_git = !self.require_git || node.is_some_and(|n| n.in_git);
        let mut saw_git = false;
        let mut scratch = Vec::new();
        let mut cur = node.filter(|n| paths || n.screen.may_match(name));
        // Most entries: no file of the chain can decide them, and no global file is there.
        if cur.is_none()
            && self.explicit.is_empty()
            && self.global.is_none()
            && self.global_per_repo.is_none()
        {
            return None;
        }
        while let Some(n) = cur {
            let rel = n.rel(path, &mut scratch);
            let check = |m: &mut Option<Hit<'a>>, r: &'a Option<Rules>| {
                if m.is_none() {
                    if let Some(r) = r {
                        *m = Hit::of(r, r.decide_in(rel, name, is_dir, paths));
                    }
                }
            };
            check(&mut m_custom, &n.custom);
            check(&mut m_ignore, &n.dot_ignore);
            if any_git && !saw_git {
                check(&mut m_git, &n.git);
                check(&mut m_exclude, &n.git_exclude);
            }
            saw_git |= n.has_git;
            cur = n.parent.as_deref();
        }
        // git's global excludes match the path below the repository's root, as git matches
        // them (outside a repository, under --no-require-git, below the search root); the
        // other global files, the path below the search root.
        // Written with '/' as the rules speak of paths (on Windows, the walk joins with '\\').
        let mut below_scratch = Vec::new();
        let below_root = rel_to(root_base_len, &[], root_base_len, path, &mut below_scratch);
        let m_global = match node.and_then(|n| n.repo_root.as_deref()) {
            // Where none of its rules on paths may match (`paths`, as for the tree's files),
            // no path is made (a copy, above the search root).
            Some(repo) if self.vcs => repo.global.as_deref().and_then(|g| {
                let rel = if paths {
                    repo.rel(path, &mut scratch)
                } else {
                    below_root
                };
                Hit::of(g, g.decide_in(rel, name, is_dir, paths))
            }),
            // Outside every repository (under --no-require-git).
            None if any_git && self.vcs => self
                .global
                .as_deref()
                .and_then(|g| Hit::of(g, g.decide_in(below_root, name, is_dir, true))),
            _ => None,
        };
        let m_explicit = self
            .explicit
            .iter()
            .find_map(|g| Hit::of(g, g.decide_in(below_root, name, is_dir, true)));
        m_custom
            .or(m_ignore)
            .or(m_git)
            .or(m_exclude)
            .or(m_global)
            .or(m_explicit)
    }
}

/// The rule that decided an entry: in which compiled file, at which index.
#[derive(Debug, Clone, Copy)]
pub struct Hit<'a> {
    pub rules: &'a Rules,
    pub index: usize,
}

impl<'a> Hit<'a> {
    #[inline]
    fn of(rules: &'a Rules, index: Option<usize>) -> Option<Hit<'a>> {
        index.map(|index| Hit { rules, index })
    }

    /// What a decision (or none) means for the entry.
    #[inline]
    pub fn verdict(hit: Option<Hit<'_>>) -> Verdict {
        match hit {
            None => Verdict::None,
            Some(h) if h.rules.is_negation(h.index) => Verdict::Whitelist,
            Some(_) => Verdict::Ignore,
        }
    }

    /// The rule, with its file, line and text.
    pub fn rule(&self) -> Rule<'a> {
        self.rules.rule(self.index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    struct Fake(HashMap<&'static str, &'static str>);

    impl IgnoreFiles for Fake {
        fn has(&self, name: &str) -> bool {
            self.0.contains_key(name)
        }
        fn path(&self) -> PathBuf {
            PathBuf::from("/fake")
        }
        fn read(&mut self, rel: &str) -> Result<Vec<u8>, Unread> {
            self.0
                .get(rel)
                .map(|s| s.as_bytes().to_vec())
                .ok_or(Unread::Absent)
        }
        fn say(&mut self, rel: &str, what: &str) {
            panic!("nothing to say of {rel} here: {what}");
        }
        fn shown(&self) -> &[u8] {
            b"fake"
        }
    }

    fn opts() -> IgnoreOptions {
        IgnoreOptions {
            vcs: true,
            dot_ignore: true,
            require_git: true,
            parents: true,
            global: None,
            global_per_repo: None,
            explicit: vec![],
            unread: vec![],
        }
    }

    #[test]
    fn deeper_rules_win_and_negation_works() {
        let o = opts();
        let mut top = Fake([(".git", ""), (".gitignore", "*.log\nbuild/\n")].into());
        let root = o.for_dir(None, 0, 0, vec![], &mut top).unwrap();
        let mut sub = Fake([(".gitignore", "!keep.log\n")].into());
        let sub = o.for_dir(Some(&root), 4, 0, vec![], &mut sub).unwrap();
        assert_eq!(o.matched(Some(&root), b"a.log", 0, false), Verdict::Ignore);
        assert_eq!(o.matched(Some(&root), b"build", 0, true), Verdict::Ignore);
        assert_eq!(o.matched(Some(&root), b"build", 0, false), Verdict::None);
        assert_eq!(
            o.matched(Some(&sub), b"sub/keep.log", 0, false),
            Verdict::Whitelist
        );
        assert_eq!(
            o.matched(Some(&sub), b"sub/other.log", 0, false),
            Verdict::Ignore
        );
    }

    #[test]
    fn screens_merge_the_chain_and_path_rules_are_looked_up_per_directory() {
        let o = opts();
        let mut top = Fake([(".git", ""), (".gitignore", "/sub/x.txt\n/top-only\n")].into());
        let root = o.for_dir(None, 0, 0, vec![], &mut top).unwrap();
        let mut sub = Fake([(".gitignore", "*.log\n")].into());
        let sub = o.for_dir(Some(&root), 4, 0, vec![], &mut sub).unwrap();
        assert!(sub.paths_may_match(b"sub/"), "/sub/x.txt, from above");
        assert!(!sub.paths_may_match(b"sub/deeper/"));
        assert!(root.paths_may_match(b""), "/top-only");
        assert!(!root.paths_may_match(b"other/"));
        assert!(sub.screen.may_match(b"a.log") && !sub.screen.may_match(b"a.c"));
        assert!(
            !root.screen.may_match(b"a.log"),
            "a parent's screen holds only its own"
        );
        assert_eq!(
            o.matched(Some(&sub), b"sub/x.txt", 0, false),
            Verdict::Ignore
        );
        assert_eq!(
            o.matched(Some(&sub), b"sub/a.log", 0, false),
            Verdict::Ignore
        );
        assert_eq!(
            o.matched(Some(&sub), b"sub/deeper/a.log", 0, false),
            Verdict::Ignore
        );
        assert_eq!(
            o.matched(Some(&sub), b"sub/deeper/x.txt", 0, false),
            Verdict::None
        );
        assert_eq!(
            o.matched(Some(&root), b"top-only", 0, false),
            Verdict::Ignore
        );
        assert_eq!(
            o.matched(Some(&sub), b"sub/top-only", 0, false),
            Verdict::None
        );
    }

    #[test]
    fn a_git_file_leads_to_the_worktrees_common_exclude() {
        let o = opts();
        let mut files = Fake(
            [
                (".git", "gitdir: /repo/.git/worktrees/wt\n"),
                ("/repo/.git/worktrees/wt/commondir", "../..\n"),
                ("/repo/.git/worktrees/wt/../../info/exclude", "*.tmp\n"),
            ]
            .into(),
        );
        let node = o.for_dir(None, 0, 0, vec![], &mut files);
        assert_eq!(
            o.matched(node.as_deref(), b"x.tmp", 0, false),
            Verdict::Ignore
        );
        assert_eq!(o.matched(node.as_deref(), b"x.rs", 0, false), Verdict::None);
    }

    #[test]
    fn gitignore_needs_a_repository_unless_told_otherwise() {
        let mut o = opts();
        let mut files = Fake([(".gitignore", "*.o\n")].into());
        let node = o.for_dir(None, 0, 0, vec![], &mut files);
        assert_eq!(o.matched(node.as_deref(), b"x.o", 0, false), Verdict::None);
        o.require_git = false;
        assert_eq!(
            o.matched(node.as_deref(), b"x.o", 0, false),
            Verdict::Ignore
        );
    }

    #[test]
    fn dot_ignore_overrides_gitignore() {
        let o = opts();
        let mut files = Fake([(".git", ""), (".gitignore", "*.o\n"), (".ignore", "!x.o\n")].into());
        let node = o.for_dir(None, 0, 0, vec![], &mut files);
        assert_eq!(
            o.matched(node.as_deref(), b"x.o", 0, false),
            Verdict::Whitelist
        );
        assert_eq!(
            o.matched(node.as_deref(), b"y.o", 0, false),
            Verdict::Ignore
        );
    }

    #[test]
    fn anchored_patterns_are_relative_to_their_directory() {
        let o = opts();
        let mut top = Fake([(".git", "")].into());
        let root = o.for_dir(None, 4, 4, vec![], &mut top).unwrap();
        let mut sub = Fake([(".gitignore", "/only-here\n")].into());
        let sub = o.for_dir(Some(&root), 8, 4, vec![], &mut sub).unwrap();
        assert_eq!(
            o.matched(Some(&sub), b"top/sub/only-here", 4, false),
            Verdict::Ignore
        );
        assert_eq!(
            o.matched(Some(&sub), b"top/sub/x/only-here", 4, false),
            Verdict::None
        );
    }

    #[test]
    fn without_parent_rules_a_parent_still_marks_the_repository() {
        let mut o = opts();
        o.parents = false;
        let mut above = Fake([(".git", ""), (".gitignore", "*.o\n")].into());
        let parent = o.for_dir(None, 0, 0, b"src/".to_vec(), &mut above);
        let mut root = Fake([(".gitignore", "*.a\n")].into());
        let root = o.for_dir(parent.as_ref(), 0, 0, vec![], &mut root);
        assert_eq!(o.matched(root.as_deref(), b"x.o", 0, false), Verdict::None);
        assert_eq!(
            o.matched(root.as_deref(), b"x.a", 0, false),
            Verdict::Ignore
        );
    }

    #[test]
    fn parent_rules_see_the_path_from_their_directory() {
        let o = opts();
        let mut above = Fake([(".git", ""), (".gitignore", "/src/gen/\n")].into());
        // The search root is "src" below the repository: prefix "src/".
        let parent = o.for_dir(None, 0, 0, b"src/".to_vec(), &mut above).unwrap();
        assert_eq!(o.matched(Some(&parent), b"gen", 0, true), Verdict::Ignore);
        assert_eq!(o.matched(Some(&parent), b"other", 0, true), Verdict::None);
    }

    #[test]
    fn paths_joined_with_the_systems_separator_match_as_with_slashes() {
        // The walk joins names with the system's separator (`\` on Windows); rules speak
        // of paths with `/`.
        let native = |p: &str| {
            p.replace('/', &char::from(SEPARATOR).to_string())
                .into_bytes()
        };
        let o = opts();
        let mut top = Fake([(".git", ""), (".gitignore", "/sub/x.txt\nsub/deep/\n")].into());
        let root = o.for_dir(None, 0, 0, vec![], &mut top).unwrap();
        let mut sub = Fake([(".gitignore", "/gen/*.rs\n")].into());
        let sub = o.for_dir(Some(&root), 4, 0, vec![], &mut sub).unwrap();
        assert!(sub.paths_may_match(&native("sub/")));
        assert!(sub.paths_may_match(&native("sub/gen/")));
        assert!(!sub.paths_may_match(&native("sub/other/")));
        for (path, is_dir, want) in [
            ("sub/x.txt", false, Verdict::Ignore),
            ("sub/deep", true, Verdict::Ignore),
            ("sub/gen/a.rs", false, Verdict::Ignore),
            ("sub/gen/a.c", false, Verdict::None),
            ("sub/other/gen/a.rs", false, Verdict::None),
        ] {
            assert_eq!(
                o.matched(Some(&sub), &native(path), 0, is_dir),
                want,
                "{path}"
            );
        }
        // Above the search root, the way down (`prefix`) too.
        let mut above = Fake([(".git", ""), (".gitignore", "/src/gen/\n")].into());
        let parent = o.for_dir(None, 0, 0, native("src/"), &mut above).unwrap();
        assert_eq!(o.matched(Some(&parent), b"gen", 0, true), Verdict::Ignore);
    }

    #[test]
    fn every_rule_names_its_file_line_and_text() {
        let o = opts();
        let mut top = Fake(
            [
                (".git", ""),
                (".gitignore", "# built\r\n\r\n*.log  \r\nbuild/\n"),
                (".fdignore", "x\n"),
                (".ffindignore", "\n!keep.log\n"),
            ]
            .into(),
        );
        let root = o.for_dir(None, 0, 0, vec![], &mut top).unwrap();
        let rule = |path: &[u8], is_dir| {
            let name = path.rsplit(|&b| b == b'/').next().unwrap();
            o.decide_name(Some(&root), path, name, 0, is_dir, true)
                .map(|h| h.rule())
        };
        // The file as shown: the directory's path joined with the system's separator.
        let shown: Vec<Vec<u8>> = [".gitignore", ".ffindignore", ".fdignore"]
            .iter()
            .map(|f| format!("fake{}{f}", crate::fs::SEPARATOR as char).into_bytes())
            .collect();
        let named = |file: &str, line, pattern: &'static str, negation| Rule {
            file: shown.iter().find(|s| s.ends_with(file.as_bytes())).unwrap(),
            line,
            pattern,
            negation,
        };
        assert_eq!(
            rule(b"a.log", false),
            Some(named(".gitignore", 3, "*.log", false))
        );
        assert_eq!(
            rule(b"build", true),
            Some(named(".gitignore", 4, "build/", false))
        );
        assert_eq!(rule(b"build", false), None);
        assert_eq!(
            rule(b"keep.log", false),
            Some(named(".ffindignore", 2, "!keep.log", true))
        );
        assert_eq!(rule(b"x", false), Some(named(".fdignore", 1, "x", false)));
    }

    #[test]
    fn a_byte_order_mark_is_not_part_of_the_first_rule() {
        let o = opts();
        let mut files = Fake([(".ignore", "\u{feff}*.log\r\n*.tmp\r\n")].into());
        let node = o.for_dir(None, 0, 0, vec![], &mut files);
        assert_eq!(
            o.matched(node.as_deref(), b"x.log", 0, false),
            Verdict::Ignore
        );
        assert_eq!(
            o.matched(node.as_deref(), b"x.tmp", 0, false),
            Verdict::Ignore
        );
    }
}
