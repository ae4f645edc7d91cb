//! fd's rule for a small search: results are held for a short while, and when the
//! walk ends within it they are sorted before they are written, so that a small tree lists
//! the same bytes every time, in fd's order, whatever the method and concurrency.
//!
//! fd (`src/walk.rs`, `ReceiverBuffer`) holds results for 100 ms or until it holds more than
//! 1,000; a walk that ends first has them sorted by path (`Path`'s order, here
//! [`Order::Fd`]). Past either limit, what is held is written as it came and the rest streams
//! as found. The same here: workers hand their batches to the [`Hold`] (with each record's key,
//! as `--sort` does) at every directory's end, and at once the batch of the result that makes
//! [`MAX_HELD`] + 1 found (counted as they are pushed, not as batches come: a huge directory
//! need not fill a batch first), which writes what is held; a thread of its own does when
//! the window closes, so that a walk stuck on a slow read still shows what it found after
//! 100 ms.
//!
//! A big search would pay for this with its first line coming once 1,001 results were found
//! rather than after its first directory. It need not: the lines a sorted output begins with
//! are known before the walk ends. Once the one search path's directory is read, nothing
//! found later can sort before its entries up to its first subdirectory the walk goes into
//! (what lies below a directory sorts right after it), nor, nearest first, before any of its
//! entries: those are written then ([`Hold::settle_root`]), the rest held as before, so a
//! small search prints the same bytes and a big one its first lines as soon as it did before
//! the hold (docs/PERFORMANCE.md has the figures). Nor does the window's thread start before
//! then: only once results are held, and the one search path read ([`Hold::start_window`]);
//! a window that closed before it started closes as soon as it does. (So while the search
//! path's own directory is still being read, which takes long only when it is huge or its
//! file system slow, what other threads found below it waits for the end of that read, past
//! the window if need be, and at most until 1,001 results were found.)

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::output::sort::{fd_order, Gathered, Keys, Order, Survey};

/// The most results held: one more, and they are written as they came (fd's
/// `MAX_BUFFER_LENGTH`).
pub const MAX_HELD: usize = 1000;

/// How long results are held by default (fd's `DEFAULT_MAX_BUFFER_TIME`; `--max-buffer-time`
/// changes it, as in fd).
pub const WINDOW: Duration = Duration::from_millis(100);

/// What appends one record to what is written (as it is, or aligned: `-l`'s columns).
pub type EachRecord<'a> = &'a dyn Fn(&[u8], &mut Vec<u8>);

/// Results held at the start of a search.
#[derive(Debug)]
pub struct Hold {
    /// Still holding (read without the lock on every result).
    holding: AtomicBool,
    /// Still holding, under the lock that every hand-over and the release take: nothing is
    /// added once what was held has been written, and nothing written before it.
    open: Mutex<bool>,
    /// Wakes the window's thread when the walk ends first.
    closed: Condvar,
    order: Order,
    pile: Gathered,
    /// Results found while held, handed over or still in the workers' batches.
    found: AtomicUsize,
    /// The window's thread was started ([`Hold::start_window`]).
    window: AtomicBool,
    /// The one search path is being read ([`Hold::reading_root`]): the window's thread waits.
    root_unread: AtomicBool,
    until: Instant,
}

impl Hold {
    /// Holds results for `window` from now; a walk that ends within it has them sorted in
    /// `order`.
    pub fn new(order: Order, window: Duration) -> Hold {
        Hold {
            holding: AtomicBool::new(true),
            open: Mutex::new(true),
            closed: Condvar::new(),
            order,
            pile: Gathered::new(order, None),
            found: AtomicUsize::new(0),
            window: AtomicBool::new(false),
            root_unread: AtomicBool::new(false),
            until: Instant::now() + window,
        }
    }

    /// Whether results are still held.
    #[inline]
    pub fn holding(&self) -> bool {
        self.holding.load(Ordering::Acquire)
    }

    /// Counts a result found while held; true for the one that makes too many, whose batch
    /// must be handed over at once (it writes what is held).
    #[inline]
    pub fn found_one(&self) -> bool {
        self.found.fetch_add(1, Ordering::Relaxed) == MAX_HELD
    }

