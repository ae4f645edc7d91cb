//! `--mpi`'s sends: MPI's non-blocking sends (`MPI_Isend`) from buffers kept here until MPI
//! is done with them. rsmpi takes a `'static` buffer for a request that outlives any scope,
//! so each buffer is leaked when its send starts and freed once a test of the request says
//! the send is complete: the one `unsafe` of `--mpi`, kept on the ground floor with the
//! others (`tests/integration/house.rs`).

use mpi::request::{Request, StaticScope};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

/// Sends in flight, each with the buffer it reads.
#[derive(Default)]
pub struct Outbox {
    pending: Vec<(Request<'static, [u8]>, *mut [u8])>,
}

impl Outbox {
    /// Starts sending `data` to process `to` with `tag`.
    pub fn send(&mut self, world: &SimpleCommunicator, to: i32, tag: i32, data: Vec<u8>) {
        // MPI reads the buffer until the send completes, which only `progress` learns: the
        // buffer is leaked into a 'static slice for rsmpi, and freed there.
        let buf: &'static [u8] = Box::leak(data.into_boxed_slice());
        let req = world
            .process_at_rank(to)
            .immediate_send_with_tag(StaticScope, buf, tag);
        self.pending.push((req, buf as *const [u8] as *mut [u8]));
    }

    /// Tests every pending send and frees the buffers of those done. True if any was.
    pub fn progress(&mut self) -> bool {
        let before = self.pending.len();
        let mut still = Vec::with_capacity(before);
        for (req, buf) in self.pending.drain(..) {
            match req.test() {
                Ok(_) => {
                    // SAFETY: the send has completed, so MPI reads the buffer no more; it was
                    // leaked from a Box by `send` and is freed exactly once, here.
                    drop(unsafe { Box::from_raw(buf) });
                }
                Err(req) => still.push((req, buf)),
            }
        }
        self.pending = still;
        self.pending.len() != before
    }

    /// Whether no send is in flight.
    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }
}
