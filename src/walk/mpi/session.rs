//! An MPI job's life as one process of it sees it: MPI started on the thread that will make
//! every MPI call, an agreement that every process can search before any does, the search,
//! the worst exit status of all, and `MPI_Finalize` when the [`Session`] is dropped (every
//! exit path goes through it: a process that exits without it makes mpirun end the job with a
//! page of errors).

use crossbeam_channel::{bounded, unbounded};
use mpi::collective::SystemOperation;
use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

use crate::config::Config;
use crate::exit::Outcome;
use crate::output::printer::Printer;
use crate::output::sort::Keys;
use crate::report::Reporter;
use crate::walk::mpi::launch::{self, Debug};
use crate::walk::mpi::net::{Coordinator, Output, CREDITS};
use crate::walk::mpi::queue::{work, worker_starts, Job, Local};
use crate::walk::mpi::rebuild::Rebuild;
use crate::walk::mpi::wire::{Item, Stream};
use crate::walk::mpi::writer;
use crate::walk::scan::DirJob;
use crate::walk::threads::STACK_SIZE;

/// Batches a process's workers may have handed over and its coordinator not yet sent: with
/// the credits, what bounds the output a process holds ((4 + [`CREDITS`]) × 64 KiB).
const WORKER_BATCHES: usize = 4;

/// This process's part in the MPI job.
pub struct Session {
    debug: Debug,
    world: SimpleCommunicator,
    rank: i32,
    size: i32,
    /// Dropped last: `MPI_Finalize`.
    _universe: Universe,
}

/// Why a process cannot search: the outcome, and what to say (a whole message).
pub type Refused = (Outcome, String);

impl Session {
    /// Starts MPI on this thread, which then makes every MPI call (`MPI_THREAD_FUNNELED`).
    /// `None` when MPI was started already.
    pub fn start() -> Option<Session> {
        let (universe, threading) = mpi::initialize_with_threading(mpi::Threading::Funneled)?;
        let world = universe.world();
        let (rank, size) = (world.rank(), world.size());
        if threading == mpi::Threading::Single && rank == 0 {
            crate::report::say!(
                "ffind: warning: --mpi: the MPI library gives no thread support \
                 (MPI_THREAD_SINGLE); ffind's threads never call MPI, but such a library may \
                 not expect them"
            );
        }
        Some(Session {
            debug: launch::debug(),
            world,
            rank,
            size,
            _universe: universe,
        })
    }

    /// Whether this is process 0, the one that prints.
    pub fn is_first(&self) -> bool {
        self.rank == 0
    }

    /// How many processes the job has, as MPI sees it.
    pub fn size(&self) -> u32 {
        self.size.unsigned_abs()
    }

    /// The outcome this process exits with: process 0 says the job's, the others always
    /// succeed (one that exits non-zero first makes mpirun kill the job, maybe before process
    /// 0 has said why).
    pub fn exit(self, outcome: Outcome) -> Outcome {
        if self.is_first() {
            outcome
        } else {
            Outcome::Success
        }
    }

    /// Every process says whether it can search (its command line, configuration, output
    /// file): all go on, or none does. When some cannot, the first of them (process 0 when it
    /// is one: the reasons are alike everywhere) says why, and every process gets the worst
    /// outcome.
    pub fn agree<T>(&self, mine: Result<T, Refused>) -> Result<T, Outcome> {
        let (code, speaker) = match &mine {
            Ok(_) => (0, self.size),
            Err((outcome, _)) => (i32::from(outcome.code()), self.rank),
        };
        // One reduction for both: the worst code, and (as size − rank) the first refusing.
        let mut worst = [0i32; 2];
        self.world.all_reduce_into(
            &[code, self.size - speaker][..],
            &mut worst[..],
            SystemOperation::max(),
        );
        match mine {
            Ok(mine) if worst[0] == 0 => Ok(mine),
            mine => {
                if let Err((_, message)) = &mine {
                    if self.size - worst[1] == self.rank {
                        crate::report::say!("{message}");
                    }
                }
                Err(if worst[0] == i32::from(Outcome::Usage.code()) {
                    Outcome::Usage
                } else {
                    Outcome::Errors
                })
            }
        }
    }

