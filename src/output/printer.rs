//! The one writer: owns stdout, takes whole batches of paths from the workers.
//!
//! Workers append `path + terminator` to their own [`Batch`] and hand it over when it is full
//! (64 KiB), when they finish, or (so that a slow walk or a terminal still shows results as
//! they come) at the end of a directory when the last write is older than a tenth of a second.
//! A batch is one `write` under a mutex: no syscall per entry, no channel per entry, and a
//! slow reader simply blocks the workers, so memory stays bounded.
//!
//! At the start of a search the printer holds what it is handed, as fd does ([`Hold`]): a
//! small search is sorted before it is written, a bigger one streams once 1,000 results or
//! 100 ms have passed.
//!
//! Broken pipe (`ffind | head`) stops the walk quietly; any other write error stops it and is
//! reported once by `main`.
//!
//! Under `--mpi` (`walk/mpi/`) only process 0's printer writes. The others' printers are
//! [`Printer::forwarding`]: they format each record as usual, and hand each full batch, with
//! where its records end and their sort keys when a limit or `--sort` needs them, to process 0,
//! whose printer takes it as one of its own ([`Printer::take_batch`]).

use std::cell::Cell;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock, TryLockError};
use std::time::{Duration, Instant};

use crate::filter::Meta;
use crate::fs::Kind;
use crate::output::details::{Details, Widths};
use crate::output::hold::Hold;
use crate::output::sort::{Gathered, Keys, Order, Survey};
use crate::output::style::{Record, Style};
use crate::template::reads_as_option;

/// Bytes a batch gathers before it is written.
pub const BATCH_BYTES: usize = 64 * 1024;

/// How long output may wait in a worker's batch at a directory boundary.
const MAX_DELAY_MS: u64 = 100;

/// A worker's own output buffer.
#[derive(Debug, Default)]
pub struct Batch {
    buf: Vec<u8>,
    /// Something was pushed: told to the printer at the next flush, so that workers do not
    /// all write one shared flag per result.
    matched: bool,
    /// Room to build a path in (an output style given a "./"-guarded name).
    scratch: Vec<u8>,
    /// With `--sort`, and while results are held: each record's key and place in `buf`.
    keys: Keys,
    /// The depth below its search path of the entries being pushed, where a walk says it
    /// (the scans of `walk/scan.rs`): what a held breadth-first search is sorted by.
    pub depth: usize,
}

impl Batch {
    /// An empty batch.
    pub fn new() -> Batch {
        Batch {
            buf: Vec::new(),
            matched: false,
            scratch: Vec::new(),
            keys: Keys::default(),
            depth: 0,
        }
    }
}

/// Why output stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// Still running (or finished normally).
    No,
    /// The reader went away.
    BrokenPipe,
    /// `--max-results` (or `-q`) was reached.
    Limit,
    /// Writing failed for another reason (the error is kept).
    WriteError,
}

/// The single owner of stdout.
pub struct Printer {
    out: Mutex<Box<dyn Write + Send>>,
    terminator: u8,
    quiet: bool,
    /// Results still allowed, when limited.
    remaining: Option<AtomicU64>,
    matched: AtomicBool,
    stop: AtomicBool,
    why: Mutex<Stopped>,
    error: Mutex<Option<io::Error>>,
    started: Instant,
    last_write_ms: AtomicU64,
    /// Nothing written yet: the first directory's results go out at once (time to first
    /// result, `ffind | head -1`), later ones in full batches.
    nothing_written: AtomicBool,
    /// Flush at every directory boundary (stdout is a terminal).
    eager: bool,
    /// How results are shown, when more than their raw path (`None`: the fast path).
    style: Option<&'static Style>,
    /// Results relative to the current directory without a prefix get "./" when they start
    /// with '-', so that no result reads as an option (`ffind -e tmp | xargs rm`).
    dash_guard: bool,
    /// With `--sort`: the results set aside until the walk ends (and the limit applied then).
    sorted: Option<Gathered>,
    /// The results held at the start, as fd holds them (see the module's doc).
    hold: Option<Hold>,
    /// This printer, for the thread that closes the hold's window ([`Printer::close_window`]).
    this: OnceLock<&'static Printer>,
    /// Where full batches go instead of `out` (`--mpi`: to process 0's printer).
    forward: Option<Forward>,
    /// Note each record's place and key ([`Keys`]) for the printer batches are forwarded to:
    /// it applies a limit, or sorts.
    note_records: bool,
}

