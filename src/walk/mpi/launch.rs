//! Was this process started by an MPI launcher (`mpirun`, `mpiexec`, `srun`)? Decided from
//! the environment alone, before (and instead of) calling `MPI_Init`: in both builds, so that
//! an ffind built without MPI says so once instead of running N copies of one search.
//!
//! Why not call `MPI_Init` and look at the size: with Open MPI 4.1, `MPI_Init` in a process no
//! launcher started ("singleton init") forks an `orted` daemon and takes 0.8 to 1 s; without
//! `orted` on PATH it fails with a page of errors. So plain `ffind --mpi` must not initialize
//! MPI at all: it runs as one process.
//!
//! Variables, by launcher (checked with Open MPI 4.1.4's mpirun, MPICH 4.0.2's Hydra and
//! Slurm 22.05's srun; Intel MPI from its documentation):
//! - Open MPI `mpirun`/`mpiexec`: `OMPI_COMM_WORLD_SIZE`, `OMPI_COMM_WORLD_RANK`, and
//!   PMIx's `PMIX_RANK`.
//! - Slurm `srun`: `SLURM_PROCID`, `SLURM_STEP_NUM_TASKS`, plus `PMIX_RANK` (`--mpi=pmix`) or
//!   `PMI_RANK`/`PMI_SIZE` (`--mpi=pmi2`). `SLURM_PROCID` alone is also set in a batch
//!   script's shell, so it counts only with a PMI variable; a job step (`SLURM_STEP_ID`) of
//!   several tasks without one (`--mpi=none`) is a launch MPI cannot join into one job.
//! - MPICH and Intel MPI (Hydra): `PMI_RANK`, `PMI_SIZE`.
//!
//! These variables are inherited by whatever a launched process starts; ffind reads them once,
//! at start-up, and only with `--mpi`.

use std::ffi::{OsStr, OsString};

/// What the launcher says about this process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Launch {
    /// This process's rank, if the launcher says.
    pub rank: Option<u32>,
    /// How many processes the launcher started, if it says.
    pub size: Option<u32>,
    /// Started by `srun` without a process-management interface (`--mpi=none`): the tasks
    /// cannot find each other, so MPI would make each a job of its own.
    pub without_pmi: bool,
}

impl Launch {
    /// Whether this process is the one that speaks before MPI is up (usage errors, `--help`):
    /// process 0, or every process when the launcher does not say which is which.
    pub fn speaks(&self) -> bool {
        self.rank.is_none_or(|r| r == 0)
    }
}

/// `Some` when an MPI launcher started this process.
pub fn detect() -> Option<Launch> {
    detect_from(&|v| std::env::var_os(v))
}

fn detect_from(var: &dyn Fn(&str) -> Option<OsString>) -> Option<Launch> {
    let num = |v: &str| -> Option<u32> { var(v)?.to_str()?.trim().parse().ok() };
    let has = |v: &str| var(v).is_some();
    let launch = |rank, size| {
        Some(Launch {
            rank,
            size,
            without_pmi: false,
        })
    };
    let step_size = || num("SLURM_STEP_NUM_TASKS").or_else(|| num("SLURM_NTASKS"));
    if has("OMPI_COMM_WORLD_SIZE") {
        return launch(num("OMPI_COMM_WORLD_RANK"), num("OMPI_COMM_WORLD_SIZE"));
    }
    if has("PMIX_RANK") {
        return launch(num("PMIX_RANK"), step_size().or_else(|| num("PMI_SIZE")));
    }
    if has("PMI_RANK") || has("PMI_SIZE") {
        return launch(
            num("PMI_RANK").or_else(|| num("SLURM_PROCID")),
            num("PMI_SIZE").or_else(step_size),
        );
    }
    let size = num("SLURM_STEP_NUM_TASKS");
    if has("SLURM_STEP_ID") && size.is_some_and(|n| n > 1) {
        return Some(Launch {
            rank: num("SLURM_PROCID"),
            size,
            without_pmi: true,
        });
    }
    None
}

/// What process 0 says when the launcher started `launched` processes but MPI made each a
/// job of its own (`MPI_Init` found no launcher it speaks with).
#[cfg(feature = "mpi")]
pub fn alone_message(launched: u32) -> String {
    format!(
        "ffind: --mpi: the launcher started {launched} processes, but MPI made each a job of \
         its own: this ffind's MPI library does not speak the launcher's process-management \
         interface (under srun: --mpi=pmix for Open MPI, --mpi=pmi2 for MPICH; docs/SCALE.md)"
    )
}

