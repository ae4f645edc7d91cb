//! Random trees and command lines for the property tests (`proptest_parity.rs`, and the
//! `--mpi` tests, `tests/mpi/`): the generator, the tree it builds (links, unreadable
//! directories, ignore files, repositories, hostile names), and the reference walk's
//! verdict on it ([`Case`]).
//!
//! The generator features that still meet known bugs fixed elsewhere are behind the consts
//! below: switch one on (and run `just fuzz-parity`) once its fix is merged.

use std::collections::HashSet;
use std::fmt;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{symlink, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use proptest::prelude::*;

use crate::fixture::{bin, clean_env, have, is_root, Run, Tree};
use crate::reference::{self, Cmd, Expected, SearchPath};

// Each OFF const below names the known disagreement it avoids, and what the reference walk
// expects once it is on: if the fix merged chose otherwise, adjust reference.rs with it.

/// Ignore files may start with a UTF-8 BOM. OFF: ffind reads the BOM as part of the first
/// rule (fixed on another branch). The reference drops it, as git and fd do.
pub const BOM_IN_IGNORE_FILES: bool = true;
/// Under `-L`, `-d` and `--prune` may meet links to directories (which may lead back to an
/// ancestor). OFF: a loop link the walk does not descend into is printed by some methods
/// (serial, queue, rayon) and reported, unprinted, by others (walkdir, ignore; jwalk differs
/// again) (fixed on another branch). The reference follows fd: a loop link is never printed,
/// even at the depth limit or when --prune would not enter it (and ffind reports it).
pub const LOOP_LINKS_WITH_DEPTH_OR_PRUNE: bool = true;
/// Links may point to an ancestor of the search root (the tree's temporary directory). OFF:
/// under `-L` serial walks into it (fixed on another branch). The reference counts the root's
/// own parents as ancestors: such a link "leads back to its own parent directories", and is
/// reported, not printed, not entered.
pub const LINKS_ABOVE_THE_ROOT: bool = true;
/// Links may point to unreadable directories. OFF: under `-L` walkdir neither prints the link
/// nor reports it (fixed on another branch). The reference prints it as a directory and
/// reports "Permission denied" when entering it, as for the directory itself.
pub const LINKS_TO_UNREADABLE: bool = true;
/// Unreadable ignore files (mode 000). OFF: the walker-crate methods do not report them
/// (fixed on another branch). The reference reports each (exit 1) and applies no rule of it.
pub const UNREADABLE_IGNORE_FILES: bool = true;
/// Directories nobody may search but may list (mode 444: r--). Their entries are listed,
/// what is below them cannot be reached.
pub const READ_ONLY_DIRS: bool = true;
/// A `.git` in an r-- directory. OFF: its `.git/info/exclude` cannot be read, which serial
/// reports and walkdir does not (fixed on another branch). The reference reports it once.
pub const GIT_IN_READ_ONLY_DIRS: bool = true;
/// Unreadable directories (mode 000) in the tree: needs a non-root user, or setpriv to run
/// ffind as nobody when the tests run as root.
pub const UNREADABLE_DIRS: bool = true;

/// A name from a small pool, so that rules and patterns hit; a few hostile ones.
#[derive(Clone, Copy)]
pub struct Name(pub &'static [u8]);

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{}\"", self.0.escape_ascii())
    }
}

pub const NAMES: [&[u8]; 16] = [
    b"a",
    b"b",
    b"x",
    b"tmp",
    b"d1",
    b"d2",
    b"keep.log",
    b"a.log",
    b"x.rs",
    b"b.RS",
    b"c.txt",
    b".hidden",
    b".h.log",
    b"sub dir",
    b"UP",
    b".rs",
];
pub const WEIRD_NAMES: [&[u8]; 4] = [b"new\nline", b"\xff\xfe.log", b"tab\tx", b" lead"];

pub const RULES: [&str; 32] = [
    // Wildcards on the name filed by their first two bytes, their last byte and their dots,
    // and paths with `*` and `**` (the screens in front of the ignore files).
    "ke*",
    "*.l?g",
    "d1/*/x",
    "d*/**/b",
    "*.log",
    "!keep.log",
    "!a.log",
    "*.rs",
    "!x.rs",
    "x",
    "!x",
    "/x",
    "x/",
    "tmp",
    "!tmp",
    "**/tmp",
    "d*/",
    "!d1/",
    "b",
    "!b",
    ".h*",
    "!.hidden",
    "*",
    "!*/",
    "a/b",
    "/a/",
    "/d1/*",
    "!.gitignore",
    "sub dir",
    "!a",
    "# comment",
    "",
];