/// Where a forwarding printer's batches go: their bytes and their records' places and keys.
type Forward = Box<dyn Fn(Vec<u8>, Keys) + Send + Sync>;

impl std::fmt::Debug for Printer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Printer")
            .field("why", &self.why())
            .finish_non_exhaustive()
    }
}

impl Printer {
    /// A printer writing to `out` (normally stdout), results ended by `terminator`.
    pub fn new(
        out: Box<dyn Write + Send>,
        terminator: u8,
        quiet: bool,
        limit: Option<u64>,
        eager: bool,
    ) -> Printer {
        Printer {
            out: Mutex::new(out),
            terminator,
            quiet,
            remaining: limit.map(AtomicU64::new),
            matched: AtomicBool::new(false),
            stop: AtomicBool::new(false),
            why: Mutex::new(Stopped::No),
            error: Mutex::new(None),
            started: Instant::now(),
            last_write_ms: AtomicU64::new(0),
            nothing_written: AtomicBool::new(true),
            eager,
            style: None,
            dash_guard: false,
            sorted: None,
            hold: None,
            this: OnceLock::new(),
            forward: None,
            note_records: false,
        }
    }

    /// The same printer handing each full batch to `to` instead of writing it (`--mpi`: the
    /// processes other than 0). With `note_records`, each batch comes with where its records
    /// end and their sort keys, even with `quiet` (records of no bytes then), for a printer
    /// that applies a limit or sorts.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))] // used by walk/mpi only
    pub fn forwarding(self, to: Forward, note_records: bool) -> Printer {
        Printer {
            forward: Some(to),
            note_records,
            ..self
        }
    }

    /// The same printer showing results in `style` (`None`: raw paths), "./"-guarding
    /// results that start with '-' when `dash_guard`.
    pub fn with_style(self, style: Option<&'static Style>, dash_guard: bool) -> Printer {
        Printer {
            style,
            dash_guard,
            ..self
        }
    }

    /// Sorts the output: results are set aside and written in `order` by [`Printer::finish`];
    /// the limit applies then, to the sorted results. (With `quiet` nothing is printed, so
    /// there is nothing to sort.)
    pub fn sorted(mut self, order: Option<Order>) -> Printer {
        if let (Some(order), false) = (order, self.quiet) {
            let limit = self.remaining.take().map(AtomicU64::into_inner);
            self.sorted = Some(Gathered::new(order, limit));
        }
        self
    }

    /// Holds the first results for `window`, as fd does (see the module's doc): when the walk
    /// ends within it, having found at most [`crate::output::hold::MAX_HELD`] results, they
    /// are written sorted in `order`. A zero window streams from the start. (Sorted or quiet
    /// output has no use for it.) [`Printer::close_window`] must run too.
    pub fn held(mut self, order: Order, window: Duration) -> Printer {
        if self.sorted.is_none() && !self.quiet && !window.is_zero() {
            self.hold = Some(Hold::new(order, window));
        }
        self
    }

    /// Lets the window close: a thread of its own writes what is held when it does (without
    /// it, held results would wait for the next batch), started once results are held
    /// ([`Hold::start_window`]), which needs the printer for as long as the process lives.
    pub fn close_window(&'static self) {
        if self.hold.is_some() {
            // Set once, by main.
            let _ = self.this.set(self);
        }
    }

    /// Starts the window's thread if it is time to ([`Hold::start_window`]).
    fn start_window(&self) {
        let Some(&this) = self.this.get() else {
            return;
        };
        let Some(hold) = this.hold.as_ref().filter(|h| h.start_window()) else {
            return;
        };
        let started = std::thread::Builder::new()
            .name("ffind-hold".into())
            .spawn(move || hold.wait(&|bytes| this.write_out(bytes)));
        if started.is_err() {
            // No thread: stream from now on, rather than hold for as long as the walk takes.
            hold.stream(&|bytes| this.write_out(bytes));
        }
    }

