//! What the option tests share (`patterns.rs`, `types.rs`, `metadata.rs`, `depth_exclude.rs`):
//! the check for usage errors, and paths as C strings for the libc calls that build fifos,
//! device nodes and foreign owners.

#[cfg(unix)]
use std::ffi::CString;
#[cfg(unix)]
use std::os::unix::ffi::OsStrExt;
#[cfg(unix)]
use std::path::Path;

use crate::fixture::Tree;

/// Asserts a usage error: exit code 2, a message naming `needle`, nothing printed. The search
/// path does not exist, so a walk that started anyway would say so too.
pub fn assert_usage_error(t: &Tree, args: &[&str], needle: &str) {
    let mut full = args.to_vec();
    full.extend(["--search-path", "no-such-directory"]);
    let run = t.run(&full);
    assert_eq!(run.code, 2, "{full:?}: exit code; stderr: {}", run.stderr);
    assert!(run.stdout.is_empty(), "{full:?} printed {:?}", run.sorted());
    assert!(
        run.stderr.contains(needle),
        "{full:?}: stderr does not mention {needle:?}: {}",
        run.stderr
    );
    assert!(
        !run.stderr.contains("no-such-directory"),
        "{full:?} walked before failing: {}",
        run.stderr
    );
}

/// `p` as a NUL-terminated C string, for libc calls.
#[cfg(unix)]
pub fn c_path(p: &Path) -> CString {
    CString::new(p.as_os_str().as_bytes()).unwrap()
}
