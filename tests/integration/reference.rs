//! A small reference walk for the property tests: std::fs, recursive, sorted, one thread,
//! written from ffind's documented semantics (docs/USAGE.md, `--help`) and not from its code.
//!
//! Only single ignore files are matched by the `ignore` crate's `GitignoreBuilder` (git's
//! pattern language); which file wins, where a repository stops the rules of the one around it,
//! how hidden entries meet `!` rules, depth, types, patterns and `-L` are this file's own code.

use std::collections::HashSet;
use std::ffi::OsStr;
use std::fs;
use std::io::ErrorKind;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::Match;
use regex::bytes::{Regex, RegexBuilder};

/// A command line of the small grammar the property test draws from.
#[derive(Debug, Clone, Default)]
pub struct Cmd {
    /// `-H`
    pub hidden: bool,
    /// `-I`
    pub no_ignore: bool,
    /// `-u`
    pub unrestricted: bool,
    /// `-L`
    pub follow: bool,
    /// `-d N`
    pub max_depth: Option<usize>,
    /// `--min-depth N`
    pub min_depth: Option<usize>,
    /// `-t X` (each of f, d, l)
    pub types: Vec<&'static str>,
    /// `-e EXT`
    pub ext: Option<&'static str>,
    /// The regex PATTERN.
    pub pattern: Option<&'static str>,
    /// `-E GLOB`
    pub exclude: Option<&'static str>,
    /// `--prune`
    pub prune: bool,
    /// `--no-ignore-vcs`
    pub no_ignore_vcs: bool,
    /// `--no-require-git`
    pub no_require_git: bool,
    /// How the search path is given.
    pub path: SearchPath,
}

/// How the search path (the tree's root, ffind's working directory) is given.
#[derive(Debug, Clone, Copy, Default)]
pub enum SearchPath {
    /// No PATH: results print without "./" (with -0, as here, they keep it).
    #[default]
    Implicit,
    /// `.`
    Dot,
    /// The root's absolute path.
    Absolute,
}

impl Cmd {
    /// The arguments, as given to ffind (the pattern and the path last), for a tree at `root`.
    pub fn args(&self, root: &Path) -> Vec<String> {
        let mut a: Vec<String> = Vec::new();
        let flags = [
            (self.hidden, "-H"),
            (self.no_ignore, "-I"),
            (self.unrestricted, "-u"),
            (self.follow, "-L"),
            (self.prune, "--prune"),
            (self.no_ignore_vcs, "--no-ignore-vcs"),
            (self.no_require_git, "--no-require-git"),
        ];
        a.extend(flags.iter().filter(|f| f.0).map(|f| f.1.to_string()));
        if let Some(d) = self.max_depth {
            a.extend(["-d".into(), d.to_string()]);
        }
        if let Some(d) = self.min_depth {
            a.extend(["--min-depth".into(), d.to_string()]);
        }
        for t in &self.types {
            a.extend(["-t".into(), t.to_string()]);
        }
        if let Some(e) = self.ext {
            a.extend(["-e".into(), e.to_string()]);
        }
        if let Some(e) = self.exclude {
            a.extend(["-E".into(), e.to_string()]);
        }
        let path = match self.path {
            SearchPath::Implicit => None,
            SearchPath::Dot => Some(".".to_string()),
            SearchPath::Absolute => Some(root.to_str().unwrap().to_string()),
        };
        if self.pattern.is_some() || path.is_some() {
            a.extend(["--".into(), self.pattern.unwrap_or("").to_string()]);
        }
        a.extend(path);
        a
    }
}

/// What the reference expects: the sorted records (as printed with `-0` and no PATH) and the
/// exit code.
#[derive(Debug, PartialEq, Eq)]
pub struct Expected {
    /// Sorted records, directories with a trailing "/".
    pub records: Vec<Vec<u8>>,
    /// 0, or 1 when some path could not be read or a loop was met.
    pub code: i32,
}

/// The entry types the reference tells apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    File,
    Dir,
    Link,
    Other,
}

fn kind_of(md: &fs::Metadata) -> Kind {
    let t = md.file_type();
    if t.is_symlink() {
        Kind::Link
    } else if t.is_dir() {
        Kind::Dir
    } else if t.is_file() {
        Kind::File
    } else {
        Kind::Other
    }
}

/// One directory's ignore files, as git reads them.
struct Frame {
    has_git: bool,
    fdignore: Option<Gitignore>,
    dot_ignore: Option<Gitignore>,
    gitignore: Option<Gitignore>,
    git_exclude: Option<Gitignore>,
}

