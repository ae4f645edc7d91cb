//! Files and directories only their user may use, as the directory memo (`--cache`) keeps
//! them: made with modes 0700 and 0600, opened without following a link, never blocking on a
//! FIFO, and their permission bits read back.
//!
//! On Windows (where the memo is off: [`super::HAS_MEMO`]) access is an ACL's business: what
//! is made inherits its directory's (the user's profile is the user's alone), links are not
//! followed when a file is opened, and the permission bits read are the owner's alone, write
//! taken away by the read-only attribute.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::Path;

/// Makes the directory `dir` (and, with `parents`, those above it), its user's alone.
pub fn create_dir(dir: &Path, parents: bool) -> io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(parents);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)
}

/// Takes every permission away from others on the directory `dir`.
pub fn make_private(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(dir, fs::Permissions::from_mode(0o700))
    }
    #[cfg(windows)]
    {
        let _ = dir;
        Ok(())
    }
}

/// The permission bits (`0o777` and setuid, setgid, sticky) of a file's metadata.
pub fn permissions(md: &fs::Metadata) -> u32 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        md.mode() & 0o7777
    }
    #[cfg(windows)]
    {
        let write = if md.permissions().readonly() {
            0
        } else {
            0o200
        };
        let search = if md.is_dir() { 0o100 } else { 0 };
        0o400 | write | search
    }
}

/// Opens `path` with `options`, never through a symbolic link at its end, and never waiting
/// on a FIFO (`nonblock`) or a device.
pub fn open_no_follow(options: &mut OpenOptions, path: &Path, nonblock: bool) -> io::Result<File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let flags = if nonblock {
            libc::O_NOFOLLOW | libc::O_NONBLOCK
        } else {
            libc::O_NOFOLLOW
        };
        options.custom_flags(flags);
    }
    #[cfg(windows)]
    {
        use std::os::windows::fs::OpenOptionsExt;
        use windows_sys::Win32::Storage::FileSystem::FILE_FLAG_OPEN_REPARSE_POINT;
        let _ = nonblock;
        options.custom_flags(FILE_FLAG_OPEN_REPARSE_POINT);
    }
    options.open(path)
}

/// Creates the new file `path` to write, its user's alone (0600), not through a link.
pub fn create_new(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    open_no_follow(&mut options, path, false)
}

/// Makes the link `link` to the directory `target` (for tests of the refusal of links; on
/// Windows, a symbolic link needs a privilege or developer mode).
#[cfg(any(test, feature = "testing"))]
pub fn symlink_dir(target: &Path, link: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(target, link)
    }
    #[cfg(windows)]
    {
        std::os::windows::fs::symlink_dir(target, link)
    }
}

/// Lets everyone read and write the directory `dir` (mode 0777; nothing on Windows), for tests
/// of the refusal of a shared memo directory.
#[cfg(any(test, feature = "testing"))]
pub fn share_with_everyone(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(dir, fs::Permissions::from_mode(0o777))
    }
    #[cfg(windows)]
    {
        let _ = dir;
        Ok(())
    }
}
