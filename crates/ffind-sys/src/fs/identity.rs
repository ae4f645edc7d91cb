//! Who reads: everything the kernel consults when it decides whether this process may open
//! and list a directory that a process can see, as bytes (the directory memo of `--cache`
//! keeps a listing only for the same reader, since a listing served must never reach a
//! process that could not have read the directory itself).
//!
//! On Linux that is more than the uid and groups: the effective capabilities
//! (`CAP_DAC_OVERRIDE` and `CAP_DAC_READ_SEARCH` read any directory; root without them reads
//! what its modes allow, and an ordinary user given them through `AmbientCapabilities=` or
//! `setpriv` reads everything), the user namespace the ids and capabilities are taken in,
//! the security labels of the LSMs that label processes (SELinux, AppArmor, Smack),
//! `no_new_privs`, the seccomp mode and the number of filters. All but the namespace come
//! from `/proc/self/status` and `/proc/self/attr`; without `/proc` there is no identity, and
//! no memo. The identity keeps each reader's listings apart, which saves a reader the
//! listings another reader could not have made; it guards nothing: the memo serves a
//! directory only once this process has opened it, so the kernel judges every reader through
//! the one call it checks (Landlock, LSMs and their policies, user namespaces, ACLs), and
//! where a seccomp filter or a tracer could judge the read itself ([`supervised`]) there is no
//! memo (docs/SECURITY.md).
//!
//! On macOS and the BSDs: the real and effective ids and the groups. Neither has capabilities
//! that let a non-root process read past a directory's mode; what they do have and ffind does
//! not see (macOS's App Sandbox, FreeBSD's MAC labels and Capsicum) is said in SECURITY.md.

use std::io;

#[cfg(target_os = "linux")]
/// The lines of `/proc/self/status` that decide what this process may read: real,
/// effective, saved and file-system ids, supplementary groups, effective capabilities,
/// `no_new_privs`, the seccomp mode and how many filters there are (which says a filter was
/// added, not what it forbids: a filter turns the memo off, [`supervised`]).
const STATUS_FIELDS: [&str; 7] = [
    "Uid:",
    "Gid:",
    "Groups:",
    "CapEff:",
    "NoNewPrivs:",
    "Seccomp:",
    "Seccomp_filters:",
];

#[cfg(target_os = "linux")]
/// The security labels of this process, one per LSM that has them (the first is the
/// "current" one of whichever LSM owns `/proc/self/attr/current`).
const LABELS: [&str; 3] = [
    "/proc/self/attr/current",
    "/proc/self/attr/apparmor/current",
    "/proc/self/attr/smack/current",
];

/// `/proc/self/status`, read once for this process: who reads ([`reader_identity`]) and what
/// judges its reads ([`supervised`]) are both asked of it as a search opens the memo.
#[cfg(target_os = "linux")]
fn status() -> io::Result<&'static [u8]> {
    static READ: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    if let Some(read) = READ.get() {
        return Ok(read);
    }
    let read = std::fs::read("/proc/self/status")?;
    Ok(READ.get_or_init(|| read))
}

/// This process as a reader of directories, as bytes that differ whenever what it may read
/// can differ; an error when that cannot be told (no `/proc`).
#[cfg(target_os = "linux")]
pub fn reader_identity() -> io::Result<Vec<u8>> {
    let status = status()?;
    let mut id = Vec::with_capacity(256);
    for field in STATUS_FIELDS {
        let line = status
            .split(|&b| b == b'\n')
            .find(|l| l.starts_with(field.as_bytes()));
        match line {
            Some(line) => id.extend_from_slice(line),
            // An older kernel without the field (Seccomp: 2.6.38, NoNewPrivs: 4.10): said as
            // missing, which is what every process there says.
            None => id.extend_from_slice(b"-"),
        }
        id.push(b'\n');
    }
    let ns = std::fs::metadata("/proc/self/ns/user");
    match ns {
        Ok(md) => {
            use std::os::unix::fs::MetadataExt;
            id.extend_from_slice(&md.dev().to_le_bytes());
            id.extend_from_slice(&md.ino().to_le_bytes());
        }
        // Kernels without user namespaces have one.
        Err(_) => id.extend_from_slice(b"no user namespaces"),
    }
    id.push(b'\n');
    for label in LABELS {
        match std::fs::read(label) {
            Ok(bytes) => id.extend_from_slice(&bytes),
            // No such LSM here (ENOENT), or one that answers "invalid" for a process without
            // a label of its own (EINVAL): the same for every process of this kernel.
            Err(e) => id.extend_from_slice(format!("({:?})", e.kind()).as_bytes()),
        }
        id.push(b'\n');
    }
    Ok(id)
}

