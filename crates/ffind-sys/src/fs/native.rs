//! Path bytes to and from the system's own strings, system errors by what they mean, and what
//! the walker crates' entries say of the system (an entry's inode, its hidden mark: the
//! adapters `walk/by_path.rs`'s methods read their entries with), so that no floor above names a
//! system.
//!
//! Every path ffind handles is bytes: the system's own on Unix, and on Windows the WTF-8 form
//! Rust's `OsStr` holds (UTF-8, with any unpaired surrogate of a UTF-16 name kept as its
//! three-byte form), which `OsStr::as_encoded_bytes` gives on both. Going back, bytes that did
//! not come from an `OsStr` (a config file's line, a value built from one) are checked on
//! Windows, and what is not WTF-8 is replaced, as `String::from_utf8_lossy` does.

use std::borrow::Cow;
use std::ffi::{OsStr, OsString};
use std::io;
use std::path::Path;

/// Path bytes as an `OsStr` (borrowed wherever the bytes are the system's form already).
pub fn os_str(bytes: &[u8]) -> Cow<'_, OsStr> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Cow::Borrowed(OsStr::from_bytes(bytes))
    }
    #[cfg(windows)]
    {
        if is_wtf8(bytes) {
            // SAFETY: the bytes are WTF-8 (checked just now), the form `as_encoded_bytes`
            // gives on Windows, whole (no code point is cut).
            Cow::Borrowed(unsafe { OsStr::from_encoded_bytes_unchecked(bytes) })
        } else {
            Cow::Owned(OsString::from(String::from_utf8_lossy(bytes).into_owned()))
        }
    }
}

/// Path bytes as an owned `OsString`.
pub fn os_string(bytes: Vec<u8>) -> OsString {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        OsString::from_vec(bytes)
    }
    #[cfg(windows)]
    {
        if is_wtf8(&bytes) {
            // SAFETY: as in `os_str`.
            unsafe { OsString::from_encoded_bytes_unchecked(bytes) }
        } else {
            OsString::from(String::from_utf8_lossy(&bytes).into_owned())
        }
    }
}

/// Path bytes as a `Path`.
pub fn os_path(bytes: &[u8]) -> Cow<'_, Path> {
    match os_str(bytes) {
        Cow::Borrowed(s) => Cow::Borrowed(Path::new(s)),
        Cow::Owned(s) => Cow::Owned(s.into()),
    }
}

/// Whether `bytes` are WTF-8: UTF-8 in which a surrogate code point may stand alone (encoded
/// as UTF-8 would encode it), but never a lead surrogate right before a trail one (that pair
/// is one code point, written in four bytes).
#[cfg_attr(unix, allow(dead_code))]
pub(super) fn is_wtf8(mut bytes: &[u8]) -> bool {
    let mut after_lead = false;
    loop {
        match std::str::from_utf8(bytes) {
            Ok(_) => return true,
            Err(e) => {
                let at = e.valid_up_to();
                if at > 0 {
                    after_lead = false;
                }
                let rest = &bytes[at..];
                // A surrogate: ED A0..BF 80..BF, which UTF-8 refuses.
                if rest.len() >= 3
                    && rest[0] == 0xED
                    && (0xA0..=0xBF).contains(&rest[1])
                    && (0x80..=0xBF).contains(&rest[2])
                {
                    let lead = rest[1] < 0xB0;
                    if !lead && after_lead && at == 0 {
                        return false;
                    }
                    after_lead = lead;
                    bytes = &rest[3..];
                } else {
                    return false;
                }
            }
        }
    }
}

/// What a system error means, as far as ffind's decisions go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// The path or a component of it does not exist.
    NotFound,
    /// A component that should be a directory is not one.
    NotADirectory,
    /// A symlink where none may be followed, or too many links.
    Loop,
    /// An invalid argument (as `/proc` says of a vanished process's entries).
    Invalid,
    /// Permission denied.
    Denied,
    /// The device is full (what a full disk says to a write; tests make it).
    #[cfg_attr(not(test), allow(dead_code))]
    NoSpace,
    /// A rename across devices.
    CrossDevice,
    /// A name or path too long.
    NameTooLong,
    /// A directory where a file was wanted.
    IsADirectory,
    /// The reader of a pipe is gone (`ffind | head`).
    BrokenPipe,
}