    /// Whether the window's thread ([`Hold::wait`]) is to start now, which is true once: when
    /// results are held, and not while the one search path is being read (then once it was
    /// read: see [`Hold::root_read`]). Starting a thread takes the walk about 0.1 ms, which
    /// before the first line would delay it; and until results are held there is nothing for
    /// the thread to write when the window closes.
    pub fn start_window(&self) -> bool {
        !self.window.load(Ordering::Relaxed)
            && !self.root_unread.load(Ordering::Relaxed)
            && self.holding()
            && !self.window.swap(true, Ordering::AcqRel)
    }

    /// The walk starts reading its one search path: the window's thread waits for
    /// [`Hold::root_read`].
    pub fn reading_root(&self) {
        self.root_unread.store(true, Ordering::Relaxed);
    }

    /// The one search path was read (and its first lines written, [`Hold::settle_root`]):
    /// whether results are held, for which the window's thread is to start.
    pub fn root_read(&self) -> bool {
        self.root_unread.store(false, Ordering::Relaxed);
        !self.pile.is_empty()
    }

    fn lock(&self) -> MutexGuard<'_, bool> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes a batch's records (leaving it empty) while results are held; false once they
    /// stream, the batch untouched. Once too many were found ([`Hold::found_one`]), the batch
    /// writes all that is held, as it came, through `write`.
    pub fn take(&self, bytes: &mut Vec<u8>, keys: &mut Keys, write: &dyn Fn(&[u8])) -> bool {
        let mut open = self.lock();
        if !*open {
            return false;
        }
        self.pile.keep(bytes, keys);
        if self.found.load(Ordering::Relaxed) > MAX_HELD {
            self.release(&mut open, None, write);
        }
        true
    }

