//! Where the memo lives, and keeping it safe and bounded: the per-user directory (created
//! 0700, refused when it is a link or another user's, or others may write to it), in it a
//! directory per reader (`reader-READER`, made with the same care: a sandbox may be handed its
//! own alone), in that one file per tree named by a hash of the root's canonical path
//! (`tree-HASH.ffc`), written beside and renamed over (so a reader sees the old file or the
//! new one, never a torn one), and the least recently used files (of every reader) removed
//! past the size bound. Files of the layouts before (`tree-HASH.ffc` and
//! `tree-HASH-READER.ffc` in the memo directory itself), never read again, are removed when
//! met.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::format;
use crate::fs::{private, Stat};

/// The ending of memo files' names.
const SUFFIX: &str = ".ffc";

/// A temporary file older than this was left by a writer that died (a writer takes well
/// under a second per million entries): removed when the directory is next written to.
const STALE_TEMP: Duration = Duration::from_secs(600);

/// The memo directory of the user and, in it, the directory of the reader `credentials`
/// ([`crate::memo::credentials`]), each checked (created if missing); an error saying why
/// they cannot be used otherwise.
pub fn open_dir(dir: &Path, credentials: u64) -> Result<(), String> {
    checked_dir(dir)?;
    checked_dir(&reader_dir(dir, credentials))
}

/// The directory `dir` of the memo, checked (created if missing, 0700 and only in a place of
/// the user's own, [`create_in_own_places`]; not a link, the user's, no one else may write to
/// it), others' access taken away.
fn checked_dir(dir: &Path) -> Result<(), String> {
    let shown = dir.display();
    create_in_own_places(dir)?;
    let md = fs::symlink_metadata(dir)
        .map_err(|e| format!("{shown}: {}", crate::report::describe(&e)))?;
    check_dir(&md).map_err(|why| format!("{shown}: {why}"))?;
    if private::permissions(&md) & 0o077 != 0 {
        // Ours, and only others' reading to take away: the memo is never shared.
        private::make_private(dir)
            .map_err(|e| format!("{shown}: {}", crate::report::describe(&e)))?;
    }
    Ok(())
}

/// Makes `dir` and the directories above it that are missing (0700), each only in a
/// directory of the effective user's or root's (a shared place such as `/tmp`; for root,
/// root's alone): nothing is made in a place another user owns, whatever named it
/// (`$XDG_CACHE_HOME` or `$HOME` under `sudo -E` or `su` without `-`, `$FFIND_CACHE_DIR`,
/// `--cache-dir`), which would leave that user directories they cannot remove.
fn create_in_own_places(dir: &Path) -> Result<(), String> {
    let missing: Vec<&Path> = dir
        .ancestors()
        .filter(|a| !a.as_os_str().is_empty())
        .take_while(|a| fs::symlink_metadata(a).is_err_and(|e| e.kind() == io::ErrorKind::NotFound))
        .collect();
    let euid = crate::fs::effective_uid();
    for new in missing.into_iter().rev() {
        let parent = match new.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let md = fs::metadata(parent)
            .map_err(|e| format!("{}: {}", parent.display(), crate::report::describe(&e)))?;
        let owner = Stat::from_metadata(&md).uid;
        if owner != euid && (owner != 0 || euid == 0) && crate::fs::HAS_OWNERS {
            return Err(format!(
                "{} is uid {owner}'s, and ffind runs as uid {euid}: nothing is made in another \
                 user's place (give --cache-dir or $FFIND_CACHE_DIR)",
                parent.display()
            ));
        }
        match private::create_dir(new, false) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => {
                return Err(format!(
                    "{}: {}",
                    new.display(),
                    crate::report::describe(&e)
                ))
            }
        }
    }
    Ok(())
}

/// Whether `home`, the home directory the memo directory is in by default, is the
/// effective user's: nothing is made in another's home (root with a user's `$HOME`, under
/// `sudo -E` or `su` without `-`, would leave that user a `~/.cache` they cannot write to).
pub fn home_is_ours(home: &Path) -> Result<(), String> {
    let md = fs::metadata(home)
        .map_err(|e| format!("{}: {}", home.display(), crate::report::describe(&e)))?;
    let euid = crate::fs::effective_uid();
    let uid = Stat::from_metadata(&md).uid;
    if uid != euid {
        return Err(format!(
            "the home directory {} is not this user's (it is uid {}'s, ffind runs as uid {euid}): \
             nothing is made there (give --cache-dir or $FFIND_CACHE_DIR)",
            home.display(),
            uid
        ));
    }
    Ok(())
}

