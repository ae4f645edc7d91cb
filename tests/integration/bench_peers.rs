//! benches/peers.py's bfs 4: a bfs 4 is timed as "bfs 4 with io_uring" only when it
//! links liburing. A bfs4 that does not (`ldd` lists no liburing, `--version`'s LDLIBS has no
//! `-luring`: what bfs's configure builds when it cannot find liburing.pc) is refused.

use std::path::Path;
use std::process::Command;

use crate::fixture::{have, Tree};

/// `peers.py bfs4` with `$BFS4` naming an executable script that prints `version` for
/// `--version`: its exit code and stderr.
fn peers_bfs4(t: &Tree, version: &str) -> (i32, String) {
    let fake = t.home().join("bfs4");
    std::fs::write(&fake, format!("#!/bin/sh\nprintf '%s\\n' '{version}'\n")).unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let peers = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/peers.py");
    let out = Command::new("python3")
        .arg(peers)
        .arg("bfs4")
        .env("BFS4", &fake)
        .env("FFIND_PEERS", t.home().join("peers"))
        .env_remove("BFS_SRC")
        .env_remove("LIBURING_SRC")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_bfs4_without_liburing_is_refused() {
    if !have("python3") || !have("ldd") {
        eprintln!("skipped: no python3 or ldd");
        return;
    }
    let t = Tree::new();
    let (code, stderr) = peers_bfs4(&t, "LDLIBS    := -lacl -lcap -lonig  -lrt");
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("does not link liburing"), "{stderr}");
    // Built with io_uring (statically, so only --version says so): accepted.
    let (code, stderr) = peers_bfs4(&t, "LDLIBS    := -lacl -lcap -luring -lonig  -lrt");
    assert_eq!(code, 0, "{stderr}");
}