    /// Searches `config`'s search paths with every process of the job. Process 0 passes the
    /// printer and reporter it owns; the others' are made here, forwarding to it. Returns
    /// whether any process reported an error.
    pub fn search(
        &self,
        config: &'static Config,
        first: Option<(&'static Printer, &'static Reporter)>,
    ) -> bool {
        // The queue, the printer and the reporter live as long as the process (as main's).
        let local: &'static Local = Box::leak(Box::default());
        let (to_coordinator, from_workers) = bounded::<Item>(WORKER_BATCHES);
        let rank = self.rank;
        let (printer, report) = match first {
            Some(first) => first,
            None => {
                let tx = to_coordinator.clone();
                let forward = Box::new(move |bytes: Vec<u8>, keys: Keys| {
                    let _ = tx.send(Item {
                        from: rank,
                        stream: Stream::Results,
                        bytes,
                        keys,
                    });
                    local.kick();
                });
                // A limit applies here too (this process can stop once it alone has found
                // that many); with --sort, only on process 0, after sorting.
                let limit = config.max_results.filter(|_| config.sort.is_none());
                let note_records = config.sort.is_some() || config.max_results.is_some();
                let printer = Printer::new(
                    Box::new(std::io::sink()),
                    config.terminator,
                    config.quiet,
                    limit,
                    false,
                )
                .with_style(config.style.as_ref(), config.dash_guard)
                .forwarding(forward, note_records);
                let tx = to_coordinator.clone();
                let report = Reporter::sending(Box::new(move |line: &[u8]| {
                    let _ = tx.send(Item {
                        from: rank,
                        stream: Stream::Errors,
                        bytes: line.to_vec(),
                        keys: Keys::default(),
                    });
                    local.kick();
                }));
                let printer: &'static Printer = Box::leak(Box::new(printer));
                let report: &'static Reporter = Box::leak(Box::new(report));
                (printer, report)
            }
        };
        drop(to_coordinator);
        let walk = crate::walk::prepare::prepare(config, printer, report);
        let rebuild = Rebuild::new(config.roots.len());
        if self.is_first() {
            // Said once, here; the other processes read the same files without a word.
            if let Some(ignore) = &config.ignore {
                ignore.report_unread(report);
            }
            let roots: Vec<Job> = config
                .roots
                .iter()
                .filter_map(|root| {
                    let state = walk.root_state(root)?;
                    Some(Job::Here(DirJob::root(root, state)))
                })
                .collect();
            local.inject(roots);
        }
        std::thread::scope(|scope| {
            let (walk, rebuild) = (&walk, &rebuild);
            for i in 0..walk.workers.max(1) {
                worker_starts(local);
                let started = std::thread::Builder::new()
                    .name(format!("ffind-mpi-{i}"))
                    .stack_size(STACK_SIZE)
                    .spawn_scoped(scope, move || work(walk, local, rebuild));
                if let Err(e) = started {
                    // A process without workers would hold its directories for ever: the job
                    // cannot go on (MPI_Abort ends every process, with mpirun's message).
                    crate::report::say!(
                        "ffind: --mpi: process {rank} cannot start a worker: {}",
                        crate::report::describe(&e)
                    );
                    self.world.abort(1);
                }
            }
            let output = if self.is_first() {
                let (to_writer, items) = bounded(CREDITS as usize);
                let (written_tx, written) = unbounded();
                std::thread::Builder::new()
                    .name("ffind-mpi-writer".into())
                    .spawn_scoped(scope, move || {
                        writer::write_all(items, printer, report, written_tx, local)
                    })
                    .unwrap_or_else(|_| self.world.abort(1));
                Output::First { to_writer, written }
            } else {
                Output::Other { from_workers }
            };
            let mut coordinator =
                Coordinator::new(&self.world, local, walk, output, self.debug.share_all);
            let started = std::time::Instant::now();
            coordinator.run();
            if self.debug.stats {
                let (read, rebuilt) = local.read();
                let s = &coordinator.stats;
                let line = format!(
                    "ffind: --mpi stats: process {rank}/{}: {:.3} s, {} workers, {read} \
                     directories read ({rebuilt} handed over), {} asked for work ({} given), \
                     {} received, {} given away, {} output messages\n",
                    self.size,
                    started.elapsed().as_secs_f64(),
                    walk.workers,
                    s.steal_requests,
                    s.steals_won,
                    s.jobs_received,
                    s.jobs_given,
                    s.output_messages,
                );
                let _ = std::io::Write::write_all(&mut std::io::stderr().lock(), line.as_bytes());
            }
        });
        let mine = i32::from(report.had_errors());
        let mut worst = 0i32;
        self.world
            .all_reduce_into(&mine, &mut worst, SystemOperation::max());
        worst != 0
    }
}