/// Whether a memo directory with this metadata (not followed) may be used.
fn check_dir(md: &fs::Metadata) -> Result<(), &'static str> {
    if md.file_type().is_symlink() {
        return Err("is a symbolic link; refused (the memo must be the user's own directory)");
    }
    if !md.is_dir() {
        return Err("is not a directory");
    }
    if Stat::from_metadata(md).uid != crate::fs::effective_uid() {
        return Err("belongs to another user; refused");
    }
    if private::permissions(md) & 0o022 != 0 {
        return Err(
            "others may write to it; refused (the memo needs a private directory: the default, \
             or one only this user may write to)",
        );
    }
    Ok(())
}

/// The beginning of the names of the readers' directories.
const READER: &str = "reader-";

/// The directory of the reader `credentials` ([`crate::memo::credentials`]) in the memo
/// directory `dir`: each reader of one user (a shell, the same user under `no_new_privs` or
/// in a container, with other capabilities) keeps a memo of its own, so that switching
/// between them reads nothing again, in a directory of its own, so that a sandbox may be
/// handed its own alone (whoever may read a directory may read every listing in it).
pub fn reader_dir(dir: &Path, credentials: u64) -> PathBuf {
    dir.join(format!("{READER}{credentials:016x}"))
}

/// The reader whose directory's name is `name`, if it is one.
fn reader_of(name: &[u8]) -> Option<u64> {
    let hex = name.strip_prefix(READER.as_bytes())?;
    let hex = std::str::from_utf8(hex).ok().filter(|h| h.len() == 16)?;
    u64::from_str_radix(hex, 16).ok()
}

/// The file of the tree whose canonical root path is `root`, as the reader `credentials`
/// keeps it, in its directory ([`reader_dir`]).
pub fn file_of(dir: &Path, root: &[u8], credentials: u64) -> PathBuf {
    reader_dir(dir, credentials).join(tree_file_name(format::path_hash(root)))
}

/// The name of the memo file of the tree whose root hashes to `root_hash`, in a reader's
/// directory.
fn tree_file_name(root_hash: u64) -> String {
    format!("tree-{root_hash:016x}{SUFFIX}")
}

/// Whether the file name `name` in the memo directory itself is of a layout before readers
/// had directories of their own: `tree-HASH.ffc` (before readers had files of their own) or
/// `tree-HASH-READER.ffc`. Never read again; removed when met ([`remove_old_layout`]).
fn is_old_layout(name: &[u8]) -> bool {
    let hex = |b: &[u8]| b.len() == 16 && b.iter().all(u8::is_ascii_hexdigit);
    name.strip_prefix(b"tree-")
        .and_then(|rest| rest.strip_suffix(SUFFIX.as_bytes()))
        .is_some_and(|stem| {
            hex(stem)
                || (stem.len() == 33 && stem[16] == b'-' && hex(&stem[..16]) && hex(&stem[17..]))
        })
}

/// Removes the memo files of the layouts before readers had directories of their own from
/// the memo directory `dir` (see [`is_old_layout`]): their number and bytes.
pub fn remove_old_layout(dir: &Path) -> (usize, u64) {
    let (mut count, mut bytes) = (0, 0);
    let Ok(entries) = fs::read_dir(dir) else {
        return (0, 0);
    };
    for entry in entries.flatten() {
        if !is_old_layout(entry.file_name().as_encoded_bytes()) {
            continue;
        }
        let Ok(md) = entry.metadata() else { continue };
        if md.is_file() && fs::remove_file(entry.path()).is_ok() {
            count += 1;
            bytes += md.len();
        }
    }
    (count, bytes)
}

/// The readers' directories in the memo directory `dir`, with their readers.
pub fn reader_dirs(dir: &Path) -> io::Result<Vec<(u64, PathBuf)>> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let Some(reader) = reader_of(entry.file_name().as_encoded_bytes()) else {
            continue;
        };
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            out.push((reader, entry.path()));
        }
    }
    Ok(out)
}

