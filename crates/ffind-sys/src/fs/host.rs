//! What the system is, for the floors above that must adapt to it or tell the user what it
//! lacks: its name in messages, its path separators and default separator, the null device, a
//! device file's number, and what ffind cannot do there (the memo, `--mpi`; owners are
//! `users.rs`'s).

use std::path::Path;

/// The system's name, as messages say it ("--owner is not supported on Windows").
pub const SYSTEM: &str = if cfg!(windows) {
    "Windows"
} else if cfg!(target_os = "macos") {
    "macOS"
} else if cfg!(target_os = "linux") {
    "Linux"
} else {
    std::env::consts::OS
};

/// The separator the system writes between a path's components, and joins names with (`\` on
/// Windows, as `std::path::MAIN_SEPARATOR`).
pub const SEPARATOR: u8 = std::path::MAIN_SEPARATOR as u8;

/// The current directory as the start of a relative path: "./", on Windows too, as fd writes
/// it there (`./src\main.rs` for `-0`, `-x` and `--strip-cwd-prefix=never`).
pub const CURRENT_DIR: &[u8] = b"./";

/// Whether `b` separates a path's components: `/`, and on Windows `\` too (a search path
/// typed `C:/src` keeps its `/`, and joins its entries with `\`, as fd shows it).
#[inline]
pub fn is_separator(b: u8) -> bool {
    b == b'/' || b == SEPARATOR
}

/// The separator that makes a search pattern (without `--full-path`) a usage error, as it
/// would match no file name: a `/` on Unix, which no name holds; on Windows, as fd.exe decides,
/// a `\` where the pattern names a directory (`\` is a regex's escape too: `\d+`), and never a
/// `/` (fd.exe takes `-g '**/*.rs'`, which matches names).
pub fn pattern_separator(pattern: &str) -> Option<char> {
    if SEPARATOR == b'/' {
        pattern.contains('/').then_some('/')
    } else {
        let sep = SEPARATOR as char;
        (pattern.contains(sep) && Path::new(pattern).is_dir()).then_some(sep)
    }
}

/// The separator shown between a result's components when `--path-separator` is not given:
/// `/` under MSYS2 and Git Bash on Windows (they set `MSYSTEM`), as fd does there; else the
/// system's own (`None`).
pub fn default_separator() -> Option<&'static str> {
    let msys = std::env::var_os("MSYSTEM").is_some_and(|v| !v.is_empty());
    (SEPARATOR != b'/' && msys).then_some("/")
}

/// Whether the directory memo (`--cache`) can be used: its validation rests on POSIX
/// directory times read through `fstatat` beneath a held descriptor (docs/CACHE.md); NTFS
/// times through handles are not the same promise, and nothing here can test them.
pub const HAS_MEMO: bool = cfg!(unix);

/// Whether [`Dir::open_parent`](super::Dir::open_parent) opens `..` beneath the directory's
/// own descriptor, and so reaches its parent wherever a rename of an ancestor has put it.
/// Windows opens the parent of the path the handle has now (and under Wine that path does
/// not follow such a rename). Asked by the tests of `walk/descriptors.rs`.
#[cfg(any(test, feature = "testing"))]
pub const PARENT_BY_HANDLE: bool = cfg!(unix);

/// Whether `--mpi` can run here (Linux clusters: docs/SCALE.md).
pub const HAS_MPI: bool = cfg!(target_os = "linux");

/// Whether `path` is the null device (`/dev/null`, whatever its name, on Unix; `NUL` on
/// Windows), which reads as empty and is never waited on.
pub fn is_null_device(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{FileTypeExt, MetadataExt};
        let rdev = |p: &Path| {
            std::fs::metadata(p)
                .ok()
                .filter(|m| m.file_type().is_char_device())
                .map(|m| m.rdev())
        };
        rdev(path).is_some_and(|dev| rdev(Path::new("/dev/null")) == Some(dev))
    }
    #[cfg(windows)]
    {
        // `NUL` is a reserved name in every directory (`C:\x\nul` is the device too), and
        // `\\.\NUL` names it whole.
        let whole = path.to_string_lossy().to_ascii_lowercase();
        whole == r"\\.\nul"
            || path
                .file_name()
                .is_some_and(|n| n.eq_ignore_ascii_case("nul"))
    }
}

/// The device a block or character device file stands for (`st_rdev`; 0 when it cannot be
/// read, and always on Windows, which has no device files).
pub fn device_of(path: &[u8]) -> u64 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(super::os_path(path)).map_or(0, |md| md.rdev())
    }
    #[cfg(windows)]
    {
        let _ = path;
        0
    }
}
