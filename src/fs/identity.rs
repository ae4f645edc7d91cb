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
//! no memo. What no process can see is not here: a Landlock domain, what a seccomp filter
//! forbids, an LSM's policy behind its label. The memo asks the kernel itself for those, by
//! opening directories and reading its own ([`confined`]; docs/SECURITY.md).
//!
//! On macOS and the BSDs: the real and effective ids and the groups. Neither has capabilities
//! that let a non-root process read past a directory's mode; what they do have and ffind does
//! not see (macOS's App Sandbox, FreeBSD's MAC labels and Capsicum) is said in SECURITY.md.

use std::io;

#[cfg(target_os = "linux")]
/// The lines of `/proc/self/status` that decide what this process may read: real,
/// effective, saved and file-system ids, supplementary groups, effective capabilities,
/// `no_new_privs`, the seccomp mode and how many filters there are (which says a filter was
/// added, not what it forbids: see `memo::place::readable`).
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

/// This process as a reader of directories, as bytes that differ whenever what it may read
/// can differ; an error when that cannot be told (no `/proc`).
#[cfg(target_os = "linux")]
pub fn reader_identity() -> io::Result<Vec<u8>> {
    let status = std::fs::read("/proc/self/status")?;
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

/// Whether an LSM confines this process (SELinux, AppArmor with a profile, Smack): its
/// label is part of who reads, but its policy is not, and can be loaded anew under the same
/// label, so only opening a directory asks it. A label that cannot be read counts as none
/// (no such LSM here); AppArmor's `unconfined` is none.
#[cfg(target_os = "linux")]
pub fn confined() -> bool {
    LABELS
        .iter()
        .any(|label| std::fs::read(label).is_ok_and(|bytes| confines(&bytes)))
}

/// Whether a process labelled `label` (as `/proc/self/attr` gives it: a newline or a NUL may
/// end it) is confined: any label but none and AppArmor's `unconfined`.
#[cfg(target_os = "linux")]
fn confines(label: &[u8]) -> bool {
    let label = label
        .trim_ascii()
        .strip_suffix(b"\0")
        .unwrap_or(label.trim_ascii())
        .trim_ascii();
    !label.is_empty() && label != b"unconfined" && !label.starts_with(b"unconfined ")
}

/// Elsewhere what may confine a process (macOS's App Sandbox, FreeBSD's MAC and Capsicum)
/// cannot be seen: as if it did.
#[cfg(not(target_os = "linux"))]
pub fn confined() -> bool {
    true
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
    fn an_lsm_label_confines_unless_it_says_unconfined() {
        for free in [
            &b""[..],
            b"\n",
            b"unconfined\n",
            b"unconfined\0",
            b"unconfined (?)\n",
        ] {
            assert!(!confines(free), "{free:?}");
        }
        for held in [
            &b"firefox (enforce)\n"[..],
            b"unconfined_u:unconfined_r:unconfined_t:s0-s0:c0.c1023\0",
            b"system_u:system_r:httpd_t:s0",
            b"_\n",
        ] {
            assert!(confines(held), "{held:?}");
        }
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
