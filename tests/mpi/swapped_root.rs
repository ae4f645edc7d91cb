//! A search root swapped for a link to a tree outside the search while the launcher's `-n 2` searches
//! it, every directory handed over: a process rebuilding a handed directory opens
//! the root again by its path, and must find the directory the search met there first (each
//! process records it before the search starts), or skip it. Nothing outside is printed, and
//! each process says it at most once.

use std::collections::HashSet;
use std::fs;
use std::io::Read;
use std::os::unix::fs::symlink;
use std::process::Stdio;

use crate::fixture::{clean_env, Tree};

#[test]
fn a_root_swapped_during_a_distributed_search_never_leads_outside() {
    if crate::skip() {
        return;
    }
    const WIDE: usize = 1_200;
    let t = Tree::new();
    let base = t.root();
    for (tree, leaf) in [("R", "in"), ("O", "OUTSIDE")] {
        for i in 0..WIDE {
            let dir = base.join(format!("{tree}/d{i}/s"));
            fs::create_dir_all(&dir).unwrap();
            fs::write(dir.join(leaf), "").unwrap();
        }
    }
    let mut found_replaced = false;
    // -u: a process rebuilding a handed directory opens nothing above it, and the root is
    // opened (and checked) only when a directory below it is; the default reads the ignore
    // files of every directory above, the root first; -L also records each one's identity.
    let kinds: [&[&str]; 3] = [&["-u"], &[], &["-u", "-L"]];
    for round in 0..6 {
        let words = crate::mpirun(2, true);
        let mut cmd = std::process::Command::new(&words[0]);
        cmd.args(&words[1..])
            .arg(crate::fixture::bin())
            .arg("--mpi")
            .args(kinds[round % kinds.len()])
            .args([".", "R"])
            .current_dir(&base)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        clean_env(&mut cmd, &t.home());
        let mut child = cmd.spawn().unwrap();
        // Read on the side: a full stderr pipe would stop mpirun before its stdout ends.
        let mut stderr = child.stderr.take().unwrap();
        let errors = std::thread::spawn(move || {
            let mut err = String::new();
            stderr.read_to_string(&mut err).unwrap();
            err
        });
        let mut out = child.stdout.take().unwrap();
        let mut first = vec![0; 1024];
        let n = out.read(&mut first).unwrap();
        first.truncate(n);
        fs::rename(base.join("R"), base.join("R.real")).unwrap();
        symlink("O", base.join("R")).unwrap();
        let mut rest = Vec::new();
        out.read_to_end(&mut rest).unwrap();
        let err = errors.join().unwrap();
        let code = child.wait().unwrap().code();
        fs::remove_file(base.join("R")).unwrap();
        fs::rename(base.join("R.real"), base.join("R")).unwrap();
        first.extend(rest);
        let text = String::from_utf8(first).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let outside: Vec<&&str> = lines
            .iter()
            .filter(|l| l.contains("OUTSIDE"))
            .take(5)
            .collect();
        assert!(
            outside.is_empty(),
            "round {round}: printed {outside:?}\n{err}"
        );
        let unique: HashSet<&&str> = lines.iter().collect();
        assert_eq!(unique.len(), lines.len(), "round {round}: printed twice");
        assert_eq!(
            code,
            Some(i32::from(!err.is_empty())),
            "round {round}: {err}"
        );
        // Said at most once by each process that met it (2 here).
        let said = err.matches("replaced during the search").count();
        assert!(said <= 2, "round {round}: said {said} times:\n{err}");
        found_replaced |= said > 0;
    }
    eprintln!("a process found the root replaced: {found_replaced}");
}