impl Fault {
    /// The system's codes for this fault (the first is the one [`Fault::error`] makes).
    fn codes(self) -> &'static [i32] {
        #[cfg(unix)]
        {
            match self {
                Fault::NotFound => &[libc::ENOENT],
                Fault::NotADirectory => &[libc::ENOTDIR],
                Fault::Loop => &[libc::ELOOP],
                Fault::Invalid => &[libc::EINVAL],
                Fault::Denied => &[libc::EACCES],
                Fault::NoSpace => &[libc::ENOSPC],
                Fault::CrossDevice => &[libc::EXDEV],
                Fault::NameTooLong => &[libc::ENAMETOOLONG],
                Fault::IsADirectory => &[libc::EISDIR],
                Fault::BrokenPipe => &[libc::EPIPE],
            }
        }
        #[cfg(windows)]
        {
            // Win32 error codes (winerror.h).
            match self {
                // ERROR_FILE_NOT_FOUND, ERROR_PATH_NOT_FOUND, ERROR_INVALID_NAME (a name no
                // Windows file system can hold cannot exist either).
                Fault::NotFound => &[2, 3, 123],
                // ERROR_DIRECTORY ("the directory name is invalid": not a directory).
                Fault::NotADirectory => &[267],
                // ERROR_CANT_RESOLVE_FILENAME, ERROR_STOPPED_ON_SYMLINK.
                Fault::Loop => &[1921, 681],
                // ERROR_INVALID_PARAMETER.
                Fault::Invalid => &[87],
                // ERROR_DISK_FULL, ERROR_HANDLE_DISK_FULL.
                Fault::NoSpace => &[112, 39],
                // ERROR_ACCESS_DENIED, ERROR_SHARING_VIOLATION.
                Fault::Denied => &[5, 32],
                // ERROR_NOT_SAME_DEVICE.
                Fault::CrossDevice => &[17],
                // ERROR_FILENAME_EXCED_RANGE.
                Fault::NameTooLong => &[206],
                // Windows says access denied when a directory is opened as a file: the
                // Windows readers make this one an error of its own kind ([`Fault::error`]).
                Fault::IsADirectory => &[],
                // ERROR_BROKEN_PIPE and ERROR_NO_DATA (what Windows says to a write into a
                // pipe its reader closed), and ERROR_PIPE_NOT_CONNECTED (what Wine says).
                Fault::BrokenPipe => &[109, 232, 233],
            }
        }
    }

    /// Whether `e` is this fault.
    pub fn is(self, e: &io::Error) -> bool {
        match e.raw_os_error() {
            Some(c) => self.codes().contains(&c),
            None => self == Fault::IsADirectory && e.kind() == io::ErrorKind::IsADirectory,
        }
    }

    /// An error of this fault, as the system would have said it (where the system has no code
    /// of its own for it, an error of the kind std gives it).
    pub fn error(self) -> io::Error {
        match self.codes().first() {
            Some(&c) => io::Error::from_raw_os_error(c),
            None => io::Error::from(io::ErrorKind::IsADirectory),
        }
    }
}

/// Whether the system marks entries hidden apart from their names (Windows' hidden
/// attribute): where it does not, nothing asks ([`marked_hidden`] is never called).
pub const MARKS_HIDDEN: bool = cfg!(windows);

/// Whether the entry at `path` (a link itself, not what it leads to) carries the system's
/// hidden mark: Windows' `FILE_ATTRIBUTE_HIDDEN`. Always false on Unix, without a call.
pub fn marked_hidden(path: &std::path::Path) -> bool {
    #[cfg(unix)]
    {
        let _ = path;
        false
    }
    #[cfg(windows)]
    {
        std::fs::symlink_metadata(path).is_ok_and(|m| hidden_in(&m))
    }
}

/// An entry of a listing made by path (the walker crates' `DirEntry`s, std's `read_dir`):
/// what it says of itself without a call. One trait for every such reader, so that a method
/// that reads by path names no system: `crate::fs::ListedEntry::listed_ino(&entry)`.
pub trait ListedEntry {
    /// Its inode number, where the system gives one with the listing (Unix's `d_ino`);
    /// `None` on Windows, where only an open handle says its file id, and where the reader
    /// keeps none (jwalk's entries).
    fn listed_ino(&self) -> Option<u64>;
}

#[cfg(feature = "walkdir")]
impl ListedEntry for walkdir::DirEntry {
    fn listed_ino(&self) -> Option<u64> {
        #[cfg(unix)]
        {
            Some(walkdir::DirEntryExt::ino(self))
        }
        #[cfg(windows)]
        {
            None
        }
    }
}

#[cfg(feature = "ignore")]
impl ListedEntry for ignore::DirEntry {
    fn listed_ino(&self) -> Option<u64> {
        #[cfg(unix)]
        {
            self.ino()
        }
        #[cfg(windows)]
        {
            None
        }
    }
}

impl ListedEntry for std::fs::DirEntry {
    fn listed_ino(&self) -> Option<u64> {
        #[cfg(unix)]
        {
            Some(std::os::unix::fs::DirEntryExt::ino(self))
        }
        #[cfg(windows)]
        {
            None
        }
    }
}

#[cfg(feature = "jwalk")]
impl<C: jwalk::ClientState> ListedEntry for jwalk::DirEntry<C> {
    fn listed_ino(&self) -> Option<u64> {
        None
    }
}