/// Aids for testing and measuring `--mpi`, from `FFIND_MPI_DEBUG` (words separated by
/// commas). They change how the work is shared, never what is printed.
#[cfg(feature = "mpi")]
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Debug {
    /// `share-all`: a process asked for work hands over every directory it has queued (its
    /// last one too), so that most directories are read by another process than the one that
    /// found them (the tests' way to rebuild states everywhere).
    pub share_all: bool,
    /// `stats`: each process says on stderr, once the walk is over, what it did.
    pub stats: bool,
}

/// The aids `FFIND_MPI_DEBUG` asks for.
#[cfg(feature = "mpi")]
pub fn debug() -> Debug {
    let words = std::env::var("FFIND_MPI_DEBUG").unwrap_or_default();
    let has = |w: &str| words.split(',').any(|x| x.trim() == w);
    Debug {
        share_all: has("share-all"),
        stats: has("stats"),
    }
}

/// Whether `--mpi` is on a command line not parsed yet (before any `--`): under a launcher,
/// only process 0 then shows a parse error or `--help`, not every process.
pub fn asked(args: &[OsString]) -> bool {
    args.iter()
        .skip(1)
        .take_while(|a| a.as_os_str() != OsStr::new("--"))
        .any(|a| a == "--mpi")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(vars: &[(&str, &str)]) -> Option<Launch> {
        detect_from(&|v| {
            vars.iter()
                .find(|(k, _)| *k == v)
                .map(|(_, n)| OsString::from(n))
        })
    }

    #[test]
    fn a_plain_process_or_a_batch_script_is_not_launched() {
        assert_eq!(with(&[]), None);
        assert_eq!(with(&[("SLURM_PROCID", "0"), ("SLURM_NTASKS", "1")]), None);
        // A job step of one task (srun -n 1 script): a plain process too.
        let step = [
            ("SLURM_PROCID", "0"),
            ("SLURM_STEP_ID", "0"),
            ("SLURM_STEP_NUM_TASKS", "1"),
        ];
        assert_eq!(with(&step), None);
    }

    #[test]
    fn srun_without_pmi_is_a_launch_mpi_cannot_join() {
        let l = with(&[
            ("SLURM_PROCID", "1"),
            ("SLURM_STEP_ID", "0"),
            ("SLURM_STEP_NUM_TASKS", "4"),
        ])
        .unwrap();
        assert_eq!((l.rank, l.size, l.without_pmi), (Some(1), Some(4), true));
        let l = with(&[
            ("PMI_RANK", "1"),
            ("SLURM_STEP_ID", "0"),
            ("SLURM_STEP_NUM_TASKS", "4"),
        ])
        .unwrap();
        assert!(!l.without_pmi, "a PMI: MPI joins them");
    }

    #[test]
    fn each_launcher_says_the_rank_and_size() {
        let l = with(&[("OMPI_COMM_WORLD_SIZE", "4"), ("OMPI_COMM_WORLD_RANK", "2")]).unwrap();
        assert_eq!((l.rank, l.size, l.speaks()), (Some(2), Some(4), false));
        let l = with(&[("PMIX_RANK", "0"), ("SLURM_NTASKS", "8")]).unwrap();
        assert_eq!((l.rank, l.size, l.speaks()), (Some(0), Some(8), true));
        // A step of 2 tasks in an allocation of 8: the step's size.
        let l = with(&[
            ("PMIX_RANK", "1"),
            ("SLURM_NTASKS", "8"),
            ("SLURM_STEP_NUM_TASKS", "2"),
        ])
        .unwrap();
        assert_eq!((l.rank, l.size), (Some(1), Some(2)));
        let l = with(&[("PMI_RANK", "1"), ("PMI_SIZE", "2")]).unwrap();
        assert_eq!((l.rank, l.size), (Some(1), Some(2)));
        let l = with(&[("PMI_SIZE", "2")]).unwrap();
        assert!(l.speaks(), "no rank said: every process speaks");
    }

    #[test]
    fn mpi_is_asked_for_before_a_double_dash_only() {
        let args = |a: &[&str]| a.iter().map(OsString::from).collect::<Vec<_>>();
        assert!(asked(&args(&["ffind", "-e", "c", "--mpi", "."])));
        assert!(!asked(&args(&["ffind", "--", "--mpi"])));
        assert!(
            !asked(&args(&["--mpi"])),
            "the program name is not an argument"
        );
    }
}
