//! The `--mpi` tests: `cargo test --features mpi --test mpi` (.ci/mpi.sh runs them after the
//! default suite, under every launcher). Each check runs ffind under a launcher with N = 1, 2
//! and 4 processes on this one node, and holds it to what one process prints: the same records
//! (no duplicate, nothing lost), the same messages, the same exit status.
//!
//! The launcher is `FFIND_MPI_LAUNCHER`'s (see [`launcher`]): Open MPI's `mpirun` (the
//! default: `--oversubscribe --bind-to none`, `--allow-run-as-root` as root), MPICH's
//! `mpiexec.mpich` (Hydra), or Slurm's `srun --overcommit` (with `--mpi=$FFIND_SRUN_MPI`:
//! `pmix` for Open MPI, `pmi2` for MPICH) on a cluster `.ci/slurm-up.sh` starts. The ffind
//! under test must be built against the launcher's MPI (`MPICC=mpicc.mpich` for MPICH, in a
//! target directory of its own: docs/SCALE.md).
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

/// The launchers the suite runs under, picked by `FFIND_MPI_LAUNCHER`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Open MPI's `mpirun` (the default).
    OpenMpi,
    /// MPICH's `mpiexec.mpich` (Hydra).
    Hydra,
    /// Slurm's `srun`, on a running cluster (`.ci/slurm-up.sh` starts one).
    Srun,
}

/// The launcher: `FFIND_MPI_LAUNCHER` = `mpirun` (Open MPI; the default), `mpiexec.mpich`
/// (MPICH's Hydra) or `srun` (Slurm, with `--mpi=$FFIND_SRUN_MPI`, default `pmix`). `None`
/// when the variable is unset and `mpirun` is missing: the tests then say they are skipped.
/// A launcher the variable names must be there (CI names it): the tests fail without it.
pub fn launcher() -> Option<Kind> {
    static KIND: std::sync::OnceLock<Option<Kind>> = std::sync::OnceLock::new();
    *KIND.get_or_init(|| {
        let named = std::env::var("FFIND_MPI_LAUNCHER").ok();
        let kind = match named.as_deref() {
            None | Some("mpirun") => Kind::OpenMpi,
            Some("mpiexec.mpich") => Kind::Hydra,
            Some("srun") => Kind::Srun,
            Some(other) => {
                panic!("FFIND_MPI_LAUNCHER={other}: expected mpirun, mpiexec.mpich or srun")
            }
        };
        let program = program(kind);
        let there = fixture::have(program)
            && (kind != Kind::Srun
                || Command::new("sinfo")
                    .arg("-h")
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status()
                    .is_ok_and(|s| s.success()));
        match (there, named) {
            (true, _) => Some(kind),
            (false, None) => None,
            (false, Some(named)) => panic!(
                "FFIND_MPI_LAUNCHER={named}, but {program} is missing{}",
                if kind == Kind::Srun {
                    " or no Slurm cluster answers (.ci/slurm-up.sh starts one; SLURM_CONF)"
                } else {
                    ""
                }
            ),
        }
    })
}

/// Whether to skip: no launcher, and none demanded. Says so, once per test.
pub fn skip() -> bool {
    let skip = launcher().is_none();
    if skip {
        eprintln!("skipped: mpirun is missing (FFIND_MPI_LAUNCHER=mpirun demands it)");
    }
    skip
}

fn program(kind: Kind) -> &'static str {
    static OPEN_MPI: std::sync::OnceLock<&str> = std::sync::OnceLock::new();
    match kind {
        // Debian's own name, whichever MPI the `mpirun` alternative points to.
        Kind::OpenMpi => OPEN_MPI.get_or_init(|| {
            if fixture::have("mpirun.openmpi") {
                "mpirun.openmpi"
            } else {
                "mpirun"
            }
        }),
        Kind::Hydra => "mpiexec.mpich",
        Kind::Srun => "srun",
    }
}

/// The launcher in use (the suite's tests call [`skip`] first).
pub fn kind() -> Kind {
    launcher().expect("no MPI launcher")
}

