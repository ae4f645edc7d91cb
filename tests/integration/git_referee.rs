//! Property test: git is the referee of ignore rules. Random trees inside a real git
//! repository (nested `.gitignore` files with negations, anchored and `**` rules, CRLF and lone
//! CR line ends, a byte-order mark, trailing spaces plain and escaped, `.git/info/exclude`, a
//! global excludes file reached through `[include]` and `[includeIf]` chains, nested
//! repositories, a submodule-like `.git` file and a worktree); the files `ffind -H -t f`
//! prints from the repository's root, under every method at `-j 1` and `-j 3`, must be exactly
//! those git does not ignore: `git ls-files --cached --others --exclude-standard` with nothing
//! added to the index. And in the same trees, for every path of the outer repository,
//! `ffind -H --explain` names the rule `git check-ignore -v` names: file, line and pattern.
//!
//! What is compared:
//! - Only paths outside `.git` directories, and no `.git` file: git never lists them, ffind
//!   `-H` lists what a `.git` directory holds (as fd does).
//! - git lists a nested repository as `sub/` and does not enter it; that is git's "someone
//!   else's files", not "ignored". Its files are then those git lists when run inside it (its
//!   own `.gitignore` files, its own `info/exclude`, the same global excludes), which is what
//!   ffind applies below a `.git`: the comparison expands each `sub/` that way.
//! - Every `.git` made here is a real repository. A `.git` that is not one (an empty `.git`
//!   directory, a `.git` file naming nothing) still makes a repository root for ffind, as for
//!   fd, where git treats the directory as an ordinary one: not generated (docs/DIFFERENCES.md,
//!   "Where ffind's ignore rules differ from git's").
//!
//! Fast by default (GIT_REFEREE_CASES, else PROPTEST_CASES, else 16); `just fuzz-git 2000` runs
//! more. Failures are kept, shrunk, in tests/proptest-regressions/git_referee.txt.

use std::collections::BTreeSet;
use std::fmt;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::{Command, Stdio};

use proptest::prelude::*;
use proptest::test_runner::Config;

use crate::fixture::{bin, clean_env, have, Spawn, Tree};
use crate::methods::methods;

const CONCURRENCY: [&str; 2] = ["1", "3"];

/// Names of files and directories: few, so that rules hit; some that only escaped rules
/// match.
const NAMES: [&str; 14] = [
    "a", "b", "c", "d", "a.o", "b.o", "x.log", "A", ".h", "a b", "a ", "!x", "#x", "e",
];

/// Rules, as written in an ignore file (before line ends are added).
const RULES: [&str; 60] = [
    "a", "/a", "a/", "/a/", "b", "!b", "*.o", "!b.o", "!*.o", "**/x.log", "x.log", "d/**",
    "d/**/a", "a/**/b", "**/d/c", "*", "!*/", "!a", "!c", "?", "[ab]", "[!a]*", "[a-c].o", "\\!x",
    "!\\!x", "\\#x", "#x", "", "a  ", "a\\ ", "a\\ \\ ", "d/a", "/d/b", "e/", "!e/", "*/a", "b*",
    "!d", ".h", "!.h", "A", "d/*", "!d/c", "a b", "   ", "e/**/*.o", "/*.o", "c/", "a**", "**a",
    "**.o", "d/**/", "/**/c", "**/", "*/", "!**/", "a/*/", "a\\", "a/  ", "[a-c]/b",
];

/// How the lines of one ignore file end.
#[derive(Debug, Clone, Copy)]
enum Ends {
    Lf,
    CrLf,
    /// Each line ends in LF or CRLF at random, and some hold a lone CR before it.
    Mixed,
}

#[derive(Clone)]
struct Ignore {
    rules: Vec<&'static str>,
    ends: Ends,
    bom: bool,
    /// Random bits for the mixed line ends.
    bits: u32,
    /// The last line has no line end, or only a lone CR (which git drops, as ffind does).
    open_end: bool,
}