/// One ignore file's rules: a UTF-8 BOM at the start is dropped, lines end at "\n" with an
/// optional "\r" before it.
fn load(dir: &Path, file: &Path) -> Option<Gitignore> {
    let bytes = fs::read(file).ok()?;
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(&bytes);
    let text = String::from_utf8_lossy(bytes);
    let mut b = GitignoreBuilder::new(dir);
    for line in text.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let _ = b.add_line(None, line);
    }
    b.build().ok()
}

/// The reference walk of `root` (an absolute path) for `cmd`. `locked` holds the (device,
/// inode) of the directories and ignore files ffind cannot read (mode 000 for the user it runs
/// as), `read_only` those of the directories it can list but not enter (444).
pub fn expected(
    root: &Path,
    cmd: &Cmd,
    locked: &HashSet<(u64, u64)>,
    read_only: &HashSet<(u64, u64)>,
) -> Expected {
    let hidden = cmd.hidden || cmd.unrestricted;
    let no_ignore = cmd.no_ignore || cmd.unrestricted;
    let case_sensitive = cmd
        .pattern
        .is_some_and(|p| p.chars().any(|c| c.is_uppercase()));
    let pattern = cmd.pattern.map(|p| {
        RegexBuilder::new(p)
            .case_insensitive(!case_sensitive)
            .build()
            .unwrap()
    });
    let exclude = cmd.exclude.map(|g| {
        let mut b = GitignoreBuilder::new(root);
        b.add_line(None, g).unwrap();
        b.build().unwrap()
    });
    let mut r = Reference {
        cmd,
        hidden,
        vcs: !no_ignore && !cmd.no_ignore_vcs,
        dot_ignore: !no_ignore,
        require_git: !cmd.no_require_git,
        pattern,
        exclude,
        locked,
        read_only,
        frames: Vec::new(),
        ancestors: Vec::new(),
        records: Vec::new(),
        errors: 0,
    };
    let display = match cmd.path {
        SearchPath::Implicit | SearchPath::Dot => b".".to_vec(),
        SearchPath::Absolute => root.as_os_str().as_bytes().to_vec(),
    };
    r.walk(root, &display, 0, true);
    let mut records = r.records;
    records.sort();
    Expected {
        records,
        code: if r.errors > 0 { 1 } else { 0 },
    }
}

struct Reference<'a> {
    cmd: &'a Cmd,
    hidden: bool,
    vcs: bool,
    dot_ignore: bool,
    require_git: bool,
    pattern: Option<Regex>,
    exclude: Option<Gitignore>,
    locked: &'a HashSet<(u64, u64)>,
    read_only: &'a HashSet<(u64, u64)>,
    /// The ignore files of the directories from the root down to the one being read.
    frames: Vec<Frame>,
    /// Under -L: the (device, inode) of those directories.
    ancestors: Vec<(u64, u64)>,
    records: Vec<Vec<u8>>,
    errors: usize,
}