#[derive(Debug, Clone, Copy)]
pub enum IgnoreKind {
    Git,
    Dot,
    Fd,
}

impl IgnoreKind {
    fn file(self) -> &'static str {
        match self {
            IgnoreKind::Git => ".gitignore",
            IgnoreKind::Dot => ".ignore",
            IgnoreKind::Fd => ".fdignore",
        }
    }
}

#[derive(Debug, Clone)]
pub enum Target {
    /// The n-th plain file of the tree (dangling when there is none).
    File(usize),
    /// The n-th directory of the tree.
    Dir(usize),
    Dangling,
    /// The directory n levels up from the link ("." for 0).
    Up(usize),
    /// The link itself.
    ItSelf,
}

#[derive(Debug, Clone)]
pub enum GitKind {
    /// An empty `.git` directory, with an `info/exclude` when rules are given.
    Dir(Vec<&'static str>),
    /// A `.git` file (as in worktrees and submodules) pointing nowhere.
    File,
    /// `git init`.
    Init,
}

/// A directory's permissions, for the user ffind runs as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Normal,
    /// 000
    Locked,
    /// 444
    ReadOnly,
}

#[derive(Debug, Clone)]
pub enum Node {
    File(Name),
    Dir(Name, Mode, Vec<Node>),
    Link(Name, Target),
    Ignore {
        kind: IgnoreKind,
        rules: Vec<&'static str>,
        crlf: bool,
        bom: bool,
        locked: bool,
    },
    Git(GitKind),
}

pub fn name() -> impl Strategy<Value = Name> {
    prop_oneof![
        12 => prop::sample::select(&NAMES[..]).prop_map(Name),
        1 => prop::sample::select(&WEIRD_NAMES[..]).prop_map(Name),
    ]
}

pub fn rules() -> impl Strategy<Value = Vec<&'static str>> {
    prop::collection::vec(prop::sample::select(&RULES[..]), 1..5)
}

pub fn target() -> impl Strategy<Value = Target> {
    prop_oneof![
        3 => any::<usize>().prop_map(Target::File),
        3 => any::<usize>().prop_map(Target::Dir),
        1 => Just(Target::Dangling),
        2 => (0usize..4).prop_map(Target::Up),
        1 => Just(Target::ItSelf),
    ]
}

pub fn leaf() -> impl Strategy<Value = Node> {
    let ignore = (
        prop_oneof![
            Just(IgnoreKind::Git),
            Just(IgnoreKind::Dot),
            Just(IgnoreKind::Fd)
        ],
        rules(),
        prop::bool::weighted(0.2),
        prop::bool::weighted(if BOM_IN_IGNORE_FILES { 0.2 } else { 0.0 }),
        prop::bool::weighted(if UNREADABLE_IGNORE_FILES { 0.1 } else { 0.0 }),
    )
        .prop_map(|(kind, rules, crlf, bom, locked)| Node::Ignore {
            kind,
            rules,
            crlf,
            bom,
            locked,
        });
    let git = prop_oneof![
        3 => prop::collection::vec(prop::sample::select(&RULES[..]), 0..3).prop_map(GitKind::Dir),
        1 => Just(GitKind::File),
        1 => Just(GitKind::Init),
    ]
    .prop_map(Node::Git);
    prop_oneof![
        8 => name().prop_map(Node::File),
        3 => (name(), target()).prop_map(|(n, t)| Node::Link(n, t)),
        5 => ignore,
        2 => git,
    ]
}

pub fn nodes() -> impl Strategy<Value = Vec<Node>> {
    let locked = u32::from(UNREADABLE_DIRS);
    let read_only = u32::from(READ_ONLY_DIRS);
    let tree = leaf().prop_recursive(4, 40, 6, move |inner| {
        (
            name(),
            prop_oneof![
                20 => Just(Mode::Normal),
                locked => Just(Mode::Locked),
                read_only => Just(Mode::ReadOnly),
            ],
            prop::collection::vec(inner, 0..6),
        )
            .prop_map(|(n, l, c)| Node::Dir(n, l, c))
    });
    // The root is often a repository, so that .gitignore files apply.
    let root_git = prop::option::weighted(0.5, Just(Node::Git(GitKind::Dir(vec![]))));
    (root_git, prop::collection::vec(tree, 1..10)).prop_map(|(git, mut nodes)| {
        nodes.extend(git);
        nodes
    })
}