impl fmt::Debug for Ignore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", String::from_utf8_lossy(&self.text()))
    }
}

impl Ignore {
    fn text(&self) -> Vec<u8> {
        let mut out = Vec::new();
        if self.bom {
            out.extend_from_slice("\u{feff}".as_bytes());
        }
        for (i, r) in self.rules.iter().enumerate() {
            out.extend_from_slice(r.as_bytes());
            let bit = |k: u32| self.bits >> ((i as u32 * 2 + k) % 32) & 1 == 1;
            let last = i + 1 == self.rules.len();
            if last && self.open_end {
                if bit(0) {
                    out.push(b'\r');
                }
                break;
            }
            match self.ends {
                Ends::Lf => out.push(b'\n'),
                Ends::CrLf => out.extend_from_slice(b"\r\n"),
                Ends::Mixed => {
                    if bit(0) {
                        // A lone CR inside the line: part of the rule for git.
                        out.extend_from_slice(b"\rb");
                    }
                    out.extend_from_slice(if bit(1) { b"\r\n" } else { b"\n" });
                }
            }
        }
        out
    }
}

/// How a nested repository is made.
#[derive(Debug, Clone, Copy)]
enum RepoKind {
    /// `git init` in it.
    Init,
    /// A `.git` file naming a git directory under the outer repository's `.git/modules/`, by
    /// a relative path, as a submodule's does.
    Module,
    /// `git worktree add` of the outer repository.
    Worktree,
}

