//! Never escape the search root without `-L`: directories swapped for symlinks to a directory
//! outside the root while the walk runs must never be followed, by any method.

use std::ffi::CString;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::fixture::Tree;
use crate::methods::methods;

/// Pairs of names that trade places: one a real directory, the other a link to outside.
const PAIRS: usize = 16;

#[test]
fn directories_swapped_for_links_to_outside_are_never_followed() {
    let t = Tree::new();
    let outside = t.root().parent().unwrap().join("outside");
    for i in 0..40 {
        let sub = outside.join(format!("SECRET-dir-{i}"));
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::write(sub.join("SECRET-file"), "").unwrap();
        std::fs::write(outside.join(format!("SECRET-{i}")), "").unwrap();
    }
    for i in 0..PAIRS {
        t.files(&[&format!("swap{i}/a/inside"), &format!("swap{i}/b")]);
        t.link(outside.to_str().unwrap(), &format!("alt{i}"));
    }
    let root = t.root();
    let stop = Arc::new(AtomicBool::new(false));
    let stopper = stop.clone();
    let swapper = std::thread::spawn(move || {
        let names: Vec<(CString, CString)> = (0..PAIRS)
            .map(|i| {
                let at = |n: String| CString::new(root.join(n).to_str().unwrap()).unwrap();
                (at(format!("swap{i}")), at(format!("alt{i}")))
            })
            .collect();
        while !stopper.load(Ordering::Relaxed) {
            for (a, b) in &names {
                // SAFETY: two valid NUL-terminated paths; an atomic exchange of two names.
                unsafe {
                    libc::renameat2(
                        libc::AT_FDCWD,
                        a.as_ptr(),
                        libc::AT_FDCWD,
                        b.as_ptr(),
                        libc::RENAME_EXCHANGE,
                    );
                }
            }
        }
    });
    let mut escapes = Vec::new();
    for round in 0..crate::fixture::rounds(80) {
        for m in methods() {
            // One run in four under few descriptors: parents lose their descriptors and are
            // opened again, from an ancestor or through a child's `..` (src/walk/descriptors.rs).
            let run = if round % 4 == 3 {
                t.run_script(&format!(
                    "ulimit -n 16 && exec \"$FFIND\" -u --method {m} -j 4"
                ))
            } else {
                t.run(&["-u", "--method", m, "-j", "4"])
            };
            let out = String::from_utf8_lossy(&run.stdout);
            if out.contains("SECRET") || run.stderr.contains("SECRET") {
                let lines: Vec<&str> = out.lines().filter(|l| l.contains("SECRET")).collect();
                escapes.push(format!("{m} round {round}: {lines:?} {}", run.stderr));
            }
        }
    }
    stop.store(true, Ordering::Relaxed);
    swapper.join().unwrap();
    assert!(escapes.is_empty(), "{}", escapes.join("\n"));
}