/// What may judge this process's every directory read apart from opening it, if anything:
/// a seccomp filter (which can refuse `getdents64` by its arguments, its count, or through a
/// supervisor in user space) or a tracer (`ptrace`, which can fail any call). The memo serves
/// a directory only after opening it, and never reads it, so it must not be used then: what
/// such a judge would have said of the read is not asked. `/proc/self/status` says both
/// exactly (`Seccomp:` is the mode, 0 without a filter; `TracerPid:` 0 without a tracer); an
/// error when it cannot be read.
#[cfg(target_os = "linux")]
pub fn supervised() -> io::Result<Option<&'static str>> {
    Ok(supervisor_in(status()?))
}

/// [`supervised`]'s answer from the text of `/proc/self/status`: a field that is missing
/// (a kernel without seccomp) says none.
#[cfg(target_os = "linux")]
fn supervisor_in(status: &[u8]) -> Option<&'static str> {
    let field = |name: &str| {
        status
            .split(|&b| b == b'\n')
            .find_map(|l| l.strip_prefix(name.as_bytes()))
            .map(|v| v.trim_ascii())
    };
    if field("Seccomp:").is_some_and(|mode| mode != b"0") {
        Some("a seccomp filter")
    } else if field("TracerPid:").is_some_and(|pid| pid != b"0") {
        Some("a tracer (ptrace)")
    } else {
        None
    }
}

/// Elsewhere: a tracer, which the kernel's process table marks (`P_TRACED`); these systems
/// have no seccomp.
#[cfg(all(unix, not(target_os = "linux")))]
pub fn supervised() -> io::Result<Option<&'static str>> {
    Ok(super::system::traced()?.then_some("a tracer (ptrace)"))
}

/// On Windows the memo is off (`memo::place`): nothing asks.
#[cfg(windows)]
pub fn supervised() -> io::Result<Option<&'static str>> {
    Ok(None)
}

/// This process as a reader of directories: its real and effective ids and its groups.
#[cfg(all(unix, not(target_os = "linux")))]
pub fn reader_identity() -> io::Result<Vec<u8>> {
    use nix::unistd::{getegid, geteuid, getgid, getuid};
    let mut id = Vec::with_capacity(64);
    for v in [
        getuid().as_raw(),
        geteuid().as_raw(),
        getgid().as_raw(),
        getegid().as_raw(),
    ] {
        id.extend_from_slice(&v.to_le_bytes());
    }
    let mut groups = super::system::groups();
    groups.sort_unstable();
    for g in groups {
        id.extend_from_slice(&g.to_le_bytes());
    }
    Ok(id)
}

/// This process as a reader of directories on Windows: the memo is off there
/// (`memo::place`), so nothing asks; a fixed answer, should anything.
#[cfg(windows)]
pub fn reader_identity() -> io::Result<Vec<u8>> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "who reads is not known on Windows",
    ))
}

#[cfg(target_os = "linux")]
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seccomp_filter_or_a_tracer_is_said_and_nothing_else() {
        let free =
            b"Name:\tffind\nTracerPid:\t0\nNoNewPrivs:\t1\nSeccomp:\t0\nSeccomp_filters:\t0\n";
        assert_eq!(supervisor_in(free), None);
        assert_eq!(supervisor_in(b"Name:\tffind\n"), None);
        let filtered = b"TracerPid:\t0\nSeccomp:\t2\nSeccomp_filters:\t1\n";
        assert_eq!(supervisor_in(filtered), Some("a seccomp filter"));
        let strict = b"TracerPid:\t0\nSeccomp:\t1\n";
        assert_eq!(supervisor_in(strict), Some("a seccomp filter"));
        let traced = b"TracerPid:\t4321\nSeccomp:\t0\n";
        assert_eq!(supervisor_in(traced), Some("a tracer (ptrace)"));
        // This test process: neither, unless the suite itself runs under one.
        let own = std::fs::read("/proc/self/status").unwrap();
        assert_eq!(supervised().unwrap(), supervisor_in(&own));
    }

    #[test]
    fn the_identity_holds_the_ids_and_capabilities() {
        let id = reader_identity().unwrap();
        let text = String::from_utf8_lossy(&id);
        let euid = nix::unistd::geteuid().as_raw().to_string();
        let uid_line = text.lines().find(|l| l.starts_with("Uid:")).unwrap();
        assert!(uid_line.split_whitespace().any(|w| w == euid), "{uid_line}");
        assert!(text.lines().any(|l| l.starts_with("CapEff:")), "{text}");
        // The same process, asked twice, is the same reader.
        assert_eq!(reader_identity().unwrap(), id);
    }
}
