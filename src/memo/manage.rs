//! Managing the memo from the command line: `--cache-list` (what is remembered, how large, when
//! last used), `--cache-clear[=PATH]` (everything, or one search path's file) and
//! `--cache-check[=PATH]` (whether the memo can be trusted on PATH's file system, tested as
//! `git update-index --test-untracked-cache` tests one). Options, not an `ffind cache`
//! subcommand: a bare word is a search pattern (`ffind cache` looks for names holding
//! "cache", as in fd).

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::format::{self, Header, Record, Stamp};
use super::{place, trust};
use crate::exit::Outcome;
use crate::fs::escape::{escaped, escaped_path};

/// What to do with the memo.
#[derive(Debug, Clone)]
pub enum Task {
    /// List the memo files.
    List,
    /// Remove every file (no paths), or what is remembered of each search path given.
    Clear(Vec<PathBuf>),
    /// Test the file system of that path.
    Check(PathBuf),
}

/// Does `task` on the memo in `dir`, writing what it finds to stdout.
pub fn run(task: &Task, dir: &Path) -> Outcome {
    let out = &mut io::stdout().lock();
    let done = match task {
        Task::List => list(dir, out),
        Task::Clear(paths) if paths.is_empty() => clear(dir, out),
        Task::Clear(paths) => {
            let mut all = Ok(true);
            for path in paths {
                match clear_path(dir, path, out) {
                    Ok(true) => {}
                    Ok(false) => all = Ok(false),
                    Err(e) => {
                        crate::report::say!(
                            "ffind: {}: {}",
                            escaped_path(path),
                            crate::report::describe(&e)
                        );
                        all = all.and(Ok(false));
                    }
                }
            }
            all
        }
        Task::Check(path) => check(path, out),
    };
    match done {
        Ok(true) => Outcome::Success,
        Ok(false) => Outcome::Errors,
        Err(e) => {
            crate::report::say!("ffind: {}", crate::report::describe(&e));
            Outcome::Errors
        }
    }
}

/// A size for people: bytes, KiB, MiB or GiB.
fn size(bytes: u64) -> String {
    match bytes {
        0..1024 => format!("{bytes} B"),
        1024..1_048_576 => format!("{:.1} KiB", bytes as f64 / 1024.0),
        1_048_576..1_073_741_824 => format!("{:.1} MiB", bytes as f64 / 1_048_576.0),
        _ => format!("{:.1} GiB", bytes as f64 / 1_073_741_824.0),
    }
}

/// One line per memo file of this reader (this process's rights: the memo is kept per
/// reader): size, last use, search path; then its total, what other readers of this user keep
/// (the same user in a sandbox, a container, with other groups or capabilities), and the total.
fn list(dir: &Path, out: &mut impl Write) -> io::Result<bool> {
    let (old, old_bytes) = place::remove_old_layout(dir);
    let me = super::credentials();
    let (files, unlisted) = match (place::held(dir), &me) {
        (Ok(f), _) => (f, None),
        (Err(e), _) if e.kind() == io::ErrorKind::NotFound => (Vec::new(), None),
        // A sandbox handed its own directory alone: that one's.
        (Err(e), Ok(c)) if fs::symlink_metadata(place::reader_dir(dir, *c)).is_ok() => {
            (place::held_of(dir, *c), Some(e))
        }
        (Err(e), _) => return Err(e),
    };
    let mine = |h: &&place::Held| me.as_ref().map_or(true, |c| h.reader == *c);
    let (own, others): (Vec<&place::Held>, Vec<&place::Held>) = files.iter().rev().partition(mine);
    for held in &own {
        // In the local time zone, as ls and -l show times.
        let used = jiff::Timestamp::try_from(held.used)
            .map(|t| {
                let local = t.to_zoned(jiff::tz::TimeZone::system());
                local.strftime("%Y-%m-%d %H:%M:%S %Z").to_string()
            })
            .unwrap_or_default();
        let bytes = fs::read(&held.path).unwrap_or_default();
        let root = match Header::parse(&bytes) {
            Ok(h) => escaped(h.root),
            Err(_) => format!("(unreadable: {})", escaped_path(&held.path)),
        };
        writeln!(out, "{:>10}  {used}  {root}", size(held.size))?;
    }
    let bytes = |files: &[&place::Held]| files.iter().map(|h| h.size).sum::<u64>();
    match &me {
        Ok(c) => writeln!(
            out,
            "{:>10}  in {} file(s) of this reader, in {}",
            size(bytes(&own)),
            own.len(),
            escaped_path(&place::reader_dir(dir, *c))
        )?,
        Err(e) => writeln!(
            out,
            "{:>10}  in {} file(s) of every reader (which one this process is cannot be told: {})",
            size(bytes(&own)),
            own.len(),
            crate::report::describe(e)
        )?,
    }
    if !others.is_empty() {
        let mut readers: Vec<u64> = others.iter().map(|h| h.reader).collect();
        readers.sort_unstable();
        readers.dedup();
        writeln!(
            out,
            "{:>10}  in {} file(s) of {} other reader(s): this user with other rights (in a \
             sandbox or a container, with other groups or capabilities)",
            size(bytes(&others)),
            others.len(),
            readers.len()
        )?;
    }
    if old > 0 {
        writeln!(
            out,
            "{:>10}  in {old} file(s) of an earlier layout of the memo, never read again: removed",
            size(old_bytes)
        )?;
    }
    match unlisted {
        None => writeln!(
            out,
            "{:>10}  in {} file(s) in {}",
            size(files.iter().map(|h| h.size).sum()),
            files.len(),
            escaped_path(dir)
        )?,
        Some(e) => writeln!(
            out,
            "(other readers' not counted: {}: {})",
            escaped_path(dir),
            crate::report::describe(&e)
        )?,
    }
    Ok(true)
}

