//! Where git's global excludes file is: `core.excludesFile` from git's configuration files,
//! else `$XDG_CONFIG_HOME/git/ignore`.
//!
//! The files are git's and read in git's order, the last setting winning: the system's
//! (`$GIT_CONFIG_SYSTEM`, else `/etc/gitconfig`, none on Windows:
//! [`git_system_config`](crate::fs::xdg::git_system_config); none under
//! `GIT_CONFIG_NOSYSTEM`), then the user's (`$GIT_CONFIG_GLOBAL` alone when it is set, else
//! `$XDG_CONFIG_HOME/git/config` and `~/.gitconfig`). `~` is the home directory as git finds
//! it ([`git_home`](crate::fs::xdg::git_home): on Windows `%HOME%` before `%USERPROFILE%`), and
//! without `$XDG_CONFIG_HOME` the default excludes file is `~/.config/git/ignore` there too.
//! Each is read by git's grammar (`syntax.rs`: sections, quoted values and their escapes,
//! `\` line continuations, `#` and `;` comments), and `[include] path = ...` and
//! `[includeIf "COND"] path = ...` are followed where they stand, as git does: a relative
//! path from the including file's directory, `~/` from the home directory, a missing file
//! passed over, at most 10 levels deep (git then refuses the configuration; ffind keeps what
//! it read before that point). A file git would refuse (a bad line) counts up to that line.
//!
//! Conditions: `gitdir:`, `gitdir/i:` and `onbranch:` are evaluated as git evaluates them in
//! the repository that holds each path: first for the repository holding the first search
//! path (the nearest `.git` at or above it), and, when a condition was met there, again for
//! each repository the walk meets ([`excludes_path_for`], from `filter/ignore.rs`), so a
//! nested repository or a worktree on another branch gets its own file. `gitdir:` matches the
//! git directory's real path (links resolved; git also tries the path as reached), written
//! with `/` as git for Windows writes it there (`C:/src/.git`), and so is `~` expanded.
//! `hasconfig:` (which needs the repository's own configuration) never matches.
//!
//! Every file is read as every ignore file is ([`read_small_file`]: a regular file only,
//! without blocking, at most [`CONFIG_FILE_LIMIT`]), so a FIFO at `~/.gitconfig` or at an
//! included path cannot hang the walk; one that cannot be read is passed over like a missing
//! one (git's readers of these files are not ffind's to report on).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::fs::path::without_verbatim;
use crate::fs::{is_separator, read_small_file};
use syntax::{parse, Entry};

mod syntax;

/// The most read of one of git's configuration files (or a `.git` link, a `HEAD`): the limit of
/// an ignore file (`filter::ignore`), 16 MiB, far past any real one.
const CONFIG_FILE_LIMIT: u64 = 16 << 20;

/// git refuses a configuration whose includes nest deeper (its `MAX_INCLUDE_DEPTH`).
const MAX_INCLUDE_DEPTH: usize = 10;

/// At most this many files are read through includes: ten levels of a file including
/// itself twice would otherwise be 2^10 reads.
const MAX_INCLUDED_FILES: usize = 200;

/// The global excludes file git would use for a search from `start`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Excludes {
    /// The file, if any can be named.
    pub path: Option<PathBuf>,
    /// An `includeIf` on the repository was met: another repository may get another file
    /// ([`excludes_path_for`]).
    pub per_repository: bool,
}

/// The global excludes file git would use for a search from `start` (conditions evaluated for
/// the repository holding it).
pub fn excludes(start: &Path) -> Excludes {
    Env::from_process().excludes(Start::Path(start))
}

/// The global excludes file git would use in the repository whose git directory is
/// `git_dir`.
pub fn excludes_path_for(git_dir: &Path) -> Option<PathBuf> {
    Env::from_process().excludes(Start::GitDir(git_dir)).path
}