/// The memo file of this reader (`credentials`) nearest `canonical` (a canonical path): its
/// own, else its nearest ancestor's (a search of a subdirectory of a remembered tree is
/// served by the tree's records). With that ancestor's path and `canonical`'s path below it
/// (no leading `/`; empty for itself). Any file there counts, even one to be refused:
/// reading it says why.
pub fn nearest(
    dir: &Path,
    canonical: &Path,
    credentials: u64,
) -> Option<(PathBuf, Vec<u8>, Vec<u8>)> {
    canonical.ancestors().find_map(|base| {
        let file = file_of(dir, base.as_os_str().as_encoded_bytes(), credentials);
        fs::symlink_metadata(&file).is_ok().then(|| {
            (
                file,
                base.as_os_str().as_encoded_bytes().to_vec(),
                below(canonical, base),
            )
        })
    })
}

/// The memo files of one tree (every reader's), its root path, and a path's below it.
pub type TreeFiles = (Vec<PathBuf>, Vec<u8>, Vec<u8>);

/// Every reader's memo files of the tree nearest `canonical` that has any (see [`nearest`]),
/// with its path and `canonical`'s below it: what `--cache-clear=PATH` forgets.
pub fn nearest_of_every_reader(dir: &Path, canonical: &Path) -> io::Result<Option<TreeFiles>> {
    let readers = match reader_dirs(dir) {
        Ok(r) => r,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    Ok(canonical.ancestors().find_map(|base| {
        let bytes = base.as_os_str().as_encoded_bytes();
        let name = tree_file_name(format::path_hash(bytes));
        let files: Vec<PathBuf> = readers
            .iter()
            .map(|(_, reader)| reader.join(&name))
            .filter(|file| fs::symlink_metadata(file).is_ok())
            .collect();
        (!files.is_empty()).then(|| (files, bytes.to_vec(), below(canonical, base)))
    }))
}

/// After this reader's first file of the tree at `root` was written as `file`: one file per
/// tree, whatever the timing of searches that began before either had one. If a tree this
/// one is in has a file by now (a search of it ended meanwhile), this file goes (the other
/// serves it from now on); else the files of trees inside this one go (they were searched
/// at the same time, or before; this file serves them from now on). Each of two such
/// searches writes its file before looking for the other's, so one of them sees the other.
pub fn one_file_per_tree(dir: &Path, file: &Path, root: &[u8], credentials: u64) {
    let root = crate::fs::os_path(root);
    let root = root.as_ref();
    let mut above = root.ancestors().skip(1);
    if above.any(|base| {
        fs::symlink_metadata(file_of(
            dir,
            base.as_os_str().as_encoded_bytes(),
            credentials,
        ))
        .is_ok()
    }) {
        let _ = fs::remove_file(file);
        return;
    }
    let Ok(entries) = fs::read_dir(reader_dir(dir, credentials)) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if path == file || !name.as_encoded_bytes().ends_with(SUFFIX.as_bytes()) {
            continue;
        }
        let mut head = vec![0u8; 64 * 1024];
        let Ok(n) = open_file(&path)
            .ok()
            .flatten()
            .map_or(Ok(0), |mut f| io::Read::read(&mut f, &mut head))
        else {
            continue;
        };
        let inside = format::root_in(&head[..n]).is_some_and(|other| {
            crate::fs::os_path(other)
                .strip_prefix(root)
                .is_ok_and(|rest| !rest.as_os_str().is_empty())
        });
        if inside {
            let _ = fs::remove_file(&path);
        }
    }
}

/// `path` below its ancestor `base`, as a record's path: no leading `/`, empty for `base`
/// itself (and for a `path` not below `base`).
pub fn below(path: &Path, base: &Path) -> Vec<u8> {
    path.strip_prefix(base).map_or_else(
        |_| Vec::new(),
        |p| p.as_os_str().as_encoded_bytes().to_vec(),
    )
}

/// Opens a memo file to read: not through a link, and only a regular file of ours that no
/// one else may read or write. `Ok(None)` when there is none.
pub fn open_file(path: &Path) -> io::Result<Option<File>> {
    let file = match private::open_no_follow(fs::OpenOptions::new().read(true), path, true) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let md = file.metadata()?;
    if !md.is_file()
        || Stat::from_metadata(&md).uid != crate::fs::effective_uid()
        || private::permissions(&md) & 0o077 != 0
    {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "not a private regular file of this user",
        ));
    }
    Ok(Some(file))
}