    /// Whether results are being held (not yet written).
    #[inline]
    pub fn holding(&self) -> bool {
        self.hold.as_ref().is_some_and(Hold::holding)
    }

    /// The walk has read the directory of its one search path, `least` being the first (in
    /// fd's order) of the subdirectories it goes on into, and `batch` holding the last of its
    /// results: while results are held, those that must come first are written now
    /// ([`Hold::settle_root`]).
    ///
    /// The window's thread starts then, if results are held, not before: its start would
    /// delay the first line.
    pub fn root_read(&self, batch: &mut Batch, least: Option<&[u8]>) {
        let Some(hold) = &self.hold else {
            return;
        };
        // `-l`'s columns are aligned over all that is held: none of it is written early.
        if hold.holding() && self.details().is_none() {
            self.flush(batch);
            hold.settle_root(least, &|bytes| self.write_out(bytes));
        }
        if hold.root_read() {
            self.start_window();
        }
    }

    /// The walk starts reading its one search path, whose results are held:
    /// [`Printer::root_read`] is to follow.
    pub fn reading_root(&self) {
        if let Some(hold) = &self.hold {
            hold.reading_root();
        }
    }

    /// Whether the walk should stop (checked by workers once per directory and per result).
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    fn halt(&self, why: Stopped) {
        let mut w = self.why.lock().unwrap_or_else(|e| e.into_inner());
        if *w == Stopped::No {
            *w = why;
        }
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Adds one result; returns false when the walk should stop. Directories get a trailing
    /// "/", as fd prints them. `kind` is the entry's type (after following a link under
    /// `-L`) and `meta` its lazily fetched metadata, for output styles that show more than
    /// the path; a plain listing reads neither beyond `kind`.
    #[inline]
    pub fn push(&self, batch: &mut Batch, path: &[u8], kind: Kind, meta: &mut dyn Meta) -> bool {
        let plain = self.remaining.is_none()
            && !self.note_records
            && !self.quiet
            && self.style.is_none()
            && self.sorted.is_none()
            && !self.holding()
            && !(self.dash_guard && reads_as_option(path));
        if !plain {
            return self.push_any(batch, path, kind, meta);
        }
        // The plain listing, where the entry is read.
        batch.matched = true;
        push_plain(&mut batch.buf, path, kind);
        batch.buf.push(self.terminator);
        if batch.buf.len() >= BATCH_BYTES {
            self.flush(batch);
        }
        !self.stopped()
    }

    /// [`Printer::push`] for every output: a limit, a style, sorting, `--quiet`.
    #[inline(never)]
    fn push_any(&self, batch: &mut Batch, path: &[u8], kind: Kind, meta: &mut dyn Meta) -> bool {
        if let Some(remaining) = &self.remaining {
            if remaining
                .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1))
                .is_err()
            {
                self.halt(Stopped::Limit);
                return false;
            }
        }
        batch.matched = true;
        let start = batch.buf.len();
        if !self.quiet {
            let guard = self.dash_guard && reads_as_option(path);
            match self.style {
                Some(style) => push_styled(batch, style, path, guard, kind, meta),
                None => {
                    if guard {
                        batch.buf.extend_from_slice(crate::fs::CURRENT_DIR);
                    }
                    push_plain(&mut batch.buf, path, kind);
                }
            }
            batch.buf.push(self.terminator);
        }
        if self.sorted.is_some() || self.note_records {
            batch.keys.note(path, &batch.buf, start);
        } else if let Some(hold) = self.hold.as_ref().filter(|h| h.holding()) {
            // Below its own search path: a breadth-first search held is sorted nearest first.
            let depth = u32::try_from(batch.depth).unwrap_or(u32::MAX);
            batch.keys.note_at(path, &batch.buf, start, depth);
            if hold.found_one() {
                // Too many to hold: out with them now, not when the batch is full.
                self.flush(batch);
            }
        }
        if batch.buf.len() >= BATCH_BYTES {
            self.flush(batch);
        }
        if self
            .remaining
            .as_ref()
            .is_some_and(|r| r.load(Ordering::Acquire) == 0)
        {
            self.flush(batch);
            self.halt(Stopped::Limit);
            return false;
        }
        !self.stopped()
    }

    /// Called by workers after each directory: writes the batch if the terminal wants lines
    /// promptly or the last write is old.
    #[inline]
    pub fn directory_done(&self, batch: &mut Batch) {
        if batch.buf.is_empty() || self.sorted.is_some() {
            return;
        }
        // While held, each directory's results join the others at its end.
        if self.eager || self.nothing_written.load(Ordering::Relaxed) || self.holding() {
            self.flush(batch);
            return;
        }
        let now = self.started.elapsed().as_millis() as u64;
        if now.saturating_sub(self.last_write_ms.load(Ordering::Relaxed)) >= MAX_DELAY_MS {
            self.flush(batch);
        }
    }

    /// Writes the batch out (one write) and empties it.
    pub fn flush(&self, batch: &mut Batch) {
        if std::mem::take(&mut batch.matched) {
            self.matched.store(true, Ordering::Relaxed);
        }
        if let Some(to) = &self.forward {
            // A quiet batch holds records of no bytes.
            if !batch.buf.is_empty() || !batch.keys.is_empty() {
                let bytes = std::mem::replace(&mut batch.buf, Vec::with_capacity(BATCH_BYTES));
                to(bytes, std::mem::take(&mut batch.keys));
                self.wrote();
            }
            return;
        }
        if batch.buf.is_empty() {
            return;
        }
        if let Some(gathered) = &self.sorted {
            return gathered.keep(&mut batch.buf, &mut batch.keys);
        }
        if let Some(hold) = &self.hold {
            if hold.holding()
                && hold.take(&mut batch.buf, &mut batch.keys, &|bytes| {
                    self.write_out(bytes)
                })
            {
                self.start_window();
                return;
            }
            // Noted while results were held, written as they are now.
            batch.keys.clear();
        }
        self.write_out(&batch.buf);
        batch.buf.clear();
        if batch.buf.capacity() > 4 * BATCH_BYTES {
            batch.buf.shrink_to(BATCH_BYTES);
        }
    }

    /// Once the walk has ended: writes the results still held, sorted; with `--sort`, the
    /// results set aside, in order, in batches (the first N of them with a limit).
    pub fn finish(&self) {
        // What was held is written at once: `-l`'s columns are aligned over it, measured on
        // the records themselves (under `--mpi`, process 0 formatted few of them).
        let details = self.details().is_some();
        let widths = Cell::new(Widths::default());
        let measure = |record: &[u8]| {
            let mut w = widths.get();
            w.include(record);
            widths.set(w);
        };
        let record = |record: &[u8], out: &mut Vec<u8>| match details {
            true => widths.get().realign(record, out),
            false => out.extend_from_slice(record),
        };
        if let Some(hold) = &self.hold {
            let survey = details.then_some(&measure as Survey);
            hold.finish(&|bytes| self.write_out(bytes), survey, &record);
        }
        let Some(gathered) = &self.sorted else {
            return;
        };
        widths.set(Widths::default());
        let survey = details.then_some(&measure as Survey);
        let mut out = Vec::with_capacity(BATCH_BYTES);
        gathered.drain(survey, &mut |bytes| {
            record(bytes, &mut out);
            if out.len() >= BATCH_BYTES {
                self.write_out(&out);
                out.clear();
            }
            !self.stopped()
        });
        self.write_out(&out);
    }

    /// `-l`'s columns, when results are shown so.
    fn details(&self) -> Option<&'static Details> {
        match &self.style?.record {
            Record::Details(details) => Some(details),
            _ => None,
        }
    }

    /// One write of whole records to the output, under the lock; stops the walk on error.
    fn write_out(&self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        let result = {
            let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
            if self.why() == Stopped::BrokenPipe || self.why() == Stopped::WriteError {
                return;
            }
            out.write_all(bytes).and_then(|()| out.flush())
        };
        self.wrote();
        if let Err(e) = result {
            if e.kind() == io::ErrorKind::BrokenPipe || crate::fs::Fault::BrokenPipe.is(&e) {
                self.halt(Stopped::BrokenPipe);
            } else {
                self.error
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_or_insert(e);
                self.halt(Stopped::WriteError);
            }
        }
    }

    /// Stops the walk and writes `bytes` as the output's last: after the write in progress,
    /// and with the lock on the output kept, so that nothing follows (ffind is about to die
    /// of a signal, `output/interrupted.rs`). Waits for the write in progress at most
    /// `patience`, and no longer once `hurry` says so; false when `bytes` were not written.
    pub fn write_last(
        &self,
        bytes: &[u8],
        patience: Duration,
        hurry: &mut dyn FnMut() -> bool,
    ) -> bool {
        self.stop.store(true, Ordering::Relaxed);
        let until = Instant::now() + patience;
        let mut out = loop {
            match self.out.try_lock() {
                Ok(out) => break out,
                Err(TryLockError::Poisoned(e)) => break e.into_inner(),
                Err(TryLockError::WouldBlock) => {
                    if hurry() || Instant::now() >= until {
                        return false;
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
        };
        let _ = out.write_all(bytes).and_then(|()| out.flush());
        // Never unlocked: no write may follow.
        std::mem::forget(out);
        true
    }

    /// Notes that a batch went out (the delay before the next one starts now).
    fn wrote(&self) {
        self.nothing_written.store(false, Ordering::Relaxed);
        self.last_write_ms
            .store(self.started.elapsed().as_millis() as u64, Ordering::Relaxed);
    }

    /// Takes a batch that another process's [`Printer::forwarding`] printer formatted
    /// (`--mpi`, on process 0): set aside to be sorted, or written as one of this printer's
    /// own, cut after the record that reaches its limit (which `keys` says, when limited).
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))] // used by walk/mpi only
    pub fn take_batch(&self, mut bytes: Vec<u8>, mut keys: Keys) {
        if !bytes.is_empty() || !keys.is_empty() {
            self.matched.store(true, Ordering::Relaxed);
        }
        if let Some(gathered) = &self.sorted {
            return gathered.keep(&mut bytes, &mut keys);
        }
        let mut cut = bytes.len();
        if let Some(remaining) = &self.remaining {
            let mut took = 0;
            let left = remaining
                .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                    took = usize::try_from(n).map_or(keys.len(), |n| n.min(keys.len()));
                    Some(n - took as u64)
                })
                .map_or(0, |n| n - took as u64);
            cut = keys.end_of_first(took);
            if left == 0 {
                self.halt(Stopped::Limit);
            }
        }
        self.write_out(&bytes[..cut]);
    }

    /// Stops the walk because output ended elsewhere (`--mpi`: process 0 has written the last
    /// result, or cannot write).
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))] // used by walk/mpi only
    pub fn stop(&self) {
        self.halt(Stopped::Limit);
    }

    /// Why output stopped, if it did.
    pub fn why(&self) -> Stopped {
        *self.why.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether anything matched.
    pub fn matched(&self) -> bool {
        self.matched.load(Ordering::Relaxed)
    }

    /// The write error that stopped output, if any.
    pub fn take_error(&self) -> Option<io::Error> {
        self.error.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// A record as the plain listing writes it: the path's raw bytes, and the separator after a
/// directory ("/", Windows' "\").
#[inline]
fn push_plain(buf: &mut Vec<u8>, path: &[u8], kind: Kind) {
    buf.reserve(path.len() + 2);
    buf.extend_from_slice(path);
    if kind == Kind::Dir {
        buf.push(crate::fs::SEPARATOR);
    }
}

/// One result in an output style (`./`-guarded with `guard`),
/// formatted by the worker into its own batch (without the terminator). Kept out of line, so
/// that the plain listing's path stays small.
#[inline(never)]
fn push_styled(
    batch: &mut Batch,
    style: &Style,
    path: &[u8],
    guard: bool,
    kind: Kind,
    meta: &mut dyn Meta,
) {
    if guard {
        let mut guarded = std::mem::take(&mut batch.scratch);
        guarded.clear();
        guarded.extend_from_slice(crate::fs::CURRENT_DIR);
        guarded.extend_from_slice(path);
        style.write(&mut batch.buf, &guarded, kind, meta);
        batch.scratch = guarded;
    } else {
        style.write(&mut batch.buf, path, kind, meta);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::Stat;
    use std::sync::atomic::AtomicUsize;
    use std::sync::Arc;

    /// Metadata that is never there (most printer tests only print paths), or that `stat`
    /// gives (`-l`).
    struct Given(Option<Stat>);
    impl Meta for Given {
        fn stat(&mut self) -> Option<Stat> {
            self.0
        }
        fn executable(&mut self) -> bool {
            false
        }
        fn is_empty(&mut self, _: Kind) -> bool {
            false
        }
        fn contains(&mut self, _: &std::ffi::CStr) -> bool {
            false
        }
    }

    fn file() -> Kind {
        Kind::File
    }

    /// A directory's name as printed: with the system's separator after it (`\` on Windows,
    /// as fd writes it).
    fn dir(name: &str) -> String {
        format!("{name}{}", char::from(crate::fs::SEPARATOR))
    }

    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>, Arc<AtomicUsize>);

    impl Write for Sink {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.1.fetch_add(1, Ordering::Relaxed);
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn batches_many_results_into_few_writes() {
        let sink = Sink::default();
        let p = Printer::new(Box::new(sink.clone()), b'\n', false, None, false);
        let mut b = Batch::new();
        for i in 0..10_000 {
            assert!(p.push(
                &mut b,
                format!("dir/file{i}").as_bytes(),
                file(),
                &mut Given(None)
            ));
        }
        p.flush(&mut b);
        let out = sink.0.lock().unwrap();
        assert_eq!(out.iter().filter(|&&c| c == b'\n').count(), 10_000);
        assert!(
            sink.1.load(Ordering::Relaxed) < 10,
            "writes: {}",
            sink.1.load(Ordering::Relaxed)
        );
    }

    #[test]
    fn limit_stops_exactly() {
        let sink = Sink::default();
        let p = Printer::new(Box::new(sink.clone()), 0, false, Some(3), false);
        let mut b = Batch::new();
        assert!(p.push(&mut b, b"a", file(), &mut Given(None)));
        assert!(p.push(&mut b, b"b", Kind::Dir, &mut Given(None)));
        assert!(!p.push(&mut b, b"c", file(), &mut Given(None)));
        assert!(!p.push(&mut b, b"d", file(), &mut Given(None)));
        p.flush(&mut b);
        let want = format!("a\0{}\0c\0", dir("b"));
        assert_eq!(&*sink.0.lock().unwrap(), want.as_bytes());
        assert_eq!(p.why(), Stopped::Limit);
    }

    #[test]
    fn sorted_output_waits_for_finish_and_limits_after_sorting() {
        let sink = Sink::default();
        let p = Printer::new(Box::new(sink.clone()), b'\n', false, Some(2), false)
            .sorted(Some(Order::Path));
        let (mut b1, mut b2) = (Batch::new(), Batch::new());
        for name in ["c", "a-b"] {
            assert!(p.push(&mut b1, name.as_bytes(), file(), &mut Given(None)));
        }
        for name in ["d", "a"] {
            assert!(p.push(&mut b2, name.as_bytes(), Kind::Dir, &mut Given(None)));
        }
        p.directory_done(&mut b1);
        p.flush(&mut b1);
        p.flush(&mut b2);
        assert!(sink.0.lock().unwrap().is_empty(), "nothing before finish");
        p.finish();
        let want = format!("{}\na-b\n", dir("a"));
        assert_eq!(&*sink.0.lock().unwrap(), want.as_bytes());
        assert!(p.matched());
    }

    #[test]
    fn results_starting_with_a_dash_are_guarded_only_when_asked() {
        let sink = Sink::default();
        let p =
            Printer::new(Box::new(sink.clone()), b'\n', false, None, false).with_style(None, true);
        let mut b = Batch::new();
        p.push(&mut b, b"-rf", file(), &mut Given(None));
        p.push(&mut b, b"-d", Kind::Dir, &mut Given(None));
        p.push(&mut b, b"sub/-x", file(), &mut Given(None));
        p.flush(&mut b);
        // "./" on every system, as fd writes it.
        let want = format!("./-rf\n{}\nsub/-x\n", dir("./-d"));
        assert_eq!(&*sink.0.lock().unwrap(), want.as_bytes());
        let sink = Sink::default();
        let p = Printer::new(Box::new(sink.clone()), b'\n', false, None, false);
        p.push(&mut b, b"-rf", file(), &mut Given(None));
        p.flush(&mut b);
        assert_eq!(&*sink.0.lock().unwrap(), b"-rf\n");
    }

    /// Metadata of a file changed at the epoch (now, in the test), with `nlink` links and
    /// `size` bytes.
    fn sized(nlink: u32, size: u64) -> Given {
        Given(Some(Stat {
            mode: 0o100_644,
            size,
            mtime: 0,
            mtime_nsec: 0,
            uid: 0,
            gid: 0,
            dev: 0,
            ino: 0,
            nlink,
        }))
    }

    /// `--mpi --sort path -l`: process 0 sorts records that another process formatted, and
    /// its columns are aligned over all of them, not over the few it formatted itself (CI's
    /// failure: a run where process 0 formatted none printed every line unaligned).
    #[test]
    fn held_columns_are_aligned_over_records_another_printer_formatted() {
        let details = |_| {
            let style = Style {
                record: Record::Details(Details::new(jiff::tz::TimeZone::UTC, 0, false)),
                escape: false,
                colors: None,
                hyperlink: None,
                separator: None,
                owners: Default::default(),
            };
            &*Box::leak(Box::new(style))
        };
        let sink = Sink::default();
        let zero = Arc::new(
            Printer::new(Box::new(sink.clone()), b'\n', false, None, false)
                .with_style(Some(details(0)), false)
                .sorted(Some(Order::Path)),
        );
        let to = Arc::clone(&zero);
        let other = Printer::new(Box::new(Sink::default()), b'\n', false, None, false)
            .with_style(Some(details(1)), false)
            .forwarding(
                Box::new(move |bytes, keys| to.take_batch(bytes, keys)),
                true,
            );
        let (mut mine, mut theirs) = (Batch::new(), Batch::new());
        zero.push(&mut mine, b"a", file(), &mut sized(1, 0));
        other.push(&mut theirs, b"b", file(), &mut sized(12, 3 << 20));
        other.flush(&mut theirs);
        zero.flush(&mut mine);
        zero.finish();
        let out = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{out}");
        let path_at: Vec<usize> = lines.iter().map(|l| l.rfind(' ').unwrap()).collect();
        assert_eq!(path_at[0], path_at[1], "columns not aligned:\n{out}");
        assert!(lines[0].starts_with("-rw-r--r--  1 "), "{out}");
        assert!(lines[1].starts_with("-rw-r--r-- 12 "), "{out}");
        assert!(lines[0].contains("    0 Jan  1 00:00 a"), "{out}");
        assert!(lines[1].contains(" 3.0M Jan  1 00:00 b"), "{out}");
    }

    struct Full;
    impl Write for Full {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(crate::fs::Fault::NoSpace.error())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn write_errors_stop_the_walk_and_are_kept() {
        let p = Printer::new(Box::new(Full), b'\n', false, None, false);
        let mut b = Batch::new();
        p.push(&mut b, b"x", file(), &mut Given(None));
        p.flush(&mut b);
        assert!(p.stopped());
        assert_eq!(p.why(), Stopped::WriteError);
        assert!(crate::fs::Fault::NoSpace.is(&p.take_error().unwrap()));
    }
}