/// What conditions are evaluated for: a path in a repository, or its git directory.
#[derive(Clone, Copy)]
enum Start<'a> {
    Path(&'a Path),
    GitDir(&'a Path),
}

/// What the lookup depends on in the environment (a value, so that tests can set it).
#[derive(Debug, Clone, Default)]
struct Env {
    home: Option<PathBuf>,
    /// `$XDG_CONFIG_HOME/git` or `~/.config/git`.
    config_dir: Option<PathBuf>,
    /// `$GIT_CONFIG_GLOBAL`, set (even empty).
    global: Option<OsString>,
    /// `$GIT_CONFIG_SYSTEM` (set) or `/etc/gitconfig` (none on Windows); `None` under
    /// `GIT_CONFIG_NOSYSTEM`.
    system: Option<PathBuf>,
}

impl Env {
    fn from_process() -> Env {
        let home = crate::fs::xdg::git_home();
        let nosystem = std::env::var_os("GIT_CONFIG_NOSYSTEM").is_some_and(|v| is_true(&v));
        Env {
            config_dir: crate::fs::xdg::config_home_in(home.clone()).map(|c| c.join("git")),
            home,
            global: std::env::var_os("GIT_CONFIG_GLOBAL"),
            system: if nosystem {
                None
            } else {
                std::env::var_os("GIT_CONFIG_SYSTEM")
                    .map(PathBuf::from)
                    .or_else(crate::fs::xdg::git_system_config)
            },
        }
    }

    /// The configuration files in git's order (later settings win).
    fn files(&self) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = self.system.iter().cloned().collect();
        match &self.global {
            Some(g) => files.push(g.into()),
            None => {
                files.extend(self.config_dir.as_ref().map(|c| c.join("config")));
                files.extend(self.home.as_ref().map(|h| h.join(".gitconfig")));
            }
        }
        files
    }

    fn excludes(&self, start: Start<'_>) -> Excludes {
        let mut reader = Reader {
            env: self,
            start,
            repo: None,
            value: None,
            files: 0,
            per_repository: false,
        };
        for file in self.files() {
            if reader.read(&file, 0).is_err() {
                break;
            }
        }
        let path = match reader.value {
            Some(v) if v.is_empty() => None,
            Some(v) => Some(PathBuf::from(crate::fs::os_string(v))),
            None => self.config_dir.as_ref().map(|c| c.join("ignore")),
        };
        Excludes {
            path,
            per_repository: reader.per_repository,
        }
    }

    #[cfg(test)]
    fn excludes_path(&self, start: &Path) -> Option<PathBuf> {
        self.excludes(Start::Path(start)).path
    }

    /// `~` or `~/...` from the home directory (written with `/`, as git for Windows expands
    /// it); anything else as it is.
    fn expand(&self, path: &[u8]) -> Vec<u8> {
        match (path.strip_prefix(b"~"), &self.home) {
            (Some(rest), Some(home)) if rest.is_empty() || rest.starts_with(b"/") => {
                [&slashed(home.as_os_str().as_encoded_bytes())[..], rest].concat()
            }
            _ => path.to_vec(),
        }
    }
}

/// git's reading of a boolean environment variable (`GIT_CONFIG_NOSYSTEM`).
fn is_true(v: &std::ffi::OsStr) -> bool {
    let v = v.to_string_lossy().to_ascii_lowercase();
    match v.as_str() {
        "true" | "yes" | "on" => true,
        other => other.parse::<i64>().is_ok_and(|n| n != 0),
    }
}

/// Includes nested deeper than git allows: git stops there, and so does the reading.
struct TooDeep;

/// The repository conditions are evaluated for: its git directory's real path and the
/// branch its HEAD names.
struct Repo {
    git_dir: Option<Vec<u8>>,
    branch: Option<Vec<u8>>,
}

struct Reader<'a> {
    env: &'a Env,
    start: Start<'a>,
    /// Found on the first condition that needs it.
    repo: Option<Repo>,
    /// The last `core.excludesFile` seen, `~` expanded.
    value: Option<Vec<u8>>,
    /// Files read through includes.
    files: usize,
    /// A condition on the repository was evaluated.
    per_repository: bool,
}