/// Whether a walker crate's entry carries the system's hidden mark ([`marked_hidden`]), from
/// `metadata`: the metadata the entry kept from the listing (walkdir's and the `ignore`
/// crate's `DirEntry::metadata` on Windows, attributes included: no call). `None` where it
/// gives none (ask [`marked_hidden`]). `Some(false)` on Unix, without calling `metadata`. The
/// walks list with `follow_links(false)`, so the metadata is the entry's own.
pub fn hidden_of_entry<E>(metadata: impl FnOnce() -> Result<std::fs::Metadata, E>) -> Option<bool> {
    #[cfg(unix)]
    {
        let _ = metadata;
        Some(false)
    }
    #[cfg(windows)]
    {
        metadata().ok().map(|m| hidden_in(&m))
    }
}

/// FILE_ATTRIBUTE_HIDDEN in `m`'s attributes.
#[cfg(windows)]
fn hidden_in(m: &std::fs::Metadata) -> bool {
    use std::os::windows::fs::MetadataExt;
    m.file_attributes() & 0x2 != 0
}

/// Names a file can have here that are not UTF-8, as the walk reads them: any bytes on Unix;
/// on Windows, UTF-16 with a surrogate standing alone, which reads as WTF-8 (the surrogate in
/// three bytes). For the tests of what matches such names.
#[cfg(any(test, feature = "testing"))]
pub fn names_not_utf8() -> [&'static [u8]; 5] {
    #[cfg(unix)]
    {
        [b"\xff.o", b"a\xff", b"x\xffy", b"\xff", b"b\xfe\xff"]
    }
    #[cfg(windows)]
    {
        // A trail surrogate before a lead one is two lone surrogates, not a pair.
        [
            b"\xed\xa0\x80.o",
            b"a\xed\xa0\x80",
            b"x\xed\xb0\x80y",
            b"\xed\xa0\x80",
            b"b\xed\xb0\x80\xed\xa0\x80",
        ]
    }
}

/// Makes `link`, a symbolic link to `target` (read from `link`'s directory, as the system
/// reads it), for the tests that swap one in. On Windows a link to a directory is a
/// directory link, and making one needs a privilege; Wine reports success and makes nothing,
/// so what was made is looked at. Where no link could be made, the error says so
/// ([`io::ErrorKind::Unsupported`], or the system's refusal).
#[cfg(any(test, feature = "testing"))]
pub fn symlink(target: &Path, link: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(target, link)
    }
    #[cfg(windows)]
    {
        let from = link.parent().unwrap_or(Path::new("."));
        if from.join(target).is_dir() {
            std::os::windows::fs::symlink_dir(target, link)?;
        } else {
            std::os::windows::fs::symlink_file(target, link)?;
        }
        if !std::fs::symlink_metadata(link).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(io::Error::new(
                io::ErrorKind::Unsupported,
                format!("no symbolic link was made at {}", link.display()),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wtf8_is_utf8_with_lone_surrogates() {
        assert!(is_wtf8(b"plain"));
        assert!(is_wtf8("caf\u{e9}".as_bytes()));
        // A lone lead surrogate (U+D800), and a lone trail one (U+DC00) after text.
        assert!(is_wtf8(b"a\xED\xA0\x80b"));
        assert!(is_wtf8(b"a\xED\xB0\x80"));
        // A pair written as two surrogates is not WTF-8 (it is one code point).
        assert!(!is_wtf8(b"\xED\xA0\x80\xED\xB0\x80"));
        // Not UTF-8 at all.
        assert!(!is_wtf8(b"\xFF"));
        assert!(!is_wtf8(b"a\xED\xA0"));
    }

    #[test]
    fn bytes_go_back_and_forth() {
        let s = os_str(b"dir/na\xC3\xAFve");
        assert_eq!(s.as_encoded_bytes(), b"dir/na\xC3\xAFve");
        assert_eq!(os_string(b"x".to_vec()), OsString::from("x"));
        assert_eq!(os_path(b"a/b"), Path::new("a/b"));
    }

    // What a config file's line or another value read as bytes becomes on Windows.
    #[test]
    #[cfg(windows)]
    fn bytes_that_are_not_wtf8_are_replaced() {
        assert_eq!(
            os_string(b"caf\xE9".to_vec()),
            OsString::from("caf\u{FFFD}")
        );
        assert_eq!(os_str(b"a\xFFb"), OsStr::new("a\u{FFFD}b"));
        // A lone surrogate, which a Windows name may hold, is kept.
        let lone = b"a\xED\xA0\x80".to_vec();
        assert_eq!(os_string(lone.clone()).as_encoded_bytes(), lone);
    }

    #[test]
    fn faults_are_recognised_by_meaning() {
        for f in [
            Fault::NotFound,
            Fault::Loop,
            Fault::Denied,
            Fault::Invalid,
            Fault::IsADirectory,
        ] {
            assert!(f.is(&f.error()));
        }
        assert!(!Fault::NotFound.is(&Fault::Denied.error()));
        assert!(!Fault::IsADirectory.is(&Fault::Denied.error()));
        assert!(Fault::NotFound.is(&std::fs::metadata("/no/such/ffind/path").unwrap_err()));
    }
}
