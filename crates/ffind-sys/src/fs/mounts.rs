//! What the mount table says of a file system: its type by name (`fuse.sshfs`, `nfs4`), for
//! messages that name a file system rather than show a `statfs` magic number.

/// The type of the file system mounted as device `dev`, as the mount table names it
/// (`/proc/self/mountinfo`'s "major:minor" and file-system type fields); `None` when it cannot
/// be told.
#[cfg(target_os = "linux")]
pub fn mount_type(dev: u64) -> Option<String> {
    let table = std::fs::read("/proc/self/mountinfo").ok()?;
    let wanted = format!("{}:{}", libc::major(dev), libc::minor(dev));
    table.split(|&b| b == b'\n').find_map(|line| {
        let line = String::from_utf8_lossy(line);
        let mut fields = line.split(' ');
        if fields.nth(2)? != wanted {
            return None;
        }
        // The optional fields end with "-"; the type comes right after.
        let mut rest = fields.skip_while(|f| *f != "-");
        rest.next()?;
        rest.next().map(str::to_owned)
    })
}

/// Elsewhere the file system's type comes from `statfs` ([`super::fs_magic`]'s name).
#[cfg(not(target_os = "linux"))]
pub fn mount_type(_dev: u64) -> Option<String> {
    None
}

#[cfg(target_os = "linux")]
#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::MetadataExt;

    #[test]
    fn the_root_and_proc_are_named() {
        let proc = std::fs::metadata("/proc/self").unwrap().dev();
        assert_eq!(mount_type(proc).as_deref(), Some("proc"));
        assert!(mount_type(std::fs::metadata("/").unwrap().dev()).is_some());
        assert_eq!(mount_type(u64::MAX), None);
    }
}
