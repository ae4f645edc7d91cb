//! A search root (or a directory below it that the walk keeps open) swapped for a link to a
//! tree outside the search during the walk: whatever a directory is opened again
//! through, it must be the directory the walk met first there, reached without following a
//! link the walk would not follow. Nothing of the outside tree is ever printed; a root found
//! replaced is said once and skipped, as a directory that vanished (docs/SECURITY.md).
//!
//! The walk is paused mid-way by its own output: the test reads the first bytes, lets the pipe
//! fill (the printer waits for its reader, and the walkers for the printer), swaps, then reads
//! the rest. Breadth first, a whole level of 2,400 directories waits for its parents, which
//! the descriptor budget cannot all keep open, so the walk reopens them by their paths even at
//! the usual `ulimit -n 1024`; under `ulimit -n 24` depth first does too.

use std::collections::HashSet;
use std::fs;
use std::io::Read;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::fixture::{bin, clean_env};
use crate::methods::{breadth_methods, methods};

/// Directories on each level of the tree searched (and of the outside tree).
const WIDE: usize = 2_400;

/// What is swapped for a link to the outside tree.
#[derive(Clone, Copy, Debug)]
enum Swapped {
    /// The search root itself, `R`.
    Root,
    /// `R/top`, the one directory below the root, holding the wide level.
    Ancestor,
}

/// `base/R/top/d{i}/s/in` and the outside tree `base/O/...` of the same shape, whose only
/// file is named `OUTSIDE` (and `base/O/top`, for a swapped ancestor).
fn build(base: &Path) {
    for (tree, leaf) in [("R", "in"), ("O", "OUTSIDE")] {
        for i in 0..WIDE {
            let dir = base.join(format!("{tree}/top/d{i}/s"));
            fs::create_dir_all(&dir).unwrap();
            fs::write(dir.join(leaf), "").unwrap();
        }
    }
}

/// Every path a full search of `R` prints.
fn expected() -> HashSet<String> {
    let mut all = HashSet::from(["R/top".to_owned()]);
    for i in 0..WIDE {
        for rel in ["", "/s", "/s/in"] {
            all.insert(format!("R/top/d{i}{rel}"));
        }
    }
    all
}

/// Runs one search of `R` in `base` and swaps `what` for a link into `O` once the walk has
/// printed its first bytes; puts the tree back after. Returns stdout, stderr and the exit code.
fn search_and_swap(
    base: &Path,
    home: &Path,
    method: &str,
    breadth: bool,
    nofile: u32,
    what: Swapped,
) -> (String, String, i32) {
    let order = if breadth { "--order breadth" } else { "" };
    let script = format!("ulimit -n {nofile} && exec \"$FFIND\" -u --method {method} {order} . R");
    let mut cmd = Command::new("bash");
    cmd.args(["-c", &script]).current_dir(base);
    clean_env(&mut cmd, home);
    let mut child = cmd
        .env("FFIND", bin())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read on the side: a full stderr pipe would stop the search before its stdout ends.
    let mut stderr = child.stderr.take().unwrap();
    let errors = std::thread::spawn(move || {
        let mut err = String::new();
        stderr.read_to_string(&mut err).unwrap();
        err
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut first = vec![0; 4096];
    let n = stdout.read(&mut first).unwrap();
    first.truncate(n);
    let (real, link, target) = match what {
        Swapped::Root => ("R", "R.real", "O"),
        Swapped::Ancestor => ("R/top", "R/top.real", "../O/top"),
    };
    fs::rename(base.join(real), base.join(link)).unwrap();
    symlink(target, base.join(real)).unwrap();
    let mut rest = Vec::new();
    stdout.read_to_end(&mut rest).unwrap();
    let stderr = errors.join().unwrap();
    let code = child.wait().unwrap().code().unwrap_or(-1);
    fs::remove_file(base.join(real)).unwrap();
    fs::rename(base.join(link), base.join(real)).unwrap();
    first.extend(rest);
    (String::from_utf8(first).unwrap(), stderr, code)
}

#[test]
fn a_root_or_an_open_ancestor_swapped_for_a_link_never_leads_outside() {
    let tmp = tempfile::tempdir().unwrap();
    let (base, home) = (tmp.path().join("base"), tmp.path().join("home"));
    fs::create_dir_all(&home).unwrap();
    build(&base);
    let expected = expected();
    let mut replaced_said = 0;
    for what in [Swapped::Root, Swapped::Ancestor] {
        for method in methods() {
            // Breadth first only where the method walks so (the walker crates do not).
            let breadth_too = breadth_methods().contains(&method);
            for breadth in [false, true].into_iter().filter(|b| !*b || breadth_too) {
                for nofile in [24, 1024] {
                    let case = format!("{what:?} --method {method} breadth={breadth} -n {nofile}");
                    let (out, err, code) =
                        search_and_swap(&base, &home, method, breadth, nofile, what);
                    let lines: Vec<&str> = out.lines().collect();
                    let outside: Vec<&&str> = lines
                        .iter()
                        .filter(|l| l.contains("OUTSIDE"))
                        .take(5)
                        .collect();
                    assert!(outside.is_empty(), "{case}: printed {outside:?}\n{err}");
                    let unique: HashSet<&str> = lines.iter().copied().collect();
                    assert_eq!(unique.len(), lines.len(), "{case}: printed twice");
                    // Directories are printed with a '/' after them, as fd does.
                    let strange: Vec<&&str> = lines
                        .iter()
                        .filter(|l| !expected.contains(l.trim_end_matches('/')))
                        .take(5)
                        .collect();
                    assert!(strange.is_empty(), "{case}: {strange:?}");
                    // What is said: at most once that the root was replaced, and an exit
                    // status that says whether anything was.
                    let said = err.matches("replaced during the search").count();
                    assert!(said <= 1, "{case}: said {said} times:\n{err}");
                    replaced_said += said;
                    assert_eq!(code, i32::from(!err.is_empty()), "{case}: {err}");
                    if said == 1 {
                        assert!(err.starts_with("ffind: R: replaced"), "{case}: {err}");
                    }
                }
            }
        }
    }
    // The swaps did happen within the walks: breadth first, the root is opened again by its
    // path, and found replaced.
    assert!(replaced_said > 0, "no walk found the root replaced");
}
