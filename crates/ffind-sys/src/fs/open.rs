//! Opening a file to write without waiting on it, for the checks made before long work
//! (`ffind --bench`'s export files).

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

/// Opens `path` to write (created, and refused if it exists, when `create_new`), never
/// waiting: a FIFO without a reader fails at once (`O_NONBLOCK`: `ENXIO`) instead of holding
/// the open until one comes. Windows has no such FIFO (a named pipe without its server fails
/// at once by itself).
pub fn open_without_waiting(path: &Path, create_new: bool) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(create_new);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}
