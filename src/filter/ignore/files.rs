//! How an ignore file is read, and what is said when one cannot be: the [`IgnoreFiles`] a
//! directory holds (found in its listing by the methods that read directories themselves,
//! `walk/scan.rs`, or by path: [`FilesByPath`]), each read as [`read_small_file`] reads (a
//! regular file only, without blocking, at most [`IGNORE_FILE_LIMIT`]), and a file that is
//! there but cannot be read said once ([`read_reported`]); the `.git` link of a worktree or a
//! submodule followed to its `info/exclude`.

use std::collections::BTreeSet;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::filter::rules::Rules;
use crate::fs::path::join_into;
use crate::fs::{read_small_file, Fault};
use crate::report::{describe, Reporter};

/// The largest ignore file read: 16 MiB. Real ones are a few KiB (the Linux tree's largest is
/// under 4 KiB); git itself refuses pattern files over 100 MB. The cap bounds the memory a
/// hostile file (a link to `/dev/zero`) can take.
pub const IGNORE_FILE_LIMIT: u64 = 16 << 20;

/// The ignore files one directory holds, as the walker found them.
pub trait IgnoreFiles {
    /// Whether an entry with this name exists in the directory (may answer "maybe": true).
    fn has(&self, name: &str) -> bool;
    /// The directory's path, usable with `std::fs`.
    fn path(&self) -> PathBuf;
    /// The contents of the file at this path relative to the directory (or absolute), or why
    /// there are none.
    fn read(&mut self, rel: &str) -> Result<Vec<u8>, Unread>;
    /// Says `what` of the file `rel` of the directory, read but not wholly applied (see
    /// [`Rules::skipped_message`]): the walk goes on, the exit code becomes 1.
    fn say(&mut self, rel: &str, what: &str);
    /// The directory as messages show it: the rules read from its files carry their file so
    /// named ([`Rules::name_files`]), for `--explain`.
    fn shown(&self) -> &[u8];
}

/// How the file `rel` of `files`' directory is shown: below it, or, for an absolute path (a
/// `gitdir:` link's), as it is.
pub(super) fn file_shown(files: &dyn IgnoreFiles, rel: &str) -> Vec<u8> {
    shown_path(files.shown(), rel)
}

/// Why an ignore file's contents are not at hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unread {
    /// Nothing of that name (or a directory): nothing to say.
    Absent,
    /// Something is there that could not be read: said on stderr already, or not for this
    /// directory to say (see [`FilesByPath`]).
    Failed,
}

/// Compiles a whole ignore file on disk (for `--ignore-file` and global files), as the tree's
/// own files are; `Ok(None)` when it holds no rules. A pipe is read (`--ignore-file <(...)`)
/// when `accept_pipe`.
pub fn matcher_from_file(path: &Path, accept_pipe: bool) -> io::Result<Option<Rules>> {
    let bytes = read_small_file(
        path.as_os_str().as_encoded_bytes(),
        IGNORE_FILE_LIMIT,
        accept_pipe,
    )?;
    Ok(Rules::parse(&[&bytes]).map(|mut rules| {
        rules.name_files([path.as_os_str().as_encoded_bytes().to_vec()]);
        rules
    }))
}

/// Whether a failed read means the file is simply not there (or is a directory): never worth
/// a message.
fn is_absent(e: &io::Error) -> bool {
    [Fault::NotFound, Fault::NotADirectory, Fault::IsADirectory]
        .iter()
        .any(|f| f.is(e))
}

/// What is said about an ignore file that is there but was not read.
fn unread_message(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::InvalidInput | io::ErrorKind::FileTooLarge => {
            format!("{}, ignored", describe(e))
        }
        _ => describe(e),
    }
}

/// A global ignore file (ffind's own, git's `core.excludesFile`): its matcher, or nothing,
/// remembering in `unread` why a file that is there could not be read.
pub fn global_matcher(path: &Path, unread: &mut Vec<(PathBuf, String)>) -> Option<Rules> {
    match matcher_from_file(path, false) {
        Ok(m) => {
            note_skipped(path, m.as_ref(), unread);
            m
        }
        Err(e) if is_absent(&e) => None,
        Err(e) => {
            unread.push((path.to_path_buf(), unread_message(&e)));
            None
        }
    }
}

/// Remembers in `unread` what to say of the file at `path` whose rules were not all applied.
pub fn note_skipped(path: &Path, rules: Option<&Rules>, unread: &mut Vec<(PathBuf, String)>) {
    if let Some(message) = rules.and_then(Rules::skipped_message) {
        unread.push((path.to_path_buf(), message));
    }
}

/// The outcome of reading the ignore file `rel` of the directory shown as `dir_shown`: its
/// contents, or why not, after saying on stderr why a file that is there was not read.
pub fn read_reported(
    result: io::Result<Vec<u8>>,
    dir_shown: &[u8],
    rel: &str,
    report: &Reporter,
) -> Result<Vec<u8>, Unread> {
    match result {
        Ok(bytes) => Ok(bytes),
        // Absent (`.git/info/exclude` often is), or a directory of that name.
        Err(e) if is_absent(&e) => Err(Unread::Absent),
        Err(e) => {
            say_of_file(report, dir_shown, rel, &unread_message(&e));
            Err(Unread::Failed)
        }
    }
}

/// Says `what` of the ignore file `rel` of the directory shown as `dir_shown`.
pub fn say_of_file(report: &Reporter, dir_shown: &[u8], rel: &str, what: &str) {
    report.message(&shown_path(dir_shown, rel), what);
}

