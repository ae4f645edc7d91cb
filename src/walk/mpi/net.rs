//! The coordinator of a process: the one thread that makes MPI calls (the thread that
//! initialized MPI, so `MPI_THREAD_FUNNELED` is all ffind asks of the MPI library). It
//!
//! - answers other processes' requests for work with the oldest half of its queue;
//! - asks a random other process for work when its workers run dry (one request at a time);
//! - runs Safra's termination detection (EWD998) on the ring 0 → 1 → … → N-1 → 0;
//! - sends its workers' output to process 0 under a window of credits, and on process 0
//!   hands the batches that arrive to the writer and gives their credits back once written;
//! - relays an early stop from process 0 to every process;
//! - and at the end receives every message still addressed to it, so that `MPI_Finalize`
//!   finds none unmatched anywhere.
//!
//! It never blocks in MPI: sends are `MPI_Isend` from buffers it owns ([`Outbox`], on the
//! ground floor, which frees each once its send is done: two
//! coordinators sending each other 64 KiB at once would deadlock in blocking sends), receives
//! an any-source, any-tag matched probe (`MPI_Improbe` + `MPI_Mrecv`), the final barrier
//! `MPI_Ibarrier` tested until done. Between rounds it sleeps on [`Local::wait_kick`] for a time
//! that doubles while nothing happens, up to [`POLL_MAX`]: workers wake it when they run dry,
//! go idle or hand over output; messages from other processes do not, so [`POLL_MAX`] bounds
//! how late an idle process answers. No busy polling (libcircle's, in `dfind`, collapses when
//! there are more processes than cores).
//!
//! # Termination: why it can neither end early nor hang
//!
//! The basic messages in Safra's sense are the `Work` messages only: they are the one way a
//! passive process (no directory queued, none being read) becomes active again. A request for
//! work does not activate its target (a passive one answers `NoWork`); output and credits carry
//! no directories. Each process keeps `counter` = Work sent − Work received, and a colour:
//! black once it has received Work since it last passed the token on. A process passes the
//! token only while passive, adding its counter and blackening the token if it is black, then
//! turns white. Process 0 starts a round (white token, count 0, itself white) when passive,
//! and declares the end when the token comes back white, process 0 is white and passive, and
//! `count + counter₀ == 0`.
//!
//! - It cannot end early: a Work message in flight is a +1 in the sum of the counters that no
//!   process has cancelled; a process that was passive when the token passed and became active
//!   later did so by receiving Work, which blackened it, and that reaches process 0 in this
//!   round's token or the next one (EWD998's invariant). So a white round summing to 0 means
//!   every process was passive with nothing in flight, and then none can become active again.
//!   Passivity is one locked snapshot of the queue and the count of directories being read,
//!   and only the coordinator adds directories to a passive process, so it cannot change under
//!   the coordinator's feet.
//! - It cannot hang: once every process is passive with nothing in flight, each passes the
//!   token at once, and at most two rounds later it comes back white with a sum of 0.
//!
//! After `Terminate` (sent by process 0 to all, after any `Stop`: MPI keeps the messages
//! between two processes in order, and the any-tag probe takes the oldest first), a process
//! still answers requests (`NoWork`), waits for the answer to its own, sends its last output
//! and `Done`, waits for all its credits, and only then enters the barrier, still answering
//! requests until it completes. Once the barrier completes every request has had its answer
//! (so every request was received), process 0 has received every batch (it counts them against
//! `Done`) and every credit it sent was received: nothing is left unmatched.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, TryRecvError, TrySendError};
use mpi::point_to_point::MatchedReceiveVec;
use mpi::request::Request;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

use crate::fs::sends::Outbox;
use crate::output::printer::Printer;
use crate::output::sort::Keys;
use crate::walk::contract::Walk;
use crate::walk::mpi::queue::{Job, Local};
use crate::walk::mpi::rebuild::hand;
use crate::walk::mpi::wire::{self, Item, Stream, Tag, Token};

/// Output batches a process may have sent to process 0 and not had credited back. 4 × 64 KiB
/// per round trip (a poll and a write) allows hundreds of MB/s per process, far above what
/// mpirun forwards (docs/SCALE.md).
pub const CREDITS: u32 = 4;

