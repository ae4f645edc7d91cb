//! The `--mpi` tests: `cargo test --features mpi --test mpi` (CI runs them after the default
//! suite; they need Open MPI's `mpirun`). Each check runs ffind under
//! `mpirun --oversubscribe --bind-to none -n N` (with `--allow-run-as-root`), N = 1, 2 and 4,
//! and holds it to what one process prints: the same records (no duplicate, nothing lost), the
//! same messages, the same exit status.
//!
//! Half the runs set `FFIND_MPI_DEBUG=share-all`: a process asked for work then hands over
//! every directory it has queued, so that most directories are read by another process than
//! the one that found them, their state rebuilt from their path (deep in repositories, below
//! links, at depth limits), whatever the timing. The others share as ffind does.

#[allow(dead_code)]
#[path = "../integration/fixture.rs"]
mod fixture;
#[allow(dead_code)]
#[path = "../integration/random_tree.rs"]
mod random_tree;
#[allow(dead_code)]
#[path = "../integration/reference.rs"]
mod reference;

mod faults;
mod output;
mod parity;
mod proptest_parity;
mod swapped_root;

use std::process::{Command, Stdio};

use crate::fixture::{bin, clean_env, is_root, Run, Tree};

/// How the checks launch: (processes, hand over every queued directory when asked).
pub const LAUNCHES: [(usize, bool); 4] = [(1, false), (2, true), (4, true), (4, false)];

/// The words that start a program under mpirun with `n` processes: oversubscribed (more
/// processes than cores), unbound (a process gets every core for its threads), quiet (no
/// banner of mpirun's own when the job exits non-zero), on one node's shared memory.
pub fn mpirun(n: usize, share_all: bool) -> Vec<String> {
    let mut words: Vec<String> = [
        "mpirun",
        "--oversubscribe",
        "--bind-to",
        "none",
        "-q",
        "--mca",
        "pml",
        "ob1",
        "--mca",
        "btl",
        "self,vader",
        // Containers often forbid the cross-process copy (ptrace rights) that shared memory
        // uses for large messages: copy through the shared segment instead.
        "--mca",
        "btl_vader_single_copy_mechanism",
        "none",
        "-n",
    ]
    .map(String::from)
    .to_vec();
    words.push(n.to_string());
    if is_root() {
        words.push("--allow-run-as-root".into());
    }
    if share_all {
        words.extend(["-x", "FFIND_MPI_DEBUG=share-all"].map(String::from));
    }
    words
}

/// `mpirun ... ffind --mpi args` in the tree's root, with the fixture's clean environment.
pub fn command(t: &Tree, n: usize, share_all: bool, args: &[&str]) -> Command {
    let words = mpirun(n, share_all);
    let mut c = Command::new(&words[0]);
    c.args(&words[1..])
        .arg(bin())
        .arg("--mpi")
        .args(args)
        .current_dir(t.root())
        .stdin(Stdio::null());
    clean_env(&mut c, &t.home());
    c
}

/// Runs `mpirun ... ffind --mpi args` in the tree's root.
pub fn run(t: &Tree, n: usize, share_all: bool, args: &[&str]) -> Run {
    Run::from(command(t, n, share_all, args).output().unwrap())
}

/// The sorted lines of a run's stderr.
pub fn messages(run: &Run) -> Vec<&str> {
    let mut lines: Vec<&str> = run.stderr.lines().collect();
    lines.sort_unstable();
    lines
}

/// Holds every launch of `args` (with `-0`) to what one process prints: the same records,
/// none twice, the same messages, the same exit status. Returns one process's run.
pub fn agree(t: &Tree, args: &[&str]) -> Run {
    let mut full = vec!["-0"];
    full.extend_from_slice(args);
    let one = t.run(&full);
    let want = one.sorted_by(0);
    for (n, share_all) in LAUNCHES {
        let what = format!("mpirun -n {n} ffind --mpi {full:?} (share-all: {share_all})");
        let got = run(t, n, share_all, &full);
        compare(&what, &one, &want, &got);
    }
    one
}

/// `got` against one process's run `one` (whose records are `want`).
pub fn compare(what: &str, one: &Run, want: &[Vec<u8>], got: &Run) {
    let records = got.sorted_by(0);
    let mut unique = records.clone();
    unique.dedup();
    assert_eq!(unique.len(), records.len(), "{what}: a record twice");
    if records != want {
        let show = |v: &[&Vec<u8>]| -> Vec<String> {
            v.iter().map(|r| r.escape_ascii().to_string()).collect()
        };
        let missing: Vec<_> = want.iter().filter(|w| !records.contains(w)).collect();
        let extra: Vec<_> = records.iter().filter(|r| !want.contains(r)).collect();
        panic!(
            "{what}: not what one process prints: missing {:?}, extra {:?}; stderr:\n{}",
            show(&missing),
            show(&extra),
            got.stderr
        );
    }
    assert_eq!(messages(got), messages(one), "{what}: messages");
    assert_eq!(got.code, one.code, "{what}: exit status; {}", got.stderr);
}