/// How messages show the file `rel` of the directory shown as `dir_shown`: below it, or, for
/// an absolute path (a `gitdir:` link's), as it is.
fn shown_path(dir_shown: &[u8], rel: &str) -> Vec<u8> {
    if Path::new(rel).is_absolute() {
        return rel.as_bytes().to_vec();
    }
    let mut path = Vec::new();
    join_into(&mut path, dir_shown, rel.as_bytes());
    path
}

/// The git directory a `.git` file names ("gitdir: PATH"), as written.
pub(super) fn gitdir_of(link: &[u8]) -> Option<String> {
    let link = std::str::from_utf8(link).ok()?;
    let gitdir = link.lines().find_map(|l| l.strip_prefix("gitdir:"))?;
    Some(gitdir.trim().to_owned())
}

/// `info/exclude` of the git directory a `.git` *file* points to ("gitdir: PATH", as in
/// worktrees and submodules), through its `commondir` for a worktree. PATH may be relative to
/// the directory holding `.git`, which is what [`IgnoreFiles::read`] resolves against.
/// A git directory that cannot be used (a name too long, a directory nobody may search) is
/// said once, by the first of its files that cannot be read.
pub(super) fn read_linked_exclude(files: &mut dyn IgnoreFiles) -> Option<(String, Vec<u8>)> {
    let gitdir = gitdir_of(&files.read(".git").ok()?)?;
    let common = match files.read(&format!("{gitdir}/commondir")) {
        Err(Unread::Failed) => return None,
        Err(Unread::Absent) => gitdir,
        Ok(c) => {
            let c = String::from_utf8(c).ok()?;
            let c = c.trim();
            if Path::new(c).is_absolute() {
                c.to_owned()
            } else {
                format!("{gitdir}/{c}")
            }
        }
    };
    let exclude = format!("{common}/info/exclude");
    files.read(&exclude).ok().map(|bytes| (exclude, bytes))
}

/// Whether the directory `dir` lists an entry named `name` (a plain name), when it can be
/// listed: only asked of directories that cannot be searched, so rarely.
fn listed(dir: &Path, name: &str) -> bool {
    !name.contains('/')
        && std::fs::read_dir(dir).is_ok_and(|entries| {
            entries
                .filter_map(Result::ok)
                .any(|e| e.file_name().as_encoded_bytes() == name.as_bytes())
        })
}

/// Whether `path` is reported for the first time (by [`FilesByPath`]).
fn first_report(path: &[u8]) -> bool {
    static REPORTED: Mutex<BTreeSet<Vec<u8>>> = Mutex::new(BTreeSet::new());
    REPORTED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(path.to_vec())
}

/// Ignore files read by path (for roots' ancestors and the walker-crate methods).
pub struct FilesByPath<'a> {
    /// The directory, as a path usable with `std::fs`.
    pub dir: &'a Path,
    /// The directory as messages show it (its display path, or its absolute path above a
    /// search root).
    pub shown: &'a [u8],
    /// Where an ignore file that is there but cannot be read is reported.
    pub report: &'a Reporter,
    /// A directory above a search path: read again for every search path below it, but what
    /// is wrong with its files is said once.
    pub above_root: bool,
}

impl IgnoreFiles for FilesByPath<'_> {
    fn has(&self, name: &str) -> bool {
        name != ".git" || self.dir.join(".git").symlink_metadata().is_ok()
    }

    fn path(&self) -> PathBuf {
        self.dir.to_path_buf()
    }

    fn shown(&self) -> &[u8] {
        self.shown
    }

    fn say(&mut self, rel: &str, what: &str) {
        // Above a search path, once for all the search paths below it.
        if !self.above_root || first_report(&shown_path(self.shown, rel)) {
            say_of_file(self.report, self.shown, rel, what);
        }
    }

    fn read(&mut self, rel: &str) -> Result<Vec<u8>, Unread> {
        let path = self.dir.join(rel);
        let result = match read_small_file(
            path.as_os_str().as_encoded_bytes(),
            IGNORE_FILE_LIMIT,
            false,
        ) {
            // Unlike a listing, a path cannot tell whether the file is there at all: in a
            // directory we may list but not search (r--), its listing says, as it does for the
            // own-reader methods; in one we may not list either, nothing can be said of it
            // (the walk reports the directory itself). What lies further (a `gitdir:` link's
            // files) is judged by the entry of this directory it goes through.
            Err(e)
                if !is_absent(&e) && !Path::new(rel).is_absolute() && {
                    // (A name too long for any directory is no question of permissions: the
                    // file is said, as the own-reader methods say it.)
                    let first = rel.split('/').next().unwrap_or(rel);
                    let unsearchable = |e: &io::Error| !Fault::NameTooLong.is(e);
                    self.dir
                        .join(first)
                        .symlink_metadata()
                        .is_err_and(|e| unsearchable(&e))
                        && !listed(self.dir, first)
                } =>
            {
                return Err(Unread::Failed)
            }
            // One we may search but not list (--x): its files can be tried by path, but none
            // of its entries can be judged, so what its files hold does not matter; the walk
            // reports the directory itself, as the own-reader methods (which never get to its
            // files) do. Above a search path they do matter: the root's entries are judged.
            Err(e)
                if !is_absent(&e) && !self.above_root && std::fs::read_dir(self.dir).is_err() =>
            {
                return Err(Unread::Failed)
            }
            // The directories above a search path are read once per search path: say what
            // is wrong with one of their files once.
            Err(e)
                if !is_absent(&e)
                    && self.above_root
                    && !first_report(&shown_path(self.shown, rel)) =>
            {
                return Err(Unread::Failed)
            }
            other => other,
        };
        read_reported(result, self.shown, rel, self.report)
    }
}