impl Reader<'_> {
    /// Reads one configuration file, following its includes; `depth` is its own.
    fn read(&mut self, path: &Path, depth: usize) -> Result<(), TooDeep> {
        let Ok(data) = read_small_file(
            path.as_os_str().as_encoded_bytes(),
            CONFIG_FILE_LIMIT,
            false,
        ) else {
            return Ok(());
        };
        let mut result = Ok(());
        parse(&data, &mut |e: Entry<'_>| {
            // A key without '=' is a boolean: no path (git refuses it for these keys).
            let Some(value) = e.value.filter(|_| result.is_ok()) else {
                return;
            };
            match (e.section, e.subsection, e.key) {
                (b"core", None, b"excludesfile") => self.value = Some(self.env.expand(value)),
                // Included files are read where the include stands: settings after it win.
                (b"include", None, b"path") => result = self.include(path, value, depth),
                (b"includeif", Some(cond), b"path") if self.matches(cond, path) => {
                    result = self.include(path, value, depth)
                }
                _ => {}
            }
        });
        result
    }

    fn include(&mut self, from: &Path, path: &[u8], depth: usize) -> Result<(), TooDeep> {
        if path.is_empty() {
            return Ok(());
        }
        let path = PathBuf::from(crate::fs::os_string(self.env.expand(path)));
        let path = if path.is_absolute() {
            path
        } else {
            from.parent().unwrap_or(Path::new("")).join(path)
        };
        // A missing file is passed over before the depth counts, as in git.
        if std::fs::metadata(&path).is_err() {
            return Ok(());
        }
        if depth + 1 > MAX_INCLUDE_DEPTH || self.files >= MAX_INCLUDED_FILES {
            return Err(TooDeep);
        }
        self.files += 1;
        self.read(&path, depth + 1)
    }

    /// Whether an `includeIf` condition holds, in the file at `from`.
    fn matches(&mut self, cond: &[u8], from: &Path) -> bool {
        let Some(colon) = cond.iter().position(|&b| b == b':') else {
            return false;
        };
        let (kind, pattern) = (&cond[..colon], &cond[colon + 1..]);
        match kind {
            b"gitdir" | b"gitdir/i" => {
                let icase = kind == b"gitdir/i";
                let Some(git_dir) = self.repo().git_dir.clone() else {
                    return false;
                };
                let pattern = self.env.expand(pattern);
                let pattern = match pattern.strip_prefix(b"./") {
                    // From the including file's directory (its real path), taken literally.
                    Some(rest) => {
                        let Some(real) = real_path(from) else {
                            return false;
                        };
                        let cut = real.iter().rposition(|&b| b == b'/').unwrap_or(0);
                        let mut p = escape_glob(&real[..cut]);
                        p.push(b'/');
                        p.extend_from_slice(rest);
                        p
                    }
                    None if is_absolute_pattern(&pattern) => pattern,
                    None => [&b"**/"[..], &pattern].concat(),
                };
                wildmatch(&pattern, &git_dir, icase)
            }
            b"onbranch" => {
                let Some(branch) = self.repo().branch.clone() else {
                    return false;
                };
                wildmatch(pattern, &branch, false)
            }
            // hasconfig:remote.*.url: needs the repository's own configuration.
            _ => false,
        }
    }

    fn repo(&mut self) -> &Repo {
        self.per_repository = true;
        let start = self.start;
        self.repo.get_or_insert_with(|| match start {
            Start::Path(path) => find_repo(path),
            Start::GitDir(git_dir) => repo_at(git_dir),
        })
    }
}

/// The repository holding `start`: the nearest directory at or above it with a `.git` (a
/// directory, or a file naming one with `gitdir:`).
fn find_repo(start: &Path) -> Repo {
    let none = Repo {
        git_dir: None,
        branch: None,
    };
    let Ok(start) = std::path::absolute(start) else {
        return none;
    };
    let Some(dot_git) = start
        .ancestors()
        .map(|d| d.join(".git"))
        .find(|g| g.symlink_metadata().is_ok())
    else {
        return none;
    };
    let git_dir = if dot_git.is_dir() {
        dot_git
    } else {
        let Ok(link) = read_small_file(
            dot_git.as_os_str().as_encoded_bytes(),
            CONFIG_FILE_LIMIT,
            false,
        ) else {
            return none;
        };
        let link = String::from_utf8_lossy(&link);
        let Some(target) = link.lines().find_map(|l| l.strip_prefix("gitdir:")) else {
            return none;
        };
        dot_git
            .parent()
            .unwrap_or(Path::new("/"))
            .join(target.trim())
    };
    repo_at(&git_dir)
}