pub fn cmd() -> impl Strategy<Value = Cmd> {
    let flags = prop::collection::vec(prop::bool::weighted(0.2), 9);
    let depth = prop::option::weighted(0.25, 0usize..4);
    let types = prop::collection::vec(prop::sample::select(vec!["f", "d", "l"]), 0..3);
    let types = prop_oneof![3 => Just(vec![]), 1 => types];
    let ext = prop::option::weighted(0.15, prop::sample::select(vec!["log", "rs", "TXT"]));
    let pattern = prop::option::weighted(
        0.3,
        prop::sample::select(vec![
            "", "a", "log$", r"^\.", "^[a-c]", "x|b", "S", "e l", "RS$",
        ]),
    );
    let exclude = prop::option::weighted(
        0.15,
        prop::sample::select(vec![
            "*.log", "tmp", "/a", "a/b", "d*/", "**/x", ".h*", "sub dir",
        ]),
    );
    let path = prop_oneof![
        2 => Just(SearchPath::Implicit),
        1 => Just(SearchPath::Dot),
        1 => Just(SearchPath::Absolute),
    ];
    (
        flags,
        depth.clone(),
        depth,
        types,
        ext,
        pattern,
        exclude,
        path,
    )
        .prop_map(
            |(f, max_depth, min_depth, types, ext, pattern, exclude, path)| Cmd {
                hidden: f[0],
                no_ignore: f[1],
                unrestricted: f[2] && f[3],
                follow: f[4],
                prune: f[5],
                no_ignore_vcs: f[6],
                no_require_git: f[7] || f[8],
                max_depth,
                min_depth: match (min_depth, max_depth) {
                    (Some(lo), Some(hi)) => Some(lo.min(hi)),
                    (lo, _) => lo,
                },
                types,
                ext,
                // ffind refuses a pattern for hidden names without -H (a usage error, as fd).
                pattern: pattern.filter(|p| *p != r"^\." || f[0] || (f[2] && f[3])),
                exclude,
                path,
            },
        )
}

/// What building a tree left to know.
#[derive(Default)]
pub struct Built {
    /// Plain files and directories outside unreadable ones, relative to the root.
    files: Vec<Vec<u8>>,
    dirs: Vec<Vec<u8>>,
    /// Links to make once the tree exists: (parent directory, name, target).
    links: Vec<(Vec<u8>, Name, Target)>,
    /// Directories and ignore files to lock, relative to the root, with their modes.
    locked: Vec<(Vec<u8>, u32)>,
    /// Some link may lead to a directory (and so, maybe, back to an ancestor).
    dir_links: bool,
}

pub fn join(dir: &[u8], name: &[u8]) -> Vec<u8> {
    let mut p = dir.to_vec();
    if !p.is_empty() {
        p.push(b'/');
    }
    p.extend_from_slice(name);
    p
}

pub fn os(p: &[u8]) -> &Path {
    Path::new(std::ffi::OsStr::from_bytes(p))
}