#[derive(Debug, Clone)]
enum Node {
    File(&'static str),
    Dir(&'static str, Vec<Node>),
    GitIgnore(Ignore),
    Repo {
        name: &'static str,
        kind: RepoKind,
        exclude: Option<Ignore>,
        children: Vec<Node>,
    },
}

/// Where the global excludes file is named, and how.
#[derive(Debug, Clone)]
struct Global {
    /// `~/.gitconfig` (else `$XDG_CONFIG_HOME/git/config`).
    home_config: bool,
    /// The include chain from the config file to the one that sets `core.excludesFile`: each
    /// link's path style and condition.
    chain: Vec<(PathStyle, Cond)>,
    /// `core.excludesFile` is set at the chain's end (else git's default,
    /// `$XDG_CONFIG_HOME/git/ignore`, is written).
    named: bool,
    rules: Ignore,
}

#[derive(Debug, Clone, Copy)]
enum PathStyle {
    /// Relative to the including file's directory.
    Relative,
    /// `~/...`.
    Tilde,
    Absolute,
}

/// The condition on one include.
#[derive(Debug, Clone, Copy)]
enum Cond {
    /// `[include]`.
    Always,
    /// `[includeIf "gitdir:ROOT/"]`: every repository of the tree.
    GitdirTree,
    /// `[includeIf "gitdir/i:ROOT-IN-UPPER-CASE/"]`.
    GitdirTreeIcase,
    /// `[includeIf "gitdir:**/nowhere/"]`: none.
    GitdirNone,
    /// `[includeIf "onbranch:main"]`: the repositories on branch main (not a detached
    /// worktree).
    OnMain,
    /// `[includeIf "onbranch:other"]`: none.
    OnOther,
}

fn ignore() -> impl Strategy<Value = Ignore> {
    (
        prop::collection::vec(prop::sample::select(&RULES[..]), 1..6),
        prop_oneof![Just(Ends::Lf), Just(Ends::CrLf), Just(Ends::Mixed)],
        prop::bool::weighted(0.2),
        any::<u32>(),
        prop::bool::weighted(0.2),
    )
        .prop_map(|(rules, ends, bom, bits, open_end)| Ignore {
            rules,
            ends,
            bom,
            bits,
            open_end,
        })
}

fn name() -> impl Strategy<Value = &'static str> {
    prop::sample::select(&NAMES[..])
}

fn nodes() -> impl Strategy<Value = Vec<Node>> {
    let leaf = prop_oneof![
        6 => name().prop_map(Node::File),
        2 => ignore().prop_map(Node::GitIgnore),
    ];
    let tree = leaf.prop_recursive(3, 40, 6, |inner| {
        let children = prop::collection::vec(inner, 0..6);
        prop_oneof![
            6 => (name(), children.clone()).prop_map(|(n, c)| Node::Dir(n, c)),
            1 => (
                name(),
                prop_oneof![
                    Just(RepoKind::Init),
                    Just(RepoKind::Module),
                    Just(RepoKind::Worktree)
                ],
                prop::option::weighted(0.5, ignore()),
                children,
            )
                .prop_map(|(name, kind, exclude, children)| Node::Repo {
                    name,
                    kind,
                    exclude,
                    children,
                }),
        ]
    });
    prop::collection::vec(tree, 1..10)
}

fn global() -> impl Strategy<Value = Option<Global>> {
    let style = prop_oneof![
        Just(PathStyle::Relative),
        Just(PathStyle::Tilde),
        Just(PathStyle::Absolute)
    ];
    let cond = prop_oneof![
        6 => Just(Cond::Always),
        1 => Just(Cond::GitdirTree),
        1 => Just(Cond::GitdirTreeIcase),
        1 => Just(Cond::GitdirNone),
        1 => Just(Cond::OnMain),
        1 => Just(Cond::OnOther),
    ];
    prop::option::weighted(
        0.8,
        (
            any::<bool>(),
            prop::collection::vec((style, cond), 0..4),
            prop::bool::weighted(0.8),
            ignore(),
        )
            .prop_map(|(home_config, chain, named, rules)| Global {
                home_config,
                chain,
                named,
                rules,
            }),
    )
}

/// Runs git in `dir` with the tests' environment; panics on failure.
fn git(home: &Path, dir: &Path, args: &[&str]) -> Vec<u8> {
    let mut c = Command::new("git");
    c.args(args).current_dir(dir).stdin(Stdio::null());
    clean_env(&mut c, home);
    c.env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com");
    let out = c.output_ok();
    assert!(
        out.status.success(),
        "git {args:?} in {dir:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// What building the tree left to know.
struct Built<'a> {
    home: &'a Path,
    /// The outer repository's root.
    top: &'a Path,
    modules: usize,
}

/// Creates `nodes` in `dir` (which exists). Names are taken once per directory.
fn create(b: &mut Built<'_>, dir: &Path, nodes: &[Node]) {
    let mut taken = BTreeSet::new();
    for node in nodes {
        match node {
            Node::File(n) if taken.insert(*n) => fs::write(dir.join(n), "").unwrap(),
            Node::Dir(n, children) if taken.insert(*n) => {
                fs::create_dir(dir.join(n)).unwrap();
                create(b, &dir.join(n), children);
            }
            Node::GitIgnore(rules) if taken.insert(".gitignore") => {
                fs::write(dir.join(".gitignore"), rules.text()).unwrap()
            }
            Node::Repo {
                name,
                kind,
                exclude,
                children,
            } if taken.insert(*name) => {
                let sub = dir.join(name);
                let gitdir = match kind {
                    RepoKind::Init => {
                        fs::create_dir(&sub).unwrap();
                        git(b.home, &sub, &["init", "-q", "-b", "main"]);
                        sub.join(".git")
                    }
                    RepoKind::Module => {
                        fs::create_dir(&sub).unwrap();
                        b.modules += 1;
                        let gitdir = b.top.join(format!(".git/modules/m{}", b.modules));
                        fs::create_dir_all(gitdir.parent().unwrap()).unwrap();
                        let gitdir_arg = format!("--separate-git-dir={}", gitdir.display());
                        git(b.home, &sub, &["init", "-q", "-b", "main", &gitdir_arg]);
                        // A submodule's link is relative to its directory.
                        let depth = sub.strip_prefix(b.top).unwrap().components().count();
                        let up = "../".repeat(depth);
                        fs::write(
                            sub.join(".git"),
                            format!("gitdir: {up}.git/modules/m{}\n", b.modules),
                        )
                        .unwrap();
                        gitdir
                    }
                    RepoKind::Worktree => {
                        let rel = sub.strip_prefix(b.top).unwrap();
                        git(
                            b.home,
                            b.top,
                            &["worktree", "add", "-q", "--detach", rel.to_str().unwrap()],
                        );
                        // The worktree's own info/exclude is its common directory's: the
                        // outer repository's.
                        b.top.join(".git")
                    }
                };
                if let Some(rules) = exclude {
                    if !matches!(kind, RepoKind::Worktree) {
                        fs::create_dir_all(gitdir.join("info")).unwrap();
                        fs::write(gitdir.join("info/exclude"), rules.text()).unwrap();
                    }
                }
                create(b, &sub, children);
            }
            _ => {}
        }
    }
}

/// Writes git's global configuration: the chain of includes to the file that names the
/// global excludes file, and that file.
fn write_global(home: &Path, top: &Path, g: &Global) {
    let config_dir = home.join(".config/git");
    fs::create_dir_all(&config_dir).unwrap();
    let first = if g.home_config {
        home.join(".gitconfig")
    } else {
        config_dir.join("config")
    };
    let upper = top.to_str().unwrap().to_uppercase();
    let mut file = first;
    for (i, (style, cond)) in g.chain.iter().enumerate() {
        let rel = format!("inc/{i}.inc");
        let next = home.join(&rel);
        let path = match style {
            PathStyle::Relative => {
                // From the including file's directory to home/inc/.
                let from = file.parent().unwrap();
                let up = "../".repeat(from.strip_prefix(home).unwrap().components().count());
                format!("{up}{rel}")
            }
            PathStyle::Tilde => format!("~/{rel}"),
            PathStyle::Absolute => next.display().to_string(),
        };
        let section = match cond {
            Cond::Always => "[include]".to_string(),
            Cond::GitdirTree => format!("[includeIf \"gitdir:{}/\"]", top.display()),
            Cond::GitdirTreeIcase => format!("[includeIf \"gitdir/i:{upper}/\"]"),
            Cond::GitdirNone => "[includeIf \"gitdir:**/nowhere/\"]".to_string(),
            Cond::OnMain => "[includeIf \"onbranch:main\"]".to_string(),
            Cond::OnOther => "[includeIf \"onbranch:other\"]".to_string(),
        };
        fs::create_dir_all(next.parent().unwrap()).unwrap();
        fs::write(
            &file,
            format!("[user]\n\tname = t\n{section}\n\tpath = {path}\n"),
        )
        .unwrap();
        file = next;
    }
    let excludes = home.join("excludes");
    if g.named {
        fs::write(
            &file,
            format!("[core]\n\texcludesFile = ~/{}\n", "excludes"),
        )
        .unwrap();
        fs::write(excludes, g.rules.text()).unwrap();
    } else {
        fs::write(&file, "[core]\n\tautocrlf = false\n").unwrap();
        fs::write(config_dir.join("ignore"), g.rules.text()).unwrap();
    }
}

/// The files git lists in the repository at `dir` (shown under `prefix`), nested repositories
/// expanded.
fn git_files(home: &Path, dir: &Path, prefix: &[u8], out: &mut BTreeSet<Vec<u8>>) {
    let listing = git(
        home,
        dir,
        &[
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ],
    );
    for entry in listing.split(|&b| b == 0).filter(|e| !e.is_empty()) {
        let path = [prefix, entry].concat();
        match entry.strip_suffix(b"/") {
            // A nested repository: what git lists inside it.
            Some(sub) => git_files(
                home,
                &dir.join(std::ffi::OsStr::from_bytes(sub)),
                &path,
                out,
            ),
            None => {
                out.insert(path);
            }
        }
    }
}

fn show(paths: &BTreeSet<Vec<u8>>) -> String {
    paths
        .iter()
        .map(|p| format!("  {}\n", p.escape_ascii()))
        .collect()
}

/// Builds the tree in a new repository: the tree, its home and its top.
fn build(nodes: &[Node], global: &Option<Global>, exclude: &Option<Ignore>) -> Tree {
    let t = Tree::new();
    let home = t.home();
    let top = t.root();
    git(&home, &top, &["init", "-q", "-b", "main"]);
    // A worktree needs a commit to check out: an empty one leaves the index empty.
    git(
        &home,
        &top,
        &["commit", "-q", "--allow-empty", "-m", "empty"],
    );
    if let Some(rules) = exclude {
        fs::create_dir_all(top.join(".git/info")).unwrap();
        fs::write(top.join(".git/info/exclude"), rules.text()).unwrap();
    }
    let mut b = Built {
        home: &home,
        top: &top,
        modules: 0,
    };
    create(&mut b, &top, nodes);
    if let Some(g) = global {
        write_global(&home, &top, g);
    }
    t
}

/// Builds the tree, asks git, then every method at every concurrency, then `--explain`.
fn check(
    nodes: &[Node],
    global: &Option<Global>,
    exclude: &Option<Ignore>,
) -> Result<(), TestCaseError> {
    let t = build(nodes, global, exclude);
    let (home, top) = (t.home(), t.root());
    let mut want = BTreeSet::new();
    git_files(&home, &top, b"", &mut want);
    for m in methods() {
        for j in CONCURRENCY {
            let args = ["--method", m, "-j", j, "-H", "-t", "f", "-0"];
            let mut c = Command::new(bin());
            c.args(args).current_dir(&top).stdin(Stdio::null());
            clean_env(&mut c, &home);
            let out = c.output_ok();
            let got: BTreeSet<Vec<u8>> = out
                .stdout
                .split(|&b| b == 0)
                .filter(|p| !p.is_empty())
                // With -0 results keep the "./" (as in fd).
                .map(|p| p.strip_prefix(b"./").unwrap_or(p))
                .filter(|p| !p.split(|&b| b == b'/').any(|c| c == b".git"))
                .map(<[u8]>::to_vec)
                .collect();
            let stderr = String::from_utf8_lossy(&out.stderr);
            prop_assert!(
                got == want,
                "ffind {}: differs from git\nonly git lists:\n{}only ffind lists:\n{}stderr:\n{}",
                args.join(" "),
                show(&want.difference(&got).cloned().collect()),
                show(&got.difference(&want).cloned().collect()),
                stderr
            );
            prop_assert!(
                out.status.code() == Some(0) && stderr.is_empty(),
                "ffind {}: exit {:?}, stderr:\n{}",
                args.join(" "),
                out.status.code(),
                stderr
            );
        }
    }
    let paths = crate::explain::every_path(&top);
    crate::explain::assert_same_rules(&top, &home, &paths).map_err(TestCaseError::fail)
}

fn config() -> Config {
    let from = |var: &str| std::env::var(var).ok().and_then(|c| c.parse().ok());
    Config {
        cases: from("GIT_REFEREE_CASES")
            .or_else(|| from("PROPTEST_CASES"))
            .unwrap_or(16),
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// Every method, at every concurrency, lists exactly the files git does not ignore; and
    /// for every path of the outer repository, `--explain` names the rule `git check-ignore
    /// -v` names: the same file, line and pattern (or none where git names none).
    #[test]
    fn git_referee(
        nodes in nodes(),
        global in global(),
        exclude in prop::option::weighted(0.4, ignore()),
    ) {
        if !have("git") {
            eprintln!("skipped: git is missing");
            return Ok(());
        }
        check(&nodes, &global, &exclude)?;
    }
}