/// The repository whose git directory is `git_dir`.
fn repo_at(git_dir: &Path) -> Repo {
    let Ok(git_dir) = std::fs::canonicalize(git_dir) else {
        return Repo {
            git_dir: None,
            branch: None,
        };
    };
    let head = read_small_file(
        git_dir.join("HEAD").as_os_str().as_encoded_bytes(),
        CONFIG_FILE_LIMIT,
        false,
    )
    .unwrap_or_default();
    let branch = head
        .strip_prefix(b"ref: refs/heads/")
        .map(|b| b.trim_ascii_end().to_vec());
    Repo {
        git_dir: Some(slashed(&without_verbatim(
            git_dir.into_os_string().into_encoded_bytes(),
        ))),
        branch,
    }
}

/// `path` resolved as git's `strbuf_realpath` gives it: links followed, with `/` (and on
/// Windows a drive letter, never `\\?\`).
fn real_path(path: &Path) -> Option<Vec<u8>> {
    let real = std::fs::canonicalize(path).ok()?;
    Some(slashed(&without_verbatim(
        real.into_os_string().into_encoded_bytes(),
    )))
}

/// Whether git takes an `includeIf "gitdir:"` pattern for an absolute path (its
/// `is_absolute_path`): it starts with a separator, or, on Windows, with a drive (`C:/src/`).
fn is_absolute_pattern(pattern: &[u8]) -> bool {
    pattern.first().is_some_and(|&b| is_separator(b))
        || matches!(
            crate::fs::os_path(pattern).components().next(),
            Some(std::path::Component::Prefix(_))
        )
}

/// A path with the system's separator written as git writes it, '/' (Windows' '\'; globset
/// matches paths so too).
fn slashed(path: &[u8]) -> Vec<u8> {
    path.iter()
        .map(|&b| if b == crate::fs::SEPARATOR { b'/' } else { b })
        .collect()
}

/// `pattern` with glob's special bytes escaped.
fn escape_glob(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for &b in text {
        if matches!(b, b'*' | b'?' | b'[' | b']' | b'\\' | b'{' | b'}') {
            out.push(b'\\');
        }
        out.push(b);
    }
    out
}