/// The longest idle wait between two looks at MPI: how late an idle process may answer.
pub const POLL_MAX: Duration = Duration::from_micros(500);

/// Error lines gathered into one message, at most (they come one per message from workers).
const ERRORS_BATCH: usize = 64 * 1024;

/// Process 0's side of the output: batches from the others, on their way to the writer.
struct First {
    /// Into the writer's channel; dropped once every process has sent all its output.
    to_writer: Option<Sender<Item>>,
    /// Batches the writer's channel had no room for (at most credits × (N-1)).
    overflow: VecDeque<Item>,
    /// The process of each batch the writer has dealt with.
    written: Receiver<i32>,
    /// Credits to give back, by process.
    owed: Vec<u32>,
    /// Batches received, and announced by `Done`, by process.
    received: Vec<u64>,
    announced: Vec<Option<u64>>,
    received_total: u64,
    credited_total: u64,
    stop_sent: bool,
}

/// The other processes' side of the output.
struct Other {
    /// The workers' output (results and error lines).
    from_workers: Receiver<Item>,
    /// Error lines gathered for one message.
    errors: Vec<u8>,
    /// A batch waiting for a credit.
    held: Option<Item>,
    credits: u32,
    sent: u64,
    credited: u64,
    done_sent: bool,
    /// Process 0 said stop: it writes no more results. (This process's printer may have
    /// stopped on its own, at a limit: the results it found up to there still go.)
    stop_received: bool,
}

/// Counts of what the coordinator did (for `docs/SCALE.md`'s figures).
#[derive(Debug, Default, Clone)]
pub struct Stats {
    /// Requests for work sent, and those answered with work.
    pub steal_requests: u64,
    /// Requests answered with work.
    pub steals_won: u64,
    /// Directories received from others, and given to others.
    pub jobs_received: u64,
    /// Directories given to others.
    pub jobs_given: u64,
    /// Token rounds started (process 0).
    pub rounds: u64,
    /// Output messages sent (other processes).
    pub output_messages: u64,
}

/// The coordinator of one process.
pub struct Coordinator<'a> {
    world: &'a SimpleCommunicator,
    rank: i32,
    size: i32,
    local: &'a Local,
    walk: &'a Walk<'a>,
    printer: &'a Printer,
    /// Hand over every queued directory when asked (`FFIND_MPI_DEBUG=share-all`).
    share_all: bool,
    outbox: Outbox,
    // Stealing.
    asked: Option<i32>,
    failures: u32,
    next_steal: Instant,
    rng: u64,
    // Safra.
    counter: i64,
    black: bool,
    token: Option<Token>,
    round_out: bool,
    // Output.
    first: Option<First>,
    other: Option<Other>,
    // The end.
    terminated: bool,
    barrier: Option<Request<'static, ()>>,
    barrier_done: bool,
    /// What it did.
    pub stats: Stats,
}

/// Where a coordinator's output goes: process 0 passes the writer's channel and where the
/// writer says what it has written; the others their workers' output.
pub enum Output {
    /// Process 0.
    First {
        /// Into the writer's channel.
        to_writer: Sender<Item>,
        /// The process of each batch written.
        written: Receiver<i32>,
    },
    /// The others.
    Other {
        /// The workers' output.
        from_workers: Receiver<Item>,
    },
}

