//! Process 0's writer: the thread that gives the other processes' batches to the one printer
//! (which also takes process 0's own workers' batches) and their error lines to process 0's
//! reporter, then says which process each batch came from, so that the coordinator gives that
//! process its credit back. A slow stdout therefore holds the credits, which stops the other
//! processes' coordinators taking batches from their workers, whose channels fill, and their
//! workers wait: memory stays bounded on every process. The coordinator never writes itself:
//! it must keep answering the other processes while stdout is slow.

use crossbeam_channel::{Receiver, Sender};

use crate::output::printer::Printer;
use crate::report::Reporter;
use crate::walk::mpi::queue::Local;
use crate::walk::mpi::wire::{Item, Stream};

/// Writes every batch that comes through `items`, until the coordinator lets go of it.
pub fn write_all(
    items: Receiver<Item>,
    printer: &Printer,
    report: &Reporter,
    written: Sender<i32>,
    local: &Local,
) {
    for item in items {
        match item.stream {
            // Written as process 0's own (or set aside to be sorted, or cut at the limit).
            Stream::Results => printer.take_batch(item.bytes, item.keys),
            // Whole lines, each in one write: never interleaved with process 0's own
            // messages (and hidden as they are with --no-errors).
            Stream::Errors => report.relay(&item.bytes),
        }
        if written.send(item.from).is_err() {
            break;
        }
        local.kick();
    }
}