/// git's `wildmatch` with `WM_PATHNAME` for include conditions: a pattern ending in `/`
/// matches everything below (`/**` added), `*` stays within a component, `**/` crosses
/// them. A pattern that does not compile matches nothing.
fn wildmatch(pattern: &[u8], text: &[u8], icase: bool) -> bool {
    let mut pattern = pattern.to_vec();
    if pattern.ends_with(b"/") {
        pattern.extend_from_slice(b"**");
    }
    let Ok(pattern) = std::str::from_utf8(&pattern) else {
        return false;
    };
    globset::GlobBuilder::new(pattern)
        .literal_separator(true)
        .backslash_escape(true)
        .case_insensitive(icase)
        .build()
        .is_ok_and(|g| g.compile_matcher().is_match(crate::fs::os_path(text)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::process::{Command, Stdio};

    /// A fresh HOME with git's configuration files written by the test, and the `Env` that
    /// names them; git itself is run with the same environment.
    struct Home {
        dir: tempfile::TempDir,
    }

    impl Home {
        fn new() -> Home {
            let dir = tempfile::tempdir().unwrap();
            fs::create_dir_all(dir.path().join("home/.config/git")).unwrap();
            Home { dir }
        }

        fn home(&self) -> PathBuf {
            self.dir.path().join("home")
        }

        fn write(&self, rel: &str, text: &str) -> PathBuf {
            let p = self.dir.path().join(rel);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(&p, text).unwrap();
            p
        }

        fn env(&self) -> Env {
            Env {
                home: Some(self.home()),
                config_dir: Some(self.home().join(".config/git")),
                global: None,
                system: Some(self.dir.path().join("system")),
            }
        }

        /// `git config --type=path --get core.excludesFile`, run in `dir`.
        fn git(&self, dir: &Path) -> Option<PathBuf> {
            let out = Command::new("git")
                .args(["config", "--type=path", "--get", "core.excludesFile"])
                .current_dir(dir)
                .env("HOME", self.home())
                .env("XDG_CONFIG_HOME", self.home().join(".config"))
                .env("GIT_CONFIG_SYSTEM", self.dir.path().join("system"))
                .env_remove("GIT_CONFIG_NOSYSTEM")
                .env_remove("GIT_CONFIG_GLOBAL")
                .env_remove("GIT_DIR")
                .stdin(Stdio::null())
                .stderr(Stdio::null())
                .output()
                .ok()?;
            let value = out.stdout.strip_suffix(b"\n")?;
            Some(PathBuf::from(crate::fs::os_string(value.to_vec())))
        }

        /// ffind's answer in `dir`, and git's, which must agree where git names a file.
        fn check(&self, dir: &Path, want: Option<&Path>) {
            let ours = self.env().excludes_path(dir);
            let git = self.git(dir);
            if Command::new("git").arg("--version").output().is_ok() {
                assert_eq!(git.as_deref(), want, "git's answer");
            }
            match want {
                Some(w) => assert_eq!(ours.as_deref(), Some(w)),
                None => assert_eq!(ours, Some(self.home().join(".config/git/ignore"))),
            }
        }

        /// `path` as a user writes it in git's configuration: with `/` on Windows too, where
        /// a `\` would start an escape (a bad one in a value, a dropped one in a section's
        /// name).
        fn git_path(path: &Path) -> String {
            path.display()
                .to_string()
                .replace(std::path::MAIN_SEPARATOR, "/")
        }

        fn git_init(&self, rel: &str, branch: &str) -> PathBuf {
            let dir = self.dir.path().join(rel);
            fs::create_dir_all(&dir).unwrap();
            let ok = Command::new("git")
                .args(["init", "-q", "-b", branch])
                .current_dir(&dir)
                .env("HOME", self.home())
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            if !ok {
                fs::create_dir_all(dir.join(".git")).unwrap();
                fs::write(dir.join(".git/HEAD"), format!("ref: refs/heads/{branch}\n")).unwrap();
            }
            dir
        }
    }

    #[test]
    fn follows_includes_as_git_does() {
        let h = Home::new();
        let home = h.home();
        let cwd = h.dir.path();
        // A chain: relative to the including file, then ~/, then absolute.
        h.write("home/.gitconfig", "[include]\n\tpath = inc/one\n");
        h.write("home/inc/one", "[include]\n  path = ~/inc/two\n");
        let three = h.write("home/inc/three", "[core]\n  excludesFile = ~/ex\n");
        h.write(
            "home/inc/two",
            &format!("[include]\npath = {}\n", Home::git_path(&three)),
        );
        h.check(cwd, Some(&home.join("ex")));
        // A later setting wins over an include before it; an include after it wins again.
        h.write(
            "home/.gitconfig",
            "[include]\n\tpath = inc/one\n[core]\nexcludesfile = /later\n",
        );
        h.check(cwd, Some(Path::new("/later")));
        h.write(
            "home/.gitconfig",
            "[core]\nexcludesfile = /earlier\n[include]\n\tpath = inc/one\n\tpath = missing\n",
        );
        h.check(cwd, Some(&home.join("ex")));
        // ~/.gitconfig is read after $XDG_CONFIG_HOME/git/config, the system's before both.
        h.write("system", "[core]\nexcludesFile = /system\n");
        h.write("home/.config/git/config", "[core]\nexcludesFile = /xdg\n");
        fs::remove_file(home.join(".gitconfig")).unwrap();
        h.check(cwd, Some(Path::new("/xdg")));
        fs::remove_file(home.join(".config/git/config")).unwrap();
        h.check(cwd, Some(Path::new("/system")));
        fs::remove_file(cwd.join("system")).unwrap();
        h.check(cwd, None);
    }

    #[test]
    fn an_include_cycle_stops_at_gits_depth() {
        let h = Home::new();
        let cwd = h.dir.path();
        // git refuses the cycle (exit 128, nothing printed); ffind keeps what came first.
        h.write(
            "home/.gitconfig",
            "[core]\nexcludesFile = /first\n[include]\npath = .gitconfig\n",
        );
        assert_eq!(h.git(cwd), None, "git refuses a cycle");
        assert_eq!(h.env().excludes_path(cwd), Some(PathBuf::from("/first")));
        // Ten levels are fine.
        for i in 0..10 {
            h.write(
                &format!("home/d{i}"),
                &format!("[include]\npath = d{}\n", i + 1),
            );
        }
        h.write("home/d10", "[core]\nexcludesFile = /deep\n");
        h.write("home/.gitconfig", "[include]\npath = d0\n");
        assert_eq!(
            h.git(cwd),
            None,
            "d0 to d10: eleven levels, too deep for git"
        );
        h.write("home/.gitconfig", "[include]\npath = d1\n");
        h.check(cwd, Some(Path::new("/deep")));
    }

    #[test]
    fn include_if_is_evaluated_for_the_repository_of_the_search_path() {
        let h = Home::new();
        let work = h.git_init("work/proj", "main");
        fs::create_dir_all(work.join("sub")).unwrap();
        let other = h.git_init("other", "dev");
        let root = h.dir.path();
        let ex = |name: &str| {
            h.write(
                &format!("home/{name}.inc"),
                &format!("[core]\nexcludesFile = /{name}\n"),
            )
        };
        ex("work");
        ex("icase");
        ex("main");
        ex("rel");
        let upper = Home::git_path(&root.join("WORK"));
        h.write(
            "home/.gitconfig",
            &format!(
                "[includeIf \"gitdir:{}/\"]\npath = work.inc\n\
                 [includeIf \"gitdir/i:{upper}/PROJ/.GIT\"]\npath = icase.inc\n",
                Home::git_path(&root.join("work"))
            ),
        );
        h.check(&work, Some(Path::new("/icase")));
        h.check(&work.join("sub"), Some(Path::new("/icase")));
        h.check(&other, None);
        h.write(
            "home/.gitconfig",
            "[includeIf \"onbranch:ma*\"]\npath = main.inc\n[includeIf \"gitdir:proj/\"]\npath = nowhere\n",
        );
        h.check(&work, Some(Path::new("/main")));
        h.check(&other, None);
        // gitdir:./ is from the including file's directory; a pattern without / is **/...
        h.write(
            "home/.gitconfig",
            "[includeIf \"gitdir:../work/\"]\npath = work.inc\n[includeIf \"gitdir:./x/\"]\npath = nowhere\n[includeIf \"gitdir:other/.git\"]\npath = rel.inc\n",
        );
        h.check(&work, None);
        h.check(&other, Some(Path::new("/rel")));
        // Outside every repository no condition holds.
        h.check(Path::new("/"), None);
    }

    #[test]
    fn gitdir_patterns_absolute_as_git_reads_them() {
        assert!(is_absolute_pattern(b"/src/"));
        assert!(!is_absolute_pattern(b"src/") && !is_absolute_pattern(b"**/src"));
        // A drive is absolute where the system has drives (git for Windows: `C:/src/`).
        let drives = crate::fs::SEPARATOR == b'\\';
        assert_eq!(is_absolute_pattern(b"C:/src/"), drives);
        // `~` is the home directory with `/`, as git for Windows writes it.
        let env = Env {
            home: Some(Path::new("home").join("u")),
            ..Env::default()
        };
        assert_eq!(env.expand(b"~/x"), b"home/u/x");
        assert_eq!(env.expand(b"~user/x"), b"~user/x");
    }

    #[test]
    fn the_environment_chooses_the_files() {
        let h = Home::new();
        h.write("home/.gitconfig", "[core]\nexcludesFile = /home\n");
        let g = h.write("global", "[core]\nexcludesFile = /global\n");
        let mut env = h.env();
        assert_eq!(env.excludes_path(Path::new("/")), Some("/home".into()));
        env.global = Some(g.into());
        assert_eq!(env.excludes_path(Path::new("/")), Some("/global".into()));
        // Set but empty: no user configuration at all (git reads nothing there either).
        env.global = Some("".into());
        assert_eq!(
            env.excludes_path(Path::new("/")),
            Some(h.home().join(".config/git/ignore"))
        );
        assert!(is_true("1".as_ref()) && is_true("Yes".as_ref()) && !is_true("0".as_ref()));
    }
}