    /// Waits for the window to close (or the walk to end), then writes what is still held,
    /// as it came. Run on a thread of its own.
    pub fn wait(&self, write: &dyn Fn(&[u8])) {
        let mut open = self.lock();
        while *open {
            let left = self.until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return self.release(&mut open, None, write);
            }
            open = self
                .closed
                .wait_timeout(open, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// The one search path has been read, `least` being the first (in fd's order) of its
    /// subdirectories the walk goes on into: the results found in it that nothing still to be
    /// found can come before are written now, in their order, still held otherwise. In fd's
    /// order, those that sort no later than `least` (whatever lies below a subdirectory sorts
    /// after it); nearest first, all of them (the rest lie deeper). A small search's output
    /// is the same (these come first once sorted), and a big one's first line need not wait
    /// for its 1,001st result.
    pub fn settle_root(&self, least: Option<&[u8]>, write: &dyn Fn(&[u8])) {
        let open = self.lock();
        if !*open {
            return;
        }
        let nearest = self.order == Order::FdNearest;
        let pick = |depth: u32, key: &[u8]| {
            depth == 1 && (nearest || least.is_none_or(|l| fd_order(name_of(key), l).is_le()))
        };
        let mut out = Vec::new();
        self.pile.drain_where(&pick, &mut |record| {
            out.extend_from_slice(record);
            true
        });
        write(&out);
    }

    /// Writes what is still held, as it came, and lets results stream from now on.
    pub fn stream(&self, write: &dyn Fn(&[u8])) {
        let mut open = self.lock();
        if *open {
            self.release(&mut open, None, write);
        }
    }

    /// The walk has ended: what is still held is written sorted, each record through
    /// `record` (which appends it, as it is or aligned with the others: `-l`'s columns, which
    /// `survey` measures first over every record written).
    pub fn finish(&self, write: &dyn Fn(&[u8]), survey: Option<Survey>, record: EachRecord) {
        let mut open = self.lock();
        if *open {
            self.release(&mut open, Some((survey, record)), write);
        }
    }

    /// Writes what is held, sorted (every record through the survey first, if any, then each
    /// through `sorted`'s appender) or, without it, as it came, and lets results stream from
    /// now on.
    fn release(
        &self,
        open: &mut MutexGuard<'_, bool>,
        sorted: Option<(Option<Survey>, EachRecord)>,
        write: &dyn Fn(&[u8]),
    ) {
        // At most MAX_HELD records and one batch: written at once.
        let mut out = Vec::new();
        if let Some((survey, each)) = sorted {
            self.pile.drain(survey, &mut |record| {
                each(record, &mut out);
                true
            });
        } else {
            self.pile.drain_as_kept(&mut |record| {
                out.extend_from_slice(record);
                true
            });
        }
        write(&out);
        **open = false;
        self.holding.store(false, Ordering::Release);
        self.closed.notify_all();
    }
}

/// The last component of a path.
fn name_of(path: &[u8]) -> &[u8] {
    path.rsplit(|&b| crate::fs::is_separator(b))
        .next()
        .unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Appends a record as it is.
    fn as_it_is(record: &[u8], out: &mut Vec<u8>) {
        out.extend_from_slice(record);
    }

    /// A batch of `paths`, found while `hold` holds; true when one of them made too many.
    fn found(hold: &Hold, paths: &[&str]) -> (Vec<u8>, Keys, bool) {
        let mut too_many = false;
        for _ in paths {
            too_many |= hold.found_one();
        }
        let (bytes, keys) = batch(paths);
        (bytes, keys, too_many)
    }

    fn batch(paths: &[&str]) -> (Vec<u8>, Keys) {
        let (mut bytes, mut keys) = (Vec::new(), Keys::default());
        for p in paths {
            let start = bytes.len();
            bytes.extend_from_slice(p.as_bytes());
            bytes.push(b'\n');
            keys.note(p.as_bytes(), &bytes, start);
        }
        (bytes, keys)
    }

    /// What was written, in order.
    #[derive(Default)]
    struct Out(std::cell::RefCell<Vec<u8>>);

    impl Out {
        fn write(&self, bytes: &[u8]) {
            self.0.borrow_mut().extend_from_slice(bytes);
        }
        fn text(&self) -> String {
            String::from_utf8(self.0.borrow().clone()).unwrap()
        }
    }

    #[test]
    fn a_walk_that_ends_in_time_is_sorted_in_fds_order() {
        let hold = Hold::new(Order::Fd, Duration::from_secs(60));
        let out = Out::default();
        let write = |b: &[u8]| out.write(b);
        for part in [&["b", "a-b", "./x"][..], &["a/c", "a", "-y"]] {
            let (mut bytes, mut keys) = batch(part);
            assert!(hold.take(&mut bytes, &mut keys, &write));
            assert!(bytes.is_empty());
        }
        assert!(out.text().is_empty() && hold.holding());
        hold.finish(&write, None, &as_it_is);
        assert_eq!(out.text(), "./x\n-y\na\na/c\na-b\nb\n");
        assert!(!hold.holding());
        // Streaming now: a batch is left to the printer.
        let (mut bytes, mut keys) = batch(&["z"]);
        assert!(!hold.take(&mut bytes, &mut keys, &write));
        assert_eq!(bytes, b"z\n");
    }

    #[test]
    fn more_than_the_most_held_goes_out_as_it_came() {
        let hold = Hold::new(Order::Fd, Duration::from_secs(60));
        let out = Out::default();
        let write = |b: &[u8]| out.write(b);
        let names: Vec<String> = (0..=MAX_HELD).rev().map(|i| format!("f{i:04}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let (first, last) = names.split_at(MAX_HELD);
        let (mut bytes, mut keys, too_many) = found(&hold, first);
        assert!(!too_many);
        assert!(hold.take(&mut bytes, &mut keys, &write));
        assert!(out.text().is_empty(), "{MAX_HELD} results are still held");
        let (mut bytes, mut keys, too_many) = found(&hold, last);
        assert!(too_many, "the 1,001st");
        assert!(hold.take(&mut bytes, &mut keys, &write));
        assert!(!hold.holding());
        let want: String = names.iter().map(|n| format!("{n}\n")).collect();
        assert_eq!(out.text(), want);
    }

    #[test]
    fn the_window_closing_writes_what_is_held_as_it_came() {
        let hold = Hold::new(Order::Fd, Duration::from_millis(1));
        let out = Out::default();
        let write = |b: &[u8]| out.write(b);
        let (mut bytes, mut keys) = batch(&["b", "a"]);
        assert!(hold.take(&mut bytes, &mut keys, &write));
        hold.wait(&write);
        assert_eq!(out.text(), "b\na\n");
        assert!(!hold.holding());
        // The walk ending later writes nothing more.
        hold.finish(&write, None, &as_it_is);
        assert_eq!(out.text(), "b\na\n");
    }

    #[test]
    fn nearest_first_sorts_by_the_depth_noted() {
        let hold = Hold::new(Order::FdNearest, Duration::from_secs(60));
        // Two search paths: "deep/er" at depth 1 below its own, "a/b/c" at depth 2.
        let (mut bytes, mut keys) = at_depths(&[
            ("a/b/c", 2),
            ("deep/er/x", 1),
            ("a/b", 1),
            ("deep/er/x/y", 2),
        ]);
        let out = Out::default();
        let write = |b: &[u8]| out.write(b);
        assert!(hold.take(&mut bytes, &mut keys, &write));
        hold.finish(&write, None, &as_it_is);
        assert_eq!(out.text(), "a/b\ndeep/er/x\na/b/c\ndeep/er/x/y\n");
    }

    /// A batch of `(path, depth)` records.
    fn at_depths(records: &[(&str, u32)]) -> (Vec<u8>, Keys) {
        let (mut bytes, mut keys) = (Vec::new(), Keys::default());
        for (p, depth) in records {
            let start = bytes.len();
            bytes.extend_from_slice(p.as_bytes());
            bytes.push(b'\n');
            keys.note_at(p.as_bytes(), &bytes, start, *depth);
        }
        (bytes, keys)
    }

    /// A hold in `order` handed the search path "r" once read (its entries in the order it
    /// listed them, and one result found below its subdirectory "m" already), then told that
    /// the walk goes on into "m" and "n"; with what it wrote.
    fn r_read(order: Order) -> (Hold, Out) {
        let hold = Hold::new(order, Duration::from_secs(60));
        let out = Out::default();
        let (mut bytes, mut keys) = at_depths(&[
            ("r/z", 1),
            ("r/m/deep", 2),
            ("r/a-b", 1),
            ("r/m", 1),
            ("r/a", 1),
            ("r/n", 1),
        ]);
        assert!(hold.take(&mut bytes, &mut keys, &|b| out.write(b)));
        hold.settle_root(Some(b"m"), &|b| out.write(b));
        (hold, out)
    }

    #[test]
    fn what_sorts_before_all_still_to_be_found_is_written_once_the_search_path_is_read() {
        let (hold, out) = r_read(Order::Fd);
        let write = |b: &[u8]| out.write(b);
        // Up to "r/m" nothing can come before.
        assert_eq!(out.text(), "r/a\nr/a-b\nr/m\n");
        assert!(hold.holding());
        // Found later, sorted with the rest at the end, none written twice.
        let (mut bytes, mut keys) = at_depths(&[("r/n/x", 2), ("r/m/a", 2)]);
        assert!(hold.take(&mut bytes, &mut keys, &write));
        hold.finish(&write, None, &as_it_is);
        assert_eq!(
            out.text(),
            "r/a\nr/a-b\nr/m\nr/m/a\nr/m/deep\nr/n\nr/n/x\nr/z\n"
        );
    }

    #[test]
    fn past_the_hold_what_was_written_first_is_not_written_again() {
        let (hold, out) = r_read(Order::Fd);
        let write = |b: &[u8]| out.write(b);
        hold.stream(&write);
        assert_eq!(out.text(), "r/a\nr/a-b\nr/m\nr/z\nr/m/deep\nr/n\n");
        // Streaming now: nothing more is settled.
        hold.settle_root(None, &write);
        assert_eq!(out.text(), "r/a\nr/a-b\nr/m\nr/z\nr/m/deep\nr/n\n");
    }

    #[test]
    fn nearest_first_every_entry_of_the_search_path_is_written_once_it_is_read() {
        let (hold, out) = r_read(Order::FdNearest);
        let write = |b: &[u8]| out.write(b);
        assert_eq!(out.text(), "r/a\nr/a-b\nr/m\nr/n\nr/z\n");
        hold.finish(&write, None, &as_it_is);
        assert_eq!(out.text(), "r/a\nr/a-b\nr/m\nr/n\nr/z\nr/m/deep\n");
    }
}