impl Reference<'_> {
    /// Reads a directory; `reachable`: its parent may be searched (is not r--).
    fn walk(&mut self, dir: &Path, display: &[u8], depth: usize, reachable: bool) {
        let md = fs::metadata(dir).unwrap();
        let id = (md.dev(), md.ino());
        if self.locked.contains(&id) || !reachable {
            // "ffind: PATH: Permission denied", and the walk goes on.
            self.errors += 1;
            return;
        }
        let mut names: Vec<Vec<u8>> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().as_bytes().to_vec())
            .collect();
        names.sort();
        let read_only = self.read_only.contains(&id);
        // A `.git` makes a repository only if it can be looked up: not in an r-- directory.
        let has_git = !read_only && names.iter().any(|x| x == b".git");
        let mut read = |n: &str, on: bool| -> Option<Gitignore> {
            if !on || !names.iter().any(|x| x == n.as_bytes()) {
                return None;
            }
            let file = dir.join(n);
            let md = fs::metadata(&file).unwrap();
            if read_only || self.locked.contains(&(md.dev(), md.ino())) {
                // An ignore file that is there but cannot be read is said.
                self.errors += 1;
                return None;
            }
            load(dir, &file)
        };
        let frame = Frame {
            has_git,
            fdignore: read(".fdignore", self.dot_ignore),
            dot_ignore: read(".ignore", self.dot_ignore),
            gitignore: read(".gitignore", self.vcs),
            git_exclude: None,
        };
        let mut frame = frame;
        if self.vcs && has_git {
            frame.git_exclude = load(dir, &dir.join(".git/info/exclude"));
        }
        self.frames.push(frame);
        self.ancestors.push(id);
        let searchable = !self.read_only.contains(&id);
        for name in &names {
            self.entry(dir, display, depth + 1, name, searchable);
        }
        self.ancestors.pop();
        self.frames.pop();
    }

    fn entry(&mut self, dir: &Path, display: &[u8], depth: usize, name: &[u8], searchable: bool) {
        let path = dir.join(OsStr::from_bytes(name));
        let mut shown = display.to_vec();
        shown.push(b'/');
        shown.extend_from_slice(name);
        let mut kind = kind_of(&fs::symlink_metadata(&path).unwrap());
        // Under -L: the (device, inode) of a directory, to find loops.
        let mut dir_id = None;
        if self.cmd.follow && kind == Kind::Dir && searchable {
            let md = fs::metadata(&path).unwrap();
            dir_id = Some((md.dev(), md.ino()));
        }
        // A link that cannot be followed (one listed in an r-- directory, whose target cannot
        // be known; a link to itself) is said and not listed, unless the rules skip it anyway.
        let mut unfollowable = false;
        if self.cmd.follow && kind == Kind::Link {
            if !searchable {
                unfollowable = true;
            } else {
                match fs::metadata(&path) {
                    Ok(md) => {
                        kind = kind_of(&md);
                        dir_id = Some((md.dev(), md.ino()));
                    }
                    // A dangling link stays a link.
                    Err(e) if e.kind() == ErrorKind::NotFound => {}
                    Err(_) => unfollowable = true,
                }
            }
        }
        let is_dir = kind == Kind::Dir;
        let hidden = !self.hidden && name.first() == Some(&b'.');
        match self.verdict(&path, is_dir) {
            Match::Ignore(()) => return,
            Match::None if hidden => return,
            _ => {}
        }
        if let Some(ex) = &self.exclude {
            if ex.matched(&path, is_dir).is_ignore() {
                return;
            }
        }
        if unfollowable {
            self.errors += 1;
            return;
        }
        let max = self.cmd.max_depth.unwrap_or(usize::MAX);
        let print =
            depth >= self.cmd.min_depth.unwrap_or(0) && depth <= max && self.matches(name, kind);
        let descend = is_dir && depth < max && !(self.cmd.prune && print);
        if let Some(target) = dir_id {
            // A directory (links followed) that is one of its own parents up to the search
            // root (or the directory holding it): said, not listed, not entered; even at the
            // depth limit or under --prune (find -L's rule).
            if is_dir && self.ancestors.contains(&target) {
                self.errors += 1;
                return;
            }
        }
        if print {
            let mut rec = shown.clone();
            if is_dir {
                rec.push(b'/');
            }
            self.records.push(rec);
        }
        if descend {
            self.walk(&path, &shown, depth, searchable);
        }
    }

    /// Which ignore rule speaks last of `path`: the custom file (.fdignore) over .ignore over
    /// .gitignore over .git/info/exclude; within each, the deepest directory's. Git's files
    /// apply only inside a repository (unless --no-require-git) and stop at the nearest
    /// repository root above the entry.
    fn verdict(&self, path: &Path, is_dir: bool) -> Match<()> {
        let in_git = !self.require_git || self.frames.iter().any(|f| f.has_git);
        let mut kinds = [Match::None, Match::None, Match::None, Match::None];
        let mut below_repo_root = false;
        for f in self.frames.iter().rev() {
            let files = [&f.fdignore, &f.dot_ignore, &f.gitignore, &f.git_exclude];
            for (i, g) in files.into_iter().enumerate() {
                let git_file = i >= 2;
                if git_file && (!in_git || below_repo_root) {
                    continue;
                }
                if let (Some(g), true) = (g, kinds[i].is_none()) {
                    kinds[i] = g.matched(path, is_dir).map(|_| ());
                }
            }
            below_repo_root |= f.has_git;
        }
        kinds
            .into_iter()
            .find(|m| !m.is_none())
            .unwrap_or(Match::None)
    }

    /// The pattern, the extension and the types.
    fn matches(&self, name: &[u8], kind: Kind) -> bool {
        if let Some(p) = &self.pattern {
            if !p.is_match(name) {
                return false;
            }
        }
        if let Some(ext) = self.cmd.ext {
            let want = format!(".{}", ext.to_lowercase());
            let lower = name.to_ascii_lowercase();
            if !(lower.len() > want.len() && lower.ends_with(want.as_bytes())) {
                return false;
            }
        }
        if !self.cmd.types.is_empty() {
            let k = match kind {
                Kind::File => "f",
                Kind::Dir => "d",
                Kind::Link => "l",
                Kind::Other => "other",
            };
            if !self.cmd.types.contains(&k) {
                return false;
            }
        }
        true
    }
}

/// The root directory's absolute path as the walk sees it.
pub fn absolute(p: &Path) -> PathBuf {
    p.canonicalize().unwrap()
}