/// Appends `segment` to the memo file `path`, which was read as `read` when it was
/// `expected` bytes long: under the file's lock, and only if it is still that very file
/// (device and inode) and that long, so that a segment always follows a whole file written
/// as this search read it. `Ok(false)` when it is not (another search wrote it meanwhile):
/// the caller writes the file whole instead.
pub fn append(path: &Path, read: &File, expected: usize, segment: &[u8]) -> io::Result<bool> {
    let mut file = private::open_no_follow(fs::OpenOptions::new().append(true), path, true)?;
    crate::fs::lock_exclusive(&file)?;
    let (now, then) = (file.metadata()?, read.metadata()?);
    let (now_st, then_st) = (Stat::from_metadata(&now), Stat::from_metadata(&then));
    if (now_st.dev, now_st.ino) != (then_st.dev, then_st.ino) || now.len() != expected as u64 {
        return Ok(false);
    }
    file.write_all(segment)?;
    Ok(true)
}

/// Writes `records` as the memo file `path` of the tree at `root`: into a new temporary file
/// (0600) beside it, renamed over `path` once whole, and only if `intact` still says the
/// records were read whole (they may lie in a mapping of the old file, which another program
/// may cut short meanwhile: its lost pages read as zeros, `fs::Mapped`).
pub fn replace(
    path: &Path,
    root: &[u8],
    credentials: u64,
    records: &[&[u8]],
    intact: impl FnOnce() -> bool,
) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let stamp = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default();
    let temp = dir.join(format!(
        // Never ending in the memo files' suffix: a writer killed before its rename leaves
        // no file that `held` or a listing takes for a memo (`prune` removes it later).
        ".tmp-{}-{}-{}.part",
        std::process::id(),
        stamp.as_nanos(),
        path.file_name()
            .map_or(&b""[..], |n| n.as_encoded_bytes())
            .escape_ascii()
    ));
    let file = match private::create_new(&temp) {
        // Its reader's directory removed meanwhile (`--cache-clear`): made again, 0700.
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            private::create_dir(dir, false)?;
            private::create_new(&temp)?
        }
        file => file?,
    };
    let written = (|| {
        let mut out = io::BufWriter::with_capacity(1 << 20, &file);
        format::write_file(&mut out, root, credentials, records)?;
        out.flush()?;
        drop(out);
        if !intact() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "the memo file was cut short by another program while it was read",
            ));
        }
        fs::rename(&temp, path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temp);
    }
    written
}

/// One memo file: its path, size, last use, and whose it is.
#[derive(Debug)]
pub struct Held {
    pub path: PathBuf,
    pub size: u64,
    pub used: SystemTime,
    pub reader: u64,
}

/// Every memo file of every reader in the memo directory `dir`, least recently used first.
pub fn held(dir: &Path) -> io::Result<Vec<Held>> {
    Ok(held_in(&reader_dirs(dir)?))
}

/// The memo files of the reader `credentials` alone in the memo directory `dir`, least
/// recently used first (where the memo directory itself cannot be listed: a sandbox).
pub fn held_of(dir: &Path, credentials: u64) -> Vec<Held> {
    held_in(&[(credentials, reader_dir(dir, credentials))])
}

/// The memo files in the readers' directories `readers`, least recently used first.
fn held_in(readers: &[(u64, PathBuf)]) -> Vec<Held> {
    let mut files = Vec::new();
    for (reader, at) in readers {
        held_by(*reader, at, &mut files);
    }
    files.sort_by_key(|h| h.used);
    files
}

/// Adds the memo files of the reader `reader`, in its directory `at`, to `files`.
fn held_by(reader: u64, at: &Path, files: &mut Vec<Held>) {
    let Ok(entries) = fs::read_dir(at) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        if !name.as_encoded_bytes().ends_with(SUFFIX.as_bytes()) {
            continue;
        }
        let Ok(md) = entry.metadata() else { continue };
        if md.is_file() {
            files.push(Held {
                path: entry.path(),
                size: md.len(),
                used: md.modified().unwrap_or(SystemTime::UNIX_EPOCH),
                reader,
            });
        }
    }
}

