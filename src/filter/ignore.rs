//! Ignore rules: the per-directory stack of `.gitignore`, `.ignore` and `.fdignore` matchers.
//!
//! The matchers are the `ignore` crate's (git's semantics: negation, anchoring, `**`,
//! directory-only patterns); the precedence between files is the one the `ignore` crate (and so
//! fd) applies: custom (`.fdignore`, `.ffindignore`) over `.ignore` over `.gitignore` over
//! `.git/info/exclude` over the global git excludes over `--ignore-file`, and within each kind
//! the deepest directory first. `.gitignore` rules apply only inside a git work tree (unless
//! `--no-require-git`) and stop at the repository's root.
//!
//! A node is made only for a directory that holds an ignore file or a `.git`; every other
//! directory shares its parent's node, so the stack costs nothing where there are no rules. The
//! node travels with the directory's work item: no method re-reads a directory's ignore files.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::Arc;

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::Match;

use crate::filter::rules::{Decision, Rules};

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
    pub global: Option<Arc<Gitignore>>,
    /// `--ignore-file` files and ffind's global ignore file, last added first.
    pub explicit: Vec<Arc<Gitignore>>,
}

/// The ignore files one directory holds, as the walker found them.
pub trait IgnoreFiles {
    /// Whether an entry with this name exists in the directory (may answer "maybe": true).
    fn has(&self, name: &str) -> bool;
    /// The contents of the file at this path relative to the directory, if it can be read.
    fn read(&mut self, rel: &str) -> Option<Vec<u8>>;
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

fn matcher(content: &[(&str, Vec<u8>)]) -> Option<Gitignore> {
    // Root "/" can never prefix the relative paths we match with, so the matcher never strips
    // anything from them (it would, wrongly, for a subdirectory named like its parent).
    let mut builder = GitignoreBuilder::new("/");
    let mut any = false;
    for (origin, bytes) in content {
        let text = String::from_utf8_lossy(bytes);
        for line in text.lines() {
            // A malformed line is skipped, as git does, rather than failing the walk.
            if builder
                .add_line(Some(Path::new(origin).to_path_buf()), line)
                .is_ok()
            {
                any = true;
            }
        }
    }
    if !any {
        return None;
    }
    builder.build().ok().filter(|g| !g.is_empty())
}

/// Builds a matcher from a whole ignore file on disk (for `--ignore-file` and global files).
pub fn matcher_from_file(path: &Path) -> Option<Gitignore> {
    let bytes = std::fs::read(path).ok()?;
    matcher(&[(path.to_str().unwrap_or("ignore-file"), bytes)])
}

impl IgnoreOptions {
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
        let mut read = |name: &'static str| -> Option<(&'static str, Vec<u8>)> {
            if rules && files.has(name) {
                files.read(name).map(|b| (name, b))
            } else {
                None
            }
        };
        let (custom, dot_ignore) = if self.dot_ignore {
            let custom: Vec<_> = CUSTOM_FILES.iter().filter_map(|n| read(n)).collect();
            let custom: Vec<&[u8]> = custom.iter().map(|(_, b)| b.as_slice()).collect();
            (
                Rules::parse(&custom),
                read(".ignore").and_then(|(_, b)| Rules::parse(&[&b])),
            )
        } else {
            (None, None)
        };
        let git = if self.vcs {
            read(".gitignore").and_then(|(_, b)| Rules::parse(&[&b]))
        } else {
            None
        };
        let git_exclude = if has_git && rules {
            files
                .read(".git/info/exclude")
                .or_else(|| read_linked_exclude(files))
                .and_then(|b| Rules::parse(&[&b]))
        } else {
            None
        };
        if !has_git && custom.is_none() && dot_ignore.is_none() && git.is_none() {
            return parent.cloned();
        }
        let in_git = has_git || parent.is_some_and(|p| p.in_git);
        Some(Arc::new(IgnoreNode {
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
        }))
    }

    /// Matches an entry's display path against the rules of `node` and its ancestors and the
    /// global files. `root_base_len` is where the part below the search root starts.
    pub fn matched(
        &self,
        node: Option<&IgnoreNode>,
        path: &[u8],
        root_base_len: usize,
        is_dir: bool,
    ) -> Verdict {
        let mut m_custom: Decision = None;
        let mut m_ignore: Decision = None;
        let mut m_git: Decision = None;
        let mut m_exclude: Decision = None;
        let any_git = !self.require_git || node.is_some_and(|n| n.in_git);
        let mut saw_git = false;
        let name_start = path.iter().rposition(|&b| b == b'/').map_or(0, |i| i + 1);
        let name = &path[name_start..];
        let mut scratch = Vec::new();
        let mut cur = node;
        while let Some(n) = cur {
            let rel: &[u8] = if n.prefix.is_empty() {
                &path[n.base_len.min(path.len())..]
            } else {
                scratch.clear();
                scratch.extend_from_slice(&n.prefix);
                scratch.extend_from_slice(&path[n.root_base_len.min(path.len())..]);
                &scratch
            };
            let check = |m: &mut Decision, r: &Option<Rules>| {
                if m.is_none() {
                    if let Some(r) = r {
                        *m = r.matched(rel, name, is_dir);
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
        let to_match = |d: Decision| match d {
            None => Match::None,
            Some(false) => Match::Ignore(()),
            Some(true) => Match::Whitelist(()),
        };
        let (m_custom, m_ignore, m_git, m_exclude) = (
            to_match(m_custom),
            to_match(m_ignore),
            to_match(m_git),
            to_match(m_exclude),
        );
        let below_root = Path::new(OsStr::from_bytes(&path[root_base_len.min(path.len())..]));
        let m_global = match &self.global {
            Some(g) if any_git && self.vcs => g.matched(below_root, is_dir).map(|_| ()),
            _ => Match::None,
        };
        let mut m_explicit = Match::None;
        for g in &self.explicit {
            if !m_explicit.is_none() {
                break;
            }
            m_explicit = g.matched(below_root, is_dir).map(|_| ());
        }
        match m_custom
            .or(m_ignore)
            .or(m_git)
            .or(m_exclude)
            .or(m_global)
            .or(m_explicit)
        {
            Match::None => Verdict::None,
            Match::Ignore(()) => Verdict::Ignore,
            Match::Whitelist(()) => Verdict::Whitelist,
        }
    }
}

/// `info/exclude` of the git directory a `.git` *file* points to ("gitdir: PATH", as in
/// worktrees and submodules), through its `commondir` for a worktree. PATH may be relative to
/// the directory holding `.git`, which is what [`IgnoreFiles::read`] resolves against.
fn read_linked_exclude(files: &mut dyn IgnoreFiles) -> Option<Vec<u8>> {
    let link = files.read(".git")?;
    let link = String::from_utf8(link).ok()?;
    let gitdir = link
        .lines()
        .find_map(|l| l.strip_prefix("gitdir:"))?
        .trim()
        .to_owned();
    let common = match files.read(&format!("{gitdir}/commondir")) {
        Some(c) => {
            let c = String::from_utf8(c).ok()?;
            let c = c.trim();
            if c.starts_with('/') {
                c.to_owned()
            } else {
                format!("{gitdir}/{c}")
            }
        }
        None => gitdir,
    };
    files.read(&format!("{common}/info/exclude"))
}

/// Ignore files read by path (for roots' ancestors and the walker-crate methods).
pub struct FilesByPath<'a> {
    /// The directory, as a path usable with `std::fs`.
    pub dir: &'a Path,
}

impl IgnoreFiles for FilesByPath<'_> {
    fn has(&self, name: &str) -> bool {
        name != ".git" || self.dir.join(".git").symlink_metadata().is_ok()
    }

    fn read(&mut self, rel: &str) -> Option<Vec<u8>> {
        std::fs::read(self.dir.join(rel)).ok()
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
        fn read(&mut self, rel: &str) -> Option<Vec<u8>> {
            self.0.get(rel).map(|s| s.as_bytes().to_vec())
        }
    }

    fn opts() -> IgnoreOptions {
        IgnoreOptions {
            vcs: true,
            dot_ignore: true,
            require_git: true,
            parents: true,
            global: None,
            explicit: vec![],
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
}
