//! `--mpi`: one search spread over the processes of an MPI job (`mpirun -n N ffind --mpi ...`,
//! or `srun`), on as many nodes as the job has; docs/SCALE.md says when and how to use it.
//!
//! The design, one file per concern:
//!
//! - [`launch`] (in both builds): whether a launcher started this process, read from the
//!   environment before MPI is touched. Without one, `--mpi` runs as one process.
//! - `queue.rs`: each process walks as `--method queue` does, with its own queue of
//!   directories and `-j` workers reading them with the same scan, decision and printer.
//! - `net.rs`: one coordinator thread per process makes every MPI call. A process whose
//!   workers run dry asks a random other for directories and gets the oldest half of its
//!   queue (work stealing between processes, as libcircle does); Safra's token ring decides
//!   that the walk is over, never early and never too late; output flows to process 0 under
//!   a window of credits.
//! - `wire.rs`: the messages' bytes.
//! - `rebuild.rs`: a directory handed to another process travels as its path, search root,
//!   depth and the links above it; the process it goes to rebuilds the state it is judged
//!   against (ignore files from the root down, `.git`, the `-L` ancestors) with the walk's own
//!   code, so every entry gets the verdict one process gives it.
//! - `writer.rs`: on process 0, the thread that gives the other processes' batches to the one
//!   printer (and their error lines to stderr).
//!
//! One output: process 0's printer alone writes (stdout, or `--output FILE`); the others'
//! printers format each record where it is found (its metadata is there) and forward whole
//! batches with where each record ends and its sort key, so that `--max-results`, `-q` and
//! `--sort` act on process 0 as in one process. Errors travel as whole lines and are written
//! by process 0, each once. The exit status is the worst of all processes, and only process 0
//! exits with it (a process that exits non-zero first makes mpirun kill the job).

pub mod launch;

#[cfg(feature = "mpi")]
mod net;
#[cfg(feature = "mpi")]
mod queue;
#[cfg(feature = "mpi")]
mod rebuild;
#[cfg(feature = "mpi")]
mod wire;
#[cfg(feature = "mpi")]
mod writer;

#[cfg(feature = "mpi")]
pub use session::Session;

#[cfg(feature = "mpi")]
mod session;