/// Removes the temporary files of writers that died from the directory `at`.
fn remove_stale_temps(at: &Path) {
    let Ok(entries) = fs::read_dir(at) else {
        return;
    };
    let now = SystemTime::now();
    for entry in entries.flatten() {
        if !entry.file_name().as_encoded_bytes().starts_with(b".tmp-") {
            continue;
        }
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| now.duration_since(t).unwrap_or_default() > STALE_TEMP);
        if old {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Removes the least recently used memo files of every reader until those left take at most
/// `limit` bytes, the temporary files of writers that died, and the files of the layouts
/// before ([`remove_old_layout`]). Where the memo directory cannot be listed (a sandbox
/// handed its own directory alone, `credentials`'s), within that directory.
pub fn prune(dir: &Path, credentials: u64, limit: u64) {
    remove_old_layout(dir);
    remove_stale_temps(dir);
    let readers =
        reader_dirs(dir).unwrap_or_else(|_| vec![(credentials, reader_dir(dir, credentials))]);
    for (_, at) in &readers {
        remove_stale_temps(at);
    }
    let files = held_in(&readers);
    let mut total: u64 = files.iter().map(|h| h.size).sum();
    for file in files {
        if total <= limit {
            break;
        }
        if fs::remove_file(&file.path).is_ok() {
            total -= file.size;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_directories_are_made_private_and_links_are_refused() {
        if !crate::fs::HAS_MEMO {
            return;
        }
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("a/b/ffind");
        open_dir(&dir, 0xabc).unwrap();
        let reader = reader_dir(&dir, 0xabc);
        assert_eq!(reader, dir.join("reader-0000000000000abc"));
        for made in [&dir, &reader] {
            let md = fs::symlink_metadata(made).unwrap();
            assert_eq!(private::permissions(&md) & 0o777, 0o700, "{made:?}");
        }
        let link = tmp.path().join("link");
        private::symlink_dir(&dir, &link).unwrap();
        assert!(open_dir(&link, 0xabc)
            .unwrap_err()
            .contains("symbolic link"));
        // A reader's directory that is a link, or others may write to, is refused too.
        let other = reader_dir(&dir, 0xdef);
        private::symlink_dir(&reader, &other).unwrap();
        assert!(open_dir(&dir, 0xdef).unwrap_err().contains("symbolic link"));
        private::share_with_everyone(&reader).unwrap();
        assert!(open_dir(&dir, 0xabc)
            .unwrap_err()
            .contains("others may write"));
        private::share_with_everyone(&dir).unwrap();
        assert!(open_dir(&dir, 0xabc)
            .unwrap_err()
            .contains("others may write"));
    }

    #[test]
    fn the_least_recently_used_go_first_whoever_read_them() {
        let tmp = tempfile::tempdir().unwrap();
        let t0 = SystemTime::now() - Duration::from_secs(100);
        for (i, (reader, name)) in [(1, "tree-a.ffc"), (2, "tree-b.ffc"), (1, "tree-c.ffc")]
            .iter()
            .enumerate()
        {
            let at = reader_dir(tmp.path(), *reader);
            fs::create_dir_all(&at).unwrap();
            let p = at.join(name);
            fs::write(&p, vec![0u8; 100]).unwrap();
            let f = File::options().write(true).open(&p).unwrap();
            f.set_modified(t0 + Duration::from_secs(10 * i as u64))
                .unwrap();
        }
        // Files of the layouts before readers had directories: removed, whatever their use.
        let old = [
            "tree-0123456789abcdef.ffc",
            "tree-0123456789abcdef-fedcba9876543210.ffc",
        ];
        for name in old {
            fs::write(tmp.path().join(name), b"").unwrap();
        }
        fs::write(tmp.path().join("tree-x.ffc"), b"").unwrap();
        prune(tmp.path(), 1, 250);
        let left: Vec<_> = held(tmp.path())
            .unwrap()
            .into_iter()
            .map(|h| (h.reader, h.path.file_name().unwrap().to_owned()))
            .collect();
        assert_eq!(left, [(2, "tree-b.ffc".into()), (1, "tree-c.ffc".into())]);
        for name in old {
            assert!(!tmp.path().join(name).exists(), "{name}");
        }
        assert!(
            tmp.path().join("tree-x.ffc").exists(),
            "not a memo file's name"
        );
    }
}