impl<'a> Coordinator<'a> {
    /// The coordinator of this process of `world`.
    pub fn new(
        world: &'a SimpleCommunicator,
        local: &'a Local,
        walk: &'a Walk<'a>,
        output: Output,
        share_all: bool,
    ) -> Coordinator<'a> {
        let (rank, size) = (world.rank(), world.size());
        let n = size as usize;
        let (first, other) = match output {
            Output::First { to_writer, written } => (
                Some(First {
                    to_writer: Some(to_writer),
                    overflow: VecDeque::new(),
                    written,
                    owed: vec![0; n],
                    received: vec![0; n],
                    announced: vec![None; n],
                    received_total: 0,
                    credited_total: 0,
                    stop_sent: false,
                }),
                None,
            ),
            Output::Other { from_workers } => (
                None,
                Some(Other {
                    from_workers,
                    errors: Vec::new(),
                    held: None,
                    credits: CREDITS,
                    sent: 0,
                    credited: 0,
                    done_sent: false,
                    stop_received: false,
                }),
            ),
        };
        Coordinator {
            world,
            rank,
            size,
            local,
            walk,
            printer: walk.printer,
            share_all,
            outbox: Outbox::default(),
            asked: None,
            failures: 0,
            next_steal: Instant::now(),
            rng: 0x9E37_79B9_7F4A_7C15 ^ (rank as u64 + 1).wrapping_mul(0x2545_F491_4F6C_DD1D),
            counter: 0,
            black: false,
            token: None,
            round_out: false,
            first,
            other,
            terminated: false,
            barrier: None,
            barrier_done: false,
            stats: Stats::default(),
        }
    }

    fn send(&mut self, to: i32, tag: Tag, data: Vec<u8>) {
        self.outbox.send(self.world, to, tag as i32, data);
    }

    /// Runs until the walk is over in every process and nothing is left in flight.
    pub fn run(&mut self) {
        let mut idle_rounds = 0u32;
        loop {
            let mut progress = self.outbox.progress();
            progress |= self.receive_all();
            progress |= self.output();
            if !self.terminated {
                progress |= self.relay_stop();
                progress |= self.steal();
                progress |= self.token_step();
            } else {
                progress |= self.shutdown_step();
                if self.barrier_done && self.outbox.is_empty() {
                    break;
                }
            }
            if progress {
                idle_rounds = 0;
            } else {
                idle_rounds = idle_rounds.saturating_add(1);
                // Once more at once, then 10 µs doubling up to POLL_MAX.
                if idle_rounds > 1 {
                    let wait =
                        Duration::from_micros(10u64 << (idle_rounds - 2).min(10)).min(POLL_MAX);
                    self.local.wait_kick(wait);
                }
            }
        }
    }

    /// Receives and handles every message that has arrived. True if there was one.
    fn receive_all(&mut self) -> bool {
        let mut any = false;
        while let Some((msg, status)) = self.world.any_process().immediate_matched_probe() {
            let (data, _): (Vec<u8>, _) = (msg, status).matched_receive_vec();
            let from = status.source_rank();
            match Tag::from_i32(status.tag()) {
                Some(tag) => self.handle(from, tag, data),
                None => malformed(from, "tag"),
            }
            any = true;
        }
        any
    }

    fn handle(&mut self, from: i32, tag: Tag, data: Vec<u8>) {
        match tag {
            Tag::Steal => {
                let jobs = if !self.terminated && !self.printer.stopped() {
                    self.local.share(self.share_all)
                } else {
                    Vec::new()
                };
                let roots = &self.walk.config.roots;
                let handed: Vec<_> = jobs
                    .into_iter()
                    .filter_map(|job| match job {
                        Job::Here(job) => hand(roots, &job),
                        Job::Handed(handed) => Some(handed),
                    })
                    .collect();
                if handed.is_empty() {
                    self.send(from, Tag::NoWork, Vec::new());
                } else {
                    self.stats.jobs_given += handed.len() as u64;
                    self.counter += 1; // a basic message sent
                    self.send(from, Tag::Work, wire::encode_jobs(&handed));
                }
            }
            Tag::Work => {
                debug_assert!(!self.terminated, "work after termination");
                self.counter -= 1; // a basic message received
                self.black = true;
                self.asked = None;
                self.failures = 0;
                self.stats.steals_won += 1;
                let Some(jobs) = wire::decode_jobs(&data) else {
                    malformed(from, "work");
                };
                self.stats.jobs_received += jobs.len() as u64;
                if !self.printer.stopped() {
                    self.local.inject(jobs.into_iter().map(Job::Handed));
                }
            }
            Tag::NoWork => {
                self.asked = None;
                self.failures += 1;
                // Everyone asked once in vain: wait a little (longer each sweep, at most
                // 3.2 ms), so that the dry end of a walk is not a storm of requests.
                let others = (self.size - 1) as u32;
                if self.failures.is_multiple_of(others) {
                    let sweeps = (self.failures / others).min(6);
                    self.next_steal = Instant::now() + Duration::from_micros(50 << sweeps);
                }
            }
            Tag::Token => {
                debug_assert!(self.token.is_none(), "two tokens");
                self.token = Some(Token::decode(&data).unwrap_or_else(|| malformed(from, "token")));
            }
            Tag::Output => {
                let item =
                    wire::decode_batch(from, &data).unwrap_or_else(|| malformed(from, "output"));
                let Some(first) = self.first.as_mut() else {
                    malformed(from, "output to a process other than 0");
                };
                first.received[from as usize] += 1;
                first.received_total += 1;
                first.overflow.push_back(item);
            }
            Tag::Credit => {
                let n = wire::decode_u32(&data).unwrap_or_else(|| malformed(from, "credit"));
                if let Some(other) = self.other.as_mut() {
                    other.credits += n;
                    other.credited += u64::from(n);
                }
            }
            Tag::Stop => {
                self.printer.stop();
                self.local.discard();
                if let Some(o) = self.other.as_mut() {
                    o.stop_received = true;
                }
            }
            Tag::Terminate => self.enter_termination(),
            Tag::Done => {
                let n = wire::decode_u64(&data).unwrap_or_else(|| malformed(from, "done"));
                if let Some(first) = self.first.as_mut() {
                    first.announced[from as usize] = Some(n);
                }
            }
        }
    }

    fn output(&mut self) -> bool {
        if self.first.is_some() {
            self.first_output()
        } else {
            self.other_output()
        }
    }

    /// The other processes: sends the workers' batches to process 0 while credits last (error
    /// lines gathered first); once the workers have ended, says `Done`. Without a credit
    /// nothing is taken from the workers' channel, which fills and blocks them: that is the
    /// back-pressure a slow stdout on process 0 puts on every process.
    fn other_output(&mut self) -> bool {
        let Some(mut o) = self.other.take() else {
            return false;
        };
        let mut any = false;
        let stopped = o.stop_received;
        loop {
            let item = match o.held.take() {
                Some(item) => item,
                None => {
                    if o.credits == 0 && !stopped {
                        break;
                    }
                    match o.from_workers.try_recv() {
                        Ok(item) => item,
                        Err(TryRecvError::Empty | TryRecvError::Disconnected) => break,
                    }
                }
            };
            any = true;
            match item.stream {
                // After a stop process 0 writes no more results: they are not sent at all.
                Stream::Results if stopped => {}
                Stream::Errors if o.errors.len() + item.bytes.len() <= ERRORS_BATCH => {
                    o.errors.extend_from_slice(&item.bytes);
                }
                _ if o.credits == 0 => {
                    o.held = Some(item);
                    break;
                }
                Stream::Errors => {
                    let lines = std::mem::replace(&mut o.errors, item.bytes);
                    self.send_batch(&mut o, Stream::Errors, lines, Keys::default());
                }
                Stream::Results => self.send_batch(&mut o, item.stream, item.bytes, item.keys),
            }
        }
        // Error lines go once nothing else waits (each error is said, even after a stop).
        if !o.errors.is_empty() && o.held.is_none() && o.credits > 0 {
            let lines = std::mem::take(&mut o.errors);
            self.send_batch(&mut o, Stream::Errors, lines, Keys::default());
            any = true;
        }
        let all_out = self.terminated
            && self.local.running() == 0
            && o.from_workers.is_empty()
            && o.held.is_none()
            && o.errors.is_empty();
        if all_out && !o.done_sent {
            o.done_sent = true;
            self.send(0, Tag::Done, wire::encode_u64(o.sent));
            any = true;
        }
        self.other = Some(o);
        any
    }

    fn send_batch(&mut self, o: &mut Other, stream: Stream, bytes: Vec<u8>, keys: Keys) {
        o.credits -= 1;
        o.sent += 1;
        self.stats.output_messages += 1;
        let item = Item {
            from: self.rank,
            stream,
            bytes,
            keys,
        };
        self.send(0, Tag::Output, wire::encode_batch(&item));
    }

    /// Process 0: batches to the writer, credits back to their processes, and the end of
    /// the writer's input once every process is done.
    fn first_output(&mut self) -> bool {
        let Some(first) = self.first.as_mut() else {
            return false;
        };
        let mut any = false;
        if let Some(tx) = &first.to_writer {
            while let Some(item) = first.overflow.pop_front() {
                match tx.try_send(item) {
                    Ok(()) => any = true,
                    Err(TrySendError::Full(item) | TrySendError::Disconnected(item)) => {
                        first.overflow.push_front(item);
                        break;
                    }
                }
            }
        }
        while let Ok(from) = first.written.try_recv() {
            first.owed[from as usize] += 1;
        }
        let mut credits = Vec::new();
        for (r, owed) in first.owed.iter_mut().enumerate() {
            if *owed > 0 {
                credits.push((r as i32, *owed));
                first.credited_total += u64::from(*owed);
                *owed = 0;
            }
        }
        // Every process done and all it announced handed to the writer: the writer's input
        // ends.
        if self.terminated
            && first.to_writer.is_some()
            && first.overflow.is_empty()
            && (1..self.size as usize).all(|r| first.announced[r] == Some(first.received[r]))
        {
            first.to_writer = None;
            any = true;
        }
        for (r, n) in credits {
            self.send(r, Tag::Credit, wire::encode_u32(n));
            any = true;
        }
        any
    }

    /// Process 0: output has ended (the limit is reached, stdout is gone): every process
    /// stops.
    fn relay_stop(&mut self) -> bool {
        let Some(first) = self.first.as_mut() else {
            return false;
        };
        if first.stop_sent || !self.printer.stopped() {
            return false;
        }
        first.stop_sent = true;
        self.local.discard();
        for r in 1..self.size {
            self.send(r, Tag::Stop, Vec::new());
        }
        true
    }

    /// Asks a random other process for work when the workers are dry.
    fn steal(&mut self) -> bool {
        if self.size == 1
            || self.asked.is_some()
            || self.printer.stopped()
            || Instant::now() < self.next_steal
            || !self.local.hungry()
        {
            return false;
        }
        // xorshift64*: one of the others.
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        let r = (self.rng.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) % (self.size as u64 - 1);
        let victim = (self.rank + 1 + r as i32) % self.size;
        self.asked = Some(victim);
        self.stats.steal_requests += 1;
        self.send(victim, Tag::Steal, Vec::new());
        true
    }

    /// Safra's token: passed on (or, on process 0, judged) only while this process is
    /// passive.
    fn token_step(&mut self) -> bool {
        if !self.local.passive() {
            return false;
        }
        if self.size == 1 {
            self.enter_termination();
            return true;
        }
        let next = (self.rank + 1) % self.size;
        if self.rank != 0 {
            let Some(token) = self.token.take() else {
                return false;
            };
            let passed = Token {
                count: token.count + self.counter,
                black: token.black || self.black,
            };
            self.black = false;
            self.send(next, Tag::Token, passed.encode());
            return true;
        }
        if let Some(token) = self.token.take() {
            self.round_out = false;
            if !token.black && !self.black && token.count + self.counter == 0 {
                for r in 1..self.size {
                    self.send(r, Tag::Terminate, Vec::new());
                }
                self.enter_termination();
                return true;
            }
        }
        if !self.round_out {
            self.round_out = true;
            self.black = false;
            self.stats.rounds += 1;
            let white = Token {
                count: 0,
                black: false,
            };
            self.send(next, Tag::Token, white.encode());
            return true;
        }
        false
    }

    fn enter_termination(&mut self) {
        if !self.terminated {
            self.terminated = true;
            self.local.finish();
        }
    }

    /// After termination: enters the barrier once nothing is owed to or by this process, and
    /// tests it.
    fn shutdown_step(&mut self) -> bool {
        if self.barrier_done {
            return false;
        }
        if self.barrier.is_none() {
            let ready = self.asked.is_none()
                && match (&self.first, &self.other) {
                    (Some(first), _) => {
                        first.to_writer.is_none() && first.credited_total == first.received_total
                    }
                    (None, Some(o)) => o.done_sent && o.credited == o.sent,
                    (None, None) => true,
                };
            if !ready {
                return false;
            }
            self.barrier = Some(self.world.immediate_barrier());
        }
        let Some(req) = self.barrier.take() else {
            return false;
        };
        match req.test() {
            Ok(_) => {
                self.barrier_done = true;
                true
            }
            Err(req) => {
                self.barrier = Some(req);
                false
            }
        }
    }
}

/// A message this build of ffind did not send: another program, or another version, in the
/// job. Nothing sensible can follow: the process ends, and mpirun takes the job down.
fn malformed(from: i32, what: &str) -> ! {
    crate::report::say!("ffind: --mpi: a malformed {what} message from process {from}: are all processes the same ffind?");
    std::process::abort()
}