/// Forgets what is remembered of `path`: its file, or its records in the file of the tree
/// it is in.
fn clear_path(dir: &Path, path: &Path, out: &mut impl Write) -> io::Result<bool> {
    let canonical = fs::canonicalize(path)?;
    let shown = escaped_path(&canonical);
    let forgot = match place::nearest_of_every_reader(dir, &canonical)? {
        None => None,
        Some((files, _, below)) if below.is_empty() => {
            let mut removed = false;
            for file in files {
                match fs::remove_file(&file) {
                    Ok(()) => removed = true,
                    Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                    Err(e) => return Err(e),
                }
            }
            removed.then(String::new)
        }
        Some((files, base, below)) => {
            let mut forgot = false;
            for file in files {
                forgot |= forget_below(&file, &below)?;
            }
            forgot.then(|| format!(" (in the memo of {})", escaped(&base)))
        }
    };
    match forgot {
        Some(whose) => writeln!(out, "forgot {shown}{whose}")?,
        None => writeln!(out, "nothing remembered of {shown}")?,
    }
    Ok(true)
}

/// Removes every memo file of every reader (and leftover temporary files, files of the
/// layouts before, and the readers' directories, emptied).
fn clear(dir: &Path, out: &mut impl Write) -> io::Result<bool> {
    let (mut removed, _) = place::remove_old_layout(dir);
    let readers = match place::reader_dirs(dir) {
        Ok(r) => r,
        Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(e),
    };
    let ours = |name: &[u8]| name.ends_with(b".ffc") || name.starts_with(b".tmp-");
    for at in readers.iter().map(|(_, at)| at.as_path()).chain([dir]) {
        let Ok(entries) = fs::read_dir(at) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let file = entry.file_type().is_ok_and(|t| !t.is_dir());
            if file && ours(name.as_encoded_bytes()) && fs::remove_file(entry.path()).is_ok() {
                removed += 1;
            }
        }
        if at != dir {
            // Empty now, unless a search wrote meanwhile.
            let _ = fs::remove_dir(at);
        }
    }
    writeln!(out, "removed {removed} file(s) from {}", escaped_path(dir))?;
    Ok(true)
}

/// Rewrites the memo `file` without its records of the directory `below` (a path below its
/// root) and of the directories under it: whether there were any. A file that fails its
/// checks is removed whole.
fn forget_below(file: &Path, below: &[u8]) -> io::Result<bool> {
    let Some(opened) = place::open_file(file)? else {
        return Ok(false);
    };
    let map = crate::fs::Mapped::new(&opened)?;
    let bytes = map.bytes();
    let under = |rel: &[u8]| {
        rel.strip_prefix(below)
            .is_some_and(|rest| rest.is_empty() || rest[0] == b'/')
    };
    let Ok(header) = Header::parse(bytes) else {
        fs::remove_file(file)?;
        return Ok(true);
    };
    // The newest record of each path, the journal's included.
    let (journal, _) = format::segments(bytes, header.base_end);
    let indexes = format::newest_first(bytes, header.index_at, header.base_end, &journal);
    let records: Vec<Record<'_>> = format::live_records(bytes, indexes);
    let kept: Vec<&[u8]> = records
        .iter()
        .filter(|r| !under(r.rel()))
        .map(|r| r.bytes())
        .collect();
    if kept.len() == records.len() {
        return Ok(false);
    }
    place::replace(file, header.root, header.credentials, &kept, || {
        !map.cut_short()
    })?;
    Ok(true)
}

/// The stamp of the directory `dir`.
fn stamp(dir: &Path) -> io::Result<Stamp> {
    let st = crate::fs::raw_stat_path(dir.as_os_str().as_encoded_bytes(), false)?;
    Ok(Stamp::of_raw(&st))
}