/// The words that start a program under the launcher with `n` processes, on this one node,
/// `FFIND_MPI_DEBUG=share-all` passed to every process when `share_all`; quiet (no report of
/// the launcher's own when the job exits non-zero) unless `loud`.
pub fn launch_words(n: usize, share_all: bool, loud: bool) -> Vec<String> {
    let mut words: Vec<String> = vec![program(kind()).into()];
    let mut add = |w: &[&str]| words.extend(w.iter().map(|w| w.to_string()));
    match kind() {
        Kind::OpenMpi => {
            // Oversubscribed (more processes than cores), unbound (a process gets every
            // core for its threads), on one node's shared memory.
            add(&[
                "--oversubscribe",
                "--bind-to",
                "none",
                "--mca",
                "pml",
                "ob1",
                "--mca",
                "btl",
                "self,vader",
                // Containers often forbid the cross-process copy (ptrace rights) that shared
                // memory uses for large messages: copy through the shared segment instead.
                "--mca",
                "btl_vader_single_copy_mechanism",
                "none",
            ]);
            if !loud {
                add(&["-q"]);
            }
            if is_root() {
                add(&["--allow-run-as-root"]);
            }
            if share_all {
                add(&["-x", "FFIND_MPI_DEBUG=share-all"]);
            }
        }
        Kind::Hydra => {
            if share_all {
                add(&["-genv", "FFIND_MPI_DEBUG", "share-all"]);
            }
        }
        Kind::Srun => {
            // --overcommit: more tasks than the job's cores (-n 4 on two).
            add(&[&format!("--mpi={}", srun_pmi()), "--overcommit"]);
            if !loud {
                add(&["--quiet"]);
            }
            if share_all {
                add(&["--export=ALL,FFIND_MPI_DEBUG=share-all"]);
            }
        }
    }
    add(&["-n", &n.to_string()]);
    words
}

/// srun's PMI plug-in, `FFIND_SRUN_MPI`: `pmix` (the default; what Debian's Open MPI speaks)
/// or `pmi2` (MPICH).
pub fn srun_pmi() -> String {
    std::env::var("FFIND_SRUN_MPI").unwrap_or_else(|_| "pmix".into())
}

/// [`launch_words`], quiet.
pub fn mpirun(n: usize, share_all: bool) -> Vec<String> {
    launch_words(n, share_all, false)
}

/// `LAUNCHER ... ffind --mpi args` in the tree's root, with the fixture's clean environment.
pub fn command(t: &Tree, n: usize, share_all: bool, args: &[&str]) -> Command {
    command_from(t, &mpirun(n, share_all), args)
}

/// `words... ffind --mpi args` in the tree's root, with the fixture's clean environment.
///
/// Open MPI keeps its session directory below the tree's home, not in the one that every job
/// of the user shares (`/tmp/ompi.HOST.UID`): a job ending in a test running alongside
/// removed that one while another job made its own in it, whose start then failed
/// (`mkdir ... File exists`: 1 run in 7 of the fault tests with both cores busy, which then
/// waited for ever on the job's output).
pub fn command_from(t: &Tree, words: &[String], args: &[&str]) -> Command {
    let mut c = Command::new(&words[0]);
    c.args(&words[1..])
        .arg(bin())
        .arg("--mpi")
        .args(args)
        .current_dir(t.root())
        .stdin(Stdio::null())
        .env("OMPI_MCA_orte_tmpdir_base", t.home());
    clean_env(&mut c, &t.home());
    c
}

/// Runs `LAUNCHER ... ffind --mpi args` in the tree's root.
pub fn run(t: &Tree, n: usize, share_all: bool, args: &[&str]) -> Run {
    Run::from(command(t, n, share_all, args).output().unwrap())
}

/// The sorted lines of a run's stderr, less the launcher's own report of a status that is not
/// 0: srun says `srun: error: HOST: task 0: Exited with exit code 1`, even with `--quiet`.
pub fn messages(run: &Run) -> Vec<&str> {
    let report = |l: &str| {
        kind() == Kind::Srun
            && l.starts_with("srun: error: ")
            && l.contains(": task 0: Exited with exit code ")
    };
    let mut lines: Vec<&str> = run.stderr.lines().filter(|l| !report(l)).collect();
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
        let what = format!(
            "{:?} -n {n} ffind --mpi {full:?} (share-all: {share_all})",
            kind()
        );
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