/// Creates `nodes` in directory `rel`. `under_locked`: nobody can reach it (links must not
/// lead there); `read_only`: nobody can list it but not enter it.
pub fn create(
    root: &Path,
    rel: &[u8],
    nodes: &[Node],
    under_locked: bool,
    read_only: bool,
    b: &mut Built,
) {
    let mut taken: HashSet<Vec<u8>> = HashSet::new();
    let mut claim = |n: &[u8]| taken.insert(n.to_vec());
    let here = root.join(os(rel));
    for node in nodes {
        match node {
            Node::File(n) if claim(n.0) => {
                fs::write(here.join(os(n.0)), "").unwrap();
                if !under_locked {
                    b.files.push(join(rel, n.0));
                }
            }
            Node::Dir(n, mode, children) if claim(n.0) => {
                let sub = join(rel, n.0);
                fs::create_dir(root.join(os(&sub))).unwrap();
                let lock = *mode != Mode::Normal && can_lock();
                if lock {
                    let bits = if *mode == Mode::Locked { 0o000 } else { 0o444 };
                    b.locked.push((sub.clone(), bits));
                }
                // Links may lead to an unreadable directory (LINKS_TO_UNREADABLE), never
                // through one: nobody could stat what lies below it.
                if !under_locked && (!lock || LINKS_TO_UNREADABLE) {
                    b.dirs.push(sub.clone());
                }
                let read_only = lock && *mode == Mode::ReadOnly;
                create(root, &sub, children, under_locked || lock, read_only, b);
            }
            Node::Link(n, t) if claim(n.0) => {
                b.dir_links |= matches!(t, Target::Dir(_) | Target::Up(_));
                b.links.push((rel.to_vec(), *n, t.clone()));
            }
            Node::Ignore {
                kind,
                rules,
                crlf,
                bom,
                locked,
            } if (!read_only || UNREADABLE_IGNORE_FILES) && claim(kind.file().as_bytes()) => {
                let eol = if *crlf { "\r\n" } else { "\n" };
                let mut text = if *bom {
                    "\u{feff}".to_string()
                } else {
                    String::new()
                };
                for r in rules {
                    text.push_str(r);
                    text.push_str(eol);
                }
                fs::write(here.join(kind.file()), text).unwrap();
                if *locked && can_lock() {
                    b.locked.push((join(rel, kind.file().as_bytes()), 0o000));
                }
            }
            Node::Git(kind) if (!read_only || GIT_IN_READ_ONLY_DIRS) && claim(b".git") => {
                match kind {
                    GitKind::Dir(rules) => {
                        fs::create_dir_all(here.join(".git/info")).unwrap();
                        if !rules.is_empty() {
                            fs::write(here.join(".git/info/exclude"), rules.join("\n") + "\n")
                                .unwrap();
                        }
                    }
                    GitKind::File => {
                        fs::write(here.join(".git"), "gitdir: /nonexistent\n").unwrap()
                    }
                    GitKind::Init => {
                        let ok = Command::new("git")
                            .args(["init", "-q"])
                            .current_dir(&here)
                            .env("GIT_CONFIG_NOSYSTEM", "1")
                            .env("HOME", root)
                            .stdout(Stdio::null())
                            .stderr(Stdio::null())
                            .status()
                            .is_ok_and(|s| s.success());
                        if !ok {
                            fs::create_dir(here.join(".git")).unwrap();
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

/// Makes the links, then locks the unreadable directories (deepest first).
pub fn finish(root: &Path, b: &Built) {
    for (dir, n, t) in &b.links {
        let depth = if dir.is_empty() {
            0
        } else {
            dir.split(|&c| c == b'/').count()
        };
        let up = b"../".repeat(depth);
        let pick = |list: &[Vec<u8>], i: usize| -> Vec<u8> {
            if list.is_empty() {
                b"nowhere".to_vec()
            } else {
                [&up[..], &list[i % list.len()]].concat()
            }
        };
        let target = match t {
            Target::File(i) => pick(&b.files, *i),
            Target::Dir(i) => pick(&b.dirs, *i),
            Target::Dangling => b"nowhere".to_vec(),
            Target::Up(n) => {
                // At most the tree's temporary directory (the root's parent): above it, -L
                // would walk all of /tmp.
                let n = (*n).min(depth + usize::from(LINKS_ABOVE_THE_ROOT));
                if n == 0 {
                    b".".to_vec()
                } else {
                    b"../".repeat(n)[..3 * n - 1].to_vec()
                }
            }
            Target::ItSelf => n.0.to_vec(),
        };
        symlink(os(&target), root.join(os(&join(dir, n.0)))).unwrap();
    }
    let mut locked = b.locked.clone();
    locked.sort_by_key(|p| std::cmp::Reverse(p.0.len()));
    for (p, bits) in locked {
        fs::set_permissions(root.join(os(&p)), fs::Permissions::from_mode(bits)).unwrap();
    }
}

/// Whether an unreadable directory is unreadable to the ffind we run.
pub fn can_lock() -> bool {
    !is_root() || have_setpriv()
}

pub fn have_setpriv() -> bool {
    static HAVE: OnceLock<bool> = OnceLock::new();
    *HAVE.get_or_init(|| have("setpriv"))
}

/// As root: a copy of the binary that nobody can run (the build directory may not be
/// reachable by nobody), made once per test process.
pub fn nobody_binary() -> &'static Path {
    static COPY: OnceLock<PathBuf> = OnceLock::new();
    COPY.get_or_init(|| {
        let dir = tempfile::Builder::new()
            .prefix("ffind-proptest-bin")
            .tempdir()
            .unwrap()
            .keep();
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
        let copy = dir.join("ffind");
        fs::copy(bin(), &copy).unwrap();
        copy
    })
}

/// A property test's configuration: `PROPTEST_CASES` cases, else `default`. Failures found
/// are kept (shrunk) in tests/proptest-regressions/, proptest's default, and replayed first
/// on every run.
pub fn cases(default: u32) -> proptest::test_runner::Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(default);
    proptest::test_runner::Config {
        cases,
        ..proptest::test_runner::Config::default()
    }
}

/// Runs ffind in the tree's root, as nobody when we are root and can drop privileges.
pub fn run(t: &Tree, args: &[String]) -> Run {
    run_under(t, &[], args)
}

/// Runs `before... ffind args...` (a launcher first: `mpirun -n 4`) in the tree's root, as
/// nobody when we are root and can drop privileges.
pub fn run_under(t: &Tree, before: &[String], args: &[String]) -> Run {
    let mut words: Vec<std::ffi::OsString> = Vec::new();
    if is_root() && have_setpriv() {
        words.extend(
            [
                "setpriv",
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
            ]
            .map(Into::into),
        );
        words.extend(before.iter().map(Into::into));
        words.push(nobody_binary().into());
    } else {
        words.extend(before.iter().map(Into::into));
        words.push(bin().into());
    }
    let mut c = Command::new(&words[0]);
    c.args(&words[1..]);
    c.args(args).current_dir(t.root()).stdin(Stdio::null());
    clean_env(&mut c, &t.home());
    Run::from(crate::fixture::output_of(&mut c))
}

/// Restores the locked directories' modes, so that the tree can be removed.
pub struct Unlock(pub Vec<PathBuf>);

impl Drop for Unlock {
    fn drop(&mut self) {
        for p in &self.0 {
            let _ = fs::set_permissions(p, fs::Permissions::from_mode(0o755));
        }
    }
}

pub fn show(records: &[Vec<u8>]) -> String {
    records
        .iter()
        .map(|r| format!("  {}\n", r.escape_ascii()))
        .collect()
}

/// A random tree built, and what the reference walk expects of a command line on it.
pub struct Case {
    /// Restores the locked directories' modes before the tree is removed (dropped first).
    _unlock: Unlock,
    /// The tree (its root is where ffind runs).
    pub tree: Tree,
    /// What the reference walk prints, and its exit code.
    pub want: Expected,
    /// The command line's arguments (to follow `--method`, `-j`, `-0`).
    pub args: Vec<String>,
    /// The search root as results show it: "." or the absolute path.
    pub shown_root: Vec<u8>,
}

impl Case {
    /// Builds the tree of `nodes` and asks the reference walk about `cmd` on it.
    pub fn build(nodes: &[Node], mut cmd: Cmd) -> Case {
        let t = Tree::new();
        // Nobody must reach the tree when ffind runs as nobody.
        fs::set_permissions(
            t.root().parent().unwrap(),
            fs::Permissions::from_mode(0o755),
        )
        .unwrap();
        let root = reference::absolute(&t.root());
        let mut b = Built::default();
        create(&root, b"", nodes, false, false, &mut b);
        if cmd.follow && b.dir_links && !LOOP_LINKS_WITH_DEPTH_OR_PRUNE {
            cmd.max_depth = None;
            cmd.prune = false;
        }
        finish(&root, &b);
        let unlock = Unlock(b.locked.iter().map(|p| root.join(os(&p.0))).collect());
        let ids = |bits: u32| -> HashSet<(u64, u64)> {
            b.locked
                .iter()
                .filter(|p| p.1 == bits)
                .map(|p| {
                    let md = fs::metadata(root.join(os(&p.0))).unwrap();
                    (md.dev(), md.ino())
                })
                .collect()
        };
        let want: Expected = reference::expected(&root, &cmd, &ids(0o000), &ids(0o444));
        let shown_root = match cmd.path {
            SearchPath::Absolute => root.as_os_str().as_bytes().to_vec(),
            SearchPath::Implicit | SearchPath::Dot => b".".to_vec(),
        };
        Case {
            _unlock: unlock,
            tree: t,
            want,
            args: cmd.args(&root),
            shown_root,
        }
    }

    /// Checks a run (`what`, as a command line) with `-0` against the reference: complete
    /// output, no duplicate, the same records, the same exit code.
    pub fn verify(&self, what: &str, r: &Run) -> Result<(), TestCaseError> {
        let complete = r.stdout.is_empty() || r.stdout.ends_with(b"\0");
        let mut got = r.sorted_by(0);
        let n = got.len();
        got.dedup();
        prop_assert!(complete, "{what}: output does not end with NUL");
        prop_assert_eq!(n, got.len(), "{}: duplicates\n{}", what, show(&got));
        prop_assert!(
            got == self.want.records,
            "{what}: output differs from the reference\nwant:\n{}got:\n{}stderr:\n{}",
            show(&self.want.records),
            show(&got),
            r.stderr
        );
        prop_assert_eq!(
            r.code,
            self.want.code,
            "{}: exit code differs from the reference; stderr:\n{}",
            what,
            r.stderr
        );
        Ok(())
    }
}