/// Tests the file system of `path`: its type, then in a new directory there, whether
/// creating, renaming and removing entries each change the directory's mtime and ctime, also
/// when two come right after each other (a `stat` between).
fn check(path: &Path, out: &mut impl Write) -> io::Result<bool> {
    if let Err(e) = fs::metadata(path) {
        crate::report::say!(
            "ffind: {}: {}",
            escaped_path(path),
            crate::report::describe(&e)
        );
        return Ok(false);
    }
    let magic = crate::fs::fs_magic(path.as_os_str().as_encoded_bytes());
    let untrusted = format!(
        "a type ffind does not trust (see {}): searched without the memo",
        super::docs("CACHE.md")
    );
    let name = magic.map_or_else(|| "an unknown file system".into(), trust::name);
    let trusted = magic.is_some_and(trust::trusted);
    writeln!(
        out,
        "{}: {name}, {}",
        escaped_path(path),
        if trusted {
            "a type whose directory times ffind trusts"
        } else {
            &untrusted
        }
    )?;
    let test = path.join(format!(".ffind-cache-check-{}", std::process::id()));
    let changes_seen = match fs::create_dir(&test) {
        Ok(()) => {
            let result = check_in(&test, out);
            let _ = fs::remove_dir_all(&test);
            result?
        }
        Err(e) => {
            let why = crate::report::describe(&e);
            writeln!(out, "cannot make a directory there to test it: {why}")?;
            false
        }
    };
    let safe = trusted && changes_seen;
    writeln!(
        out,
        "{}",
        if safe {
            "the memo (--cache) is safe here"
        } else {
            "the memo (--cache) is NOT safe here"
        }
    )?;
    Ok(safe)
}

/// The changes tried in `test`, each twice in a row; true when every one changed the stamp,
/// or, where the second left it as it was, a third made once the directory's last change was
/// older than the memo's margin ([`super::MARGIN_SECS`]) did: two changes within one tick of
/// the file system's clock may share a stamp (tmpfs stamps a removal with the removed file's
/// coarse time, which the kernel's multigrain timestamps since Linux 6.13 leave coarse), and
/// the memo never trusts a listing taken within the margin of its directory's last change,
/// so that is safe; a change the margin later that still leaves the stamp is not.
fn check_in(test: &Path, out: &mut impl Write) -> io::Result<bool> {
    type Change = fn(&Path, usize) -> io::Result<()>;
    fn nothing(_: &Path, _: usize) -> io::Result<()> {
        Ok(())
    }
    fn file(d: &Path, i: usize) -> io::Result<()> {
        fs::write(d.join(format!("f{i}")), "")
    }
    fn rename(d: &Path, i: usize) -> io::Result<()> {
        fs::rename(d.join(format!("f{i}")), d.join(format!("g{i}")))
    }
    fn remove(d: &Path, i: usize) -> io::Result<()> {
        fs::remove_file(d.join(format!("g{i}")))
    }
    fn renamed_file(d: &Path, i: usize) -> io::Result<()> {
        file(d, i).and_then(|()| rename(d, i))
    }
    fn dir(d: &Path, i: usize) -> io::Result<()> {
        fs::create_dir(d.join(format!("d{i}")))
    }
    // Each step, and how to make what it works on: the steps before it make it for the first
    // two tries; for a step tried again (below), it is made anew.
    let steps: [(&str, Change, Change); 4] = [
        ("creating a file", file, nothing),
        ("renaming a file", rename, file),
        ("removing a file", remove, renamed_file),
        ("creating a directory", dir, nothing),
    ];
    let changes = |step: Change, i: usize| -> io::Result<bool> {
        let before = stamp(test)?;
        step(test, i)?;
        let after = stamp(test)?;
        Ok(after.mtime != before.mtime && after.ctime != before.ctime)
    };
    let margin = std::time::Duration::from_millis(
        u64::try_from(super::MARGIN_SECS).unwrap_or(3) * 1000 + 100,
    );
    let mut all = true;
    for (what, step, made) in steps {
        let mut seen = changes(step, 0)? && changes(step, 1)?;
        let mut within_a_tick = false;
        if !seen {
            made(test, 2)?;
            std::thread::sleep(margin);
            seen = changes(step, 2)?;
            within_a_tick = seen;
        }
        writeln!(
            out,
            "{what} changes the directory's mtime and ctime, twice in a row: {}",
            match (seen, within_a_tick) {
                (true, false) => "yes",
                (true, true) => {
                    "not within one tick of the file system's clock, yes once the margin \
                     passed (the memo reads a directory changed in the last 3 s again: safe)"
                }
                _ => "NO",
            }
        )?;
        all &= seen;
    }
    Ok(all)
}
