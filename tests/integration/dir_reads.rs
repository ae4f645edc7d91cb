//! Which directories of a tree a command opens and which it reads, seen from outside the
//! process: inotify reports a directory's `getdents64` as `IN_ACCESS` on the directory itself,
//! its open as `IN_OPEN`. (The memo tests once traced ffind with strace; under a tracer the
//! memo is off, docs/SECURITY.md.)

use std::collections::{BTreeSet, HashMap};
use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// Watches on every directory of a tree.
pub struct Watch {
    fd: OwnedFd,
    /// Each watch's directory, relative to the tree's root ("" for the root).
    dirs: HashMap<i32, String>,
}

/// What the directories of a tree went through while a [`Watch`] was on them.
#[derive(Debug, Default)]
pub struct Seen {
    /// Opened, relative to the root, sorted.
    pub opened: BTreeSet<String>,
    /// Read (`getdents64`), relative to the root, sorted.
    pub read: BTreeSet<String>,
    /// Files (not directories) opened, relative to the root, sorted.
    pub files_opened: BTreeSet<String>,
}

impl Watch {
    /// Watches `root` and every directory below it (not through links); directories that
    /// cannot be watched (unreadable to a non-root user) are passed over.
    pub fn new(root: impl AsRef<Path>) -> Watch {
        let root = root.as_ref();
        // SAFETY: inotify_init1 takes flags only; the descriptor it returns is ours.
        let raw = unsafe { libc::inotify_init1(libc::IN_NONBLOCK | libc::IN_CLOEXEC) };
        assert!(raw >= 0, "inotify_init1: {}", io::Error::last_os_error());
        // SAFETY: `raw` is a descriptor just opened, owned by nothing else.
        let fd = unsafe { OwnedFd::from_raw_fd(raw) };
        let mut watch = Watch {
            fd,
            dirs: HashMap::new(),
        };
        let mut todo = vec![root.to_path_buf()];
        while let Some(dir) = todo.pop() {
            let rel = dir
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let c = CString::new(dir.as_os_str().as_bytes()).unwrap();
            let mask = libc::IN_ACCESS | libc::IN_OPEN | libc::IN_ONLYDIR | libc::IN_DONT_FOLLOW;
            // SAFETY: `c` is a NUL-terminated path; the descriptor is ours.
            let wd = unsafe { libc::inotify_add_watch(watch.fd.as_raw_fd(), c.as_ptr(), mask) };
            if wd >= 0 {
                watch.dirs.insert(wd, rel);
            }
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for e in entries.flatten() {
                if e.file_type().is_ok_and(|t| t.is_dir()) {
                    todo.push(e.path());
                }
            }
        }
        // Setting up read the directories: what came of that is not the command's.
        watch.seen();
        watch
    }

    /// What the watched directories went through since the last call.
    pub fn seen(&self) -> Seen {
        let mut seen = Seen::default();
        let mut buf = vec![0u8; 1 << 16];
        loop {
            // SAFETY: reads at most `buf.len()` bytes into `buf`.
            let n = unsafe { libc::read(self.fd.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
            let Ok(n) = usize::try_from(n) else {
                let e = io::Error::last_os_error();
                assert_eq!(e.kind(), io::ErrorKind::WouldBlock, "inotify: {e}");
                return seen;
            };
            let mut at = 0;
            while at + 16 <= n {
                let word =
                    |i: usize| u32::from_ne_bytes(buf[at + i..at + i + 4].try_into().unwrap());
                let (wd, mask, len) = (word(0) as i32, word(4), word(12) as usize);
                assert_eq!(mask & libc::IN_Q_OVERFLOW, 0, "inotify's queue overflowed");
                // An event of the directory itself, not of an entry in it.
                if let (0, Some(dir)) = (len, self.dirs.get(&wd)) {
                    if mask & libc::IN_ACCESS != 0 {
                        seen.read.insert(dir.clone());
                    }
                    if mask & libc::IN_OPEN != 0 {
                        seen.opened.insert(dir.clone());
                    }
                } else if let Some(dir) = self.dirs.get(&wd) {
                    // An entry of the directory: its name, NUL-padded, follows the event.
                    let name = &buf[at + 16..at + 16 + len];
                    let name = &name[..name.iter().position(|&b| b == 0).unwrap_or(len)];
                    if mask & libc::IN_OPEN != 0 && mask & libc::IN_ISDIR == 0 {
                        let name = String::from_utf8_lossy(name);
                        let rel = Path::new(dir).join(&*name);
                        seen.files_opened.insert(rel.to_string_lossy().into_owned());
                    }
                }
                at += 16 + len;
            }
        }
    }

    /// Every directory watched, relative to the root.
    pub fn all(&self) -> BTreeSet<String> {
        self.dirs.values().cloned().collect()
    }
}

/// What `run` does to the directories of the tree at `root`, with its result.
pub fn during<R>(root: impl AsRef<Path>, run: impl FnOnce() -> R) -> (R, Seen) {
    let watch = Watch::new(root);
    let r = run();
    (r, watch.seen())
}
